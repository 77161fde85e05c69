//! Where a set of documents lands: per shard, per bucket, anchored groups, obese buckets.
//!
//! A report takes two passes over the documents. The first ([`ReportBuilder::add`]) counts
//! documents per bucket (a dense table of 2^20 counters per block of buckets in use) and
//! per distinct anchor (its hash, its count and a tag of its text, [`AnchorCounts`]):
//! memory grows with the distinct anchors, by a few dozen bytes each, and not with the
//! documents. The second ([`Listing`]) finds again, for the groups the report lists only,
//! their anchor's text, their first members and whether the anchor is a document; most
//! lines are dismissed by their first and last bytes.
//!
//! Builders of consecutive parts of the input (made on several threads, say, with
//! [`ReportBuilder::part`], which shares one table of anchors) combine with
//! [`ReportBuilder::merge`] into the builder of the whole: the report is the same. They can
//! move what they counted into one builder per thread
//! ([`ReportBuilder::move_counts_to`]).

use crate::bucket::{hashed_for_with, with_lowered, with_lowered_bytes};
use crate::{anchor_start, bucket_of_hash, Topology};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hasher;
use std::sync::Arc;

mod anchors;
mod counts;
mod listing;
mod tag;

pub use anchors::AnchorCounts;
use counts::BucketCounts;
pub use listing::{Found, Listing, Wanted};
use tag::Tag;

/// Knobs of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportOptions {
    /// How many of the fullest buckets to list.
    pub top_buckets: usize,
    /// How many anchored groups to list (the largest first).
    pub top_groups: usize,
    /// How many member IDs to keep per anchored group (the count is always exact).
    pub members_per_group: usize,
    /// A bucket with more documents than this is "obese". `None`: 1% of the documents or
    /// 10,000, whichever is smaller.
    pub obese_threshold: Option<u64>,
    /// How many invalid IDs to list (the count is always exact).
    pub max_invalid: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            top_buckets: 10,
            top_groups: 100,
            members_per_group: 20,
            obese_threshold: None,
            max_invalid: 100,
        }
    }
}

/// Documents on one shard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShardStats {
    /// The shard number.
    pub shard: u32,
    /// Its fragment database.
    pub fragment: String,
    /// Its member nodes.
    pub nodes: Vec<String>,
    /// How many documents it holds.
    pub documents: u64,
    /// Its share of all documents, 0..=1.
    pub share: f64,
}

/// Documents in one bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BucketStats {
    /// The bucket.
    pub bucket: u32,
    /// Its shard, with a topology.
    pub shard: Option<u32>,
    /// How many documents it holds.
    pub documents: u64,
}

/// Documents that share an anchor (the text after the last `$`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnchorGroup {
    /// The anchor, lower-cased: usually the ID of the anchor document.
    pub anchor: String,
    /// How many anchored documents use it.
    pub count: u64,
    /// The first of them (at most `members_per_group`).
    pub members: Vec<String>,
    /// Whether a document whose lower-cased ID equals the anchor is among the documents.
    pub anchor_is_document: bool,
    /// The bucket they share (the first member's, prefix included).
    pub bucket: u32,
    /// The shard of that bucket, with a topology.
    pub shard: Option<u32>,
}

/// An ID that could not be placed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvalidId {
    /// 1-based position of the ID in the input.
    pub line: u64,
    /// The ID (cut to 80 characters).
    pub id: String,
    /// Why it is invalid.
    pub error: String,
}

/// Where a set of documents lands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// How many valid documents were placed.
    pub documents: u64,
    /// How many IDs were invalid.
    pub invalid_count: u64,
    /// The first invalid IDs.
    pub invalid: Vec<InvalidId>,
    /// Documents per shard (empty without a topology).
    pub shards: Vec<ShardStats>,
    /// Largest shard over mean shard (`None` without documents or topology).
    pub skew: Option<f64>,
    /// How many distinct buckets hold documents.
    pub buckets_used: u64,
    /// The fullest buckets.
    pub top_buckets: Vec<BucketStats>,
    /// The obese threshold in force.
    pub obese_threshold: u64,
    /// How many buckets hold more documents than the threshold.
    pub obese_bucket_count: u64,
    /// The fullest of them (at most `top_buckets`): too big to move as one unit when
    /// resharding.
    pub obese_buckets: Vec<BucketStats>,
    /// How many distinct anchors there are.
    pub anchored_group_count: u64,
    /// The largest anchored groups.
    pub anchored_groups: Vec<AnchorGroup>,
}

/// Builds a [`Report`]: every ID once ([`add`](Self::add)), then the passes of its
/// [`listing`](Self::listing), then [`finish`](Self::finish). [`report`] does it all for IDs
/// in memory.
///
/// # Examples
///
/// ```
/// use ravenshard::{ReportBuilder, ReportOptions, Topology};
///
/// let topology = Topology::with_shards(3).unwrap();
/// let ids = ["users/4", "Users/70$Users/4", "Users/71$Users/4", "orders/1-A", ""];
/// let mut builder = ReportBuilder::new(Some(&topology), ReportOptions::default());
/// for id in ids {
///     builder.add(id);
/// }
/// let mut listing = builder.listing();
/// while let Some(wanted) = listing.wanted() {
///     let mut found = wanted.found();
///     for id in ids {
///         wanted.look(&mut found, id);
///     }
///     listing.add(found);
///     listing.end_pass();
/// }
/// let report = builder.finish(listing);
/// assert_eq!(report.documents, 4);
/// assert_eq!(report.invalid_count, 1);
/// assert_eq!(report.shards[1].documents, 3);
/// let group = &report.anchored_groups[0];
/// assert_eq!((group.anchor.as_str(), group.count, group.anchor_is_document), ("users/4", 2, true));
/// ```
#[derive(Debug)]
pub struct ReportBuilder<'t> {
    topology: Option<&'t Topology>,
    options: ReportOptions,
    lines: u64,
    documents: u64,
    /// Buckets of documents not counted yet: counted in batches, so that a builder of a
    /// small part of the input never sets up the dense tables.
    pending: Vec<u32>,
    /// Documents per bucket.
    counts: BucketCounts,
    invalid_count: u64,
    invalid: Vec<InvalidId>,
    /// The hash and tag of anchored documents not counted in `anchors` yet.
    anchored: Vec<(u64, Tag)>,
    /// Documents per anchor, shared with the builders made by [`part`](Self::part).
    anchors: Arc<AnchorCounts>,
}

/// The hasher of keys that are already hashes (XXH64 values): a `u64` key is its own hash,
/// so maps keyed by anchors' hashes skip hashing them again.
///
/// # Examples
///
/// ```
/// use ravenshard::HashIsKey;
/// use std::collections::HashMap;
/// use std::hash::BuildHasherDefault;
///
/// let mut groups: HashMap<u64, u32, BuildHasherDefault<HashIsKey>> = HashMap::default();
/// groups.insert(0x8e3a_8064_4e7e_fc9d, 2);
/// assert_eq!(groups[&0x8e3a_8064_4e7e_fc9d], 2);
/// ```
#[derive(Debug, Default)]
pub struct HashIsKey(u64);

impl Hasher for HashIsKey {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Lowered bytes as text: they are UTF-8 (the lowered form of a `str`), so this borrows.
fn text(lower: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(lower)
}

/// Buckets pending before they are counted.
const PENDING: usize = 1 << 16;
/// Anchored documents pending before they are counted (1 MiB of them, per builder of a
/// thread): each part of the table of anchors gets a run of about 256 at a time.
const ANCHORED: usize = 1 << 16;

impl<'t> ReportBuilder<'t> {
    /// A builder for documents placed by `topology` (or by bucket only, without one).
    pub fn new(topology: Option<&'t Topology>, options: ReportOptions) -> Self {
        ReportBuilder {
            topology,
            options,
            lines: 0,
            documents: 0,
            pending: Vec::new(),
            counts: BucketCounts::default(),
            invalid_count: 0,
            invalid: Vec::new(),
            anchored: Vec::new(),
            anchors: Arc::default(),
        }
    }

    /// A builder for a later part of the input (on another thread, say) that counts its
    /// anchors into this builder's table: [`merge`](Self::merge) it into this one (or into
    /// the builder of the parts before it) in input order.
    pub fn part(&self) -> ReportBuilder<'t> {
        ReportBuilder {
            anchors: Arc::clone(&self.anchors),
            ..ReportBuilder::new(self.topology, self.options.clone())
        }
    }

    fn version(&self) -> crate::ServerVersion {
        self.topology
            .map(Topology::server_version)
            .unwrap_or_default()
    }

    /// Adds one document ID (its position counts for error messages even if invalid).
    pub fn add(&mut self, id: &str) {
        let version = self.version();
        let hashed = match hashed_for_with(id, version) {
            Ok(hashed) => hashed,
            Err(e) => return self.add_invalid(id, &e),
        };
        self.lines += 1;
        self.documents += 1;
        let offset = match self.topology {
            Some(t) if !t.prefixes().is_empty() => {
                with_lowered(id, version, |lower| t.prefix_block_start(lower))
            }
            _ => 0,
        };
        self.count(bucket_of_hash(hashed.hash) + offset);
        if hashed.anchored {
            let written = listing::hashed_part(id.as_bytes());
            let tag = Tag::of_written(written).unwrap_or_else(|| {
                with_lowered_bytes(id, version, |lower| {
                    Tag::of_lowered(lower.get(anchor_start(lower)..).unwrap_or_default())
                })
            });
            self.anchored.push((hashed.hash, tag));
            if self.anchored.len() >= ANCHORED {
                self.anchors.add(&mut self.anchored);
            }
        }
    }

    /// Counts an input line that holds no usable ID (such as a line that is not UTF-8),
    /// with the reason.
    pub fn add_invalid(&mut self, text: &str, error: &dyn std::fmt::Display) {
        self.lines += 1;
        self.invalid_count += 1;
        if self.invalid.len() < self.options.max_invalid {
            self.invalid.push(InvalidId {
                line: self.lines,
                id: text.chars().take(80).collect(),
                error: error.to_string(),
            });
        }
    }

    fn count(&mut self, bucket: u32) {
        self.pending.push(bucket);
        if self.pending.len() >= PENDING {
            self.count_pending();
        }
    }

    fn count_pending(&mut self) {
        self.counts.count(&self.pending);
        self.pending.clear();
    }

    /// The buckets that hold documents, with how many, in any order.
    fn used_buckets(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.counts.used()
    }

    /// Moves the documents counted so far, per bucket and per anchor, into `counts`: the
    /// builder of a thread, say, that adds no IDs itself, and is [merged](Self::merge) into
    /// the builder of the whole input at the end. The builder keeps its other figures. So
    /// the counting is done where the IDs are hashed, not where the parts are merged, and
    /// in large batches.
    pub fn move_counts_to(&mut self, counts: &mut ReportBuilder<'_>) {
        counts.counts.count(&self.pending);
        self.pending.clear();
        counts.counts.merge(std::mem::take(&mut self.counts));
        counts.anchored.append(&mut self.anchored);
        if counts.anchored.len() >= ANCHORED {
            counts.anchors.add(&mut counts.anchored);
        }
    }

    /// Adds what `later` (a builder of the input that follows this builder's) found: the
    /// result is the builder of both parts, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::{ReportBuilder, ReportOptions};
    ///
    /// let mut first = ReportBuilder::new(None, ReportOptions::default());
    /// let mut second = first.part();
    /// first.add("users/4");
    /// second.add("");
    /// second.add("Users/70$Users/4");
    /// first.merge(second);
    /// assert_eq!((first.documents(), first.anchored_group_count()), (2, 1));
    /// ```
    pub fn merge(&mut self, mut later: ReportBuilder<'_>) {
        let before = self.lines;
        self.lines += later.lines;
        self.documents += later.documents;
        self.invalid_count += later.invalid_count;
        let room = self.options.max_invalid.saturating_sub(self.invalid.len());
        self.invalid
            .extend(later.invalid.into_iter().take(room).map(|mut i| {
                i.line += before;
                i
            }));
        self.pending.extend_from_slice(&later.pending);
        self.count_pending();
        self.counts.merge(later.counts);
        self.anchored.append(&mut later.anchored);
        self.anchors.add(&mut self.anchored);
        if !Arc::ptr_eq(&self.anchors, &later.anchors) {
            self.anchors.merge(&later.anchors);
        }
    }

    /// How many valid documents were added so far.
    pub fn documents(&self) -> u64 {
        self.documents
    }

    /// How many distinct anchors the IDs added so far have.
    pub fn anchored_group_count(&mut self) -> u64 {
        self.anchors.add(&mut self.anchored);
        self.anchors.len()
    }

    /// After every ID is added: the passes that find the groups the report lists. The
    /// table of anchors is let go (its figures are in the listing).
    pub fn listing(&mut self) -> Listing<'t> {
        let groups = self.anchored_group_count();
        let anchors = std::mem::take(&mut self.anchors);
        Listing::plan(
            self.topology,
            self.options.top_groups,
            self.options.members_per_group,
            groups,
            |f| anchors.for_each(f),
        )
    }

    /// The report, with the groups `listing` found (after its last pass).
    pub fn finish(mut self, listing: Listing<'_>) -> Report {
        self.count_pending();
        let documents = self.documents;
        let obese_threshold = self
            .options
            .obese_threshold
            .unwrap_or_else(|| (documents / 100).min(10_000));
        let shard_of = |bucket: u32| self.topology.and_then(|t| t.shard_for_bucket(bucket));
        // One pass over the used buckets, keeping only the fullest (the most documents
        // first, then the lowest bucket) and the documents per shard, added up by runs of
        // buckets on the same shard.
        let (mut buckets_used, mut obese) = (0u64, 0usize);
        let mut per_shard: HashMap<u32, u64> = HashMap::new();
        let mut run: Option<(u32, u64)> = None;
        let top = self.options.top_buckets;
        let mut fullest = BinaryHeap::with_capacity(top.saturating_add(1).min(1 << 16));
        for (bucket, documents) in self.used_buckets() {
            buckets_used += 1;
            obese += usize::from(documents > obese_threshold);
            if let Some(shard) = shard_of(bucket) {
                match &mut run {
                    Some((on, n)) if *on == shard => *n += documents,
                    _ => {
                        if let Some((on, n)) = run.replace((shard, documents)) {
                            *per_shard.entry(on).or_default() += n;
                        }
                    }
                }
            }
            // The worst kept is on top, as `Reverse`.
            let key = Reverse((documents, Reverse(bucket)));
            if fullest.len() < top {
                fullest.push(key);
            } else if fullest.peek().is_some_and(|worst| key < *worst) {
                fullest.pop();
                fullest.push(key);
            }
        }
        if let Some((on, n)) = run {
            *per_shard.entry(on).or_default() += n;
        }
        let mut used: Vec<BucketStats> = fullest
            .into_iter()
            .map(|Reverse((documents, Reverse(bucket)))| BucketStats {
                bucket,
                shard: shard_of(bucket),
                documents,
            })
            .collect();
        used.sort_by(|a, b| b.documents.cmp(&a.documents).then(a.bucket.cmp(&b.bucket)));
        let obese_buckets = used.iter().take(obese).cloned().collect();
        let top_buckets = used;
        let shards: Vec<ShardStats> = match self.topology {
            None => Vec::new(),
            Some(t) => t
                .shards()
                .map(|s| {
                    let n = per_shard.get(&s.number).copied().unwrap_or(0);
                    ShardStats {
                        shard: s.number,
                        fragment: t.fragment(s.number),
                        nodes: s.members.clone(),
                        documents: n,
                        share: if documents == 0 {
                            0.0
                        } else {
                            n as f64 / documents as f64
                        },
                    }
                })
                .collect(),
        };
        let skew = skew(shards.iter().map(|s| s.documents));
        let anchored_group_count = listing.groups;
        let groups = listing.groups(self.topology, self.options.top_groups);
        Report {
            documents,
            invalid_count: self.invalid_count,
            invalid: self.invalid,
            shards,
            skew,
            buckets_used,
            top_buckets,
            obese_threshold,
            obese_bucket_count: obese as u64,
            obese_buckets,
            anchored_group_count,
            anchored_groups: groups,
        }
    }
}

/// Largest over mean of per-shard loads: 1.0 is perfect balance. `None` for no load.
///
/// # Examples
///
/// ```
/// assert_eq!(ravenshard::report::skew([2, 1, 0]), Some(2.0));
/// assert_eq!(ravenshard::report::skew([0, 0]), None);
/// // Loads whose sum is past u64::MAX (bytes per shard can be) are summed exactly.
/// assert_eq!(ravenshard::report::skew([u64::MAX, u64::MAX]), Some(1.0));
/// ```
pub fn skew(loads: impl IntoIterator<Item = u64>) -> Option<f64> {
    // The sum in 128 bits: a sum of u64 loads cannot overflow it.
    let (mut count, mut total, mut max) = (0u64, 0u128, 0u64);
    for load in loads {
        count += 1;
        total += u128::from(load);
        max = max.max(load);
    }
    (total > 0).then(|| max as f64 * count as f64 / total as f64)
}

/// A report over a list of IDs (read twice: see [`ReportBuilder`]).
///
/// # Examples
///
/// ```
/// use ravenshard::{report, ReportOptions};
///
/// let r = report(["Users/1$foo", "Users/2$foo"], None, &ReportOptions::default());
/// assert_eq!(r.anchored_groups[0].bucket, 309823);
/// assert!(!r.anchored_groups[0].anchor_is_document);
/// ```
pub fn report<'a, I>(ids: I, topology: Option<&Topology>, options: &ReportOptions) -> Report
where
    I: IntoIterator<Item = &'a str>,
    I::IntoIter: Clone,
{
    let ids = ids.into_iter();
    let mut builder = ReportBuilder::new(topology, options.clone());
    for id in ids.clone() {
        builder.add(id);
    }
    let mut listing = builder.listing();
    while let Some(wanted) = listing.wanted() {
        let mut found = wanted.found();
        for id in ids.clone() {
            wanted.look(&mut found, id);
        }
        listing.add(found);
        listing.end_pass();
    }
    builder.finish(listing)
}

#[cfg(test)]
mod counter_tests {
    use super::counts::Counter;
    use super::*;

    #[test]
    fn counters_carry_when_counting_and_merging() {
        let bucket = crate::bucket_for("a").unwrap_or_default();
        let mut first = ReportBuilder::new(None, ReportOptions::default());
        first.add("a");
        first.count_pending();
        if let Some(n) = first.counts.counter(bucket) {
            *n = Counter::MAX;
        }
        first.add("a");
        first.count_pending();
        let mut second = ReportBuilder::new(None, ReportOptions::default());
        second.add("A");
        second.count_pending();
        if let Some(n) = second.counts.counter(bucket) {
            *n = Counter::MAX;
        }
        first.merge(second);
        let used: Vec<(u32, u64)> = first.used_buckets().collect();
        let wrap = 1 << Counter::BITS;
        assert_eq!(used, [(bucket, wrap + u64::from(Counter::MAX))]);
    }
}

#[cfg(test)]
mod many_in_one_bucket_tests {
    use super::*;

    /// Counted by parts on "threads", by the builder itself and merged: every carry kept.
    #[test]
    fn a_bucket_holds_more_documents_than_its_counter_counts() {
        let options = ReportOptions::default();
        let mut whole = ReportBuilder::new(None, options.clone());
        for _ in 0..60_000 {
            whole.add("Users/1");
        }
        let mut counts = whole.part();
        for _ in 0..3 {
            let mut part = whole.part();
            for _ in 0..100_000 {
                part.add("users/1");
            }
            part.move_counts_to(&mut counts);
            whole.merge(part);
        }
        whole.merge(counts);
        let listing = whole.listing();
        let report = whole.finish(listing);
        assert_eq!(report.documents, 360_000);
        assert_eq!(report.top_buckets[0].documents, 360_000);
        assert_eq!(report.buckets_used, 1);
    }
}
