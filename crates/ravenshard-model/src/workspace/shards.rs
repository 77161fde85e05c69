//! The shards view: documents and bytes per shard, how even they are, and the blocks.

use super::histogram::Load;
use super::loads::Loads;
use ravenshard::report::skew;
use ravenshard::{BucketRange, Topology, NUMBER_OF_BUCKETS};
use serde::{Deserialize, Serialize};

/// One shard (fragment database) and what it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardSummary {
    /// The shard number.
    pub shard: u32,
    /// Its fragment database, `<database>$<shard>`.
    pub fragment: String,
    /// The bucket ranges it owns, in bucket order.
    pub ranges: Vec<BucketRange>,
    /// How many buckets those ranges hold.
    pub buckets: u64,
    /// Its member nodes, as configured.
    pub nodes: Vec<String>,
    /// Placed documents on the shard.
    pub documents: u64,
    /// Sum of their known sizes, in bytes.
    pub bytes: u64,
    /// Its documents without a size.
    pub without_size: u64,
    /// Its share of the placed documents, 0..=1 (0 without documents).
    pub document_share: f64,
    /// Its share of the known bytes, 0..=1 (0 without sizes).
    pub byte_share: f64,
}

/// How even a load is across shards. The thresholds are this tool's rule of thumb, not
/// RavenDB's: the server neither computes nor acts on skew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BalanceVerdict {
    /// Skew at most [`BalanceVerdict::BALANCED_MAX`] (the largest shard at most 10% above
    /// the mean).
    Balanced,
    /// Skew above that, at most [`BalanceVerdict::UNEVEN_MAX`].
    Uneven,
    /// Skew above [`BalanceVerdict::UNEVEN_MAX`]: one shard carries half again the mean or
    /// more.
    Lopsided,
}

impl BalanceVerdict {
    /// The largest skew still called balanced.
    pub const BALANCED_MAX: f64 = 1.1;
    /// The largest skew still called uneven rather than lopsided.
    pub const UNEVEN_MAX: f64 = 1.5;

    /// The verdict for a skew (largest over mean, see [`skew`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::BalanceVerdict;
    ///
    /// assert_eq!(BalanceVerdict::from_skew(1.1), BalanceVerdict::Balanced);
    /// assert_eq!(BalanceVerdict::from_skew(1.3), BalanceVerdict::Uneven);
    /// assert_eq!(BalanceVerdict::from_skew(3.0), BalanceVerdict::Lopsided);
    /// ```
    pub fn from_skew(skew: f64) -> BalanceVerdict {
        if skew <= Self::BALANCED_MAX {
            BalanceVerdict::Balanced
        } else if skew <= Self::UNEVEN_MAX {
            BalanceVerdict::Uneven
        } else {
            BalanceVerdict::Lopsided
        }
    }
}

/// Skew of a per-shard load and its verdict; both `None` when there is no load.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    /// Largest shard over mean shard ([`skew`]); every shard of the topology counts,
    /// including one that owns no buckets.
    pub skew: Option<f64>,
    /// The verdict for the skew.
    pub verdict: Option<BalanceVerdict>,
}

impl Balance {
    /// The balance of per-shard loads.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Balance, BalanceVerdict};
    ///
    /// let b = Balance::of([35, 33, 32]);
    /// assert_eq!(b.verdict, Some(BalanceVerdict::Balanced));
    /// assert_eq!(Balance::of([40, 30, 30]).verdict, Some(BalanceVerdict::Uneven));
    /// assert_eq!(Balance::of([0, 0]).skew, None);
    /// ```
    pub fn of(loads: impl IntoIterator<Item = u64>) -> Balance {
        let skew = skew(loads);
        Balance {
            skew,
            verdict: skew.map(BalanceVerdict::from_skew),
        }
    }
}

/// A 2^20-bucket block of the bucket map: the default block or a prefix's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// Its first bucket.
    pub start: u32,
    /// One past its last bucket.
    pub end: u64,
    /// The prefix that owns it (`None` for the default block).
    pub prefix: Option<String>,
    /// Placed documents in it.
    pub documents: u64,
    /// Sum of their known sizes.
    pub bytes: u64,
}

/// One summary per shard, from the per-shard aggregates (`loads`, by shard position):
/// O(shards × ranges), whatever the number of documents.
pub(super) fn summaries(topology: &Topology, loads: &[Load]) -> Vec<ShardSummary> {
    let documents: Vec<u64> = loads.iter().map(|l| l.documents).collect();
    let bytes: Vec<u64> = loads.iter().map(|l| l.bytes).collect();
    let without_size: Vec<u64> = loads.iter().map(|l| l.without_size).collect();
    let total_documents: u64 = documents.iter().sum();
    let total_bytes = bytes.iter().fold(0u64, |a, b| a.saturating_add(*b));
    let share = |part: u64, whole: u64| {
        if whole == 0 {
            0.0
        } else {
            part as f64 / whole as f64
        }
    };
    topology
        .shards()
        .enumerate()
        .map(|(p, s)| {
            let ranges: Vec<BucketRange> = topology
                .ranges()
                .iter()
                .filter(|r| r.shard == s.number)
                .copied()
                .collect();
            ShardSummary {
                shard: s.number,
                fragment: topology.fragment(s.number),
                buckets: ranges.iter().map(|r| u64::from(r.end - r.start)).sum(),
                ranges,
                nodes: s.members.clone(),
                documents: documents[p],
                bytes: bytes[p],
                without_size: without_size[p],
                document_share: share(documents[p], total_documents),
                byte_share: share(bytes[p], total_bytes),
            }
        })
        .collect()
}

pub(super) fn blocks(topology: &Topology, loads: &Loads) -> Vec<Block> {
    let mut blocks: Vec<(u32, Option<String>)> = std::iter::once((0, None))
        .chain(
            topology
                .prefixes()
                .iter()
                .map(|p| (p.bucket_range_start, Some(p.prefix.clone()))),
        )
        .collect();
    blocks.sort_by_key(|(start, _)| *start);
    blocks
        .into_iter()
        .map(|(start, prefix)| {
            let end = u64::from(start) + u64::from(NUMBER_OF_BUCKETS);
            let load = loads
                .block_starts
                .binary_search(&start)
                .ok()
                .and_then(|b| loads.blocks.get(b))
                .copied()
                .unwrap_or_default();
            let (documents, bytes) = (load.documents, load.bytes);
            Block {
                start,
                end,
                prefix,
                documents,
                bytes,
            }
        })
        .collect()
}
