//! Documents with sizes and collections, placed by a topology: what the studio shows.
//!
//! [`Placement::new`] places every [`Document`] once (lower-case, anchor, XXH64, prefix,
//! bucket range) and keeps, per document, a few compact numbers; everything the studio's
//! views need is derived from them:
//!
//! | view | API |
//! |---|---|
//! | bucket map | [`Placement::histogram`], [`Placement::documents_in`], [`Placement::documents_in_bucket`], [`Placement::blocks`] |
//! | shards | [`Placement::shards`], [`Placement::document_balance`], [`Placement::byte_balance`] |
//! | nodes × shards | [`Placement::matrix`] |
//! | anchored groups | [`Placement::groups`], [`Placement::obese_buckets`] |
//! | documents | [`Placement::rows`] then [`RowView::slice`] and [`Placement::row`] |
//! | explain | [`Placement::explain`] |
//! | warnings | [`Placement::invalid`], [`Placement::duplicates`] |
//! | configuration | [`assign_members`], [`Placement::set_members`], [`Placement::set_topology`] |
//! | bucket statistics | [`Placement::from_statistics`], [`Placement::statistics`]: a cluster's own figures per bucket or per range, no IDs |
//!
//! The placement owns copies of the IDs (two flat strings, original and lower-cased), so it
//! borrows nothing and can live in the studio's state next to the documents.
//!
//! # Examples
//!
//! ```
//! use ravenshard_model::workspace::{Document, Placement, PlacementOptions};
//! use ravenshard::Topology;
//!
//! let topology = Topology::with_shards(3).unwrap();
//! let documents = [
//!     Document::new("customers/1-A"),
//!     Document::new("orders/2-A$customers/1-A"),
//!     Document::new(""),
//! ];
//! let placement = Placement::new(&documents, &topology, &PlacementOptions::default());
//! assert_eq!(placement.totals().placed, 2);
//! assert_eq!(placement.place(0).unwrap().bucket, 982173);
//! assert_eq!(placement.shards()[2].documents, 2);
//! assert_eq!(placement.groups()[0].anchor, "customers/1-a");
//! assert_eq!(placement.invalid()[0].index, 2);
//! ```

mod design;
mod groups;
mod histogram;
mod matrix;
mod members;
mod retopology;
mod rows;
mod shards;
mod statistics;

pub use groups::{AnchoredGroup, DuplicateId, ObeseBucket};
pub use histogram::{Bin, MAX_BINS};
pub use matrix::{NodeMatrix, NodeRow};
pub use members::{assign_members, MemberError};
pub use retopology::TopologyChangeError;
pub use rows::{Row, RowQuery, RowView, SortKey};
pub use shards::{Balance, BalanceVerdict, Block, ShardSummary};

use ravenshard::{anchor_start, bucket_of_hash, check_id, explain, hash_of_key, hashed_chars};
use ravenshard::{push_lower_id, Explanation, IdError, Topology};
use ravenshard::{BucketRange, NUMBER_OF_BUCKETS};
use ravenshard_design::reshard::BucketLoad;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

pub use ravenshard::document::{one_line, Document, DocumentLine};

/// Knobs of a [`Placement`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlacementOptions {
    /// A bucket or anchored group with **more** documents than this is "obese". `None`: 1%
    /// of the placed documents (rounded down) or 10,000, whichever is smaller — the same
    /// default as [`ReportOptions::obese_threshold`](ravenshard::ReportOptions::obese_threshold).
    pub obese_threshold: Option<u64>,
    /// The draft chapter's design (a configuration's `ByContent`): `$@` IDs are pinned,
    /// IDs ending in `$` get generated IDs, and writes an immutable rule rejects are not
    /// placed. `None`: RavenDB 7.x's rules only.
    pub design: Option<ravenshard_design::content::ContentDesign>,
}

impl PlacementOptions {
    /// The threshold in force for `placed` documents.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::PlacementOptions;
    ///
    /// assert_eq!(PlacementOptions::default().obese_threshold_for(100_000), 1_000);
    /// assert_eq!(PlacementOptions::default().obese_threshold_for(5_000_000), 10_000);
    /// let custom = PlacementOptions { obese_threshold: Some(7), ..Default::default() };
    /// assert_eq!(custom.obese_threshold_for(100_000), 7);
    /// ```
    pub fn obese_threshold_for(&self, placed: u64) -> u64 {
        self.obese_threshold
            .unwrap_or_else(|| (placed / 100).min(10_000))
    }
}

/// Why a document was not placed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unplaced {
    /// RavenDB would reject the ID.
    InvalidId(IdError),
    /// No bucket range owns the document's bucket. A validated [`Topology`] owns every
    /// bucket an ID can reach, so this does not happen; it is reported rather than panicking.
    NoShard {
        /// The bucket nobody owns.
        bucket: u32,
    },
    /// The chapter's design refuses the document (a rejected write, a bad `$@`, an ID
    /// ending in `$` without a rule...).
    Content(ravenshard_design::content::ContentError),
}

impl fmt::Display for Unplaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unplaced::InvalidId(e) => e.fmt(f),
            Unplaced::NoShard { bucket } => write!(
                f,
                "no bucket range owns bucket {bucket}, so the document has no shard. Add a \
                 range that starts at the beginning of its 2^20 block."
            ),
            Unplaced::Content(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Unplaced {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Unplaced::InvalidId(e) => Some(e),
            Unplaced::Content(e) => Some(e),
            Unplaced::NoShard { .. } => None,
        }
    }
}

/// A document that was not placed: its index in the input and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvalidDocument {
    /// 0-based index of the document in the input.
    pub index: u32,
    /// Why it was not placed.
    #[serde(skip)]
    pub reason: Unplaced,
    /// The reason as text (the core's message).
    pub message: String,
}

/// Where one placed document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Place {
    /// The final bucket (prefix offset included).
    pub bucket: u32,
    /// The shard that owns the bucket.
    pub shard: u32,
    /// Index in [`Placement::groups`] of the anchored group the document belongs to: as an
    /// anchored member, or as the document whose ID is the anchor.
    pub group: Option<u32>,
    /// Character range `[start, end)` of the hashed part (after the last `$`) in the ID, as
    /// [`Explanation::hashed_chars`].
    pub hashed_chars: [u32; 2],
}

/// Counts over all documents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Documents given (placed + invalid).
    pub documents: u64,
    /// Documents placed on a shard.
    pub placed: u64,
    /// Documents not placed ([`Placement::invalid`]).
    pub invalid: u64,
    /// Sum of the known sizes of the placed documents, in bytes.
    pub bytes: u64,
    /// Placed documents without a size.
    pub without_size: u64,
    /// Distinct buckets that hold placed documents.
    pub buckets_used: u64,
    /// Placed documents whose ID repeats an earlier one, ignoring case
    /// ([`Placement::duplicates`]).
    pub duplicates: u64,
}

/// No shard / group / collection, in the compact per-document arrays.
const NONE: u32 = u32::MAX;

/// The most documents a placement takes: indices are `u32`, one value being reserved.
pub const MAX_DOCUMENTS: usize = (u32::MAX - 1) as usize;

/// Compact per-document data.
#[derive(Debug, Clone, Copy)]
struct Slot {
    bucket: u32,
    /// Position of the shard in [`Placement::shards`], or [`NONE`] when not placed.
    shard: u32,
    /// Index in the final group list, or [`NONE`].
    group: u32,
    hashed_start: u32,
    chars: u32,
}

impl Slot {
    fn placed(&self) -> bool {
        self.shard != NONE
    }
}

/// Every document placed by a topology, with everything the studio's views show.
///
/// Built once per change of documents, in O(n log n); a change of topology is followed in
/// place by [`set_topology`](Self::set_topology), which hashes no ID again (see the crate's
/// `benches/workspace.rs` for the measured times); the view queries are then cheap.
#[derive(Debug, Clone)]
pub struct Placement {
    topology: Topology,
    /// All IDs back to back; document `i` is `ids[id_offsets[i]..id_offsets[i + 1]]`.
    /// The per-document tables a change of topology does not touch are shared (`Arc`), so
    /// a clone to change the topology of copies only the slots and the bucket index.
    ids: Arc<str>,
    id_offsets: Arc<[usize]>,
    /// All lower-cased IDs back to back, the same way.
    lower: Arc<str>,
    lower_offsets: Arc<[usize]>,
    slots: Vec<Slot>,
    /// `(index, final ID)` of the documents the design generated an ID for.
    generated: Vec<(u32, String)>,
    sizes: Arc<[Option<u64>]>,
    /// Distinct collection names, in order of first appearance.
    collections: Vec<String>,
    /// Index in `collections` per document, or [`NONE`].
    collection_of: Arc<[u32]>,
    invalid: Vec<InvalidDocument>,
    totals: Totals,
    shards: Vec<ShardSummary>,
    document_balance: Balance,
    byte_balance: Balance,
    matrix: NodeMatrix,
    blocks: Vec<Block>,
    groups: Vec<AnchoredGroup>,
    obese_threshold: u64,
    obese_buckets: Vec<ObeseBucket>,
    duplicates: Vec<DuplicateId>,
    index: histogram::BucketIndex,
    orders: rows::SortCache,
    /// XXH64 of the hashed part (after the last `$`) of each lowered ID (0 when not
    /// hashed): kept so a change of topology never hashes an ID again.
    hashes: Arc<[u64]>,
    /// Whether the chapter's design placed the documents ([`PlacementOptions::design`]).
    with_design: bool,
    /// The bucket statistics the placement was made from instead of documents.
    statistics: Option<statistics::Statistics>,
}

impl Placement {
    /// Places `documents` (at most [`MAX_DOCUMENTS`]; any beyond are ignored) by
    /// `topology`.
    ///
    /// Invalid IDs are listed in [`invalid`](Self::invalid) and not placed. Two documents
    /// whose IDs are equal ignoring case are both placed (and counted) and listed in
    /// [`duplicates`](Self::duplicates): RavenDB would hold one document.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, PlacementOptions};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = [Document::new("users/4"), Document::new("Users/4")];
    /// let p = Placement::new(&docs, &t, &PlacementOptions::default());
    /// assert_eq!(p.totals().placed, 2);
    /// assert_eq!(p.duplicates()[0].indices, [0, 1]);
    /// ```
    pub fn new(
        documents: &[Document],
        topology: &Topology,
        options: &PlacementOptions,
    ) -> Placement {
        let documents = &documents[..documents.len().min(MAX_DOCUMENTS)];
        let n = documents.len();
        let id_bytes: usize = documents.iter().map(|d| d.id.len()).sum();
        let mut ids = String::with_capacity(id_bytes);
        let mut id_offsets = Vec::with_capacity(n + 1);
        let mut lower = String::with_capacity(id_bytes);
        let mut lower_offsets = Vec::with_capacity(n + 1);
        let mut slots = Vec::with_capacity(n);
        let mut hashes = Vec::with_capacity(n);
        let mut fingerprints = Vec::with_capacity(n);
        let mut sizes = Vec::with_capacity(n);
        let mut collections = Collections::default();
        let mut collection_of = Vec::with_capacity(n);
        let mut invalid = Vec::new();
        let mut generated = Vec::new();
        let locator = Locator::new(topology);
        id_offsets.push(0);
        lower_offsets.push(0);

        for (i, document) in (0u32..).zip(documents) {
            let id = document.id.as_str();
            ids.push_str(id);
            id_offsets.push(ids.len());
            let start = lower.len();
            push_lower_id(&mut lower, id, topology.server_version());
            lower_offsets.push(lower.len());
            sizes.push(document.size);
            collection_of.push(collections.intern(document.collection.as_deref()));
            let mut slot = Slot {
                bucket: 0,
                shard: NONE,
                group: NONE,
                hashed_start: 0,
                chars: 0,
            };
            let (mut hash, mut fingerprint) = (0, 0);
            match check_id(id) {
                Err(e) => invalid.push(InvalidDocument {
                    index: i,
                    message: e.to_string(),
                    reason: Unplaced::InvalidId(e),
                }),
                Ok(()) => {
                    let l = &lower[start..];
                    let anchor = anchor_start(l.as_bytes());
                    // The same computation as `hash_of_lower`, keeping the anchor's start.
                    hash = hash_of_key(&l.as_bytes()[anchor..]);
                    // A hash of the whole lowered ID, to find duplicates; taken here, while
                    // the ID is in cache.
                    fingerprint = if anchor == 0 {
                        hash
                    } else {
                        hash_of_key(l.as_bytes())
                    };
                    let mut bucket = bucket_of_hash(hash) + locator.offset_of(l);
                    let mut unanchored = false;
                    if let Some(design) = &options.design {
                        match design::step(design, topology, document, bucket) {
                            Ok(design::DesignStep::Keep) => {}
                            Ok(design::DesignStep::Bucket {
                                bucket: b,
                                generated: g,
                            }) => {
                                bucket = b;
                                if let Some(g) = g {
                                    // A generated ID is not anchored: it is not grouped.
                                    unanchored = true;
                                    generated.push((i, g));
                                }
                            }
                            Err(e) => {
                                invalid.push(InvalidDocument {
                                    index: i,
                                    message: e.to_string(),
                                    reason: Unplaced::Content(e),
                                });
                                slots.push(slot);
                                hashes.push(0);
                                fingerprints.push(fingerprint);
                                continue;
                            }
                        }
                    }
                    slot.bucket = bucket;
                    // Counted in the ID as given; IDs are short, so the counts fit in u32.
                    let [hashed_start, chars] = hashed_chars(id);
                    slot.hashed_start = if unanchored { 0 } else { hashed_start as u32 };
                    slot.chars = chars as u32;
                    match locator.shard_position(bucket) {
                        Some(position) => slot.shard = position,
                        None => {
                            let reason = Unplaced::NoShard { bucket };
                            invalid.push(InvalidDocument {
                                index: i,
                                message: reason.to_string(),
                                reason,
                            });
                        }
                    }
                }
            }
            slots.push(slot);
            hashes.push(hash);
            fingerprints.push(fingerprint);
        }

        let placed = slots.iter().filter(|s| s.placed()).count() as u64;
        let obese_threshold = options.obese_threshold_for(placed);
        let text = Texts {
            lower: &lower,
            offsets: &lower_offsets,
        };
        let index = histogram::BucketIndex::new(&slots, &sizes);
        let duplicates = groups::find_duplicates(&index, &fingerprints, &text);
        let shard_numbers: Vec<u32> = topology.shards().map(|s| s.number).collect();
        let groups = groups::find_groups(
            &mut slots,
            &groups::GroupInput {
                hashes: &hashes,
                sizes: &sizes,
                texts: text,
                shard_numbers: &shard_numbers,
                obese_threshold,
                placed,
            },
        );
        let obese_buckets = groups::obese_buckets(&index, &locator, obese_threshold);
        let shards = shards::summaries(topology, &index);
        let blocks = shards::blocks(topology, &index);
        let totals = Totals {
            documents: n as u64,
            placed,
            invalid: invalid.len() as u64,
            bytes: shards.iter().fold(0, |a, s| a.saturating_add(s.bytes)),
            without_size: shards.iter().map(|s| s.without_size).sum(),
            buckets_used: index.buckets_used(),
            duplicates: duplicates.iter().map(|d| d.indices.len() as u64 - 1).sum(),
        };
        Placement {
            document_balance: Balance::of(shards.iter().map(|s| s.documents)),
            byte_balance: Balance::of(shards.iter().map(|s| s.bytes)),
            matrix: NodeMatrix::new(&shards),
            topology: topology.clone(),
            ids: ids.into(),
            id_offsets: id_offsets.into(),
            lower: lower.into(),
            lower_offsets: lower_offsets.into(),
            slots,
            sizes: sizes.into(),
            collections: collections.names,
            collection_of: collection_of.into(),
            invalid,
            totals,
            shards,
            blocks,
            groups,
            obese_threshold,
            obese_buckets,
            duplicates,
            index,
            generated,
            orders: rows::SortCache::default(),
            hashes: hashes.into(),
            with_design: options.design.is_some(),
            statistics: None,
        }
    }

    /// The IDs the chapter's design generated (for IDs ending in `$`): `(document index,
    /// final ID)`, in input order.
    pub fn generated(&self) -> &[(u32, String)] {
        &self.generated
    }

    /// The generated ID of a document, if the design generated one.
    pub fn generated_id(&self, index: usize) -> Option<&str> {
        let i = self
            .generated
            .binary_search_by_key(&(index as u32), |(i, _)| *i)
            .ok()?;
        Some(&self.generated[i].1)
    }

    /// The topology the documents were placed by.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// How many documents were given (placed or not).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no documents were given.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Counts over all documents.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// The ID of document `index` as given (`None` past the end).
    pub fn id(&self, index: usize) -> Option<&str> {
        slice(&self.ids, &self.id_offsets, index)
    }

    /// The lowered ID of document `index` (lower-cased, control characters escaped), as
    /// RavenDB hashes it.
    pub fn lower_id(&self, index: usize) -> Option<&str> {
        slice(&self.lower, &self.lower_offsets, index)
    }

    /// The size of document `index`, when known.
    pub fn size(&self, index: usize) -> Option<u64> {
        self.sizes.get(index).copied().flatten()
    }

    /// The collection of document `index`, when known.
    pub fn collection(&self, index: usize) -> Option<&str> {
        let c = *self.collection_of.get(index)?;
        self.collections.get(c as usize).map(String::as_str)
    }

    /// The distinct collections, in order of first appearance.
    pub fn collections(&self) -> &[String] {
        &self.collections
    }

    /// Where document `index` is: `None` if it was not placed ([`error`](Self::error)
    /// says why) or `index` is past the end.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, PlacementOptions};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let p = Placement::new(&[Document::new("Orders/2-A$Customers/1-A")], &t, &Default::default());
    /// let place = p.place(0).unwrap();
    /// assert_eq!((place.bucket, place.shard, place.group), (982173, 2, Some(0)));
    /// assert_eq!(place.hashed_chars, [11, 24]);
    /// ```
    pub fn place(&self, index: usize) -> Option<Place> {
        let slot = self.slots.get(index).filter(|s| s.placed())?;
        Some(Place {
            bucket: slot.bucket,
            shard: self.shards.get(slot.shard as usize)?.shard,
            group: (slot.group != NONE).then_some(slot.group),
            hashed_chars: [slot.hashed_start, slot.chars],
        })
    }

    /// Why document `index` was not placed, if it was not.
    pub fn error(&self, index: usize) -> Option<&InvalidDocument> {
        let i = u32::try_from(index).ok()?;
        let at = self.invalid.binary_search_by_key(&i, |d| d.index).ok()?;
        self.invalid.get(at)
    }

    /// The documents that were not placed, in input order.
    pub fn invalid(&self) -> &[InvalidDocument] {
        &self.invalid
    }

    /// IDs given more than once, ignoring case, in order of first appearance.
    pub fn duplicates(&self) -> &[DuplicateId] {
        &self.duplicates
    }

    /// One summary per shard of the topology, in ascending shard order.
    pub fn shards(&self) -> &[ShardSummary] {
        &self.shards
    }

    /// Skew (largest over mean) of documents per shard, with a verdict.
    pub fn document_balance(&self) -> Balance {
        self.document_balance
    }

    /// Skew of bytes per shard (known sizes only), with a verdict.
    pub fn byte_balance(&self) -> Balance {
        self.byte_balance
    }

    /// Sets the member nodes of a shard without placing the documents again (members do
    /// not move documents): updates the topology, the shard's summary and the matrix.
    /// Returns `false` if there is no such shard.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(2).unwrap();
    /// let mut p = Placement::new(&[Document::new("orders/1-A")], &t, &Default::default());
    /// assert_eq!(p.matrix().unheld, [0, 1]);
    /// assert!(p.set_members(0, vec!["A".into()]));
    /// assert_eq!(p.matrix().rows[0].total_documents, 1);
    /// assert_eq!(p.shards()[0].nodes, ["A"]);
    /// assert!(!p.set_members(7, vec![]));
    /// ```
    pub fn set_members(&mut self, shard: u32, members: Vec<String>) -> bool {
        let Some(position) = self.shard_position(shard) else {
            return false;
        };
        let Some(summary) = self.shards.get_mut(position as usize) else {
            return false;
        };
        summary.nodes = members.clone();
        self.topology.set_members(shard, members);
        self.matrix = NodeMatrix::new(&self.shards);
        true
    }

    /// Nodes × shards: what each node holds.
    pub fn matrix(&self) -> &NodeMatrix {
        &self.matrix
    }

    /// The 2^20-bucket blocks (the default one, then each prefix's), in bucket order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// One past the last bucket of the topology ([`Topology::bucket_space`]).
    pub fn bucket_space(&self) -> u64 {
        self.topology.bucket_space()
    }

    /// Every anchored group, the largest first (ties by anchor).
    pub fn groups(&self) -> &[AnchoredGroup] {
        &self.groups
    }

    /// The obese threshold in force ([`PlacementOptions::obese_threshold`]).
    pub fn obese_threshold(&self) -> u64 {
        self.obese_threshold
    }

    /// Buckets holding more documents than the obese threshold, the fullest first.
    pub fn obese_buckets(&self) -> &[ObeseBucket] {
        &self.obese_buckets
    }

    /// Indices of the placed documents in buckets `range`, in bucket order (then input
    /// order). The slice is borrowed from the placement's index: no allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// assert_eq!(p.documents_in(0..200_000), [0]);
    /// assert_eq!(p.documents_in(0..1 << 20), [0, 1]);
    /// assert_eq!(p.documents_in_bucket(982173), [1]);
    /// ```
    pub fn documents_in(&self, range: std::ops::Range<u32>) -> &[u32] {
        self.index
            .documents_in(u64::from(range.start), u64::from(range.end))
    }

    /// The load of the placed documents, in the buckets this placement gave them, for
    /// resharding plans and balances.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::{Document, Topology};
    /// use ravenshard_model::workspace::{Placement, PlacementOptions};
    ///
    /// let docs = vec![Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &PlacementOptions::default());
    /// assert_eq!(p.bucket_load().total().docs, 2);
    /// ```
    pub fn bucket_load(&self) -> BucketLoad {
        if let Some(s) = &self.statistics {
            return BucketLoad::clone(&s.load);
        }
        let in_order = self.documents_in(0..u32::MAX);
        let sized = |&i: &u32| {
            let i = i as usize;
            let bucket = self.place(i).map_or(0, |p| p.bucket);
            (bucket, self.size(i).unwrap_or(0))
        };
        let without_size = in_order
            .iter()
            .filter(|&&i| self.size(i as usize).is_none())
            .count() as u64;
        BucketLoad::from_sorted(in_order.iter().map(sized), without_size)
    }

    /// Indices of the placed documents in one bucket, in input order.
    pub fn documents_in_bucket(&self, bucket: u32) -> &[u32] {
        self.index
            .documents_in(u64::from(bucket), u64::from(bucket) + 1)
    }

    /// The bucket map at any zoom: `bins` bins over buckets `[start, end)` (fewer when the
    /// range has fewer buckets; at most [`MAX_BINS`]), each with its documents and bytes
    /// and the shard that owns its first bucket. O(bins × log n).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// let bins = p.histogram(0, 1 << 20, 3);
    /// assert_eq!(bins.iter().map(|b| b.documents).collect::<Vec<_>>(), [1, 0, 1]);
    /// assert_eq!((bins[2].start, bins[2].end, bins[2].shard), (699050, 1 << 20, Some(2)));
    /// assert_eq!(p.histogram(982173, 982174, 10)[0].documents, 1);
    /// ```
    pub fn histogram(&self, start: u32, end: u32, bins: usize) -> Vec<Bin> {
        histogram::histogram(&self.index, &self.topology, start, end, bins)
    }

    /// The documents view: the indices of the documents that match `query`, in its order.
    /// The first query with a given sort key sorts once (O(n log n)) and caches the order;
    /// later queries filter it in O(n).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, RowQuery, SortKey};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = [Document::new("orders/1-A"), Document::new("Customers/1-A"), Document::new("customers/2-B")];
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// let query = RowQuery { text: "CUSTOMERS".into(), sort: SortKey::Id, ..Default::default() };
    /// let view = p.rows(&query);
    /// assert_eq!(view.slice(0, 10), [1, 2]);
    /// assert_eq!(p.row(1).unwrap().shard, Some(2));
    /// ```
    pub fn rows(&self, query: &RowQuery) -> RowView {
        rows::rows(self, query)
    }

    /// Everything the documents view shows for document `index`.
    pub fn row(&self, index: usize) -> Option<Row<'_>> {
        rows::row(self, index)
    }

    /// Every step from the ID of document `index` to its shard ([`explain`]).
    pub fn explain(&self, index: usize) -> Option<Result<Explanation, IdError>> {
        Some(explain(self.id(index)?, Some(&self.topology)))
    }

    fn texts(&self) -> Texts<'_> {
        Texts {
            lower: &self.lower,
            offsets: &self.lower_offsets,
        }
    }

    fn shard_position(&self, shard: u32) -> Option<u32> {
        let at = self.shards.binary_search_by_key(&shard, |s| s.shard).ok()?;
        u32::try_from(at).ok()
    }
}

fn slice<'a>(text: &'a str, offsets: &[usize], index: usize) -> Option<&'a str> {
    text.get(*offsets.get(index)?..*offsets.get(index + 1)?)
}

/// The lower-cased IDs, back to back.
#[derive(Clone, Copy)]
struct Texts<'a> {
    lower: &'a str,
    offsets: &'a [usize],
}

impl<'a> Texts<'a> {
    fn get(&self, index: u32) -> &'a str {
        slice(self.lower, self.offsets, index as usize).unwrap_or("")
    }
}

/// Collection names interned to small integers.
#[derive(Default)]
struct Collections {
    names: Vec<String>,
    lookup: HashMap<String, u32>,
    last: Option<u32>,
}

impl Collections {
    fn intern(&mut self, name: Option<&str>) -> u32 {
        let Some(name) = name else { return NONE };
        // Documents usually come grouped by collection: skip the hash for a repeat.
        if let Some(last) = self.last {
            if self.names.get(last as usize).is_some_and(|n| n == name) {
                return last;
            }
        }
        // A handful of collections is the norm: comparing a few short names is cheaper than
        // hashing one.
        let found = if self.names.len() <= 16 {
            self.names.iter().position(|n| n == name).map(|i| i as u32)
        } else {
            self.lookup.get(name).copied()
        };
        let index = match found {
            Some(i) => i,
            None => {
                let i = self.names.len() as u32;
                self.names.push(name.to_string());
                if self.names.len() > 16 && self.lookup.is_empty() {
                    for (k, n) in (0u32..).zip(&self.names) {
                        self.lookup.insert(n.clone(), k);
                    }
                } else if self.names.len() > 16 {
                    self.lookup.insert(name.to_string(), i);
                }
                i
            }
        };
        self.last = Some(index);
        index
    }
}

/// Bucket → shard position and lower-cased ID → prefix offset, for one topology.
struct Locator<'t> {
    topology: &'t Topology,
    ranges: &'t [BucketRange],
    /// Position in the topology's shard list of each range's shard.
    range_shard: Vec<u32>,
}

impl<'t> Locator<'t> {
    fn new(topology: &'t Topology) -> Self {
        let numbers: Vec<u32> = topology.shards().map(|s| s.number).collect();
        let range_shard = topology
            .ranges()
            .iter()
            .map(|r| numbers.binary_search(&r.shard).map_or(NONE, |p| p as u32))
            .collect();
        Locator {
            topology,
            ranges: topology.ranges(),
            range_shard,
        }
    }

    fn offset_of(&self, lower: &str) -> u32 {
        if self.topology.prefixes().is_empty() {
            return 0;
        }
        self.topology.prefix_block_start(lower)
    }

    /// Index in the topology's ranges of the range that owns `bucket`.
    fn range_index(&self, bucket: u32) -> Option<usize> {
        let at = self
            .ranges
            .partition_point(|r| r.start <= bucket)
            .checked_sub(1)?;
        let range = self.ranges.get(at)?;
        (range.start / NUMBER_OF_BUCKETS == bucket / NUMBER_OF_BUCKETS).then_some(at)
    }

    fn shard_position(&self, bucket: u32) -> Option<u32> {
        let p = *self.range_shard.get(self.range_index(bucket)?)?;
        (p != NONE).then_some(p)
    }

    fn shard_of(&self, bucket: u32) -> Option<u32> {
        self.ranges.get(self.range_index(bucket)?).map(|r| r.shard)
    }
}
