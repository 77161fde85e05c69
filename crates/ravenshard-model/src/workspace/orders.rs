//! The documents view's sort orders: each made when a query first sorts by its key, then
//! kept as documents are edited — the documents an edit removes are taken out of every
//! order made (a binary search by their key, then a memmove) and those it inserts put in,
//! so an edit of `k` documents costs O(k log n) comparisons plus the memmoves, not a sort.
//! An order a query never asked for is never made.

use super::rows::SortKey;
use super::{Locator, Placement, NONE};
use std::cmp::Ordering;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// An order of all documents: those with the sort value first, sorted by it (ties by
/// index), then the rest in input order.
#[derive(Debug, Clone, Default)]
pub(super) struct Order {
    pub(super) documents: Vec<u32>,
    pub(super) present: usize,
}

/// The orders made so far, one per sort key but [`SortKey::Index`]; shared with the row
/// views made from them (an edit copies an order a view still holds).
#[derive(Debug, Clone, Default)]
pub(super) struct SortCache([OnceLock<Arc<Order>>; 5]);

/// The keys in the cache's slots.
const KEYS: [SortKey; 5] = [
    SortKey::Id,
    SortKey::Bucket,
    SortKey::Shard,
    SortKey::Size,
    SortKey::Collection,
];

/// Above this many documents, an edit's documents are taken out in one pass over the
/// order and put in with one merge.
const FEW: usize = 16;

impl SortCache {
    /// Heap bytes of the orders made so far.
    pub(super) fn heap_bytes(&self) -> usize {
        self.0
            .iter()
            .filter_map(OnceLock::get)
            .map(|o| o.documents.capacity() * 4)
            .sum()
    }

    /// Whether no order was made.
    fn is_empty(&self) -> bool {
        self.0.iter().all(|s| s.get().is_none())
    }

    /// Drops the orders a change of topology invalidates: by shard, and by bucket when
    /// buckets moved.
    pub(super) fn forget_placement(&mut self, buckets_moved: bool) {
        self.0[2] = OnceLock::new();
        if buckets_moved {
            self.0[1] = OnceLock::new();
        }
    }

    /// Whether the order by `key` is made: `None` for input order (which needs no list),
    /// `Some(None)` when not made yet.
    pub(super) fn made(&self, key: SortKey) -> Option<Option<Arc<Order>>> {
        let slot = KEYS.iter().position(|&k| k == key)?;
        Some(self.0.get(slot)?.get().cloned())
    }

    /// Keeps `order`, made by a [`Sorting`] by `key` (an order made meanwhile stays).
    pub(super) fn keep(&self, key: SortKey, order: Order) -> Option<Arc<Order>> {
        let slot = KEYS.iter().position(|&k| k == key)?;
        Some(Arc::clone(
            self.0.get(slot)?.get_or_init(|| Arc::new(order)),
        ))
    }

    /// Takes documents `range` of `p` (as they are before an edit replaces them by
    /// `inserted` documents) out of every order made; an order where one is not found is
    /// dropped (made again when read). One document replaced by one (an ID edited) stays
    /// where it is, and its place is returned for [`SortCache::put_in`] to move it from.
    pub(super) fn take_out(&mut self, p: &Placement, range: Range<usize>, inserted: usize) -> Held {
        let mut held = Held::default();
        if self.is_empty() {
            return held;
        }
        let locator = Locator::new(&p.topology);
        let in_place = range.len() == 1 && inserted == 1;
        for ((slot, key), place) in self.0.iter_mut().zip(KEYS).zip(&mut held.0) {
            let Some(order) = slot.get_mut() else {
                continue;
            };
            let by = Compare {
                p,
                key,
                locator: &locator,
            };
            let found = if in_place {
                *place = by.position(order, range.start as u32).ok();
                place.is_some()
            } else {
                by.take_out(Arc::make_mut(order), range.clone())
            };
            if !found {
                *slot = OnceLock::new();
            }
        }
        held
    }

    /// Moves the indices `>= from` by `delta` (after an edit that changed the number of
    /// documents): O(n) per order made.
    pub(super) fn shift(&mut self, from: u32, delta: i64) {
        for order in self.0.iter_mut().filter_map(OnceLock::get_mut) {
            for i in &mut Arc::make_mut(order).documents {
                super::groups::shift(i, from, delta);
            }
        }
    }

    /// Puts documents `range` of `p` (as an edit placed them) in every order made; a
    /// document [`SortCache::take_out`] held in place moves from there.
    pub(super) fn put_in(&mut self, p: &Placement, range: Range<usize>, held: Held) {
        if self.is_empty() {
            return;
        }
        let locator = Locator::new(&p.topology);
        for ((slot, key), place) in self.0.iter_mut().zip(KEYS).zip(held.0) {
            if let Some(order) = slot.get_mut() {
                let by = Compare {
                    p,
                    key,
                    locator: &locator,
                };
                match place {
                    Some(at) => by.move_from(order, at, range.start as u32),
                    None => by.put_in(Arc::make_mut(order), range.clone()),
                }
            }
        }
    }
}

/// Calls `f` with the documents view's order by `key` as a test "does document `x` come
/// before document `y`": the documents with the value by it (reversed when `descending`),
/// ties by index, then the others in input order.
pub(super) fn with_order<R>(
    p: &Placement,
    key: SortKey,
    descending: bool,
    f: impl FnOnce(&dyn Fn(u32, u32) -> bool) -> R,
) -> R {
    let locator = Locator::new(&p.topology);
    let by = Compare {
        p,
        key,
        locator: &locator,
    };
    let before = |x: u32, y: u32| match (by.present(x), by.present(y)) {
        (true, true) if descending => by.cmp(x, y) == Ordering::Greater,
        (true, true) => by.cmp(x, y) == Ordering::Less,
        (present, _) if present != by.present(y) => present,
        _ => x < y,
    };
    f(&before)
}

/// Where the document an edit replaces by one other (an ID edited) is in each order made.
#[derive(Debug, Default)]
pub(super) struct Held([Option<usize>; 5]);

/// How one order compares documents.
struct Compare<'p> {
    p: &'p Placement,
    key: SortKey,
    locator: &'p Locator<'p>,
}

impl Compare<'_> {
    /// Whether document `i` has the sort value (else it comes last, in input order).
    fn present(&self, i: u32) -> bool {
        let (p, i) = (self.p, i as usize);
        match self.key {
            SortKey::Index | SortKey::Id => true,
            SortKey::Bucket | SortKey::Shard => p.store.bucket(i).is_some(),
            SortKey::Size => p.size(i).is_some(),
            SortKey::Collection => p.collection(i).is_some(),
        }
    }

    /// The order of two documents that have the sort value; ties by index.
    fn cmp(&self, a: u32, b: u32) -> Ordering {
        let p = self.p;
        let (x, y) = (a as usize, b as usize);
        let by_value = match self.key {
            SortKey::Index => Ordering::Equal,
            SortKey::Id => {
                let (ida, idb) = (p.id(x).unwrap_or(""), p.id(y).unwrap_or(""));
                p.lower(ida).cmp(&p.lower(idb)).then_with(|| ida.cmp(idb))
            }
            SortKey::Bucket => p.store.bucket(x).cmp(&p.store.bucket(y)),
            SortKey::Shard => {
                let at = |i: usize| {
                    let bucket = p.store.bucket(i).unwrap_or(NONE);
                    (self.locator.shard_position(bucket), bucket)
                };
                at(x).cmp(&at(y))
            }
            SortKey::Size => p.size(x).cmp(&p.size(y)),
            SortKey::Collection => p.collection(x).cmp(&p.collection(y)),
        };
        by_value.then(a.cmp(&b))
    }

    /// Where document `i` is, or goes, in `order`.
    fn position(&self, order: &Order, i: u32) -> Result<usize, usize> {
        let (present, missing) = order.documents.split_at(order.present);
        if self.present(i) {
            present.binary_search_by(|&x| self.cmp(x, i))
        } else {
            let at = missing.binary_search(&i);
            at.map(|a| a + order.present).map_err(|a| a + order.present)
        }
    }

    /// Takes documents `range` out of `order`; `false` if one of them is not in it.
    fn take_out(&self, order: &mut Order, range: Range<usize>) -> bool {
        if range.len() > FEW {
            let before = order.documents.len();
            let mut kept_present = 0;
            let mut kept = 0;
            for r in 0..before {
                let i = order.documents[r];
                if !range.contains(&(i as usize)) {
                    order.documents[kept] = i;
                    kept += 1;
                    kept_present += usize::from(r < order.present);
                }
            }
            order.documents.truncate(kept);
            order.present = kept_present;
            return before - kept == range.len();
        }
        for i in range {
            let Ok(at) = self.position(order, i as u32) else {
                return false;
            };
            order.documents.remove(at);
            if at < order.present {
                order.present -= 1;
            }
        }
        true
    }

    /// Moves document `i`, at `at` in `order` with the key it had, to where its key now
    /// puts it: O(log n) comparisons and a rotation of the rows between the two places (a
    /// typed character moves an ID a few rows, if any).
    fn move_from(&self, order: &mut Arc<Order>, at: usize, i: u32) {
        let was_present = at < order.present;
        if was_present != self.present(i) {
            let order = Arc::make_mut(order);
            order.documents.remove(at);
            order.present -= usize::from(was_present);
            self.put_in(order, i as usize..i as usize + 1);
            return;
        }
        if !was_present {
            // Without the value, by index, which an edit in place keeps.
            return;
        }
        let present = &order.documents[..order.present];
        let goes_before = |x: &u32| self.cmp(*x, i).is_gt();
        let goes_after = |x: &u32| self.cmp(*x, i).is_lt();
        if at
            .checked_sub(1)
            .and_then(|b| present.get(b))
            .is_some_and(goes_before)
        {
            let to = present[..at].partition_point(goes_after);
            Arc::make_mut(order).documents[to..=at].rotate_right(1);
        } else if present.get(at + 1).is_some_and(goes_after) {
            let to = at + 1 + present[at + 1..].partition_point(goes_after);
            Arc::make_mut(order).documents[at..to].rotate_left(1);
        }
    }

    /// Puts documents `range` (not in `order`) in it.
    fn put_in(&self, order: &mut Order, range: Range<usize>) {
        let new = range.start as u32..range.end as u32;
        if new.len() <= FEW {
            for i in new {
                let at = match self.position(order, i) {
                    Ok(at) | Err(at) => at,
                };
                order.documents.insert(at, i);
                if self.present(i) {
                    order.present += 1;
                }
            }
            return;
        }
        let (mut with, without): (Vec<u32>, Vec<u32>) = new.partition(|&i| self.present(i));
        with.sort_unstable_by(|&a, &b| self.cmp(a, b));
        let (present, missing) = order.documents.split_at(order.present);
        let mut merged = Vec::with_capacity(order.documents.len() + with.len() + without.len());
        let mut rest = present;
        for i in &with {
            let take = rest.partition_point(|&x| self.cmp(x, *i).is_lt());
            merged.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            merged.push(*i);
        }
        merged.extend_from_slice(rest);
        let present = merged.len();
        // The new documents without the value are consecutive indices: one block.
        let at = missing.partition_point(|&x| x < range.start as u32);
        merged.extend_from_slice(&missing[..at]);
        merged.extend_from_slice(&without);
        merged.extend_from_slice(&missing[at..]);
        *order = Order {
            documents: merged,
            present,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{Document, RowQuery};
    use ravenshard::Topology;

    fn made(p: &Placement) -> Vec<bool> {
        p.orders.0.iter().map(|s| s.get().is_some()).collect()
    }

    #[test]
    fn only_the_orders_asked_for_are_made_then_kept() {
        let docs = ["b", "a", "c$a"].map(Document::new);
        let t = Topology::with_shards(3).unwrap();
        let mut p = Placement::new(&docs, &t, &Default::default());
        let by_id = RowQuery {
            sort: SortKey::Id,
            ..Default::default()
        };
        p.rows(&RowQuery::default());
        assert_eq!(made(&p), [false; 5]);
        p.rows(&by_id);
        assert_eq!(made(&p), [true, false, false, false, false]);
        p.splice(1..2, &[Document::new("d")]).unwrap();
        assert_eq!(made(&p), [true, false, false, false, false]);
        // b, c$a, d
        assert_eq!(p.rows(&by_id).indices(), [0, 2, 1]);
        p.splice(0..0, &[Document::new("a")]).unwrap();
        assert_eq!(p.rows(&by_id).indices(), [0, 1, 3, 2]);
    }
}
