//! The Advisor view's state: the export chosen, the workload typed, the run (on the export
//! in the advisor's worker, or on the workspace's documents in the host's: its progress,
//! its answer or why it failed) and the worker's crash message. The run itself happens in
//! a worker ([`crate::workers`]); this state only follows its replies, ignoring those of a
//! run it no longer waits for.

use crate::workers::{AdvisorReply, Crashed, Stage};
use ravenshard_advise::{Advice, Workload};
use ravenshard_model::host::question::AdviceError;
use std::rc::Rc;
use yew::Reducible;

/// What a run reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Source {
    /// The export chosen, read by the advisor's worker.
    #[default]
    Export,
    /// The workspace's documents, read by the host's worker where they are.
    Workspace,
}

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
    /// The page asked the host to advise on its `documents` documents as run `run` (a
    /// number above every earlier run's); `asked` is the host's question, forgotten on
    /// cancel.
    AskedWorkspace {
        /// The run.
        run: u64,
        /// The host's question number.
        asked: u64,
        /// The workspace's documents.
        documents: u64,
    },
    /// How far the host's job on the workspace is: `done` of `total`, the documents read
    /// then the documents scored (of twice the documents), `elapsed_ms` since it was asked.
    WorkspaceProgress {
        /// The run.
        run: u64,
        /// Done so far.
        done: u64,
        /// Of how many.
        total: u64,
        /// Milliseconds since the run was asked.
        elapsed_ms: u64,
    },
    /// The host's answer to run `run`.
    WorkspaceAdvice {
        /// The run.
        run: u64,
        /// The advice, or why there is none.
        answer: Rc<Result<Advice, AdviceError>>,
    },
    /// The worker replied.
    Reply(AdvisorReply),
    /// The user cancelled the run (the page terminated the worker).
    Cancel,
    /// The user dismissed the worker's crash message.
    DismissCrash,
    /// The workspace's host stopped (its worker crashed): a run on the workspace gets no
    /// answer, and its advice's anchors no rewrites.
    HostStopped,
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
    source: Source,
    /// The host's question of a run on the workspace in progress.
    asked: Option<u64>,
    /// When the current stage of a run on the workspace began, in its milliseconds.
    stage_began_ms: u64,
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

    /// The run whose advice is shown, while an anchor of it can be applied (the advisor's
    /// worker keeps its export; the host holds the workspace's documents).
    pub fn advised_run(&self) -> Option<u64> {
        self.advised_run
    }

    /// What the run in progress (or the last) reads.
    pub fn source(&self) -> Source {
        self.source
    }

    /// The host's question of the run on the workspace in progress, to forget on cancel.
    pub fn asked(&self) -> Option<u64> {
        self.asked.filter(|_| self.running())
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

    /// Whether a run on the workspace's documents can start: a workload that reads, none
    /// running (the view offers it when the workspace has documents with bodies).
    pub fn can_run_on_workspace(&self) -> bool {
        self.workload_problem.is_none() && !self.running()
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
                if self.source == Source::Workspace {
                    return; // the advice is the host's, not the advisor worker's
                }
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

    /// A run on the workspace starts.
    fn asked_workspace(&mut self, run: u64, asked: u64, documents: u64) {
        self.run_number = run;
        self.crash = None;
        self.source = Source::Workspace;
        self.asked = Some(asked);
        self.stage_began_ms = 0;
        self.run = Run::Running {
            stage: Stage::Reading,
            done: 0,
            total: Some(documents),
            elapsed_ms: 0,
        };
    }

    /// The host's progress on the workspace, as the stage it is in: reading the first half,
    /// scoring the second, each in documents.
    fn workspace_progress(&mut self, done: u64, total: u64, elapsed_ms: u64) {
        let documents = total / 2;
        let (stage, done) = match done.checked_sub(documents) {
            Some(scored) if documents > 0 && done > documents => (Stage::Scoring, scored),
            _ => (Stage::Reading, done.min(documents)),
        };
        if matches!(
            self.run,
            Run::Running {
                stage: Stage::Reading,
                ..
            }
        ) && stage == Stage::Scoring
        {
            self.stage_began_ms = elapsed_ms;
        }
        self.run = Run::Running {
            stage,
            done,
            total: Some(documents),
            elapsed_ms: elapsed_ms.saturating_sub(self.stage_began_ms),
        };
    }

    /// The actions of a run on the workspace.
    fn workspace(&mut self, action: AdvisorAction) {
        match action {
            AdvisorAction::AskedWorkspace {
                run,
                asked,
                documents,
            } if run > self.run_number => self.asked_workspace(run, asked, documents),
            AdvisorAction::WorkspaceProgress {
                run,
                done,
                total,
                elapsed_ms,
            } if self.ours(run) && self.source == Source::Workspace => {
                self.workspace_progress(done, total, elapsed_ms)
            }
            AdvisorAction::WorkspaceAdvice { run, answer }
                if self.ours(run) && self.source == Source::Workspace =>
            {
                self.asked = None;
                self.run = match &*answer {
                    Ok(advice) => {
                        self.advised_run = Some(run);
                        Run::Done(Rc::new(advice.clone()))
                    }
                    Err(e) => Run::Failed(format!("The workspace's documents: {e}.")),
                };
            }
            AdvisorAction::HostStopped if self.source == Source::Workspace => {
                self.advised_run = None;
                self.asked = None;
                if self.running() {
                    self.run = Run::Failed(
                        "The workspace's host stopped during the run: advise again once the \
                         studio is restored."
                            .into(),
                    );
                }
            }
            _ => {}
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
                self.source = Source::Export;
                self.asked = None;
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
                self.run = Run::Failed(match self.source {
                    Source::Export => {
                        self.advised_run = None;
                        "Cancelled: the worker was stopped.".into()
                    }
                    Source::Workspace => "Cancelled: the workspace's host stopped advising.".into(),
                });
                self.asked = None;
            }
            AdvisorAction::Cancel => {}
            AdvisorAction::DismissCrash => self.crash = None,
            action => self.workspace(action),
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
