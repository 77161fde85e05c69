//! Targets from operations, with RavenDB's rules: add or remove a shard, drain one, add or
//! remove a prefix, change a prefix's shards.

use super::assign::Assignment;
use super::balance::{balance_without_comparison, BalanceOptions};
use super::load::{BucketLoad, Measure};
use super::prefixes;
use super::ReshardError;
use ravenshard::casing::{lower_invariant, ordinal_ignore_case};
use ravenshard::config::DatabaseTopology;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use std::cmp::Ordering;

fn rebuild(
    current: &Topology,
    config: ravenshard::config::ShardingConfiguration,
) -> Result<Topology, ReshardError> {
    Ok(Topology::from_configuration(
        config,
        current.database(),
        "",
    )?)
}

/// Adds a shard numbered one above the highest, with `members` as its nodes. As in RavenDB
/// it owns no buckets: adding a shard moves nothing until buckets are given to it (see
/// [`balance`](super::balance())). Returns the topology and the new shard's number.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::add_shard;
/// use ravenshard::Topology;
///
/// let (t, shard) = add_shard(&Topology::with_shards(3).unwrap(), vec!["D".into()]).unwrap();
/// assert_eq!(shard, 3);
/// assert_eq!(t.shards().len(), 4);
/// assert!(t.ranges().iter().all(|r| r.shard != 3));
/// ```
pub fn add_shard(
    current: &Topology,
    members: Vec<String>,
) -> Result<(Topology, u32), ReshardError> {
    let shard = current
        .shards()
        .map(|s| s.number)
        .max()
        .map_or(0, |n| n + 1);
    let mut config = current.to_configuration();
    config.shards.insert(
        shard.to_string(),
        DatabaseTopology {
            members,
            other: Default::default(),
        },
    );
    Ok((rebuild(current, config)?, shard))
}

/// Removes a shard that owns no buckets and that no prefix names; RavenDB's messages
/// otherwise.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{add_shard, remove_shard};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(3).unwrap();
/// let err = remove_shard(&t, 2).unwrap_err();
/// assert!(err.to_string().contains("first you need to migrate all its buckets"));
/// let (t, added) = add_shard(&t, vec![]).unwrap();
/// assert_eq!(remove_shard(&t, added).unwrap().shards().len(), 3);
/// ```
pub fn remove_shard(current: &Topology, shard: u32) -> Result<Topology, ReshardError> {
    check_removable(current, shard)?;
    let buckets: u64 = current
        .ranges()
        .iter()
        .filter(|r| r.shard == shard)
        .map(|r| u64::from(r.end - r.start))
        .sum();
    if buckets > 0 {
        return Err(ReshardError::ShardOwnsBuckets {
            database: current.database().to_string(),
            shard,
            buckets,
        });
    }
    let mut config = current.to_configuration();
    // Rebuilt by insert rather than BTreeMap::remove, whose code the studio has nowhere else.
    let key = shard.to_string();
    let mut kept = std::collections::BTreeMap::new();
    for (number, topology) in std::mem::take(&mut config.shards) {
        if number != key {
            kept.insert(number, topology);
        }
    }
    config.shards = kept;
    rebuild(current, config)
}

fn check_removable(current: &Topology, shard: u32) -> Result<(), ReshardError> {
    if current.shard(shard).is_none() {
        return Err(ReshardError::UnknownShard { shard });
    }
    if current.shards().len() == 1 {
        return Err(ReshardError::LastShard { shard });
    }
    if let Some(p) = current
        .prefixes()
        .iter()
        .find(|p| p.shards.contains(&shard))
    {
        return Err(ReshardError::ShardInPrefix {
            database: current.database().to_string(),
            shard,
            prefix: p.prefix.clone(),
        });
    }
    Ok(())
}

/// A target in which `shard` owns no buckets, so that it can then be removed: its
/// documents go to the other shards by [`balance`](super::balance()) (by `by`, threshold 0), and its
/// remaining empty ranges to a neighbouring range's shard.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{drain_shard, remove_shard, BucketLoad, Measure};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(3).unwrap();
/// let load = BucketLoad::from_buckets((0..90u32).map(|i| (i * 11_000, None)));
/// let drained = drain_shard(&t, 2, &load, Measure::Docs).unwrap();
/// assert!(drained.ranges().iter().all(|r| r.shard != 2));
/// assert!(remove_shard(&drained, 2).is_ok());
/// ```
pub fn drain_shard(
    current: &Topology,
    shard: u32,
    load: &BucketLoad,
    by: Measure,
) -> Result<Topology, ReshardError> {
    check_removable(current, shard)?;
    let by = if by == Measure::Bytes && load.total().bytes == 0 {
        Measure::Docs
    } else {
        by
    };
    let options = BalanceOptions {
        by,
        // Filled by insert: collect() would sort, more code in the studio's wasm.
        weights: {
            let mut weights = std::collections::BTreeMap::new();
            weights.insert(shard, 0.0);
            weights
        },
        threshold: 0.0,
        ..BalanceOptions::default()
    };
    let balanced = without_empty_ranges(
        &balance_without_comparison(current, load, &options)?
            .plan
            .target,
    )?;
    let mut assignment = Assignment::new(&balanced);
    while let Some(k) = assignment.ranges().iter().position(|r| r.shard == shard) {
        let ranges = assignment.ranges();
        let r = ranges[k];
        let previous = k
            .checked_sub(1)
            .map(|p| ranges[p])
            .filter(|p| p.end == r.start && r.start % NUMBER_OF_BUCKETS != 0);
        let next = ranges
            .get(k + 1)
            .filter(|n| n.start == r.end && r.end % NUMBER_OF_BUCKETS != 0);
        let heir = previous
            .or(next.copied())
            .map(|n| n.shard)
            .or_else(|| current.shards().map(|s| s.number).find(|&s| s != shard))
            .ok_or(ReshardError::LastShard { shard })?;
        assignment.reassign(r.start, r.end, heir);
    }
    Ok(assignment.into_topology(current)?)
}

/// `t` without its empty ranges (a start equal to the next range's, as RavenDB's
/// `MoveBucket` leaves them): they own no bucket, so routing is the same, and a drained
/// shard keeps no range at all.
fn without_empty_ranges(t: &Topology) -> Result<Topology, ReshardError> {
    let mut config = t.to_configuration();
    let ranges = &config.bucket_ranges;
    let kept = (0..ranges.len())
        .filter(|&i| {
            ranges
                .get(i + 1)
                .is_none_or(|next| next.bucket_range_start != ranges[i].bucket_range_start)
        })
        .map(|i| ranges[i])
        .collect();
    config.bucket_ranges = kept;
    let mut out = Topology::from_configuration(config, t.database(), "")?;
    out.set_server_version(t.server_version());
    Ok(out)
}

/// Checks the prefixes `target` adds or removes against the documents' IDs (lower-cased):
/// RavenDB refuses both while a document starts with the prefix. The IDs are read only
/// when a prefix is added or removed, so a caller can hand them over lazily (lowering a
/// million IDs for a target that keeps the prefixes would be wasted).
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{add_prefix, check_prefix_changes};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(2).unwrap();
/// let with_eu = add_prefix(&t, "eu/", &[1], ["orders/1"]).unwrap();
/// let err = check_prefix_changes(&t, &with_eu, ["eu/orders/1"]).unwrap_err();
/// assert!(err.to_string().contains("There are existing documents in database 'db' that start with 'eu/'"));
/// // The same prefixes: no ID is read.
/// let unread = std::iter::from_fn(|| -> Option<String> { panic!("read") });
/// assert!(check_prefix_changes(&with_eu, &with_eu, unread).is_ok());
/// ```
pub fn check_prefix_changes(
    current: &Topology,
    target: &Topology,
    lower_ids: impl IntoIterator<Item = impl AsRef<str>>,
) -> Result<(), ReshardError> {
    let changed = changed_prefixes(current, target);
    if changed.is_empty() {
        return Ok(());
    }
    let mut hits: Vec<(u64, Option<String>)> = vec![(0, None); changed.len()];
    for id in lower_ids {
        let id = id.as_ref();
        for (i, (lower, _, _)) in changed.iter().enumerate() {
            if id.starts_with(lower.as_str()) {
                hits[i].0 += 1;
                hits[i].1.get_or_insert_with(|| id.to_string());
            }
        }
    }
    match changed.iter().zip(hits).find(|(_, (n, _))| *n > 0) {
        Some(((_, prefix, adding), (documents, example))) => {
            Err(ReshardError::PrefixHasDocuments {
                database: current.database().to_string(),
                prefix: prefix.to_string(),
                adding: *adding,
                documents,
                example,
            })
        }
        None => Ok(()),
    }
}

/// Whether `target` adds or removes a prefix of `current` (compared as RavenDB does, ignoring
/// case): only then does [`check_prefix_changes`] read the documents' IDs, so a caller that
/// holds them elsewhere (the studio's worker) asks for the check only then.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{add_prefix, changes_prefixes};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(2).unwrap();
/// let with_eu = add_prefix(&t, "eu/", &[1], ["orders/1"]).unwrap();
/// assert!(changes_prefixes(&t, &with_eu));
/// assert!(!changes_prefixes(&with_eu, &with_eu));
/// ```
pub fn changes_prefixes(current: &Topology, target: &Topology) -> bool {
    !changed_prefixes(current, target).is_empty()
}

/// The prefixes `target` adds or removes: lower-cased, as given, and whether added.
fn changed_prefixes<'a>(
    current: &'a Topology,
    target: &'a Topology,
) -> Vec<(String, &'a str, bool)> {
    let same = |a: &str, b: &str| ordinal_ignore_case(a, b) == Ordering::Equal;
    let added = target
        .prefixes()
        .iter()
        .filter(|q| {
            !current
                .prefixes()
                .iter()
                .any(|p| same(&p.prefix, &q.prefix))
        })
        .map(|q| (q, true));
    let removed = current
        .prefixes()
        .iter()
        .filter(|p| !target.prefixes().iter().any(|q| same(&p.prefix, &q.prefix)))
        .map(|p| (p, false));
    added
        .chain(removed)
        .map(|(p, adding)| {
            (
                lower_invariant(&p.prefix).into_owned(),
                p.prefix.as_str(),
                adding,
            )
        })
        .collect()
}

/// Adds a prefix as RavenDB does ([`prefixes::add_prefix`]), refusing it while a document
/// starts with it.
pub fn add_prefix<'a>(
    current: &Topology,
    prefix: &str,
    shards: &[u32],
    lower_ids: impl IntoIterator<Item = &'a str>,
) -> Result<Topology, ReshardError> {
    let target = rebuild(
        current,
        prefixes::add_prefix(&current.to_configuration(), prefix, shards),
    )?;
    check_prefix_changes(current, &target, lower_ids)?;
    Ok(target)
}

/// Removes a prefix and its ranges, refusing while a document starts with it.
pub fn remove_prefix<'a>(
    current: &Topology,
    prefix: &str,
    lower_ids: impl IntoIterator<Item = &'a str>,
) -> Result<Topology, ReshardError> {
    let index = prefix_index(current, prefix)?;
    let config = prefixes::remove_prefix(&current.to_configuration(), index).ok_or_else(|| {
        ReshardError::UnknownPrefix {
            prefix: prefix.to_string(),
        }
    })?;
    let target = rebuild(current, config)?;
    check_prefix_changes(current, &target, lower_ids)?;
    Ok(target)
}

/// Sets a prefix's shards. A shard taken off the prefix gives its ranges of the prefix's
/// block to the remaining shards, by balancing within the block (RavenDB requires those
/// buckets to be migrated before the setting changes; the plan from `current` to this
/// target lists them).
pub fn set_prefix_shards(
    current: &Topology,
    prefix: &str,
    shards: &[u32],
    load: &BucketLoad,
) -> Result<Topology, ReshardError> {
    let index = prefix_index(current, prefix)?;
    let p = &current.prefixes()[index];
    let block = p.bucket_range_start / NUMBER_OF_BUCKETS;
    let mut kept: Vec<u32> = shards.to_vec();
    kept.sort();
    kept.dedup();
    let mut assignment = Assignment::new(current);
    let orphans: Vec<_> = current
        .ranges()
        .iter()
        .filter(|r| r.start / NUMBER_OF_BUCKETS == block && !kept.contains(&r.shard))
        .copied()
        .collect();
    if !orphans.is_empty() {
        if kept.is_empty() {
            return Err(ReshardError::PrefixShardOwnsBuckets {
                prefix: p.prefix.clone(),
                shard: orphans[0].shard,
            });
        }
        // Each orphaned range goes whole to the kept shard holding least of the block.
        let mut held: Vec<(u32, u64)> = kept
            .iter()
            .map(|&s| {
                let amount = current
                    .ranges()
                    .iter()
                    .filter(|r| r.shard == s && r.start / NUMBER_OF_BUCKETS == block)
                    .map(|r| load.in_range(r.start, u64::from(r.end)).docs)
                    .sum();
                (s, amount)
            })
            .collect();
        for r in orphans {
            let Some(least) = held.iter_mut().min_by_key(|(s, amount)| (*amount, *s)) else {
                break;
            };
            least.1 += load.in_range(r.start, u64::from(r.end)).docs;
            assignment.reassign(r.start, r.end, least.0);
        }
    }
    let mut config = current.to_configuration();
    config.bucket_ranges = assignment.bucket_ranges();
    if let Some(setting) = config.prefixed.get_mut(index) {
        setting.shards = shards.to_vec();
    }
    rebuild(current, config)
}

fn prefix_index(current: &Topology, prefix: &str) -> Result<usize, ReshardError> {
    current
        .prefixes()
        .iter()
        .position(|p| ordinal_ignore_case(&p.prefix, prefix) == Ordering::Equal)
        .ok_or_else(|| ReshardError::UnknownPrefix {
            prefix: prefix.to_string(),
        })
}
