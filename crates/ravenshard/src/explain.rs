//! Every step from a document ID to its shard, as data.

use crate::{
    anchor_start, bucket_of_hash, hash_of_key, hashed_chars, lower_id_with, validate_id,
    BucketRange, IdError, Notice, Topology,
};
use serde::Serialize;

/// The prefix step of an explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrefixStep {
    /// The prefix that matched.
    pub prefix: String,
    /// Its `BucketRangeStart`, added to the raw bucket.
    pub bucket_range_start: u32,
}

/// What a sharded RavenDB database does with an ID it completes itself: the document is not
/// stored under (or hashed as) the ID given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerMadeId {
    /// `"sticky"` for an ID ending with `/`, `"identity"` for one ending with `|`.
    pub kind: &'static str,
    /// The ID the document is stored under, with its server-made parts in angle brackets.
    pub final_id: String,
    /// What decides the bucket and the shard, in a sentence.
    pub placement: String,
}

impl ServerMadeId {
    /// The server-made ID that `id` asks for, if it ends with `/` or `|`.
    fn of(id: &str, prefix: Option<&PrefixStep>) -> Option<ServerMadeId> {
        let block = match prefix {
            Some(p) => format!(
                "the 2^20 buckets of prefix '{}' (from {})",
                p.prefix, p.bucket_range_start
            ),
            None => "the 2^20 buckets of the default block".to_string(),
        };
        if let Some(base) = id.strip_suffix('/') {
            return Some(ServerMadeId {
                kind: "sticky",
                final_id: format!("{base}/<n>-<node>$<BASE26>"),
                placement: format!(
                    "the orchestrator makes '{base}/$<BASE26>$/' (ShardHelper.GenerateStickyId: \
                     BASE26 is a random number in letters) and routes it by '{base}/$<BASE26>', \
                     so the document is anchored to its random BASE26: a random bucket among \
                     {block}; the shard then stores it as '{base}/<n>-<node>$<BASE26>'"
                ),
            });
        }
        let base = id.strip_suffix('|')?;
        Some(ServerMadeId {
            kind: "identity",
            final_id: format!("{base}/<n>"),
            placement: format!(
                "the server takes the next value n of the cluster-wide identity '{base}' and \
                 stores '{base}/<n>' (the identity parts separator, '/' by default, replaces \
                 '|'), placed as that ordinary ID; explain '{base}/<n>' once n is known"
            ),
        })
    }
}

/// How a document ID becomes a bucket and a shard, step by step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The ID as given.
    pub id: String,
    /// Step 1: the ID lowered as RavenDB does ([`lower_id`](crate::lower_id)): lower-cased,
    /// and each control character it escapes written as `\u00XX`.
    pub lower_id: String,
    /// Whether the ID is anchored (has a `$` after its first character).
    pub anchored: bool,
    /// Step 2: the part that is hashed (after the last `$`, or the whole lowered ID).
    pub hashed: String,
    /// Byte range `[start, end)` of the hashed part in `lower_id`.
    pub hashed_range: [usize; 2],
    /// Character range `[start, end)` of the hashed part in `id` ([`hashed_chars`]); the
    /// same in `lower_id` unless control characters were escaped.
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
    /// For an ID ending with `/` or `|`: the ID the server stores instead and how it is
    /// placed. The steps above are then those of the text as given, which no document gets.
    pub server_made: Option<ServerMadeId>,
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
///
/// // A control character is hashed as `\u00XX`.
/// let e = explain("A\u{1}B", None).unwrap();
/// assert_eq!((e.lower_id.as_str(), e.hashed.as_str(), e.bucket), ("a\\u0001b", "a\\u0001b", 231705));
/// assert_eq!(e.hashed_chars, [0, 3]);
///
/// // The server completes `users/` and `users|` itself.
/// let e = explain("users/", Some(&topology)).unwrap();
/// let made = e.server_made.unwrap();
/// assert_eq!((made.kind, made.final_id.as_str()), ("sticky", "users/<n>-<node>$<BASE26>"));
/// assert_eq!(explain("users|", None).unwrap().server_made.unwrap().final_id, "users/<n>");
/// assert!(explain("users/1", None).unwrap().server_made.is_none());
/// ```
pub fn explain(id: &str, topology: Option<&Topology>) -> Result<Explanation, IdError> {
    let warnings = validate_id(id)?.iter().map(Notice::from).collect();
    let version = topology.map(Topology::server_version).unwrap_or_default();
    let lower = lower_id_with(id, version).into_owned();
    let start = anchor_start(lower.as_bytes());
    let hash = hash_of_key(&lower.as_bytes()[start..]);
    let raw_bucket = bucket_of_hash(hash);
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
    let server_made = ServerMadeId::of(id, prefix.as_ref());
    Ok(Explanation {
        id: id.to_string(),
        anchored: start > 0,
        hashed: lower[start..].to_string(),
        hashed_range: [start, lower.len()],
        hashed_chars: hashed_chars(id),
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
        server_made,
    })
}
