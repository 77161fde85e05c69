//! A plan: which bucket runs change shard between two topologies, and what moving them
//! costs.

use super::estimate::{BucketCost, Estimate};
use super::load::{Amount, BucketLoad, Measure};
use super::note::PlanNote;
use super::ReshardError;
use ravenshard::casing::ordinal_ignore_case;
use ravenshard::{BucketRange, Topology, NUMBER_OF_BUCKETS};
use serde::{Deserialize, Serialize, Serializer};
use std::cmp::Ordering;

/// A maximal run of consecutive buckets, within one block, that changes from one shard to
/// another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The run's first bucket.
    pub from_bucket: u32,
    /// The run's last bucket (inclusive).
    pub to_bucket: u32,
    /// The shard that owns the run now.
    pub from_shard: u32,
    /// The shard that owns it in the target.
    pub to_shard: u32,
    /// Documents in the run.
    pub docs: u64,
    /// Bytes of those documents with a known size.
    pub bytes: u64,
}

impl Move {
    /// How many buckets the run holds.
    pub fn buckets(&self) -> u64 {
        u64::from(self.to_bucket - self.from_bucket) + 1
    }
}

/// One shard before and after a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardChange {
    /// The shard number.
    pub shard: u32,
    /// Documents now.
    pub docs_before: u64,
    /// Documents in the target.
    pub docs_after: u64,
    /// Bytes now.
    pub bytes_before: u64,
    /// Bytes in the target.
    pub bytes_after: u64,
    /// Buckets it owns now (0 when the shard is new).
    pub buckets_before: u64,
    /// Buckets it owns in the target (0 when the shard is removed).
    pub buckets_after: u64,
}

impl ShardChange {
    /// What the shard holds now (`after` false) or in the target (`after` true).
    pub fn held(&self, after: bool) -> Amount {
        if after {
            Amount {
                docs: self.docs_after,
                bytes: self.bytes_after,
            }
        } else {
            Amount {
                docs: self.docs_before,
                bytes: self.bytes_before,
            }
        }
    }
}

/// How fast a migration moves data, for the time estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "unit", content = "per_second", rename_all = "snake_case")]
pub enum Throughput {
    /// Bytes per second.
    Bytes(f64),
    /// Documents per second.
    Docs(f64),
}

impl Throughput {
    /// Reads `50MB/s`, `1.5GB/s`, `800KB/s`, `1000000B/s` (decimal units) or
    /// `20000docs/s`; the `/s` may be left out.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::Throughput;
    ///
    /// assert_eq!(Throughput::parse("50MB/s"), Ok(Throughput::Bytes(50e6)));
    /// assert_eq!(Throughput::parse("20000 docs/s"), Ok(Throughput::Docs(20000.0)));
    /// assert!(Throughput::parse("fast").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Throughput, ThroughputError> {
        let t = text.trim();
        let t = t.strip_suffix("/s").unwrap_or(t).trim_end();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = (t[..split].trim(), t[split..].trim());
        let bad = || ThroughputError {
            text: text.to_string(),
        };
        let value = number
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(bad)?;
        let scaled = |factor: f64| Throughput::Bytes(value * factor);
        let throughput = match unit.to_ascii_lowercase().as_str() {
            "docs" | "doc" | "documents" => Throughput::Docs(value),
            "b" | "bytes" => scaled(1.0),
            "kb" => scaled(1e3),
            "mb" => scaled(1e6),
            "gb" => scaled(1e9),
            _ => return Err(bad()),
        };
        match throughput {
            Throughput::Bytes(v) | Throughput::Docs(v) if v > 0.0 && v.is_finite() => {
                Ok(throughput)
            }
            _ => Err(bad()),
        }
    }
}

/// A throughput that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThroughputError {
    /// The text as given.
    pub text: String,
}

impl std::fmt::Display for ThroughputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "'{}' is not a throughput. Write a positive number with a unit: 50MB/s, 800KB/s, \
             1GB/s or 20000docs/s.",
            self.text
        )
    }
}

impl std::error::Error for ThroughputError {}

/// How a plan counts and estimates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanOptions {
    /// What the skew and the share moved count.
    pub measure: Measure,
    /// The speed of the migration, for the data term of [`Plan::estimate`]; `None` for no
    /// data term.
    pub throughput: Option<Throughput>,
    /// What migrating one bucket costs, for the buckets term of [`Plan::estimate`].
    pub bucket_cost: BucketCost,
}

/// The moves from one topology to another, and what they cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// The bucket runs that change shard, in bucket order.
    pub moves: Vec<Move>,
    /// Buckets that change shard.
    pub buckets_moved: u64,
    /// Documents in them.
    pub docs_moved: u64,
    /// Bytes in them.
    pub bytes_moved: u64,
    /// The share of all the data (by [`measure`](Plan::measure)) that moves, 0..=1.
    pub share_moved: f64,
    /// What the skews and the share count.
    pub measure: Measure,
    /// Every shard of either topology, before and after.
    pub per_shard: Vec<ShardChange>,
    /// The largest shard over the mean, now (by [`measure`](Plan::measure)); `null` when
    /// nothing is held.
    pub skew_before: Option<f64>,
    /// The same in the target.
    pub skew_after: Option<f64>,
    /// Every document, as counted.
    pub docs: u64,
    /// Every byte, as counted.
    pub bytes: u64,
    /// The time the plan takes, in seconds: the data at the given throughput plus the
    /// buckets moved times the cost of a bucket ([`Estimate::total_seconds`]); `null`
    /// without a throughput, or for a bytes throughput when no document has a size.
    pub estimate_seconds: Option<f64>,
    /// The estimate term by term: the data term, and the buckets term (known without a
    /// throughput).
    pub estimate: Estimate,
    /// What else the user should know.
    pub notes: Vec<PlanNote>,
    /// The target configuration in RavenDB's `ShardingConfiguration` JSON: the record
    /// RavenDB ends with after the plan's calls (its `MoveBucket`, bucket by bucket in the
    /// calls' order), empty ranges included; it places every bucket as the target asked
    /// unless a note says otherwise.
    #[serde(serialize_with = "as_configuration")]
    pub target: Topology,
}

fn as_configuration<S: Serializer>(t: &Topology, s: S) -> Result<S::Ok, S::Error> {
    t.to_configuration().serialize(s)
}

/// The plan that takes `current` to `target`, counting the documents of `load` (placed by
/// `current`; a plan never changes a document's bucket).
///
/// Errors when a prefix's block moves, or when a block the target drops still holds
/// documents. Check added prefixes against the documents' IDs with
/// [`check_prefix_changes`](super::check_prefix_changes).
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{plan, BucketLoad, PlanOptions};
/// use ravenshard::Topology;
///
/// let current = Topology::with_shards(2).unwrap();
/// let target = Topology::from_json(r#"{"Shards": {"0": {}, "1": {}},
///     "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
///                      {"BucketRangeStart": 600000, "ShardNumber": 1}]}"#).unwrap();
/// let load = BucketLoad::from_buckets([(550_000, Some(10)), (700_000, Some(5))]);
/// let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
/// assert_eq!(p.moves.len(), 1);
/// assert_eq!((p.moves[0].from_bucket, p.moves[0].to_bucket), (524288, 599999));
/// assert_eq!((p.moves[0].from_shard, p.moves[0].to_shard, p.moves[0].docs), (1, 0, 1));
/// assert_eq!(p.buckets_moved, 75712);
/// assert_eq!(p.share_moved, 0.5);
/// ```
pub fn plan(
    current: &Topology,
    target: &Topology,
    load: &BucketLoad,
    options: &PlanOptions,
) -> Result<Plan, ReshardError> {
    let mut notes = prefix_notes(current, target, load)?;
    let moves = changes(current.ranges(), target.ranges(), load);
    let moved = moves.iter().fold(Amount::default(), |mut a, m| {
        a.docs += m.docs;
        a.bytes += m.bytes;
        a
    });
    let total = load.total();
    let measure = options.measure;
    let share = |part: u64, whole: u64| {
        if whole == 0 {
            0.0
        } else {
            part as f64 / whole as f64
        }
    };
    let per_shard = shard_changes(current, target, load);
    notes.extend(shard_notes(current, target, &per_shard));
    if moves.is_empty() {
        notes.push(PlanNote::NothingMoves);
    }
    let none = |_| false;
    notes.extend(super::resolution::per_range_note(
        load, current, target, &moves, &none,
    ));
    let buckets_moved: u64 = moves.iter().map(Move::buckets).sum();
    let estimate = Estimate::new(
        buckets_moved,
        moved,
        total,
        options.throughput,
        options.bucket_cost,
    );
    if options.throughput.is_some() && estimate.data_seconds.is_none() {
        notes.push(PlanNote::NoSizesForEstimate);
    }
    let mut plan = Plan {
        buckets_moved,
        docs_moved: moved.docs,
        bytes_moved: moved.bytes,
        share_moved: share(moved.by(measure), total.by(measure)),
        measure,
        skew_before: ravenshard::report::skew(shard_loads(&per_shard, current, false, measure)),
        skew_after: ravenshard::report::skew(shard_loads(&per_shard, target, true, measure)),
        docs: total.docs,
        bytes: total.bytes,
        estimate_seconds: estimate.total_seconds,
        estimate,
        moves,
        per_shard,
        notes,
        target: target.clone(),
    };
    super::replay::as_server_leaves_it(current, &mut plan);
    Ok(plan)
}

/// The load of each shard of `topology`, before or after.
fn shard_loads(
    per_shard: &[ShardChange],
    topology: &Topology,
    after: bool,
    measure: Measure,
) -> Vec<u64> {
    per_shard
        .iter()
        .filter(|c| topology.shard(c.shard).is_some())
        .map(|c| c.held(after).by(measure))
        .collect()
}

/// The runs whose shard differs between `current` and `target`, merged into maximal runs
/// within each block.
fn changes(current: &[BucketRange], target: &[BucketRange], load: &BucketLoad) -> Vec<Move> {
    let mut runs: Vec<(u32, u32, u32, u32)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while let (Some(c), Some(t)) = (current.get(i), target.get(j)) {
        let (lo, hi) = (c.start.max(t.start), c.end.min(t.end));
        if lo < hi && c.shard != t.shard {
            match runs.last_mut() {
                Some(last)
                    if last.1 == lo
                        && lo % NUMBER_OF_BUCKETS != 0
                        && (last.2, last.3) == (c.shard, t.shard) =>
                {
                    last.1 = hi
                }
                _ => runs.push((lo, hi, c.shard, t.shard)),
            }
        }
        match c.end.cmp(&t.end) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    runs.into_iter()
        .map(|(start, end, from_shard, to_shard)| {
            let held = load.in_range(start, u64::from(end));
            Move {
                from_bucket: start,
                to_bucket: end - 1,
                from_shard,
                to_shard,
                docs: held.docs,
                bytes: held.bytes,
            }
        })
        .collect()
}

/// Every shard of either topology with what it holds before and after.
fn shard_changes(current: &Topology, target: &Topology, load: &BucketLoad) -> Vec<ShardChange> {
    let before = load.per_shard(current.ranges());
    let after = load.per_shard(target.ranges());
    let buckets = |t: &Topology, shard: u32| -> u64 {
        t.ranges()
            .iter()
            .filter(|r| r.shard == shard)
            .map(|r| u64::from(r.end - r.start))
            .sum()
    };
    let mut shards: Vec<u32> = current
        .shards()
        .chain(target.shards())
        .map(|s| s.number)
        .collect();
    shards.sort();
    shards.dedup();
    shards
        .into_iter()
        .map(|shard| {
            let b = before.get(&shard).copied().unwrap_or_default();
            let a = after.get(&shard).copied().unwrap_or_default();
            ShardChange {
                shard,
                docs_before: b.docs,
                docs_after: a.docs,
                bytes_before: b.bytes,
                bytes_after: a.bytes,
                buckets_before: buckets(current, shard),
                buckets_after: buckets(target, shard),
            }
        })
        .collect()
}

/// Notes on added and removed shards.
fn shard_notes(current: &Topology, target: &Topology, changes: &[ShardChange]) -> Vec<PlanNote> {
    let mut notes = Vec::new();
    for c in changes {
        match (current.shard(c.shard), target.shard(c.shard)) {
            (None, Some(_)) if c.buckets_after == 0 => {
                notes.push(PlanNote::ShardAddedEmpty { shard: c.shard })
            }
            (Some(_), None) => notes.push(PlanNote::ShardRemoved { shard: c.shard }),
            _ => {}
        }
    }
    notes
}

/// Checks that prefixes keep their blocks and that a dropped block holds nothing; notes
/// added and removed prefixes.
fn prefix_notes(
    current: &Topology,
    target: &Topology,
    load: &BucketLoad,
) -> Result<Vec<PlanNote>, ReshardError> {
    let same = |a: &str, b: &str| ordinal_ignore_case(a, b) == Ordering::Equal;
    let mut notes = Vec::new();
    for p in current.prefixes() {
        match target
            .prefixes()
            .iter()
            .find(|q| same(&q.prefix, &p.prefix))
        {
            Some(q) if q.bucket_range_start != p.bucket_range_start => {
                return Err(ReshardError::PrefixBlockMoved {
                    prefix: p.prefix.clone(),
                    from: p.bucket_range_start,
                    to: q.bucket_range_start,
                })
            }
            Some(_) => {}
            None => {
                let start = p.bucket_range_start;
                let held = load.in_range(start, u64::from(start) + u64::from(NUMBER_OF_BUCKETS));
                if held.docs > 0 {
                    return Err(ReshardError::PrefixHasDocuments {
                        database: current.database().to_string(),
                        prefix: p.prefix.clone(),
                        adding: false,
                        documents: held.docs,
                        example: None,
                    });
                }
                notes.push(PlanNote::PrefixRemoved {
                    prefix: p.prefix.clone(),
                });
            }
        }
    }
    for q in target.prefixes() {
        if !current
            .prefixes()
            .iter()
            .any(|p| same(&p.prefix, &q.prefix))
        {
            notes.push(PlanNote::PrefixAdded {
                prefix: q.prefix.clone(),
                block_start: q.bucket_range_start,
            });
        }
    }
    Ok(notes)
}
