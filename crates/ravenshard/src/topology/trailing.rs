//! The range `MoveBucket` appends after the prefixes' blocks when it moves bucket 2^20 - 1,
//! read as RavenDB's `ClientShardHelper.FindBucketShard` answers it.
//!
//! `FindBucketShard` walks the list in its order and, for a bucket of block `k`, answers
//! with the first range of block `k` whose next range starts above the bucket; when none
//! does, with the list's last range. A last range that starts in an earlier block than the
//! one before it is never found by the walk, so it answers only where the walk finds
//! nothing: every bucket of the last block's last range (whose next range is the trailing
//! one, starting below them). Bucket 2^20 - 1 itself is answered by the default block's
//! last range, as before the move.

use super::{BucketRange, Prefix};
use crate::config::ShardBucketRange;
use crate::{ConfigError, ConfigWarning, NUMBER_OF_BUCKETS};

/// A trailing range as read: where it is in the list and what it replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Trailing {
    /// Its start, as written.
    pub start: u32,
    /// Its shard, which answers for the last block's last range.
    pub shard: u32,
    /// The shard the last block's last range names in the list.
    pub covered: u32,
}

/// The last range of `raw` when it starts in an earlier block than the range before it.
pub(super) fn split(raw: &[ShardBucketRange]) -> (&[ShardBucketRange], Option<ShardBucketRange>) {
    match raw {
        [.., before, last]
            if last.bucket_range_start / NUMBER_OF_BUCKETS
                < before.bucket_range_start / NUMBER_OF_BUCKETS =>
        {
            (&raw[..raw.len() - 1], Some(*last))
        }
        _ => (raw, None),
    }
}

/// Gives the last range of `ranges` (ascending, validated) to the trailing range's shard,
/// as `FindBucketShard` answers; the warning says so.
pub(super) fn apply(
    ranges: &mut [BucketRange],
    trailing: &ShardBucketRange,
    known_shard: bool,
    at: &dyn Fn(&str) -> String,
) -> Result<(Trailing, ConfigWarning), ConfigError> {
    let index = ranges.len();
    let path = at(&format!("BucketRanges[{index}]"));
    if !known_shard {
        return Err(ConfigError::RangeUnknownShard {
            path: format!("{path}.ShardNumber"),
            shard: trailing.shard_number,
        });
    }
    let Some(last) = ranges.last_mut() else {
        return Err(ConfigError::RangeGap {
            path: at("BucketRanges"),
            block_start: 0,
            owner: "default".into(),
        });
    };
    let read = Trailing {
        start: trailing.bucket_range_start,
        shard: trailing.shard_number,
        covered: last.shard,
    };
    let warning = ConfigWarning::TrailingRange {
        path,
        start: read.start,
        shard: read.shard,
        covers: last.start,
        instead_of: last.shard,
    };
    last.shard = read.shard;
    Ok((read, warning))
}

/// The list as written: the last range with the shard it names, then the trailing range.
pub(super) fn write_back(ranges: &mut Vec<ShardBucketRange>, trailing: Option<Trailing>) {
    if let Some(t) = trailing {
        if let Some(last) = ranges.last_mut() {
            last.shard_number = t.covered;
        }
        ranges.push(ShardBucketRange {
            bucket_range_start: t.start,
            shard_number: t.shard,
        });
    }
}

/// A lookup range for each prefix block in `without` (blocks with no range in the list),
/// naming the list's last range's shard, as `FindBucketShard` answers for a bucket whose
/// block has no range; a warning for each.
pub(super) fn fill_blocks(
    ranges: &mut Vec<BucketRange>,
    without: &[u32],
    prefixes: &[Prefix],
    raw: &[ShardBucketRange],
    at: &dyn Fn(&str) -> String,
) -> Vec<ConfigWarning> {
    let Some(last) = raw.last() else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    for &start in without {
        let at_index = ranges.partition_point(|r| r.start < start);
        ranges.insert(
            at_index,
            BucketRange {
                start,
                end: start + NUMBER_OF_BUCKETS,
                shard: last.shard_number,
            },
        );
        let prefix = prefixes
            .iter()
            .find(|p| p.bucket_range_start == start)
            .map(|p| p.prefix.clone())
            .unwrap_or_default();
        warnings.push(ConfigWarning::BlockWithoutRanges {
            path: at("BucketRanges"),
            prefix,
            block_start: start,
            shard: last.shard_number,
        });
    }
    warnings
}
