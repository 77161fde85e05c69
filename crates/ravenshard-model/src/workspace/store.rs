//! The per-document tables: IDs in one arena, a few numbers per document, and the bodies
//! of the documents that have one in a side table.

use super::NONE;

/// No size, in [`Store::sizes`].
const NO_SIZE: u64 = u64::MAX;

/// The documents, by index: what a placement keeps of each (about 24 bytes beyond the ID).
///
/// An ID lives in one arena string at `spans[i]`; a replaced ID is written at the end of
/// the arena and the old bytes become garbage, compacted once they outweigh the live bytes
/// (amortized O(1) per edited byte, never a shift of the whole arena).
#[derive(Debug, Clone, Default)]
pub(super) struct Store {
    arena: String,
    /// `[start, len]` of each ID in the arena.
    spans: Vec<[u32; 2]>,
    /// Arena bytes no span points at.
    garbage: usize,
    /// The final bucket of each document, or [`NONE`] when it is not placed.
    pub(super) buckets: Vec<u32>,
    /// The anchored group of each document (a key of the group table), or [`NONE`].
    pub(super) groups: Vec<u32>,
    /// The size of each document ([`NO_SIZE`] when unknown).
    sizes: Vec<u64>,
    /// The collection of each document (an index in the interned names), or [`NONE`].
    pub(super) collection_of: Vec<u32>,
    /// `(index, body)` of the documents that have a body, ascending: a side table, so a
    /// document without one costs nothing more.
    bodies: Vec<(u32, Box<str>)>,
}

/// One document's row of the tables, before it is stored.
pub(super) struct Entry<'a> {
    pub(super) id: &'a str,
    pub(super) bucket: u32,
    pub(super) size: Option<u64>,
    pub(super) collection: u32,
    pub(super) body: Option<&'a str>,
}

/// The most ID bytes a placement keeps (spans are `u32`; one less than their largest value,
/// so that the limit can be reached on wasm32 too).
pub(super) const MAX_ARENA: usize = (u32::MAX - 1) as usize;

impl Store {
    /// Room for `additional` more documents of `id_bytes` bytes of IDs in all.
    pub(super) fn reserve(&mut self, additional: usize, id_bytes: usize) {
        self.arena.reserve(id_bytes);
        self.spans.reserve(additional);
        self.buckets.reserve(additional);
        self.groups.reserve(additional);
        self.sizes.reserve(additional);
        self.collection_of.reserve(additional);
    }

    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// Live ID bytes.
    pub(super) fn id_bytes(&self) -> usize {
        self.arena.len() - self.garbage
    }

    pub(super) fn id(&self, index: usize) -> Option<&str> {
        let [start, len] = *self.spans.get(index)?;
        self.arena
            .get(start as usize..start as usize + len as usize)
    }

    /// The ID of a document known to exist ("" otherwise).
    pub(super) fn id_of(&self, index: u32) -> &str {
        self.id(index as usize).unwrap_or("")
    }

    pub(super) fn size(&self, index: usize) -> Option<u64> {
        self.sizes.get(index).copied().filter(|&s| s != NO_SIZE)
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
        self.bodies.get(at).map(|(_, body)| &**body)
    }

    /// How many documents have a body.
    pub(super) fn bodies(&self) -> usize {
        self.bodies.len()
    }

    /// Replaces the bodies of documents `at..at + remove` by those of `entries` and
    /// renumbers the bodies after them: O(bodies after the edit).
    fn splice_bodies(&mut self, at: usize, remove: usize, entries: &[Entry<'_>]) {
        let position = |i: usize| self.bodies.partition_point(|(b, _)| (*b as usize) < i);
        let (lo, hi) = (position(at), position(at + remove));
        let delta = entries.len() as i64 - remove as i64;
        if delta != 0 {
            for (i, _) in self.bodies.get_mut(hi..).unwrap_or(&mut []) {
                super::groups::shift(i, (at + remove) as u32, delta);
            }
        }
        let added = (at as u32..)
            .zip(entries)
            .filter_map(|(i, e)| Some((i, Box::from(e.body?))));
        self.bodies.splice(lo..hi, added);
    }

    fn push_id(&mut self, id: &str) -> [u32; 2] {
        let start = self.arena.len();
        self.arena.push_str(id);
        // `fits` was checked by the caller; a compaction keeps the arena below MAX_ARENA.
        [start as u32, id.len() as u32]
    }

    /// Replaces documents `at..at + remove` by `entries` (a memmove of the tables after
    /// them when the counts differ).
    pub(super) fn splice(&mut self, at: usize, remove: usize, entries: &[Entry<'_>]) {
        let added = entries
            .iter()
            .map(|e| e.id.len())
            .fold(0, usize::saturating_add);
        if self.arena.len().saturating_add(added) > MAX_ARENA {
            self.compact();
        }
        for span in self.spans.get(at..at + remove).unwrap_or(&[]) {
            self.garbage += span[1] as usize;
        }
        self.splice_bodies(at, remove, entries);
        let spans: Vec<[u32; 2]> = entries.iter().map(|e| self.push_id(e.id)).collect();
        let range = at..at + remove;
        self.spans.splice(range.clone(), spans);
        self.buckets
            .splice(range.clone(), entries.iter().map(|e| e.bucket));
        self.groups
            .splice(range.clone(), entries.iter().map(|_| NONE));
        self.sizes.splice(
            range.clone(),
            entries.iter().map(|e| e.size.unwrap_or(NO_SIZE)),
        );
        self.collection_of
            .splice(range, entries.iter().map(|e| e.collection));
        if self.garbage > self.arena.len() / 2 && self.garbage > 1 << 16 {
            self.compact();
        }
    }

    /// Writes the live IDs again back to back: O(ID bytes), once the garbage outweighs
    /// them.
    fn compact(&mut self) {
        let mut arena = String::with_capacity(self.id_bytes());
        for span in &mut self.spans {
            let [start, len] = *span;
            let text = self
                .arena
                .get(start as usize..start as usize + len as usize)
                .unwrap_or("");
            *span = [arena.len() as u32, len];
            arena.push_str(text);
        }
        self.arena = arena;
        self.garbage = 0;
    }

    /// Heap bytes the tables hold (capacity, not length).
    pub(super) fn heap_bytes(&self) -> usize {
        self.arena.capacity()
            + self.spans.capacity() * 8
            + (self.buckets.capacity() + self.groups.capacity() + self.collection_of.capacity()) * 4
            + self.sizes.capacity() * 8
            + self.bodies.capacity() * std::mem::size_of::<(u32, Box<str>)>()
            + self.bodies.iter().map(|(_, b)| b.len()).sum::<usize>()
    }
}
