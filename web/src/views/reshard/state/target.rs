//! The target the Resharding view shapes: from its editors' JSON (prefix changes wait for
//! the host's check against the IDs), a shard added, removed or drained, or started again.

use super::ReshardState;
use crate::state::config::{read_configuration, ConfigProblem};
use ravenshard::Topology;
use ravenshard_model::workspace::assign_members;
use ravenshard_reshard::{add_shard, changes_prefixes, remove_shard, ReshardError};
use std::rc::Rc;

impl ReshardState {
    /// [`ReshardAction::AddShard`](super::ReshardAction::AddShard): a shard that owns no
    /// buckets, with members from the cluster's nodes.
    pub(super) fn add_shard(&mut self) -> bool {
        let target = Rc::clone(self.target());
        let count = target.shards().len() as u32 + 1;
        let members = assign_members(count, &self.inputs.nodes, self.inputs.replication_factor)
            .ok()
            .and_then(|m| m.last().cloned())
            .unwrap_or_default();
        self.outcome(add_shard(&target, members).map(|(t, _)| t))
    }

    /// [`ReshardAction::RemoveShard`](super::ReshardAction::RemoveShard): a shard that owns
    /// no buckets removed.
    pub(super) fn remove_shard(&mut self, shard: u32) -> bool {
        let target = Rc::clone(self.target());
        self.outcome(remove_shard(&target, shard))
    }

    /// [`ReshardAction::DrainShard`](super::ReshardAction::DrainShard): the worker is to
    /// drain `shard` (asked through [`drain_request`](Self::drain_request)).
    pub(super) fn drain_shard(&mut self, shard: u32) -> bool {
        self.drain = Some(shard);
        true
    }

    /// A target from its JSON: taken now, unless it adds or removes prefixes (RavenDB
    /// refuses both while a document starts with the prefix): it then waits for the host's
    /// check against the IDs.
    pub(super) fn set_target_json(&mut self, json: &str) -> bool {
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
    pub(super) fn prefixes_checked(
        &mut self,
        configuration: &str,
        problem: Option<String>,
    ) -> bool {
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
    pub(super) fn outcome(&mut self, result: Result<Topology, ReshardError>) -> bool {
        match result {
            Ok(t) => {
                self.target = Some(Rc::new(t));
                self.problem = None;
            }
            Err(e) => self.problem = Some(ConfigProblem::new(e)),
        }
        true
    }
}
