//! The Resharding view's part of the state: a target configuration shaped by the user
//! (edited ranges and prefixes, an added, drained or removed shard, a balance), the plan
//! from the configuration in force to it, and a step of RavenDB's migration.
//!
//! The core computes everything (`ravenshard_design::reshard`). What is derived from the
//! documents (the load per bucket, the plan, the documents placed by the target) is
//! computed only while the view is shown: [`ReshardState::refresh`].

use super::{read_configuration, ConfigProblem};
use ravenshard::Topology;
use ravenshard_design::reshard::{
    add_shard, balance, check_prefix_changes, drain_shard, migration_step,
    next_step_with_documents, plan, remove_shard, BalanceOptions, BucketLoad, Measure,
    MigrationStep, Obstacle, Plan, PlanNote, PlanOptions, ReshardError, Throughput,
};
use ravenshard_model::workspace::{assign_members, Document, Placement, PlacementOptions};
use std::rc::Rc;

/// The throughput the estimate opens with.
pub const DEFAULT_THROUGHPUT: &str = "20MB/s";

/// What a user does in the Resharding view.
#[derive(Debug, Clone, PartialEq)]
pub enum ReshardAction {
    /// A whole target `ShardingConfiguration` JSON (from the target's editors).
    SetTarget(String),
    /// Start again from the configuration in force.
    ResetTarget,
    /// Make the target the configuration in force (handled by the state).
    ApplyTarget,
    /// Add a shard to the target (it owns no buckets).
    AddShard,
    /// Remove a shard from the target (it must own no buckets).
    RemoveShard(u32),
    /// Move every bucket of a shard of the target elsewhere, evenly.
    DrainShard(u32),
    /// Balance the target with the view's options.
    Balance,
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
    /// Show this step of the migration walk-through.
    SetStep(u64),
    /// Show the next step that starts moving a bucket holding documents.
    NextStepWithDocuments,
}

/// What the view shows, derived from the documents, the configuration and the target.
#[derive(Debug)]
pub struct ReshardView {
    /// The plan from the configuration in force to the target, or why there is none.
    pub plan: Result<Plan, String>,
    /// The documents placed by the target (the configuration's placement when there is no
    /// target).
    pub after: Rc<Placement>,
    load: Rc<BucketLoad>,
}

/// The Resharding view's state.
#[derive(Debug, Clone)]
pub struct ReshardState {
    target: Option<Rc<Topology>>,
    problem: Option<ConfigProblem>,
    by: Measure,
    weights: String,
    threshold: String,
    max_buckets: String,
    throughput: String,
    option_error: Option<String>,
    obstacles: Rc<Vec<Obstacle>>,
    balance_notes: Rc<Vec<PlanNote>>,
    step: u64,
    view: Option<Rc<ReshardView>>,
    migration: Option<Rc<Result<MigrationStep, String>>>,
}

impl Default for ReshardState {
    fn default() -> Self {
        ReshardState {
            target: None,
            problem: None,
            by: Measure::Docs,
            weights: String::new(),
            threshold: "5".into(),
            max_buckets: String::new(),
            throughput: DEFAULT_THROUGHPUT.into(),
            option_error: None,
            obstacles: Rc::default(),
            balance_notes: Rc::default(),
            step: 0,
            view: None,
            migration: None,
        }
    }
}

/// What the Resharding state needs from the rest of the state.
pub struct Context<'a> {
    /// The configuration in force.
    pub current: &'a Rc<Topology>,
    /// The documents.
    pub documents: &'a [Document],
    /// Their placement by the configuration in force.
    pub placement: &'a Rc<Placement>,
    /// How they were placed (the design, if on).
    pub options: &'a PlacementOptions,
    /// The cluster's nodes, for a new shard's members.
    pub nodes: &'a [String],
    /// The replication factor, for a new shard's members.
    pub replication_factor: u32,
}

impl ReshardState {
    /// The target, or the configuration in force when none is shaped yet.
    pub fn target<'a>(&'a self, current: &'a Rc<Topology>) -> &'a Rc<Topology> {
        self.target.as_ref().unwrap_or(current)
    }

    /// Whether a target is being shaped.
    pub fn has_target(&self) -> bool {
        self.target.is_some()
    }

    /// Why the last change of the target was refused.
    pub fn problem(&self) -> Option<&ConfigProblem> {
        self.problem.as_ref()
    }

    /// What balancing counts.
    pub fn by(&self) -> Measure {
        self.by
    }

    /// The option fields, as typed: weights, threshold, max buckets, throughput.
    pub fn fields(&self) -> [&str; 4] {
        [
            &self.weights,
            &self.threshold,
            &self.max_buckets,
            &self.throughput,
        ]
    }

    /// Why an option field cannot be used.
    pub fn option_error(&self) -> Option<&str> {
        self.option_error.as_deref()
    }

    /// Buckets the last balance could not split.
    pub fn obstacles(&self) -> Rc<Vec<Obstacle>> {
        Rc::clone(&self.obstacles)
    }

    /// What the last balance had to say.
    pub fn balance_notes(&self) -> Rc<Vec<PlanNote>> {
        Rc::clone(&self.balance_notes)
    }

    /// The walk-through's step.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The walk-through's step, when the plan moves buckets.
    pub fn migration(&self) -> Option<Rc<Result<MigrationStep, String>>> {
        self.migration.clone()
    }

    /// The derived view, when computed.
    pub fn view(&self) -> Option<Rc<ReshardView>> {
        self.view.clone()
    }

    /// Forgets what was derived from the documents or the configuration.
    pub fn invalidate(&mut self) {
        self.view = None;
    }

    /// The configuration in force changed: a target shaped from the old one is dropped.
    pub fn reset(&mut self) {
        *self = ReshardState {
            by: self.by,
            weights: std::mem::take(&mut self.weights),
            threshold: std::mem::take(&mut self.threshold),
            max_buckets: std::mem::take(&mut self.max_buckets),
            throughput: std::mem::take(&mut self.throughput),
            ..ReshardState::default()
        };
    }

    /// What each bucket of the configuration in force holds: the view's, when it is
    /// computed (it is dropped whenever the placement changes), else read from the placement.
    fn load(&self, cx: &Context) -> Rc<BucketLoad> {
        match &self.view {
            Some(view) => Rc::clone(&view.load),
            None => Rc::new(cx.placement.bucket_load()),
        }
    }

    /// Computes the view if it is stale.
    pub fn refresh(&mut self, cx: &Context) {
        if self.view.is_some() {
            return;
        }
        let load = self.load(cx);
        let target = Rc::clone(self.target(cx.current));
        let after = if Rc::ptr_eq(&target, cx.current) {
            Rc::clone(cx.placement)
        } else {
            Rc::new(Placement::new(cx.documents, &target, cx.options))
        };
        let options = PlanOptions {
            measure: self.by,
            throughput: Throughput::parse(&self.throughput).ok(),
        };
        let plan = plan(cx.current, &target, &load, &options).map_err(|e| e.to_string());
        self.view = Some(Rc::new(ReshardView { plan, after, load }));
        self.refresh_step(cx.current);
    }

    /// Computes the walk-through's step (clamped to the plan's steps).
    fn refresh_step(&mut self, current: &Topology) {
        self.migration = self.view.as_ref().and_then(|view| match &view.plan {
            Ok(p) if p.buckets_moved > 0 => {
                self.step = self.step.min(p.buckets_moved * 4 - 1);
                let step = migration_step(current, p, &view.load, self.step);
                Some(Rc::new(step.map_err(|e| e.to_string())))
            }
            _ => None,
        });
    }

    /// Does what the user asked. `ApplyTarget` is the state's to handle.
    pub fn apply(&mut self, action: ReshardAction, cx: &Context) {
        let target = Rc::clone(self.target(cx.current));
        let changed = match action {
            ReshardAction::SetTarget(json) => self.set_target_json(&json, cx),
            ReshardAction::ResetTarget => {
                self.reset();
                true
            }
            ReshardAction::ApplyTarget => false,
            ReshardAction::AddShard => {
                let count = target.shards().len() as u32 + 1;
                let members = assign_members(count, cx.nodes, cx.replication_factor)
                    .ok()
                    .and_then(|m| m.last().cloned())
                    .unwrap_or_default();
                self.outcome(add_shard(&target, members).map(|(t, _)| t))
            }
            ReshardAction::RemoveShard(shard) => self.outcome(remove_shard(&target, shard)),
            ReshardAction::DrainShard(shard) => {
                let load = self.load(cx);
                self.outcome(drain_shard(&target, shard, &load, self.by))
            }
            ReshardAction::Balance => self.balance(&target, cx),
            ReshardAction::SetBy(by) => {
                self.by = by;
                true
            }
            ReshardAction::SetWeights(text) => self.set_field(0, text),
            ReshardAction::SetThreshold(text) => self.set_field(1, text),
            ReshardAction::SetMaxBuckets(text) => self.set_field(2, text),
            ReshardAction::SetThroughput(text) => self.set_field(3, text),
            ReshardAction::SetStep(step) => {
                self.step = step;
                self.refresh_step(cx.current);
                false
            }
            ReshardAction::NextStepWithDocuments => {
                let next = self.view.as_ref().and_then(|view| match &view.plan {
                    Ok(p) => next_step_with_documents(p, &view.load, self.step),
                    Err(_) => None,
                });
                if let Some(step) = next {
                    self.step = step;
                    self.refresh_step(cx.current);
                }
                false
            }
        };
        if changed {
            self.view = None;
        }
    }

    fn set_target_json(&mut self, json: &str, cx: &Context) -> bool {
        let checked = read_configuration(json).and_then(|mut t| {
            t.set_database(cx.current.database());
            let ids = (0..cx.placement.len()).filter_map(|i| cx.placement.lower_id(i));
            check_prefix_changes(cx.current, &t, ids)
                .map(|()| t)
                .map_err(|e| ConfigProblem {
                    message: e.to_string(),
                    path: None,
                })
        });
        match checked {
            Ok(t) => {
                self.target = Some(Rc::new(t));
                self.problem = None;
            }
            Err(problem) => self.problem = Some(problem),
        }
        true
    }

    /// Takes a new target, or shows why it cannot be had.
    fn outcome(&mut self, result: Result<Topology, ReshardError>) -> bool {
        match result {
            Ok(t) => {
                self.target = Some(Rc::new(t));
                self.problem = None;
            }
            Err(e) => {
                self.problem = Some(ConfigProblem {
                    message: e.to_string(),
                    path: None,
                })
            }
        }
        true
    }

    fn set_field(&mut self, index: usize, text: String) -> bool {
        let field = match index {
            0 => &mut self.weights,
            1 => &mut self.threshold,
            2 => &mut self.max_buckets,
            _ => &mut self.throughput,
        };
        *field = text;
        self.option_error = self.options().err();
        index == 3
    }

    /// The balance options from the fields, or what is wrong with them.
    fn options(&self) -> Result<BalanceOptions, String> {
        let weights =
            BalanceOptions::parse_weights(&self.weights).map_err(|e| format!("Weights: {e}"))?;
        let threshold = match self.threshold.trim() {
            "" => 0.0,
            text => text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .filter(|t| (0.0..=100.0).contains(t))
                .ok_or_else(|| format!("Threshold: '{text}' is not a percentage from 0 to 100."))?,
        };
        let max_buckets = match self.max_buckets.trim() {
            "" => None,
            text => Some(text.parse::<u64>().map_err(|_| {
                format!("Max buckets: '{text}' is not a whole number; leave it empty for no cap.")
            })?),
        };
        let throughput = match self.throughput.trim() {
            "" => None,
            text => Some(Throughput::parse(text).map_err(|e| format!("Throughput: {e}"))?),
        };
        Ok(BalanceOptions {
            by: self.by,
            weights,
            threshold,
            max_buckets,
            throughput,
        })
    }

    fn balance(&mut self, target: &Topology, cx: &Context) -> bool {
        let options = match self.options() {
            Ok(o) => o,
            Err(e) => {
                self.option_error = Some(e);
                return false;
            }
        };
        let load = self.load(cx);
        match balance(target, &load, &options) {
            Ok(b) => {
                self.obstacles = Rc::new(b.obstacles);
                self.balance_notes = Rc::new(b.plan.notes);
                self.step = 0;
                self.outcome(Ok(b.plan.target))
            }
            Err(e) => self.outcome(Err(e)),
        }
    }
}
