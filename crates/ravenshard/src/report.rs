//! Where a set of documents lands: per shard, per bucket, anchored groups, obese buckets.
//!
//! A [`ReportBuilder`] takes IDs one at a time. Its counters are per bucket, so they do not
//! grow with the number of documents; what grows is one entry per distinct anchor (with at
//! most [`ReportOptions::members_per_group`] member IDs kept each) and, to tell whether an
//! anchor is itself a document, the unanchored IDs seen. Over input that can be read twice,
//! [`ReportBuilder::two_pass`] avoids keeping those IDs: a second pass
//! ([`ReportBuilder::mark_anchor_document`]) finds the anchor documents.

use crate::{anchor_start, bucket_of_lower, check_id, lower_id_with, Topology};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

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
    /// Documents per bucket, for the buckets that hold any (sparse: a topology with many
    /// prefixes has billions of buckets).
    counts: HashMap<u32, u64>,
    invalid_count: u64,
    invalid: Vec<InvalidId>,
    groups: HashMap<String, AnchorGroup>,
    /// Lower-cased unanchored IDs not (yet) known to be anchors; `None` in two-pass mode.
    unanchored_seen: Option<HashSet<String>>,
}

impl<'t> ReportBuilder<'t> {
    /// A builder for documents placed by `topology` (or by bucket only, without one).
    pub fn new(topology: Option<&'t Topology>, options: ReportOptions) -> Self {
        ReportBuilder {
            topology,
            options,
            lines: 0,
            documents: 0,
            counts: HashMap::new(),
            invalid_count: 0,
            invalid: Vec::new(),
            groups: HashMap::new(),
            unanchored_seen: Some(HashSet::new()),
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

    /// The lowered ID under the topology's server version (7.x without a topology).
    fn lower_id<'i>(&self, id: &'i str) -> std::borrow::Cow<'i, str> {
        let version = self.topology.map(Topology::server_version);
        lower_id_with(id, version.unwrap_or_default())
    }

    /// Second pass of [`two_pass`](Self::two_pass): marks the group whose anchor is this ID.
    pub fn mark_anchor_document(&mut self, id: &str) {
        if check_id(id).is_err() {
            return;
        }
        let lower = self.lower_id(id);
        if anchor_start(lower.as_bytes()) == 0 {
            if let Some(group) = self.groups.get_mut(lower.as_ref()) {
                group.anchor_is_document = true;
            }
        }
    }

    /// Adds one document ID (its position counts for error messages even if invalid).
    pub fn add(&mut self, id: &str) {
        if let Err(e) = check_id(id) {
            return self.add_invalid(id, &e);
        }
        self.lines += 1;
        let lower = self.lower_id(id);
        let offset = self.topology.map_or(0, |t| t.prefix_block_start(&lower));
        let bucket = bucket_of_lower(lower.as_bytes()) + offset;
        self.documents += 1;
        *self.counts.entry(bucket).or_default() += 1;
        let start = anchor_start(lower.as_bytes());
        if start == 0 {
            if let Some(group) = self.groups.get_mut(lower.as_ref()) {
                group.anchor_is_document = true;
            } else if let Some(seen) = self.unanchored_seen.as_mut() {
                seen.insert(lower.into_owned());
            }
            return;
        }
        let anchor = &lower[start..];
        let members_per_group = self.options.members_per_group;
        let shard = self.topology.and_then(|t| t.shard_for_bucket(bucket));
        let group = self
            .groups
            .entry(anchor.to_string())
            .or_insert_with(|| AnchorGroup {
                anchor: anchor.to_string(),
                count: 0,
                members: Vec::new(),
                anchor_is_document: false,
                bucket,
                shard,
            });
        group.count += 1;
        if group.members.len() < members_per_group {
            group.members.push(id.to_string());
        }
        if !group.anchor_is_document {
            if let Some(seen) = self.unanchored_seen.as_mut() {
                group.anchor_is_document = seen.remove(anchor);
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
    pub fn finish(self) -> Report {
        let documents = self.documents;
        let obese_threshold = self
            .options
            .obese_threshold
            .unwrap_or_else(|| (documents / 100).min(10_000));
        let shard_of = |bucket: u32| self.topology.and_then(|t| t.shard_for_bucket(bucket));
        let mut used: Vec<BucketStats> = self
            .counts
            .iter()
            .map(|(&bucket, &documents)| BucketStats {
                bucket,
                shard: None,
                documents,
            })
            .collect();
        let buckets_used = used.len() as u64;
        used.sort_by(|a, b| b.documents.cmp(&a.documents).then(a.bucket.cmp(&b.bucket)));
        let with_shard = |s: &BucketStats| BucketStats {
            shard: shard_of(s.bucket),
            ..s.clone()
        };
        let top_buckets = used
            .iter()
            .take(self.options.top_buckets)
            .map(with_shard)
            .collect();
        let obese = used.partition_point(|s| s.documents > obese_threshold);
        let obese_buckets = used[..obese]
            .iter()
            .take(self.options.top_buckets)
            .map(with_shard)
            .collect();
        let shards: Vec<ShardStats> = match self.topology {
            None => Vec::new(),
            Some(t) => {
                let mut per_shard: HashMap<u32, u64> = HashMap::new();
                for (&bucket, &n) in &self.counts {
                    if let Some(shard) = t.shard_for_bucket(bucket) {
                        *per_shard.entry(shard).or_default() += n;
                    }
                }
                t.shards()
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
                    .collect()
            }
        };
        let skew = skew(shards.iter().map(|s| s.documents));
        let anchored_group_count = self.groups.len() as u64;
        let mut groups: Vec<AnchorGroup> = self.groups.into_values().collect();
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
/// ```
pub fn skew(loads: impl IntoIterator<Item = u64>) -> Option<f64> {
    let (mut count, mut total, mut max) = (0u64, 0u64, 0u64);
    for load in loads {
        count += 1;
        total += load;
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
