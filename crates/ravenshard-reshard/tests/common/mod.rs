//! What the resharding tests share.

use ravenshard::config::{PrefixedShardingSetting, ShardBucketRange, ShardingConfiguration};
use ravenshard::Topology;

/// A topology of database `Orders` with `shards` shards, these `(start, shard)` bucket
/// ranges and these `(prefix, shards, block start)` prefixes.
pub fn topology(ranges: &[(u32, u32)], shards: u32, prefixes: &[(&str, &[u32], u32)]) -> Topology {
    let config = ShardingConfiguration {
        shards: (0..shards)
            .map(|s| (s.to_string(), Default::default()))
            .collect(),
        bucket_ranges: ranges
            .iter()
            .map(|&(start, shard)| ShardBucketRange {
                bucket_range_start: start,
                shard_number: shard,
            })
            .collect(),
        prefixed: prefixes
            .iter()
            .map(|(p, s, start)| PrefixedShardingSetting {
                prefix: p.to_string(),
                shards: s.to_vec(),
                bucket_range_start: Some(*start),
                other: Default::default(),
            })
            .collect(),
        other: Default::default(),
    };
    Topology::from_configuration(config, "Orders", "").expect("valid test topology")
}
