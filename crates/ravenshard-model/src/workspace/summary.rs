//! What the studio shows of a placement at once, whatever its number of documents: the
//! totals, the shards, the nodes × shards table, the blocks and the anchored groups'
//! count, O(shards) to make. A view that renders from a [`Summary`] holds no reference to
//! the documents, so the placement can live elsewhere (a worker) and send the summary of
//! each version it makes.

use super::{Balance, Block, NodeMatrix, Placement, ShardSummary, Totals};
use serde::{Deserialize, Serialize};

/// The figures of a placement that every view shows, copied out of it
/// ([`Placement::summary`]): plain data, serialisable.
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{Document, Placement};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(3).unwrap();
/// let docs = ["orders/1$users/4", "users/4", ""].map(Document::new);
/// let p = Placement::new(&docs, &t, &Default::default());
/// let summary = p.summary();
/// assert_eq!(summary.documents, 3);
/// assert_eq!(summary.totals.invalid, 1);
/// assert_eq!(summary.shards.len(), 3);
/// assert_eq!(summary.groups, 1);
/// assert_eq!(summary.database, "db");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// How many documents the placement holds, placed or not ([`Placement::len`]).
    pub documents: usize,
    /// How many of them have a body ([`Placement::bodies`]): what the advisor reads
    /// references from.
    pub bodies: usize,
    /// Counts over all documents.
    pub totals: Totals,
    /// One summary per shard, in ascending shard order.
    pub shards: Vec<ShardSummary>,
    /// How even the documents per shard are.
    pub document_balance: Balance,
    /// How even the known bytes per shard are.
    pub byte_balance: Balance,
    /// Nodes × shards.
    pub matrix: NodeMatrix,
    /// The 2^20-bucket blocks, in bucket order.
    pub blocks: Vec<Block>,
    /// One past the last bucket of the topology.
    pub bucket_space: u64,
    /// How many anchored groups there are.
    pub groups: usize,
    /// The obese threshold in force.
    pub obese_threshold: u64,
    /// The topology's database name.
    pub database: String,
    /// What the bucket statistics hold, when the placement was made from them instead of
    /// documents.
    pub statistics: Option<StatisticsShape>,
}

/// The shape of bucket statistics placed instead of documents
/// ([`Placement::from_statistics`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatisticsShape {
    /// The documents they count.
    pub documents: u64,
    /// The ranges of buckets they give figures for.
    pub ranges: u64,
    /// How many of those ranges hold more than one bucket (their figures are per range).
    pub coarse: u64,
    /// The most buckets one range holds.
    pub widest: u64,
}

impl Placement {
    /// What every view shows of the placement ([`Summary`]): O(shards × ranges + nodes ×
    /// shards + blocks), whatever the number of documents. It reads nothing that needs the
    /// anchored groups in order (their ranks, the obese ones among them): a new
    /// workspace's summary sorts none of them (about 125 ms for the 400,000 groups of ten
    /// million generated documents).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(3).unwrap();
    /// let docs = ["a/1$users/4", "a/2$users/5"].map(Document::new);
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// assert_eq!(p.summary().groups, 2);
    /// assert!(!p.groups_ranked());
    /// ```
    pub fn summary(&self) -> Summary {
        Summary {
            documents: self.len(),
            bodies: self.bodies(),
            totals: *self.totals(),
            shards: self.shards().to_vec(),
            document_balance: self.document_balance(),
            byte_balance: self.byte_balance(),
            matrix: self.matrix().clone(),
            blocks: self.blocks().to_vec(),
            bucket_space: self.bucket_space(),
            groups: self.group_count(),
            obese_threshold: self.obese_threshold(),
            database: self.topology().database().to_string(),
            statistics: self.statistics().map(|s| StatisticsShape {
                documents: s.total().docs,
                ranges: s.ranges().len() as u64,
                coarse: s.coarse_ranges() as u64,
                widest: s.ranges().iter().map(|r| r.resolution()).max().unwrap_or(1),
            }),
        }
    }
}
