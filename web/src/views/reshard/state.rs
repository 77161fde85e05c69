//! The Resharding view's part of the state: a target configuration shaped by the user
//! (edited ranges and prefixes, an added, drained or removed shard, a balance), the plan
//! from the configuration in force to it, and a step of RavenDB's migration.
//!
//! The core computes everything (`ravenshard_reshard`), off the page. The documents
//! are the workspace's host's: while the view is shown ([`ReshardAction::Show`]) it asks
//! the host for the load per bucket ([`ReshardState::load_wanted`], [`ReshardAction::Load`]);
//! a target that adds or removes prefixes waits for the host's check of them against the
//! IDs ([`ReshardState::checking`], [`ReshardAction::PrefixesChecked`]); the documents as
//! the target places them are the host's too (the bucket map asks it).
//!
//! The plan, the walk-through's step and the calls are the Resharding view's worker's: the
//! first plan sends it the load, the next ones only the target, the options and the step
//! ([`ReshardState::plan_request`], [`ReshardAction::PlanSent`]); the plan comes back as
//! the view shows it ([`ReshardReply::Planned`]). The plan shown stays until the next one comes
//! ([`ReshardState::planning`]). A balance runs in the same worker
//! ([`ReshardState::balance_request`], [`ReshardAction::BalanceSent`]): the balanced target
//! comes back ([`ReshardReply::Balanced`]), then the other objective's figures
//! ([`ReshardReply::Compared`]), and the target is planned.

use crate::state::config::{read_configuration, ConfigProblem};
use crate::state::inputs::Field;
use crate::workers::{
    BalanceRequest, Balanced, CallsRequest, Crashed, DrainRequest, LoadData, PlanRequest,
    PlanShown, Planned, ReshardReply, StepAt, StepShown,
};
use ravenshard::Topology;
use ravenshard_model::workspace::assign_members;
use ravenshard_reshard::{
    add_shard, changes_prefixes, remove_shard, BalanceOptions, BucketCost, BucketLoad, Measure,
    Objective, ObjectiveSummary, Obstacle, PlanOptions, ReshardError, Throughput,
};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::Reducible;

/// The throughput the estimate opens with.
pub const DEFAULT_THROUGHPUT: &str = "20MB/s";

/// The cost of a bucket's migration the estimate opens with.
pub const DEFAULT_BUCKET_COST: &str = "40ms";

/// The node the calls go to, until the user gives one.
pub const DEFAULT_CLUSTER_URL: &str = "http://127.0.0.1:8080";

/// The balance threshold the view opens with, in percent.
pub const DEFAULT_THRESHOLD: &str = "5";

/// Where the migration walk-through goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepMove {
    /// The first step.
    First,
    /// The step before.
    Previous,
    /// The step after.
    Next,
    /// The first step of the next bucket.
    NextBucket,
    /// The next step that starts moving a bucket holding documents.
    NextWithDocuments,
    /// The last step.
    Last,
    /// This step (from 0; clamped to the last).
    To(u64),
}

/// What the Resharding state works from: the configuration in force, the number of the
/// workspace's last change (its documents are the host's), and the cluster's nodes. The
/// studio's state sends them ([`ReshardAction::Inputs`]) whenever they change.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The configuration in force.
    pub current: Rc<Topology>,
    /// Its [`revision`](crate::state::ConfigState::revision): a new one drops the target.
    pub revision: u64,
    /// The number of the workspace's last change
    /// ([`State::changes`](crate::views::state::State::changes)): a new one asks the host for the load
    /// again.
    pub changes: u64,
    /// The cluster's nodes, for a new shard's members.
    pub nodes: Vec<String>,
    /// The replication factor, for a new shard's members.
    pub replication_factor: u32,
}

impl Inputs {
    /// Whether `other` holds the same values (the `Rc`s compared by pointer).
    pub fn same_as(&self, other: &Inputs) -> bool {
        Rc::ptr_eq(&self.current, &other.current)
            && self.revision == other.revision
            && self.changes == other.changes
            && self.nodes == other.nodes
            && self.replication_factor == other.replication_factor
    }
}

/// What a user does in the Resharding view; `Inputs` and `Show` come from the studio's state.
#[derive(Debug, Clone)]
pub enum ReshardAction {
    /// A whole target `ShardingConfiguration` JSON (from the target's editors).
    SetTarget(String),
    /// Start again from the configuration in force.
    ResetTarget,
    /// Add a shard to the target (it owns no buckets).
    AddShard,
    /// Remove a shard from the target (it must own no buckets).
    RemoveShard(u32),
    /// Move every bucket of a shard of the target elsewhere, evenly (the view's worker
    /// drains it: [`ReshardState::drain_request`]).
    DrainShard(u32),
    /// Balance the target with the view's options, on this thread: the worker's code
    /// ([`Balancer`](crate::workers::Balancer)) run here, its replies taken as the worker's
    /// are. The native tests' stand-in for the worker, so only in their build: the page
    /// balances in the worker ([`ReshardAction::BalanceSent`]), and the balancer's code
    /// stays out of the page's wasm.
    #[cfg(test)]
    Balance,
    /// The page sent [`ReshardState::balance_request`] or
    /// [`drain_request`](ReshardState::drain_request) to the worker: the run is under way.
    BalanceSent {
        /// The run.
        run: u64,
        /// The worker that has it (the one that now holds the load), when running.
        worker: Option<u64>,
    },
    /// The page sent [`ReshardState::plan_request`] to the worker.
    PlanSent {
        /// The run.
        run: u64,
        /// The worker that has it (the one that now holds the load), when running.
        worker: Option<u64>,
        /// The [`worker_wanted`](ReshardState::worker_wanted) number it answers.
        wanted: u64,
    },
    /// The balance in progress is cancelled (its worker is stopped).
    CancelBalance,
    /// A reply of the worker.
    Reply(ReshardReply),
    /// What balancing and the skew count.
    SetBy(Measure),
    /// The weights field (`0=1,1=2`).
    SetWeights(String),
    /// The threshold field, in percent.
    SetThreshold(String),
    /// The cap on buckets moved (empty: none).
    SetMaxBuckets(String),
    /// The throughput field (`20MB/s`, `5000docs/s`).
    SetThroughput(String),
    /// The cost of one bucket's migration (`40ms`).
    SetBucketCost(String),
    /// What balancing optimizes.
    SetObjective(Objective),
    /// The URL of the node the calls go to.
    SetClusterUrl(String),
    /// Show another step of the migration walk-through.
    MoveStep(StepMove),
    /// The configuration, documents or nodes changed.
    Inputs(Inputs),
    /// The host's load per bucket, asked at the workspace's change `changes` (a load of
    /// other changes than the inputs' is dropped).
    Load {
        /// The change it was asked at.
        changes: u64,
        /// What each used bucket holds.
        load: Rc<BucketLoad>,
    },
    /// The host checked the prefixes that a target (its JSON) adds or removes: why it
    /// cannot be had, if it cannot.
    PrefixesChecked {
        /// The target checked.
        configuration: String,
        /// Why not.
        problem: Option<String>,
    },
    /// Whether the view is shown (what it derives is computed only then).
    Show(bool),
}

/// What the view shows: the worker's plan.
#[derive(Debug)]
pub struct ReshardView {
    /// The plan from the configuration in force to the target, or why there is none.
    pub plan: Result<PlanShown, String>,
}

/// The balance form's fields.
#[derive(Debug, Clone)]
struct OptionFields {
    weights: Field<BTreeMap<u32, f64>>,
    threshold: Field<f64>,
    max_buckets: Field<Option<u64>>,
    throughput: Field<Option<Throughput>>,
    bucket_cost: Field<BucketCost>,
    objective: Objective,
    url: String,
}

impl Default for OptionFields {
    fn default() -> Self {
        OptionFields {
            weights: Field::new("", BTreeMap::new()),
            threshold: Field::new(DEFAULT_THRESHOLD, 5.0),
            max_buckets: Field::new("", None),
            throughput: Field::new(
                DEFAULT_THROUGHPUT,
                Throughput::parse(DEFAULT_THROUGHPUT).ok(),
            ),
            bucket_cost: Field::new(DEFAULT_BUCKET_COST, BucketCost::DEFAULT),
            objective: Objective::Contiguous,
            url: DEFAULT_CLUSTER_URL.into(),
        }
    }
}

fn parse_bucket_cost(text: &str) -> Result<BucketCost, String> {
    BucketCost::parse(text).map_err(|e| format!("Cost per bucket: {e}"))
}

fn parse_weights(text: &str) -> Result<BTreeMap<u32, f64>, String> {
    BalanceOptions::parse_weights(text).map_err(|e| format!("Weights: {e}"))
}

fn parse_threshold(text: &str) -> Result<f64, String> {
    match text.trim() {
        "" => Ok(0.0),
        text => text
            .parse::<f64>()
            .ok()
            .filter(|t| (0.0..=100.0).contains(t))
            .ok_or_else(|| format!("Threshold: '{text}' is not a percentage from 0 to 100.")),
    }
}

fn parse_max_buckets(text: &str) -> Result<Option<u64>, String> {
    match text.trim() {
        "" => Ok(None),
        text => text.parse::<u64>().map(Some).map_err(|_| {
            format!("Max buckets: '{text}' is not a whole number; leave it empty for no cap.")
        }),
    }
}

fn parse_throughput(text: &str) -> Result<Option<Throughput>, String> {
    match text.trim() {
        "" => Ok(None),
        text => Throughput::parse(text)
            .map(Some)
            .map_err(|e| format!("Throughput: {e}")),
    }
}

/// A balance in the worker.
#[derive(Debug, Clone, Default)]
struct Runs {
    /// The last run started.
    last: u64,
    /// The run whose balance is awaited.
    balancing: Option<u64>,
    /// The run whose comparison is awaited (its balance came).
    comparing: Option<u64>,
    /// The run whose plan is awaited, and the plan wanted it answers.
    planning: Option<(u64, u64)>,
    /// The worker holds this load (its number), in this worker (its instance).
    held: Option<(u64, u64)>,
    /// Why the last balance did not come (it was cancelled, or the worker stopped), or
    /// that the worker stopped.
    message: Option<String>,
}

/// The Resharding view's state.
#[derive(Debug, Clone)]
pub struct ReshardState {
    inputs: Inputs,
    /// What each bucket of the configuration in force holds, from the host, and the change
    /// it was asked at: kept until the next one comes (a change of target does not ask
    /// again; an edit shows the plan of the last load until the new one comes).
    load: Option<(u64, Rc<BucketLoad>)>,
    /// The number of the load held (one more for each load taken), as the balance worker
    /// knows it.
    load_number: u64,
    /// A target that adds or removes prefixes, until the host has checked them against the
    /// IDs (the target before stays until then).
    checking: Option<Rc<Topology>>,
    runs: Runs,
    shown: bool,
    target: Option<Rc<Topology>>,
    problem: Option<ConfigProblem>,
    by: Measure,
    fields: OptionFields,
    obstacles: Rc<Vec<Obstacle>>,
    balance_notes: Rc<Vec<String>>,
    objectives: Rc<Vec<ObjectiveSummary>>,
    step: u64,
    view: Option<Rc<ReshardView>>,
    migration: Option<Rc<Result<StepShown, String>>>,
    /// The view is not of the target, options or load now: a plan is wanted.
    stale: bool,
    /// A step of the walk-through the worker is to show.
    step_wanted: Option<StepAt>,
    /// A shard to drain, until its drain is sent.
    drain: Option<u32>,
    /// One more each time the worker is to be asked something: a plan or a step (while the
    /// view is shown), a drain.
    wanted: u64,
}

impl ReshardState {
    /// The state over `inputs`, with no target and the view not shown.
    pub fn new(inputs: Inputs) -> ReshardState {
        ReshardState {
            inputs,
            load: None,
            load_number: 0,
            checking: None,
            runs: Runs::default(),
            shown: false,
            target: None,
            problem: None,
            by: Measure::Docs,
            fields: OptionFields::default(),
            obstacles: Rc::default(),
            balance_notes: Rc::default(),
            objectives: Rc::default(),
            step: 0,
            view: None,
            migration: None,
            stale: true,
            step_wanted: None,
            drain: None,
            wanted: 0,
        }
    }

    /// What the state works from.
    pub fn inputs(&self) -> &Inputs {
        &self.inputs
    }

    /// Whether the view is shown.
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// The target, or the configuration in force when none is shaped yet.
    pub fn target(&self) -> &Rc<Topology> {
        self.target.as_ref().unwrap_or(&self.inputs.current)
    }

    /// Whether a target is being shaped.
    pub fn has_target(&self) -> bool {
        self.target.is_some()
    }

    /// Whether the host's load per bucket is wanted: the view is shown and the load held (if
    /// any) is of an earlier change of the workspace.
    pub fn load_wanted(&self) -> bool {
        self.shown
            && self
                .load
                .as_ref()
                .is_none_or(|(c, _)| *c != self.inputs.changes)
    }

    /// A target whose prefix changes the host is to check against the IDs
    /// ([`ReshardAction::PrefixesChecked`]).
    pub fn checking(&self) -> Option<&Rc<Topology>> {
        self.checking.as_ref()
    }

    /// Why the last change of the target was refused.
    pub fn problem(&self) -> Option<&ConfigProblem> {
        self.problem.as_ref()
    }

    /// What balancing counts.
    pub fn by(&self) -> Measure {
        self.by
    }

    /// The weights field.
    pub fn weights(&self) -> &Field<BTreeMap<u32, f64>> {
        &self.fields.weights
    }

    /// The threshold field (percent).
    pub fn threshold(&self) -> &Field<f64> {
        &self.fields.threshold
    }

    /// The cap on buckets moved.
    pub fn max_buckets(&self) -> &Field<Option<u64>> {
        &self.fields.max_buckets
    }

    /// The throughput field of the estimate.
    pub fn throughput(&self) -> &Field<Option<Throughput>> {
        &self.fields.throughput
    }

    /// The cost-per-bucket field of the estimate.
    pub fn bucket_cost(&self) -> &Field<BucketCost> {
        &self.fields.bucket_cost
    }

    /// What balancing optimizes.
    pub fn objective(&self) -> Objective {
        self.fields.objective
    }

    /// The URL of the node the calls go to.
    pub fn cluster_url(&self) -> &str {
        &self.fields.url
    }

    /// The last balance's figures under each objective.
    pub fn objectives(&self) -> &Rc<Vec<ObjectiveSummary>> {
        &self.objectives
    }

    /// What to ask the worker `worker` for the calls that carry out the plan to the target,
    /// to the node of [`cluster_url`](Self::cluster_url), as a shell script (`script`) or
    /// JSON; `None` before the host's load came.
    pub fn calls_request(&self, worker: Option<u64>, script: bool) -> Option<CallsRequest> {
        Some(CallsRequest {
            plan: self.plan_of(worker, 0, StepAt::To(self.step))?,
            url: self.fields.url.clone(),
            script,
        })
    }

    /// Whether the plan shown is not of the target, options or documents now (the next one
    /// is on its way), or a step of the walk-through is awaited.
    pub fn planning(&self) -> bool {
        self.shown && (self.stale || self.step_wanted.is_some())
    }

    /// One more each time the worker is to be asked something: the page then sends
    /// [`drain_request`](Self::drain_request) and [`plan_request`](Self::plan_request).
    pub fn worker_wanted(&self) -> u64 {
        self.wanted
    }

    /// What to ask the worker `worker` (as for [`plan_request`](Self::plan_request)) to
    /// drain the shard [`ReshardAction::DrainShard`] named, once the host's load came.
    pub fn drain_request(&self, worker: Option<u64>) -> Option<DrainRequest> {
        let shard = self.drain?;
        let (load, data) = self.load_for(worker)?;
        Some(DrainRequest {
            run: self.runs.last + 1,
            load,
            data,
            target: self.target().to_json(),
            shard,
            by: self.by,
        })
    }

    /// What to ask the worker `worker` (the running one's instance, `None` when none runs)
    /// to plan, while the view is shown and wants a plan or a step: the load goes with it
    /// unless that worker holds it. `None` before the host's load came.
    pub fn plan_request(&self, worker: Option<u64>) -> Option<PlanRequest> {
        if !self.planning() {
            return None;
        }
        let step = self.step_wanted.unwrap_or(StepAt::To(self.step));
        self.plan_of(worker, self.runs.last + 1, step)
    }

    /// The plan of the target, run `run`, for the worker `worker`.
    fn plan_of(&self, worker: Option<u64>, run: u64, step: StepAt) -> Option<PlanRequest> {
        let (load, data) = self.load_for(worker)?;
        let current = &self.inputs.current;
        Some(PlanRequest {
            run,
            load,
            data,
            current: current.to_json(),
            target: self.target().to_json(),
            database: current.database().to_string(),
            options: self.plan_options(),
            step,
        })
    }

    /// How the plan counts and estimates: a throughput only while its field is valid.
    fn plan_options(&self) -> PlanOptions {
        let throughput = self.fields.throughput.is_valid();
        PlanOptions {
            measure: self.by,
            throughput: throughput
                .then(|| *self.fields.throughput.value())
                .flatten(),
            bucket_cost: *self.fields.bucket_cost.value(),
        }
    }

    /// Why the first option field that cannot be used cannot.
    pub fn option_error(&self) -> Option<&str> {
        let f = &self.fields;
        [
            f.weights.error(),
            f.threshold.error(),
            f.max_buckets.error(),
            f.throughput.error(),
            f.bucket_cost.error(),
        ]
        .into_iter()
        .flatten()
        .next()
        .map(|e| e.as_str())
    }

    /// Buckets the last balance could not split.
    pub fn obstacles(&self) -> &Rc<Vec<Obstacle>> {
        &self.obstacles
    }

    /// What the last balance had to say.
    pub fn balance_notes(&self) -> &Rc<Vec<String>> {
        &self.balance_notes
    }

    /// The number of the load of the inputs (one more for each new inputs).
    pub fn load_number(&self) -> u64 {
        self.load_number
    }

    /// Whether a balance is under way in the worker.
    pub fn balancing(&self) -> bool {
        self.runs.balancing.is_some()
    }

    /// Whether the other objective's figures are still to come.
    pub fn comparing(&self) -> bool {
        self.runs.comparing.is_some()
    }

    /// Why the last balance did not come (the worker stopped, or it was cancelled).
    pub fn balance_message(&self) -> Option<&str> {
        self.runs.message.as_deref()
    }

    /// The number of the load a request names, and the load itself unless the worker
    /// `worker` holds it; `None` before the host's load came.
    fn load_for(&self, worker: Option<u64>) -> Option<(u64, Option<LoadData>)> {
        let load = self.load()?;
        let held = worker.is_some_and(|w| self.runs.held == Some((self.load_number, w)));
        let data = (!held).then(|| LoadData::of(self.load_number, &load));
        Some((self.load_number, data))
    }

    /// What to ask the worker `worker` (as for [`plan_request`](Self::plan_request)) to
    /// balance the target with the view's options: the load goes with it unless that
    /// worker holds it. `None` while an option field cannot be used, or before the host's
    /// load came.
    pub fn balance_request(&self, worker: Option<u64>) -> Option<BalanceRequest> {
        let options = self.options().ok()?;
        let (load, data) = self.load_for(worker)?;
        Some(BalanceRequest {
            run: self.runs.last + 1,
            load,
            data,
            target: self.target().to_json(),
            options,
        })
    }

    /// The walk-through's step (from 0).
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The walk-through's step, when the plan moves buckets.
    pub fn migration(&self) -> Option<&Rc<Result<StepShown, String>>> {
        self.migration.as_ref()
    }

    /// The view, once a plan came (the last one while the next is awaited:
    /// [`planning`](Self::planning)).
    pub fn view(&self) -> Option<&Rc<ReshardView>> {
        self.view.as_ref()
    }

    /// The target is dropped (started again, or the configuration in force changed); the
    /// balance form keeps its fields, and the load its figures while the inputs stay.
    fn reset(&mut self) {
        let inputs = self.inputs.clone();
        *self = ReshardState {
            load: self.load.clone(),
            shown: self.shown,
            by: self.by,
            fields: self.fields.clone(),
            load_number: self.load_number,
            runs: Runs {
                last: self.runs.last,
                held: self.runs.held,
                ..Runs::default()
            },
            wanted: self.wanted,
            ..ReshardState::new(inputs)
        };
    }

    /// What each bucket of the configuration in force holds: the last load the host sent.
    fn load(&self) -> Option<Rc<BucketLoad>> {
        self.load.as_ref().map(|(_, load)| Rc::clone(load))
    }

    /// Goes to another step of the walk-through: at once to a step the page can count,
    /// through the worker to the next one holding documents.
    fn move_step(&mut self, to: StepMove) {
        let at = self.step;
        let steps = match self.view.as_deref() {
            Some(ReshardView { plan: Ok(p) }) => p.steps(),
            _ => 0,
        };
        let next = match to {
            StepMove::First => 0,
            StepMove::Previous => at.saturating_sub(1),
            StepMove::Next => at.saturating_add(1),
            StepMove::NextBucket => (at / 4).saturating_add(1).saturating_mul(4),
            StepMove::NextWithDocuments => {
                self.step_wanted = Some(StepAt::NextWithDocuments(at));
                return;
            }
            StepMove::Last => u64::MAX,
            StepMove::To(step) => step,
        };
        self.step = next.min(steps.saturating_sub(1));
        self.step_wanted = Some(StepAt::To(self.step));
    }

    fn apply(&mut self, action: ReshardAction) {
        let target = Rc::clone(self.target());
        // Whether the worker is to be asked again (a step, the view shown, a plan lost).
        let mut ask = false;
        if action.changes_target() {
            // A balance of the target before is moot: its reply is dropped.
            self.runs.balancing = None;
            self.runs.comparing = None;
        }
        if action.changes_target() && !matches!(action, ReshardAction::Inputs(_)) {
            // A target shaped now replaces one waiting for its prefixes' check.
            self.checking = None;
        }
        let stale = match action {
            ReshardAction::SetTarget(json) => self.set_target_json(&json),
            ReshardAction::ResetTarget => {
                self.reset();
                true
            }
            ReshardAction::AddShard => {
                let Inputs {
                    nodes,
                    replication_factor,
                    ..
                } = &self.inputs;
                let count = target.shards().len() as u32 + 1;
                let members = assign_members(count, nodes, *replication_factor)
                    .ok()
                    .and_then(|m| m.last().cloned())
                    .unwrap_or_default();
                self.outcome(add_shard(&target, members).map(|(t, _)| t))
            }
            ReshardAction::RemoveShard(shard) => self.outcome(remove_shard(&target, shard)),
            ReshardAction::DrainShard(shard) => {
                self.drain = Some(shard);
                ask = true;
                false
            }
            #[cfg(test)]
            ReshardAction::Balance => self.balance_here(),
            ReshardAction::BalanceSent { run, worker } => {
                self.drain = None;
                self.runs.last = self.runs.last.max(run);
                self.runs.balancing = Some(run);
                self.runs.message = None;
                self.runs.held = worker.map(|w| (self.load_number, w));
                false
            }
            ReshardAction::PlanSent {
                run,
                worker,
                wanted,
            } => {
                self.runs.last = self.runs.last.max(run);
                self.runs.planning = Some((run, wanted));
                self.runs.held = worker.map(|w| (self.load_number, w));
                false
            }
            ReshardAction::CancelBalance => {
                if self.runs.balancing.take().is_some() {
                    self.runs.message = Some("The balance was cancelled.".into());
                }
                self.runs.comparing = None;
                self.runs.held = None;
                // The worker is stopped: a plan it had is asked of the next one.
                ask = self.runs.planning.take().is_some();
                false
            }
            ReshardAction::Reply(reply) => self.reply(reply),
            ReshardAction::SetBy(by) => {
                self.by = by;
                true
            }
            ReshardAction::SetWeights(text) => {
                self.fields.weights.input(text, parse_weights);
                false
            }
            ReshardAction::SetThreshold(text) => {
                self.fields.threshold.input(text, parse_threshold);
                false
            }
            ReshardAction::SetMaxBuckets(text) => {
                self.fields.max_buckets.input(text, parse_max_buckets);
                false
            }
            ReshardAction::SetThroughput(text) => {
                self.fields.throughput.input(text, parse_throughput);
                true
            }
            ReshardAction::SetBucketCost(text) => {
                self.fields.bucket_cost.input(text, parse_bucket_cost);
                true
            }
            ReshardAction::SetObjective(objective) => {
                self.fields.objective = objective;
                false
            }
            ReshardAction::SetClusterUrl(url) => {
                self.fields.url = url;
                false
            }
            ReshardAction::MoveStep(to) => {
                self.move_step(to);
                ask = true;
                false
            }
            ReshardAction::Inputs(inputs) => {
                let moved = inputs.revision != self.inputs.revision;
                self.inputs = inputs;
                if moved {
                    // Another configuration places the documents in other buckets (its
                    // prefixes): its load is asked for, the plan waits for it.
                    self.load = None;
                    self.reset();
                }
                // The same configuration: the plan of the last load stays until the next.
                moved
            }
            ReshardAction::Load { changes, load } => {
                let held = self.load.as_ref().is_some_and(|(c, _)| *c == changes);
                if changes != self.inputs.changes || held {
                    return;
                }
                self.load = Some((changes, load));
                self.load_number += 1;
                true
            }
            ReshardAction::PrefixesChecked {
                configuration,
                problem,
            } => self.prefixes_checked(&configuration, problem),
            ReshardAction::Show(shown) => {
                self.shown = shown;
                ask = shown;
                false
            }
        };
        self.stale |= stale;
        let wants = self.planning() || self.drain.is_some();
        if (stale || ask) && wants && self.load.is_some() {
            self.wanted += 1;
        }
    }

    /// A target from its JSON: taken now, unless it adds or removes prefixes (RavenDB
    /// refuses both while a document starts with the prefix): it then waits for the host's
    /// check against the IDs.
    fn set_target_json(&mut self, json: &str) -> bool {
        let current = &self.inputs.current;
        let read = read_configuration(json).map(|mut t| {
            t.set_database(current.database());
            t
        });
        match read {
            Ok(t) if changes_prefixes(current, &t) => {
                self.checking = Some(Rc::new(t));
                self.problem = None;
                false
            }
            Ok(t) => {
                self.checking = None;
                self.outcome(Ok(t))
            }
            Err(problem) => {
                self.problem = Some(problem);
                true
            }
        }
    }

    /// The host's check of the prefixes of the target waiting for it; another target's is
    /// dropped.
    fn prefixes_checked(&mut self, configuration: &str, problem: Option<String>) -> bool {
        let Some(t) = self.checking.take_if(|t| t.to_json() == configuration) else {
            return false;
        };
        match problem {
            None => self.outcome(Ok(Rc::unwrap_or_clone(t))),
            Some(message) => {
                self.problem = Some(ConfigProblem::new(message));
                true
            }
        }
    }

    /// Takes a new target, or shows why it cannot be had.
    fn outcome(&mut self, result: Result<Topology, ReshardError>) -> bool {
        match result {
            Ok(t) => {
                self.target = Some(Rc::new(t));
                self.problem = None;
            }
            Err(e) => self.problem = Some(ConfigProblem::new(e)),
        }
        true
    }

    /// The balance options from the fields, or what is wrong with them.
    fn options(&self) -> Result<BalanceOptions, String> {
        if let Some(error) = self.option_error() {
            return Err(error.to_string());
        }
        let f = &self.fields;
        Ok(BalanceOptions {
            by: self.by,
            weights: f.weights.value().clone(),
            threshold: *f.threshold.value(),
            max_buckets: *f.max_buckets.value(),
            throughput: *f.throughput.value(),
            bucket_cost: *f.bucket_cost.value(),
            objective: f.objective,
        })
    }

    /// [`ReshardAction::Balance`]: the worker's answer, worked out on this thread.
    #[cfg(test)]
    fn balance_here(&mut self) -> bool {
        let Some(request) = self.balance_request(None) else {
            return false;
        };
        self.runs.last = request.run;
        self.runs.balancing = Some(request.run);
        let mut balancer = crate::workers::Balancer::default();
        let balanced = balancer.balance(&request);
        let compared = balancer.compare(&request);
        let stale = self.reply(balanced);
        if let Some(compared) = compared {
            self.reply(compared);
        }
        stale
    }

    /// Takes a reply of the worker; a reply of a run that is no longer awaited is dropped.
    fn reply(&mut self, reply: ReshardReply) -> bool {
        match reply {
            ReshardReply::Balanced { run, balanced } if self.runs.balancing == Some(run) => {
                self.runs.balancing = None;
                self.runs.comparing = Some(run);
                self.balanced(balanced)
            }
            ReshardReply::Compared { run, summary } if self.runs.comparing == Some(run) => {
                self.runs.comparing = None;
                let mut rows = Vec::clone(&self.objectives);
                rows.retain(|r| r.objective != summary.objective);
                rows.push(summary);
                rows.sort_by_key(|r| r.objective);
                self.objectives = Rc::new(rows);
                false
            }
            ReshardReply::BalanceFailed { run, message } if self.runs.balancing == Some(run) => {
                self.runs.balancing = None;
                // The worker may have lost the load: the next balance sends it.
                self.runs.held = None;
                self.problem = Some(ConfigProblem::new(message));
                false
            }
            ReshardReply::Drained { run, target } if self.runs.balancing == Some(run) => {
                self.runs.balancing = None;
                self.drained(target)
            }
            ReshardReply::Planned { run, planned }
                if self.runs.planning.is_some_and(|(r, _)| r == run) =>
            {
                self.planned(*planned);
                false
            }
            ReshardReply::Crashed(Crashed { message }) => {
                self.runs.held = None;
                self.runs.comparing = None;
                if self.runs.planning.take().is_some() {
                    // Not asked again by itself: a plan that panics would panic again.
                    self.stale = false;
                    self.step_wanted = None;
                    self.migration = None;
                    let plan = Err(format!(
                        "The studio's worker stopped while planning ({message}). Change the \
                         target to plan again."
                    ));
                    self.view = Some(Rc::new(ReshardView { plan }));
                }
                let during = match self.runs.balancing.take() {
                    Some(_) => " during the balance",
                    None => "",
                };
                self.runs.message = Some(format!(
                    "The studio's worker stopped{during} ({message}). The view and the \
                     workspace are unaffected: the next balance starts a new worker."
                ));
                false
            }
            // A reply of a run no longer awaited; the calls' file goes to the view
            // (`worker_replies`), not here.
            ReshardReply::Balanced { .. }
            | ReshardReply::Compared { .. }
            | ReshardReply::BalanceFailed { .. }
            | ReshardReply::Drained { .. }
            | ReshardReply::Planned { .. }
            | ReshardReply::Calls(_) => false,
        }
    }

    /// Takes the worker's plan: the one wanted now, or an older one, shown until the one
    /// wanted now comes.
    fn planned(&mut self, planned: Planned) {
        let Some((_, wanted)) = self.runs.planning.take() else {
            return;
        };
        if wanted == self.wanted {
            self.stale = false;
            self.step_wanted = None;
            self.step = planned.step;
        }
        self.migration = planned.migration.map(Rc::new);
        self.view = Some(Rc::new(ReshardView { plan: planned.plan }));
    }

    /// Takes a drained target (its JSON), or shows why there is none.
    fn drained(&mut self, target: Result<String, String>) -> bool {
        let read = target.and_then(|json| {
            let mut t = Topology::from_json(&json)
                .map_err(|e| format!("The worker's drained target does not read: {e}"))?;
            t.set_database(self.inputs.current.database());
            Ok(t)
        });
        match read {
            Ok(t) => {
                self.obstacles = Rc::default();
                self.balance_notes = Rc::default();
                self.objectives = Rc::default();
                self.outcome(Ok(t))
            }
            Err(message) => {
                self.problem = Some(ConfigProblem::new(message));
                // A plan wanted meanwhile waited for the drain: it is asked now.
                true
            }
        }
    }

    /// Takes a balanced target.
    fn balanced(&mut self, balanced: Balanced) -> bool {
        let Balanced {
            target,
            notes,
            obstacles,
            summary,
        } = balanced;
        let target = Topology::from_json(&target).map(|mut t| {
            t.set_database(self.inputs.current.database());
            t
        });
        match target {
            Ok(t) => {
                self.obstacles = Rc::new(obstacles);
                self.balance_notes = Rc::new(notes);
                self.objectives = Rc::new(vec![summary]);
                self.step = 0;
                self.target = Some(Rc::new(t));
                self.problem = None;
            }
            Err(e) => {
                self.runs.comparing = None;
                self.problem = Some(ConfigProblem::new(format!(
                    "The worker's balanced target does not read: {e}"
                )));
            }
        }
        true
    }
}

impl ReshardAction {
    /// Whether the action changes the target (or what it is shaped from).
    fn changes_target(&self) -> bool {
        match self {
            ReshardAction::SetTarget(_)
            | ReshardAction::ResetTarget
            | ReshardAction::AddShard
            | ReshardAction::RemoveShard(_)
            | ReshardAction::DrainShard(_)
            | ReshardAction::Inputs(_) => true,
            #[cfg(test)]
            ReshardAction::Balance => true,
            _ => false,
        }
    }
}

impl Reducible for ReshardState {
    type Action = ReshardAction;

    fn reduce(self: Rc<Self>, action: ReshardAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
