//! The Resharding view's plan, as its worker makes it: from the load per bucket the worker
//! holds (the one the balance reads), the plan from the configuration in force to a target,
//! the walk-through's step, and the calls that carry the plan out. The page receives what
//! it shows ([`PlanShown`], [`StepShown`]); the worker keeps the last plan, so that a step
//! of the walk-through or a download of the calls does not plan again. Plain Rust, so that
//! the native tests run the page's side of a plan against it.

use crate::workers::reshard::balance::Balancer;
use ravenshard::Topology;
use ravenshard_reshard::{
    calls, migration_step, migration_steps, next_step_with_documents, plan, BucketLoad,
    CallsOptions, Estimate, Measure, MigrationStep, Move, Phase, Plan, PlanOptions, Route,
    ShardChange,
};
use serde::{Deserialize, Serialize};

/// The most moves a plan sends the page (the view lists them; the calls have them all).
pub const MOVES_SHOWN: usize = 100;

/// Which step of the walk-through to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepAt {
    /// This step (from 0), clamped to the last.
    To(u64),
    /// The first step, after this one, that starts moving a bucket holding documents
    /// (this one when there is none).
    NextWithDocuments(u64),
}

/// What a plan is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanRequest {
    /// The run's number.
    pub run: u64,
    /// The change of the workspace whose load per bucket it plans from (the page's number
    /// of it): the worker asks the host for the load unless it holds one as new.
    pub load: u64,
    /// The configuration in force, as JSON (`Topology::to_json`).
    pub current: String,
    /// The target, as JSON.
    pub target: String,
    /// The database's name (the shards' names in the walk-through and the calls).
    pub database: String,
    /// How the plan counts and estimates.
    #[serde(with = "super::wire::plan_options")]
    pub options: PlanOptions,
    /// The walk-through's step to show.
    pub step: StepAt,
}

/// What the calls of a plan are asked: the plan's request, where they go and as what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallsRequest {
    /// The plan.
    pub plan: PlanRequest,
    /// The node the calls go to.
    pub url: String,
    /// A shell script (`true`) or JSON.
    pub script: bool,
}

/// A file to offer for download.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallsFile {
    /// Its name: `<database>-calls.json` or `.sh`.
    pub name: String,
    /// Its type.
    pub mime: String,
    /// Its text.
    pub text: String,
}

/// A plan as the view shows it: the core's [`Plan`] with its notes in words and its first
/// [`MOVES_SHOWN`] moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanShown {
    /// The first moves, in bucket order.
    pub moves: Vec<Move>,
    /// How many moves the plan has.
    pub move_count: u64,
    /// Buckets that change shard.
    pub buckets_moved: u64,
    /// Documents in them.
    pub docs_moved: u64,
    /// Bytes in them.
    pub bytes_moved: u64,
    /// The share of all the data that moves, 0..=1.
    pub share_moved: f64,
    /// What the skews and the share count.
    pub measure: Measure,
    /// Every shard of either topology, before and after.
    pub per_shard: Vec<ShardChange>,
    /// The largest shard over the mean, now.
    pub skew_before: Option<f64>,
    /// The same in the target.
    pub skew_after: Option<f64>,
    /// Every document, as counted.
    pub docs: u64,
    /// The time the plan takes, term by term.
    pub estimate: Estimate,
    /// What else the user should know, in words.
    pub notes: Vec<String>,
}

impl PlanShown {
    /// What the view shows of `plan`.
    pub fn of(plan: &Plan) -> PlanShown {
        PlanShown {
            moves: plan.moves.iter().take(MOVES_SHOWN).copied().collect(),
            move_count: plan.moves.len() as u64,
            buckets_moved: plan.buckets_moved,
            docs_moved: plan.docs_moved,
            bytes_moved: plan.bytes_moved,
            share_moved: plan.share_moved,
            measure: plan.measure,
            per_shard: plan.per_shard.clone(),
            skew_before: plan.skew_before,
            skew_after: plan.skew_after,
            docs: plan.docs,
            estimate: plan.estimate,
            notes: plan.notes.iter().map(ToString::to_string).collect(),
        }
    }

    /// How many steps the walk-through has: four per bucket moved.
    pub fn steps(&self) -> u64 {
        self.buckets_moved.saturating_mul(4)
    }
}

/// A step of the walk-through as the view shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepShown {
    /// This step, from 0.
    pub step: u64,
    /// Steps in all.
    pub steps: u64,
    /// Buckets whose migration has ended before this one.
    pub buckets_done: u64,
    /// The migrating bucket.
    pub bucket: u32,
    /// The phase.
    pub phase: Phase,
    /// The shard the bucket leaves.
    pub source_shard: u32,
    /// The shard it goes to.
    pub destination_shard: u32,
    /// Documents in the bucket.
    pub docs: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Where reads go.
    pub reads: Route,
    /// Where writes go.
    pub writes: Route,
    /// `BucketRanges` (one range a line) and `BucketMigrations` at this step, as JSON.
    pub configuration: String,
}

impl StepShown {
    /// What the view shows of `step`.
    pub fn of(step: MigrationStep) -> StepShown {
        let configuration = step_json(&step);
        StepShown {
            step: step.step,
            steps: step.steps,
            buckets_done: step.buckets_done,
            bucket: step.bucket,
            phase: step.phase,
            source_shard: step.source_shard,
            destination_shard: step.destination_shard,
            docs: step.docs,
            bytes: step.bytes,
            reads: step.reads,
            writes: step.writes,
            configuration,
        }
    }
}

/// `BucketRanges` (one range a line) and `BucketMigrations` at a step, as JSON.
fn step_json(s: &MigrationStep) -> String {
    let ranges = &s.configuration.bucket_ranges;
    let mut out = String::from("{\n  \"BucketRanges\": [\n");
    for (i, r) in ranges.iter().enumerate() {
        let comma = if i + 1 < ranges.len() { "," } else { "" };
        out.push_str(&format!(
            "    {{\"BucketRangeStart\": {}, \"ShardNumber\": {}}}{comma}\n",
            r.bucket_range_start, r.shard_number
        ));
    }
    let migrations = s
        .configuration
        .other
        .get("BucketMigrations")
        .and_then(|m| serde_json::to_string_pretty(m).ok())
        .unwrap_or_else(|| "{}".into());
    out.push_str("  ],\n  \"BucketMigrations\": ");
    out.push_str(&migrations.replace('\n', "\n  "));
    out.push_str("\n}");
    out
}

/// A plan's answer: the plan or why there is none, and the walk-through's step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Planned {
    /// The plan, or why there is none.
    pub plan: Result<PlanShown, String>,
    /// The step shown (clamped to the plan's steps).
    pub step: u64,
    /// That step, when the plan moves buckets.
    pub migration: Option<Result<StepShown, String>>,
}

/// What a plan is made from and how: the load's change and a request without its run and
/// step.
#[derive(Debug, Clone, PartialEq)]
struct Key {
    load: u64,
    current: String,
    target: String,
    database: String,
    options: PlanOptions,
}

impl Key {
    fn of(load: u64, request: &PlanRequest) -> Key {
        Key {
            load,
            current: request.current.clone(),
            target: request.target.clone(),
            database: request.database.clone(),
            options: request.options,
        }
    }
}

/// The configuration in force a plan is made from, and the plan; or why there is none.
type Made = Result<(Topology, Plan), String>;

/// What the worker keeps between plans: the last one.
#[derive(Default)]
pub struct Planner {
    last: Option<(Key, Made)>,
}

impl std::fmt::Debug for Planner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Planner")
            .field("holds_a_plan", &self.last.is_some())
            .finish()
    }
}

/// A topology from its JSON, named `database`.
fn read(json: &str, database: &str, what: &str) -> Result<Topology, String> {
    let mut t = Topology::from_json(json).map_err(|e| format!("the {what} does not read: {e}"))?;
    t.set_database(database);
    Ok(t)
}

impl Planner {
    /// The plan of `request` from `load` (the one of the change `at`), made again only when
    /// it is not the last one made.
    fn made(&mut self, (at, load): (u64, &BucketLoad), request: &PlanRequest) -> &Made {
        let key = Key::of(at, request);
        if self.last.as_ref().is_some_and(|(k, _)| *k == key) {
            return &self.last.as_ref().expect("just checked").1;
        }
        let made = read(
            &request.current,
            &request.database,
            "configuration in force",
        )
        .and_then(|current| {
            let target = read(&request.target, &request.database, "target")?;
            let made = plan(&current, &target, load, &request.options);
            made.map(|p| (current, p)).map_err(|e| e.to_string())
        });
        &self.last.insert((key, made)).1
    }

    /// The plan of `request` and its step, from the load `balancer` holds; why not, when it
    /// holds none as new as the request's.
    pub fn plan(&mut self, balancer: &Balancer, request: &PlanRequest) -> Planned {
        let failed = |message: String| Planned {
            plan: Err(message),
            step: 0,
            migration: None,
        };
        let held = match balancer.held(request.load) {
            Ok(held) => held,
            Err(message) => return failed(message),
        };
        let load = held.1;
        let (current, plan) = match self.made(held, request) {
            Ok(made) => made,
            Err(message) => return failed(message.clone()),
        };
        let steps = migration_steps(plan);
        let step = match request.step {
            StepAt::To(step) => step,
            StepAt::NextWithDocuments(at) => next_step_with_documents(plan, load, at).unwrap_or(at),
        }
        .min(steps.saturating_sub(1));
        let migration = (steps > 0).then(|| {
            migration_step(current, plan, load, step)
                .map(StepShown::of)
                .map_err(|e| e.to_string())
        });
        Planned {
            plan: Ok(PlanShown::of(plan)),
            step,
            migration,
        }
    }

    /// The calls that carry out the plan of `request.plan`, as a file, from the load
    /// `balancer` holds (as for [`plan`](Self::plan)).
    pub fn calls(
        &mut self,
        balancer: &Balancer,
        request: &CallsRequest,
    ) -> Result<CallsFile, String> {
        let held = balancer.held(request.plan.load)?;
        let (current, plan) = self
            .made(held, &request.plan)
            .as_ref()
            .map_err(Clone::clone)?;
        let options = CallsOptions {
            url: request.url.clone(),
            throughput: request.plan.options.throughput,
            bucket_cost: request.plan.options.bucket_cost,
            ..CallsOptions::default()
        };
        let calls = calls(current, plan, &options).map_err(|e| e.to_string())?;
        let (extension, mime, text) = if request.script {
            ("sh", "text/x-shellscript", calls.script())
        } else {
            let json = serde_json::to_string_pretty(&calls).map_err(|e| e.to_string())?;
            ("json", "application/json", json)
        };
        Ok(CallsFile {
            name: format!("{}-calls.{extension}", calls.database),
            mime: mime.into(),
            text,
        })
    }
}
