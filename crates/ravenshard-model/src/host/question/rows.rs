//! Questions of the documents view: a window of its rows, and the anchored groups by rank.

use super::{Page, Question, MAX_LISTED};
use crate::host::Host;
use crate::workspace::{GroupSummary, Row, RowQuery};
use serde::{Deserialize, Serialize};

/// Rows `from..from + count` of the documents view's `query` (at most [`MAX_LISTED`]),
/// with how many rows it has.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rows {
    /// The documents view's filters and order.
    pub query: RowQuery,
    /// The first row.
    pub from: u64,
    /// How many.
    pub count: u64,
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

impl Question for Rows {
    type Answer = Page<RowData>;

    /// From the rows made last when they are of the same query at this version (kept
    /// for the next window), else made now.
    fn answer(&self, host: &mut Host) -> Page<RowData> {
        let view = host.take_rows(&self.query);
        let from = usize::try_from(self.from).unwrap_or(usize::MAX);
        let count = usize::try_from(self.count.min(MAX_LISTED)).unwrap_or(0);
        let rows = view.slice(from, from.saturating_add(count)).into_iter();
        let rows = rows.filter_map(|i| host.placement().row(i as usize).map(RowData::from));
        let page = Page {
            total: view.len() as u64,
            items: rows.collect(),
        };
        host.keep_rows(self.query.clone(), view);
        page
    }
}

/// The anchored groups of ranks `from..from + count`, the largest first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Groups {
    /// The first rank.
    pub from: u32,
    /// How many.
    pub count: u32,
}

/// The groups asked for (fewer past the last), and how many groups in all are obese.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankedGroups {
    /// The obese groups (more documents than the obese threshold): the first ones.
    pub obese: u64,
    /// The groups of the ranks asked for.
    pub groups: Vec<GroupSummary>,
}

impl Question for Groups {
    type Answer = RankedGroups;

    fn answer(&self, host: &mut Host) -> RankedGroups {
        let p = host.placement();
        let ranks = self.from..self.from.saturating_add(self.count);
        RankedGroups {
            obese: p.obese_group_count() as u64,
            groups: ranks.map_while(|rank| p.group_summary(rank)).collect(),
        }
    }
}
