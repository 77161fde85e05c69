//! The Readiness view's state: the texts pasted or dropped (record, index definitions,
//! queries, loads), the run in the check's worker (the studio's documents being sent, the
//! report, or the bad input named), and the filters by severity and area. The check itself
//! runs in the worker ([`crate::workers::check`]); this state only follows its replies,
//! ignoring those of a run it no longer waits for. A reply never touches the texts: what
//! the user pasted stays as pasted, however bad. The texts are saved with the studio
//! ([`ReadinessState::saved`]) and restored with it ([`ReadinessState::restored`]); the
//! report is not: a restored view shows the texts, and the user checks again.

use crate::persist::SavedReadiness;
use crate::workers::{CheckReply, Checked, Crashed};
use ravenshard_check::{Finding, Severity};
use std::collections::BTreeSet;
use std::rc::Rc;
use yew::Reducible;

/// The inputs a user gives, by name (the check's `input` of a finding or an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Text {
    /// The database record (required).
    Record,
    /// Index definitions on their own.
    Indexes,
    /// RQL queries, one a line.
    Queries,
    /// `LoadDocument` relations, `Collection.Field` one a line.
    Loads,
}

impl Text {
    /// Every input, in the view's order.
    pub const ALL: [Text; 4] = [Text::Record, Text::Indexes, Text::Queries, Text::Loads];

    /// The input's name, as the check names it (`CheckError::input`).
    pub fn name(self) -> &'static str {
        match self {
            Text::Record => "record",
            Text::Indexes => "indexes",
            Text::Queries => "queries",
            Text::Loads => "loads",
        }
    }
}

/// Where the check is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Run {
    /// Nothing asked yet.
    #[default]
    Idle,
    /// The page sends the studio's documents to the worker, then the check runs.
    Running {
        /// Documents sent so far.
        sent: u64,
        /// Of how many.
        total: u64,
    },
    /// The report.
    Done(Rc<Checked>),
    /// Bad input, or the run stopped: in which input (`record`, ..., `documents`,
    /// `sharding`) and why.
    Failed {
        /// The input.
        input: String,
        /// Why.
        message: String,
    },
}

/// The view a data or routing finding links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// The documents view, filtered by this text of their IDs (a document, a collection).
    Documents(String),
    /// The anchored groups.
    Groups,
    /// The query router (the query's number among those given).
    Queries(usize),
    /// The ranges and prefixes.
    Ranges,
}

/// What can happen to the Readiness view.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadinessAction {
    /// The user typed, pasted or dropped a text.
    Set(Text, String),
    /// The page started run `run` (a number above every earlier run's), sending `total`
    /// documents first.
    Started {
        /// The run.
        run: u64,
        /// The studio's documents it sends.
        total: u64,
    },
    /// The page sent the worker `sent` documents of run `run`.
    Sent {
        /// The run.
        run: u64,
        /// Documents sent so far.
        sent: u64,
    },
    /// The page could not send the documents (the host stopped, the documents changed).
    Stopped {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
    /// The worker replied.
    Reply(CheckReply),
    /// The user cancelled the run (the page stopped sending and terminated the worker).
    Cancel,
    /// Show or hide the findings of a severity.
    ToggleSeverity(Severity),
    /// Show the findings of one area (the rule's first part: `index`, `query`, `task`,
    /// `data`, ...), or of all (`None`).
    SetArea(Option<String>),
    /// The user dismissed the worker's crash message.
    DismissCrash,
}

/// The Readiness view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReadinessState {
    texts: [String; 4],
    /// How many times a text was changed: what the save follows.
    edits: u64,
    run_number: u64,
    run: Run,
    hidden: BTreeSet<Severity>,
    area: Option<String>,
    crash: Option<String>,
}

/// A finding's area: its rule's first part (`index` of `index.rolling-deployment`).
pub fn area_of(found: &Finding) -> &str {
    found.rule.split('.').next().unwrap_or_default()
}

/// The view a finding links to: the data findings to the documents, groups or ranges
/// that show them, the routing findings to the query router.
pub fn link_of(found: &Finding) -> Option<Link> {
    let place = &found.location;
    match (found.rule.as_ref(), place.input.as_ref()) {
        ("data.obese-bucket", _) => Some(Link::Groups),
        ("data.prefix-at-creation", _) => Some(Link::Ranges),
        (_, "documents") => match (&place.document, &place.collection) {
            (Some(id), _) => Some(Link::Documents(id.clone())),
            (None, Some(collection)) => {
                Some(Link::Documents(format!("{}/", collection.to_lowercase())))
            }
            (None, None) => None,
        },
        (_, "queries") => place.query.map(Link::Queries),
        _ => None,
    }
}

impl ReadinessState {
    /// The view of a restored studio: the texts saved, nothing checked yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::persist::SavedReadiness;
    /// use ravenshard_studio::views::readiness::state::{ReadinessState, Text};
    ///
    /// let saved = SavedReadiness { record: "{}".into(), ..SavedReadiness::default() };
    /// let state = ReadinessState::restored(saved.clone());
    /// assert_eq!((state.text(Text::Record), state.edits()), ("{}", 0));
    /// assert_eq!(state.saved(), Some(saved));
    /// assert_eq!(ReadinessState::default().saved(), None);
    /// ```
    pub fn restored(saved: SavedReadiness) -> ReadinessState {
        let SavedReadiness {
            record,
            indexes,
            queries,
            loads,
        } = saved;
        ReadinessState {
            texts: [record, indexes, queries, loads],
            ..ReadinessState::default()
        }
    }

    /// The texts to save; `None` when every one is empty (nothing is written).
    pub fn saved(&self) -> Option<SavedReadiness> {
        let [record, indexes, queries, loads] = self.texts.clone();
        let saved = SavedReadiness {
            record,
            indexes,
            queries,
            loads,
        };
        (saved != SavedReadiness::default()).then_some(saved)
    }

    /// How many times a text was changed since the view started (the save follows it).
    pub fn edits(&self) -> u64 {
        self.edits
    }

    /// The text of an input, as given.
    pub fn text(&self, text: Text) -> &str {
        &self.texts[text as usize]
    }

    /// The text of an input, `None` when empty (not given).
    pub fn given(&self, text: Text) -> Option<String> {
        let t = self.text(text);
        (!t.trim().is_empty()).then(|| t.to_string())
    }

    /// The run's state.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// The number the next run takes.
    pub fn next_run(&self) -> u64 {
        self.run_number + 1
    }

    /// Whether a run is in progress.
    pub fn running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    /// Whether the user can check: a record given, no run in progress.
    pub fn can_run(&self) -> bool {
        self.given(Text::Record).is_some() && !self.running()
    }

    /// Why the last run refused `text`, if it did.
    pub fn problem(&self, text: Text) -> Option<&str> {
        match &self.run {
            Run::Failed { input, message } if input == text.name() => Some(message),
            _ => None,
        }
    }

    /// What the worker said when it stopped, until dismissed.
    pub fn crash(&self) -> Option<&str> {
        self.crash.as_deref()
    }

    /// The report, when there is one.
    pub fn report(&self) -> Option<&Rc<Checked>> {
        match &self.run {
            Run::Done(report) => Some(report),
            _ => None,
        }
    }

    /// Whether the findings of `severity` are shown.
    pub fn shows(&self, severity: Severity) -> bool {
        !self.hidden.contains(&severity)
    }

    /// The area shown (`None`: all).
    pub fn area(&self) -> Option<&str> {
        self.area.as_deref()
    }

    /// How many findings of `severity` the report holds, whatever the filters.
    pub fn count(&self, severity: Severity) -> usize {
        self.report().map_or(0, |r| r.report.count(severity))
    }

    /// The areas of the report's findings, in the order they first come.
    pub fn areas(&self) -> Vec<&str> {
        let mut areas: Vec<&str> = Vec::new();
        for found in self
            .report()
            .map(|r| r.report.findings.as_slice())
            .unwrap_or_default()
        {
            let area = area_of(found);
            if !areas.contains(&area) {
                areas.push(area);
            }
        }
        areas
    }

    /// The findings the filters let through, grouped by severity (the most severe first;
    /// a severity with none left out), each in the report's order.
    pub fn groups(&self) -> Vec<(Severity, Vec<&Finding>)> {
        let Some(report) = self.report() else {
            return Vec::new();
        };
        Severity::ALL
            .into_iter()
            .filter(|s| self.shows(*s))
            .map(|severity| {
                let found = report
                    .report
                    .findings
                    .iter()
                    .filter(|f| f.severity == severity)
                    .filter(|f| self.area.as_deref().is_none_or(|a| area_of(f) == a))
                    .collect::<Vec<_>>();
                (severity, found)
            })
            .filter(|(_, found)| !found.is_empty())
            .collect()
    }

    /// Whether a reply of `run` is of the run in progress.
    fn ours(&self, run: u64) -> bool {
        run == self.run_number && self.running()
    }

    fn reply(&mut self, reply: CheckReply) {
        match reply {
            CheckReply::Checked { run, report } if self.ours(run) => {
                self.run = Run::Done(Rc::new(*report));
            }
            CheckReply::Failed {
                run,
                input,
                message,
            } if self.ours(run) => self.run = Run::Failed { input, message },
            CheckReply::Checked { .. } | CheckReply::Failed { .. } => {}
            CheckReply::Crashed(Crashed { message }) => {
                self.crash = Some(message);
                if self.running() {
                    self.run = Run::Failed {
                        input: "worker".into(),
                        message: "The worker stopped during the check: check again (a new worker starts).".into(),
                    };
                }
            }
        }
    }

    fn apply(&mut self, action: ReadinessAction) {
        match action {
            ReadinessAction::Set(text, value) => {
                if self.texts[text as usize] != value {
                    self.texts[text as usize] = value;
                    self.edits += 1;
                }
            }
            ReadinessAction::Started { run, total } if run > self.run_number => {
                self.run_number = run;
                self.crash = None;
                self.run = Run::Running { sent: 0, total };
            }
            ReadinessAction::Started { .. } => {}
            ReadinessAction::Sent { run, sent } => {
                if let (true, Run::Running { total, .. }) = (self.ours(run), &self.run) {
                    self.run = Run::Running {
                        sent,
                        total: *total,
                    };
                }
            }
            ReadinessAction::Stopped { run, message } => {
                if self.ours(run) {
                    self.run = Run::Failed {
                        input: "documents".into(),
                        message,
                    };
                }
            }
            ReadinessAction::Reply(reply) => self.reply(reply),
            ReadinessAction::Cancel => {
                if self.running() {
                    self.run = Run::Failed {
                        input: "worker".into(),
                        message: "Cancelled: the worker was stopped.".into(),
                    };
                }
            }
            ReadinessAction::ToggleSeverity(severity) => {
                if !self.hidden.remove(&severity) {
                    self.hidden.insert(severity);
                }
            }
            ReadinessAction::SetArea(area) => self.area = area,
            ReadinessAction::DismissCrash => self.crash = None,
        }
    }
}

impl Reducible for ReadinessState {
    type Action = ReadinessAction;

    fn reduce(self: Rc<Self>, action: ReadinessAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
