//! Documents with sizes and collections, placed by a topology: what the studio shows.
//!
//! [`Placement::new`] places every [`Document`] once (lower-case, anchor, XXH64, prefix,
//! bucket range) and keeps, per document, a few compact numbers and, per used bucket, per
//! shard, per block and per anchor, aggregates kept up to date as documents change;
//! everything the studio's views need is derived from them:
//!
//! | view | API |
//! |---|---|
//! | bucket map | [`Placement::histogram`], [`Placement::documents_in`], [`Placement::documents_in_bucket`], [`Placement::blocks`] |
//! | every view's figures at once | [`Placement::summary`] ([`Summary`]: totals, shards, nodes × shards, blocks, the groups' count; plain data) |
//! | shards | [`Placement::shards`], [`Placement::document_balance`], [`Placement::byte_balance`] |
//! | nodes × shards | [`Placement::matrix`] |
//! | anchored groups | [`Placement::groups`], [`Placement::obese_buckets`] |
//! | documents | [`Placement::rows`] then [`RowView::slice`] and [`Placement::row`] |
//! | explain | [`Placement::explain`] |
//! | warnings | [`Placement::invalid`], [`Placement::duplicates`] |
//! | configuration | [`assign_members`], [`Placement::set_members`], [`Placement::set_topology`] |
//! | bucket statistics | [`Placement::from_statistics`], [`Placement::statistics`]: a cluster's own figures per bucket or per range, no IDs |
//! | building in chunks | [`PlacementBuilder`] (a page builds millions of documents between paints) |
//! | edits | [`Placement::splice`], [`Placement::apply`] ([`Edit`]), [`Placement::heap_bytes`] |
//! | the documents themselves | [`Placement::document`], [`Placement::documents`] (a range), [`Placement::body`] |
//! | another configuration | [`Placement::reconfigure`], [`Placement::placed_again`] (from its own tables) |
//!
//! The placement owns the documents (the IDs in one arena string, sizes, interned
//! collections, and the bodies of the documents that have one in a side table), so it
//! borrows nothing and is the one store of the documents in the studio: it gives them back
//! a range at a time and places them again from its own tables. It is kept up to date in place: an
//! edit of documents ([`Placement::splice`], [`Placement::apply`]) costs what changed, and a
//! change of topology ([`Placement::set_topology`]) hashes no ID again.
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

mod arena;
mod builder;
mod design;
mod edit;
mod groups;
mod histogram;
mod journal;
mod loads;
mod matrix;
mod members;
mod orders;
mod ranking;
mod ranking_job;
mod retopology;
mod rows;
mod rows_edit;
mod rows_job;
mod shards;
mod singles;
mod sorting;
mod source;
mod statistics;
mod store;
mod summary;
mod used_buckets;

pub use builder::{Freeing, PlacementBuilder};
pub use edit::{Edit, EditError};
pub use groups::{AnchoredGroup, DuplicateId, GroupSummary, ObeseBucket};
pub use histogram::{Bin, MAX_BINS};
pub use journal::{kept_runs, DocumentsMark, KeptRun, Splice, MAX_SPLICES};
pub use matrix::{NodeMatrix, NodeRow};
pub use members::{assign_members, MemberError};
pub use ranking_job::GroupsRanking;
pub use retopology::TopologyChangeError;
pub use rows::{Row, RowQuery, RowView, SortKey};
pub use rows_job::{PlacementChanged, RowsJob};
pub use shards::{Balance, BalanceVerdict, Block, ShardSummary};
pub use summary::{StatisticsShape, Summary};

use ravenshard::{explain, hashed_chars, push_lower_id, Explanation, IdError};
use ravenshard::{BucketRange, Topology, NUMBER_OF_BUCKETS};
use ravenshard_reshard::BucketLoad;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
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

/// No shard / group / collection / bucket, in the compact per-document arrays.
const NONE: u32 = u32::MAX;

/// The most documents a placement takes: indices are `u32`, one value being reserved.
pub const MAX_DOCUMENTS: usize = (u32::MAX - 1) as usize;

/// Every document placed by a topology, with everything the studio's views show.
///
/// Built once ([`Placement::new`]), then kept up to date in place: an edit of `k` documents
/// ([`Placement::splice`]) updates every aggregate in O(k log n) (plus a memmove of the
/// per-document tables when the number of documents changes), and a change of topology
/// ([`Placement::set_topology`]) hashes no ID again. The views that list documents in an
/// order (the bucket index of [`documents_in`](Self::documents_in), the rows' sort orders,
/// the sorted anchored groups, obese buckets and duplicates) are made again only when read
/// after a change. See the crate's `benches/workspace.rs` for the measured times.
#[derive(Debug, Clone)]
pub struct Placement {
    topology: Topology,
    options: PlacementOptions,
    /// The per-document tables, shared by clones until one of them is edited.
    store: Arc<store::Store>,
    collections: Collections,
    /// The collections of the documents, in order of first appearance (made when read).
    live_collections: OnceLock<Vec<String>>,
    /// `(index, final ID)` of the documents the design generated an ID for.
    generated: Vec<(u32, String)>,
    invalid: Vec<InvalidDocument>,
    totals: Totals,
    shards: Vec<ShardSummary>,
    document_balance: Balance,
    byte_balance: Balance,
    matrix: NodeMatrix,
    blocks: Vec<Block>,
    loads: loads::Loads,
    groups: groups::Groups,
    duplicates: groups::Duplicates,
    obese_threshold: u64,
    obese_buckets: OnceLock<Vec<ObeseBucket>>,
    /// The placed documents in bucket order (made when read).
    index: OnceLock<histogram::BucketIndex>,
    orders: orders::SortCache,
    /// The bucket statistics the placement was made from instead of documents.
    statistics: Option<statistics::Statistics>,
    /// The splices made to the documents since they were placed.
    journal: journal::Journal,
}

impl Placement {
    /// Places `documents` (at most [`MAX_DOCUMENTS`], with at most 4 GiB of IDs and 4 GiB of
    /// bodies; any beyond are ignored) by `topology`.
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
        let mut placement = Placement {
            topology: topology.clone(),
            options: options.clone(),
            store: Arc::default(),
            collections: Collections::default(),
            live_collections: OnceLock::new(),
            generated: Vec::new(),
            invalid: Vec::new(),
            totals: Totals::default(),
            shards: Vec::new(),
            document_balance: Balance::of([]),
            byte_balance: Balance::of([]),
            matrix: NodeMatrix::new(&[]),
            blocks: Vec::new(),
            loads: loads::Loads::new(topology),
            groups: groups::Groups::default(),
            duplicates: groups::Duplicates::default(),
            obese_threshold: options.obese_threshold_for(0),
            obese_buckets: OnceLock::new(),
            index: OnceLock::new(),
            orders: orders::SortCache::default(),
            statistics: None,
            journal: journal::Journal::default(),
        };
        let documents = &documents[..documents.len().min(MAX_DOCUMENTS)];
        let (mut ids, mut bodies) = (0usize, 0usize);
        let fit = documents
            .iter()
            .take_while(|d| {
                ids = ids.saturating_add(d.id.len());
                bodies = bodies.saturating_add(d.body.as_ref().map_or(0, String::len));
                ids <= arena::MAX_ARENA && bodies <= arena::MAX_ARENA
            })
            .count();
        placement.replace(0..0, documents.get(..fit).unwrap_or(&[]));
        placement
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

    /// Heap bytes the placement holds, roughly (B-tree and hash-map nodes are estimated),
    /// including the views made when read so far: what a workspace costs in memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let docs: Vec<Document> = (0..1000).map(|i| Document::new(format!("orders/{i}-A"))).collect();
    /// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// assert!(p.heap_bytes() > 1000 * 20);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.store.heap_bytes()
            + self.loads.heap_bytes()
            + self.groups.heap_bytes()
            + self.duplicates.heap_bytes()
            + self
                .index
                .get()
                .map_or(0, histogram::BucketIndex::heap_bytes)
            + self.orders.heap_bytes()
            + self.invalid.capacity() * std::mem::size_of::<InvalidDocument>()
            + self.generated.capacity() * std::mem::size_of::<(u32, String)>()
    }

    /// The topology the documents were placed by.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// How many documents were given (placed or not).
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// Whether no documents were given.
    pub fn is_empty(&self) -> bool {
        self.store.len() == 0
    }

    /// Counts over all documents.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// The ID of document `index` as given (`None` past the end).
    pub fn id(&self, index: usize) -> Option<&str> {
        self.store.id(index)
    }

    /// The lowered ID of document `index` (lower-cased, control characters escaped), as
    /// RavenDB hashes it. Lowered when asked (the placement keeps only the IDs as given).
    pub fn lower_id(&self, index: usize) -> Option<String> {
        Some(self.lower(self.id(index)?))
    }

    /// `id` lowered as this placement's server version does.
    fn lower(&self, id: &str) -> String {
        let mut out = String::with_capacity(id.len());
        push_lower_id(&mut out, id, self.topology.server_version());
        out
    }

    /// The size of document `index`, when known.
    pub fn size(&self, index: usize) -> Option<u64> {
        self.store.size(index)
    }

    /// The collection of document `index`, when known.
    pub fn collection(&self, index: usize) -> Option<&str> {
        let c = *self.store.collection_of.get(index)?;
        self.collections.names.get(c as usize).map(String::as_str)
    }

    /// The distinct collections of the documents, in order of first appearance.
    pub fn collections(&self) -> &[String] {
        self.live_collections.get_or_init(|| {
            let mut seen = vec![false; self.collections.names.len()];
            let mut out = Vec::new();
            for &c in &self.store.collection_of {
                if let Some(s) = seen.get_mut(c as usize).filter(|s| !**s) {
                    *s = true;
                    out.push(self.collections.names[c as usize].clone());
                }
            }
            out
        })
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
        let place = self.place_unranked(index)?;
        Some(Place {
            group: self.group_rank(index),
            ..place
        })
    }

    /// [`place`](Self::place) without the group's rank (`group: None`), which needs every
    /// group in order: what a view that shows the group's anchor, not its rank, reads.
    fn place_unranked(&self, index: usize) -> Option<Place> {
        let bucket = self.store.bucket(index)?;
        let id = self.id(index)?;
        // Counted in the ID as given; IDs are short, so the counts fit in u32.
        let [start, chars] = hashed_chars(id);
        let generated = self.generated_id(index).is_some();
        Some(Place {
            bucket,
            shard: shard_of(self.topology.ranges(), bucket)?,
            group: None,
            hashed_chars: [if generated { 0 } else { start as u32 }, chars as u32],
        })
    }

    /// The rank in [`groups`](Self::groups) of document `index`'s group: O(log groups).
    fn group_rank(&self, index: usize) -> Option<u32> {
        self.groups.rank(*self.store.groups.get(index)?)
    }

    /// The anchor and documents of document `index`'s group: O(1).
    fn group_label(&self, index: usize) -> Option<(&str, u64)> {
        self.groups.label(*self.store.groups.get(index)?)
    }

    fn group_context(&self) -> groups::GroupContext<'_> {
        groups::GroupContext {
            ranges: self.topology.ranges(),
            obese_threshold: self.obese_threshold,
            placed: self.totals.placed,
            buckets: &self.store.buckets,
        }
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
        self.duplicates.list(&|i| self.lower(self.store.id_of(i)))
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

    /// How many anchored groups there are: `groups().len()` without sorting them again
    /// after a change (O(1)).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = [Document::new("orders/1$users/4"), Document::new("users/4")];
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// assert_eq!(p.group_count(), p.groups().len());
    /// ```
    pub fn group_count(&self) -> usize {
        self.groups.count()
    }

    /// Whether the anchored groups' order (each group's rank) is made: else the first read
    /// of a rank ([`group`](Self::group), [`groups`](Self::groups), a row's group) sorts every
    /// group at once.
    pub fn groups_ranked(&self) -> bool {
        self.groups.ranked()
    }

    /// A job that makes the anchored groups' order a step at a time ([`GroupsRanking`]),
    /// kept by the placement when done: the studio runs it in slices after a large
    /// workspace is made, so that no view sorts 400,000 groups in one task.
    pub fn rank_groups(&self) -> GroupsRanking {
        GroupsRanking::new(self)
    }

    /// Every anchored group, the largest first (ties by anchor). The order is kept as
    /// documents are edited (an edit moves the few groups it changed); the list of every
    /// group's summary is made again when read after a change: a view that shows a few
    /// groups reads them with [`group`](Self::group).
    pub fn groups(&self) -> &[AnchoredGroup] {
        self.groups.list(&self.group_context())
    }

    /// The anchored group of rank `rank` in [`groups`](Self::groups), alone: O(log groups
    /// + its documents), without making the summary of every group.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = ["a/1$users/4", "a/2$users/4", "b/1$users/5"].map(Document::new);
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// assert_eq!(p.group(0).unwrap().anchor, "users/4");
    /// assert_eq!(p.group(1).as_ref(), p.groups().get(1));
    /// assert_eq!(p.group(2), None);
    /// ```
    pub fn group(&self, rank: u32) -> Option<AnchoredGroup> {
        self.groups.at(rank, &self.group_context())
    }

    /// [`group`](Self::group) without its list of members (their count instead): what the
    /// groups view, the bucket map and the report read, copying nothing the size of the
    /// group.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = ["a/1$users/4", "a/2$users/4", "users/4"].map(Document::new);
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// let summary = p.group_summary(0).unwrap();
    /// assert_eq!((summary.members, summary.documents), (2, 3));
    /// assert_eq!(summary.anchor, p.group(0).unwrap().anchor);
    /// ```
    pub fn group_summary(&self, rank: u32) -> Option<GroupSummary> {
        self.groups.summary_at(rank, &self.group_context())
    }

    /// How many anchored groups are obese (more documents than the
    /// [obese threshold](Self::obese_threshold)): the first ones of
    /// [`groups`](Self::groups). O(log groups).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, PlacementOptions};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = ["a/1$users/4", "a/2$users/4", "b/1$users/5"].map(Document::new);
    /// let options = PlacementOptions { obese_threshold: Some(1), ..Default::default() };
    /// let p = Placement::new(&docs, &t, &options);
    /// assert_eq!(p.obese_group_count(), 1);
    /// ```
    pub fn obese_group_count(&self) -> usize {
        self.groups.more_than(self.obese_threshold)
    }

    /// The obese threshold in force ([`PlacementOptions::obese_threshold`]).
    pub fn obese_threshold(&self) -> u64 {
        self.obese_threshold
    }

    /// Buckets holding more documents than the obese threshold, the fullest first.
    pub fn obese_buckets(&self) -> &[ObeseBucket] {
        self.obese_buckets.get_or_init(|| {
            let locator = Locator::new(&self.topology);
            groups::obese_buckets(&self.loads, &locator, self.obese_threshold)
        })
    }

    /// The placed documents in bucket order, sorted again when read after a change.
    fn index(&self) -> &histogram::BucketIndex {
        self.index
            .get_or_init(|| histogram::BucketIndex::new(&self.store.buckets))
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
        self.index()
            .documents_in(u64::from(range.start), u64::from(range.end))
    }

    /// The load of the placed documents, in the buckets this placement gave them, for
    /// resharding plans and balances: read from the per-bucket aggregates, O(used buckets).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::{Document, Topology};
    /// use ravenshard_reshard::BucketLoad;
    /// use ravenshard_model::workspace::{Placement, PlacementOptions};
    ///
    /// let mut sized = Document::new("customers/1-A");
    /// sized.size = Some(40);
    /// let docs = vec![Document::new("orders/1-A"), sized];
    /// let t = Topology::with_shards(3).unwrap();
    /// let p = Placement::new(&docs, &t, &PlacementOptions::default());
    /// assert_eq!(p.bucket_load().total().docs, 2);
    /// let each = docs.iter().map(|d| (t.bucket_for(&d.id).unwrap(), d.size));
    /// assert_eq!(p.bucket_load(), BucketLoad::from_buckets(each));
    /// ```
    pub fn bucket_load(&self) -> BucketLoad {
        if let Some(s) = &self.statistics {
            return BucketLoad::clone(&s.load);
        }
        let buckets = &self.loads.buckets;
        // From the runs' sums: one walk of the used buckets, not two.
        let without_size = buckets.load(0, u32::MAX).without_size;
        let sums = buckets
            .iter()
            .map(|(&bucket, l)| (bucket, u64::from(l.documents), l.bytes()));
        BucketLoad::from_sums(sums, without_size)
    }

    /// Indices of the placed documents in one bucket, in input order: from the bucket
    /// index when it is made, else one scan of the documents' buckets that stops at the
    /// bucket's last document (its count is in the per-bucket aggregates). The index is a
    /// sort of every document, made again after each edit: the bucket map's listing of the
    /// selected bucket made it at every render (about 70 ms in wasm at 1,000,000
    /// documents); the scan is a comparison a document.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = ["customers/1-A", "orders/1-A", "orders/2-A$customers/1-A"].map(Document::new);
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// assert_eq!(p.documents_in_bucket(982173), [0, 2]);
    /// assert!(p.documents_in_bucket(7).is_empty());
    /// ```
    pub fn documents_in_bucket(&self, bucket: u32) -> Vec<u32> {
        if let Some(index) = self.index.get() {
            let (start, end) = (u64::from(bucket), u64::from(bucket) + 1);
            return index.documents_in(start, end).to_vec();
        }
        let count = self
            .loads
            .buckets
            .get(bucket)
            .map_or(0, |l| l.documents as usize);
        let mut documents = Vec::with_capacity(count);
        if count > 0 {
            let placed_here = (0u32..)
                .zip(&self.store.buckets)
                .filter(|&(_, &b)| b == bucket);
            documents.extend(placed_here.map(|(i, _)| i).take(count));
        }
        documents
    }

    /// The first bucket of `range` that holds documents: O(log used buckets), from the
    /// per-bucket aggregates (the bucket map's click on a bin).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let p = Placement::new(&[Document::new("customers/1-A")], &t, &Default::default());
    /// assert_eq!(p.first_used_bucket(900_000..1 << 20), Some(982173));
    /// assert_eq!(p.first_used_bucket(0..900_000), None);
    /// ```
    pub fn first_used_bucket(&self, range: std::ops::Range<u32>) -> Option<u32> {
        if range.is_empty() {
            return None;
        }
        self.loads
            .buckets
            .range(range)
            .next()
            .map(|(&bucket, _)| bucket)
    }

    /// The bucket map at any zoom: `bins` bins over buckets `[start, end)` (fewer when the
    /// range has fewer buckets; at most [`MAX_BINS`]), each with its documents and bytes
    /// and the shard that owns its first bucket. Each bin adds the sums of the runs of 64
    /// buckets it covers whole and walks the used buckets of the two it covers in part:
    /// O(bins × (log n + 64) + range / 64), not a walk of every used bucket in the range.
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
        histogram::histogram(&self.loads, &self.topology, start, end, bins)
    }

    /// [`histogram`](Self::histogram) with each bin's shard read from `topology` instead of
    /// this placement's: the bucket map under a target that keeps every document in its
    /// bucket (the same prefixes, such as a resharding target), drawn without placing the
    /// documents again.
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
    /// let placed = Placement::new(&docs, &five, &Default::default());
    /// assert_eq!(p.histogram_by(&five, 0, 1 << 20, 7), placed.histogram(0, 1 << 20, 7));
    /// ```
    pub fn histogram_by(&self, topology: &Topology, start: u32, end: u32, bins: usize) -> Vec<Bin> {
        histogram::histogram(&self.loads, topology, start, end, bins)
    }

    /// The documents view: the indices of the documents that match `query`, in its order.
    /// The first query with a given sort key sorts once (O(n log n)) and keeps the order,
    /// which edits then update in place (O(k log n) for `k` documents changed). Without a
    /// filter the view makes no list (O(1)); a filter (text, shard, group) is one pass
    /// over the documents, O(n).
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

    /// Whether [`rows`](Self::rows) of `query` is at hand: no filter, and input order or a
    /// sort order made already. Anything else is a pass over the documents (a sort, a
    /// filter), which the studio makes a step at a time with [`rows_job`](Self::rows_job)
    /// when the placement is large.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, RowQuery, SortKey};
    /// use ravenshard::Topology;
    ///
    /// let p = Placement::new(&[Document::new("a")], &Topology::with_shards(3).unwrap(), &Default::default());
    /// let by_id = RowQuery { sort: SortKey::Id, ..Default::default() };
    /// assert!(p.rows_at_hand(&RowQuery::default()));
    /// assert!(!p.rows_at_hand(&by_id));
    /// p.rows(&by_id);
    /// assert!(p.rows_at_hand(&by_id));
    /// ```
    pub fn rows_at_hand(&self, query: &RowQuery) -> bool {
        let filtered = !query.text.is_empty() || query.shard.is_some() || query.group.is_some();
        !filtered && !matches!(self.orders.made(query.sort), Some(None))
    }

    /// A job that makes the rows of `query` a step at a time ([`RowsJob`]): the same rows
    /// as [`rows`](Self::rows), without one long pass.
    pub fn rows_job(&self, query: &RowQuery) -> RowsJob {
        RowsJob::new(self, query)
    }

    /// Everything the documents view shows for document `index`.
    pub fn row(&self, index: usize) -> Option<Row<'_>> {
        rows::row(self, index, true)
    }

    /// [`row`](Self::row) without the rank of the document's group (`group: None`; its
    /// anchor and documents are there): what the documents view paints. The rank needs
    /// every anchored group in order, sorted when first read after the workspace is made
    /// (about 400,000 groups at 10,000,000 generated documents: over 100 ms in wasm); the
    /// anchor does not.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let p = Placement::new(&[Document::new("orders/1-A$customers/1-A")], &t, &Default::default());
    /// let row = p.row_unranked(0).unwrap();
    /// assert_eq!((row.group, row.group_anchor), (None, Some("customers/1-a")));
    /// assert_eq!(p.row(0).unwrap().group, Some(0));
    /// ```
    pub fn row_unranked(&self, index: usize) -> Option<Row<'_>> {
        rows::row(self, index, false)
    }

    /// Every step from the ID of document `index` to its shard ([`explain`]).
    pub fn explain(&self, index: usize) -> Option<Result<Explanation, IdError>> {
        Some(explain(self.id(index)?, Some(&self.topology)))
    }

    fn shard_position(&self, shard: u32) -> Option<u32> {
        let at = self.shards.binary_search_by_key(&shard, |s| s.shard).ok()?;
        u32::try_from(at).ok()
    }
}

/// Collection names interned to small integers.
#[derive(Debug, Clone, Default)]
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

    fn range_index(&self, bucket: u32) -> Option<usize> {
        range_index(self.ranges, bucket)
    }

    fn shard_position(&self, bucket: u32) -> Option<u32> {
        let p = *self.range_shard.get(self.range_index(bucket)?)?;
        (p != NONE).then_some(p)
    }

    fn shard_of(&self, bucket: u32) -> Option<u32> {
        shard_of(self.ranges, bucket)
    }
}

/// Index in `ranges` (a topology's) of the range that owns `bucket`.
fn range_index(ranges: &[BucketRange], bucket: u32) -> Option<usize> {
    let at = ranges
        .partition_point(|r| r.start <= bucket)
        .checked_sub(1)?;
    let range = ranges.get(at)?;
    (range.start / NUMBER_OF_BUCKETS == bucket / NUMBER_OF_BUCKETS).then_some(at)
}

/// The shard of the range of `ranges` that owns `bucket`.
fn shard_of(ranges: &[BucketRange], bucket: u32) -> Option<u32> {
    ranges.get(range_index(ranges, bucket)?).map(|r| r.shard)
}
