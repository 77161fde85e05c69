//! The Resharding worker's runs: what the page sent it, and its replies (a balance, its
//! comparison, a drain, a plan, or that it stopped), each taken only while awaited.

use super::{ReshardState, ReshardView};
use crate::state::config::ConfigProblem;
use crate::workers::{Balanced, Crashed, Planned, ReshardReply};
use ravenshard::Topology;
use ravenshard_reshard::{ObjectiveSummary, Obstacle};
use std::rc::Rc;

/// A balance in the worker.
#[derive(Debug, Clone, Default)]
pub(super) struct Runs {
    /// The last run started.
    pub(super) last: u64,
    /// The run whose balance is awaited.
    pub(super) balancing: Option<u64>,
    /// The run whose comparison is awaited (its balance came).
    pub(super) comparing: Option<u64>,
    /// The run whose plan is awaited, and the plan wanted it answers.
    pub(super) planning: Option<(u64, u64)>,
    /// Why the last balance did not come (it was cancelled, or the worker stopped), or
    /// that the worker stopped.
    pub(super) message: Option<String>,
}

impl ReshardState {
    /// The last balance's figures under each objective.
    pub fn objectives(&self) -> &Rc<Vec<ObjectiveSummary>> {
        &self.objectives
    }

    /// Buckets the last balance could not split.
    pub fn obstacles(&self) -> &Rc<Vec<Obstacle>> {
        &self.obstacles
    }

    /// What the last balance had to say.
    pub fn balance_notes(&self) -> &Rc<Vec<String>> {
        &self.balance_notes
    }

    /// The change of the workspace whose load the worker plans from, once the documents
    /// rested.
    pub fn load_at(&self) -> Option<u64> {
        self.load
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

    /// [`ReshardAction::BalanceSent`](super::ReshardAction::BalanceSent): the balance (or
    /// drain) run `run` is under way in the worker.
    pub(super) fn balance_sent(&mut self, run: u64) -> bool {
        self.drain = None;
        self.runs.last = self.runs.last.max(run);
        self.runs.balancing = Some(run);
        self.runs.message = None;
        false
    }

    /// [`ReshardAction::PlanSent`](super::ReshardAction::PlanSent): the plan of run `run`,
    /// answering the plan `wanted`, is under way in the worker.
    pub(super) fn plan_sent(&mut self, run: u64, wanted: u64) -> bool {
        self.runs.last = self.runs.last.max(run);
        self.runs.planning = Some((run, wanted));
        false
    }

    /// [`ReshardAction::CancelBalance`]: the worker is stopped. Whether a plan it had is to
    /// be asked of the next one.
    pub(super) fn cancel_balance(&mut self) -> bool {
        if self.runs.balancing.take().is_some() {
            self.runs.message = Some("The balance was cancelled.".into());
        }
        self.runs.comparing = None;
        self.runs.planning.take().is_some()
    }

    /// [`ReshardAction::Balance`](super::ReshardAction::Balance): the worker's answer, worked
    /// out on this thread from `load`, the host's.
    #[cfg(test)]
    pub(super) fn balance_here(&mut self, load: &ravenshard_reshard::BucketLoad) -> bool {
        let Some(request) = self.balance_request() else {
            return false;
        };
        self.runs.last = request.run;
        self.runs.balancing = Some(request.run);
        let mut balancer = crate::workers::Balancer::default();
        balancer.keep(request.load, load.clone());
        let balanced = balancer.balance(&request);
        let compared = balancer.compare(&request);
        let stale = self.reply(balanced);
        if let Some(compared) = compared {
            self.reply(compared);
        }
        stale
    }

    /// Takes a reply of the worker; a reply of a run that is no longer awaited is dropped.
    pub(super) fn reply(&mut self, reply: ReshardReply) -> bool {
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
