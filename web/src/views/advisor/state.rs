//! The Advisor view's state: the export chosen, the workload typed, the run in the worker
//! (its progress, its answer or why it failed) and the worker's crash message. The run
//! itself happens in the studio's worker ([`crate::workers`]); this state only follows its
//! replies, ignoring those of a run it no longer waits for.

use crate::workers::{AdvisorReply, Crashed, Stage};
use ravenshard_advise::{Advice, Workload};
use std::rc::Rc;
use yew::Reducible;

/// The export the advisor reads: the file, by a blob URL the worker fetches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    /// The file's name.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// `URL.createObjectURL(file)`.
    pub url: String,
}

/// Where the advisor's run is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Run {
    /// Nothing asked yet.
    #[default]
    Idle,
    /// The worker is at it.
    Running {
        /// Its stage.
        stage: Stage,
        /// Done so far (bytes read, documents scored).
        done: u64,
        /// Of how many, when known.
        total: Option<u64>,
        /// Milliseconds since the stage began.
        elapsed_ms: u64,
    },
    /// The advice.
    Done(Rc<Advice>),
    /// Why there is none.
    Failed(String),
}

/// What can happen to the Advisor view.
#[derive(Debug, Clone, PartialEq)]
pub enum AdvisorAction {
    /// The user chose an export.
    ChooseExport(ExportFile),
    /// The queries field (RQL, one a line).
    SetQueries(String),
    /// The loads field (`Collection.Field`, one a line).
    SetLoads(String),
    /// The page sent run `run` to the worker (a number above every earlier run's).
    Started(u64),
    /// The worker replied.
    Reply(AdvisorReply),
    /// The user cancelled the run (the page terminated the worker).
    Cancel,
    /// The user dismissed the worker's crash message.
    DismissCrash,
}

/// The Advisor view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AdvisorState {
    export: Option<ExportFile>,
    queries: String,
    loads: String,
    workload_problem: Option<String>,
    run_number: u64,
    advised_run: Option<u64>,
    run: Run,
    crash: Option<String>,
}

impl AdvisorState {
    /// The export chosen.
    pub fn export(&self) -> Option<&ExportFile> {
        self.export.as_ref()
    }

    /// The queries typed.
    pub fn queries(&self) -> &str {
        &self.queries
    }

    /// The loads typed.
    pub fn loads(&self) -> &str {
        &self.loads
    }

    /// Why the queries or loads do not read (the advisor's own message), if they do not.
    pub fn workload_problem(&self) -> Option<&str> {
        self.workload_problem.as_deref()
    }

    /// The run's state.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// The number the next run takes.
    pub fn next_run(&self) -> u64 {
        self.run_number + 1
    }

    /// The run whose advice is shown (the worker keeps its export, for applying an
    /// anchor).
    pub fn advised_run(&self) -> Option<u64> {
        self.advised_run
    }

    /// Whether a run is in progress.
    pub fn running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    /// Whether the user can start a run: an export chosen, a workload that reads, none
    /// running.
    pub fn can_run(&self) -> bool {
        self.export.is_some() && self.workload_problem.is_none() && !self.running()
    }

    /// What the worker said when it stopped, until dismissed.
    pub fn crash(&self) -> Option<&str> {
        self.crash.as_deref()
    }

    /// The time left in the current stage, in milliseconds, from its rate so far.
    pub fn estimate_ms(&self) -> Option<u64> {
        match self.run {
            Run::Running {
                done,
                total: Some(total),
                elapsed_ms,
                ..
            } if done > 0 && total >= done => {
                Some((elapsed_ms as f64 * (total - done) as f64 / done as f64).round() as u64)
            }
            _ => None,
        }
    }

    fn check_workload(&mut self) {
        self.workload_problem = Workload::parse(&self.queries, &self.loads)
            .err()
            .map(|e| e.to_string());
    }

    /// Whether a reply of `run` is of the run in progress.
    fn ours(&self, run: u64) -> bool {
        run == self.run_number && self.running()
    }

    fn reply(&mut self, reply: AdvisorReply) {
        match reply {
            AdvisorReply::Progress(progress) => {
                if self.ours(progress.run) {
                    self.run = Run::Running {
                        stage: progress.stage,
                        done: progress.done,
                        total: progress.total,
                        elapsed_ms: progress.elapsed_ms,
                    };
                }
            }
            AdvisorReply::Advice { run, advice } => {
                if self.ours(run) {
                    self.advised_run = Some(run);
                    self.run = Run::Done(Rc::new(*advice));
                }
            }
            AdvisorReply::Failed { run, message } => {
                if self.ours(run) {
                    self.run = Run::Failed(message);
                }
            }
            AdvisorReply::Crashed(Crashed { message }) => {
                self.crash = Some(message);
                self.advised_run = None;
                if self.running() {
                    self.run = Run::Failed(
                        "The worker stopped during the run: run it again (a new worker starts)."
                            .into(),
                    );
                }
            }
            // The rewrites change the workspace, not the run: the studio's state takes
            // them before they reach the view's.
            AdvisorReply::Rewrites { .. } => {}
        }
    }

    fn apply(&mut self, action: AdvisorAction) {
        match action {
            AdvisorAction::ChooseExport(export) => {
                self.export = Some(export);
                if !self.running() {
                    self.run = Run::Idle;
                }
            }
            AdvisorAction::SetQueries(text) => {
                self.queries = text;
                self.check_workload();
            }
            AdvisorAction::SetLoads(text) => {
                self.loads = text;
                self.check_workload();
            }
            AdvisorAction::Started(run) if run > self.run_number => {
                self.run_number = run;
                self.crash = None;
                self.run = Run::Running {
                    stage: Stage::Reading,
                    done: 0,
                    total: self.export.as_ref().map(|e| e.size),
                    elapsed_ms: 0,
                };
            }
            AdvisorAction::Started(_) => {}
            AdvisorAction::Reply(reply) => self.reply(reply),
            AdvisorAction::Cancel if self.running() => {
                self.advised_run = None;
                self.run = Run::Failed("Cancelled: the worker was stopped.".into());
            }
            AdvisorAction::Cancel => {}
            AdvisorAction::DismissCrash => self.crash = None,
        }
    }
}

impl Reducible for AdvisorState {
    type Action = AdvisorAction;

    fn reduce(self: Rc<Self>, action: AdvisorAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
