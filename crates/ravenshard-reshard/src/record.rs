//! The record RavenDB ends with after a plan's calls: its `ShardHelper.MoveBucket`, bucket by
//! bucket in the calls' order, on the current `BucketRanges` (server source:
//! `src/Raven.Server/Utils/ShardHelper.cs`, 6.2 and 7.x). `MoveBucket` carves and merges
//! ranges as it goes and leaves what the list shows: an empty range when it moves a block's
//! last bucket, a prefix block whose first range starts late, and a range appended after
//! the prefixes' blocks when it moves bucket 2^20 - 1. The differential suite checks this
//! replay against the server's own (`tests/ravendb`).

use ravenshard::config::ShardBucketRange;
use ravenshard::NUMBER_OF_BUCKETS;
use std::fmt;

/// Why `MoveBucket` (or the check it runs after every move, `ValidateBucketsMapping`)
/// refuses a move; the messages are the server's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveRefused {
    /// The list has no range to move the bucket out of.
    NoRanges,
    /// The first range does not start at bucket 0.
    FirstNotZero {
        /// Its start.
        start: u32,
    },
    /// A range (not the last) starts at or below the one before it.
    Overlap {
        /// Its index.
        index: usize,
        /// Its start.
        start: u32,
        /// The previous range's start.
        previous: u32,
    },
    /// A range (not the last) names the shard the one before it names.
    NotMerged {
        /// Its index.
        index: usize,
        /// The shard.
        shard: u32,
    },
}

impl fmt::Display for MoveRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveRefused::NoRanges => write!(f, "the record has no bucket ranges"),
            MoveRefused::FirstNotZero { start } => {
                write!(f, "First mapping must start with zero, actual: {start}")
            }
            MoveRefused::Overlap {
                index,
                start,
                previous,
            } => write!(
                f,
                "Overlap detected between mapping '{index}' and '{}' start: {start}, previous \
                 end: {previous}",
                index - 1
            ),
            MoveRefused::NotMerged { index, shard } => write!(
                f,
                "Not merged shard continuous range detected between mapping '{index}' and \
                 '{}' at shard: {shard}",
                index - 1
            ),
        }
    }
}

impl std::error::Error for MoveRefused {}

/// What [`move_bucket`] did to the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Moved {
    /// The list changed.
    Changed,
    /// The list is as it was: the server found the bucket's range (or, for bucket
    /// 2^20 - 1, the list's last range) already on the shard asked for.
    Unchanged,
}

fn range(start: u32, shard: u32) -> ShardBucketRange {
    ShardBucketRange {
        bucket_range_start: start,
        shard_number: shard,
    }
}

/// `ShardHelper.MoveBucket(record, bucket, to_shard)` on `ranges`, then its
/// `ValidateBucketsMapping`, and whether the list changed. As on the server, a refused move
/// may leave the list changed.
///
/// # Examples
///
/// ```
/// use ravenshard::config::ShardBucketRange;
/// use ravenshard_reshard::{move_bucket, Moved};
///
/// let r = |s, n| ShardBucketRange { bucket_range_start: s, shard_number: n };
/// let mut ranges = vec![r(0, 0), r(524288, 1)];
/// for bucket in 600000..1048576 {
///     assert_eq!(move_bucket(&mut ranges, bucket, 2), Ok(Moved::Changed));
/// }
/// // An empty range at the last bucket, two ranges with one start, as the server leaves it.
/// assert_eq!(ranges, [r(0, 0), r(524288, 1), r(600000, 2), r(1048575, 1), r(1048575, 2)]);
/// // With a prefix block last in the list, on shard 0, the server looks at that block's
/// // range for bucket 2^20 - 1: moving it to shard 0 changes nothing, and it stays on 1.
/// let mut ranges = vec![r(0, 0), r(524288, 1), r(1048576, 0)];
/// assert_eq!(move_bucket(&mut ranges, 1048575, 0), Ok(Moved::Unchanged));
/// assert_eq!(ranges, [r(0, 0), r(524288, 1), r(1048576, 0)]);
/// // Moving the first bucket of the last range to a shard other than the one before it
/// // leaves that range empty and the next one on the same start: the server's own check
/// // refuses it.
/// let mut ranges = vec![r(0, 0), r(524288, 1)];
/// assert!(move_bucket(&mut ranges, 524288, 2).is_err());
/// ```
pub fn move_bucket(
    ranges: &mut Vec<ShardBucketRange>,
    bucket: u32,
    to_shard: u32,
) -> Result<Moved, MoveRefused> {
    if ranges.is_empty() {
        return Err(MoveRefused::NoRanges);
    }
    let moved = carve(ranges, bucket, to_shard)?;
    validate(ranges)?;
    Ok(moved)
}

/// The first `i < len - 1` with `bucket < ranges[i + 1].start`, as MoveBucket's loop finds
/// it (a binary search while the list is in order).
fn holder(ranges: &[ShardBucketRange], bucket: u32) -> Option<usize> {
    let n = ranges.len();
    let sorted = n < 2 || ranges[n - 1].bucket_range_start >= ranges[n - 2].bucket_range_start;
    let next = if sorted {
        ranges.partition_point(|r| r.bucket_range_start <= bucket)
    } else {
        (1..n)
            .find(|&j| bucket < ranges[j].bucket_range_start)
            .unwrap_or(n)
    };
    (next >= 1 && next < n).then(|| next - 1)
}

fn carve(ranges: &mut Vec<ShardBucketRange>, bucket: u32, to: u32) -> Result<Moved, MoveRefused> {
    let n = ranges.len();
    if bucket == 0 {
        if ranges[0].shard_number == to {
            return Ok(Moved::Unchanged);
        }
        ranges[0].bucket_range_start += 1;
        ranges.insert(0, range(0, to));
        return Ok(Moved::Changed);
    }
    if bucket == NUMBER_OF_BUCKETS - 1 {
        if ranges[n - 1].shard_number == to {
            return Ok(Moved::Unchanged);
        }
        ranges.push(range(bucket, to));
        return Ok(Moved::Changed);
    }
    let Some(i) = holder(ranges, bucket) else {
        return Ok(carve_last(ranges, bucket, to));
    };
    let start = ranges[i].bucket_range_start;
    let end = ranges[i + 1].bucket_range_start - 1;
    let current = ranges[i].shard_number;
    if current == to {
        return Ok(Moved::Unchanged);
    }
    // An index below 0 is the server's ArgumentOutOfRangeException: bucket 0 is handled
    // above, so it cannot happen in a list that starts at 0.
    let prev = |ranges: &[ShardBucketRange]| i.checked_sub(1).map(|p| ranges[p].shard_number);
    if end == start {
        let next = ranges[i + 1].shard_number;
        let before = prev(ranges).ok_or(MoveRefused::FirstNotZero { start })?;
        if next == to {
            ranges[i + 1].bucket_range_start -= 1;
            ranges.remove(i);
        }
        if before == to {
            ranges.remove(i);
        }
        if next != to && before != to {
            ranges[i].shard_number = to;
        }
    } else if bucket == start {
        ranges[i].bucket_range_start += 1;
        if prev(ranges).ok_or(MoveRefused::FirstNotZero { start })? != to {
            ranges.insert(i, range(bucket, to));
        }
    } else if bucket == end {
        if ranges[i + 1].shard_number == to {
            ranges[i + 1].bucket_range_start -= 1;
        } else {
            ranges.insert(i + 1, range(bucket, to));
        }
    } else {
        ranges.insert(i + 1, range(bucket, to));
        ranges.insert(i + 2, range(bucket + 1, current));
    }
    Ok(Moved::Changed)
}

/// A bucket at or after the last range's start.
fn carve_last(ranges: &mut Vec<ShardBucketRange>, bucket: u32, to: u32) -> Moved {
    let n = ranges.len();
    let last = ranges[n - 1];
    if bucket == last.bucket_range_start && n >= 2 && ranges[n - 2].shard_number == to {
        ranges[n - 1].bucket_range_start += 1;
        return Moved::Changed;
    }
    if last.shard_number == to {
        return Moved::Unchanged;
    }
    ranges.push(range(bucket, to));
    ranges.push(range(bucket + 1, last.shard_number));
    Moved::Changed
}

/// The shard RavenDB's `ClientShardHelper.FindBucketShard` answers for `bucket`: the first
/// range of the bucket's block whose next range starts above it, else the list's last.
pub(crate) fn find_bucket_shard(ranges: &[ShardBucketRange], bucket: u32) -> Option<u32> {
    let block = bucket / NUMBER_OF_BUCKETS;
    let found = ranges.windows(2).find(|w| {
        w[0].bucket_range_start / NUMBER_OF_BUCKETS == block && bucket < w[1].bucket_range_start
    });
    found
        .map(|w| w[0])
        .or(ranges.last().copied())
        .map(|r| r.shard_number)
}

/// `ShardHelper.ValidateBucketsMapping`: the first range starts at 0; every range but the
/// first and the last starts above the one before it and names another shard.
fn validate(ranges: &[ShardBucketRange]) -> Result<(), MoveRefused> {
    let first = &ranges[0];
    if first.bucket_range_start != 0 {
        return Err(MoveRefused::FirstNotZero {
            start: first.bucket_range_start,
        });
    }
    let (mut last_shard, mut last_start) = (first.shard_number, 0);
    for (index, r) in ranges
        .iter()
        .enumerate()
        .take(ranges.len().saturating_sub(1))
        .skip(1)
    {
        if r.bucket_range_start <= last_start {
            return Err(MoveRefused::Overlap {
                index,
                start: r.bucket_range_start,
                previous: last_start,
            });
        }
        if r.shard_number == last_shard {
            return Err(MoveRefused::NotMerged {
                index,
                shard: r.shard_number,
            });
        }
        last_start = r.bucket_range_start;
        last_shard = r.shard_number;
    }
    Ok(())
}
