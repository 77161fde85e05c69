//! The Resharding view's part of the state: a target configuration shaped by the user
//! (edited ranges and prefixes, an added, drained or removed shard, a balance), the plan
//! from the configuration in force to it, and a step of RavenDB's migration.
//!
//! The core computes everything (`ravenshard_reshard`), off the page. The documents
//! are the workspace's host's: while the view is shown ([`ReshardAction::Show`]) and the
//! documents rested ([`ReshardState::load_wanted`], [`ReshardAction::Load`]) its requests
//! name that change, and the view's worker asks the host for the load per bucket at it;
//! a target that adds or removes prefixes waits for the host's check of them against the
//! IDs ([`ReshardState::checking`], [`ReshardAction::PrefixesChecked`]); the documents as
//! the target places them are the host's too (the bucket map asks it).
//!
//! The plan, the walk-through's step and the calls are the Resharding view's worker's: a
//! plan sends it the change, the target, the options and the step
//! ([`ReshardState::plan_request`], [`ReshardAction::PlanSent`]); the plan comes back as
//! the view shows it ([`ReshardReply::Planned`](crate::workers::ReshardReply::Planned)). The plan shown stays until the next one comes
//! ([`ReshardState::planning`]). A balance runs in the same worker
//! ([`ReshardState::balance_request`], [`ReshardAction::BalanceSent`]): the balanced target
//! comes back ([`ReshardReply::Balanced`](crate::workers::ReshardReply::Balanced)), then the other objective's figures
//! ([`ReshardReply::Compared`](crate::workers::ReshardReply::Compared)), and the target is planned.

mod action;
mod options;
mod requests;
mod runs;
mod target;

pub use action::{Inputs, ReshardAction, StepMove};
pub use options::{
    DEFAULT_BUCKET_COST, DEFAULT_CLUSTER_URL, DEFAULT_THRESHOLD, DEFAULT_THROUGHPUT,
};

use crate::state::config::ConfigProblem;
use crate::workers::{PlanShown, StepAt, StepShown};
use options::OptionFields;
use ravenshard::Topology;
use ravenshard_reshard::{Measure, ObjectiveSummary, Obstacle};
use runs::Runs;
use std::rc::Rc;
use yew::Reducible;

/// What the view shows: the worker's plan.
#[derive(Debug)]
pub struct ReshardView {
    /// The plan from the configuration in force to the target, or why there is none.
    pub plan: Result<PlanShown, String>,
}

/// The Resharding view's state.
#[derive(Debug, Clone)]
pub struct ReshardState {
    inputs: Inputs,
    /// The change of the workspace whose load per bucket the worker plans from (the
    /// documents rested there): kept until the next (a change of target does not ask
    /// again; an edit shows the plan of the last load until the new one's comes).
    load: Option<u64>,
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

    /// Whether the load of a newer change is wanted: the view is shown and the load planned
    /// from (if any) is of an earlier change of the workspace.
    pub fn load_wanted(&self) -> bool {
        self.shown && self.load != Some(self.inputs.changes)
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
            load: self.load,
            shown: self.shown,
            by: self.by,
            fields: self.fields.clone(),
            runs: Runs {
                last: self.runs.last,
                ..Runs::default()
            },
            wanted: self.wanted,
            ..ReshardState::new(inputs)
        };
    }

    /// Goes to another step of the walk-through: at once to a step the page can count,
    /// through the worker to the next one holding documents.
    fn move_step(&mut self, to: StepMove) {
        let at = self.step;
        let plan = self.view.as_deref().and_then(|v| v.plan.as_ref().ok());
        let steps = plan.map_or(0, |p| p.steps());
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

    /// Takes an action: what it changes, then whether the worker is to be asked (a plan,
    /// a step or a drain).
    fn apply(&mut self, action: ReshardAction) {
        if action.changes_target() {
            // A balance of the target before is moot: its reply is dropped.
            self.runs.balancing = None;
            self.runs.comparing = None;
        }
        if action.changes_target() && !matches!(action, ReshardAction::Inputs(_)) {
            // A target shaped now replaces one waiting for its prefixes' check.
            self.checking = None;
        }
        let Some((stale, ask)) = self.take(action) else {
            return;
        };
        self.stale |= stale;
        let wants = self.planning() || self.drain.is_some();
        if (stale || ask) && wants && self.load.is_some() {
            self.wanted += 1;
        }
    }

    /// What an action changes: whether the plan shown is no longer of the target, options
    /// or load (`stale`), and whether the worker is to be asked again though it is not (a
    /// step, the view shown, a plan lost, a drain). `None`: the action is dropped.
    fn take(&mut self, action: ReshardAction) -> Option<(bool, bool)> {
        let stale = |stale: bool| Some((stale, false));
        let ask = |ask: bool| Some((false, ask));
        match action {
            ReshardAction::SetTarget(json) => stale(self.set_target_json(&json)),
            ReshardAction::ResetTarget => {
                self.reset();
                stale(true)
            }
            ReshardAction::AddShard => stale(self.add_shard()),
            ReshardAction::RemoveShard(shard) => stale(self.remove_shard(shard)),
            ReshardAction::DrainShard(shard) => ask(self.drain_shard(shard)),
            #[cfg(test)]
            ReshardAction::Balance(load) => stale(self.balance_here(&load)),
            ReshardAction::BalanceSent { run } => stale(self.balance_sent(run)),
            ReshardAction::PlanSent { run, wanted } => stale(self.plan_sent(run, wanted)),
            ReshardAction::CancelBalance => ask(self.cancel_balance()),
            ReshardAction::Reply(reply) => stale(self.reply(reply)),
            ReshardAction::SetBy(by) => {
                self.by = by;
                stale(true)
            }
            ReshardAction::SetWeights(text) => stale(self.fields.set_weights(text)),
            ReshardAction::SetThreshold(text) => stale(self.fields.set_threshold(text)),
            ReshardAction::SetMaxBuckets(text) => stale(self.fields.set_max_buckets(text)),
            ReshardAction::SetThroughput(text) => stale(self.fields.set_throughput(text)),
            ReshardAction::SetBucketCost(text) => stale(self.fields.set_bucket_cost(text)),
            ReshardAction::SetObjective(objective) => stale(self.fields.set_objective(objective)),
            ReshardAction::SetClusterUrl(url) => stale(self.fields.set_url(url)),
            ReshardAction::MoveStep(to) => {
                self.move_step(to);
                ask(true)
            }
            ReshardAction::Inputs(inputs) => stale(self.take_inputs(inputs)),
            ReshardAction::Load { changes } => stale(self.take_load(changes)?),
            ReshardAction::PrefixesChecked {
                configuration,
                problem,
            } => stale(self.prefixes_checked(&configuration, problem)),
            ReshardAction::Show(shown) => {
                self.shown = shown;
                ask(shown)
            }
        }
    }

    /// New inputs: another configuration in force drops the target and the load (it places
    /// the documents in other buckets: its load is asked for, the plan waits for it); with
    /// the same configuration the plan of the last load stays until the next.
    fn take_inputs(&mut self, inputs: Inputs) -> bool {
        let moved = inputs.revision != self.inputs.revision;
        self.inputs = inputs;
        if moved {
            self.load = None;
            self.reset();
        }
        moved
    }

    /// The documents rested at change `changes`: `None` (dropped) when it is another change
    /// than the inputs', or the one planned from already.
    fn take_load(&mut self, changes: u64) -> Option<bool> {
        if changes != self.inputs.changes || self.load == Some(changes) {
            return None;
        }
        self.load = Some(changes);
        Some(true)
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
