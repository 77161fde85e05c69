//! Bucket statistics over time: several [`Snapshot`]s of a cluster's own bucket statistics
//! (RavenDB's `debug/sharding/buckets` answers, saved at different times) side by side, as
//! a grid of bucket ranges × times: which ranges grow, and which shard takes the growth.
//!
//! Each snapshot is one set of answers, merged as [`BucketStatistics::read`] merges them
//! (per-shard answers, drill-downs). Its time is the one the caller gives (a file's time),
//! else the latest `LastModified` of its ranges; the snapshots are ordered by it.
//!
//! The answers may use different range sizes (RavenDB's `range` parameter; a drill-down is
//! finer). The grid uses the coarsest size given, so every figure is the server's own sum
//! and none is split: its bins are `width` buckets each, aligned as RavenDB aligns a range
//! (`FromBucket = (bucket / range) * range`, counted from the block's start). A shard's
//! figures come from the ranges whose `ShardNumbers` name that one shard; a range that
//! names several (the orchestrator's sum over a range that straddles two shards, or a
//! bucket being moved) or none (a single bucket's answer) is counted as shared.

use crate::statistics::{BucketStatistics, Source, StatisticsError, StatisticsRange};
use crate::Amount;
use jiff::Timestamp;
use ravenshard::NUMBER_OF_BUCKETS;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// One set of bucket statistics, taken at one time.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// What it is called (a file or folder name).
    pub name: String,
    /// When it was taken, if the caller knows (a file's time); else
    /// [`Snapshot::time`] is the latest `LastModified` of its ranges.
    pub taken: Option<Timestamp>,
    /// Its statistics.
    pub statistics: BucketStatistics,
}

impl Snapshot {
    /// When the snapshot was taken: [`taken`](Snapshot::taken) if given, else the latest
    /// `LastModified` of its ranges that reads as an RFC 3339 time.
    pub fn time(&self) -> Option<Timestamp> {
        self.taken.or_else(|| {
            self.statistics
                .ranges()
                .iter()
                .filter_map(|r| r.last_modified.as_deref()?.parse::<Timestamp>().ok())
                .max()
        })
    }
}

/// Why snapshots cannot be laid side by side.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GrowthError {
    /// Fewer than two snapshots: growth needs a before and an after.
    TooFew {
        /// How many were given.
        count: usize,
    },
    /// A snapshot has no time: neither given nor a `LastModified` in its ranges.
    NoTime {
        /// The snapshot's name.
        snapshot: String,
    },
    /// A range does not fit one bin of the coarsest size given (range sizes that do not
    /// divide one another).
    Unaligned {
        /// Where the range was read.
        at: Source,
        /// The bins' size.
        width: u32,
    },
    /// A snapshot's statistics could not be read.
    Statistics(StatisticsError),
}

impl fmt::Display for GrowthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrowthError::TooFew { count } => write!(
                f,
                "{count} snapshot(s) of bucket statistics: give at least two, taken at \
                 different times, to see what grows"
            ),
            GrowthError::NoTime { snapshot } => write!(
                f,
                "{snapshot}: no time for these statistics (no range has a LastModified): give \
                 the time they were taken"
            ),
            GrowthError::Unaligned { at, width } => write!(
                f,
                "{at}: this range does not fit one range of {width} buckets, the coarsest \
                 size of the snapshots; save every answer with range sizes that divide one \
                 another (RavenDB's range parameter, such as 32768 and 1024)"
            ),
            GrowthError::Statistics(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GrowthError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GrowthError::Statistics(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StatisticsError> for GrowthError {
    fn from(e: StatisticsError) -> Self {
        GrowthError::Statistics(e)
    }
}

/// One snapshot's figures in the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SnapshotFigures {
    /// Its name.
    pub name: String,
    /// Its time.
    pub time: Timestamp,
    /// Every document and byte.
    pub total: Amount,
    /// By shard, ascending: the ranges that name one shard.
    pub shards: Vec<ShardFigures>,
    /// The ranges that name several shards or none.
    pub shared: Amount,
}

/// A shard's documents and bytes in a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ShardFigures {
    /// The shard number.
    pub shard: u32,
    /// Its documents and bytes.
    #[serde(flatten)]
    pub amount: Amount,
}

/// One bin of the grid: `width` buckets and their figures at each time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrowthBin {
    /// The first bucket.
    pub from_bucket: u32,
    /// The last bucket (inclusive, as RavenDB's `ToBucket`).
    pub to_bucket: u32,
    /// The figures at each time, in the snapshots' order.
    pub amounts: Vec<Amount>,
    /// Every shard its ranges named, at any time, ascending.
    pub shards: Vec<u32>,
}

impl GrowthBin {
    /// Documents gained from the first time to the last (negative when they went).
    pub fn docs_change(&self) -> i64 {
        change(self.amounts.first(), self.amounts.last(), |a| a.docs)
    }

    /// Bytes gained from the first time to the last (negative when they went).
    pub fn bytes_change(&self) -> i64 {
        change(self.amounts.first(), self.amounts.last(), |a| a.bytes)
    }
}

/// What a bin gained from the first time to the last ([`Growth::growing`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Gain {
    /// The bin's first bucket.
    pub from_bucket: u32,
    /// Its last bucket (inclusive).
    pub to_bucket: u32,
    /// Documents gained (negative when they went).
    pub docs_change: i64,
    /// Bytes gained (negative when they went).
    pub bytes_change: i64,
    /// Every shard its ranges named, ascending.
    pub shards: Vec<u32>,
}

fn change(first: Option<&Amount>, last: Option<&Amount>, by: impl Fn(&Amount) -> u64) -> i64 {
    let at = |a: Option<&Amount>| i128::from(a.map_or(0, &by));
    let delta = at(last) - at(first);
    i64::try_from(delta).unwrap_or(if delta < 0 { i64::MIN } else { i64::MAX })
}

/// Snapshots side by side: bins of `width` buckets × times.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{growth, BucketStatistics, Snapshot};
///
/// let answer = |docs: u64, when: &str| format!(r#"{{"BucketRanges": {{"0": {{"ShardNumbers": [0],
///     "FromBucket": 0, "ToBucket": 32767, "NumberOfBuckets": 3, "RangeSize": {},
///     "DocumentsCount": {docs}, "LastModified": "{when}"}}}}}}"#, docs * 100);
/// let snapshot = |name: &str, docs, when| Snapshot {
///     name: name.into(),
///     taken: None,
///     statistics: BucketStatistics::read([(name, answer(docs, when).as_str())]).unwrap(),
/// };
/// let g = growth(vec![
///     snapshot("tuesday.json", 30, "2026-11-24T08:00:00.1234567Z"),
///     snapshot("monday.json", 10, "2026-11-23T08:00:00.1234567Z"),
/// ])
/// .unwrap();
/// assert_eq!(g.width(), 32768);
/// assert_eq!(g.snapshots()[0].name, "monday.json");
/// assert_eq!(g.bins()[0].docs_change(), 20);
/// assert_eq!(g.snapshots()[1].shards[0].amount.docs, 30);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Growth {
    width: u32,
    snapshots: Vec<SnapshotFigures>,
    bins: Vec<GrowthBin>,
}

impl Growth {
    /// Buckets per bin: the coarsest range size of the snapshots.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The snapshots' figures, oldest first.
    pub fn snapshots(&self) -> &[SnapshotFigures] {
        &self.snapshots
    }

    /// The bins that hold anything at any time, in bucket order.
    pub fn bins(&self) -> &[GrowthBin] {
        &self.bins
    }

    /// The `n` bins that gained the most documents (or bytes, with `by_bytes`), most first;
    /// bins that gained nothing are left out.
    pub fn growing(&self, n: usize, by_bytes: bool) -> Vec<Gain> {
        let gain = |b: &GrowthBin| {
            if by_bytes {
                b.bytes_change()
            } else {
                b.docs_change()
            }
        };
        let mut bins: Vec<&GrowthBin> = self.bins.iter().filter(|b| gain(b) > 0).collect();
        bins.sort_by_key(|b| (std::cmp::Reverse(gain(b)), b.from_bucket));
        bins.truncate(n);
        bins.into_iter()
            .map(|b| Gain {
                from_bucket: b.from_bucket,
                to_bucket: b.to_bucket,
                docs_change: b.docs_change(),
                bytes_change: b.bytes_change(),
                shards: b.shards.clone(),
            })
            .collect()
    }
}

/// Lays `snapshots` side by side, oldest first, in bins of the coarsest range size given:
/// no figure is split. A shard's figures are those of the ranges that name it alone.
pub fn growth(snapshots: Vec<Snapshot>) -> Result<Growth, GrowthError> {
    if snapshots.len() < 2 {
        return Err(GrowthError::TooFew {
            count: snapshots.len(),
        });
    }
    let mut timed = Vec::with_capacity(snapshots.len());
    for snapshot in snapshots {
        let time = snapshot.time().ok_or_else(|| GrowthError::NoTime {
            snapshot: snapshot.name.clone(),
        })?;
        timed.push((time, snapshot));
    }
    // Stable: snapshots of one time keep the order given.
    timed.sort_by_key(|(time, _)| *time);
    let all = || timed.iter().flat_map(|(_, s)| s.statistics.ranges());
    let width = all().map(resolution).max().unwrap_or(1);
    let mut bins: BTreeMap<u32, GrowthBin> = BTreeMap::new();
    let mut figures = Vec::with_capacity(timed.len());
    for (i, (time, snapshot)) in timed.iter().enumerate() {
        let mut f = SnapshotFigures {
            name: snapshot.name.clone(),
            time: *time,
            total: Amount::default(),
            shards: Vec::new(),
            shared: Amount::default(),
        };
        let mut shards: BTreeMap<u32, Amount> = BTreeMap::new();
        for range in snapshot.statistics.ranges() {
            let from = bin_start(range.from_bucket, width);
            if u64::from(range.to_bucket) >= u64::from(from) + u64::from(width) {
                return Err(GrowthError::Unaligned {
                    at: range.source.clone(),
                    width,
                });
            }
            let bin = bins.entry(from).or_insert_with(|| GrowthBin {
                from_bucket: from,
                to_bucket: from + (width - 1),
                amounts: vec![Amount::default(); timed.len()],
                shards: Vec::new(),
            });
            add(&mut bin.amounts[i], range);
            for &shard in &range.shards {
                if let Err(at) = bin.shards.binary_search(&shard) {
                    bin.shards.insert(at, shard);
                }
            }
            add(&mut f.total, range);
            match range.shards[..] {
                [shard] => add(shards.entry(shard).or_default(), range),
                _ => add(&mut f.shared, range),
            }
        }
        f.shards = shards
            .into_iter()
            .map(|(shard, amount)| ShardFigures { shard, amount })
            .collect();
        figures.push(f);
    }
    Ok(Growth {
        width,
        snapshots: figures,
        bins: bins.into_values().collect(),
    })
}

/// Buckets a range covers, at most a block's.
fn resolution(range: &StatisticsRange) -> u32 {
    u32::try_from(range.resolution()).unwrap_or(NUMBER_OF_BUCKETS)
}

/// The first bucket of the bin of `width` buckets that holds `bucket`, counted from the
/// start of its 2^20 block.
fn bin_start(bucket: u32, width: u32) -> u32 {
    let block = bucket - bucket % NUMBER_OF_BUCKETS;
    block + (bucket - block) / width * width
}

fn add(amount: &mut Amount, range: &StatisticsRange) {
    amount.docs = amount.docs.saturating_add(range.docs);
    amount.bytes = amount.bytes.saturating_add(range.bytes);
}

#[cfg(test)]
mod tests;
