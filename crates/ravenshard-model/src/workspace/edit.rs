//! Edits of documents applied to a placement in place: every aggregate follows the
//! documents that changed, not the whole set.

use super::arena::MAX_ARENA;
use super::groups::{Candidate, Member};
use super::loads::{Loads, Sign};
use super::store::Entry;
use super::{design, histogram, shards, Balance, Document, InvalidDocument, Locator, NodeMatrix};
use super::{DocumentsMark, Placement, Splice, Totals, Unplaced, MAX_DOCUMENTS, NONE};
use ravenshard::{anchor_start, bucket_of_hash, check_id, hash_of_key, push_lower_id};
use ravenshard::{ServerVersion, Topology};
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// One edit of a placement's documents: documents `at..at + remove` are replaced by
/// `insert`, the way an editor replaces lines. An insertion removes nothing, a removal
/// inserts nothing, and an edit of one ID replaces one document by one.
#[derive(Debug, Clone, Copy)]
pub struct Edit<'a> {
    /// Index of the first document replaced.
    pub at: usize,
    /// How many documents are removed from `at` on.
    pub remove: usize,
    /// The documents put in their place.
    pub insert: &'a [Document],
}

/// Why [`Placement::apply`] refused an edit (the placement is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// The edit names documents past the end.
    OutOfRange {
        /// First document of the edit.
        at: usize,
        /// Documents it removes.
        remove: usize,
        /// Documents in the placement.
        len: usize,
    },
    /// The placement would hold more than [`MAX_DOCUMENTS`] documents.
    TooManyDocuments {
        /// How many it would hold.
        documents: usize,
    },
    /// The placement would hold more than 4 GiB of IDs.
    TooManyIdBytes {
        /// How many ID bytes it would hold.
        bytes: usize,
    },
    /// The placement would hold more than 4 GiB of bodies.
    TooManyBodyBytes {
        /// How many body bytes it would hold.
        bytes: usize,
    },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::OutOfRange { at, remove, len } => write!(
                f,
                "the edit replaces documents {at}..{} but there are {len}: edit documents \
                 that exist, or insert at index {len} to append",
                at.saturating_add(*remove)
            ),
            EditError::TooManyDocuments { documents } => write!(
                f,
                "the edit would make {documents} documents, more than the {MAX_DOCUMENTS} a \
                 placement holds: remove some documents first"
            ),
            EditError::TooManyIdBytes { bytes } => write!(
                f,
                "the edit would make {bytes} bytes of IDs, more than the {MAX_ARENA} a \
                 placement holds: remove some documents first"
            ),
            EditError::TooManyBodyBytes { bytes } => write!(
                f,
                "the edit would make {bytes} bytes of document bodies, more than the \
                 {MAX_ARENA} a placement holds: remove some documents or their bodies first"
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// `id` lowered as `version` does.
fn lowered(id: &str, version: ServerVersion) -> String {
    let mut out = String::with_capacity(id.len());
    push_lower_id(&mut out, id, version);
    out
}

impl Placement {
    /// Applies one [`Edit`]: see [`Placement::splice`].
    ///
    /// # Errors
    ///
    /// [`EditError`] when the edit does not fit the documents or the limits.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Edit, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let mut p = Placement::new(&[Document::new("orders/1-A")], &t, &Default::default());
    /// let typed = [Document::new("customers/1-A")];
    /// p.apply(Edit { at: 0, remove: 1, insert: &typed }).unwrap();
    /// assert_eq!(p.place(0).unwrap().bucket, 982173);
    /// ```
    pub fn apply(&mut self, edit: Edit<'_>) -> Result<(), EditError> {
        self.splice(edit.at..edit.at.saturating_add(edit.remove), edit.insert)
    }

    /// Replaces documents `range` by `documents` and updates every view in place, as if
    /// the documents had been placed again with [`Placement::new`] (whose answers it
    /// gives): O(k log n) for `k` documents removed and inserted, plus, when the number of
    /// documents changes, a memmove of the per-document tables after the edit and a pass
    /// that renumbers the documents after it in the duplicate and group tables (O(n), a
    /// few milliseconds at 1,000,000 documents; an edit of one ID in place has neither).
    /// The sorted views (bucket order, rows, groups, obese buckets, duplicates) are made
    /// again when next read.
    ///
    /// # Errors
    ///
    /// [`EditError`] when `range` is past the end or the result would exceed the limits;
    /// the placement is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let mut p = Placement::new(&docs, &t, &Default::default());
    /// p.splice(1..1, &[Document::new("orders/2-A$customers/1-A")]).unwrap();
    /// assert_eq!(p.groups()[0].members, [1]);
    /// assert_eq!(p.groups()[0].anchor_document, Some(2));
    /// p.splice(0..2, &[]).unwrap();
    /// assert_eq!(p.len(), 1);
    /// assert!(p.groups().is_empty());
    /// ```
    pub fn splice(&mut self, range: Range<usize>, documents: &[Document]) -> Result<(), EditError> {
        let len = self.len();
        if range.start > range.end || range.end > len {
            return Err(EditError::OutOfRange {
                at: range.start,
                remove: range.end.saturating_sub(range.start),
                len,
            });
        }
        let count = len - range.len() + documents.len();
        if count > MAX_DOCUMENTS {
            return Err(EditError::TooManyDocuments { documents: count });
        }
        let removed: usize = range.clone().filter_map(|i| self.id(i)).map(str::len).sum();
        let added: usize = documents.iter().map(|d| d.id.len()).sum();
        let bytes = (self.store.id_bytes() - removed).saturating_add(added);
        if bytes > MAX_ARENA {
            return Err(EditError::TooManyIdBytes { bytes });
        }
        let body = |b: Option<&str>| b.map_or(0, str::len);
        let removed: usize = range.clone().map(|i| body(self.store.body(i))).sum();
        let added: usize = documents.iter().map(|d| body(d.body.as_deref())).sum();
        let bytes = (self.store.body_bytes() - removed).saturating_add(added);
        if bytes > MAX_ARENA {
            return Err(EditError::TooManyBodyBytes { bytes });
        }
        let splice = Splice {
            at: range.start,
            removed: range.len(),
            inserted: documents.len(),
        };
        self.replace(range, documents);
        self.journal.record(splice);
        Ok(())
    }

    /// This moment of the documents, for [`splices_since`](Self::splices_since) later (a
    /// change of topology, members or design keeps it: the documents are the same).
    pub fn documents_mark(&self) -> DocumentsMark {
        self.journal.mark()
    }

    /// The splices ([`splice`](Self::splice), [`apply`](Self::apply)) made to the
    /// documents since `mark`, in order (empty: the documents are the ones of `mark`); with
    /// [`kept_runs`](super::kept_runs) they say which documents are still as they were, and where. `None`
    /// when `mark` is not a moment of these documents: taken from another placement (one
    /// built again, [`Placement::new`] or a builder's), from a clone edited apart, or
    /// before the splices it still remembers (it forgets the older half past
    /// [`MAX_SPLICES`](super::MAX_SPLICES)).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, Splice};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let mut p = Placement::new(&[Document::new("orders/1-A")], &t, &Default::default());
    /// let saved = p.documents_mark();
    /// p.splice(1..1, &[Document::new("orders/2-A")]).unwrap();
    /// assert_eq!(p.splices_since(&saved), Some(&[Splice { at: 1, removed: 0, inserted: 1 }][..]));
    /// let other = Placement::new(&[Document::new("orders/1-A")], &t, &Default::default());
    /// assert_eq!(other.splices_since(&saved), None);
    /// ```
    pub fn splices_since(&self, mark: &DocumentsMark) -> Option<&[Splice]> {
        self.journal.since(mark)
    }

    /// [`Placement::splice`] once the edit is known to fit.
    pub(super) fn replace(&mut self, range: Range<usize>, documents: &[Document]) {
        let topology = self.topology.clone();
        let locator = Locator::new(&topology);
        let (at, remove) = (range.start, range.len());
        let (placed, threshold) = (self.totals.placed, self.obese_threshold);
        // The rows' sort orders made so far lose the documents replaced (while they still
        // have their keys), then gain the new ones below; all of them replaced: made again
        // when read.
        let mut orders = std::mem::take(&mut self.orders);
        let mut held = Default::default();
        if remove == self.len() {
            orders = Default::default();
        } else if remove > 0 {
            held = orders.take_out(self, range.clone(), documents.len());
        }
        if remove == self.len() && remove > 0 {
            // Every document goes: the aggregates start again empty (an empty placement's
            // are, and keep the room a builder reserved).
            self.loads = Loads::new(&topology);
            self.groups = Default::default();
            self.duplicates = Default::default();
            self.totals.placed = 0;
        } else {
            for i in range.clone() {
                self.remove_document(i as u32, &locator);
            }
        }
        let position = |list: &[u32], i: usize| list.partition_point(|&x| (x as usize) < i);
        let invalid: Vec<u32> = self.invalid.iter().map(|d| d.index).collect();
        let (lo, hi) = (position(&invalid, at), position(&invalid, at + remove));
        self.invalid.drain(lo..hi);
        let generated: Vec<u32> = self.generated.iter().map(|g| g.0).collect();
        let (glo, ghi) = (position(&generated, at), position(&generated, at + remove));
        self.generated.drain(glo..ghi);

        let entries: Vec<Entry<'_>> = documents
            .iter()
            .map(|d| Entry {
                id: &d.id,
                bucket: NONE,
                size: d.size,
                collection: self.collections.intern(d.collection.as_deref()),
                body: d.body.as_deref(),
            })
            .collect();
        let old = self.store.collection_of.get(range.clone()).unwrap_or(&[]);
        if !old.iter().copied().eq(entries.iter().map(|e| e.collection)) {
            self.live_collections = OnceLock::new();
        }
        let after = self.len() - at - remove;
        Arc::make_mut(&mut self.store).splice(at, remove, &entries);
        let delta = documents.len() as i64 - remove as i64;
        // No document after the edit (an append, a chunked build): nothing to renumber,
        // and the O(n) pass over the group and duplicate tables is skipped.
        if delta != 0 && after > 0 {
            self.renumber((at + remove) as u32, delta);
            orders.shift((at + remove) as u32, delta);
        }

        let grouped = self.groups.any() || documents.iter().any(|d| d.id.contains('$'));
        let mut group_of = Arc::make_mut(&mut self.store).take_groups(grouped);
        // Every document replaced (a new placement, an import): the aggregates are built
        // at once from the bucket order rather than one document at a time.
        let bulk =
            self.len() == documents.len() && documents.len() > 1024 && self.loads.staged.is_none();
        let mut added = Added {
            bulk,
            ..Added::default()
        };
        for (i, document) in (at as u32..).zip(documents) {
            self.add_document(i, document, &locator, &mut group_of, &mut added);
        }
        Arc::make_mut(&mut self.store).groups = group_of;
        if bulk {
            let index = histogram::BucketIndex::new(&self.store.buckets);
            let store = &*self.store;
            let size_of = |i: u32| store.size(i as usize);
            self.loads = Loads::of_index(&topology, &locator, &index, &size_of);
        }
        self.invalid.splice(lo..lo, added.invalid);
        self.generated.splice(glo..glo, added.generated);
        self.summarise_loads(&topology);
        self.groups.settle();
        if self.totals.placed != placed || self.obese_threshold != threshold {
            self.groups.forget_view();
        }
        if !documents.is_empty() {
            orders.put_in(self, at..at + documents.len(), held);
        }
        self.orders = orders;
        self.obese_buckets = OnceLock::new();
        self.index = OnceLock::new();
    }

    /// Moves the document indices `>= from` by `delta` in every table that holds indices.
    fn renumber(&mut self, from: u32, delta: i64) {
        self.duplicates.shift(from, delta);
        self.groups.shift(from, delta);
        for d in &mut self.invalid {
            super::groups::shift(&mut d.index, from, delta);
        }
        for g in &mut self.generated {
            super::groups::shift(&mut g.0, from, delta);
        }
    }

    /// Takes document `i` out of the aggregates (its row of the tables stays).
    fn remove_document(&mut self, i: u32, locator: &Locator<'_>) {
        let Some(bucket) = self.store.bucket(i as usize) else {
            return;
        };
        let size = self.store.size(i as usize);
        let version = self.topology.server_version();
        let lower = lowered(self.store.id_of(i), version);
        let store = &*self.store;
        let lower_of = |j: u32| lowered(store.id_of(j), version);
        self.duplicates
            .remove(hash_of_key(lower.as_bytes()), i, &lower_of);
        self.loads.change(locator, bucket, size, Sign::Remove);
        self.totals.placed -= 1;
        let store = Arc::make_mut(&mut self.store);
        let g = store.groups.get(i as usize).copied().unwrap_or(NONE);
        self.groups.remove(g, i, bucket, size, &mut store.groups);
        if let Some(b) = store.buckets.get_mut(i as usize) {
            *b = NONE;
        }
    }

    /// Places document `i` (its row of the tables is written) and adds it to the
    /// aggregates.
    fn add_document(
        &mut self,
        i: u32,
        document: &Document,
        locator: &Locator<'_>,
        group_of: &mut [u32],
        added: &mut Added,
    ) {
        let mut lower = std::mem::take(&mut added.lower);
        lower.clear();
        push_lower_id(&mut lower, &document.id, self.topology.server_version());
        self.add_lowered(i, document, &lower, locator, group_of, added);
        added.lower = lower;
    }

    /// [`add_document`](Self::add_document) once the ID is lowered (`lower`).
    fn add_lowered(
        &mut self,
        i: u32,
        document: &Document,
        lower: &str,
        locator: &Locator<'_>,
        group_of: &mut [u32],
        added: &mut Added,
    ) {
        let version = self.topology.server_version();
        let Some(found) = self.locate(i, document, lower, locator, added) else {
            return;
        };
        if let Some(b) = Arc::make_mut(&mut self.store).buckets.get_mut(i as usize) {
            *b = found.bucket;
        }
        if !added.bulk {
            self.loads
                .change(locator, found.bucket, document.size, Sign::Add);
        }
        self.totals.placed += 1;
        let store = &*self.store;
        let lower_of = |j: u32| lowered(store.id_of(j), version);
        self.duplicates.add(found.fingerprint, i, &lower_of);
        let duplicates = &self.duplicates;
        let candidates = |hash: u64| {
            duplicates
                .with_hash(hash)
                .into_iter()
                .filter(|&j| j != i)
                .map(|j| Candidate {
                    index: j,
                    lower: lower_of(j),
                    bucket: store.bucket(j as usize).unwrap_or(0),
                    size: store.size(j as usize),
                })
                .collect()
        };
        let member = Member {
            index: i,
            hash: found.hash,
            text: lower.get(found.anchor..).unwrap_or(""),
            anchored: found.anchored,
            bucket: found.bucket,
            size: document.size,
        };
        let member = if member.anchored {
            member
        } else {
            Member {
                text: lower,
                ..member
            }
        };
        self.groups.add(member, group_of, &candidates);
    }

    /// Where document `i` goes: `None` (and an entry in `added.invalid`) when it is not
    /// placed.
    fn locate(
        &self,
        i: u32,
        document: &Document,
        lower: &str,
        locator: &Locator<'_>,
        added: &mut Added,
    ) -> Option<Found> {
        let mut refuse = |reason: Unplaced| {
            added.invalid.push(InvalidDocument {
                index: i,
                message: reason.to_string(),
                reason,
            });
        };
        if let Err(e) = check_id(&document.id) {
            refuse(Unplaced::InvalidId(e));
            return None;
        }
        let anchor = anchor_start(lower.as_bytes());
        let tail = lower.as_bytes().get(anchor..).unwrap_or(&[]);
        let hash = hash_of_key(tail);
        // A hash of the whole lowered ID, to find duplicates and anchor documents.
        let fingerprint = if anchor == 0 {
            hash
        } else {
            hash_of_key(lower.as_bytes())
        };
        let mut bucket = bucket_of_hash(hash) + locator.offset_of(lower);
        let mut generated = false;
        if let Some(design) = &self.options.design {
            match design::step(design, &self.topology, document, bucket) {
                Ok(design::DesignStep::Keep) => {}
                Ok(design::DesignStep::Bucket {
                    bucket: b,
                    generated: g,
                }) => {
                    bucket = b;
                    if let Some(g) = g {
                        // A generated ID is not anchored: it is not grouped.
                        generated = true;
                        added.generated.push((i, g));
                    }
                }
                Err(e) => {
                    refuse(Unplaced::Content(e));
                    return None;
                }
            }
        }
        if locator.shard_position(bucket).is_none() {
            refuse(Unplaced::NoShard { bucket });
            return None;
        }
        Some(Found {
            bucket,
            hash,
            fingerprint,
            anchor,
            anchored: !generated && anchor != 0,
        })
    }

    /// Totals, shard summaries, blocks, balances and the matrix from the per-shard and
    /// per-block aggregates: O(shards + blocks + nodes × shards).
    pub(super) fn summarise_loads(&mut self, topology: &Topology) {
        self.shards = shards::summaries(topology, &self.loads.shards);
        self.blocks = shards::blocks(topology, &self.loads);
        self.document_balance = Balance::of(self.shards.iter().map(|s| s.documents));
        self.byte_balance = Balance::of(self.shards.iter().map(|s| s.bytes));
        self.matrix = NodeMatrix::new(&self.shards);
        self.totals = Totals {
            documents: self.len() as u64,
            placed: self.totals.placed,
            invalid: self.invalid.len() as u64,
            bytes: self.shards.iter().fold(0, |a, s| a.saturating_add(s.bytes)),
            without_size: self.shards.iter().map(|s| s.without_size).sum(),
            buckets_used: self.loads.used_buckets() as u64,
            duplicates: self.duplicates.repeats(),
        };
        self.obese_threshold = self.options.obese_threshold_for(self.totals.placed);
    }

    /// Drops the views a change of topology invalidates: the obese buckets, the rows'
    /// order by shard and, when buckets changed, the bucket index and the order by bucket.
    pub(super) fn forget_orders(&mut self, buckets_changed: bool) {
        self.obese_buckets = OnceLock::new();
        if buckets_changed {
            self.index = OnceLock::new();
        }
        self.orders.forget_placement(buckets_changed);
    }
}

/// What [`Placement::locate`] found for a placed document.
struct Found {
    bucket: u32,
    hash: u64,
    fingerprint: u64,
    /// Byte offset of the anchor in the lowered ID.
    anchor: usize,
    anchored: bool,
}

/// The entries of the invalid and generated lists of the documents an edit inserts.
#[derive(Default)]
struct Added {
    /// Whether the aggregates are built at the end ([`Loads::of_index`]).
    bulk: bool,
    invalid: Vec<InvalidDocument>,
    generated: Vec<(u32, String)>,
    /// The lowered ID of the document being added: one buffer for all of them, not an
    /// allocation each.
    lower: String,
}
