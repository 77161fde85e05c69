//! What a view asks of the workspace ([`Question`]) and what it is told ([`Answer`]):
//! plain data, as much as a screen shows.

use crate::workspace::{Bin, Document, GroupSummary, Row, RowQuery};
use ravenshard_reshard::BucketLoad;
use serde::{Deserialize, Serialize};

/// The most documents one answer lists ([`Question::Documents`],
/// [`Question::BucketDocuments`], [`Question::Rows`]): more than any view shows at once.
pub const MAX_LISTED: u64 = 1 << 16;

/// What a view asks of the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Question {
    /// Documents `start..end` (at most [`MAX_LISTED`]): the ID editor's page, a share
    /// link's documents.
    Documents {
        /// The first.
        start: u64,
        /// One past the last.
        end: u64,
    },
    /// The bucket map's bins of buckets `start..end`, under the workspace's own
    /// configuration (`None`) or another one (the Resharding view's target, as JSON), which
    /// places the documents as it would (moving those under the prefixes it adds or
    /// removes).
    Histogram {
        /// The other configuration's JSON.
        configuration: Option<String>,
        /// The first bucket.
        start: u32,
        /// One past the last.
        end: u32,
        /// How many bins.
        bins: u32,
    },
    /// The first bucket of `start..end` that holds a placed document.
    FirstUsedBucket {
        /// The first bucket.
        start: u32,
        /// One past the last.
        end: u32,
    },
    /// The first `most` documents of a bucket, with how many it holds.
    BucketDocuments {
        /// The bucket.
        bucket: u32,
        /// How many to list (at most [`MAX_LISTED`]).
        most: u64,
    },
    /// The anchored groups of ranks `from..from + count`, the largest first.
    Groups {
        /// The first rank.
        from: u32,
        /// How many.
        count: u32,
    },
    /// Rows `from..from + count` of the documents view's `query` (at most
    /// [`MAX_LISTED`]), with how many rows it has.
    Rows {
        /// The documents view's filters and order.
        query: RowQuery,
        /// The first row.
        from: u64,
        /// How many.
        count: u64,
    },
    /// The IDs of these documents.
    Ids {
        /// The documents' indices.
        indices: Vec<u64>,
    },
    /// The CSV lines of documents `start..end` (at most [`MAX_LISTED`] of them), without
    /// the header ([`export::write_csv_rows`](crate::export::write_csv_rows)).
    Csv {
        /// The first document.
        start: u64,
        /// One past the last.
        end: u64,
    },
    /// The report JSON ([`export::report_json`](crate::export::report_json)).
    Report,
    /// What each used bucket holds (the Resharding view plans and balances from it):
    /// about 630,000 entries, 12 MB, at 1,000,000 documents.
    Load,
    /// RavenDB's check of the prefixes another configuration (JSON) adds or removes: it
    /// refuses both while a document's ID starts with the prefix.
    CheckPrefixes {
        /// The other configuration's JSON.
        configuration: String,
    },
    /// What the draft chapter's design does to the workspace: the first `most` IDs it
    /// generated and writes it rejected, with how many of each there are.
    Content {
        /// How many of each to list (at most [`MAX_LISTED`]).
        most: u64,
    },
}

/// A document whose ID the design generated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneratedId {
    /// Its index in the workspace.
    pub index: u32,
    /// The ID as given (ending in `$`).
    pub given: String,
    /// The ID the server would give it.
    pub id: String,
    /// Its bucket, when placed.
    pub bucket: Option<u32>,
    /// Its shard, when placed.
    pub shard: Option<u32>,
}

/// A write the design rejected, or an ID it refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// The document's index in the workspace.
    pub index: u32,
    /// Why (the design's message).
    pub message: String,
}

/// A document listed with its index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedDocument {
    /// Its index in the workspace.
    pub index: u32,
    /// Its ID as given.
    pub id: String,
}

/// One row of the documents view, owned ([`Row`] borrows the workspace).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowData {
    /// The document's index in the workspace.
    pub index: u32,
    /// The ID as given.
    pub id: String,
    /// Character range `[start, end)` of the hashed part of the ID (placed documents).
    pub hashed_chars: Option<[u32; 2]>,
    /// The collection, when known.
    pub collection: Option<String>,
    /// The size, when known.
    pub size: Option<u64>,
    /// The final bucket (placed documents).
    pub bucket: Option<u32>,
    /// The shard (placed documents).
    pub shard: Option<u32>,
    /// The anchored group's rank.
    pub group: Option<u32>,
    /// The anchored group's anchor (lower-cased).
    pub group_anchor: Option<String>,
    /// The documents in the anchored group.
    pub group_documents: Option<u64>,
    /// Why the document was not placed.
    pub error: Option<String>,
    /// The ID the chapter's design generated for it.
    pub generated: Option<String>,
}

impl From<Row<'_>> for RowData {
    fn from(row: Row<'_>) -> RowData {
        RowData {
            index: row.index,
            id: row.id.to_string(),
            hashed_chars: row.hashed_chars,
            collection: row.collection.map(str::to_string),
            size: row.size,
            bucket: row.bucket,
            shard: row.shard,
            group: row.group,
            group_anchor: row.group_anchor.map(str::to_string),
            group_documents: row.group_documents,
            error: row.error.map(str::to_string),
            generated: row.generated.map(str::to_string),
        }
    }
}

/// What the workspace answers, at the version it was asked at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// The documents asked for (fewer past the end).
    Documents(#[serde(with = "super::wire")] Vec<Document>),
    /// The bins, in bucket order.
    Histogram(Vec<Bin>),
    /// The first used bucket, if any.
    FirstUsedBucket(Option<u32>),
    /// A bucket's first documents, in input order, and how many it holds.
    BucketDocuments {
        /// Its documents.
        total: u64,
        /// The first of them.
        documents: Vec<ListedDocument>,
    },
    /// The groups asked for (fewer past the last), and how many groups in all are obese.
    Groups {
        /// The obese groups (more documents than the obese threshold): the first ones.
        obese: u64,
        /// The groups of the ranks asked for.
        groups: Vec<GroupSummary>,
    },
    /// The rows asked for, and how many rows the query has.
    Rows {
        /// Rows in all.
        total: u64,
        /// The rows asked for.
        rows: Vec<RowData>,
    },
    /// The IDs, `None` for an index past the documents.
    Ids(Vec<Option<String>>),
    /// A text made of the workspace (the CSV lines, the report).
    Text(String),
    /// What the design does to the workspace.
    Content {
        /// How many IDs it generated.
        generated_total: u64,
        /// The first of them, in input order.
        generated: Vec<GeneratedId>,
        /// How many writes it rejected (or IDs it refused).
        rejected_total: u64,
        /// The first of them, in input order.
        rejected: Vec<Rejected>,
    },
    /// What each used bucket holds.
    Load(BucketLoad),
    /// Why the other configuration's prefix changes cannot be made, if they cannot.
    PrefixesChecked(Option<String>),
    /// The question cannot be answered (another configuration that is not valid): why.
    Refused(String),
}
