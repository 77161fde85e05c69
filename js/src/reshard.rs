//! Resharding: the `Workload` class (documents read once, for any number of plans and
//! balances), RavenDB's bucket migration step by step, and the operations with RavenDB's
//! rules that give a new `Topology`.

use crate::topology::Topology;
use crate::{bulk_text, from_js, js_error, read_options, to_js, whole_number};
use js_sys::{Uint8Array, JSON};
use ravenshard::report::InvalidId;
use ravenshard_reshard as reshard;
use ravenshard_reshard::{BalanceOptions, BucketCost, Measure, Objective, PlanOptions, Throughput};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** What a plan or a balance counts: documents or bytes (the documents' sizes). */
export type Measure = "docs" | "bytes";
/** RavenDB's `ShardingConfiguration` JSON, as `Topology.toJson` writes it (other keys kept). */
export interface ShardingConfiguration {
    Shards: Record<string, { Members: string[]; [key: string]: unknown }>;
    BucketRanges: { BucketRangeStart: number; ShardNumber: number }[];
    Prefixed: { Prefix: string; Shards: number[]; BucketRangeStart?: number; [key: string]: unknown }[];
    [key: string]: unknown;
}
/** What `new Workload` read: documents placed, their bytes, and the lines left out. */
export interface WorkloadSummary {
    documents: number;
    /** Bytes of the documents with a size. */
    bytes: number;
    without_size: number;
    buckets_used: number;
    invalid_count: number;
    /** The first 100 lines left out; `line` is 1-based. */
    invalid: { line: number; id: string; error: string }[];
    /** From bucket statistics: how many figures cover a range of more than one bucket (0 for documents). */
    per_range: number;
    /** From bucket statistics: what merging the answers found (a drill-down whose figures differ from its range). */
    statistics_notes: string[];
}
/** A maximal run of buckets `from_bucket..=to_bucket` that changes shard. */
export interface Move {
    from_bucket: number;
    to_bucket: number;
    from_shard: number;
    to_shard: number;
    docs: number;
    bytes: number;
}
/** One shard before and after a plan. */
export interface ShardChange {
    shard: number;
    docs_before: number;
    docs_after: number;
    bytes_before: number;
    bytes_after: number;
    buckets_before: number;
    buckets_after: number;
}
export type PlanNoteKind = "nothing_moves" | "shard_added_empty" | "shard_removed" | "prefix_added"
    | "prefix_removed" | "no_sizes_for_estimate" | "within_threshold" | "capped" | "no_documents"
    | "no_improvement" | "prefix_constrained" | "per_range" | "prefix_unchecked"
    | "move_bucket_leaves" | "move_bucket_ignores" | "move_bucket_refuses";
/** A request for finer bucket statistics of a range (`GET /databases/<db>/debug/sharding/buckets?fromBucket=&toBucket=&range=`). */
export interface DrillDown {
    from_bucket: number;
    to_bucket: number;
    /** `(to_bucket - from_bucket + 1) / 32`, at least 1. */
    range: number;
    docs: number;
    bytes: number;
}
export interface PlanNote {
    kind: PlanNoteKind;
    message: string;
    /** Only for `per_range`: the ranges worth resolving, biggest first (at most 32). */
    drill_downs?: DrillDown[];
}
/** The time a plan takes: the data at the throughput plus every bucket moved (empty ones
 * included) times the cost of one bucket's migration. */
export interface Estimate {
    /** Null without a throughput (or a bytes throughput and no sizes). */
    data_seconds: number | null;
    buckets: number;
    bucket_cost_seconds: number;
    buckets_seconds: number;
    /** Both terms; null when the data term is. */
    total_seconds: number | null;
    dominant: "data" | "buckets";
}
/** From `Workload.plan`: the same JSON as `ravenshard plan`. */
export interface Plan {
    moves: Move[];
    buckets_moved: number;
    docs_moved: number;
    bytes_moved: number;
    /** Of all the data, by `measure`: 0 to 1. */
    share_moved: number;
    measure: Measure;
    /** Every shard of either topology. */
    per_shard: ShardChange[];
    /** Largest shard over mean shard (with weights: over its fair share); null when nothing is held. */
    skew_before: number | null;
    skew_after: number | null;
    docs: number;
    bytes: number;
    /** `estimate.total_seconds`: null without a throughput (or a bytes throughput and no sizes). */
    estimate_seconds: number | null;
    /** Both terms of the estimate; the buckets term is known without a throughput. */
    estimate: Estimate;
    notes: PlanNote[];
    target: ShardingConfiguration;
}
/** A bucket bigger than the largest fair share: it limits the balance that can be reached. */
export interface Obstacle {
    bucket: number;
    shard: number;
    docs: number;
    bytes: number;
    fair_shares: number;
}
/** From `Workload.balance`: the same JSON as `ravenshard balance`. */
export interface BalancePlan extends Plan {
    /** Biggest first, at most 100. */
    obstacles: Obstacle[];
    options: {
        by: Measure;
        weights: Record<string, number>;
        threshold: number;
        max_buckets: number | null;
        throughput: { unit: "bytes" | "docs"; per_second: number } | null;
        bucket_cost: number;
        objective: Objective;
    };
    /** Target ranges less current ranges. */
    ranges_added: number;
    /** Bucket migrations: every bucket moved, empty ones included. */
    migrations: number;
    /** The same balance under each objective, to compare. */
    objectives: {
        objective: Objective;
        migrations: number;
        ranges_added: number;
        docs_moved: number;
        bytes_moved: number;
        skew_after: number | null;
        estimate: Estimate;
    }[];
}
/** What a balance optimizes: few contiguous ranges, or few bucket migrations. */
export type Objective = "contiguous" | "fewest-migrations";
/** Knobs of `Workload.plan`; every key is optional. */
export interface PlanOptions {
    /** What `share_moved` and the skews count; default "docs". */
    by?: Measure;
    /** For the estimate's data term: "50MB/s", "800KB/s", "1GB/s", "20000docs/s". */
    throughput?: string;
    /** For the estimate's buckets term, what one bucket's migration costs; default "40ms". */
    bucketCost?: string;
}
/** Knobs of `Workload.balance`; every key is optional. */
export interface BalanceOptions extends PlanOptions {
    /** Shard number to weight (default 1; 2 takes twice the share, 0 empties the shard):
     * `{"0": 1, "1": 2}` or `"0=1,1=2"`. */
    weights?: Record<number | string, number> | string;
    /** In percent, default 5: shards within this much of their fair share are left alone. */
    threshold?: number;
    /** The most buckets the plan may move. */
    maxBuckets?: number;
    /** Default "contiguous". */
    objective?: Objective;
}
export type MigrationPhase = "Moving" | "Moved" | "OwnershipTransferred" | "CleanedUp";
/** Where requests for a bucket's documents go. */
export interface ShardRoute {
    shard: number;
    fragment: string;
    nodes: string[];
}
/** An entry of `BucketMigrations`, as RavenDB holds it. */
export interface ShardBucketMigration {
    Status: "Moving" | "Moved" | "OwnershipTransferred";
    Bucket: number;
    SourceShard: number;
    DestinationShard: number;
    ConfirmedDestinations: string[];
    ConfirmedSourceCleanup: string[];
}
/** From `Workload.migrationStep`: one bucket in one phase of RavenDB's migration. */
export interface MigrationStep {
    step: number;
    /** Four per bucket moved. */
    steps: number;
    buckets_done: number;
    bucket: number;
    phase: MigrationPhase;
    description: string;
    source_shard: number;
    destination_shard: number;
    docs: number;
    bytes: number;
    reads: ShardRoute;
    writes: ShardRoute;
    /** The configuration as RavenDB holds it at this step. */
    configuration: ShardingConfiguration & { BucketMigrations: Record<string, ShardBucketMigration> };
}
"#;

/// A measure as JS names it.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum By {
    Docs,
    Bytes,
}

impl From<By> for Measure {
    fn from(by: By) -> Measure {
        match by {
            By::Docs => Measure::Docs,
            By::Bytes => Measure::Bytes,
        }
    }
}

/// The options of [`Workload::plan`] as JS passes them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsPlanOptions {
    by: Option<By>,
    throughput: Option<String>,
    bucket_cost: Option<String>,
}

/// The options of [`Workload::balance`] as JS passes them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsBalanceOptions {
    by: Option<By>,
    weights: Option<Weights>,
    threshold: Option<f64>,
    max_buckets: Option<u64>,
    throughput: Option<String>,
    bucket_cost: Option<String>,
    objective: Option<String>,
}

/// Balance weights: an object `{"0": 1, "1": 2}`, or the CLI's text `"0=1,1=2"`.
struct Weights(BTreeMap<u32, f64>);

impl<'de> Deserialize<'de> for Weights {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Weights, D::Error> {
        struct Read;
        impl<'de> Visitor<'de> for Read {
            type Value = Weights;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    r#"weights as an object such as {"0": 1, "1": 2} or text such as "0=1,1=2""#,
                )
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Weights, E> {
                BalanceOptions::parse_weights(text)
                    .map(Weights)
                    .map_err(E::custom)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Weights, A::Error> {
                let mut weights = BTreeMap::new();
                while let Some((key, weight)) = map.next_entry::<String, f64>()? {
                    let shard = key.trim().parse().map_err(|_| {
                        de::Error::custom(format_args!(
                            "weights: '{key}' is not a shard number; the keys are shard numbers"
                        ))
                    })?;
                    weights.insert(shard, weight);
                }
                Ok(Weights(weights))
            }
        }
        deserializer.deserialize_any(Read)
    }
}

/// A throughput option, read as the CLI reads `--throughput`.
fn throughput(text: Option<String>) -> Result<Option<Throughput>, JsError> {
    text.map(|t| Throughput::parse(&t))
        .transpose()
        .map_err(|e| js_error(format_args!("options: {e}")))
}

/// A cost per bucket option, read as the CLI reads `--bucket-cost`.
fn bucket_cost(text: Option<String>) -> Result<BucketCost, JsError> {
    text.map_or(Ok(BucketCost::DEFAULT), |t| {
        BucketCost::parse(&t).map_err(|e| js_error(format_args!("options: {e}")))
    })
}

/// Reads the `options` of [`Workload::plan`].
pub(crate) fn plan_options(options: JsValue) -> Result<PlanOptions, JsError> {
    let Some(js) = read_options::<JsPlanOptions>(options, "by, throughput and bucketCost")? else {
        return Ok(PlanOptions::default());
    };
    Ok(PlanOptions {
        measure: js.by.map_or(Measure::Docs, Measure::from),
        throughput: throughput(js.throughput)?,
        bucket_cost: bucket_cost(js.bucket_cost)?,
    })
}

/// Reads the `options` of [`Workload::balance`].
pub(crate) fn balance_options(options: JsValue) -> Result<BalanceOptions, JsError> {
    let default = BalanceOptions::default();
    let Some(js) = read_options::<JsBalanceOptions>(
        options,
        "by, weights, threshold, maxBuckets, throughput, bucketCost and objective",
    )?
    else {
        return Ok(default);
    };
    Ok(BalanceOptions {
        by: js.by.map_or(default.by, Measure::from),
        weights: js.weights.map_or(default.weights, |w| w.0),
        threshold: js.threshold.unwrap_or(default.threshold),
        max_buckets: js.max_buckets,
        throughput: throughput(js.throughput)?,
        bucket_cost: bucket_cost(js.bucket_cost)?,
        objective: js
            .objective
            .map(|o| Objective::parse(&o))
            .transpose()
            .map_err(|e| js_error(format_args!("options: {e}")))?
            .unwrap_or_default(),
    })
}

/// A shard number given by JS.
fn shard_number(shard: f64) -> Result<u32, JsError> {
    Ok(whole_number("a shard", shard, u64::from(u32::MAX))? as u32)
}

/// What [`Workload::summary`] returns.
#[derive(Serialize)]
struct Summary<'a> {
    documents: u64,
    bytes: u64,
    without_size: u64,
    buckets_used: usize,
    invalid_count: u64,
    invalid: &'a [InvalidId],
    per_range: usize,
    statistics_notes: &'a [String],
}

/// Documents read once, placed by a topology, for any number of plans, balances and
/// migration steps: their documents and bytes per bucket, and their IDs (to check the
/// prefixes a target adds or removes, as RavenDB does). The IDs take about as much wasm
/// memory as the text: `free()` a workload when done with it.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Workload {
    topology: Topology,
    /// Shared by the workloads `withTopology` gives.
    documents: Rc<reshard::Workload>,
    /// What merging bucket statistics found; empty for documents.
    statistics_notes: Rc<[String]>,
}

impl Workload {
    /// The topology the documents are placed by.
    pub(crate) fn current(&self) -> &ravenshard::Topology {
        &self.topology.inner
    }

    /// The documents per bucket.
    pub(crate) fn load(&self) -> &reshard::BucketLoad {
        &self.documents.load
    }

    /// The plan from this workload's topology to `target`, checked as the CLI checks it.
    pub(crate) fn plan_to(
        &self,
        target: &Topology,
        options: &PlanOptions,
    ) -> Result<reshard::Plan, JsError> {
        self.documents
            .plan(&self.topology.inner, &target.inner, options)
            .map_err(js_error)
    }

    /// The lower-cased IDs, for the prefix operations.
    fn lower_ids(&self) -> impl Iterator<Item = &str> {
        self.documents.lower_ids()
    }
}

#[wasm_bindgen]
impl Workload {
    /// Reads documents as `ravenshard plan` and `ravenshard balance` do: one a line (`\n`
    /// or `\r\n`), `id` or `id<TAB>size` with the size in bytes; blank lines are skipped.
    /// Each is placed by `topology` (its prefixes, and its design when it has `ByContent`).
    /// Lines that cannot be read do not throw: `summary()` counts and lists them.
    /// `documents` is a string or a `Uint8Array` of UTF-8 bytes.
    ///
    /// Throws an `Error` if `documents` is neither, or the bytes are not UTF-8.
    #[wasm_bindgen(constructor)]
    pub fn new(
        topology: &Topology,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] documents: JsValue,
    ) -> Result<Workload, JsError> {
        if !documents.is_string() && !documents.is_instance_of::<Uint8Array>() {
            return Err(js_error(
                "documents: give text (a string or UTF-8 bytes) with one document a line, `id` or `id<TAB>size`",
            ));
        }
        let documents = reshard::Workload::read(
            &bulk_text(&documents)?,
            &topology.inner,
            topology.design.as_ref(),
        );
        Ok(Workload {
            topology: topology.clone(),
            documents: Rc::new(documents),
            statistics_notes: Rc::new([]),
        })
    }

    /// A workload of a cluster's own bucket statistics instead of documents: saved answers
    /// of `GET /databases/<db>/debug/sharding/buckets?fromBucket=&toBucket=&range=` (per
    /// shard with `&shardNumber=N`, drill-downs) and of
    /// `GET /databases/<db>/debug/sharding/bucket?bucket=N`, one text or several, merged (a
    /// finer range replaces the coarser one it lies in, per-shard answers are summed).
    /// `topology` is the database record they were taken with. There are no IDs; figures
    /// per range of buckets move whole, and plans say so in a `per_range` note with the
    /// drill-downs that would resolve them. `names` name the texts in messages (default
    /// `answer 1`, `answer 2`, ...).
    ///
    /// Throws an `Error` naming the text and the key when an answer is not such JSON, when
    /// ranges overlap inconsistently or leave their block of 2^20 buckets, or when a range
    /// lies in a prefix block the record has no prefix for.
    #[wasm_bindgen(js_name = fromBucketStatistics)]
    pub fn from_bucket_statistics(
        topology: &Topology,
        #[wasm_bindgen(unchecked_param_type = "string | string[]")] answers: JsValue,
        names: Option<Vec<String>>,
    ) -> Result<Workload, JsError> {
        let statistics = read_statistics("answers", answers, names.unwrap_or_default())?;
        let documents =
            reshard::Workload::from_statistics(&statistics, &topology.inner).map_err(js_error)?;
        Ok(Workload {
            topology: topology.clone(),
            documents: Rc::new(documents),
            statistics_notes: statistics.notes().into(),
        })
    }

    /// The topology the documents are placed by: the current one of every plan.
    #[wasm_bindgen(getter)]
    pub fn topology(&self) -> Topology {
        self.topology.clone()
    }

    /// What was read: `{documents, bytes, without_size, buckets_used, invalid_count,
    /// invalid}`, `invalid` listing the first 100 lines left out as `{line, id, error}`.
    #[wasm_bindgen(unchecked_return_type = "WorkloadSummary")]
    pub fn summary(&self) -> Result<JsValue, JsError> {
        let total = self.documents.load.total();
        to_js(&Summary {
            documents: total.docs,
            bytes: total.bytes,
            without_size: self.documents.load.without_size(),
            buckets_used: self.documents.load.buckets_used(),
            invalid_count: self.documents.invalid_count,
            invalid: &self.documents.invalid,
            per_range: self.documents.load.ranges().count(),
            statistics_notes: &self.statistics_notes,
        })
    }

    /// The same documents placed by another topology, without reading them again: one this
    /// workload's topology can be planned to (such as the topology `addShard` gives), so
    /// that every document keeps its bucket.
    ///
    /// Throws an `Error` with the core's message when a plan to `topology` could not be
    /// made, or when one of the two has `ByContent` and the other not.
    #[wasm_bindgen(js_name = withTopology)]
    pub fn with_topology(&self, topology: &Topology) -> Result<Workload, JsError> {
        if self.topology.design.is_some() != topology.design.is_some() {
            return Err(js_error(
                "The documents were placed with the draft design (ByContent) on one side only: \
                 read them again with new Workload(topology, documents).",
            ));
        }
        self.plan_to(topology, &PlanOptions::default())?;
        Ok(Workload {
            topology: topology.clone(),
            documents: Rc::clone(&self.documents),
            statistics_notes: Rc::clone(&self.statistics_notes),
        })
    }

    /// The bucket moves from this workload's topology to `target`, and what they cost:
    /// `{moves, buckets_moved, docs_moved, bytes_moved, share_moved, measure, per_shard,
    /// skew_before, skew_after, docs, bytes, estimate_seconds, estimate, notes, target}`, as
    /// `ravenshard plan` prints it. `options` may set `by` (`"docs"` or `"bytes"`),
    /// `throughput` (`"50MB/s"`, `"20000docs/s"`) and `bucketCost` (`"40ms"`, the
    /// default).
    ///
    /// Throws an `Error` with RavenDB's message when `target` adds or removes a prefix that
    /// documents start with, or moves a prefix's block; or for bad options.
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(
        &self,
        target: &Topology,
        #[wasm_bindgen(unchecked_optional_param_type = "PlanOptions")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        to_js(&self.plan_to(target, &plan_options(options)?)?)
    }

    /// A target that evens the load across the shards, moving as little as it can in whole
    /// buckets, with its plan: the plan's fields, `obstacles` (buckets too big for a fair
    /// share) and `options`, as `ravenshard balance` prints it. `options` may set `by`,
    /// `weights` (`{"0": 1, "1": 2}` or `"0=1,1=2"`), `threshold` (percent, default 5),
    /// `maxBuckets`, `throughput`, `bucketCost` and `objective` (`"contiguous"`, the
    /// default, or `"fewest-migrations"`); `objectives` compares both.
    ///
    /// Throws an `Error` for bad options, with the core's message for a bad weight or
    /// threshold.
    #[wasm_bindgen(unchecked_return_type = "BalancePlan")]
    pub fn balance(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "BalanceOptions")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let options = balance_options(options)?;
        let balanced = reshard::balance(&self.topology.inner, &self.documents.load, &options)
            .map_err(js_error)?;
        // `options.weights` has number keys, which serde-wasm-bindgen cannot write as object
        // keys; JSON text has them as strings, as the CLI prints them.
        let text = serde_json::to_string(&balanced).map_err(js_error)?;
        JSON::parse(&text).map_err(|_| js_error("the balance could not be written as JSON"))
    }

    /// How many steps the walk-through of the plan to `target` has: four per bucket moved.
    ///
    /// Throws an `Error` when the plan cannot be made, as `plan` does.
    #[wasm_bindgen(js_name = migrationSteps)]
    pub fn migration_steps(&self, target: &Topology) -> Result<f64, JsError> {
        let plan = self.plan_to(target, &PlanOptions::default())?;
        Ok(reshard::migration_steps(&plan) as f64)
    }

    /// Step `step` (from 0) of RavenDB's migration to `target`, one bucket at a time in
    /// bucket order: the bucket, its phase (`Moving`, `Moved`, `OwnershipTransferred`,
    /// `CleanedUp`), where reads and writes go, and the configuration as RavenDB holds it
    /// then, with `BucketRanges` and `BucketMigrations`.
    ///
    /// Throws an `Error` for a step that is not a whole number or not in the walk-through,
    /// or when the plan cannot be made.
    #[wasm_bindgen(js_name = migrationStep, unchecked_return_type = "MigrationStep")]
    pub fn migration_step(&self, target: &Topology, step: f64) -> Result<JsValue, JsError> {
        let step = whole_number("the step", step, (1 << 53) - 1)?;
        let plan = self.plan_to(target, &PlanOptions::default())?;
        let walk = reshard::migration_step(&self.topology.inner, &plan, &self.documents.load, step)
            .map_err(js_error)?;
        to_js(&walk)
    }

    /// A topology in which `shard` owns no buckets, so that it can then be removed: its
    /// documents go to the other shards by balancing `by` (`"docs"`, the default, or
    /// `"bytes"`), its empty ranges to a neighbour.
    ///
    /// Throws an `Error` with RavenDB's message for the only shard or one a prefix names,
    /// or for a shard the topology does not have.
    #[wasm_bindgen(js_name = drainShard)]
    pub fn drain_shard(
        &self,
        shard: f64,
        #[wasm_bindgen(unchecked_optional_param_type = "Measure")] by: JsValue,
    ) -> Result<Topology, JsError> {
        let by: Option<By> = from_js("by", by)?;
        let drained = reshard::drain_shard(
            &self.topology.inner,
            shard_number(shard)?,
            &self.documents.load,
            by.map_or(Measure::Docs, Measure::from),
        )
        .map_err(js_error)?;
        Topology::wrap(drained)
    }

    /// This workload's topology with a prefix added as RavenDB adds it: the next free block,
    /// split evenly over `shards`.
    ///
    /// Throws an `Error` with RavenDB's message when documents start with the prefix, or
    /// the prefix or its shards are not valid.
    #[wasm_bindgen(js_name = addPrefix)]
    pub fn add_prefix(
        &self,
        prefix: &str,
        #[wasm_bindgen(unchecked_param_type = "number[]")] shards: JsValue,
    ) -> Result<Topology, JsError> {
        let shards: Vec<u32> = from_js("shards", shards)?;
        let added = reshard::add_prefix(&self.topology.inner, prefix, &shards, self.lower_ids())
            .map_err(js_error)?;
        Topology::wrap(added)
    }

    /// This workload's topology without a prefix (matched ignoring case) and its ranges.
    ///
    /// Throws an `Error` with RavenDB's message when documents start with the prefix, or
    /// for a prefix that is not configured.
    #[wasm_bindgen(js_name = removePrefix)]
    pub fn remove_prefix(&self, prefix: &str) -> Result<Topology, JsError> {
        let removed = reshard::remove_prefix(&self.topology.inner, prefix, self.lower_ids())
            .map_err(js_error)?;
        Topology::wrap(removed)
    }

    /// This workload's topology with a prefix's shards set to `shards`; the ranges of a
    /// shard taken off the prefix go to the remaining ones (the plan to it lists the moves
    /// RavenDB needs first).
    ///
    /// Throws an `Error` for a prefix that is not configured, or shards that are not valid.
    #[wasm_bindgen(js_name = setPrefixShards)]
    pub fn set_prefix_shards(
        &self,
        prefix: &str,
        #[wasm_bindgen(unchecked_param_type = "number[]")] shards: JsValue,
    ) -> Result<Topology, JsError> {
        let shards: Vec<u32> = from_js("shards", shards)?;
        let set =
            reshard::set_prefix_shards(&self.topology.inner, prefix, &shards, &self.documents.load)
                .map_err(js_error)?;
        Topology::wrap(set)
    }
}

#[wasm_bindgen]
impl Topology {
    /// This topology with a shard added, numbered one above the highest, with `members` as
    /// its nodes. As in RavenDB it owns no buckets: balance to give it a share.
    ///
    /// Throws an `Error` if `members` is not an array of strings.
    #[wasm_bindgen(js_name = addShard)]
    pub fn add_shard(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string[]")] members: JsValue,
    ) -> Result<Topology, JsError> {
        let members: Option<Vec<String>> = from_js("members", members)?;
        let (added, _) =
            reshard::add_shard(&self.inner, members.unwrap_or_default()).map_err(js_error)?;
        Topology::wrap(added)
    }

    /// This topology without `shard`, which must own no buckets (drain it first) and be
    /// named by no prefix.
    ///
    /// Throws an `Error` with RavenDB's message otherwise, or for an unknown shard.
    #[wasm_bindgen(js_name = removeShard)]
    pub fn remove_shard(&self, shard: f64) -> Result<Topology, JsError> {
        let removed = reshard::remove_shard(&self.inner, shard_number(shard)?).map_err(js_error)?;
        Topology::wrap(removed)
    }
}

/// Bucket statistics from JS: the JSON text of an answer, or an array of such texts, named
/// `names[i]` in messages (else `answer 1`, `answer 2`, ...); `what` names the argument.
pub(crate) fn read_statistics(
    what: &str,
    answers: JsValue,
    names: Vec<String>,
) -> Result<reshard::BucketStatistics, JsError> {
    let texts: Vec<String> = if let Some(text) = answers.as_string() {
        vec![text]
    } else {
        from_js(
            &format!("{what} (the JSON text of an answer, or an array of such texts)"),
            answers,
        )?
    };
    let named: Vec<(String, &str)> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let name = names.get(i).cloned().unwrap_or(format!("answer {}", i + 1));
            (name, t.as_str())
        })
        .collect();
    reshard::BucketStatistics::read(named.iter().map(|(n, t)| (n.as_str(), *t))).map_err(js_error)
}
