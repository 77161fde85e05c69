//! The documents view: the documents a query keeps, in its order; the UI reads rows `i..j`.
//! Without a filter no list is made (input order is a count, a sort order is shared with
//! the placement, which keeps it across edits); a filter (text, shard, group) is one pass
//! over the documents. Both are made by a [`RowsJob`](super::RowsJob), at once here or a
//! step at a time by the studio.

use super::orders::Order;
use super::Placement;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What the documents view is sorted by. Documents without the value (no size, no
/// collection, not placed) come last in either direction; ties keep input order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SortKey {
    /// Input order.
    #[default]
    Index,
    /// The ID, ignoring case as RavenDB does (then as given).
    Id,
    /// The final bucket.
    Bucket,
    /// The shard, then the bucket.
    Shard,
    /// The size.
    Size,
    /// The collection's name.
    Collection,
}

impl SortKey {
    /// Every key, in the documents view's column order.
    pub const ALL: [SortKey; 6] = [
        SortKey::Index,
        SortKey::Id,
        SortKey::Bucket,
        SortKey::Shard,
        SortKey::Size,
        SortKey::Collection,
    ];
}

/// A view of the documents: which ones and in what order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct RowQuery {
    /// Keep IDs that contain this text, ignoring case (empty: all).
    pub text: String,
    /// Keep documents on this shard.
    pub shard: Option<u32>,
    /// Keep documents of this anchored group (an index in
    /// [`Placement::groups`](super::Placement::groups)).
    pub group: Option<u32>,
    /// The order.
    pub sort: SortKey,
    /// Largest first (missing values still last).
    pub descending: bool,
}

/// The documents that match a [`RowQuery`], in its order. Without a filter it holds no
/// list of its own: every document in input order is a count, and a sort order is shared
/// with the placement (kept there across edits), so a view costs what it shows.
#[derive(Debug, Clone, Default)]
pub struct RowView {
    rows: Rows,
}

#[derive(Debug, Clone)]
enum Rows {
    /// Every document, in input order or reversed.
    All { len: usize, descending: bool },
    /// Every document in a sort order (descending: the documents with the value reversed,
    /// the others still last, in input order).
    Sorted { order: Arc<Order>, descending: bool },
    /// The documents a filter kept, in order.
    Kept(Vec<u32>),
}

impl Default for Rows {
    fn default() -> Rows {
        Rows::Kept(Vec::new())
    }
}

impl RowView {
    /// How many documents match.
    pub fn len(&self) -> usize {
        match &self.rows {
            Rows::All { len, .. } => *len,
            Rows::Sorted { order, .. } => order.documents.len(),
            Rows::Kept(list) => list.len(),
        }
    }

    /// Whether no document matches.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The document index of row `row` (`None` past the end): O(1).
    pub fn get(&self, row: usize) -> Option<u32> {
        match &self.rows {
            Rows::All { len, descending } => {
                let i = if *descending {
                    len.checked_sub(row + 1)?
                } else {
                    row
                };
                u32::try_from(i).ok().filter(|_| row < *len)
            }
            Rows::Sorted { order, descending } => {
                let at = if *descending && row < order.present {
                    order.present - 1 - row
                } else {
                    row
                };
                order.documents.get(at).copied()
            }
            Rows::Kept(list) => list.get(row).copied(),
        }
    }

    /// Document indices of rows `start..end` of the view, clamped to the view: O(end -
    /// start).
    pub fn slice(&self, start: usize, end: usize) -> Vec<u32> {
        let end = end.min(self.len());
        (start.min(end)..end).filter_map(|r| self.get(r)).collect()
    }

    /// All matching document indices, in order: O(n).
    pub fn indices(&self) -> Vec<u32> {
        self.slice(0, self.len())
    }
}

impl PartialEq for RowView {
    fn eq(&self, other: &RowView) -> bool {
        self.len() == other.len() && (0..self.len()).all(|r| self.get(r) == other.get(r))
    }
}

impl Eq for RowView {}

impl Serialize for RowView {
    /// As `{"indices": [...]}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("RowView", 1)?;
        out.serialize_field("indices", &self.indices())?;
        out.end()
    }
}

/// One row of the documents view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row<'a> {
    /// The document's index in the input.
    pub index: u32,
    /// The ID as given.
    pub id: &'a str,
    /// Character range `[start, end)` of the hashed part of the ID (placed documents).
    pub hashed_chars: Option<[u32; 2]>,
    /// The collection, when known.
    pub collection: Option<&'a str>,
    /// The size, when known.
    pub size: Option<u64>,
    /// The final bucket (placed documents).
    pub bucket: Option<u32>,
    /// The shard (placed documents).
    pub shard: Option<u32>,
    /// The anchored group: its rank in [`Placement::groups`](super::Placement::groups),
    /// the largest first (it changes as groups grow and shrink).
    pub group: Option<u32>,
    /// The anchored group's anchor (lower-cased).
    pub group_anchor: Option<&'a str>,
    /// The documents in the anchored group.
    pub group_documents: Option<u64>,
    /// Why the document was not placed.
    pub error: Option<&'a str>,
    /// The ID the chapter's design generated for it (its ID ends in `$`).
    pub generated: Option<&'a str>,
}

/// The row of document `index`; `ranked`: with its group's rank ([`Placement::row`]).
pub(super) fn row(p: &Placement, index: usize, ranked: bool) -> Option<Row<'_>> {
    let place = if ranked {
        p.place(index)
    } else {
        p.place_unranked(index)
    };
    let label = p.group_label(index);
    Some(Row {
        index: u32::try_from(index).ok()?,
        id: p.id(index)?,
        hashed_chars: place.map(|x| x.hashed_chars),
        collection: p.collection(index),
        size: p.size(index),
        bucket: place.map(|x| x.bucket),
        shard: place.map(|x| x.shard),
        group: place.and_then(|x| x.group),
        group_anchor: label.map(|(anchor, _)| anchor),
        group_documents: label.map(|(_, documents)| documents),
        error: p.error(index).map(|e| e.message.as_str()),
        generated: p.generated_id(index),
    })
}

pub(super) fn rows(p: &Placement, query: &RowQuery) -> RowView {
    super::rows_job::RowsJob::new(p, query).finish(p)
}

impl RowView {
    /// Every document: in input order (`order` `None`) or in a sort order.
    pub(super) fn unfiltered(len: usize, order: Option<Arc<Order>>, descending: bool) -> RowView {
        let rows = match order {
            None => Rows::All { len, descending },
            Some(order) => Rows::Sorted { order, descending },
        };
        RowView { rows }
    }

    /// The documents a filter kept, in order.
    pub(super) fn kept(indices: Vec<u32>) -> RowView {
        RowView {
            rows: Rows::Kept(indices),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Document;
    use ravenshard::Topology;

    #[test]
    fn a_view_without_a_filter_makes_no_list() {
        let docs = ["b", "a", "c"].map(Document::new);
        let p = Placement::new(
            &docs,
            &Topology::with_shards(3).unwrap(),
            &Default::default(),
        );
        let all = p.rows(&RowQuery::default());
        assert!(matches!(all.rows, Rows::All { len: 3, .. }));
        assert_eq!(all.slice(1, 9), [1, 2]);
        let by_id = RowQuery {
            sort: SortKey::Id,
            descending: true,
            ..Default::default()
        };
        let sorted = p.rows(&by_id);
        assert!(matches!(sorted.rows, Rows::Sorted { .. }));
        assert_eq!(sorted.indices(), [2, 0, 1]);
        let filtered = p.rows(&RowQuery {
            text: "A".into(),
            ..by_id
        });
        assert!(matches!(filtered.rows, Rows::Kept(_)));
        assert_eq!(filtered.indices(), [1]);
    }
}
