//! Every step from a document ID to its shard, as data.

use crate::{
    anchor_start, bucket_of_lower, lower_id, validate_id, BucketRange, IdError, Notice, Topology,
};
use serde::Serialize;
use xxhash_rust::xxh64::xxh64;

/// The prefix step of an explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrefixStep {
    /// The prefix that matched.
    pub prefix: String,
    /// Its `BucketRangeStart`, added to the raw bucket.
    pub bucket_range_start: u32,
}

/// How a document ID becomes a bucket and a shard, step by step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The ID as given.
    pub id: String,
    /// Step 1: the ID lower-cased as RavenDB does.
    pub lower_id: String,
    /// Whether the ID is anchored (has a `$` after its first character).
    pub anchored: bool,
    /// Step 2: the part that is hashed (after the last `$`, or the whole ID).
    pub hashed: String,
    /// Byte range `[start, end)` of the hashed part in `lower_id`.
    pub hashed_range: [usize; 2],
    /// Character range `[start, end)` of the hashed part, the same in `id` and `lower_id`.
    pub hashed_chars: [usize; 2],
    /// Step 3: XXH64 (seed 0) of the hashed part, as 16 hex digits.
    pub hash: String,
    /// Step 4: the hash modulo 2^20.
    pub raw_bucket: u32,
    /// Step 5: the prefix that matched, if any.
    pub prefix: Option<PrefixStep>,
    /// The final bucket (raw bucket plus prefix offset).
    pub bucket: u32,
    /// Step 6: the bucket range that holds the bucket (with a topology).
    pub range: Option<BucketRange>,
    /// The shard that owns the range (with a topology).
    pub shard: Option<u32>,
    /// The fragment database, `<database>$<shard>` (with a topology).
    pub fragment: Option<String>,
    /// The nodes that hold the fragment.
    pub nodes: Vec<String>,
    /// Warnings about the ID.
    pub warnings: Vec<Notice>,
}

/// Explains where an ID goes: every step of the computation.
///
/// # Examples
///
/// ```
/// use ravenshard::{explain, Topology};
///
/// let topology = Topology::with_shards(3).unwrap();
/// let e = explain("Orders/2-A$Customers/1-A", Some(&topology)).unwrap();
/// assert_eq!(e.lower_id, "orders/2-a$customers/1-a");
/// assert_eq!(e.hashed, "customers/1-a");
/// assert_eq!(e.hashed_range, [11, 24]);
/// assert_eq!(e.bucket, 982173);
/// assert_eq!(e.shard, Some(2));
/// assert_eq!(e.fragment.as_deref(), Some("db$2"));
/// ```
pub fn explain(id: &str, topology: Option<&Topology>) -> Result<Explanation, IdError> {
    let warnings = validate_id(id)?.iter().map(Notice::from).collect();
    let lower = lower_id(id).into_owned();
    let start = anchor_start(lower.as_bytes());
    let hash = xxh64(&lower.as_bytes()[start..], 0);
    let raw_bucket = bucket_of_lower(lower.as_bytes());
    let prefix = topology.and_then(|t| {
        t.prefix_of_lower(&lower).map(|i| {
            let p = &t.prefixes()[i];
            PrefixStep {
                prefix: p.prefix.clone(),
                bucket_range_start: p.bucket_range_start,
            }
        })
    });
    let bucket = raw_bucket + prefix.as_ref().map_or(0, |p| p.bucket_range_start);
    let range = topology.and_then(|t| t.range_of(bucket)).copied();
    let shard = range.map(|r| r.shard);
    let chars_before = lower[..start].chars().count();
    Ok(Explanation {
        id: id.to_string(),
        anchored: start > 0,
        hashed: lower[start..].to_string(),
        hashed_range: [start, lower.len()],
        hashed_chars: [chars_before, chars_before + lower[start..].chars().count()],
        lower_id: lower,
        hash: format!("{hash:016x}"),
        raw_bucket,
        prefix,
        bucket,
        range,
        shard,
        fragment: topology.zip(shard).map(|(t, s)| t.fragment(s)),
        nodes: topology
            .zip(shard)
            .map(|(t, s)| t.members(s).to_vec())
            .unwrap_or_default(),
        warnings,
    })
}
