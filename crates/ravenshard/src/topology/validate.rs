//! Validation of a sharding configuration, with RavenDB's rules and messages, and the
//! bucket ranges RavenDB creates for a new database.

use super::{BucketRange, Prefix, Shards, MAX_PREFIXES};
use crate::casing::{lower_invariant, ordinal_ignore_case};
use crate::config::{PrefixedShardingSetting, ShardBucketRange};
use crate::{ConfigError, ConfigWarning, NUMBER_OF_BUCKETS};
use std::cmp::Ordering;

pub(super) fn parse_shard_number(key: &str) -> Option<u32> {
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse().ok()
}

/// Splits the 2^20 block at `block_start` evenly across `shards`, in the order given.
pub(super) fn split_block(
    block_start: u32,
    shards: impl ExactSizeIterator<Item = u32>,
) -> Vec<ShardBucketRange> {
    let step = NUMBER_OF_BUCKETS / shards.len().max(1) as u32;
    shards
        .enumerate()
        .map(|(i, shard)| ShardBucketRange {
            bucket_range_start: block_start + i as u32 * step,
            shard_number: shard,
        })
        .collect()
}

pub(super) fn validate_prefixes(
    settings: &[PrefixedShardingSetting],
    shards: &Shards,
    creating: bool,
    at: &dyn Fn(&str) -> String,
) -> Result<Vec<Prefix>, ConfigError> {
    if settings.len() > MAX_PREFIXES {
        return Err(ConfigError::TooManyPrefixes {
            path: at("Prefixed"),
            count: settings.len(),
        });
    }
    let mut prefixes: Vec<Prefix> = Vec::with_capacity(settings.len());
    for (i, setting) in settings.iter().enumerate() {
        let path = |rest: &str| at(&format!("Prefixed[{i}]{rest}"));
        let prefix = setting.prefix.clone();
        if !(prefix.ends_with('/') || prefix.ends_with('-')) {
            return Err(ConfigError::PrefixMustEndWithSeparator {
                path: path(".Prefix"),
                prefix,
            });
        }
        if setting.shards.is_empty() {
            return Err(ConfigError::PrefixWithoutShards {
                path: path(".Shards"),
                prefix,
            });
        }
        if let Some((j, &shard)) = setting
            .shards
            .iter()
            .enumerate()
            .find(|(_, &s)| !shards.contains(s))
        {
            return Err(ConfigError::PrefixUnknownShard {
                path: path(&format!(".Shards[{j}]")),
                prefix,
                shard,
            });
        }
        if prefixes
            .iter()
            .any(|p| ordinal_ignore_case(&p.prefix, &prefix) == Ordering::Equal)
        {
            return Err(ConfigError::PrefixExists {
                path: path(".Prefix"),
                prefix,
            });
        }
        let bucket_range_start = if creating {
            0 // assigned by the caller in creation order
        } else {
            match setting.bucket_range_start {
                Some(s)
                    if s >= NUMBER_OF_BUCKETS
                        && s % NUMBER_OF_BUCKETS == 0
                        && (s / NUMBER_OF_BUCKETS) as usize <= MAX_PREFIXES
                        && !prefixes.iter().any(|p| p.bucket_range_start == s) =>
                {
                    s
                }
                start => {
                    return Err(ConfigError::PrefixBadRangeStart {
                        path: path(".BucketRangeStart"),
                        prefix,
                        start,
                    })
                }
            }
        };
        prefixes.push(Prefix {
            lower: lower_invariant(&prefix).into_owned(),
            prefix,
            shards: setting.shards.clone(),
            bucket_range_start,
            other: setting.other.clone(),
        });
    }
    Ok(prefixes)
}

/// The ranges, ascending, and the prefixes' blocks that have no range at all (MoveBucket
/// leaves such a block when the block before it and the one after end and start on the
/// shard a block's last bucket moves to; the caller answers for them).
pub(super) fn validate_ranges(
    raw: &[ShardBucketRange],
    shards: &Shards,
    prefixes: &[Prefix],
    at: &dyn Fn(&str) -> String,
) -> Result<(Vec<BucketRange>, Vec<u32>), ConfigError> {
    let block_owner = |block: u32| -> Option<Option<&Prefix>> {
        if block == 0 {
            Some(None)
        } else {
            prefixes
                .iter()
                .find(|p| p.bucket_range_start / NUMBER_OF_BUCKETS == block)
                .map(Some)
        }
    };
    let mut ranges: Vec<BucketRange> = Vec::with_capacity(raw.len());
    for (i, range) in raw.iter().enumerate() {
        let path = |rest: &str| at(&format!("BucketRanges[{i}]{rest}"));
        let (start, shard) = (range.bucket_range_start, range.shard_number);
        if !shards.contains(shard) {
            return Err(ConfigError::RangeUnknownShard {
                path: path(".ShardNumber"),
                shard,
            });
        }
        if let Some(previous) = ranges.last() {
            if start < previous.start {
                return Err(ConfigError::RangesOverlap {
                    path: path(".BucketRangeStart"),
                    start,
                    previous: previous.start,
                });
            }
        }
        let block = start / NUMBER_OF_BUCKETS;
        let owner = block_owner(block).ok_or_else(|| ConfigError::RangeOutsideBlocks {
            path: path(".BucketRangeStart"),
            start,
        })?;
        let block_start = block * NUMBER_OF_BUCKETS;
        let opens_block = ranges.last().is_none_or(|r| r.start < block_start);
        // A prefix's block may start late: MoveBucket moves its first bucket by raising the
        // first range's start, and FindBucketShard gives the buckets before it to that range.
        if opens_block && start != block_start && owner.is_none() {
            return Err(ConfigError::RangeGap {
                path: at("BucketRanges"),
                block_start,
                owner: owner_name(owner),
            });
        }
        if let Some(prefix) = owner {
            if !prefix.shards.contains(&shard) {
                return Err(ConfigError::RangeOutsidePrefixShards {
                    path: path(".ShardNumber"),
                    prefix: prefix.prefix.clone(),
                    shard,
                });
            }
        }
        if let Some(previous) = ranges.last_mut() {
            if previous.start >= block_start {
                previous.end = start;
            }
        }
        ranges.push(BucketRange {
            start,
            end: block_start + NUMBER_OF_BUCKETS,
            shard,
        });
    }
    let blocks = std::iter::once(None).chain(prefixes.iter().map(Some));
    let mut without = Vec::new();
    for owner in blocks {
        let block_start = owner.map_or(0, |p| p.bucket_range_start);
        let block = block_start / NUMBER_OF_BUCKETS;
        let has_range = match owner {
            None => ranges.iter().any(|r| r.start == 0),
            Some(_) => ranges.iter().any(|r| r.start / NUMBER_OF_BUCKETS == block),
        };
        if !has_range && (owner.is_none() || ranges.is_empty()) {
            return Err(ConfigError::RangeGap {
                path: at("BucketRanges"),
                block_start,
                owner: owner_name(owner),
            });
        }
        if !has_range {
            without.push(block_start);
        }
    }
    Ok((ranges, without))
}

fn owner_name(owner: Option<&Prefix>) -> String {
    match owner {
        None => "default".to_string(),
        Some(p) => format!("prefix '{}'", p.prefix),
    }
}

/// The warnings of a topology read; `listed` is how many ranges its `BucketRanges` list
/// holds (a trailing range included, which `ranges` leaves out).
pub(super) fn collect_warnings(
    shards: &Shards,
    ranges: &[BucketRange],
    listed: usize,
    prefixes: &[Prefix],
    at: &dyn Fn(&str) -> String,
) -> Vec<ConfigWarning> {
    let mut warnings = Vec::new();
    for (i, later) in prefixes.iter().enumerate() {
        if let Some(earlier) = prefixes[..i]
            .iter()
            .find(|p| later.lower.starts_with(&p.lower))
        {
            warnings.push(ConfigWarning::ShadowedPrefix {
                path: at(&format!("Prefixed[{i}].Prefix")),
                prefix: later.prefix.clone(),
                by: earlier.prefix.clone(),
            });
        }
    }
    for (i, range) in ranges.iter().enumerate() {
        if range.start == range.end {
            warnings.push(ConfigWarning::EmptyRange {
                path: at(&format!("BucketRanges[{i}]")),
                start: range.start,
                shard: range.shard,
                // ValidateBucketsMapping checks every range but the list's last.
                refuses_moves: i + 2 < listed,
            });
        }
    }
    // A sorted list, not a BTreeSet: one more set type is another copy of the B-tree code.
    let mut owning: Vec<u32> = ranges
        .iter()
        .filter(|r| r.start < r.end)
        .map(|r| r.shard)
        .collect();
    owning.sort();
    for shard in shards.numbers() {
        if owning.binary_search(&shard).is_err() {
            warnings.push(ConfigWarning::ShardWithoutBuckets {
                path: at(&format!("Shards.{shard}")),
                shard,
            });
        }
    }
    warnings
}
