//! The time a plan takes on a cluster: the data it moves at a throughput, plus the buckets
//! it moves times what migrating one bucket costs the cluster, empty or not.
//!
//! RavenDB moves buckets one at a time (`ReshardingHandler.StartResharding` in
//! `src/Raven.Server/Documents/Sharding/Handlers/ReshardingHandler.cs` starts the next
//! bucket only when `ShardingStore.HasActiveMigrations` says the last one is done), and
//! every bucket, empty buckets included, goes through Raft commits on the cluster:
//! `StartBucketMigrationCommand`, `SourceMigrationSendCompletedCommand`, one
//! `DestinationMigrationConfirmCommand` per destination node and one
//! `SourceMigrationCleanupCommand` per source node
//! (`src/Raven.Server/ServerWide/Commands/Sharding/`). With a replication factor of 3 that
//! is 8 commits a bucket, each an update of the database record that the shards' nodes
//! apply before the next step can start. At about 5 ms a commit on a local network (the
//! leader's append, a majority's fsync and the apply), a bucket costs about 40 ms whatever
//! it holds: [`BucketCost::DEFAULT`]. Measure yours (a `resharding/start` over 1,000 empty
//! buckets, timed) and set it.

use super::load::Amount;
use super::plan::Throughput;
use serde::{Deserialize, Serialize};

/// What migrating one bucket costs the cluster besides its data, in seconds.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::BucketCost;
///
/// assert_eq!(BucketCost::parse("40ms").unwrap().seconds(), 0.04);
/// assert_eq!(BucketCost::parse("0.5s").unwrap().seconds(), 0.5);
/// assert_eq!(BucketCost::default(), BucketCost::DEFAULT);
/// assert!(BucketCost::parse("soon").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BucketCost(f64);

impl Default for BucketCost {
    fn default() -> Self {
        BucketCost::DEFAULT
    }
}

impl BucketCost {
    /// 40 ms: about 8 Raft commits a bucket (replication factor 3) at about 5 ms each; see
    /// the reasoning in `reshard/estimate.rs`.
    pub const DEFAULT: BucketCost = BucketCost(0.040);

    /// A cost of `seconds` a bucket; `None` unless finite and not negative.
    pub fn from_seconds(seconds: f64) -> Option<BucketCost> {
        (seconds.is_finite() && seconds >= 0.0).then_some(BucketCost(seconds))
    }

    /// The cost in seconds.
    pub fn seconds(self) -> f64 {
        self.0
    }

    /// Reads `40ms`, `0.04s`, `1500us` or a bare number of milliseconds (`40`).
    pub fn parse(text: &str) -> Result<BucketCost, BucketCostError> {
        let t = text.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = (t[..split].trim(), t[split..].trim());
        let bad = || BucketCostError {
            text: text.to_string(),
        };
        let value: f64 = number.parse().map_err(|_| bad())?;
        let scale = match unit.to_ascii_lowercase().as_str() {
            "" | "ms" => 1e-3,
            "s" => 1.0,
            "us" | "µs" => 1e-6,
            _ => return Err(bad()),
        };
        BucketCost::from_seconds(value * scale).ok_or_else(bad)
    }
}

/// A bucket cost that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BucketCostError {
    /// The text as given.
    pub text: String,
}

impl std::fmt::Display for BucketCostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "'{}' is not a cost per bucket. Write a duration that is not negative: 40ms, 0.04s \
             or 1500us.",
            self.text
        )
    }
}

impl std::error::Error for BucketCostError {}

/// Which term of an [`Estimate`] is the larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dominant {
    /// Moving the data takes longer.
    Data,
    /// Migrating the buckets one by one takes longer.
    Buckets,
}

/// The time a plan takes, term by term.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The data moved at the throughput, in seconds; `null` without a throughput, or for a
    /// bytes throughput when no document has a size.
    pub data_seconds: Option<f64>,
    /// Buckets migrated, empty ones included.
    pub buckets: u64,
    /// What one bucket costs, in seconds.
    pub bucket_cost_seconds: f64,
    /// `buckets × bucket_cost_seconds`.
    pub buckets_seconds: f64,
    /// Both terms; `null` when the data term is.
    pub total_seconds: Option<f64>,
    /// The larger term; `buckets` when the data term is unknown.
    pub dominant: Dominant,
}

impl Estimate {
    /// The estimate for `buckets` buckets holding `moved`, of a workspace holding `total`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::{Amount, BucketCost, Dominant, Estimate, Throughput};
    ///
    /// // 260,000 buckets holding 1 GB at 50 MB/s: 20 s of data, 10,400 s of buckets.
    /// let moved = Amount { docs: 1_000_000, bytes: 1_000_000_000 };
    /// let e = Estimate::new(260_000, moved, moved, Some(Throughput::Bytes(50e6)), BucketCost::DEFAULT);
    /// assert_eq!(e.data_seconds, Some(20.0));
    /// assert!((e.buckets_seconds - 10_400.0).abs() < 1e-6);
    /// assert_eq!(e.dominant, Dominant::Buckets);
    /// ```
    pub fn new(
        buckets: u64,
        moved: Amount,
        total: Amount,
        throughput: Option<Throughput>,
        cost: BucketCost,
    ) -> Estimate {
        let data_seconds = match throughput {
            Some(Throughput::Docs(rate)) => Some(moved.docs as f64 / rate),
            Some(Throughput::Bytes(rate)) if total.bytes > 0 || moved.docs == 0 => {
                Some(moved.bytes as f64 / rate)
            }
            _ => None,
        };
        let buckets_seconds = buckets as f64 * cost.seconds();
        Estimate {
            data_seconds,
            buckets,
            bucket_cost_seconds: cost.seconds(),
            buckets_seconds,
            total_seconds: data_seconds.map(|d| d + buckets_seconds),
            dominant: match data_seconds {
                Some(d) if d > buckets_seconds => Dominant::Data,
                _ => Dominant::Buckets,
            },
        }
    }
}
