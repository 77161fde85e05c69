//! # ravenshard-advise
//!
//! The sharding advisor: given documents with bodies (a `.ravendbdump` export, NDJSON or
//! JSON), a topology and optionally a workload, how should the IDs of each collection be
//! shaped so that what belongs together stays together, without a shard or a bucket
//! growing too big?
//!
//! For each collection it finds the **references** (string fields, nested and in arrays
//! included, whose values are IDs of documents in the export) and scores **candidate
//! placements** exactly, through the core's placement ([`Topology::locate`]) and the draft
//! chapter's content rules ([`ContentDesign`](ravenshard_design::content::ContentDesign)):
//!
//! - `none`: the documents keep their own IDs;
//! - `anchor`: each document anchored to the document a reference field names
//!   (`orders/1-A$companies/7-A`), one candidate per reference field;
//! - `prefix`: prefixed sharding by the IDs' leading segment (`eu/`), when they carry one;
//! - `content`: the draft chapter's `ByContent` on a top-level reference field (the draft's
//!   design, not shipped RavenDB).
//!
//! Then it recommends one candidate per collection by the rule in [`recommend`]: the most
//! co-location (then single-shard queries) among candidates with no obese bucket and a
//! skew under [`MAX_SKEW`]; `none` when no candidate does better.
//!
//! Documents a caller already holds (the studio's workspace) are read by a
//! [`DocumentReader`], one at a time from their ID, size, collection and body, with no
//! export text in between; the advice is the same as on an export of them.
//!
//! Memory holds, per document, its ID, size, collection and the ID-like string values of
//! its fields (strings with a `/`); never its body once it has been read.
//!
//! # Examples
//!
//! ```
//! use ravenshard_advise::{advise, Workload};
//! use ravenshard_import::Format;
//! use ravenshard::Topology;
//!
//! let mut ndjson = String::new();
//! for c in 1..=200 {
//!     ndjson += &format!("{{\"Id\": \"companies/{c}-A\", \"@metadata\": {{\"@collection\": \"Companies\"}}}}\n");
//! }
//! for o in 1..=2000 {
//!     ndjson += &format!("{{\"Id\": \"orders/{o}-A\", \"Company\": \"companies/{}-A\", \"@metadata\": {{\"@collection\": \"Orders\"}}}}\n", o % 200 + 1);
//! }
//! let advice = advise(ndjson.as_bytes(), Some(Format::Ndjson), &Topology::with_shards(3).unwrap(), &Workload::default())?;
//! let orders = advice.collections.iter().find(|c| c.collection == "Orders").unwrap();
//! assert_eq!(orders.references[0].field, "Company");
//! assert_eq!(orders.references[0].coverage, 1.0);
//! assert_eq!((orders.recommended.strategy, orders.recommended.field.as_deref()), (Strategy::Anchor, Some("Company")));
//! # use ravenshard_advise::Strategy;
//! # Ok::<(), ravenshard_advise::AdviseError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod candidate;
mod fields;
mod json_text;
mod read;
pub mod recommend;
mod references;
mod score;
mod workload;

pub use read::{rewrite_ids, DocumentReader, ExportReader, Progress, ReadExport, Rewrite};
pub use recommend::MAX_SKEW;
pub use workload::{Load, Workload};

use ravenshard::Topology;
use ravenshard_import::{Format, ImportError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The advisor's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    /// The topology's shard count.
    pub shards: u32,
    /// Documents read.
    pub documents: u64,
    /// Entries the importer skipped (no ID, or an ID RavenDB refuses).
    pub skipped: u64,
    /// Documents whose body was not read (over the importer's
    /// [`MAX_BODY_BYTES`](ravenshard_import::MAX_BODY_BYTES)): their references are unknown.
    pub bodies_dropped: u64,
    /// Per collection, in the order they first appear.
    pub collections: Vec<CollectionAdvice>,
}

/// The advice for one collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionAdvice {
    /// Its name (`@metadata.@collection`, else the ID's text before its first `/`).
    pub collection: String,
    /// Its documents.
    pub documents: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Fields whose values are IDs of documents in the export, most covering first.
    pub references: Vec<Reference>,
    /// The candidates scored.
    pub candidates: Vec<Candidate>,
    /// The candidate recommended.
    pub recommended: Recommended,
}

/// A field whose values name documents of the export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// Its path (`Company`, `Lines.Product`: nested names dotted, arrays transparent).
    pub field: String,
    /// The collection of the documents it names (the most frequent one).
    pub collection: String,
    /// The share of the collection's documents that name an existing document in it.
    pub coverage: f64,
    /// Whether the workload names it as a `LoadDocument` relation.
    pub loaded: bool,
}

/// How a candidate places a collection's documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Own IDs, hashed on their own.
    None,
    /// Anchored (`$`) to the document a reference field names.
    Anchor,
    /// Prefixed sharding by the IDs' leading segment.
    Prefix,
    /// The draft chapter's `ByContent` on a field (the draft's design).
    Content,
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::None => "none",
            Strategy::Anchor => "anchor",
            Strategy::Prefix => "prefix",
            Strategy::Content => "content",
        })
    }
}

/// The documents placed together: an anchor, a prefix's block, a content value, or one
/// document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// What they share, lower-cased (the anchor ID, the prefix, the field value, the ID).
    pub anchor: String,
    /// Its documents.
    pub documents: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Its share of the collection's documents.
    pub share: f64,
}

/// Where one query of the workload goes under a candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryShards {
    /// The query as given.
    pub query: String,
    /// The shards the router sends it to.
    pub shards: Vec<u32>,
}

/// One candidate placement, scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The strategy.
    pub strategy: Strategy,
    /// The field it reads (`anchor`, `content`), else `None`.
    pub field: Option<String>,
    /// Largest shard / mean shard, by documents.
    pub skew: f64,
    /// Largest shard / mean shard, by bytes.
    pub byte_skew: f64,
    /// Documents per shard, in shard order.
    pub shard_documents: Vec<u64>,
    /// The group with the most documents.
    pub largest_group: Option<Group>,
    /// Buckets holding more of the collection's documents than the obese threshold.
    pub obese_groups: u64,
    /// The obese threshold in force: `report`'s rule, 1% of the collection's documents,
    /// at most 10,000.
    pub obese_threshold: u64,
    /// The share of the collection's documents in the same bucket as the document their
    /// field names (the candidate's field, else the most covering reference); `None` when
    /// the collection has no reference.
    pub colocated: Option<f64>,
    /// Distinct groups.
    pub cardinality: u64,
    /// The share of documents in the largest group.
    pub frequency: f64,
    /// The share of the workload's queries on this collection that go to one shard;
    /// `None` without such queries.
    pub single_shard_queries: Option<f64>,
    /// Per query on this collection, its shards.
    pub queries: Vec<QueryShards>,
    /// Documents whose rewritten ID could not be placed (RavenDB would refuse it, e.g. over
    /// 512 bytes): they are scored at their own ID.
    pub unplaced: u64,
    /// An existing ID rewritten to the candidate's form.
    pub id_example: Option<String>,
    /// For `prefix` and `content`: the configuration to apply (RavenDB's
    /// `ShardingConfiguration`, with the draft's `ByContent` for `content`); in a format
    /// that is not human-readable (the studio's worker messages), its JSON text.
    #[serde(with = "json_text")]
    pub configuration: Option<serde_json::Value>,
}

/// The recommended candidate and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recommended {
    /// Its strategy.
    pub strategy: Strategy,
    /// Its field, if any.
    pub field: Option<String>,
    /// Why, in one sentence.
    pub reason: String,
}

/// Why the advisor could not answer.
#[derive(Debug, Clone, PartialEq)]
pub enum AdviseError {
    /// The export could not be read.
    Import(ImportError),
    /// A query of the workload is not RQL the router reads.
    Query {
        /// 1-based line in the queries.
        line: usize,
        /// What the parser says.
        message: String,
    },
    /// A `LoadDocument` relation is not `Collection.Field`.
    Load {
        /// 1-based line in the loads.
        line: usize,
        /// The line.
        text: String,
    },
    /// The caller cancelled it (its progress callback answered `Break`).
    Cancelled,
}

impl fmt::Display for AdviseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdviseError::Import(e) => write!(f, "{e}"),
            AdviseError::Query { line, message } => write!(
                f,
                "queries, line {line}: {message}. Write one RQL query a line (e.g. from Orders where Company = 'companies/1-A')."
            ),
            AdviseError::Load { line, text } => write!(
                f,
                "loads, line {line}: '{text}' is not Collection.Field. Write one LoadDocument relation a line (e.g. Orders.Company)."
            ),
            AdviseError::Cancelled => write!(f, "the advisor was cancelled; run it again for an answer."),
        }
    }
}

impl std::error::Error for AdviseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AdviseError::Import(e) => Some(e),
            _ => None,
        }
    }
}

/// Reads a whole export (`format`: `None` to recognise it) and advises: see the module's
/// documentation.
///
/// # Errors
///
/// See [`ExportReader::finish`].
pub fn advise(
    bytes: &[u8],
    format: Option<Format>,
    topology: &Topology,
    workload: &Workload,
) -> Result<Advice, AdviseError> {
    let mut reader = ExportReader::new(format, Some(bytes.len() as u64));
    let mut rest = bytes;
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at(reader.next_chunk_len().min(rest.len()));
        reader.push(chunk)?;
        rest = tail;
    }
    reader.finish(topology, workload)
}
