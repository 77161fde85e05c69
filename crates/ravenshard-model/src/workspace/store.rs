//! The per-document tables: IDs in one arena, a few numbers per document, and the bodies
//! of the documents that have one in a side table.

use super::arena::{with_edit_room, Arena, MAX_ARENA};
use super::NONE;

/// No size, in [`Store::sizes`].
const NO_SIZE: u32 = u32::MAX;

/// In [`Store::sizes`]: a size of this many bytes or more, kept exact in [`Store::big`].
const BIG: u32 = u32::MAX - 1;

/// The documents, by index: what a placement keeps of each (12 bytes beyond the ID, 4 more
/// for each of a size, an anchored group and a collection once a document has one, 12
/// more for a document of 4 GiB or more, and 12 beyond the body for a document that has
/// one).
///
/// An ID lives in one arena string at `spans[i]`, a body in another, at the span the side
/// table gives ([`Arena`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Store {
    ids: Arena,
    /// `[start, len]` of each ID in `ids`.
    spans: Vec<[u32; 2]>,
    /// The final bucket of each document, or [`NONE`] when it is not placed.
    pub(super) buckets: Vec<u32>,
    /// The anchored group of each document (a key of the group table), or [`NONE`]; empty
    /// until a document with a `$` comes (see [`Store::take_groups`]): an import of plain
    /// IDs pays nothing for it.
    pub(super) groups: Vec<u32>,
    /// The size of each document ([`NO_SIZE`] when unknown, [`BIG`] when in `big`); empty
    /// until a document with a size comes: an import of plain IDs pays nothing for it.
    sizes: Vec<u32>,
    /// `(index, size)` of the documents of [`BIG`] bytes or more, ascending: a side table,
    /// so that a size costs 4 bytes and stays exact.
    big: Vec<(u32, u64)>,
    /// The collection of each document (an index in the interned names), or [`NONE`];
    /// empty until a document with a collection comes.
    pub(super) collection_of: Vec<u32>,
    /// The bodies of the documents that have one.
    texts: Arena,
    /// `(index, span in texts)` of the documents that have a body, ascending: a side
    /// table, so a document without one costs nothing more.
    bodies: Vec<(u32, [u32; 2])>,
}

/// One document's row of the tables, before it is stored.
pub(super) struct Entry<'a> {
    pub(super) id: &'a str,
    pub(super) bucket: u32,
    pub(super) size: Option<u64>,
    pub(super) collection: u32,
    pub(super) body: Option<&'a str>,
}

impl Store {
    /// Room for `additional` more documents of `id_bytes` bytes of IDs in all, and for the
    /// edits after them ([`with_edit_room`]: the first edit after a restore copied none).
    pub(super) fn reserve(&mut self, additional: usize, id_bytes: usize) {
        self.ids.reserve(id_bytes);
        let additional = with_edit_room(additional);
        self.spans.reserve(additional);
        self.buckets.reserve(additional);
        for column in [&mut self.groups, &mut self.collection_of, &mut self.sizes] {
            if !column.is_empty() {
                column.reserve(additional);
            }
        }
    }

    /// The documents' groups, for an edit to update: all [`NONE`] from an empty (unused)
    /// table when `needed` (the edit has a document with a `$`, or groups exist), else the
    /// table as it is (then no slot is written).
    pub(super) fn take_groups(&mut self, needed: bool) -> Vec<u32> {
        if self.groups.is_empty() && needed {
            return none_column(self.len(), self.spans.capacity());
        }
        std::mem::take(&mut self.groups)
    }

    /// Room for `bodies` more bodies of `bytes` in all.
    pub(super) fn reserve_bodies(&mut self, bodies: usize, bytes: usize) {
        self.texts.reserve(bytes);
        self.bodies.reserve(with_edit_room(bodies));
    }

    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// Live ID bytes.
    pub(super) fn id_bytes(&self) -> usize {
        self.ids.live()
    }

    /// Live body bytes.
    pub(super) fn body_bytes(&self) -> usize {
        self.texts.live()
    }

    pub(super) fn id(&self, index: usize) -> Option<&str> {
        self.ids.get(*self.spans.get(index)?)
    }

    /// The ID of a document known to exist ("" otherwise).
    pub(super) fn id_of(&self, index: u32) -> &str {
        self.id(index as usize).unwrap_or("")
    }

    pub(super) fn size(&self, index: usize) -> Option<u64> {
        if index >= self.len() {
            return None;
        }
        match self.sizes.get(index).copied().unwrap_or(NO_SIZE) {
            NO_SIZE => None,
            BIG => {
                let at = self.big.binary_search_by_key(&index, |(i, _)| *i as usize);
                Some(self.big.get(at.ok()?)?.1)
            }
            size => Some(u64::from(size)),
        }
    }

    pub(super) fn bucket(&self, index: usize) -> Option<u32> {
        self.buckets.get(index).copied().filter(|&b| b != NONE)
    }

    /// The body of document `index`, when it has one.
    pub(super) fn body(&self, index: usize) -> Option<&str> {
        let at = self
            .bodies
            .binary_search_by_key(&index, |(i, _)| *i as usize)
            .ok()?;
        self.texts.get(self.bodies.get(at)?.1)
    }

    /// How many documents have a body.
    pub(super) fn bodies(&self) -> usize {
        self.bodies.len()
    }

    /// Replaces the bodies of documents `at..at + remove` by those of `entries` and
    /// renumbers the bodies after them: O(bodies after the edit).
    fn splice_bodies(&mut self, at: usize, remove: usize, entries: &[Entry<'_>]) {
        let (lo, hi) = side_range(&mut self.bodies, at, remove, entries.len());
        for &(_, span) in self.bodies.get(lo..hi).unwrap_or(&[]) {
            self.texts.forget(span);
        }
        let added = entries
            .iter()
            .filter_map(|e| e.body)
            .map(str::len)
            .fold(0, usize::saturating_add);
        if self.texts.len().saturating_add(added) > MAX_ARENA {
            // The removed bodies are garbage already: only the others are written again
            // (writing them too would keep their bytes, no longer counted as garbage).
            let (before, rest) = self.bodies.split_at_mut(lo);
            let after = rest.get_mut(hi - lo..).unwrap_or(&mut []);
            (self.texts).compact(before.iter_mut().chain(after).map(|(_, span)| span));
        }
        let texts = &mut self.texts;
        let added: Vec<(u32, [u32; 2])> = (at as u32..)
            .zip(entries)
            .filter_map(|(i, e)| Some((i, texts.push(e.body?))))
            .collect();
        self.bodies.splice(lo..hi, added);
        if self.texts.wasteful() {
            self.compact_bodies();
        }
    }

    fn compact_bodies(&mut self) {
        self.texts
            .compact(self.bodies.iter_mut().map(|(_, span)| span));
    }

    /// Replaces documents `at..at + remove` by `entries` (a memmove of the tables after
    /// them when the counts differ).
    pub(super) fn splice(&mut self, at: usize, remove: usize, entries: &[Entry<'_>]) {
        let added = entries
            .iter()
            .map(|e| e.id.len())
            .fold(0, usize::saturating_add);
        if self.ids.len().saturating_add(added) > MAX_ARENA {
            self.ids.compact(self.spans.iter_mut());
        }
        for &span in self.spans.get(at..at + remove).unwrap_or(&[]) {
            self.ids.forget(span);
        }
        self.splice_bodies(at, remove, entries);
        let ids = &mut self.ids;
        let spans: Vec<[u32; 2]> = entries.iter().map(|e| ids.push(e.id)).collect();
        let range = at..at + remove;
        let before = self.spans.len();
        self.spans.splice(range.clone(), spans);
        self.buckets
            .splice(range.clone(), entries.iter().map(|e| e.bucket));
        if !self.groups.is_empty() {
            self.groups
                .splice(range.clone(), entries.iter().map(|_| NONE));
        }
        let (lo, hi) = side_range(&mut self.big, at, remove, entries.len());
        let big = (at as u32..).zip(entries).filter_map(|(i, e)| {
            let size = e.size.filter(|&s| s >= u64::from(BIG))?;
            Some((i, size))
        });
        self.big.splice(lo..hi, big);
        let sized = entries.iter().any(|e| e.size.is_some());
        if self.sizes.is_empty() && sized {
            self.sizes = column_of(before, self.spans.capacity(), NO_SIZE);
        }
        if sized || !self.sizes.is_empty() {
            self.sizes
                .splice(range.clone(), entries.iter().map(|e| compact_size(e.size)));
        }
        let named = entries.iter().any(|e| e.collection != NONE);
        if self.collection_of.is_empty() && named {
            self.collection_of = none_column(before, self.spans.capacity());
        }
        if named || !self.collection_of.is_empty() {
            self.collection_of
                .splice(range, entries.iter().map(|e| e.collection));
        }
        if self.ids.wasteful() {
            self.ids.compact(self.spans.iter_mut());
        }
    }

    /// Heap bytes the tables hold (capacity, not length).
    pub(super) fn heap_bytes(&self) -> usize {
        self.ids.capacity()
            + self.spans.capacity() * 8
            + (self.buckets.capacity() + self.groups.capacity() + self.collection_of.capacity()) * 4
            + self.sizes.capacity() * 4
            + self.big.capacity() * 16
            + self.texts.capacity()
            + self.bodies.capacity() * 12
    }
}

/// `len` times [`NONE`], with room for `capacity`.
fn none_column(len: usize, capacity: usize) -> Vec<u32> {
    column_of(len, capacity, NONE)
}

/// `len` times `value`, with room for `capacity`.
fn column_of(len: usize, capacity: usize, value: u32) -> Vec<u32> {
    let mut column = Vec::with_capacity(capacity.max(len));
    column.resize(len, value);
    column
}

/// A size as [`Store::sizes`] keeps it.
fn compact_size(size: Option<u64>) -> u32 {
    match size {
        None => NO_SIZE,
        Some(size) => u32::try_from(size).map_or(BIG, |s| s.min(BIG)),
    }
}

/// The entries of a side table (ascending by document index) for documents
/// `at..at + remove`, which a splice puts `inserted` documents in place of: the indices
/// after them are renumbered, and their range in the table given.
fn side_range<T>(
    side: &mut [(u32, T)],
    at: usize,
    remove: usize,
    inserted: usize,
) -> (usize, usize) {
    let position = |side: &[(u32, T)], i: usize| side.partition_point(|(b, _)| (*b as usize) < i);
    let (lo, hi) = (position(side, at), position(side, at + remove));
    let delta = inserted as i64 - remove as i64;
    if delta != 0 {
        for (i, _) in side.get_mut(hi..).unwrap_or(&mut []) {
            super::groups::shift(i, (at + remove) as u32, delta);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_sizes_column_is_made_when_the_first_size_comes() {
        let entry = |size| Entry {
            id: "x",
            bucket: 0,
            size,
            collection: NONE,
            body: None,
        };
        let mut store = Store::default();
        store.reserve(10, 10);
        store.splice(0, 0, &[entry(None), entry(None)]);
        assert_eq!(store.sizes.capacity(), 0, "plain IDs pay nothing for sizes");
        assert_eq!((store.size(1), store.size(2)), (None, None));
        store.splice(1, 0, &[entry(Some(7))]);
        let room = store.spans.capacity();
        assert!(room >= 10);
        assert_eq!(store.sizes.capacity(), room, "made at the room reserved");
        let sizes: Vec<_> = (0..4).map(|i| store.size(i)).collect();
        assert_eq!(sizes, [None, Some(7), None, None]);
    }

    proptest! {
        /// Sizes of 4 GiB and more stay exact, through splices that move them.
        #[test]
        fn sizes_stay_exact(
            sizes in proptest::collection::vec(
                prop_oneof![Just(None), any::<u32>().prop_map(|s| Some(u64::from(s))),
                            (u64::from(BIG) - 2..u64::from(BIG) + 3).prop_map(Some),
                            any::<u64>().prop_map(Some)],
                0..40),
            edits in proptest::collection::vec((0usize..40, 0usize..5, 0usize..5), 0..8),
        ) {
            let mut store = Store::default();
            let mut model: Vec<Option<u64>> = Vec::new();
            let entry = |size| Entry { id: "x", bucket: 0, size, collection: 0, body: None };
            let all: Vec<Entry<'_>> = sizes.iter().map(|&s| entry(s)).collect();
            store.splice(0, 0, &all);
            model.extend(&sizes);
            for (k, &(at, remove, insert)) in edits.iter().enumerate() {
                let at = at.min(model.len());
                let remove = remove.min(model.len() - at);
                let new: Vec<Option<u64>> =
                    (0..insert).map(|j| sizes.get((k + j) % sizes.len().max(1)).copied().flatten()).collect();
                let entries: Vec<Entry<'_>> = new.iter().map(|&s| entry(s)).collect();
                store.splice(at, remove, &entries);
                model.splice(at..at + remove, new);
            }
            let stored: Vec<Option<u64>> = (0..store.len()).map(|i| store.size(i)).collect();
            prop_assert_eq!(stored, model);
        }
    }
}
