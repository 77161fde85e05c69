//! Editing `Prefixed` in a configuration as RavenDB does: add a prefix, remove one, change
//! its shards.
//!
//! The functions do not validate (a prefix must end with `/` or `-`, its shards must exist
//! and not be empty, no duplicate in another casing): the core does, with RavenDB's messages
//! ([`Topology::from_configuration`](ravenshard::Topology::from_configuration)).

use ravenshard::config::{PrefixedShardingSetting, ShardBucketRange, ShardingConfiguration};
use ravenshard::NUMBER_OF_BUCKETS;
use std::cmp::Ordering;

/// The `BucketRangeStart` RavenDB gives a prefix added to an existing configuration
/// (`AddPrefixedShardingSettingCommand.GetNextPrefixedBucketRangeStart`): with no prefix,
/// 2^20; else, going through the prefixes by ascending start, the first block after one of
/// them that the next one does not take; else the block after the last.
///
/// ```
/// use ravenshard::config::PrefixedShardingSetting as P;
/// use ravenshard_reshard::prefixes::next_prefix_block_start;
///
/// let at = |s: u32| P { bucket_range_start: Some(s << 20), ..Default::default() };
/// assert_eq!(next_prefix_block_start(&[]), 1 << 20);
/// assert_eq!(next_prefix_block_start(&[at(1), at(3)]), 2 << 20);
/// assert_eq!(next_prefix_block_start(&[at(2), at(1)]), 3 << 20);
/// ```
pub fn next_prefix_block_start(prefixed: &[PrefixedShardingSetting]) -> u32 {
    let block = u64::from(NUMBER_OF_BUCKETS);
    let mut starts: Vec<u64> = prefixed
        .iter()
        .map(|p| u64::from(p.bucket_range_start.unwrap_or(0)))
        .collect();
    starts.sort();
    let Some(&last) = starts.last() else {
        return NUMBER_OF_BUCKETS;
    };
    let next = starts
        .iter()
        .enumerate()
        .map(|(i, &current)| (current + block, starts.get(i + 1).copied()))
        .find(|&(expected, next)| next.is_none_or(|n| expected < n))
        .map_or(last + block, |(expected, _)| expected);
    u32::try_from(next).unwrap_or(u32::MAX)
}

use ravenshard::casing::ordinal_ignore_case;

/// Adds a prefix as RavenDB's `AddPrefixedShardingSettingCommand` does: it gets
/// [`next_prefix_block_start`], its block is split evenly over its shards in ascending order
/// (`2^20 / shards` buckets each, the last taking the remainder), and it is inserted where
/// the prefixes' descending order (ordinal, ignoring case) puts it, so that a longer prefix
/// is matched before a shorter one it starts with. RavenDB appends the new ranges to
/// `BucketRanges`; they are inserted in bucket order here (the same place unless the block
/// fills a gap left by a removed prefix), as the core expects ascending ranges.
///
/// With no shards no range is added (the core then says that `Shards` cannot be empty).
pub fn add_prefix(
    config: &ShardingConfiguration,
    prefix: &str,
    shards: &[u32],
) -> ShardingConfiguration {
    let mut out = config.clone();
    let start = next_prefix_block_start(&config.prefixed);
    let mut sorted = shards.to_vec();
    sorted.sort();
    if !sorted.is_empty() {
        let step = NUMBER_OF_BUCKETS / sorted.len() as u32;
        let new_ranges = sorted
            .iter()
            .enumerate()
            .map(|(i, &shard)| ShardBucketRange {
                bucket_range_start: start.saturating_add((i as u32).saturating_mul(step)),
                shard_number: shard,
            });
        let at = out
            .bucket_ranges
            .partition_point(|r| r.bucket_range_start < start);
        out.bucket_ranges.splice(at..at, new_ranges);
    }
    let setting = PrefixedShardingSetting {
        prefix: prefix.to_string(),
        shards: shards.to_vec(),
        bucket_range_start: Some(start),
        other: Default::default(),
    };
    // Descending order: insert before the first prefix that sorts below the new one.
    let at = out
        .prefixed
        .partition_point(|p| ordinal_ignore_case(&p.prefix, prefix) != Ordering::Less);
    out.prefixed.insert(at, setting);
    out
}

/// Removes prefix `index` and the bucket ranges of its block. `None` for no such prefix.
pub fn remove_prefix(
    config: &ShardingConfiguration,
    index: usize,
) -> Option<ShardingConfiguration> {
    let mut out = config.clone();
    if index >= out.prefixed.len() {
        return None;
    }
    let removed = out.prefixed.remove(index);
    if let Some(start) = removed.bucket_range_start {
        let block = start / NUMBER_OF_BUCKETS;
        // A start of 0 would be the default block, which is not the prefix's to remove.
        if block > 0 {
            out.bucket_ranges
                .retain(|r| r.bucket_range_start / NUMBER_OF_BUCKETS != block);
        }
    }
    Some(out)
}

/// Sets the shards of prefix `index` (its ranges are kept: a shard that still owns a range
/// of the block cannot be removed, which the core reports). `None` for no such prefix.
pub fn set_prefix_shards(
    config: &ShardingConfiguration,
    index: usize,
    shards: Vec<u32>,
) -> Option<ShardingConfiguration> {
    let mut out = config.clone();
    out.prefixed.get_mut(index)?.shards = shards;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ravenshard::{ConfigError, Topology};

    const B: u32 = NUMBER_OF_BUCKETS;

    fn check(config: ShardingConfiguration) -> Result<Topology, ConfigError> {
        Topology::from_configuration(config, "db", "")
    }

    #[test]
    fn first_free_block_as_ravendb_finds_it() {
        let at = |s: u32| PrefixedShardingSetting {
            bucket_range_start: Some(s * B),
            ..Default::default()
        };
        assert_eq!(next_prefix_block_start(&[]), B);
        assert_eq!(next_prefix_block_start(&[at(1)]), 2 * B);
        assert_eq!(next_prefix_block_start(&[at(1), at(2), at(4)]), 3 * B);
        // RavenDB looks for gaps after the lowest prefix only.
        assert_eq!(next_prefix_block_start(&[at(2), at(3)]), 4 * B);
    }

    #[test]
    fn added_prefix_gets_its_block_split_over_its_shards() {
        let t = Topology::with_shards(3).unwrap();
        let config = add_prefix(&t.to_configuration(), "eu/", &[2, 0]);
        assert_eq!(config.prefixed[0].bucket_range_start, Some(B));
        let starts: Vec<(u32, u32)> = config
            .bucket_ranges
            .iter()
            .map(|r| (r.bucket_range_start, r.shard_number))
            .collect();
        assert_eq!(
            starts,
            vec![(0, 0), (349525, 1), (699050, 2), (B, 0), (B + B / 2, 2)]
        );
        let t = check(config).unwrap();
        let eu = t.locate("eu/1").unwrap();
        assert!(eu.bucket >= B);
        assert_eq!(eu.shard, if eu.bucket < B + B / 2 { 0 } else { 2 });
        assert_eq!(t.locate("EU/1").unwrap(), eu);
    }

    #[test]
    fn prefixes_stay_in_descending_order() {
        let t = Topology::with_shards(2).unwrap();
        let c = add_prefix(&t.to_configuration(), "users/", &[0]);
        let c = add_prefix(&c, "users/a/", &[1]);
        let c = add_prefix(&c, "asia/", &[1]);
        let order: Vec<&str> = c.prefixed.iter().map(|p| p.prefix.as_str()).collect();
        assert_eq!(order, vec!["users/a/", "users/", "asia/"]);
        let starts: Vec<Option<u32>> = c.prefixed.iter().map(|p| p.bucket_range_start).collect();
        assert_eq!(starts, vec![Some(2 * B), Some(B), Some(3 * B)]);
        let t = check(c).unwrap();
        assert_eq!(t.locate("users/a/1").unwrap().shard, 1);
        assert_eq!(t.locate("users/b/1").unwrap().shard, 0);
    }

    #[test]
    fn ravendb_messages_for_bad_prefixes() {
        let t = Topology::with_shards(2).unwrap();
        let config = t.to_configuration();
        let err = check(add_prefix(&config, "asia", &[0])).unwrap_err();
        assert!(
            err.to_string().contains("must end with '/' or '-'"),
            "{err}"
        );
        let err = check(add_prefix(&config, "eu/", &[])).unwrap_err();
        assert!(err.to_string().contains("Shards cannot be empty"), "{err}");
        let err = check(add_prefix(&config, "eu/", &[7])).unwrap_err();
        assert!(err.to_string().contains("there's no shard '7'"), "{err}");
        let with_eu = add_prefix(&config, "eu/", &[0]);
        let err = check(add_prefix(&with_eu, "EU/", &[1])).unwrap_err();
        assert!(
            err.to_string()
                .contains("already exists in different casing"),
            "{err}"
        );
    }

    #[test]
    fn removing_a_prefix_removes_its_ranges_and_frees_its_block() {
        let t = Topology::with_shards(2).unwrap();
        let c = add_prefix(&t.to_configuration(), "b/", &[0, 1]);
        let c = add_prefix(&c, "a/", &[1]);
        assert_eq!(c.bucket_ranges.len(), 5);
        let removed = remove_prefix(&c, 0).unwrap();
        assert_eq!(removed.prefixed.len(), 1);
        assert_eq!(removed.bucket_ranges.len(), 3);
        assert!(check(removed.clone()).is_ok());
        assert!(remove_prefix(&c, 2).is_none());
        // RavenDB looks for gaps only after the lowest remaining prefix (block 2).
        let again = add_prefix(&removed, "c/", &[0]);
        assert_eq!(again.prefixed[0].bucket_range_start, Some(3 * B));
        assert!(check(again).is_ok());
    }

    #[test]
    fn prefix_shards_are_checked_against_its_ranges() {
        let t = Topology::with_shards(2).unwrap();
        let c = add_prefix(&t.to_configuration(), "eu/", &[0]);
        let wider = set_prefix_shards(&c, 0, vec![0, 1]).unwrap();
        assert!(check(wider).is_ok());
        let moved = set_prefix_shards(&c, 0, vec![1]).unwrap();
        let err = check(moved).unwrap_err();
        assert_eq!(err.path(), Some("BucketRanges[2].ShardNumber"));
        assert!(set_prefix_shards(&c, 3, vec![1]).is_none());
    }
}
