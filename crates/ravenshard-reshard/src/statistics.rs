//! A live cluster's own bucket statistics: RavenDB's answers to
//! `GET /databases/<db>/debug/sharding/buckets?fromBucket=A&toBucket=B&range=R[&shardNumber=N]`
//! and `GET /databases/<db>/debug/sharding/bucket?bucket=N`, read and merged into one set of
//! disjoint ranges of buckets with their documents and bytes.
//!
//! The shapes follow RavenDB's server (6.2, 7.x): `BucketsResults` and `BucketRange` in
//! `src/Raven.Server/Web/Studio/Processors/BucketsHandlerProcessorForGetBuckets.cs`, the
//! `BucketsHandler` (`/databases/*/debug/sharding/buckets`) and `ShardedBucketsHandler`, and
//! `BucketStats`/`BucketInfo` for the single bucket. A shard groups its non-empty buckets
//! into ranges keyed by `FromBucket = (bucket / range) * range`, with
//! `ToBucket = FromBucket + range - 1`, `NumberOfBuckets` the non-empty buckets,
//! `RangeSize` their bytes, `DocumentsCount`, `LastModified` (the latest) and
//! `ShardNumbers`; the orchestrator's answer (no `shardNumber`) sums the shards' ranges of
//! the same key and unites their `ShardNumbers`. `BucketRanges` is an object keyed by
//! `FromBucket` (the studio's own variant, an array, is read too). The single-bucket answer
//! is `{"Bucket", "Size", "NumberOfDocuments", "LastModified", "Items"}` (`Items`: the IDs,
//! only counted here).
//!
//! Several answers merge: the same range from different shards is summed (per-shard
//! answers), the same range saved twice is read once, and a finer range inside a coarser one
//! (a drill-down) replaces it. Ranges that overlap otherwise, or the same range with
//! different figures, are errors naming both files and keys.

use ravenshard::json::{from_value, path};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// One range of buckets as the statistics give it, with what its buckets hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatisticsRange {
    /// The first bucket.
    pub from_bucket: u32,
    /// The last bucket (inclusive, as RavenDB's `ToBucket`).
    pub to_bucket: u32,
    /// Documents in the range.
    pub docs: u64,
    /// Bytes in the range (RavenDB's `RangeSize`).
    pub bytes: u64,
    /// Buckets of the range that hold anything (RavenDB's `NumberOfBuckets`).
    pub buckets_used: u64,
    /// The shards that hold its data; empty when the answer does not say (a single bucket).
    pub shards: Vec<u32>,
    /// The latest change in the range, as RavenDB writes it.
    pub last_modified: Option<String>,
    /// Where the figures were read: the file and the key.
    pub source: Source,
}

impl StatisticsRange {
    /// How many buckets the figures cover together: 1 for per-bucket figures.
    pub fn resolution(&self) -> u64 {
        u64::from(self.to_bucket - self.from_bucket) + 1
    }
}

/// Where a range was read: the file's name and the key (`BucketRanges.131072`, or `Bucket`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The file (or text) name.
    pub file: String,
    /// The JSON key of the range.
    pub key: String,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.file, self.key)
    }
}

/// Why bucket statistics cannot be read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StatisticsError {
    /// The text is not JSON.
    NotJson {
        /// The file.
        file: String,
        /// The parser's message.
        message: String,
    },
    /// JSON, but not a bucket statistics answer.
    NotStatistics {
        /// The file.
        file: String,
    },
    /// A value of the answer has the wrong type or is missing.
    Field {
        /// The file.
        file: String,
        /// The JSON path (`BucketRanges.131072.DocumentsCount`).
        path: String,
        /// serde's message.
        message: String,
    },
    /// A range's key, its `FromBucket` and its `ToBucket` disagree, or it leaves its 2^20
    /// block.
    BadRange {
        /// Where.
        at: Source,
        /// What is wrong.
        reason: String,
    },
    /// Two ranges overlap without one holding the other, or the same range is given with
    /// different figures for the same shards.
    Inconsistent {
        /// The one.
        at: Source,
        /// The other.
        other: Source,
        /// How.
        reason: String,
    },
    /// A range lies in a prefix's block (buckets from 2^20 up) that no prefix of the
    /// database record owns.
    NoPrefix {
        /// Where.
        at: Source,
        /// The first bucket of the block.
        block_start: u32,
    },
}

impl fmt::Display for StatisticsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use StatisticsError::*;
        match self {
            NotJson { file, message } => write!(
                f,
                "{file}: not JSON ({message}); expected a saved answer of \
                 GET /databases/<db>/debug/sharding/buckets or .../debug/sharding/bucket?bucket=N"
            ),
            NotStatistics { file } => write!(
                f,
                "{file}: not a bucket statistics answer: expected an object with \
                 `BucketRanges` (GET /databases/<db>/debug/sharding/buckets) or with `Bucket` \
                 and `NumberOfDocuments` (GET /databases/<db>/debug/sharding/bucket?bucket=N)"
            ),
            Field {
                file,
                path,
                message,
            } => write!(f, "{file}: {path}: {message}"),
            BadRange { at, reason } => write!(f, "{at}: {reason}"),
            Inconsistent { at, other, reason } => write!(
                f,
                "{at} and {other}: {reason}; keep only answers taken together (one answer, \
                 its per-shard answers, and drill-downs inside its ranges)"
            ),
            NoPrefix { at, block_start } => write!(
                f,
                "{at}: the range is in the prefix block starting at bucket {block_start}, but \
                 no prefix of the database record owns that block; give the record the \
                 statistics were taken with (GET /admin/databases?name=<db>)"
            ),
        }
    }
}

impl std::error::Error for StatisticsError {}

/// RavenDB's `BucketRange`, as the answer writes it.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct BucketRange {
    from_bucket: u64,
    to_bucket: u64,
    number_of_buckets: u64,
    range_size: u64,
    documents_count: u64,
    #[serde(default, deserialize_with = "ravenshard::json::null_as_default")]
    shard_numbers: Vec<u32>,
    #[serde(default)]
    last_modified: Option<String>,
}

/// RavenDB's `BucketInfo` (a `BucketStats` with the bucket's IDs).
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct BucketInfo {
    bucket: u32,
    size: u64,
    number_of_documents: u64,
    #[serde(default)]
    last_modified: Option<String>,
}

/// Reads one answer's ranges, as given (unmerged), checked one by one.
fn read_answer(file: &str, text: &str) -> Result<Vec<StatisticsRange>, StatisticsError> {
    let value: Value = serde_json::from_str(text).map_err(|e| StatisticsError::NotJson {
        file: file.to_string(),
        message: e.to_string(),
    })?;
    let field = |prefix: &str, e: ravenshard::json::Error| StatisticsError::Field {
        file: file.to_string(),
        path: [prefix, &path(&e)]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("."),
        message: e.inner().to_string(),
    };
    let Some(object) = value.as_object() else {
        return Err(StatisticsError::NotStatistics { file: file.into() });
    };
    let entries: Vec<(String, &Value)> = match object.get("BucketRanges") {
        Some(Value::Object(map)) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("[{i}]"), v))
            .collect(),
        Some(Value::Null) => Vec::new(),
        Some(_) => {
            return Err(StatisticsError::Field {
                file: file.into(),
                path: "BucketRanges".into(),
                message: "expected an object keyed by FromBucket".into(),
            })
        }
        None if object.contains_key("Bucket") => {
            let b: BucketInfo = from_value(&value, "BucketInfo").map_err(|e| field("", e))?;
            let range = StatisticsRange {
                from_bucket: b.bucket,
                to_bucket: b.bucket,
                docs: b.number_of_documents,
                bytes: b.size,
                buckets_used: u64::from(b.number_of_documents > 0),
                shards: Vec::new(),
                last_modified: b.last_modified,
                source: Source {
                    file: file.into(),
                    key: "Bucket".into(),
                },
            };
            return Ok(if range.docs == 0 && range.bytes == 0 {
                Vec::new()
            } else {
                vec![range]
            });
        }
        None => return Err(StatisticsError::NotStatistics { file: file.into() }),
    };
    let mut ranges = Vec::with_capacity(entries.len());
    for (key, v) in entries {
        let prefix = format!("BucketRanges.{key}");
        let r: BucketRange = from_value(v, "BucketRange").map_err(|e| field(&prefix, e))?;
        let source = Source {
            file: file.into(),
            key: prefix,
        };
        ranges.push(checked(r, &key, source)?);
    }
    Ok(ranges)
}

/// A range checked against its key and its block.
fn checked(r: BucketRange, key: &str, source: Source) -> Result<StatisticsRange, StatisticsError> {
    let bad = |reason: String| StatisticsError::BadRange {
        at: source.clone(),
        reason,
    };
    if !key.starts_with('[') && key.parse::<u64>().ok() != Some(r.from_bucket) {
        return Err(bad(format!(
            "the key is not the range's FromBucket ({})",
            r.from_bucket
        )));
    }
    if r.to_bucket < r.from_bucket {
        return Err(bad(format!(
            "ToBucket {} is below FromBucket {}",
            r.to_bucket, r.from_bucket
        )));
    }
    let block = |b: u64| b >> 20;
    if block(r.from_bucket) != block(r.to_bucket) || r.to_bucket > u64::from(i32::MAX as u32) {
        return Err(bad(format!(
            "buckets {}..={} leave their block of 2^20 buckets (0..=1048575, or a prefix's \
             block); ask for a range of at most 1048576 buckets",
            r.from_bucket, r.to_bucket
        )));
    }
    if r.number_of_buckets > r.to_bucket - r.from_bucket + 1 {
        return Err(bad(format!(
            "NumberOfBuckets {} is more than the range's {} buckets",
            r.number_of_buckets,
            r.to_bucket - r.from_bucket + 1
        )));
    }
    Ok(StatisticsRange {
        // Both fit: below 2^31, checked above.
        from_bucket: r.from_bucket as u32,
        to_bucket: r.to_bucket as u32,
        docs: r.documents_count,
        bytes: r.range_size,
        buckets_used: r.number_of_buckets,
        shards: r.shard_numbers,
        last_modified: r.last_modified,
        source,
    })
}

/// Bucket statistics read from one or more of RavenDB's answers and merged: disjoint ranges
/// in bucket order, each at the finest resolution given.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::BucketStatistics;
///
/// let whole = r#"{"TotalSize": 1240, "BucketRanges": {"131072": {"ShardNumbers": [0],
///   "FromBucket": 131072, "ToBucket": 163839, "NumberOfBuckets": 2, "RangeSize": 1240,
///   "DocumentsCount": 2, "LastModified": "2026-11-20T10:11:12.1234567Z"}}}"#;
/// let drill = r#"{"TotalSize": 1240, "BucketRanges": {
///   "131072": {"ShardNumbers": [0], "FromBucket": 131072, "ToBucket": 132095,
///              "NumberOfBuckets": 1, "RangeSize": 1000, "DocumentsCount": 1},
///   "140288": {"ShardNumbers": [0], "FromBucket": 140288, "ToBucket": 141311,
///              "NumberOfBuckets": 1, "RangeSize": 240, "DocumentsCount": 1}}}"#;
/// let s = BucketStatistics::read([("all.json", whole), ("drill.json", drill)]).unwrap();
/// assert_eq!(s.ranges().len(), 2);
/// assert_eq!(s.ranges()[1].from_bucket, 140288);
/// assert_eq!((s.total().docs, s.total().bytes), (2, 1240));
/// assert!(s.notes().is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BucketStatistics {
    ranges: Vec<StatisticsRange>,
    notes: Vec<String>,
}

impl BucketStatistics {
    /// Reads and merges answers given as `(file name, text)`.
    pub fn read<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<BucketStatistics, StatisticsError> {
        let mut all = Vec::new();
        for (file, text) in files {
            all.extend(read_answer(file, text)?);
        }
        super::statistics_merge::merge(all)
    }

    pub(crate) fn from_parts(ranges: Vec<StatisticsRange>, notes: Vec<String>) -> Self {
        BucketStatistics { ranges, notes }
    }

    /// The ranges, disjoint, in bucket order.
    pub fn ranges(&self) -> &[StatisticsRange] {
        &self.ranges
    }

    /// What the merge found worth saying (a drill-down whose figures differ from the range
    /// it resolves).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Every document and byte.
    pub fn total(&self) -> super::Amount {
        self.ranges
            .iter()
            .fold(super::Amount::default(), |a, r| super::Amount {
                docs: a.docs + r.docs,
                bytes: a.bytes.saturating_add(r.bytes),
            })
    }

    /// Ranges of more than one bucket (their figures are per range, not per bucket).
    pub fn coarse_ranges(&self) -> usize {
        self.ranges.iter().filter(|r| r.resolution() > 1).count()
    }
}
