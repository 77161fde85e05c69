//! A change of topology applied to a placement in place: the buckets stay unless a
//! changed prefix matches the ID, and every view is summed again from the bucket index.

use super::histogram::{BucketIndex, Load};
use super::loads::{Loads, Sign};
use super::used_buckets::UsedBuckets;
use super::{Locator, Placement, PlacementOptions, Unplaced, NONE};
use ravenshard::{push_lower_id, Prefix, Topology, NUMBER_OF_BUCKETS};
use ravenshard_reshard::StatisticsError;
use std::fmt;
use std::sync::Arc;

/// Above this many moved documents, a change of prefixes builds the aggregates again at once
/// rather than one move at a time.
const BULK_MOVES: usize = 1024;

/// Why [`Placement::set_topology`] left a placement as it was: place the documents again
/// with [`Placement::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TopologyChangeError {
    /// The chapter's design placed the documents: its generated IDs and pinned buckets
    /// depend on the topology.
    Design,
    /// The new topology lower-cases IDs as another server version does, so the hashes
    /// differ.
    ServerVersion,
    /// A document has no shard (under the old or the new topology).
    NoShard {
        /// A bucket no range owns.
        bucket: u32,
    },
    /// The documents placed again would exceed a placement's limits (they do not: they fit
    /// the placement they are read from).
    Limits(super::EditError),
}

impl fmt::Display for TopologyChangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            TopologyChangeError::Design => {
                "the chapter's design placed the documents, and its generated IDs depend on \
                 the topology"
                    .to_string()
            }
            TopologyChangeError::ServerVersion => {
                "the new topology lower-cases IDs for another server version".to_string()
            }
            TopologyChangeError::NoShard { bucket } => {
                format!("no bucket range owns bucket {bucket}")
            }
            TopologyChangeError::Limits(e) => e.to_string(),
        };
        write!(
            f,
            "the placement cannot follow the new topology in place ({what}): place the \
             documents again with Placement::new"
        )
    }
}

impl std::error::Error for TopologyChangeError {}

impl Placement {
    /// Places the documents by `topology` without hashing any ID again: a change of shard
    /// count, ranges or members keeps every bucket and sums the shards and blocks from the
    /// per-bucket aggregates (O(used buckets × log ranges)); a change of prefixes looks at
    /// the IDs again (lower-cased, not hashed) and moves only those that start with a
    /// changed prefix. Every
    /// answer is then the one [`Placement::new`] gives for the same documents and topology.
    ///
    /// On an error the placement is unchanged.
    ///
    /// # Errors
    ///
    /// [`TopologyChangeError`] when the change cannot be made in place (the chapter's design
    /// is on, the server version differs, or a document has no shard).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let mut p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// let five = Topology::with_shards(5).unwrap();
    /// p.set_topology(&five).unwrap();
    /// let fresh = Placement::new(&docs, &five, &Default::default());
    /// assert_eq!(p.shards(), fresh.shards());
    /// assert_eq!(p.place(1), fresh.place(1));
    /// assert_eq!(p.place(1).unwrap().shard, 4);
    /// ```
    pub fn set_topology(&mut self, topology: &Topology) -> Result<(), TopologyChangeError> {
        self.set_topology_in_place(topology)
    }

    /// The same documents placed by `topology` ([`set_topology`](Self::set_topology) on a
    /// copy), without copying the sorted views this placement made (bucket order, rows'
    /// orders, sorted groups and duplicates), which the topology change would drop anyway:
    /// the per-document tables are shared, the aggregates copied. What the Resharding view
    /// places a target with.
    ///
    /// # Errors
    ///
    /// As [`set_topology`](Self::set_topology).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// let five = Topology::with_shards(5).unwrap();
    /// let after = p.with_topology(&five).unwrap();
    /// assert_eq!(after.shards(), Placement::new(&docs, &five, &Default::default()).shards());
    /// assert_eq!(p.shards().len(), 3);
    /// ```
    pub fn with_topology(&self, topology: &Topology) -> Result<Placement, TopologyChangeError> {
        let mut copy = Placement {
            topology: self.topology.clone(),
            options: self.options.clone(),
            store: Arc::clone(&self.store),
            collections: self.collections.clone(),
            live_collections: std::sync::OnceLock::new(),
            generated: self.generated.clone(),
            invalid: self.invalid.clone(),
            totals: self.totals,
            shards: self.shards.clone(),
            document_balance: self.document_balance,
            byte_balance: self.byte_balance,
            matrix: self.matrix.clone(),
            blocks: self.blocks.clone(),
            loads: self.loads.clone(),
            groups: self.groups.without_view(),
            duplicates: self.duplicates.without_view(),
            obese_threshold: self.obese_threshold,
            obese_buckets: std::sync::OnceLock::new(),
            index: std::sync::OnceLock::new(),
            orders: Default::default(),
            statistics: self.statistics.clone(),
            journal: self.journal.clone(),
        };
        copy.set_topology_in_place(topology)?;
        Ok(copy)
    }

    fn set_topology_in_place(&mut self, topology: &Topology) -> Result<(), TopologyChangeError> {
        if let Some(s) = &self.statistics {
            let options = PlacementOptions {
                obese_threshold: Some(self.obese_threshold),
                design: None,
            };
            let placed = Placement::from_statistics(&s.statistics, topology, &options);
            *self = placed.map_err(statistics_error)?;
            return Ok(());
        }
        if self.options.design.is_some() {
            return Err(TopologyChangeError::Design);
        }
        if topology.server_version() != self.topology.server_version() {
            return Err(TopologyChangeError::ServerVersion);
        }
        if let Some(bucket) = self.invalid.iter().find_map(|d| match d.reason {
            Unplaced::NoShard { bucket } => Some(bucket),
            _ => None,
        }) {
            return Err(TopologyChangeError::NoShard { bucket });
        }
        let moved = self.moved_by_prefixes(self.topology.prefixes(), topology);
        let locator = Locator::new(topology);
        // The aggregates after the moves (none: the same buckets), checked before anything
        // changes.
        let loads = (!moved.is_empty()).then(|| self.loads_after(&moved, topology, &locator));
        let buckets = &loads.as_ref().unwrap_or(&self.loads).buckets;
        if let Some(bucket) = first_unowned(buckets, &locator) {
            return Err(TopologyChangeError::NoShard { bucket });
        }
        if !moved.is_empty() {
            let store = Arc::make_mut(&mut self.store);
            for &(i, to) in &moved {
                let Some(slot) = store.buckets.get_mut(i as usize) else {
                    continue;
                };
                let from = std::mem::replace(slot, to);
                let g = store.groups.get(i as usize).copied().unwrap_or(NONE);
                self.groups.move_bucket(g, from, to);
            }
        }
        match loads {
            Some(loads) => self.loads = loads,
            None => regroup_by_spans(&mut self.loads, topology, &locator),
        }
        self.topology = topology.clone();
        self.summarise_loads(topology);
        self.groups.forget_view();
        self.forget_orders(!moved.is_empty());
        Ok(())
    }

    /// The per-bucket, per-shard and per-block aggregates once the `moved` documents are in
    /// their new buckets, for `topology`: one B-tree update per move, or, when many
    /// documents move, built again at once from the bucket order (a radix sort).
    fn loads_after(
        &self,
        moved: &[(u32, u32)],
        topology: &Topology,
        locator: &Locator<'_>,
    ) -> Loads {
        let store = &*self.store;
        if moved.len() > BULK_MOVES {
            let mut buckets = store.buckets.clone();
            for &(i, to) in moved {
                if let Some(b) = buckets.get_mut(i as usize) {
                    *b = to;
                }
            }
            let index = BucketIndex::new(&buckets);
            return Loads::of_index(topology, locator, &index, &|i| store.size(i as usize));
        }
        let mut buckets = self.loads.buckets.clone();
        for &(i, to) in moved {
            let from = store.bucket(i as usize).unwrap_or(NONE);
            move_one(&mut buckets, from, to, store.size(i as usize));
        }
        let mut loads = Loads {
            staged: None,
            buckets,
            ..Loads::default()
        };
        loads.regroup(topology, locator);
        loads
    }

    /// `(document, new bucket)` of the placed documents whose bucket `new`'s prefixes
    /// change: only IDs that start with a prefix that differs are placed again.
    fn moved_by_prefixes(&self, old: &[Prefix], new: &Topology) -> Vec<(u32, u32)> {
        let changed = changed_prefixes(old, new.prefixes());
        if changed.is_empty() {
            return Vec::new();
        }
        let version = self.topology.server_version();
        let mut lower = String::new();
        (0u32..)
            .zip(&self.store.buckets)
            .filter(|(_, &b)| b != NONE)
            .filter_map(|(i, &b)| {
                lower.clear();
                push_lower_id(&mut lower, self.store.id_of(i), version);
                if !changed.iter().any(|p| p.matches_lower(&lower)) {
                    return None;
                }
                let bucket = b % NUMBER_OF_BUCKETS + new.prefix_block_start(&lower);
                (bucket != b).then_some((i, bucket))
            })
            .collect()
    }
}

/// Why a topology cannot place bucket statistics, as a [`TopologyChangeError`].
pub(super) fn statistics_error(e: StatisticsError) -> TopologyChangeError {
    TopologyChangeError::NoShard {
        bucket: match e {
            StatisticsError::NoPrefix { block_start, .. } => block_start,
            _ => 0,
        },
    }
}

/// The spans of buckets `[start, end)` each range of `locator`'s topology owns (what
/// `range_index` gives it: up to the next range's start, within its block) whose shard is in
/// the topology, with that shard's position, ascending; empty spans left out.
fn owned_spans(locator: &Locator<'_>) -> Vec<(u64, u64, u32)> {
    let ranges = locator.ranges;
    let block = u64::from(NUMBER_OF_BUCKETS);
    (0..ranges.len())
        .filter_map(|i| {
            let position = *locator.range_shard.get(i).filter(|&&p| p != NONE)?;
            let start = u64::from(ranges[i].start);
            let block_end = (start / block + 1) * block;
            let end = ranges
                .get(i + 1)
                .map_or(block_end, |next| u64::from(next.start).min(block_end));
            (start < end).then_some((start, end, position))
        })
        .collect()
}

/// The first used bucket of `buckets` that no range of `locator`'s topology owns (or whose
/// range's shard is not in the topology): what `locator.shard_position(b).is_none()` finds
/// first, looked for in the spans between the owned ones (O(ranges × log used buckets))
/// rather than bucket by bucket (a pass over a million buckets at 10,000,000 documents).
fn first_unowned(buckets: &UsedBuckets, locator: &Locator<'_>) -> Option<u32> {
    let first_in = |from: u64, to: u64| {
        let from = u32::try_from(from).ok()?;
        let (&b, _) = buckets.range(from..).next()?;
        (u64::from(b) < to).then_some(b)
    };
    // Unowned from `from` up to the next owned span.
    let mut from = 0u64;
    for (start, end, _) in owned_spans(locator) {
        if from < start {
            if let Some(b) = first_in(from, start) {
                return Some(b);
            }
        }
        from = from.max(end);
    }
    first_in(from, u64::from(u32::MAX) + 1)
}

/// The per-shard and per-block sums of `loads` for `locator`'s topology, every used bucket
/// being owned ([`first_unowned`] found none): summed a span at a time (a span lies in one
/// block and goes to one shard), one walk over the used buckets without a look-up per
/// bucket. What [`Loads::regroup`] gives.
fn regroup_by_spans(loads: &mut Loads, topology: &Topology, locator: &Locator<'_>) {
    let buckets = std::mem::take(&mut loads.buckets);
    *loads = Loads::new(topology);
    for (start, end, position) in owned_spans(locator) {
        let (Ok(from), to) = (u32::try_from(start), u32::try_from(end)) else {
            continue;
        };
        let mut sum = Load::default();
        let span = match to {
            Ok(to) => buckets.range(from..to),
            Err(_) => buckets.range(from..),
        };
        for (_, load) in span {
            sum.add(load.load());
        }
        if let Some(shard) = loads.shards.get_mut(position as usize) {
            shard.add(sum);
        }
        let block_start = from - from % NUMBER_OF_BUCKETS;
        if let Ok(b) = loads.block_starts.binary_search(&block_start) {
            if let Some(block) = loads.blocks.get_mut(b) {
                block.add(sum);
            }
        }
    }
    loads.buckets = buckets;
}

/// One document of `size` moves from bucket `from` to `to` in the per-bucket aggregates.
fn move_one(buckets: &mut UsedBuckets, from: u32, to: u32, size: Option<u64>) {
    buckets.change(from, size, Sign::Remove);
    buckets.change(to, size, Sign::Add);
}

/// The prefixes of `old` and `new` that are not in both, at the same block, in the same
/// order relative to the others: an ID none of them matches keeps its block. When the
/// common prefixes are reordered, all of them count as changed.
fn changed_prefixes<'a>(old: &'a [Prefix], new: &'a [Prefix]) -> Vec<&'a Prefix> {
    let same = |a: &Prefix, b: &Prefix| {
        a.prefix == b.prefix && a.bucket_range_start == b.bucket_range_start
    };
    let in_both = |p: &Prefix, other: &[Prefix]| other.iter().any(|o| same(p, o));
    let common_old: Vec<&Prefix> = old.iter().filter(|p| in_both(p, new)).collect();
    let common_new: Vec<&Prefix> = new.iter().filter(|p| in_both(p, old)).collect();
    let reordered = common_old.iter().zip(&common_new).any(|(a, b)| !same(a, b));
    old.iter()
        .chain(new)
        .filter(|p| reordered || !(in_both(p, old) && in_both(p, new)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::loads::BucketLoad;
    use proptest::prelude::*;
    use ravenshard::BucketRange;

    proptest! {
        /// The spans between the owned ones hold the first bucket a bucket-by-bucket look
        /// finds: ranges in several blocks, repeated starts, shards not in the topology.
        #[test]
        fn the_first_unowned_bucket_is_the_one_each_bucket_says(
            starts in prop::collection::vec((0u32..3, 0u32..40, prop::option::of(0u32..3)), 0..8),
            used in prop::collection::btree_set(prop_oneof![0u32..4 * NUMBER_OF_BUCKETS, Just(u32::MAX)], 0..40),
        ) {
            let mut ranges: Vec<BucketRange> = starts
                .iter()
                .map(|&(block, at, _)| BucketRange {
                    start: block * NUMBER_OF_BUCKETS + at * 30_000,
                    end: 0,
                    shard: 0,
                })
                .collect();
            ranges.sort_by_key(|r| r.start);
            let range_shard: Vec<u32> = starts.iter().map(|&(_, _, p)| p.unwrap_or(NONE)).collect();
            let topology = Topology::with_shards(1).unwrap();
            let locator = Locator { topology: &topology, ranges: &ranges, range_shard };
            let buckets: UsedBuckets =
                used.iter().map(|&b| (b, BucketLoad::default())).collect();
            let expected = buckets.iter().map(|(&b, _)| b).find(|&b| locator.shard_position(b).is_none());
            prop_assert_eq!(first_unowned(&buckets, &locator), expected);
        }

        /// The sums a span at a time are the ones bucket by bucket, with prefixes' blocks.
        #[test]
        fn the_sums_by_spans_are_the_sums_by_buckets(
            shards in 1u32..6,
            prefixed in any::<bool>(),
            used in prop::collection::btree_map(
                0u32..2 * NUMBER_OF_BUCKETS,
                (1u32..5, 0u32..3, prop_oneof![Just(u64::MAX), 0u64..1000]),
                0..60,
            ),
        ) {
            let json = if prefixed {
                r#"{"Shards": {"0": {}, "1": {}, "2": {}}, "Prefixed": [{"Prefix": "a/", "Shards": [1, 2]}]}"#.to_string()
            } else {
                let list: Vec<String> = (0..shards).map(|s| format!(r#""{s}": {{}}"#)).collect();
                format!(r#"{{"Shards": {{{}}}}}"#, list.join(", "))
            };
            let topology = Topology::from_json(&json).unwrap();
            let locator = Locator::new(&topology);
            let mut loads = Loads::new(&topology);
            loads.buckets = used
                .iter()
                .filter(|(&b, _)| locator.shard_position(b).is_some())
                .map(|(&b, &(documents, without_size, bytes))| {
                    (b, BucketLoad::new(documents, without_size, bytes))
                })
                .collect();
            let mut by_buckets = loads.clone();
            by_buckets.regroup(&topology, &locator);
            regroup_by_spans(&mut loads, &topology, &locator);
            prop_assert_eq!(&loads.shards, &by_buckets.shards);
            prop_assert_eq!(&loads.blocks, &by_buckets.blocks);
            prop_assert_eq!(loads.buckets, by_buckets.buckets);
        }
    }
}
