//! The used buckets' loads, ordered by bucket, with running sums per run of [`RUN`]
//! buckets: what the bucket map sums over any range of buckets.
//!
//! A bin of the map over all 2^20 buckets at 1,000,000 documents spans about 600 used
//! buckets; summing them from the B-tree for 1,000 bins walks every used bucket (about
//! 20 ms in the studio's wasm at every render of a map). With the runs' sums a bin adds
//! about 16 sums and walks only its two partial runs at the ends.

use super::histogram::Load;
use super::loads::{change, BucketLoad, Sign};
use ravenshard::NUMBER_OF_BUCKETS;
use std::collections::btree_map;
use std::collections::BTreeMap;
use std::ops::RangeBounds;

/// Buckets a run sums. 2^20 / 64 runs of 32 bytes: 512 KiB, made with the first used bucket.
pub(super) const RUN: u32 = 64;

/// The sums of one run's buckets. The bytes are summed exactly (in `u128`) so that a
/// bucket's change is a subtraction and an addition; a range's bytes saturate at
/// `u64::MAX`, as a sum of the buckets' saturating additions does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RunLoad {
    documents: u64,
    without_size: u64,
    bytes: u128,
}

impl RunLoad {
    fn add(&mut self, load: BucketLoad) {
        self.documents += u64::from(load.documents);
        self.without_size += u64::from(load.without_size);
        self.bytes += u128::from(load.bytes());
    }

    fn remove(&mut self, load: BucketLoad) {
        self.documents -= u64::from(load.documents);
        self.without_size -= u64::from(load.without_size);
        self.bytes -= u128::from(load.bytes());
    }
}

/// The sums of run `bucket / RUN` of `runs`, which are made (all of them, zero) when the
/// first bucket below [`NUMBER_OF_BUCKETS`] comes; `None` for a prefix's bucket, above.
fn run_of(runs: &mut Vec<RunLoad>, bucket: u32) -> Option<&mut RunLoad> {
    if bucket >= NUMBER_OF_BUCKETS {
        return None;
    }
    if runs.is_empty() {
        *runs = vec![RunLoad::default(); (NUMBER_OF_BUCKETS / RUN) as usize];
    }
    runs.get_mut((bucket / RUN) as usize)
}

/// The loads of the used buckets (a bucket with no document has no entry), and the sums of
/// each run of [`RUN`] buckets below [`NUMBER_OF_BUCKETS`] (the prefixes' buckets, above,
/// are summed from the tree). Every change goes through this type, so the sums always
/// equal the buckets': two are equal when their buckets are.
#[derive(Clone, Default)]
pub(super) struct UsedBuckets {
    tree: BTreeMap<u32, BucketLoad>,
    /// Per run of [`RUN`] buckets; empty until a bucket below [`NUMBER_OF_BUCKETS`] is used.
    runs: Vec<RunLoad>,
}

impl UsedBuckets {
    /// How many buckets are used.
    pub(super) fn len(&self) -> usize {
        self.tree.len()
    }

    /// The load of `bucket`, if used.
    pub(super) fn get(&self, bucket: u32) -> Option<BucketLoad> {
        self.tree.get(&bucket).copied()
    }

    /// The used buckets, ascending.
    pub(super) fn iter(&self) -> btree_map::Iter<'_, u32, BucketLoad> {
        self.tree.iter()
    }

    /// The used buckets of `range`, ascending.
    pub(super) fn range(
        &self,
        range: impl RangeBounds<u32>,
    ) -> btree_map::Range<'_, u32, BucketLoad> {
        self.tree.range(range)
    }

    /// The tree alone (its sums dropped), e.g. to free it a part at a time.
    pub(super) fn into_tree(self) -> BTreeMap<u32, BucketLoad> {
        self.tree
    }

    /// The buckets from `at` on, taken out.
    pub(super) fn split_off(&mut self, at: u32) -> UsedBuckets {
        let above = self.tree.split_off(&at);
        if above.range(..NUMBER_OF_BUCKETS).next().is_none() {
            return UsedBuckets {
                tree: above,
                runs: Vec::new(),
            };
        }
        // A cut below the prefixes' buckets: both parts' sums are made again.
        *self = std::mem::take(&mut self.tree).into_iter().collect();
        above.into_iter().collect()
    }

    /// Adds or removes one document of `size` in `bucket`; a bucket left empty is dropped.
    pub(super) fn change(&mut self, bucket: u32, size: Option<u64>, sign: Sign) {
        let before = self.get(bucket).unwrap_or_default();
        let mut load = before.load();
        change(&mut load, sign, size);
        let after = BucketLoad::of(load);
        if load.documents == 0 {
            self.tree.remove(&bucket);
        } else {
            self.tree.insert(bucket, after);
        }
        if let Some(run) = run_of(&mut self.runs, bucket) {
            run.remove(before);
            run.add(if load.documents == 0 {
                BucketLoad::default()
            } else {
                after
            });
        }
    }

    /// Documents, bytes and documents without a size in buckets `[start, end)`: the
    /// whole runs' sums, and the used buckets of the partial runs at the ends (and of the
    /// prefixes' buckets, above the runs).
    pub(super) fn load(&self, start: u32, end: u32) -> Load {
        let mut out = Load::default();
        // The whole runs between `start` and `end`, below the prefixes' buckets.
        let first = start.div_ceil(RUN).saturating_mul(RUN);
        let last = (end.min(NUMBER_OF_BUCKETS) / RUN) * RUN;
        if self.runs.is_empty() || first >= last {
            self.walk(start, end, &mut out);
            return out;
        }
        self.walk(start, first, &mut out);
        self.walk(last, end, &mut out);
        let mut whole = RunLoad::default();
        for run in self
            .runs
            .get((first / RUN) as usize..(last / RUN) as usize)
            .unwrap_or(&[])
        {
            whole.documents += run.documents;
            whole.without_size += run.without_size;
            whole.bytes += run.bytes;
        }
        out.add(Load {
            documents: whole.documents,
            bytes: u64::try_from(whole.bytes).unwrap_or(u64::MAX),
            without_size: whole.without_size,
        });
        out
    }

    /// Adds the used buckets of `[from, to)` to `out`, one at a time.
    fn walk(&self, from: u32, to: u32, out: &mut Load) {
        if from < to {
            for (_, load) in self.tree.range(from..to) {
                out.add(load.load());
            }
        }
    }

    /// Heap bytes, roughly: a B-tree entry is its key and value plus about a third for
    /// the nodes, and the runs' sums.
    pub(super) fn heap_bytes(&self) -> usize {
        self.tree.len() * (4 + std::mem::size_of::<BucketLoad>()) * 4 / 3
            + self.runs.capacity() * std::mem::size_of::<RunLoad>()
    }
}

impl PartialEq for UsedBuckets {
    fn eq(&self, other: &Self) -> bool {
        self.tree == other.tree
    }
}

impl Eq for UsedBuckets {}

impl std::fmt::Debug for UsedBuckets {
    /// The used buckets (the runs' sums are theirs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(&self.tree).finish()
    }
}

impl FromIterator<(u32, BucketLoad)> for UsedBuckets {
    /// The used buckets of `entries` (a later entry of the same bucket replaces an
    /// earlier one), with their runs' sums: O(used buckets).
    fn from_iter<I: IntoIterator<Item = (u32, BucketLoad)>>(entries: I) -> Self {
        let tree: BTreeMap<u32, BucketLoad> = entries.into_iter().collect();
        let mut runs = Vec::new();
        for (&bucket, &load) in tree.range(..NUMBER_OF_BUCKETS) {
            if let Some(run) = run_of(&mut runs, bucket) {
                run.add(load);
            }
        }
        UsedBuckets { tree, runs }
    }
}

/// The used buckets given in ascending order a part at a time (a
/// [`PlacementBuilder`](super::PlacementBuilder)'s packing), the runs' sums added as they
/// come: [`finish`](Self::finish) builds the tree at once and makes no pass for the sums
/// (which at 10,000,000 IDs pushed the packing's last step past 50 ms).
#[derive(Debug, Clone, Default)]
pub(super) struct SortedBuckets {
    entries: Vec<(u32, BucketLoad)>,
    runs: Vec<RunLoad>,
}

impl SortedBuckets {
    /// Makes room for `additional` more buckets.
    pub(super) fn reserve_exact(&mut self, additional: usize) {
        self.entries.reserve_exact(additional);
    }

    /// Whether room was made or a bucket given.
    pub(super) fn started(&self) -> bool {
        self.entries.capacity() > 0
    }

    /// The last bucket given.
    pub(super) fn last(&self) -> Option<u32> {
        self.entries.last().map(|&(bucket, _)| bucket)
    }

    /// Whether no bucket was given.
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds `bucket` (above every bucket given before) and its load.
    pub(super) fn push(&mut self, bucket: u32, load: BucketLoad) {
        debug_assert!(self.last().is_none_or(|last| last < bucket));
        if let Some(run) = run_of(&mut self.runs, bucket) {
            run.add(load);
        }
        self.entries.push((bucket, load));
    }

    /// The used buckets given, with their runs' sums.
    pub(super) fn finish(self) -> UsedBuckets {
        UsedBuckets {
            tree: self.entries.into_iter().collect(),
            runs: self.runs,
        }
    }
}

impl IntoIterator for UsedBuckets {
    type Item = (u32, BucketLoad);
    type IntoIter = btree_map::IntoIter<u32, BucketLoad>;

    fn into_iter(self) -> Self::IntoIter {
        self.tree.into_iter()
    }
}

impl<'a> IntoIterator for &'a UsedBuckets {
    type Item = (&'a u32, &'a BucketLoad);
    type IntoIter = btree_map::Iter<'a, u32, BucketLoad>;

    fn into_iter(self) -> Self::IntoIter {
        self.tree.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The sum of `[start, end)` walked bucket by bucket: what the runs must give.
    fn walked(used: &UsedBuckets, start: u32, end: u32) -> Load {
        let mut out = Load::default();
        for (_, load) in used.range(start..end) {
            out.add(load.load());
        }
        out
    }

    /// The runs' sums, none made read as zeros.
    fn runs(used: &UsedBuckets) -> Vec<RunLoad> {
        let none = vec![RunLoad::default(); (NUMBER_OF_BUCKETS / RUN) as usize];
        if used.runs.is_empty() {
            none
        } else {
            used.runs.clone()
        }
    }

    fn bucket() -> impl Strategy<Value = u32> {
        prop_oneof![
            0..NUMBER_OF_BUCKETS,
            0..300u32,
            NUMBER_OF_BUCKETS..NUMBER_OF_BUCKETS + 5_000,
        ]
    }

    fn size() -> impl Strategy<Value = Option<u64>> {
        prop_oneof![
            Just(None),
            (0..10_000u64).prop_map(Some),
            Just(Some(u64::MAX)),
            Just(Some(u64::MAX / 2)),
        ]
    }

    proptest! {
        /// After any additions and removals (a removal of a document that is there), every
        /// range's sums equal the buckets' own, bytes saturating as the buckets' sums do;
        /// and the runs equal those made again from the buckets.
        #[test]
        fn the_runs_sums_equal_the_buckets(
            changes in prop::collection::vec((bucket(), size(), any::<bool>()), 1..200),
            ranges in prop::collection::vec((0..NUMBER_OF_BUCKETS + 6_000, 0..NUMBER_OF_BUCKETS + 6_000), 1..20),
        ) {
            let mut used = UsedBuckets::default();
            let mut placed: Vec<(u32, Option<u64>)> = Vec::new();
            for (bucket, size, add) in changes {
                if add || placed.is_empty() {
                    used.change(bucket, size, Sign::Add);
                    placed.push((bucket, size));
                } else {
                    let (bucket, size) = placed.swap_remove(bucket as usize % placed.len());
                    used.change(bucket, size, Sign::Remove);
                }
            }
            for (a, b) in ranges.into_iter().chain([(0, u32::MAX), (0, NUMBER_OF_BUCKETS)]) {
                let (start, end) = (a.min(b), a.max(b));
                prop_assert_eq!(used.load(start, end), walked(&used, start, end), "{}..{}", start, end);
            }
            let again: UsedBuckets = used.iter().map(|(&b, &l)| (b, l)).collect();
            prop_assert_eq!(&again, &used);
            prop_assert_eq!(runs(&again), runs(&used));
            let mut sorted = SortedBuckets::default();
            for (&b, &l) in used.iter() {
                sorted.push(b, l);
            }
            let sorted = sorted.finish();
            prop_assert_eq!(&sorted, &used);
            prop_assert_eq!(runs(&sorted), runs(&used));
            let mut cut = again.clone();
            let above = cut.split_off(NUMBER_OF_BUCKETS / 2);
            prop_assert_eq!(cut.load(0, u32::MAX), walked(&used, 0, NUMBER_OF_BUCKETS / 2));
            prop_assert_eq!(above.load(0, u32::MAX), walked(&used, NUMBER_OF_BUCKETS / 2, u32::MAX));
        }
    }

    /// A placement with no bucket below the prefixes' used makes no runs (512 KiB).
    #[test]
    fn no_runs_until_a_bucket_below_the_prefixes_is_used() {
        let mut used = UsedBuckets::default();
        used.change(NUMBER_OF_BUCKETS + 3, Some(10), Sign::Add);
        assert!(used.runs.is_empty());
        assert_eq!(used.load(0, u32::MAX).documents, 1);
        used.change(5, Some(10), Sign::Add);
        assert_eq!(used.runs.len(), (NUMBER_OF_BUCKETS / RUN) as usize);
        assert_eq!(used.load(0, u32::MAX).bytes, 20);
    }
}
