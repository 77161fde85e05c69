//! Editing `BucketRanges`, free of the DOM: split, merge, move a boundary, assign a shard.
//!
//! Every function takes the whole list (all blocks) and returns a new one; none of them
//! validates the result against RavenDB's rules, which is the core's job
//! ([`Topology::from_configuration`](ravenshard::Topology::from_configuration)). They only
//! refuse edits that have no meaning (a range that does not exist, a split outside the
//! range, a merge without a neighbour in the same block).

use ravenshard::config::ShardBucketRange;
use ravenshard::NUMBER_OF_BUCKETS;
use std::fmt;

/// Why an edit of the ranges cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangeEditError {
    /// There is no range at this index.
    NoSuchRange {
        /// The index asked for.
        index: usize,
    },
    /// A range of a single bucket cannot be split.
    SingleBucket {
        /// The range's bucket.
        start: u32,
    },
    /// The split point is not strictly inside the range.
    SplitOutside {
        /// Where the split was asked for.
        at: u32,
        /// The range's first bucket.
        start: u32,
        /// One past the range's last bucket.
        end: u64,
    },
    /// The range is the last of its block, so it has no next neighbour to merge with.
    NoNextInBlock {
        /// The range's first bucket.
        start: u32,
    },
    /// A typed bucket number is not a number.
    NotABucket {
        /// The text as typed.
        text: String,
    },
}

impl fmt::Display for RangeEditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeEditError::NoSuchRange { index } => {
                write!(f, "There is no bucket range #{index}.")
            }
            RangeEditError::SingleBucket { start } => write!(
                f,
                "The bucket range starting at {start} holds a single bucket and cannot be split."
            ),
            RangeEditError::SplitOutside { at, start, end } => write!(
                f,
                "Cannot split at bucket {at}: the bucket range holds buckets {start} to {}. \
                 Split at a bucket after its first one.",
                end.saturating_sub(1)
            ),
            RangeEditError::NoNextInBlock { start } => write!(
                f,
                "The bucket range starting at {start} is the last of its block: there is no next \
                 range to merge it with."
            ),
            RangeEditError::NotABucket { text } => write!(
                f,
                "'{text}' is not a bucket number. Type a whole number from 0 to {}.",
                u32::MAX
            ),
        }
    }
}

impl std::error::Error for RangeEditError {}

/// The block (0 for the default block) that holds `bucket`.
pub fn block_of(bucket: u32) -> u32 {
    bucket / NUMBER_OF_BUCKETS
}

/// One past the last bucket of the block that holds `bucket`.
pub fn block_end_of(bucket: u32) -> u64 {
    (u64::from(block_of(bucket)) + 1) * u64::from(NUMBER_OF_BUCKETS)
}

/// One past the last bucket of range `index`: the next range's start when the next range is
/// in the same block and after it, else the end of the block. `None` for no such range.
pub fn range_end(ranges: &[ShardBucketRange], index: usize) -> Option<u64> {
    let range = ranges.get(index)?;
    let block_end = block_end_of(range.bucket_range_start);
    Some(match ranges.get(index + 1) {
        Some(next)
            if block_of(next.bucket_range_start) == block_of(range.bucket_range_start)
                && next.bucket_range_start > range.bucket_range_start =>
        {
            u64::from(next.bucket_range_start)
        }
        _ => block_end,
    })
}

/// Indices of the ranges that start in block `block`, in list order.
pub fn ranges_in_block(ranges: &[ShardBucketRange], block: u32) -> Vec<usize> {
    ranges
        .iter()
        .enumerate()
        .filter(|(_, r)| block_of(r.bucket_range_start) == block)
        .map(|(i, _)| i)
        .collect()
}

/// The bucket in the middle of range `index` (where "Split" splits by default).
pub fn middle_of(ranges: &[ShardBucketRange], index: usize) -> Option<u32> {
    let start = u64::from(ranges.get(index)?.bucket_range_start);
    let end = range_end(ranges, index)?;
    u32::try_from(start + end.saturating_sub(start) / 2).ok()
}

/// Splits range `index` in two at bucket `at` (its middle when `None`): the new range
/// `[at, end)` goes to the same shard.
///
/// ```
/// use ravenshard::config::ShardBucketRange as R;
/// use ravenshard_studio::widgets::ranges::split_range;
///
/// let ranges = [R { bucket_range_start: 0, shard_number: 0 }];
/// let split = split_range(&ranges, 0, None).unwrap();
/// assert_eq!(split[1], R { bucket_range_start: 524288, shard_number: 0 });
/// ```
pub fn split_range(
    ranges: &[ShardBucketRange],
    index: usize,
    at: Option<u32>,
) -> Result<Vec<ShardBucketRange>, RangeEditError> {
    let range = *ranges
        .get(index)
        .ok_or(RangeEditError::NoSuchRange { index })?;
    let start = range.bucket_range_start;
    let end = range_end(ranges, index).ok_or(RangeEditError::NoSuchRange { index })?;
    if end.saturating_sub(u64::from(start)) < 2 {
        return Err(RangeEditError::SingleBucket { start });
    }
    let at = match at {
        Some(at) => at,
        None => middle_of(ranges, index).ok_or(RangeEditError::NoSuchRange { index })?,
    };
    if at <= start || u64::from(at) >= end {
        return Err(RangeEditError::SplitOutside { at, start, end });
    }
    let mut out = ranges.to_vec();
    out.insert(
        index + 1,
        ShardBucketRange {
            bucket_range_start: at,
            shard_number: range.shard_number,
        },
    );
    Ok(out)
}

/// Merges range `index` with the next range of its block: the next range is removed, so its
/// buckets go to range `index`'s shard.
pub fn merge_with_next(
    ranges: &[ShardBucketRange],
    index: usize,
) -> Result<Vec<ShardBucketRange>, RangeEditError> {
    let range = ranges
        .get(index)
        .ok_or(RangeEditError::NoSuchRange { index })?;
    match ranges.get(index + 1) {
        Some(next) if block_of(next.bucket_range_start) == block_of(range.bucket_range_start) => {
            let mut out = ranges.to_vec();
            out.remove(index + 1);
            Ok(out)
        }
        _ => Err(RangeEditError::NoNextInBlock {
            start: range.bucket_range_start,
        }),
    }
}

/// Moves the start of range `index` (the boundary with the range before it) to `start`.
/// The result may be invalid (overlapping, outside the block): the core says why.
pub fn set_boundary(
    ranges: &[ShardBucketRange],
    index: usize,
    start: u32,
) -> Result<Vec<ShardBucketRange>, RangeEditError> {
    let mut out = ranges.to_vec();
    let range = out
        .get_mut(index)
        .ok_or(RangeEditError::NoSuchRange { index })?;
    range.bucket_range_start = start;
    Ok(out)
}

/// Gives range `index` to `shard`.
pub fn assign_shard(
    ranges: &[ShardBucketRange],
    index: usize,
    shard: u32,
) -> Result<Vec<ShardBucketRange>, RangeEditError> {
    let mut out = ranges.to_vec();
    let range = out
        .get_mut(index)
        .ok_or(RangeEditError::NoSuchRange { index })?;
    range.shard_number = shard;
    Ok(out)
}

/// Reads a typed bucket number (surrounding spaces and `,` or `_` digit separators allowed).
pub fn parse_bucket(text: &str) -> Result<u32, RangeEditError> {
    let digits: String = text
        .trim()
        .chars()
        .filter(|c| *c != ',' && *c != '_')
        .collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(RangeEditError::NotABucket {
            text: text.trim().to_string(),
        });
    }
    digits.parse().map_err(|_| RangeEditError::NotABucket {
        text: text.trim().to_string(),
    })
}

/// Ranges for the tests of the editing functions.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A range starting at `start`, of `shard`.
    pub(crate) fn r(start: u32, shard: u32) -> ShardBucketRange {
        ShardBucketRange {
            bucket_range_start: start,
            shard_number: shard,
        }
    }

    /// Three ranges in the default block (at 0, 349,525 and 699,050, shards 0 to 2) and
    /// two in block 1.
    pub(crate) fn three() -> Vec<ShardBucketRange> {
        let b = NUMBER_OF_BUCKETS;
        vec![r(0, 0), r(349525, 1), r(699050, 2), r(b, 0), r(b + 100, 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{r, three};
    use super::*;
    use ravenshard::Topology;

    const B: u32 = NUMBER_OF_BUCKETS;

    #[test]
    fn ends_stop_at_the_next_range_or_the_block() {
        let ranges = three();
        assert_eq!(range_end(&ranges, 0), Some(349525));
        assert_eq!(range_end(&ranges, 2), Some(u64::from(B)));
        assert_eq!(range_end(&ranges, 3), Some(u64::from(B) + 100));
        assert_eq!(range_end(&ranges, 4), Some(2 * u64::from(B)));
        assert_eq!(range_end(&ranges, 5), None);
        assert_eq!(ranges_in_block(&ranges, 1), vec![3, 4]);
        assert_eq!(ranges_in_block(&ranges, 7), Vec::<usize>::new());
    }

    #[test]
    fn split_at_the_middle_or_a_typed_bucket() {
        let ranges = three();
        let split = split_range(&ranges, 0, None).unwrap();
        assert_eq!(split.len(), 6);
        assert_eq!(split[1], r(174762, 0));
        assert_eq!(split[2], r(349525, 1));
        let typed = split_range(&ranges, 2, Some(700000)).unwrap();
        assert_eq!(typed[3], r(700000, 2));
        assert_eq!(
            split_range(&ranges, 2, Some(699050)),
            Err(RangeEditError::SplitOutside {
                at: 699050,
                start: 699050,
                end: u64::from(B)
            })
        );
        assert!(split_range(&ranges, 2, Some(B)).is_err());
        assert_eq!(
            split_range(&ranges, 9, None),
            Err(RangeEditError::NoSuchRange { index: 9 })
        );
        let single = vec![r(0, 0), r(1, 1)];
        assert_eq!(
            split_range(&single, 0, None),
            Err(RangeEditError::SingleBucket { start: 0 })
        );
    }

    #[test]
    fn merge_only_within_a_block() {
        let ranges = three();
        let merged = merge_with_next(&ranges, 0).unwrap();
        assert_eq!(merged, vec![r(0, 0), r(699050, 2), r(B, 0), r(B + 100, 1)]);
        assert_eq!(
            merge_with_next(&ranges, 2),
            Err(RangeEditError::NoNextInBlock { start: 699050 })
        );
        assert!(merge_with_next(&ranges, 4).is_err());
        assert!(merge_with_next(&ranges, 5).is_err());
    }

    #[test]
    fn boundaries_and_shards() {
        let ranges = three();
        assert_eq!(set_boundary(&ranges, 1, 5).unwrap()[1], r(5, 1));
        assert_eq!(assign_shard(&ranges, 2, 0).unwrap()[2], r(699050, 0));
        assert!(set_boundary(&ranges, 5, 1).is_err());
        assert!(assign_shard(&ranges, 5, 1).is_err());
    }

    #[test]
    fn parse_bucket_accepts_separators_only() {
        assert_eq!(parse_bucket(" 1,048,576 "), Ok(B));
        assert_eq!(parse_bucket("12_3"), Ok(123));
        assert!(parse_bucket("").is_err());
        assert!(parse_bucket("-1").is_err());
        assert!(parse_bucket("1e3").is_err());
        assert!(parse_bucket("99999999999").is_err());
        assert_eq!(
            parse_bucket("x").unwrap_err().to_string(),
            "'x' is not a bucket number. Type a whole number from 0 to 4294967295."
        );
    }

    #[test]
    fn edits_go_through_the_core() {
        let t = Topology::with_shards(3).unwrap();
        let mut config = t.to_configuration();
        config.bucket_ranges = split_range(&config.bucket_ranges, 1, None).unwrap();
        let split = Topology::from_configuration(config.clone(), "db", "").unwrap();
        assert_eq!(split.ranges().len(), 4);
        config.bucket_ranges = set_boundary(&config.bucket_ranges, 2, 10).unwrap();
        let err = Topology::from_configuration(config, "db", "").unwrap_err();
        assert_eq!(err.path(), Some("BucketRanges[2].BucketRangeStart"));
    }
}
