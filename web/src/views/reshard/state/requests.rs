//! What the Resharding state asks its worker: a plan (and the walk-through's step), a
//! drain, a balance and the calls; the host's load goes with a request unless the worker
//! holds it.

use super::ReshardState;
use crate::workers::{BalanceRequest, CallsRequest, DrainRequest, LoadData, PlanRequest, StepAt};

impl ReshardState {
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
    /// drain the shard [`ReshardAction::DrainShard`](super::ReshardAction::DrainShard) named, once the host's load came.
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
}
