//! Where a set of documents lands: per shard, per bucket, anchored groups, obese buckets.
//!
//! A [`ReportBuilder`] takes IDs one at a time. Its counters are per bucket (a dense table
//! of 2^20 counters per block of buckets in use), so they do not grow with the number of
//! documents; what grows is one entry per distinct anchor (with at most
//! [`ReportOptions::members_per_group`] member IDs kept each) and, to tell whether an
//! anchor is itself a document, the unanchored IDs seen. Over input that can be read twice,
//! [`ReportBuilder::two_pass`] avoids keeping those IDs: a second pass
//! ([`ReportBuilder::mark_anchor_document`]) finds the anchor documents.
//!
//! Builders of consecutive parts of the input (made on several threads, say) combine with
//! [`ReportBuilder::merge`] into the builder of the whole: the report is the same. They can
//! count their documents per bucket into one [`BucketCounts`] per thread, and look up the
//! anchors of the parts before them ([`EarlierAnchors`]), so that the second pass needs to
//! read again only the parts that did not know every anchor.

use crate::bucket::{with_lowered, with_lowered_bytes};
use crate::casing::lower_bytes_into;
use crate::lowered::has_control_byte;
use crate::{anchor_start, bucket_of_hash, check_id, hash_of_key, Topology};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

mod counts;
mod earlier;

pub use counts::BucketCounts;
pub use earlier::EarlierAnchors;

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

/// Builds a [`Report`] one ID at a time.
///
/// # Examples
///
/// ```
/// use ravenshard::{ReportBuilder, ReportOptions, Topology};
///
/// let topology = Topology::with_shards(3).unwrap();
/// let mut builder = ReportBuilder::new(Some(&topology), ReportOptions::default());
/// for id in ["users/4", "Users/70$Users/4", "Users/71$Users/4", "orders/1-A", ""] {
///     builder.add(id);
/// }
/// let report = builder.finish();
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
    /// The groups by the XXH64 of their anchor (which their bucket is computed from anyway);
    /// anchors with the same hash share an entry.
    groups: HashMap<u64, Vec<AnchorGroup>, BuildHasherDefault<HashIsKey>>,
    group_count: u64,
    /// The first eight bytes of every anchor ([`head_of_lowered`]), so that the second pass hashes only
    /// the IDs that begin as an anchor does.
    heads: HashSet<u64, BuildHasherDefault<HashIsKey>>,
    /// Lower-cased unanchored IDs not (yet) known to be anchors; `None` in two-pass mode.
    unanchored_seen: Option<HashSet<String>>,
    /// Groups that earlier input already filled with members (see
    /// [`skip_members_of`](ReportBuilder::skip_members_of)).
    full: Option<Arc<FullGroups>>,
    /// The anchors of earlier input (see
    /// [`look_up_earlier_anchors`](ReportBuilder::look_up_earlier_anchors)).
    earlier: Option<Arc<EarlierAnchors>>,
    /// Lowered unanchored IDs that may be the anchor of a group of `earlier`.
    found: Vec<String>,
    /// How many of this builder's groups `earlier` does not have: while none, an
    /// unanchored ID whose hash `earlier` lacks is the anchor of none of them either.
    unknown_groups: u64,
}

/// The anchors whose groups already hold all the members a report lists
/// ([`ReportOptions::members_per_group`]), taken from a builder of earlier input
/// ([`ReportBuilder::full_groups`]): a builder of later input keeps no members for them
/// ([`ReportBuilder::skip_members_of`]), as merging would drop them anyway.
#[derive(Debug, Default)]
pub struct FullGroups {
    anchors: HashMap<u64, Vec<String>, BuildHasherDefault<HashIsKey>>,
    len: usize,
}

impl FullGroups {
    /// Whether the group of this anchor (lowered, XXH64 `hash`) is full.
    fn has(&self, hash: u64, anchor: &[u8]) -> bool {
        self.anchors
            .get(&hash)
            .is_some_and(|same| same.iter().any(|a| a.as_bytes() == anchor))
    }
}

/// Whether `full` says the group of this anchor is full.
fn is_full(full: Option<&FullGroups>, hash: u64, anchor: &[u8]) -> bool {
    full.is_some_and(|full| full.has(hash, anchor))
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

/// The first eight bytes of a lowered ID (zeros after its end), mixed for hashing.
fn head_of_lowered(lower: &[u8]) -> u64 {
    let mut bytes = [0u8; 8];
    for (to, &from) in bytes.iter_mut().zip(lower) {
        *to = from;
    }
    mixed(u64::from_le_bytes(bytes))
}

/// Eight bytes mixed into a hash whose low bits (a hash table's index) depend on all of
/// them: the high and low halves of their 128-bit product with an odd constant, folded. A
/// plain 64-bit product leaves the low bits to the first bytes alone (`a/1…`, `a/2…`): the
/// heads of many anchors then fell on a few slots of the table, and adding 750,000 anchors
/// took seconds.
fn mixed(bytes: u64) -> u64 {
    let product = u128::from(bytes) * 0x9E37_79B9_7F4A_7C15;
    (product as u64) ^ ((product >> 64) as u64)
}

/// [`head_of_lowered`] of an ID's lowered form, without lowering it: `None` when one of its
/// first eight bytes is not printable ASCII (then lower-casing or escaping may change them).
fn head(text: &[u8]) -> Option<u64> {
    let mut bytes = [0u8; 8];
    for (to, &from) in bytes.iter_mut().zip(text) {
        if !(0x20..0x80).contains(&from) {
            return None;
        }
        *to = from.to_ascii_lowercase();
    }
    Some(mixed(u64::from_le_bytes(bytes)))
}

/// [`head_of_lowered`] of an ID whose first bytes are not all printable ASCII, from its
/// first eight characters lowered (at least eight bytes): without control characters
/// lowering maps one character at a time, so they lower to the start of the lowered ID.
/// `None` when one of them is a control character (escaping depends on the whole ID). The
/// bytes need not be checked as UTF-8: for bytes that are not, any answer will do.
fn head_of_start(id: &[u8]) -> Option<u64> {
    let mut starts = id.iter().enumerate().filter(|(_, &b)| b & 0xC0 != 0x80);
    let end = starts.nth(8).map_or(id.len(), |(i, _)| i);
    let start = id.get(..end)?;
    if has_control_byte(start) {
        return None;
    }
    // Eight characters lowered: at most 8 times 4 bytes.
    let mut lowered = [0u8; 32];
    let n = lower_bytes_into(start, &mut lowered)?;
    Some(head_of_lowered(lowered.get(..n)?))
}

/// Lowered bytes as text: they are UTF-8 (the lowered form of a `str`), so this borrows.
fn text(lower: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(lower)
}

/// Buckets pending before they are counted.
const PENDING: usize = 1 << 16;

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
            groups: HashMap::default(),
            group_count: 0,
            heads: HashSet::default(),
            unanchored_seen: Some(HashSet::new()),
            full: None,
            earlier: None,
            found: Vec::new(),
            unknown_groups: 0,
        }
    }

    /// A builder that does not keep unanchored IDs: after adding every ID, pass them all
    /// again to [`mark_anchor_document`](Self::mark_anchor_document) before
    /// [`finish`](Self::finish).
    pub fn two_pass(topology: Option<&'t Topology>, options: ReportOptions) -> Self {
        ReportBuilder {
            unanchored_seen: None,
            ..ReportBuilder::new(topology, options)
        }
    }

    /// `f` of the lowered ID under the topology's server version (7.x without a topology).
    fn with_lowered<R>(&self, id: &str, f: impl FnOnce(&str) -> R) -> R {
        let version = self.topology.map(Topology::server_version);
        with_lowered(id, version.unwrap_or_default(), f)
    }

    /// Where the group whose anchor is this lowered, unanchored ID is: its hash and index.
    fn group_of(&self, lower: &str) -> Option<(u64, usize)> {
        self.group_at(hash_of_key(lower.as_bytes()), lower.as_bytes())
    }

    /// [`group_of`](Self::group_of) when the hash of `lower` is known.
    fn group_at(&self, hash: u64, lower: &[u8]) -> Option<(u64, usize)> {
        let groups = self.groups.get(&hash)?;
        let at = groups.iter().position(|g| g.anchor.as_bytes() == lower)?;
        Some((hash, at))
    }

    /// Whether this ID is the anchor of a group added so far (for a second pass over the
    /// input on several threads; [`mark_anchor_document`](Self::mark_anchor_document)
    /// marks it).
    pub fn is_anchor_document(&self, id: &str) -> bool {
        if self.groups.is_empty() || check_id(id).is_err() {
            return false;
        }
        if let Some(head) = head(id.as_bytes()).or_else(|| head_of_start(id.as_bytes())) {
            if !self.heads.contains(&head) {
                return false;
            }
        }
        self.with_lowered(id, |lower| {
            self.heads.contains(&head_of_lowered(lower.as_bytes()))
                && anchor_start(lower.as_bytes()) == 0
                && self.group_of(lower).is_some()
        })
    }

    /// A first filter for a second pass, on a line of the line format as bytes (without its
    /// `\n` or `\r\n`, not checked as UTF-8): `false` when the line's ID (see
    /// [`lines::id_field`](crate::lines::id_field)) is surely not the anchor of a group
    /// ([`is_anchor_document`](Self::is_anchor_document) is then `false`), decided from the
    /// first bytes of the line, so most lines are never read as text.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::{ReportBuilder, ReportOptions};
    ///
    /// let mut builder = ReportBuilder::two_pass(None, ReportOptions::default());
    /// builder.add("Orders/1$Straße/1");
    /// assert!(builder.may_be_anchor_document("STRAßE/1\t120".as_bytes()));
    /// assert!(builder.is_anchor_document("STRAßE/1"));
    /// assert!(!builder.may_be_anchor_document(b"orders/1"));
    /// ```
    pub fn may_be_anchor_document(&self, line: &[u8]) -> bool {
        if self.groups.is_empty() {
            return false;
        }
        // The first 32 bytes of the ID hold its first eight characters.
        let first = line.get(..32).unwrap_or(line);
        let start = match first.iter().position(|&b| b == b'\t') {
            Some(tab) => first.get(..tab).unwrap_or_default(),
            None => first,
        };
        if start.is_empty() {
            return false;
        }
        let head = head(start).or_else(|| head_of_start(start));
        head.is_none_or(|head| self.heads.contains(&head))
    }

    /// Whether any ID added so far is anchored (else a second pass has nothing to find).
    pub fn has_anchored_groups(&self) -> bool {
        self.group_count > 0
    }

    /// Second pass of [`two_pass`](Self::two_pass): marks the group whose anchor is this ID.
    pub fn mark_anchor_document(&mut self, id: &str) {
        if self.groups.is_empty() || check_id(id).is_err() {
            return;
        }
        let found = self.with_lowered(id, |lower| {
            (anchor_start(lower.as_bytes()) == 0).then(|| self.group_of(lower))
        });
        if let Some((hash, at)) = found.flatten() {
            if let Some(group) = self.groups.get_mut(&hash).and_then(|g| g.get_mut(at)) {
                group.anchor_is_document = true;
            }
        }
    }

    /// Adds one document ID (its position counts for error messages even if invalid).
    pub fn add(&mut self, id: &str) {
        if let Err(e) = check_id(id) {
            return self.add_invalid(id, &e);
        }
        let version = self.topology.map(Topology::server_version);
        with_lowered_bytes(id, version.unwrap_or_default(), |lower| {
            self.add_lowered(id, lower)
        });
    }

    /// Adds an ID by the bytes of its lowered form (UTF-8, read as text only when needed).
    fn add_lowered(&mut self, id: &str, lower: &[u8]) {
        self.lines += 1;
        self.documents += 1;
        let offset = match self.topology {
            Some(t) if !t.prefixes().is_empty() => t.prefix_block_start(&text(lower)),
            _ => 0,
        };
        let start = anchor_start(lower);
        let hashed = lower.get(start..).unwrap_or(lower);
        let hash = hash_of_key(hashed);
        let bucket = bucket_of_hash(hash) + offset;
        self.count(bucket);
        if start == 0 {
            if self.earlier.as_ref().is_some_and(|e| e.may_have(hash)) {
                self.found.push(text(lower).into_owned());
                return;
            }
            if self.unknown_groups == 0 && self.unanchored_seen.is_none() {
                return;
            }
            if let Some((hash, at)) = self.group_at(hash, lower) {
                if let Some(group) = self.groups.get_mut(&hash).and_then(|g| g.get_mut(at)) {
                    group.anchor_is_document = true;
                }
            } else if let Some(seen) = self.unanchored_seen.as_mut() {
                seen.insert(text(lower).into_owned());
            }
            return;
        }
        let members_per_group = self.options.members_per_group;
        let same = self.groups.get_mut(&hash).into_iter().flatten();
        if let Some(group) = same.into_iter().find(|g| g.anchor.as_bytes() == hashed) {
            group.count += 1;
            // Whether `full` has the group does not change: a group it has began without
            // members, the others with one.
            if !group.members.is_empty() && group.members.len() < members_per_group {
                group.members.push(id.to_string());
            }
            return;
        }
        let members = match is_full(self.full.as_deref(), hash, hashed) {
            true => Vec::new(),
            false => vec![id.to_string()],
        };
        let group = AnchorGroup {
            anchor: String::new(),
            count: 1,
            members,
            anchor_is_document: false,
            bucket,
            shard: None,
        };
        self.add_to_group(hash, &text(hashed), group);
    }

    /// Adds `part` (a group of later documents, whose anchor is `anchor`, XXH64 `hash`) to
    /// the group of its anchor, or makes it a new group.
    fn add_to_group(&mut self, hash: u64, anchor: &str, mut part: AnchorGroup) {
        let members_per_group = self.options.members_per_group;
        let same = self.groups.entry(hash).or_default();
        if let Some(group) = same.iter_mut().find(|g| g.anchor == anchor) {
            group.count += part.count;
            let room = members_per_group.saturating_sub(group.members.len());
            group.members.extend(part.members.into_iter().take(room));
            group.anchor_is_document |= part.anchor_is_document;
            return;
        }
        if part.anchor.is_empty() {
            part.anchor = anchor.to_string();
        }
        part.members.truncate(members_per_group);
        part.shard = self.topology.and_then(|t| t.shard_for_bucket(part.bucket));
        if let Some(seen) = self.unanchored_seen.as_mut() {
            part.anchor_is_document |= seen.remove(anchor);
        }
        self.heads.insert(head_of_lowered(anchor.as_bytes()));
        same.push(part);
        self.group_count += 1;
        if !self.earlier.as_ref().is_some_and(|e| e.may_have(hash)) {
            self.unknown_groups += 1;
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

    /// Moves the documents per bucket counted so far into `counts` (the counts of this
    /// thread, say; see [`BucketCounts`]): the builder keeps its other figures, and the
    /// builder of the whole input needs `counts` back
    /// ([`add_counts`](Self::add_counts)) before its report.
    pub fn move_counts_to(&mut self, counts: &mut BucketCounts) {
        counts.count(&self.pending);
        self.pending.clear();
        counts.merge(std::mem::take(&mut self.counts));
    }

    /// Adds documents per bucket counted apart ([`move_counts_to`](Self::move_counts_to)).
    pub fn add_counts(&mut self, counts: BucketCounts) {
        self.counts.merge(counts);
    }

    /// How many distinct anchors the IDs added so far have.
    pub fn anchored_group_count(&self) -> u64 {
        self.group_count
    }

    /// The anchors of this builder's groups, for builders of later input
    /// ([`look_up_earlier_anchors`](Self::look_up_earlier_anchors)); `None` when it has no
    /// more groups than `known` (an earlier answer), or when copying them is not worth it
    /// yet: while the groups outnumber the lines read since `known` (input where nearly
    /// every ID has its own anchor), so that asking after every merge costs at most one
    /// copied hash per line read.
    pub fn earlier_anchors(&self, known: &EarlierAnchors) -> Option<EarlierAnchors> {
        let worth = self.lines.saturating_sub(known.lines) >= self.group_count;
        if self.group_count <= known.groups || !worth {
            return None;
        }
        Some(EarlierAnchors {
            hashes: self.groups.keys().copied().collect(),
            groups: self.group_count,
            lines: self.lines,
        })
    }

    /// Notes the IDs (added after this call) that may be the anchor of a group of
    /// `earlier` (from the builder of the input before this one's,
    /// [`earlier_anchors`](Self::earlier_anchors)); merged after that builder, this
    /// builder marks the groups whose anchor they are, as the second pass would. A builder
    /// of several threads' input finds most anchor documents in its first pass this way.
    pub fn look_up_earlier_anchors(&mut self, earlier: Arc<EarlierAnchors>) {
        self.earlier = Some(earlier);
    }

    /// The groups that hold all the members a report lists, for builders of later input
    /// ([`skip_members_of`](Self::skip_members_of)); `None` when no more are full than in
    /// `known` (an earlier answer), so that it is worth asking after every merge.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::{FullGroups, ReportBuilder, ReportOptions};
    /// use std::sync::Arc;
    ///
    /// let options = ReportOptions { members_per_group: 1, ..ReportOptions::default() };
    /// let mut first = ReportBuilder::new(None, options.clone());
    /// first.add("orders/1$users/4");
    /// let full = Arc::new(first.full_groups(&FullGroups::default()).unwrap());
    /// assert!(first.full_groups(&full).is_none());
    /// let mut later = ReportBuilder::new(None, options);
    /// later.skip_members_of(Arc::clone(&full));
    /// later.add("orders/2$Users/4");
    /// first.merge(later);
    /// let report = first.finish();
    /// assert_eq!(report.anchored_groups[0].count, 2);
    /// assert_eq!(report.anchored_groups[0].members, ["orders/1$users/4"]);
    /// ```
    pub fn full_groups(&self, known: &FullGroups) -> Option<FullGroups> {
        let cap = self.options.members_per_group;
        let is_full = |g: &&AnchorGroup| g.members.len() >= cap;
        let len = self.groups.values().flatten().filter(is_full).count();
        if len <= known.len {
            return None;
        }
        let mut anchors: HashMap<u64, Vec<String>, BuildHasherDefault<HashIsKey>> =
            HashMap::default();
        for (&hash, same) in &self.groups {
            let full: Vec<String> = same
                .iter()
                .filter(is_full)
                .map(|g| g.anchor.clone())
                .collect();
            if !full.is_empty() {
                anchors.insert(hash, full);
            }
        }
        Some(FullGroups { anchors, len })
    }

    /// Keeps no members for the groups of `full` (from the builder of the input before
    /// this one's, [`full_groups`](Self::full_groups)): merged after it, this builder gives
    /// the same report, with fewer IDs copied. Call it before adding IDs.
    pub fn skip_members_of(&mut self, full: Arc<FullGroups>) {
        self.full = Some(full);
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
    /// let mut second = ReportBuilder::new(None, ReportOptions::default());
    /// first.add("users/4");
    /// second.add("");
    /// second.add("Users/70$Users/4");
    /// first.merge(second);
    /// let report = first.finish();
    /// assert_eq!((report.documents, report.invalid[0].line), (2, 2));
    /// assert!(report.anchored_groups[0].anchor_is_document);
    /// ```
    pub fn merge(&mut self, later: ReportBuilder<'_>) {
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
        for (hash, groups) in later.groups {
            for mut group in groups {
                // Taken, not cloned: a group that is not new needs no copy of its anchor.
                let anchor = std::mem::take(&mut group.anchor);
                self.add_to_group(hash, &anchor, group);
            }
        }
        // The IDs that may be anchors of groups of this builder, then (one pass) the rest.
        let seen = later.unanchored_seen.into_iter().flatten();
        for lower in later.found.into_iter().chain(seen) {
            let hash = hash_of_key(lower.as_bytes());
            if let Some((hash, at)) = self.group_at(hash, lower.as_bytes()) {
                if let Some(group) = self.groups.get_mut(&hash).and_then(|g| g.get_mut(at)) {
                    group.anchor_is_document = true;
                }
            } else if self.earlier.as_ref().is_some_and(|e| e.may_have(hash)) {
                // The anchor of a group before this builder's, maybe: kept for its merge.
                self.found.push(lower);
            } else if let Some(seen) = self.unanchored_seen.as_mut() {
                seen.insert(lower);
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

    /// The report.
    pub fn finish(mut self) -> Report {
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
        let anchored_group_count = self.group_count;
        let mut groups: Vec<AnchorGroup> = self.groups.into_values().flatten().collect();
        groups.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.anchor.cmp(&b.anchor)));
        groups.truncate(self.options.top_groups);
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

/// A report over a list of IDs.
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
pub fn report<'a>(
    ids: impl IntoIterator<Item = &'a str>,
    topology: Option<&Topology>,
    options: &ReportOptions,
) -> Report {
    let mut builder = ReportBuilder::new(topology, options.clone());
    for id in ids {
        builder.add(id);
    }
    builder.finish()
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
        let mut whole = ReportBuilder::two_pass(None, options.clone());
        for _ in 0..60_000 {
            whole.add("Users/1");
        }
        let mut counts = BucketCounts::default();
        for _ in 0..3 {
            let mut part = ReportBuilder::two_pass(None, options.clone());
            for _ in 0..100_000 {
                part.add("users/1");
            }
            part.move_counts_to(&mut counts);
            whole.merge(part);
        }
        whole.add_counts(counts);
        let report = whole.finish();
        assert_eq!(report.documents, 360_000);
        assert_eq!(report.top_buckets[0].documents, 360_000);
        assert_eq!(report.buckets_used, 1);
    }
}

#[cfg(test)]
mod head_tests {
    use super::*;

    /// The low bits of the heads of anchors that differ only after their first bytes
    /// differ: a hash table indexes by them.
    #[test]
    fn heads_spread_over_a_table_by_their_low_bits() {
        let slots: HashSet<u64> = (0..10_000)
            .map(|i| head_of_lowered(format!("a/{i}").as_bytes()) & 0xFFFF)
            .collect();
        assert!(slots.len() > 8_000, "{} slots", slots.len());
        assert_eq!(head(b"A/12345"), Some(head_of_lowered(b"a/12345")));
    }
}
