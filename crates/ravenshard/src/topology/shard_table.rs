//! The shards of the default block's buckets by table: one entry per chunk of 2^10 buckets,
//! so finding the shard of a bucket is one load instead of a binary search over the ranges
//! that waits on the hash (the bulk commands' hot loop).

use super::BucketRange;
use std::fmt;

/// log2 of the buckets per chunk: 2^10 chunks of the 2^20 default block, 4 KiB, in cache.
const CHUNK_BITS: u32 = 10;
/// A chunk that is not all in one range (it holds a range's start) or not owned.
const MIXED: u32 = u32::MAX;

/// The shard of every chunk of the default block that lies in one range.
#[derive(Clone, PartialEq)]
pub(super) struct ShardTable(Vec<u32>);

impl ShardTable {
    /// The table of `ranges` (ascending, validated); `range_of` finds a bucket's range.
    pub(super) fn new<'r>(range_of: impl Fn(u32) -> Option<&'r BucketRange>) -> ShardTable {
        let chunks = crate::NUMBER_OF_BUCKETS >> CHUNK_BITS;
        let table = (0..chunks)
            .map(|chunk| {
                let start = chunk << CHUNK_BITS;
                let end = start + (1 << CHUNK_BITS);
                match range_of(start) {
                    Some(r) if r.end >= end && r.shard != MIXED => r.shard,
                    _ => MIXED,
                }
            })
            .collect();
        ShardTable(table)
    }

    /// The shard of `bucket` when its chunk lies in one range; `None`: look it up.
    #[inline]
    pub(super) fn shard(&self, bucket: u32) -> Option<u32> {
        let shard = *self.0.get((bucket >> CHUNK_BITS) as usize)?;
        (shard != MIXED).then_some(shard)
    }
}

impl fmt::Debug for ShardTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Derived from the ranges, which the topology shows.
        f.write_str("ShardTable")
    }
}

#[cfg(test)]
mod tests {
    use crate::Topology;

    /// Every bucket of the default block and of a prefix's block: the table agrees with
    /// the ranges.
    #[test]
    fn the_table_agrees_with_the_ranges() {
        let prefixed = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
            "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 2},
                             {"BucketRangeStart": 1025, "ShardNumber": 0},
                             {"BucketRangeStart": 2048, "ShardNumber": 1},
                             {"BucketRangeStart": 1048576, "ShardNumber": 1}],
            "Prefixed": [{"Prefix": "eu/", "Shards": [1], "BucketRangeStart": 1048576}]}"#;
        for t in [
            Topology::with_shards(3).unwrap(),
            Topology::with_shards(7).unwrap(),
            Topology::from_json(prefixed).unwrap(),
        ] {
            for bucket in 0..(3 << 20) {
                let expected = t.range_of(bucket).map(|r| r.shard);
                assert_eq!(t.shard_for_bucket(bucket), expected, "bucket {bucket}");
            }
        }
    }
}
