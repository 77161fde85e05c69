//! The anchored groups' order — the most documents first, then by anchor — and each group's
//! rank in it, kept as edits change a few groups' sizes: a group whose size is about to
//! change is taken out of the order (a binary search by its key, then a memmove), and put
//! back by its new key when the edit is done. An edit of `k` documents costs
//! O(k log groups) comparisons, not a sort of every group.

use super::ranking_job::RankingSteps;
use std::cmp::Ordering;

/// What orders a group: its documents, then its anchor (anchors are unique among the live
/// groups, so no two groups tie).
pub(super) type Key<'a> = (u64, &'a str);

/// The order of two keys: the most documents first, then by anchor.
pub(super) fn order_of(a: Key<'_>, b: Key<'_>) -> Ordering {
    b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1))
}

/// A key as fixed-size numbers in [`order_of`]'s order, as far as they go: the documents
/// (most first: their complement), then the anchor's first 16 bytes, zero-padded (a shorter
/// anchor that is a prefix of a longer one comes first, as in the byte order of strings).
/// Two keys whose packed numbers differ are in their order; equal ones must be compared
/// whole.
pub(super) fn packed((documents, anchor): Key<'_>) -> (u64, u128) {
    let mut head = [0u8; 16];
    let n = anchor.len().min(head.len());
    head[..n].copy_from_slice(&anchor.as_bytes()[..n]);
    (u64::MAX - documents, u128::from_be_bytes(head))
}

/// The live groups (keys of the group table) in order, and those taken out until the edit
/// that changes them is done.
#[derive(Debug, Clone, Default)]
pub(super) struct Ranking {
    /// Keys of the group table, in order.
    order: Vec<u32>,
    /// Per key of the group table: whether it is out of `order` until [`Ranking::settle`].
    out: Vec<bool>,
    /// The keys taken out (or new) since the last settle, maybe repeated.
    pending: Vec<u32>,
}

impl Ranking {
    /// The order of the groups of a group table of `len` keys, `key` giving each live
    /// group's key (`None`: a free key), sorted once: O(groups log groups) comparisons of
    /// fixed-size keys ([`packed`]: the documents and the anchor's first 16 bytes, read
    /// where they lie in the sorted list, not behind each anchor's pointer), then the anchors
    /// of the few groups whose packed keys tie compared whole. At 10,000,000 generated
    /// documents (about 400,000 groups) comparing the anchors themselves took over 100 ms in
    /// wasm, the first time the documents view showed a row. The steps of
    /// [`RankingSteps`](super::ranking_job::RankingSteps) run to the end: a
    /// [`GroupsRanking`](super::GroupsRanking) makes the same order a step at a time.
    pub(super) fn of_table<'a>(len: usize, key: &dyn Fn(u32) -> Option<Key<'a>>) -> Ranking {
        let mut steps = RankingSteps::new(len);
        loop {
            if let Some(ranking) = steps.step(key, usize::MAX) {
                return ranking;
            }
        }
    }

    /// The ranking of groups already in `order`.
    pub(super) fn from_order(order: Vec<u32>) -> Ranking {
        Ranking {
            order,
            out: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// How many groups may wait to be put back before the order is made again from scratch
    /// instead (an import, a large paste): a sort then costs less than the memmoves.
    fn most_pending(&self) -> usize {
        256 + self.order.len() / 16
    }

    /// Takes group `g`, whose key is `key` now, out of the order before its size changes
    /// (a new group: only notes it). `false` when too many groups wait, or `g` is not where its key
    /// says: drop the ranking (it is sorted again when read).
    pub(super) fn take_out<'a>(
        &mut self,
        g: u32,
        key: Option<Key<'a>>,
        by: &dyn Fn(u32) -> Option<Key<'a>>,
    ) -> bool {
        let at = g as usize;
        if self.out.len() <= at {
            self.out.resize(at + 1, false);
        }
        if self.out[at] {
            return true;
        }
        if let Some(key) = key {
            let found = self
                .order
                .binary_search_by(|&x| by(x).map_or(Ordering::Greater, |k| order_of(k, key)));
            // Not found (the order does not hold what the table says): drop the order.
            let Ok(position) = found else {
                return false;
            };
            self.order.remove(position);
        }
        self.out[at] = true;
        self.pending.push(g);
        self.pending.len() <= self.most_pending()
    }

    /// Puts back the groups taken out that still live, by their keys now: O(taken out ×
    /// log groups) comparisons, and a memmove or one merge of the order.
    pub(super) fn settle<'a>(&mut self, key: &dyn Fn(u32) -> Option<Key<'a>>) {
        let mut back: Vec<(Key<'a>, u32)> = Vec::new();
        for g in std::mem::take(&mut self.pending) {
            let Some(out) = self.out.get_mut(g as usize).filter(|o| **o) else {
                continue;
            };
            *out = false;
            if let Some(k) = key(g) {
                back.push((k, g));
            }
        }
        back.sort_unstable_by(|(a, _), (b, _)| order_of(*a, *b));
        let at = |order: &[u32], k: Key<'_>| {
            order.partition_point(|&x| key(x).is_some_and(|kx| order_of(kx, k).is_lt()))
        };
        if back.len() <= 16 {
            for (k, g) in back {
                let position = at(&self.order, k);
                self.order.insert(position, g);
            }
            return;
        }
        // Many at once: one merge of two sorted lists.
        let old = std::mem::take(&mut self.order);
        let mut merged = Vec::with_capacity(old.len() + back.len());
        let mut rest = old.as_slice();
        for (k, g) in back {
            let take = at(rest, k);
            merged.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            merged.push(g);
        }
        merged.extend_from_slice(rest);
        self.order = merged;
    }

    /// The rank of group `g`, whose key is `key`: O(log groups) comparisons.
    pub(super) fn rank<'a>(
        &self,
        key: Key<'a>,
        by: &dyn Fn(u32) -> Option<Key<'a>>,
    ) -> Option<u32> {
        let found = self
            .order
            .binary_search_by(|&x| by(x).map_or(Ordering::Greater, |k| order_of(k, key)));
        u32::try_from(found.ok()?).ok()
    }

    /// The group (key of the group table) of rank `rank`.
    pub(super) fn at(&self, rank: u32) -> Option<u32> {
        self.order.get(rank as usize).copied()
    }

    /// Every group in order.
    pub(super) fn order(&self) -> &[u32] {
        &self.order
    }

    /// How many groups have more than `documents` documents (they come first).
    pub(super) fn more_than<'a>(
        &self,
        documents: u64,
        by: &dyn Fn(u32) -> Option<Key<'a>>,
    ) -> usize {
        self.order
            .partition_point(|&g| by(g).is_some_and(|(d, _)| d > documents))
    }

    /// Heap bytes.
    pub(super) fn heap_bytes(&self) -> usize {
        (self.order.capacity() + self.pending.capacity()) * 4 + self.out.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Anchors that tie on their first 16 bytes, are prefixes of each other, end in or hold
    /// a NUL byte, and are empty.
    fn anchor() -> impl Strategy<Value = String> {
        let prefix = prop::sample::select(vec![
            "",
            "companies/",
            "companies/0000000",
            "companies/0000000\0",
        ]);
        (prefix, "[a\\x00-c]{0,20}").prop_map(|(p, tail)| format!("{p}{tail}"))
    }

    proptest! {
        /// The packed sort gives the order of a sort by the whole keys.
        #[test]
        fn the_order_is_the_one_of_the_whole_keys(
            keys in prop::collection::btree_map(anchor(), prop::sample::select(vec![0u64, 1, 2, 7, u64::MAX]), 0..60),
        ) {
            let keys: Vec<(u64, String)> = keys.into_iter().map(|(a, d)| (d, a)).collect();
            let key = |g: u32| keys.get(g as usize).map(|(d, a)| (*d, a.as_str()));
            let ranking = Ranking::of_table(keys.len(), &key);
            let mut expected: Vec<u32> = (0..keys.len() as u32).collect();
            expected.sort_by(|&a, &b| order_of(key(a).unwrap(), key(b).unwrap()));
            prop_assert_eq!(ranking.order(), expected.as_slice());
        }
    }
}
