//! The Resharding view's balance and drain, as its worker runs them: the worker keeps the
//! load the workspace's host sent it last ([`LoadSent`](super::protocol::LoadSent)), balances a target under the chosen objective and answers at once
//! ([`ReshardReply::Balanced`]), then works out the other objective's figures for the comparison
//! ([`ReshardReply::Compared`]); a drain answers its target ([`ReshardReply::Drained`]). Plain Rust, so
//! that the native tests run the page's side of a balance against it.

use crate::workers::reshard::protocol::{BalanceRequest, Balanced, DrainRequest, ReshardReply};
use ravenshard::Topology;
use ravenshard_reshard::{
    balance_without_comparison, drain_shard, objective_summary, BucketLoad, Objective,
};

/// What the worker keeps between balances.
#[derive(Debug, Default)]
pub struct Balancer {
    /// The last load the host sent, with the page's number of the change it is of.
    load: Option<(u64, BucketLoad)>,
    /// The last run asked: a comparison of an older run is not worked out.
    latest: u64,
}

impl Balancer {
    /// Keeps `load`, the host's at the change `at`, for the requests to come (the load
    /// kept before is dropped).
    pub fn keep(&mut self, at: u64, load: BucketLoad) {
        self.load = Some((at, load));
    }

    /// The change the load kept is of.
    pub fn kept(&self) -> Option<u64> {
        self.load.as_ref().map(|(at, _)| *at)
    }

    /// The load kept and its change, when it is of the change `at` or a later one; else
    /// why not.
    pub fn held(&self, at: u64) -> Result<(u64, &BucketLoad), String> {
        match &self.load {
            Some((kept, load)) if *kept >= at => Ok((*kept, load)),
            _ => Err("the worker does not hold the documents' load yet: try again.".into()),
        }
    }

    /// Balances the request's target: [`ReshardReply::Balanced`], or [`ReshardReply::BalanceFailed`] with
    /// why.
    pub fn balance(&mut self, request: &BalanceRequest) -> ReshardReply {
        let run = request.run;
        self.latest = self.latest.max(run);
        let failed = |message: String| ReshardReply::BalanceFailed { run, message };
        let (target, load) = match self.inputs(request) {
            Ok(inputs) => inputs,
            Err(message) => return failed(message),
        };
        match balance_without_comparison(&target, load, &request.options) {
            Ok(b) => ReshardReply::Balanced {
                run,
                balanced: Balanced {
                    target: b.plan.target.to_json(),
                    notes: b.plan.notes.iter().map(ToString::to_string).collect(),
                    summary: b.summary(),
                    obstacles: b.obstacles,
                },
            },
            Err(e) => failed(e.to_string()),
        }
    }

    /// Drains the request's shard: [`ReshardReply::Drained`], with the target or why not.
    pub fn drain(&mut self, request: &DrainRequest) -> ReshardReply {
        let run = request.run;
        self.latest = self.latest.max(run);
        let target = Topology::from_json(&request.target)
            .map_err(|e| format!("the target does not read: {e}"))
            .and_then(|target| {
                let (_, load) = self.held(request.load)?;
                let drained = drain_shard(&target, request.shard, load, request.by);
                drained.map(|t| t.to_json()).map_err(|e| e.to_string())
            });
        ReshardReply::Drained { run, target }
    }

    /// The figures of the request's balance under the objective it did not choose, for
    /// the comparison ([`ReshardReply::Compared`]); `None` once a later run was asked, or when
    /// the balance cannot be made.
    pub fn compare(&self, request: &BalanceRequest) -> Option<ReshardReply> {
        if request.run < self.latest {
            return None;
        }
        let (target, load) = self.inputs(request).ok()?;
        let other = match request.options.objective {
            Objective::Contiguous => Objective::FewestMigrations,
            Objective::FewestMigrations => Objective::Contiguous,
        };
        let options = request.options.with_objective(other);
        let summary = objective_summary(&target, load, &options).ok()?;
        Some(ReshardReply::Compared {
            run: request.run,
            summary,
        })
    }

    /// The target and the load of a request, or why they cannot be had.
    fn inputs(&self, request: &BalanceRequest) -> Result<(Topology, &BucketLoad), String> {
        let (_, load) = self.held(request.load)?;
        let target = Topology::from_json(&request.target)
            .map_err(|e| format!("the target does not read: {e}"))?;
        Ok((target, load))
    }
}
