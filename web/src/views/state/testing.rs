//! The native tests' stand-in for the workspace's host's worker: every state's queue of
//! changes ([`Outbox`](super::Outbox)) goes to a [`Host`] of its own after each action, and
//! the host's news come back as the page hears them ([`Action::Host`]), so that the
//! reducers are tested as the studio runs them. The tests read the documents from that host
//! ([`State::placement`]).

use super::{Action, Loaded, Outbox, Placer, Saved, State, WorkspaceState};
use crate::workers::host::HostNews;
use ravenshard_model::batch::DocumentBatch;
use ravenshard_model::host::{Host, Staging};
use ravenshard_model::share::SharedState;
use ravenshard_model::workspace::{Document, Placement};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

thread_local! {
    /// The host of each queue of changes (by the queue's address).
    static HOSTS: RefCell<HashMap<usize, Host>> = RefCell::new(HashMap::new());
    /// The last job number given ([`State::loaded`]).
    static JOBS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The documents as the host of `outbox`'s changes places them, once it made those queued
/// (their news unheard: for a workspace tested on its own).
fn placed(outbox: &Outbox) -> Placement {
    HOSTS.with(|hosts| {
        let mut hosts = hosts.borrow_mut();
        let host = hosts.entry(outbox.id()).or_default();
        for (_, change) in outbox.take() {
            let _ = host.apply(change);
        }
        host.placement().clone()
    })
}

impl WorkspaceState {
    /// The documents as this workspace's host places them, once it made the changes
    /// queued.
    pub fn placement(&self) -> Placement {
        placed(self.outbox())
    }
}

impl State {
    /// Makes the changes queued in this state's host, and hears its news.
    pub(super) fn sync_test_host(&mut self) {
        loop {
            let changes = self.workspace.outbox().take();
            if changes.is_empty() {
                return;
            }
            let id = self.workspace.outbox().id();
            for (seq, change) in changes {
                let news = HOSTS.with(|hosts| {
                    let mut hosts = hosts.borrow_mut();
                    match hosts.entry(id).or_default().apply(change) {
                        Ok(changed) => HostNews::Changed {
                            seq,
                            changed: Rc::new(changed),
                        },
                        Err(error) => HostNews::Refused { seq, error },
                    }
                });
                self.apply(Action::Host(news));
            }
        }
    }

    /// `f` of this state's host.
    fn with_test_host<R>(&self, f: impl FnOnce(&mut Host) -> R) -> R {
        let id = self.workspace.outbox().id();
        HOSTS.with(|hosts| f(hosts.borrow_mut().entry(id).or_default()))
    }

    /// The documents as this state's host places them.
    pub fn placement(&self) -> Placement {
        self.with_test_host(|host| host.placement().clone())
    }

    /// The heap bytes of the host's placement (its tables' room, not a copy's).
    pub fn placement_heap_bytes(&self) -> usize {
        self.with_test_host(|host| host.placement().heap_bytes())
    }

    /// What to save, with every document.
    pub fn saved(&self) -> Saved {
        Saved {
            documents: self.placement().documents(0..usize::MAX).collect(),
            ..self.settings()
        }
    }

    /// What a share link carries of every document.
    pub fn shared(&self) -> SharedState {
        self.shared_with(self.placement().documents(0..usize::MAX).collect())
    }

    /// The CSV export of every document.
    pub fn csv(&self) -> String {
        super::documents_csv(&self.placement())
    }

    /// The report JSON.
    pub fn report_json(&self) -> String {
        super::report_json(&self.placement())
    }

    /// A job's workspace of `documents`, placed by `placer`: staged with this state's host
    /// in batches as a job stages them, then handed over.
    pub fn loaded(&self, documents: &[Document], placer: Placer) -> Loaded {
        let job = JOBS.with(|j| {
            j.set(j.get() + 1);
            j.get()
        });
        let mut start = Some(Staging {
            configuration: placer.topology.to_json(),
            database: placer.topology.database().to_string(),
            documents: documents.len() as u64,
            id_bytes: 0,
            bodies: 0,
            body_bytes: 0,
        });
        self.with_test_host(|host| {
            for (number, chunk) in documents.chunks(700).enumerate() {
                let batch = DocumentBatch::of(number as u64, chunk, Default::default());
                host.stage(job, start.take(), batch);
            }
            if documents.is_empty() {
                host.stage(job, start.take(), DocumentBatch::default());
            }
        });
        Loaded {
            documents: documents.len() as u64,
            placer,
            summary: None,
            kept: None,
            job,
        }
    }
}

/// The Resharding view's worker, as the page uses it: what the view wants of it (a drain,
/// else a plan) goes to a worker holding `load` (the host's at the change the view plans
/// from, as the host sends it), which answers with its own code, run here. The actions that
/// send it and take the answer, in order; none when nothing is wanted. Call it again after
/// them: a drain's target is planned next.
pub(crate) fn worker_round_trip(
    reshard: &super::ReshardState,
    load: &ravenshard_reshard::BucketLoad,
) -> Vec<super::ReshardAction> {
    use super::ReshardAction;
    use crate::workers::{Balancer, Planner, ReshardReply};
    let mut balancer = Balancer::default();
    if let Some(at) = reshard.load_at() {
        balancer.keep(at, load.clone());
    }
    if let Some(request) = reshard.drain_request() {
        let run = request.run;
        let reply = balancer.drain(&request);
        return vec![
            ReshardAction::BalanceSent { run },
            ReshardAction::Reply(reply),
        ];
    }
    let Some(request) = reshard.plan_request() else {
        return Vec::new();
    };
    let (run, wanted) = (request.run, reshard.worker_wanted());
    let planned = Planner::default().plan(&balancer, &request);
    vec![
        ReshardAction::PlanSent { run, wanted },
        ReshardAction::Reply(ReshardReply::Planned {
            run,
            planned: Box::new(planned),
        }),
    ]
}
