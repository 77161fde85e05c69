//! The studio's whole state: the shared sub-states ([`crate::state`]) and each view's
//! own, each a [`Reducible`] with its own action enum, put together by [`State`].
//!
//! * [`ConfigState`] ([`ConfigAction`]): the configuration fields and the topology in force.
//! * [`WorkspaceState`] ([`WorkspaceAction`]): the documents, the ID editor's page, the
//!   generator and imports.
//! * [`ViewsState`] ([`ViewAction`]): the tab, filters, sort, selections and Explain.
//! * [`DesignState`] ([`DesignAction`]): the chapter's design, the router and the checks.
//! * [`ReshardState`] ([`ReshardAction`]): the Resharding view's target, plan and walk-through.
//! * [`NoticesState`] ([`NoticeAction`]): the messages at the top.
//!
//! [`State`] holds them behind `Rc`s (a view's properties compare them by pointer). The
//! documents are the workspace's host's, in the studio's worker: the workspace queues each
//! change for it ([`Outbox`]) and the host's news bring what every view shows
//! ([`Action::Host`]). After every action the state tells the sub-states what changed
//! elsewhere: the design the configuration in force, the views and the Resharding state
//! the topology and the host's summary. Everything derived is computed by the core, only
//! when its inputs change; the reducers are pure and tested natively. Typed fields are
//! [`Field`]s: text, error and value together.

mod loaded;
mod statistics;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod testing;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::numbers::group_digits;
use crate::persist::{Saved, SAVED_VERSION};
use crate::state::*;
use crate::views::advisor::state::{AdvisorAction, AdvisorState};
use crate::views::readiness::state::{ReadinessAction, ReadinessState};
use crate::views::reshard::state::{self as reshard, ReshardAction, ReshardState};
use crate::workers::host::HostNews;
use crate::workers::{AdvisorReply, Crashed};
use ravenshard::Topology;
use ravenshard_advise::Rewrite;
use ravenshard_design::content::ContentDesign;
use ravenshard_model::host::What;
use ravenshard_model::sample::chapter_examples;
use ravenshard_model::share::SharedState;
use ravenshard_model::workspace::{Document, PlacementOptions, Summary};
use std::rc::Rc;
use yew::Reducible;

/// Everything a user (or the browser, for imports and startup) can do to the studio: an
/// action of one sub-state, or one that spans two.
#[derive(Debug, Clone)]
pub enum Action {
    /// The configuration.
    Config(ConfigAction),
    /// The documents and the ID editor.
    Workspace(WorkspaceAction),
    /// The views' tab, filters, selections and Explain.
    View(ViewAction),
    /// The router, the transaction and the LoadDocument checks.
    Design(DesignAction),
    /// The Resharding view.
    Reshard(ReshardAction),
    /// The notices.
    Notice(NoticeAction),
    /// The Advisor view (its worker's replies included: rewrites go to the workspace).
    Advisor(AdvisorAction),
    /// The Readiness view (its worker's replies included).
    Readiness(ReadinessAction),
    /// Apply an advisor's candidate configuration (JSON): every view shows the result.
    ApplyConfiguration {
        /// The candidate (`prefix`).
        label: String,
        /// The configuration's JSON.
        json: String,
    },
    /// Make the Resharding view's target the configuration in force.
    UseReshardTarget,
    /// A workspace made a chunk at a time (a large generation or import) replaces the
    /// documents, with its placement ([`Loaded`]).
    Loaded(Rc<Loaded>),
    /// The restore of the last saved studio into a new host's worker started
    /// ([`State::restore_wanted`]).
    RestoreStarted,
    /// The studio restored after the host's worker stopped replaces this one (its notices
    /// are added to this one's).
    Reopen(Rc<State>),
    /// The workspace's host made a change, refused one, or stopped.
    Host(HostNews),
}

/// What the page knows of the workspace's host: the version after its last change, and that
/// change's number (the summary it sent is the workspace's, [`State::summary`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HostSeen {
    /// The host's version after its last change (0: none made yet).
    pub version: u64,
    /// The number of that change (the page's).
    pub seq: u64,
    /// How many times the host's worker stopped.
    pub crashes: u32,
}

/// How many times the page restores the last saved studio into a new host's worker after a
/// crash; after that it tells the user to reload (a worker that cannot load, or runs out of
/// memory on these documents, would stop again and again).
pub const HOST_RESTARTS: u32 = 3;

/// What the studio says of a workspace too big for a share link (`why`: its size).
pub fn too_big_for_a_link(why: &str) -> String {
    format!(
        "The workspace is too big for a share link ({why}): export it as a file with Export CSV."
    )
}

/// The configuration last applied to the workspace (its revision, and its topology's `Rc`,
/// whose members alone may change within a revision), and the topology the views show (an
/// `Rc` made anew only when its value changes, so that the Resharding state, which compares
/// it by pointer, is computed again only then).
#[derive(Debug, Clone)]
struct Placed {
    revision: u64,
    /// The configuration's topology when last applied (compared by pointer).
    applied: Rc<Topology>,
    /// The topology the documents are placed by.
    topology: Rc<Topology>,
}

impl Placed {
    /// What `config` places by.
    fn new(config: &ConfigState) -> Placed {
        Placed {
            revision: config.revision(),
            applied: Rc::clone(config.topology()),
            topology: Rc::new(Topology::clone(config.topology())),
        }
    }

    /// The options `design` places documents with.
    fn options(design: &DesignState) -> Rc<PlacementOptions> {
        Rc::new(PlacementOptions {
            design: design.design().map(|d| ContentDesign::clone(d)),
            ..PlacementOptions::default()
        })
    }

    /// The documents are placed by `topology` now (its `Rc` kept while its value is the
    /// same).
    fn follow(&mut self, topology: &Topology) {
        if *self.topology != *topology {
            self.topology = Rc::new(topology.clone());
        }
    }

    /// What the Resharding state works from.
    fn inputs(&self, config: &ConfigState, changes: u64) -> reshard::Inputs {
        reshard::Inputs {
            current: Rc::clone(&self.topology),
            revision: self.revision,
            changes,
            nodes: config.nodes().value().clone(),
            replication_factor: *config.replication_factor().value(),
        }
    }
}

/// The studio's whole state.
#[derive(Debug, Clone)]
pub struct State {
    config: Rc<ConfigState>,
    workspace: Rc<WorkspaceState>,
    design: Rc<DesignState>,
    placed: Placed,
    views: Rc<ViewsState>,
    reshard: Rc<ReshardState>,
    notices: Rc<NoticesState>,
    advisor: Rc<AdvisorState>,
    readiness: Rc<ReadinessState>,
    /// What the last import kept of its documents' bodies, while its documents are the
    /// workspace's.
    /// (Boxed: it is seldom there, and `State` is moved whole.)
    kept: Option<Box<KeptFields>>,
    /// What the workspace's host said last.
    host: HostSeen,
    /// The host's worker stopped: the last saved studio is to be restored in a new one.
    restore_wanted: bool,
}

impl Default for State {
    /// The chapter's examples, 3 shards of database `Orders` on nodes A–D, replication 2.
    fn default() -> Self {
        State::with_documents(chapter_examples())
    }
}

impl State {
    /// The default configuration holding `documents`.
    pub fn with_documents(documents: Vec<Document>) -> State {
        State::new(
            ConfigState::default(),
            WorkspaceState::with_documents(documents),
        )
    }

    /// The state of a configuration and a workspace (its documents placed by the
    /// configuration); everything else is derived.
    fn new(config: ConfigState, workspace: WorkspaceState) -> State {
        let design = DesignState::new(Rc::clone(config.topology()));
        let configure = WorkspaceAction::Configure(Rc::clone(config.topology()));
        let workspace = Rc::new(workspace).reduce(configure);
        let placed = Placed::new(&config);
        let explained = workspace.page().documents().get(2).map(|d| d.id.clone());
        #[allow(unused_mut)]
        let mut state = State {
            views: Rc::new(ViewsState::new(
                Rc::clone(workspace.summary()),
                Rc::clone(&placed.topology),
                explained.unwrap_or_default(),
            )),
            reshard: Rc::new(ReshardState::new(
                placed.inputs(&config, workspace.outbox().last()),
            )),
            config: Rc::new(config),
            workspace,
            design: Rc::new(design),
            placed,
            notices: Rc::default(),
            advisor: Rc::default(),
            readiness: Rc::default(),
            kept: None,
            host: HostSeen::default(),
            restore_wanted: false,
        };
        #[cfg(all(test, not(target_arch = "wasm32")))]
        state.sync_test_host();
        state
    }

    /// The state a share link describes; a link whose configuration is invalid opens its
    /// documents on the default configuration, with a notice.
    pub fn from_shared(shared: SharedState) -> State {
        let count = shared.documents.len();
        let mut state = State::with_documents(shared.documents);
        match (shared.config, shared.shards) {
            (Some(config), _) => match read_configuration(&config) {
                Ok(_) => state.apply(Action::Config(ConfigAction::SetJson(config))),
                Err(problem) => state.notify(
                    Level::Error,
                    format!(
                        "The link's sharding configuration is invalid and was not applied: {}",
                        problem.message
                    ),
                ),
            },
            (None, Some(shards)) => match parse_shard_count(&shards.to_string()) {
                Ok(_) => state.apply(Action::Config(ConfigAction::SetShardCount(
                    shards.to_string(),
                ))),
                Err(e) => state.notify(Level::Error, format!("The link's shard count: {e}")),
            },
            (None, None) => {}
        }
        if let Some(database) = shared.database {
            state.apply(Action::Config(ConfigAction::SetDatabase(database)));
        }
        let s = if count == 1 { "" } else { "s" };
        state.notify(
            Level::Info,
            format!("Opened a shared link: {count} document{s}."),
        );
        state
    }

    /// The state a saved studio describes, or why it cannot be used.
    pub fn from_saved(saved: Saved) -> Result<State, String> {
        let config = ConfigState::from_saved(config::SavedFields {
            database: &saved.database,
            nodes: &saved.nodes,
            replication_factor: &saved.replication_factor,
            config: &saved.config,
            custom: saved.custom,
        })?;
        let mut state = State::new(config, WorkspaceState::with_documents(saved.documents));
        state.keep(saved.kept.map(KeptFields::from));
        if let Some(readiness) = saved.readiness {
            state.readiness = Rc::new(ReadinessState::restored(readiness));
        }
        Ok(state)
    }

    /// What the import that made the workspace's documents kept of their bodies.
    pub fn kept(&self) -> Option<&KeptFields> {
        self.kept.as_deref()
    }

    /// The documents are now those of an import that kept `kept`: the documents whose body
    /// it could not keep, and a design in force that reads fields it did not keep, say so.
    fn keep(&mut self, kept: Option<KeptFields>) {
        if let Some(text) = kept.as_ref().and_then(KeptFields::dropped_notice) {
            self.push_notice(Notice::new(Level::Warning, text));
        }
        self.kept = kept.map(Box::new);
        let design = self.design.design().map(Rc::as_ref);
        if let Some(text) = self.kept.as_mut().and_then(|k| k.check(design)) {
            self.push_notice(Notice::new(Level::Warning, text));
        }
    }

    /// What to save but the documents (which [`Stored`](crate::persist::Stored) keeps apart).
    pub fn settings(&self) -> Saved {
        let config = &self.config;
        Saved {
            version: SAVED_VERSION,
            database: config.database().value().clone(),
            nodes: config.nodes().text().to_string(),
            replication_factor: config.replication_factor().text().to_string(),
            config: config.topology().to_json(),
            custom: config.custom(),
            documents: Vec::new(),
            tab: Some(self.views.tab().key().to_string()),
            kept: self.kept.as_deref().map(SavedKept::from),
            readiness: self.readiness.saved(),
        }
    }

    /// What a share link carries of `documents` (the workspace's, as its host answers
    /// them): the shard count when the configuration is RavenDB's default one with the
    /// default nodes, else the whole configuration.
    pub fn shared_with(&self, documents: Vec<Document>) -> SharedState {
        SharedState {
            documents,
            ..self.shared_settings()
        }
    }

    /// What a share link carries but the documents.
    fn shared_settings(&self) -> SharedState {
        let config = &self.config;
        let plain = config.is_plain();
        SharedState {
            database: Some(config.database().value().clone()),
            shards: plain.then(|| config.topology().shards().len() as u32),
            config: (!plain).then(|| config.topology().to_json()),
            documents: Vec::new(),
        }
    }

    /// Why the workspace is not shared as a link (too many documents for one:
    /// [`MAX_LINK_DOCUMENTS`](ravenshard_model::share::MAX_LINK_DOCUMENTS)), asked before
    /// any link is made; `None` when it may be.
    pub fn share_refusal(&self) -> Option<String> {
        let documents = self.summary().documents;
        (documents > ravenshard_model::share::MAX_LINK_DOCUMENTS).then(|| {
            too_big_for_a_link(&format!(
                "{} documents; a link holds at most {}",
                group_digits(documents as u64),
                group_digits(ravenshard_model::share::MAX_LINK_DOCUMENTS as u64),
            ))
        })
    }

    /// The configuration.
    pub fn config(&self) -> &Rc<ConfigState> {
        &self.config
    }

    /// The documents and the ID editor.
    pub fn workspace(&self) -> &Rc<WorkspaceState> {
        &self.workspace
    }

    /// The draft chapter's design in force, the router and the checks.
    pub fn design(&self) -> &Rc<DesignState> {
        &self.design
    }

    /// What every view shows of the placement in force: totals, shards, nodes × shards,
    /// blocks, the groups' count ([`Summary`]).
    pub fn summary(&self) -> &Rc<Summary> {
        self.workspace.summary()
    }

    /// What the views show.
    pub fn views(&self) -> &Rc<ViewsState> {
        &self.views
    }

    /// The Resharding view's state.
    pub fn reshard(&self) -> &Rc<ReshardState> {
        &self.reshard
    }

    /// The Advisor view.
    pub fn advisor(&self) -> &Rc<AdvisorState> {
        &self.advisor
    }

    /// The Readiness view.
    pub fn readiness(&self) -> &Rc<ReadinessState> {
        &self.readiness
    }

    /// The notices shown at the top.
    pub fn notices(&self) -> &Rc<NoticesState> {
        &self.notices
    }

    /// Applies `action` in place: the sub-state it is for reduces it, then the others learn
    /// what changed.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Config(a) => self.config = Rc::clone(&self.config).reduce(a),
            Action::Workspace(a) => self.apply_workspace(a),
            Action::View(a) => self.views = Rc::clone(&self.views).reduce(a),
            Action::Design(a) => self.design = Rc::clone(&self.design).reduce(a),
            Action::Reshard(a) => self.reshard = Rc::clone(&self.reshard).reduce(a),
            Action::Notice(a) => self.notices = Rc::clone(&self.notices).reduce(a),
            Action::UseReshardTarget => self.use_reshard_target(),
            Action::Loaded(loaded) => self.adopt(loaded),
            Action::RestoreStarted => self.restore_wanted = false,
            Action::Reopen(state) => self.reopen(state),
            Action::Host(news) => self.host_news(news),
            Action::Advisor(a) => self.advisor_action(a),
            Action::Readiness(a) => self.readiness = Rc::clone(&self.readiness).reduce(a),
            Action::ApplyConfiguration { label, json } => {
                self.config = Rc::clone(&self.config).reduce(ConfigAction::SetJson(json));
                if self.config.problem().is_none() {
                    self.notify(
                        Level::Info,
                        format!(
                            "Applied {label}: its configuration is in force, every view shows it."
                        ),
                    );
                }
            }
        }
        self.reconcile();
        #[cfg(all(test, not(target_arch = "wasm32")))]
        self.sync_test_host();
    }

    /// A workspace action; what it says is told.
    fn apply_workspace(&mut self, action: WorkspaceAction) {
        if action.replaces_documents() {
            self.kept = None;
        }
        self.workspace = Rc::clone(&self.workspace).reduce(action);
        if let Some(notice) = self.workspace.notice() {
            self.push_notice(notice.clone());
        }
    }

    /// An Advisor action; the worker's replies that are not the run's go elsewhere: the
    /// rewrites of an anchor candidate to the workspace, a failure outside a run and a
    /// crash to the notices.
    fn advisor_action(&mut self, action: AdvisorAction) {
        match action {
            AdvisorAction::Reply(AdvisorReply::Rewrites {
                collection,
                field,
                rewrites,
                ..
            }) => {
                let rewrites = rewrites
                    .into_iter()
                    .map(|(from, to)| Rewrite { from, to })
                    .collect();
                let label = format!("anchor on {field} ({collection})");
                let action = WorkspaceAction::RewriteIds {
                    label,
                    rewrites: Rc::new(rewrites),
                };
                self.apply(Action::Workspace(action));
            }
            AdvisorAction::Reply(AdvisorReply::Failed { message, .. })
                if !self.advisor.running() =>
            {
                self.notify(Level::Error, format!("The advisor: {message}"));
            }
            action => {
                if let AdvisorAction::Reply(AdvisorReply::Crashed(Crashed { message })) = &action {
                    self.notify(
                        Level::Error,
                        format!("The studio's worker stopped ({message}); the page is unaffected and a new worker starts on the next run."),
                    );
                }
                self.advisor = Rc::clone(&self.advisor).reduce(action);
            }
        }
    }

    /// Takes the place of `state` (made apart: the last saved studio, restored after the
    /// host's worker stopped), keeping this one's notices and the queue of its changes.
    fn reopen(&mut self, state: Rc<State>) {
        let outbox = self.workspace.outbox().clone();
        let notices = Rc::clone(&self.notices);
        let host = self.host;
        // What was pasted in the Readiness view is the user's, not the saved studio's.
        let readiness = Rc::clone(&self.readiness);
        *self = Rc::unwrap_or_clone(state);
        self.readiness = readiness;
        let mut workspace = Rc::unwrap_or_clone(Rc::clone(&self.workspace));
        workspace.send_through(&outbox);
        self.workspace = Rc::new(workspace);
        let restored = self.notices.list().to_vec();
        self.notices = restored.into_iter().fold(notices, |list, notice| {
            list.reduce(NoticeAction::Notify(notice))
        });
        self.host = host;
    }

    /// What the workspace's host said last.
    pub fn host(&self) -> &HostSeen {
        &self.host
    }

    /// Whether the host's worker stopped and the last saved studio is to be restored in a
    /// new one ([`Action::RestoreStarted`] once started).
    pub fn restore_wanted(&self) -> bool {
        self.restore_wanted
    }

    /// The number of the last change of the workspace queued for its host: what the views
    /// key their questions by, so that they ask again in the render that queued a change.
    /// The change is sent before the question ([`host::before_ask`](crate::workers::host::before_ask)),
    /// so the answer comes after one round trip, not after the host's news and another.
    pub fn changes(&self) -> u64 {
        self.workspace.outbox().last()
    }

    /// The host made a change (its summary, once it made every change sent, must be the
    /// page's), refused one, or stopped (it is sent the documents again).
    fn host_news(&mut self, news: HostNews) {
        match news {
            HostNews::Changed { seq, changed } => {
                let what = changed.what;
                let hosted = WorkspaceAction::Hosted {
                    seq,
                    changed: Rc::clone(&changed),
                };
                self.apply_workspace(hosted);
                if what != What::Nothing {
                    let (summary, topology) =
                        (Rc::clone(self.summary()), Rc::clone(&self.placed.topology));
                    let action = match what {
                        What::Members => ViewAction::MembersChanged(summary, topology),
                        What::Placed | What::Edited { .. } | What::Nothing => {
                            ViewAction::Placed(summary, topology)
                        }
                    };
                    self.views = Rc::clone(&self.views).reduce(action);
                }
                self.host = HostSeen {
                    version: changed.version,
                    seq,
                    crashes: self.host.crashes,
                };
            }
            HostNews::Refused { seq, error } => {
                // The workspace is as the host had it: the page shows it again.
                self.apply_workspace(WorkspaceAction::Refused { seq });
                self.notify(Level::Error, format!("The studio's worker: {error}."));
            }
            HostNews::Crashed { message } => {
                self.advisor = Rc::clone(&self.advisor).reduce(AdvisorAction::HostStopped);
                let crashes = self.host.crashes + 1;
                self.host = HostSeen {
                    crashes,
                    ..HostSeen::default()
                };
                if crashes > HOST_RESTARTS {
                    self.notify(
                        Level::Error,
                        format!("The studio's worker stopped again ({message}): reload the page; the saved studio is kept."),
                    );
                    return;
                }
                self.notify(
                    Level::Error,
                    format!(
                        "The studio's worker stopped ({message}); the last saved studio is \
                         restored in a new one (what changed since is lost)."
                    ),
                );
                self.restore_wanted = true;
            }
        }
    }

    fn notify(&mut self, level: Level, text: String) {
        self.push_notice(Notice::new(level, text));
    }

    fn push_notice(&mut self, notice: Notice) {
        self.notices = Rc::clone(&self.notices).reduce(NoticeAction::Notify(notice));
    }

    fn use_reshard_target(&mut self) {
        if !self.reshard.has_target() {
            return;
        }
        let json = self.reshard.target().to_json();
        self.config = Rc::clone(&self.config).reduce(ConfigAction::SetJson(json));
        if self.config.problem().is_none() {
            self.notify(
                Level::Info,
                "The target is now the configuration in force: every view shows it.".into(),
            );
        }
    }

    /// Tells the sub-states what changed elsewhere: the design follows the configuration;
    /// the workspace queues a new configuration (or new members) for its host; the views
    /// and the Resharding state follow the topology; the Resharding state computes its view
    /// while its tab is shown.
    fn reconcile(&mut self) {
        let topology = Rc::clone(self.config.topology());
        if !Rc::ptr_eq(self.design.topology(), &topology) {
            let configure = DesignAction::Configure(Rc::clone(&topology));
            self.design = Rc::clone(&self.design).reduce(configure);
            let design = self.design.design().map(Rc::as_ref);
            if let Some(text) = self.kept.as_mut().and_then(|k| k.check(design)) {
                self.notify(Level::Warning, text);
            }
        }
        let revision = self.config.revision();
        // The same revision, another topology: only the members changed.
        let members = self.placed.revision == revision;
        if !members || !Rc::ptr_eq(&self.placed.applied, &topology) {
            let configure = WorkspaceAction::Configure(Rc::clone(&topology));
            self.workspace = Rc::clone(&self.workspace).reduce(configure);
            (self.placed.revision, self.placed.applied) = (revision, Rc::clone(&topology));
            let before = Rc::clone(&self.placed.topology);
            self.placed.follow(&topology);
            if !Rc::ptr_eq(&before, &self.placed.topology) {
                // The views draw the new topology at once; the host's summary follows.
                let (summary, topology) =
                    (Rc::clone(self.summary()), Rc::clone(&self.placed.topology));
                let action = if members {
                    ViewAction::MembersChanged(summary, topology)
                } else {
                    ViewAction::Placed(summary, topology)
                };
                self.views = Rc::clone(&self.views).reduce(action);
            }
        }
        let inputs = self.placed.inputs(&self.config, self.changes());
        if !self.reshard.inputs().same_as(&inputs) {
            self.reshard = Rc::clone(&self.reshard).reduce(ReshardAction::Inputs(inputs));
        }
        let shown = self.views.tab() == Tab::Reshard;
        if self.reshard.shown() != shown {
            self.reshard = Rc::clone(&self.reshard).reduce(ReshardAction::Show(shown));
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
