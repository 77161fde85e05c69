//! Balancing: a target that evens documents or bytes across shards by moving as little
//! data as it can, in whole buckets.

use super::assign::{Assignment, Weighing};
use super::estimate::{BucketCost, Estimate};
use super::load::{BucketLoad, Measure, PerShard};
use super::note::PlanNote;
use super::objective::Objective;
use super::plan::{plan, Plan, PlanOptions, Throughput};
use super::resolution::per_range_note;
use super::ReshardError;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How to balance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceOptions {
    /// Even out documents or bytes.
    pub by: Measure,
    /// Shard number to weight; a shard not listed weighs 1. A shard of weight 2 takes twice
    /// the share of a shard of weight 1; weight 0 empties the shard of documents.
    pub weights: BTreeMap<u32, f64>,
    /// In percent: a shard within this much of its fair share is left alone, and nothing
    /// moves when every shard is.
    pub threshold: f64,
    /// The most buckets the plan may move.
    pub max_buckets: Option<u64>,
    /// The speed of the migration, for the time estimate.
    pub throughput: Option<Throughput>,
    /// What migrating one bucket costs, for the time estimate.
    pub bucket_cost: BucketCost,
    /// Few contiguous ranges, or few bucket migrations.
    pub objective: Objective,
}

impl Default for BalanceOptions {
    fn default() -> Self {
        BalanceOptions {
            by: Measure::Docs,
            weights: BTreeMap::new(),
            threshold: 5.0,
            max_buckets: None,
            throughput: None,
            bucket_cost: BucketCost::DEFAULT,
            objective: Objective::Contiguous,
        }
    }
}

impl BalanceOptions {
    /// The same options under another objective.
    pub fn with_objective(&self, objective: Objective) -> BalanceOptions {
        BalanceOptions {
            objective,
            ..self.clone()
        }
    }

    /// Reads weights written as `0=1,1=2` (shard=weight, comma-separated).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::BalanceOptions;
    ///
    /// let w = BalanceOptions::parse_weights("0=1, 1=2.5").unwrap();
    /// assert_eq!(w[&1], 2.5);
    /// assert!(BalanceOptions::parse_weights("1:2").is_err());
    /// ```
    pub fn parse_weights(text: &str) -> Result<BTreeMap<u32, f64>, WeightsError> {
        let mut weights = BTreeMap::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || WeightsError {
                part: part.to_string(),
            };
            let (shard, weight) = part.split_once('=').ok_or_else(bad)?;
            let shard: u32 = shard.trim().parse().map_err(|_| bad())?;
            let weight = weight
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(bad)?;
            weights.insert(shard, weight);
        }
        Ok(weights)
    }
}

/// A part of a weights list that is not `shard=weight`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightsError {
    /// The part as written.
    pub part: String,
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "'{}' is not a weight: write shard=weight pairs separated by commas, such as 0=1,1=2.",
            self.part
        )
    }
}

impl std::error::Error for WeightsError {}

/// A bucket too big for a fair share: buckets cannot be split, so it limits the balance
/// that can be reached (the chapter's "obese shard").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Obstacle {
    /// The bucket.
    pub bucket: u32,
    /// The shard that owns it now.
    pub shard: u32,
    /// Its documents.
    pub docs: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Its size over the largest fair share of any shard (above 1).
    pub fair_shares: f64,
}

/// A balanced target with its plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BalancePlan {
    /// The plan from the current configuration to the balanced target. With weights, its
    /// skews are each shard's load over its fair share, at the largest.
    #[serde(flatten)]
    pub plan: Plan,
    /// Buckets bigger than the largest fair share, biggest first (at most
    /// [`MAX_OBSTACLES`]).
    pub obstacles: Vec<Obstacle>,
    /// The options used.
    pub options: BalanceOptions,
    /// Bucket ranges in the target less those now (negative when ranges merge).
    pub ranges_added: i64,
    /// Bucket migrations the plan takes: every bucket moved, empty ones included.
    pub migrations: u64,
    /// The same balance under each objective, to compare (this one's included).
    pub objectives: Vec<ObjectiveSummary>,
}

/// What a balance under one objective would take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveSummary {
    /// The objective.
    pub objective: Objective,
    /// Bucket migrations, empty buckets included.
    pub migrations: u64,
    /// Bucket ranges added.
    pub ranges_added: i64,
    /// Documents moved.
    pub docs_moved: u64,
    /// Bytes moved.
    pub bytes_moved: u64,
    /// The skew reached.
    pub skew_after: Option<f64>,
    /// The time it takes, term by term.
    pub estimate: Estimate,
}

/// The most obstacles a balance lists.
pub const MAX_OBSTACLES: usize = 100;

/// Proposes a target that evens the load across shards, and the plan to reach it.
///
/// It moves, from the shards above their fair share to those below, just what brings every
/// shard within the threshold (all the way to the fair share with a threshold of 0), in
/// whole buckets, taken at the edges of ranges (next to the receiving shard's range when
/// one is adjacent, so ranges stay few; a new range is not cut for less than 0.25% of a
/// mean fair share). A prefix's buckets only go to that prefix's
/// shards. The skew never rises: if the moves found would not lower it, none is proposed.
///
/// That is the [`Objective::Contiguous`] balance; [`Objective::FewestMigrations`] moves
/// the fullest buckets first instead, one by one, so the same data moves in fewer bucket
/// migrations and more ranges. Either way the answer reports, in
/// [`objectives`](BalancePlan::objectives), the migrations and ranges added under both.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{balance, BalanceOptions, BucketLoad};
/// use ravenshard::Topology;
///
/// let current = Topology::with_shards(2).unwrap();
/// // Shard 0 (buckets 0..524288) holds 300 documents, shard 1 holds 100.
/// let docs = (0..300u32).map(|i| (i * 1000, None)).chain((0..100u32).map(|i| (600_000 + i, None)));
/// let load = BucketLoad::from_buckets(docs);
/// let b = balance(&current, &load, &BalanceOptions { threshold: 0.0, ..Default::default() }).unwrap();
/// assert_eq!(b.plan.docs_moved, 100);
/// assert_eq!(b.plan.skew_after, Some(1.0));
/// assert_eq!(b.plan.moves.len(), 1);
/// ```
pub fn balance(
    current: &Topology,
    load: &BucketLoad,
    options: &BalanceOptions,
) -> Result<BalancePlan, ReshardError> {
    let mut chosen = balance_without_comparison(current, load, options)?;
    for objective in Objective::ALL {
        if objective != options.objective {
            let summary = objective_summary(current, load, &options.with_objective(objective))?;
            chosen.objectives.push(summary);
        }
    }
    chosen.objectives.sort_by_key(|s| s.objective);
    Ok(chosen)
}

/// The figures of the balance under `options.objective`: one row of
/// [`BalancePlan::objectives`], for a comparison computed apart from the balance (the
/// studio shows the balance first, the other objective's figures when they come).
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{balance, objective_summary, BalanceOptions, BucketLoad, Objective};
/// use ravenshard::Topology;
///
/// let current = Topology::with_shards(2).unwrap();
/// let load = BucketLoad::from_buckets((0..300u32).map(|i| (i * 1000, None)));
/// let options = BalanceOptions { objective: Objective::FewestMigrations, ..Default::default() };
/// let fewest = objective_summary(&current, &load, &options).unwrap();
/// assert_eq!(balance(&current, &load, &BalanceOptions::default()).unwrap().objectives[1], fewest);
/// ```
pub fn objective_summary(
    current: &Topology,
    load: &BucketLoad,
    options: &BalanceOptions,
) -> Result<ObjectiveSummary, ReshardError> {
    Ok(balance_without_comparison(current, load, options)?.summary())
}

impl BalancePlan {
    /// This balance's figures, as a row of [`objectives`](BalancePlan::objectives).
    pub fn summary(&self) -> ObjectiveSummary {
        ObjectiveSummary {
            objective: self.options.objective,
            migrations: self.migrations,
            ranges_added: self.ranges_added,
            docs_moved: self.plan.docs_moved,
            bytes_moved: self.plan.bytes_moved,
            skew_after: self.plan.skew_after,
            estimate: self.plan.estimate,
        }
    }
}

/// [`balance`] under `options.objective` alone: its
/// [`objectives`](BalancePlan::objectives) hold its own figures only (half the work of
/// [`balance`]; [`objective_summary`] gives the other objective's).
pub fn balance_without_comparison(
    current: &Topology,
    load: &BucketLoad,
    options: &BalanceOptions,
) -> Result<BalancePlan, ReshardError> {
    let mut b = balance_one(current, load, options)?;
    b.objectives.push(b.summary());
    Ok(b)
}

fn balance_one(
    current: &Topology,
    load: &BucketLoad,
    options: &BalanceOptions,
) -> Result<BalancePlan, ReshardError> {
    let weights = weights(current, options)?;
    if !(0.0..=100.0).contains(&options.threshold) {
        return Err(ReshardError::BadThreshold {
            threshold: options.threshold,
        });
    }
    let by = options.by;
    let total = load.total();
    if by == Measure::Bytes && total.bytes == 0 && total.docs > 0 {
        return Err(ReshardError::NoSizes);
    }
    let held = load.per_shard(current.ranges());
    let loads: PerShard<f64> = weights
        .keys()
        .map(|&s| (s, held.get(&s).map_or(0, |a| a.by(by)) as f64))
        .collect();
    let sum: f64 = loads.values().sum();
    let weight_sum: f64 = weights.values().sum();
    let fair: PerShard<f64> = weights
        .iter()
        .map(|(&s, &w)| (s, sum * w / weight_sum))
        .collect();
    let plan_options = PlanOptions {
        measure: by,
        throughput: options.throughput,
        bucket_cost: options.bucket_cost,
    };
    let mut notes = Vec::new();
    let mut assignment = Assignment::new(current);
    if sum == 0.0 {
        notes.push(PlanNote::NoDocuments);
    } else {
        let t = options.threshold / 100.0;
        let out_need: f64 = loads
            .iter()
            .map(|(s, &l)| (l - fair[s] * (1.0 + t)).max(0.0))
            .sum();
        let in_need: f64 = loads
            .iter()
            .map(|(s, &l)| (fair[s] * (1.0 - t) - l).max(0.0))
            .sum();
        let amount = out_need.max(in_need);
        if amount < 0.5 {
            notes.push(PlanNote::WithinThreshold {
                threshold: options.threshold,
            });
        } else {
            let gives = level_down(&loads, &fair, amount);
            let takes = level_up(&loads, &fair, amount);
            let mut budget = options.max_buckets;
            // A new range is not worth cutting for less than 0.25% of a mean fair share.
            let tolerance = 0.0025 * sum / weights.values().filter(|&&w| w > 0.0).count() as f64;
            let weighing = Weighing {
                load,
                by,
                tolerance,
            };
            let left = match options.objective {
                Objective::Contiguous => {
                    assignment.transfer_all(&weighing, gives, takes, &mut budget)
                }
                Objective::FewestMigrations => {
                    assignment.transfer_fullest(&weighing, gives, takes, &mut budget)
                }
            };
            if budget == Some(0) {
                notes.push(PlanNote::Capped {
                    max_buckets: options.max_buckets.unwrap_or(0),
                });
            } else if left >= 0.5 {
                notes.push(PlanNote::PrefixConstrained {
                    amount: left.round() as u64,
                    measure: by,
                });
            }
        }
    }
    notes.extend(keep_last_bucket(current, &mut assignment));
    let target = assignment.into_topology(current)?;
    let mut p = plan(current, &target, load, &plan_options)?;
    // Better means less load left on shards of weight 0, then a lower skew.
    let standing = |after: bool| {
        let stranded: u64 = p
            .per_shard
            .iter()
            .filter(|c| fair.get(&c.shard).is_some_and(|&f| f == 0.0))
            .map(|c| c.held(after).by(by))
            .sum();
        (stranded, weighted_skew(&p, &fair, after))
    };
    let ((stranded_before, before), (stranded_after, after)) = (standing(false), standing(true));
    let worse = stranded_after > stranded_before
        || (stranded_after == stranded_before && after > before + 1e-9);
    if worse && !p.moves.is_empty() {
        p = plan(current, current, load, &plan_options)?;
        notes.push(PlanNote::NoImprovement);
    }
    if sum > 0.0 {
        p.skew_before = Some(weighted_skew(&p, &fair, false));
        p.skew_after = Some(weighted_skew(&p, &fair, true));
    }
    p.notes
        .retain(|n| !matches!(n, PlanNote::NothingMoves) || notes.is_empty());
    p.notes.extend(notes);
    if load.ranges().next().is_some() {
        // Ranges of statistics on shards left above their share matter too: finer figures
        // would let the balance take part of them.
        let t = options.threshold / 100.0;
        let over: Vec<u32> = p
            .per_shard
            .iter()
            .filter(|c| {
                fair.get(&c.shard)
                    .is_some_and(|&f| c.held(true).by(by) as f64 > f * (1.0 + t))
            })
            .map(|c| c.shard)
            .collect();
        let held_by_over = |from: u32| {
            p.target
                .shard_for_bucket(from)
                .is_some_and(|s| over.contains(&s))
        };
        let note = per_range_note(load, current, &p.target, &p.moves, &held_by_over);
        p.notes.retain(|n| n.kind() != "per_range");
        p.notes.extend(note);
    }
    Ok(BalancePlan {
        obstacles: obstacles(current, load, by, &fair),
        ranges_added: p.target.ranges().len() as i64 - current.ranges().len() as i64,
        migrations: p.buckets_moved,
        plan: p,
        options: options.clone(),
        objectives: Vec::new(),
    })
}

/// Bucket 2^20 - 1 back on its shard when RavenDB cannot move it, with a note: in a
/// database whose prefixes hold bucket ranges, `ShardHelper.MoveBucket` looks at the list's
/// last range (a prefix block's) for that bucket and either changes nothing or appends a
/// range that sends the last block's last range elsewhere; the bucket itself stays.
fn keep_last_bucket(current: &Topology, assignment: &mut Assignment) -> Option<PlanNote> {
    let bucket = NUMBER_OF_BUCKETS - 1;
    let ranges = current.to_configuration().bucket_ranges;
    if ranges
        .iter()
        .all(|r| r.bucket_range_start < NUMBER_OF_BUCKETS)
    {
        return None;
    }
    let stays_on = current.shard_for_bucket(bucket)?;
    if assignment.shard_of(bucket)? == stays_on {
        return None;
    }
    assignment.reassign(bucket, NUMBER_OF_BUCKETS, stays_on);
    Some(PlanNote::MoveBucketIgnores { bucket, stays_on })
}

/// The weight of every shard of the topology, checked.
fn weights(current: &Topology, options: &BalanceOptions) -> Result<PerShard<f64>, ReshardError> {
    if let Some(&shard) = options
        .weights
        .keys()
        .find(|s| current.shard(**s).is_none())
    {
        return Err(ReshardError::WeightForUnknownShard { shard });
    }
    let mut out = Vec::new();
    for shard in current.shards() {
        let w = options.weights.get(&shard.number).copied().unwrap_or(1.0);
        if !(w.is_finite() && w >= 0.0) {
            return Err(ReshardError::BadWeight {
                shard: Some(shard.number),
                weight: w,
            });
        }
        out.push((shard.number, w));
    }
    if out.iter().all(|&(_, w)| w == 0.0) {
        return Err(ReshardError::BadWeight {
            shard: None,
            weight: 0.0,
        });
    }
    Ok(PerShard::from_iter(out))
}

/// How much each shard above its fair share gives so that `amount` moves in all, lowering
/// the most loaded (relative to fair share) first. A shard of fair share 0 gives all.
fn level_down(loads: &PerShard<f64>, fair: &PerShard<f64>, amount: f64) -> PerShard<f64> {
    let top = loads
        .iter()
        .filter(|(s, _)| fair[s] > 0.0)
        .map(|(s, &l)| l / fair[s])
        .fold(1.0, f64::max);
    level(amount, top, 1.0, |x| {
        loads
            .iter()
            .map(|(s, &l)| (*s, (l - x * fair[s]).max(0.0)))
            .collect()
    })
}

/// How much each shard below its fair share takes so that `amount` moves in all, raising
/// the least loaded first.
fn level_up(loads: &PerShard<f64>, fair: &PerShard<f64>, amount: f64) -> PerShard<f64> {
    level(amount, 0.0, 1.0, |y| {
        loads
            .iter()
            .map(|(s, &l)| (*s, (y * fair[s] - l).max(0.0)))
            .collect()
    })
}

/// The split `at(level)` whose sum is `amount`, by bisection between a level `short` whose
/// sum is at most `amount` and a level `enough` whose sum is at least `amount`.
fn level(
    amount: f64,
    mut short: f64,
    mut enough: f64,
    at: impl Fn(f64) -> PerShard<f64>,
) -> PerShard<f64> {
    for _ in 0..100 {
        let mid = (short + enough) / 2.0;
        if at(mid).values().sum::<f64>() >= amount {
            enough = mid;
        } else {
            short = mid;
        }
    }
    at(enough)
}

/// The largest load over fair share among shards with a fair share.
fn weighted_skew(p: &Plan, fair: &PerShard<f64>, after: bool) -> f64 {
    p.per_shard
        .iter()
        .filter_map(|c| {
            let f = *fair.get(&c.shard)?;
            (f > 0.0).then(|| c.held(after).by(p.measure) as f64 / f)
        })
        .fold(0.0, f64::max)
}

/// Buckets bigger than the largest fair share, biggest first.
fn obstacles(
    current: &Topology,
    load: &BucketLoad,
    by: Measure,
    fair: &PerShard<f64>,
) -> Vec<Obstacle> {
    let largest = fair.values().copied().fold(0.0, f64::max);
    if largest <= 0.0 {
        return Vec::new();
    }
    // A range of buckets (from statistics) is not an obstacle: finer figures may split it.
    let mut out: Vec<Obstacle> = load
        .spans()
        .filter(|&(first, last, a)| first == last && a.by(by) as f64 > largest)
        .map(|(bucket, _, a)| Obstacle {
            bucket,
            shard: current.shard_for_bucket(bucket).unwrap_or(u32::MAX),
            docs: a.docs,
            bytes: a.bytes,
            fair_shares: a.by(by) as f64 / largest,
        })
        .collect();
    out.sort_by(|a, b| {
        b.fair_shares
            .total_cmp(&a.fair_shares)
            .then(a.bucket.cmp(&b.bucket))
    });
    out.truncate(MAX_OBSTACLES);
    out
}
