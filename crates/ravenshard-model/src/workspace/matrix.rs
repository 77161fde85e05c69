//! Nodes × shards: a node that holds a shard holds every document of it.

use super::ShardSummary;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// What one node holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRow {
    /// The node tag.
    pub node: String,
    /// Per shard (in [`NodeMatrix::shards`] order): whether the node is a member of it.
    pub holds: Vec<bool>,
    /// Per shard: the shard's documents if the node holds it, else 0.
    pub documents: Vec<u64>,
    /// Per shard: the shard's known bytes if the node holds it, else 0.
    pub bytes: Vec<u64>,
    /// Documents on the node, over all the shards it holds.
    pub total_documents: u64,
    /// Bytes on the node.
    pub total_bytes: u64,
}

/// The nodes × shards table, like the chapter's "Distributing 100 users among 4 nodes and
/// 3 shards".
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{Document, Placement};
/// use ravenshard::Topology;
///
/// let mut t = Topology::with_shards(2).unwrap();
/// t.set_members(0, vec!["A".into(), "B".into()]);
/// t.set_members(1, vec!["B".into()]);
/// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
/// let m = Placement::new(&docs, &t, &Default::default()).matrix().clone();
/// assert_eq!(m.nodes(), ["A", "B"]);
/// assert_eq!(m.rows[0].documents, [1, 0]);
/// assert_eq!(m.rows[1].total_documents, 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeMatrix {
    /// The columns: shard numbers, ascending.
    pub shards: Vec<u32>,
    /// One row per node that is a member of any shard, in tag order (shorter tags first,
    /// then alphabetical: `A`, `B`, …, `Z`, `AA`).
    pub rows: Vec<NodeRow>,
    /// Shards with no member nodes: their documents are on no node.
    pub unheld: Vec<u32>,
}

impl NodeMatrix {
    pub(super) fn new(shards: &[ShardSummary]) -> NodeMatrix {
        let mut nodes: Vec<&str> = shards
            .iter()
            .flat_map(|s| s.nodes.iter().map(String::as_str))
            .collect();
        nodes.sort_by(|a, b| tag_order(a, b));
        nodes.dedup();
        let rows = nodes
            .into_iter()
            .map(|node| {
                let holds: Vec<bool> = shards
                    .iter()
                    .map(|s| s.nodes.iter().any(|n| n == node))
                    .collect();
                let pick = |value: fn(&ShardSummary) -> u64| -> Vec<u64> {
                    shards
                        .iter()
                        .zip(&holds)
                        .map(|(s, &h)| if h { value(s) } else { 0 })
                        .collect()
                };
                let documents = pick(|s| s.documents);
                let bytes = pick(|s| s.bytes);
                NodeRow {
                    node: node.to_string(),
                    total_documents: documents.iter().sum(),
                    total_bytes: bytes.iter().fold(0, |a: u64, b| a.saturating_add(*b)),
                    holds,
                    documents,
                    bytes,
                }
            })
            .collect();
        NodeMatrix {
            shards: shards.iter().map(|s| s.shard).collect(),
            rows,
            unheld: shards
                .iter()
                .filter(|s| s.nodes.is_empty())
                .map(|s| s.shard)
                .collect(),
        }
    }

    /// The node tags, in row order.
    pub fn nodes(&self) -> Vec<&str> {
        self.rows.iter().map(|r| r.node.as_str()).collect()
    }
}

/// Node tags in the order RavenDB hands them out: shorter first, then alphabetical.
fn tag_order(a: &str, b: &str) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}
