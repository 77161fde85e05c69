//! What the Resharding state works from ([`Inputs`]) and what a user does to it
//! ([`ReshardAction`], [`StepMove`]).

use crate::workers::ReshardReply;
use ravenshard::Topology;
use ravenshard_reshard::{Measure, Objective};
use std::rc::Rc;

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
    /// drains it: [`ReshardState::drain_request`](super::ReshardState::drain_request)).
    DrainShard(u32),
    /// Balance the target with the view's options, on this thread: the worker's code
    /// ([`Balancer`](crate::workers::Balancer)) run here, its replies taken as the worker's
    /// are. The native tests' stand-in for the worker, so only in their build: the page
    /// balances in the worker ([`ReshardAction::BalanceSent`]), and the balancer's code
    /// stays out of the page's wasm.
    #[cfg(test)]
    Balance(Rc<ravenshard_reshard::BucketLoad>),
    /// The page sent [`ReshardState::balance_request`](super::ReshardState::balance_request) or
    /// [`drain_request`](super::ReshardState::drain_request) to the worker: the run is under way.
    BalanceSent {
        /// The run.
        run: u64,
    },
    /// The page sent [`ReshardState::plan_request`](super::ReshardState::plan_request) to the worker.
    PlanSent {
        /// The run.
        run: u64,
        /// The [`worker_wanted`](super::ReshardState::worker_wanted) number it answers.
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
    /// The documents rested at the workspace's change `changes`: the worker plans from
    /// the host's load per bucket at that change (it asks the host for it; an action of
    /// other changes than the inputs' is dropped).
    Load {
        /// The change.
        changes: u64,
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

impl ReshardAction {
    /// Whether the action changes the target (or what it is shaped from).
    pub(super) fn changes_target(&self) -> bool {
        match self {
            ReshardAction::SetTarget(_)
            | ReshardAction::ResetTarget
            | ReshardAction::AddShard
            | ReshardAction::RemoveShard(_)
            | ReshardAction::DrainShard(_)
            | ReshardAction::Inputs(_) => true,
            #[cfg(test)]
            ReshardAction::Balance(_) => true,
            _ => false,
        }
    }
}
