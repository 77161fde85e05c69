//! Plans and balances over bucket statistics that give some figures per range of buckets:
//! the [`Workload`] they make, and the drill-downs that would resolve the ranges that matter.

use super::load::{Amount, BucketLoad};
use super::note::PlanNote;
use super::plan::Move;
use super::statistics::{BucketStatistics, StatisticsError, StatisticsRange};
use super::Workload;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use serde::Serialize;

/// How many drill-downs a note lists.
pub const MAX_DRILL_DOWNS: usize = 32;

/// A request for finer statistics of a range: RavenDB Studio's drill-down, 32 ranges across.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DrillDown {
    /// The range's first bucket.
    pub from_bucket: u32,
    /// Its last bucket.
    pub to_bucket: u32,
    /// The resolution to ask for: `(to - from + 1) / 32`, at least 1.
    pub range: u32,
    /// The documents the range holds.
    pub docs: u64,
    /// The bytes it holds.
    pub bytes: u64,
}

impl DrillDown {
    fn of(from_bucket: u32, to_bucket: u32, amount: Amount) -> DrillDown {
        DrillDown {
            from_bucket,
            to_bucket,
            range: ((to_bucket - from_bucket + 1) / 32).max(1),
            docs: amount.docs,
            bytes: amount.bytes,
        }
    }

    /// The request's path for database `database`
    /// (`/databases/db/debug/sharding/buckets?fromBucket=...&toBucket=...&range=...`).
    pub fn path(&self, database: &str) -> String {
        format!(
            "/databases/{database}/debug/sharding/buckets?fromBucket={}&toBucket={}&range={}",
            self.from_bucket, self.to_bucket, self.range
        )
    }
}

impl Workload {
    /// The workload of a cluster's bucket statistics, placed by `topology` (the database
    /// record the statistics were taken with). It has no document IDs. A range whose
    /// `ShardNumbers` name only some of the shards owning parts of it is narrowed to those
    /// parts.
    ///
    /// Errors when a range lies in a prefix block (buckets from 2^20 up) that no prefix of
    /// `topology` owns.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::{BucketStatistics, PlanOptions, Workload};
    /// use ravenshard::Topology;
    ///
    /// let s = BucketStatistics::read([("a.json", r#"{"BucketRanges": {"0": {"ShardNumbers": [0],
    ///   "FromBucket": 0, "ToBucket": 32767, "NumberOfBuckets": 9, "RangeSize": 900,
    ///   "DocumentsCount": 9}}}"#)]).unwrap();
    /// let t = Topology::with_shards(2).unwrap();
    /// let w = Workload::from_statistics(&s, &t).unwrap();
    /// assert_eq!(w.load.total().docs, 9);
    /// let p = w.plan(&t, &t, &PlanOptions::default()).unwrap();
    /// assert!(p.notes.iter().any(|n| n.kind() == "per_range"));
    /// ```
    pub fn from_statistics(
        statistics: &BucketStatistics,
        topology: &Topology,
    ) -> Result<Workload, StatisticsError> {
        let mut spans = Vec::with_capacity(statistics.ranges().len());
        for r in statistics.ranges() {
            check_block(r, topology)?;
            let (start, end) = owned_span(r, topology);
            let amount = Amount {
                docs: r.docs,
                bytes: r.bytes,
            };
            spans.push((start, end, amount));
        }
        Ok(Workload::of_load(BucketLoad::from_ranges(spans)))
    }
}

/// Errors when `r` is in a prefix block that `topology` gives no prefix.
fn check_block(r: &StatisticsRange, topology: &Topology) -> Result<(), StatisticsError> {
    let block = r.from_bucket / NUMBER_OF_BUCKETS;
    let owned = block == 0
        || topology
            .prefixes()
            .iter()
            .any(|p| p.bucket_range_start / NUMBER_OF_BUCKETS == block);
    if owned {
        Ok(())
    } else {
        Err(StatisticsError::NoPrefix {
            at: r.source.clone(),
            block_start: block * NUMBER_OF_BUCKETS,
        })
    }
}

/// The part of `r` owned by the shards its statistics name: from the first to the last
/// bucket range of `topology` that overlaps it and belongs to one of them; all of `r` when
/// it names none of them.
fn owned_span(r: &StatisticsRange, topology: &Topology) -> (u32, u32) {
    let parts: Vec<(u32, u32)> = topology
        .ranges()
        .iter()
        .filter(|t| t.start <= r.to_bucket && t.end > r.from_bucket)
        .filter(|t| r.shards.contains(&t.shard))
        .map(|t| (t.start.max(r.from_bucket), (t.end - 1).min(r.to_bucket)))
        .collect();
    match (parts.first(), parts.last()) {
        (Some(first), Some(last)) => (first.0, last.1),
        _ => (r.from_bucket, r.to_bucket),
    }
}

/// The note a plan over `load` carries when some of its figures are per range: the ranges
/// that `also` picks (by first bucket), that straddle a boundary of `current` or `target`, or hold the first or last bucket of a
/// move (a finer answer would let a balance take part of them), biggest
/// first, as drill-downs.
pub(crate) fn per_range_note(
    load: &BucketLoad,
    current: &Topology,
    target: &Topology,
    moves: &[Move],
    also: &dyn Fn(u32) -> bool,
) -> Option<PlanNote> {
    let mut ranges = 0usize;
    let mut buckets = 0u64;
    let mut matter: Vec<DrillDown> = Vec::new();
    let starts = |t: &Topology| t.ranges().iter().map(|r| r.start).collect::<Vec<u32>>();
    let (a, b) = (starts(current), starts(target));
    let cut = |s: &[u32], from: u32, to: u32| {
        let i = s.partition_point(|&x| x <= from);
        s.get(i).is_some_and(|&x| x <= to)
    };
    let at_edge = |from: u32, to: u32| {
        moves.iter().any(|m| {
            [m.from_bucket, m.to_bucket]
                .iter()
                .any(|&e| from <= e && e <= to)
        })
    };
    for (from, to, amount) in load.ranges() {
        ranges += 1;
        buckets += u64::from(to - from) + 1;
        if also(from) || cut(&a, from, to) || cut(&b, from, to) || at_edge(from, to) {
            matter.push(DrillDown::of(from, to, amount));
        }
    }
    if ranges == 0 {
        return None;
    }
    matter.sort_by_key(|d| std::cmp::Reverse((d.docs, d.bytes)));
    let unresolved = matter.len();
    matter.truncate(MAX_DRILL_DOWNS);
    Some(PlanNote::PerRange {
        ranges,
        buckets,
        unresolved,
        drill_downs: matter,
        database: current.database().to_string(),
    })
}
