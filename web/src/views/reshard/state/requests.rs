//! What the Resharding state asks its worker: a plan (and the walk-through's step), a
//! drain, a balance and the calls, each naming the change of the workspace whose load per
//! bucket it runs over (the worker has it from the host).

use super::ReshardState;
use crate::workers::{BalanceRequest, CallsRequest, DrainRequest, PlanRequest, StepAt};

impl ReshardState {
    /// What to ask the worker for the calls that carry out the plan to the target,
    /// to the node of [`cluster_url`](Self::cluster_url), as a shell script (`script`) or
    /// JSON; `None` before the documents rested.
    pub fn calls_request(&self, script: bool) -> Option<CallsRequest> {
        Some(CallsRequest {
            plan: self.plan_of(0, StepAt::To(self.step))?,
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

    /// What to ask the worker to drain the shard
    /// [`ReshardAction::DrainShard`](super::ReshardAction::DrainShard) named, once the
    /// documents rested.
    pub fn drain_request(&self) -> Option<DrainRequest> {
        let shard = self.drain?;
        Some(DrainRequest {
            run: self.runs.last + 1,
            load: self.load?,
            target: self.target().to_json(),
            shard,
            by: self.by,
        })
    }

    /// What to ask the worker to plan, while the view is shown and wants a plan or a step;
    /// `None` before the documents rested.
    pub fn plan_request(&self) -> Option<PlanRequest> {
        if !self.planning() {
            return None;
        }
        let step = self.step_wanted.unwrap_or(StepAt::To(self.step));
        self.plan_of(self.runs.last + 1, step)
    }

    /// The plan of the target, run `run`.
    fn plan_of(&self, run: u64, step: StepAt) -> Option<PlanRequest> {
        let current = &self.inputs.current;
        Some(PlanRequest {
            run,
            load: self.load?,
            current: current.to_json(),
            target: self.target().to_json(),
            database: current.database().to_string(),
            options: self.plan_options(),
            step,
        })
    }

    /// What to ask the worker to balance the target with the view's options; `None` while an
    /// option field cannot be used, or before the documents rested.
    pub fn balance_request(&self) -> Option<BalanceRequest> {
        let options = self.options().ok()?;
        Some(BalanceRequest {
            run: self.runs.last + 1,
            load: self.load?,
            target: self.target().to_json(),
            options,
        })
    }
}
