//! The studio's state: one [`Reducible`] value, changed only by [`Action`]s.
//!
//! The state holds the workspace (documents and the editor's text), the configuration
//! (a validated [`Topology`] with members) and what the views show (tab, document query,
//! selections, import progress, notices). Everything derived — the [`Placement`] of the
//! documents, the rows of the documents view, the explanation of one ID — is computed by
//! the core, in the reducer, only when its inputs change, and kept behind `Rc`, so cloning
//! a state is cheap and the components compute nothing.
//!
//! One concept per file: [`inputs`] (reading the fields), [`documents`] (editor text and
//! CSV), [`persist`] (what survives a reload). The reducer is pure and tested natively.

pub mod design;
pub mod documents;
pub mod editor;
pub mod inputs;
pub mod persist;
pub mod reshard;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod reshard_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

pub use design::{DesignState, DEFAULT_QUERY};
pub use documents::{documents_csv, documents_text, parse_documents, parse_documents_at};
pub use editor::{Page, PageMove, MAX_PAGE_LINES, PAGE_LINES};
pub use inputs::{
    default_tags, parse_database, parse_nodes, parse_replication_factor, parse_shard_count,
    parse_tags, preview, split_chars, MAX_NODES, MAX_SHARDS, PREVIEW_CHARS,
};
pub use persist::{read_saved, Saved, SAVED_VERSION, SET_ASIDE_KEY, STORAGE_KEY};
pub use reshard::{ReshardAction, ReshardState, ReshardView};

use ravenshard::{explain, Explanation, Topology};
use ravenshard_design::content::ContentDesign;
use ravenshard_model::import::Imported;
use ravenshard_model::sample::{chapter_examples, Generator};
use ravenshard_model::share::SharedState;
use ravenshard_model::workspace::{
    assign_members, Document, Placement, PlacementOptions, RowQuery, RowView, SortKey,
};
use std::rc::Rc;
use yew::Reducible;

/// The shard count the studio opens with.
pub const DEFAULT_SHARDS: u32 = 3;
/// The database name the studio opens with (its fragments are `Orders$0`, `Orders$1`...).
pub const DEFAULT_DATABASE: &str = "Orders";
/// The nodes the studio opens with (the chapter's four-node cluster).
pub const DEFAULT_NODES: &str = "A, B, C, D";
/// The replication factor the studio opens with.
pub const DEFAULT_REPLICATION_FACTOR: &str = "2";
/// The generator's default document count.
pub const DEFAULT_GENERATED: &str = "10000";
/// The generator's default anchored share, in percent.
pub const DEFAULT_ANCHORED_PERCENT: &str = "50";
/// The most documents the generator makes in the studio.
pub const MAX_GENERATED: usize = 200_000;

/// The views of the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    /// Shards (fragments): cards and a bar chart.
    Shards,
    /// Nodes × shards.
    Nodes,
    /// Anchored groups.
    Groups,
    /// Every document (the view the studio opens on).
    #[default]
    Documents,
    /// The steps from one ID to its shard.
    Explain,
    /// The buckets of each block, coloured by shard, with the documents as marks.
    Map,
    /// Bucket ranges, prefixes and the configuration's JSON.
    Ranges,
    /// The draft chapter's content rules: generated IDs and rejected writes.
    Content,
    /// The query router and the transaction check.
    Queries,
    /// Plans of bucket moves to a target configuration, balancing and the migration.
    Reshard,
}

impl Tab {
    /// Every tab, in display order.
    pub const ALL: [Tab; 10] = [
        Tab::Documents,
        Tab::Map,
        Tab::Shards,
        Tab::Nodes,
        Tab::Groups,
        Tab::Explain,
        Tab::Ranges,
        Tab::Content,
        Tab::Queries,
        Tab::Reshard,
    ];

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            Tab::Shards => "Shards",
            Tab::Nodes => "Nodes × shards",
            Tab::Groups => "Anchored groups",
            Tab::Documents => "Documents",
            Tab::Explain => "Explain",
            Tab::Map => "Bucket map",
            Tab::Ranges => "Ranges & prefixes",
            Tab::Content => "Content rules",
            Tab::Queries => "Queries",
            Tab::Reshard => "Resharding",
        }
    }

    /// A stable key, for ids and test selectors.
    pub fn key(self) -> &'static str {
        match self {
            Tab::Shards => "shards",
            Tab::Nodes => "nodes",
            Tab::Groups => "groups",
            Tab::Documents => "documents",
            Tab::Explain => "explain",
            Tab::Map => "map",
            Tab::Ranges => "ranges",
            Tab::Content => "content",
            Tab::Queries => "queries",
            Tab::Reshard => "reshard",
        }
    }
}

/// What the shard bar chart measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Documents per shard.
    #[default]
    Documents,
    /// Known bytes per shard.
    Bytes,
}

/// How serious a notice is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Something happened as asked.
    Info,
    /// Something was left out or set aside.
    Warning,
    /// Something could not be done.
    Error,
}

/// A dismissible message at the top of the studio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// How serious it is.
    pub level: Level,
    /// What it says.
    pub text: String,
}

/// A configuration JSON that was not applied, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// The core's message.
    pub message: String,
    /// The JSON path of the problem, when known.
    pub path: Option<String>,
}

/// An import in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportStatus {
    /// The file's name.
    pub name: String,
    /// How much is read, 0 to 1, when the size is known.
    pub fraction: Option<f64>,
    /// Documents read so far.
    pub documents: usize,
}

/// Everything a user (or the browser, for imports and startup) can do to the studio.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The ID editor now holds this text (`id<TAB>size<TAB>collection` per line): the
    /// documents of the editor's page are replaced by the text's.
    SetIds(String),
    /// Show another page of the workspace in the ID editor.
    MovePage(PageMove),
    /// Load the chapter's examples.
    LoadChapterSample,
    /// The generator's document count field.
    SetGeneratorCount(String),
    /// The generator's anchored share field, in percent.
    SetGeneratorShare(String),
    /// Generate orders/companies/employees with the generator's fields.
    Generate,
    /// Empty the workspace.
    ClearIds,
    /// The shard count field (applied only if valid; replaces a custom configuration).
    SetShardCount(String),
    /// The database name field (applied only if valid).
    SetDatabase(String),
    /// The nodes field (applied only if valid; members are assigned again).
    SetNodes(String),
    /// The replication factor field (applied only if valid; members are assigned again).
    SetReplicationFactor(String),
    /// The members field of one shard (applied only if valid).
    SetMembers {
        /// The shard number.
        shard: u32,
        /// Its member tags, as typed.
        text: String,
    },
    /// Assign members again with RavenDB's algorithm.
    AssignMembers,
    /// Apply a whole RavenDB `ShardingConfiguration` JSON (or database record), if valid.
    SetConfigJson(String),
    /// Show a view.
    SelectTab(Tab),
    /// The query router's RQL.
    SetRouterQuery(String),
    /// The transaction check's IDs, one per line.
    SetTransactionIds(String),
    /// Check a transaction over the documents the documents view shows (the first
    /// [`MAX_TRANSACTION_IDS`](design::MAX_TRANSACTION_IDS)).
    TransactionOfShownDocuments,
    /// The LoadDocument check: a document, and the document its index loads.
    SetLoadCheck {
        /// The indexed document's ID.
        document: String,
        /// The loaded document's ID.
        related: String,
    },
    /// What the shard chart measures.
    SetMetric(Metric),
    /// Keep documents whose ID contains this text.
    SetFilterText(String),
    /// Keep documents on this shard (`None`: all).
    SetFilterShard(Option<u32>),
    /// Keep documents of this anchored group (`None`: all).
    SetFilterGroup(Option<u32>),
    /// Sort the documents by this key (again: reverse the order).
    SortBy(SortKey),
    /// Select an anchored group (the bucket map highlights it), or none.
    SelectGroup(Option<u32>),
    /// Select a bucket (the bucket map lists its documents), or none.
    SelectBucket(Option<u32>),
    /// Show the documents of an anchored group.
    ShowGroupDocuments(u32),
    /// Explain this document (by index) and show the Explain view.
    ExplainDocument(u32),
    /// The Explain view's ID field.
    SetExplainId(String),
    /// An import began.
    ImportStarted {
        /// The file's name.
        name: String,
    },
    /// An import read more.
    ImportProgress {
        /// How much is read, 0 to 1.
        fraction: Option<f64>,
        /// Documents so far.
        documents: usize,
    },
    /// An import finished: its documents replace the workspace.
    ImportFinished {
        /// The file's name.
        name: String,
        /// What was read.
        imported: Imported,
    },
    /// An import failed: the workspace stays as it was.
    ImportFailed {
        /// The file's name.
        name: String,
        /// Why.
        message: String,
    },
    /// The user cancelled the import.
    ImportCancelled,
    /// Report something (a saved state set aside, a link copied...).
    Notify(Level, String),
    /// Dismiss the notice at this position.
    DismissNotice(usize),
    /// Something in the Resharding view.
    Reshard(ReshardAction),
}

/// The studio's whole state.
#[derive(Debug, Clone)]
pub struct State {
    page: Page,
    documents: Rc<Vec<Document>>,
    parse_notes: Vec<String>,
    generator_count: String,
    generator_share: String,
    generator_error: Option<String>,
    database_input: String,
    database_error: Option<String>,
    database: String,
    shard_input: String,
    shard_error: Option<String>,
    nodes_input: String,
    nodes_error: Option<String>,
    nodes: Vec<String>,
    rf_input: String,
    rf_error: Option<String>,
    replication_factor: u32,
    member_error: Option<String>,
    members_edited: bool,
    custom: bool,
    config_problem: Option<ConfigProblem>,
    topology: Rc<Topology>,
    design: DesignState,
    reshard: Rc<ReshardState>,
    placement: Rc<Placement>,
    /// The placement `rows` was computed from (compared by pointer).
    rows: Rc<RowView>,
    query: RowQuery,
    tab: Tab,
    metric: Metric,
    /// The anchored group the bucket map highlights.
    pub selected_group: Option<u32>,
    /// The bucket whose documents the bucket map lists.
    pub selected_bucket: Option<u32>,
    explain_id: String,
    explanation: Option<Rc<Result<Explanation, String>>>,
    import: Option<ImportStatus>,
    import_error: Option<String>,
    notices: Vec<Notice>,
}

impl PartialEq for State {
    /// States are compared by what they show; derived values by pointer.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.placement, &other.placement)
            && Rc::ptr_eq(&self.rows, &other.rows)
            && Rc::ptr_eq(&self.topology, &other.topology)
            && self.design == other.design
            && Rc::ptr_eq(&self.reshard, &other.reshard)
            && self.page == other.page
            && self.tab == other.tab
            && self.metric == other.metric
            && self.query == other.query
            && self.selected_group == other.selected_group
            && self.explain_id == other.explain_id
            && self.import == other.import
            && self.import_error == other.import_error
            && self.notices == other.notices
            && self.config_problem == other.config_problem
            && self.generator_count == other.generator_count
            && self.generator_share == other.generator_share
            && self.generator_error == other.generator_error
            && self.database_input == other.database_input
            && self.shard_input == other.shard_input
            && self.nodes_input == other.nodes_input
            && self.rf_input == other.rf_input
            && self.member_error == other.member_error
    }
}

impl Default for State {
    /// The chapter's examples, 3 shards of database `Orders` on nodes A–D, replication 2.
    fn default() -> Self {
        State::with_documents(chapter_examples())
    }
}

/// The default topology for `shards` shards, named `database`.
fn default_topology(shards: u32, database: &str) -> Topology {
    let mut topology = match Topology::with_shards(shards) {
        Ok(t) => t,
        // 1..=MAX_SHARDS is always accepted; 1 shard as a last resort.
        Err(_) => Topology::with_shards(1).unwrap_or_else(|_| unreachable_topology()),
    };
    topology.set_database(database);
    topology
}

/// Never called: `Topology::with_shards(1)` always succeeds. Kept panic-free anyway by
/// reading a fixed, valid configuration.
fn unreachable_topology() -> Topology {
    Topology::from_json(r#"{"Shards": {"0": {}}}"#).unwrap_or_else(|_| unreachable_topology())
}

/// A configuration JSON read as the studio applies it: a topology whose content rules (if
/// any) are valid too; else the core's message and JSON path.
pub fn read_configuration(json: &str) -> Result<Topology, ConfigProblem> {
    let topology = Topology::from_json(json).map_err(|e| ConfigProblem {
        message: e.to_string(),
        path: e.path().filter(|p| !p.is_empty()).map(str::to_string),
    })?;
    ContentDesign::from_topology(&topology).map_err(|e| ConfigProblem {
        message: e.to_string(),
        path: e.path().map(str::to_string),
    })?;
    Ok(topology)
}

/// Distinct members of a topology, in order of first appearance, and the largest member
/// count of a shard.
fn nodes_of(topology: &Topology) -> (Vec<String>, usize) {
    let mut nodes: Vec<String> = Vec::new();
    let mut most = 0;
    for shard in topology.shards() {
        most = most.max(shard.members.len());
        for member in &shard.members {
            if !nodes.contains(member) {
                nodes.push(member.clone());
            }
        }
    }
    (nodes, most)
}

impl State {
    /// The default configuration holding `documents`.
    pub fn with_documents(documents: Vec<Document>) -> State {
        let topology = default_topology(DEFAULT_SHARDS, DEFAULT_DATABASE);
        let placement = Placement::new(&documents, &topology, &PlacementOptions::default());
        let mut state = State {
            page: Page::at(&documents, 0),
            documents: Rc::new(documents),
            parse_notes: Vec::new(),
            generator_count: DEFAULT_GENERATED.into(),
            generator_share: DEFAULT_ANCHORED_PERCENT.into(),
            generator_error: None,
            database_input: DEFAULT_DATABASE.into(),
            database_error: None,
            database: DEFAULT_DATABASE.into(),
            shard_input: DEFAULT_SHARDS.to_string(),
            shard_error: None,
            nodes_input: DEFAULT_NODES.into(),
            nodes_error: None,
            nodes: parse_nodes(DEFAULT_NODES).unwrap_or_default(),
            rf_input: DEFAULT_REPLICATION_FACTOR.into(),
            rf_error: None,
            replication_factor: 2,
            member_error: None,
            members_edited: false,
            custom: false,
            config_problem: None,
            design: DesignState::new(&topology, None),
            topology: Rc::new(topology),
            placement: Rc::new(placement),
            rows: Rc::default(),
            query: RowQuery::default(),
            tab: Tab::default(),
            metric: Metric::default(),
            selected_group: None,
            selected_bucket: None,
            explain_id: String::new(),
            explanation: None,
            import: None,
            import_error: None,
            notices: Vec::new(),
            reshard: Rc::default(),
        };
        state.assign();
        state.refresh_rows();
        state.explain_id = state
            .documents
            .get(2)
            .map(|d| d.id.clone())
            .unwrap_or_default();
        state.refresh_explanation();
        state
    }

    /// The state a share link describes; a link whose configuration is invalid opens its
    /// documents on the default configuration, with a notice.
    pub fn from_shared(shared: SharedState) -> State {
        let mut state = State::with_documents(shared.documents.clone());
        match (&shared.config, shared.shards) {
            (Some(config), _) => {
                state.apply(Action::SetConfigJson(config.clone()));
                if let Some(problem) = state.config_problem.take() {
                    state.notify(
                        Level::Error,
                        format!(
                            "The link's sharding configuration is invalid and was not applied: \
                             {}",
                            problem.message
                        ),
                    );
                }
            }
            (None, Some(shards)) => {
                if let Err(e) = parse_shard_count(&shards.to_string()) {
                    state.notify(Level::Error, format!("The link's shard count: {e}"));
                } else {
                    state.apply(Action::SetShardCount(shards.to_string()));
                }
            }
            (None, None) => {}
        }
        if let Some(database) = &shared.database {
            state.apply(Action::SetDatabase(database.clone()));
        }
        state.notify(
            Level::Info,
            format!(
                "Opened a shared link: {} document{}.",
                state.documents.len(),
                if state.documents.len() == 1 { "" } else { "s" }
            ),
        );
        state
    }

    /// The state a saved studio describes, or why it cannot be used.
    pub fn from_saved(saved: Saved) -> Result<State, String> {
        let mut topology = Topology::from_json(&saved.config)
            .map_err(|e| format!("its sharding configuration is invalid ({e})"))?;
        ContentDesign::from_topology(&topology)
            .map_err(|e| format!("its content rules are invalid ({e})"))?;
        let database = parse_database(&saved.database)
            .map_err(|e| format!("its database name is invalid ({e})"))?;
        topology.set_database(&database);
        let mut state = State::with_documents(saved.documents);
        state.database_input = database.clone();
        state.database = database;
        state.set_nodes_and_rf(&saved.nodes, &saved.replication_factor);
        state.install_topology(topology, saved.custom, false);
        state.members_edited = true;
        Ok(state)
    }

    /// What to save.
    pub fn saved(&self) -> Saved {
        Saved {
            version: SAVED_VERSION,
            database: self.database.clone(),
            nodes: self.nodes_input.clone(),
            replication_factor: self.rf_input.clone(),
            config: self.topology.to_json(),
            custom: self.custom,
            documents: self.documents.to_vec(),
        }
    }

    /// What a share link carries: the shard count when the configuration is RavenDB's
    /// default one with the default nodes, else the whole configuration.
    pub fn shared(&self) -> SharedState {
        let default_members = !self.members_edited
            && self.nodes_input == DEFAULT_NODES
            && self.rf_input == DEFAULT_REPLICATION_FACTOR;
        let plain = !self.custom && default_members;
        SharedState {
            database: Some(self.database.clone()),
            shards: plain.then(|| self.topology.shards().len() as u32),
            config: (!plain).then(|| self.topology.to_json()),
            documents: self.documents.to_vec(),
        }
    }

    /// The CSV export of the documents.
    pub fn csv(&self) -> String {
        documents_csv(&self.placement)
    }

    /// The report JSON: totals, per-shard counts, bytes, nodes and balance, the nodes ×
    /// shards matrix, obese buckets and the largest anchored groups — all from the
    /// placement in force.
    pub fn report_json(&self) -> String {
        const GROUPS: usize = 100;
        const MEMBERS: usize = 20;
        let p = &self.placement;
        let groups: Vec<serde_json::Value> = p
            .groups()
            .iter()
            .take(GROUPS)
            .map(|g| {
                serde_json::json!({
                    "anchor": g.anchor,
                    "anchor_is_document": g.anchor_is_document(),
                    "documents": g.documents,
                    "bytes": g.bytes,
                    "bucket": g.bucket,
                    "shard": g.shard,
                    "obese": g.obese,
                    "split": g.split,
                    "advice": g.advice,
                    "members": g.members.iter().take(MEMBERS)
                        .filter_map(|&i| p.id(i as usize)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let report = serde_json::json!({
            "database": self.database,
            "totals": p.totals(),
            "document_balance": p.document_balance(),
            "byte_balance": p.byte_balance(),
            "shards": p.shards(),
            "nodes": p.matrix().rows.iter().map(|r| serde_json::json!({
                "node": r.node, "documents": r.total_documents, "bytes": r.total_bytes,
            })).collect::<Vec<_>>(),
            "obese_threshold": p.obese_threshold(),
            "obese_buckets": p.obese_buckets(),
            "anchored_group_count": p.groups().len(),
            "anchored_groups": groups,
            "invalid": p.invalid().iter().take(GROUPS).map(|e| serde_json::json!({
                "index": e.index, "id": p.id(e.index as usize), "error": e.message,
            })).collect::<Vec<_>>(),
            "configuration": serde_json::from_slice::<serde_json::Value>(self.topology.to_json().as_bytes())
                .unwrap_or(serde_json::Value::Null),
        });
        serde_json::to_string_pretty(&report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    // ---- accessors -------------------------------------------------------------------

    /// The page of the workspace the ID editor shows.
    pub fn page(&self) -> &Page {
        &self.page
    }
    /// The documents of the workspace.
    pub fn documents(&self) -> &Rc<Vec<Document>> {
        &self.documents
    }
    /// Problems reading the editor's text.
    pub fn parse_notes(&self) -> &[String] {
        &self.parse_notes
    }
    /// The generator's document count field.
    pub fn generator_count(&self) -> &str {
        &self.generator_count
    }
    /// The generator's anchored share field (percent).
    pub fn generator_share(&self) -> &str {
        &self.generator_share
    }
    /// Why the generator's fields are not usable.
    pub fn generator_error(&self) -> Option<&str> {
        self.generator_error.as_deref()
    }
    /// The database name field.
    pub fn database_input(&self) -> &str {
        &self.database_input
    }
    /// Why the database name field is not applied.
    pub fn database_error(&self) -> Option<&str> {
        self.database_error.as_deref()
    }
    /// The database name in force.
    pub fn database(&self) -> &str {
        &self.database
    }
    /// The shard count field.
    pub fn shard_input(&self) -> &str {
        &self.shard_input
    }
    /// Why the shard count field is not applied.
    pub fn shard_error(&self) -> Option<&str> {
        self.shard_error.as_deref()
    }
    /// The shard count in force.
    pub fn shards(&self) -> u32 {
        self.topology.shards().len() as u32
    }
    /// The nodes field.
    pub fn nodes_input(&self) -> &str {
        &self.nodes_input
    }
    /// Why the nodes field is not applied.
    pub fn nodes_error(&self) -> Option<&str> {
        self.nodes_error.as_deref()
    }
    /// The replication factor field.
    pub fn rf_input(&self) -> &str {
        &self.rf_input
    }
    /// Why the replication factor field is not applied.
    pub fn rf_error(&self) -> Option<&str> {
        self.rf_error.as_deref()
    }
    /// Why members could not be assigned or set.
    pub fn member_error(&self) -> Option<&str> {
        self.member_error.as_deref()
    }
    /// Whether the configuration came from JSON (custom ranges or prefixes possible).
    pub fn custom(&self) -> bool {
        self.custom
    }
    /// The last configuration JSON that was refused.
    pub fn config_problem(&self) -> Option<&ConfigProblem> {
        self.config_problem.as_ref()
    }
    /// The topology in force.
    pub fn topology(&self) -> Rc<Topology> {
        Rc::clone(&self.topology)
    }
    /// The draft chapter's design in force, the router's query and route.
    pub fn design(&self) -> &DesignState {
        &self.design
    }
    /// The documents placed by the topology.
    pub fn placement(&self) -> Rc<Placement> {
        Rc::clone(&self.placement)
    }
    /// The documents view's rows (indices into the placement).
    pub fn rows(&self) -> Rc<RowView> {
        Rc::clone(&self.rows)
    }
    /// The documents view's query.
    pub fn query(&self) -> &RowQuery {
        &self.query
    }
    /// The view shown.
    pub fn tab(&self) -> Tab {
        self.tab
    }
    /// What the shard chart measures.
    pub fn metric(&self) -> Metric {
        self.metric
    }
    /// The Explain view's ID field.
    pub fn explain_id(&self) -> &str {
        &self.explain_id
    }
    /// The explanation of that ID (`None` when the field is empty).
    pub fn explanation(&self) -> Option<Rc<Result<Explanation, String>>> {
        self.explanation.clone()
    }
    /// The import in progress.
    pub fn import(&self) -> Option<&ImportStatus> {
        self.import.as_ref()
    }
    /// Why the last import failed.
    pub fn import_error(&self) -> Option<&str> {
        self.import_error.as_deref()
    }
    /// The notices shown at the top.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    // ---- the reducer ------------------------------------------------------------------

    /// Applies `action` in place.
    pub fn apply(&mut self, action: Action) {
        self.apply_action(action);
        if self.tab == Tab::Reshard && self.reshard.view().is_none() {
            self.with_reshard(|reshard, cx| reshard.refresh(cx));
        }
    }

    /// Calls `f` with the Resharding state and what it needs from the rest.
    fn with_reshard(&mut self, f: impl FnOnce(&mut ReshardState, &reshard::Context)) {
        let options = self.placement_options();
        let cx = reshard::Context {
            current: &self.topology,
            documents: &self.documents,
            placement: &self.placement,
            options: &options,
            nodes: &self.nodes,
            replication_factor: self.replication_factor,
        };
        f(Rc::make_mut(&mut self.reshard), &cx);
    }

    /// The Resharding view's state.
    pub fn reshard(&self) -> &Rc<ReshardState> {
        &self.reshard
    }

    fn apply_action(&mut self, action: Action) {
        match action {
            Action::SetIds(text) => {
                if text != self.page.text().as_str() {
                    let edit = self.page.edit(&self.documents, text);
                    self.parse_notes = edit.notes;
                    if edit.cut {
                        self.notify(
                            Level::Info,
                            format!(
                                "The editor shows {PAGE_LINES} lines at a time: use its pager \
                                 for the rest of the {} documents.",
                                edit.documents
                                    .as_ref()
                                    .map_or(self.documents.len(), Vec::len)
                            ),
                        );
                    }
                    if let Some(documents) = edit.documents {
                        self.documents = Rc::new(documents);
                        self.place();
                    }
                }
            }
            Action::MovePage(to) => {
                self.page = self.page.moved(&self.documents, to);
                self.parse_notes.clear();
            }
            Action::LoadChapterSample => self.replace_documents(chapter_examples(), None),
            Action::SetGeneratorCount(text) => {
                self.generator_count = text;
                self.generator_error = self.generator().err();
            }
            Action::SetGeneratorShare(text) => {
                self.generator_share = text;
                self.generator_error = self.generator().err();
            }
            Action::Generate => match self.generator() {
                Ok(generator) => match generator.generate() {
                    Ok(documents) => {
                        self.generator_error = None;
                        self.replace_documents(documents, None);
                    }
                    Err(e) => self.generator_error = Some(e.to_string()),
                },
                Err(e) => self.generator_error = Some(e),
            },
            Action::ClearIds => self.replace_documents(Vec::new(), None),
            Action::SetShardCount(text) => {
                self.shard_input = text;
                match parse_shard_count(&self.shard_input) {
                    Ok(n) => {
                        self.shard_error = None;
                        if n != self.shards() || self.custom {
                            let topology = default_topology(n, &self.database);
                            self.install_topology(topology, false, true);
                        }
                    }
                    Err(e) => self.shard_error = Some(e),
                }
            }
            Action::SetDatabase(text) => {
                self.database_input = text;
                match parse_database(&self.database_input) {
                    Ok(name) => {
                        self.database_error = None;
                        if name != self.database {
                            self.database = name;
                            let mut topology = (*self.topology).clone();
                            topology.set_database(&self.database);
                            self.install_topology(topology, self.custom, false);
                        }
                    }
                    Err(e) => self.database_error = Some(e),
                }
            }
            Action::SetNodes(text) => {
                let rf = self.rf_input.clone();
                self.set_nodes_and_rf(&text, &rf);
                if self.nodes_error.is_none() && self.rf_error.is_none() {
                    self.assign();
                }
            }
            Action::SetReplicationFactor(text) => {
                let nodes = self.nodes_input.clone();
                self.set_nodes_and_rf(&nodes, &text);
                if self.nodes_error.is_none() && self.rf_error.is_none() {
                    self.assign();
                }
            }
            Action::AssignMembers => self.assign(),
            Action::SetMembers { shard, text } => {
                let members = if text.trim().is_empty() {
                    Ok(Vec::new())
                } else {
                    parse_tags(&text, &format!("Shard {shard}"))
                };
                match members {
                    Ok(members) => {
                        self.member_error = None;
                        self.members_edited = true;
                        self.set_members(&[(shard, members)]);
                    }
                    Err(e) => self.member_error = Some(e),
                }
            }
            Action::SetConfigJson(json) => match read_configuration(&json) {
                Ok(mut topology) => {
                    self.config_problem = None;
                    if topology.database() == ravenshard::DEFAULT_DATABASE {
                        topology.set_database(&self.database);
                    } else {
                        self.database = topology.database().to_string();
                        self.database_input = self.database.clone();
                        self.database_error = None;
                    }
                    self.install_topology(topology, true, true);
                }
                Err(problem) => self.config_problem = Some(problem),
            },
            Action::SetRouterQuery(query) => self.design.set_query(&self.topology, query),
            Action::SetTransactionIds(text) => {
                self.design.set_transaction_ids(&self.topology, text)
            }
            Action::TransactionOfShownDocuments => {
                let mut text = String::new();
                for &i in self.rows.slice(0, design::MAX_TRANSACTION_IDS) {
                    if let Some(id) = self.placement.id(i as usize) {
                        text.push_str(id);
                        text.push('\n');
                    }
                }
                self.design.set_transaction_ids(&self.topology, text);
            }
            Action::SetLoadCheck { document, related } => {
                self.design.set_load(&self.topology, document, related)
            }
            Action::SelectTab(tab) => self.tab = tab,
            Action::SelectBucket(bucket) => {
                self.selected_bucket =
                    bucket.filter(|b| u64::from(*b) < self.placement.bucket_space());
            }
            Action::SetMetric(metric) => self.metric = metric,
            Action::SetFilterText(text) => {
                if text != self.query.text {
                    self.query.text = text;
                    self.refresh_rows();
                }
            }
            Action::SetFilterShard(shard) => {
                let shard = shard.filter(|s| self.topology.shard(*s).is_some());
                if shard != self.query.shard {
                    self.query.shard = shard;
                    self.refresh_rows();
                }
            }
            Action::SetFilterGroup(group) => {
                let group = group.filter(|g| (*g as usize) < self.placement.groups().len());
                if group != self.query.group {
                    self.query.group = group;
                    self.refresh_rows();
                }
            }
            Action::SortBy(key) => {
                if self.query.sort == key {
                    self.query.descending = !self.query.descending;
                } else {
                    self.query.sort = key;
                    self.query.descending = false;
                }
                self.refresh_rows();
            }
            Action::SelectGroup(group) => {
                self.selected_group =
                    group.filter(|g| (*g as usize) < self.placement.groups().len());
            }
            Action::ShowGroupDocuments(group) => {
                if (group as usize) < self.placement.groups().len() {
                    self.selected_group = Some(group);
                    self.query.group = Some(group);
                    self.query.shard = None;
                    self.query.text.clear();
                    self.refresh_rows();
                    self.tab = Tab::Documents;
                }
            }
            Action::ExplainDocument(index) => {
                if let Some(id) = self.placement.id(index as usize) {
                    self.explain_id = id.to_string();
                    self.refresh_explanation();
                    self.tab = Tab::Explain;
                }
            }
            Action::SetExplainId(id) => {
                if id != self.explain_id {
                    self.explain_id = id;
                    self.refresh_explanation();
                }
            }
            Action::ImportStarted { name } => {
                self.import_error = None;
                self.import = Some(ImportStatus {
                    name,
                    fraction: Some(0.0),
                    documents: 0,
                });
            }
            Action::ImportProgress {
                fraction,
                documents,
            } => {
                if let Some(status) = &mut self.import {
                    status.fraction = fraction;
                    status.documents = documents;
                }
            }
            Action::ImportFinished { name, imported } => {
                self.import = None;
                self.import_error = None;
                let skipped = imported.skipped;
                let mut summary = format!(
                    "Imported {} document{} from {name}.",
                    imported.documents.len(),
                    if imported.documents.len() == 1 {
                        ""
                    } else {
                        "s"
                    }
                );
                if skipped > 0 {
                    summary.push_str(&format!(
                        " {skipped} entr{} skipped",
                        if skipped == 1 { "y was" } else { "ies were" }
                    ));
                    if let Some(first) = imported.warnings.first() {
                        summary.push_str(&format!(" (first: {first})"));
                    }
                    summary.push('.');
                }
                self.replace_documents(imported.documents, Some(summary));
            }
            Action::ImportFailed { name, message } => {
                self.import = None;
                self.import_error = Some(format!(
                    "{name} could not be read, so the workspace is unchanged: {message}"
                ));
            }
            Action::ImportCancelled => {
                if let Some(status) = self.import.take() {
                    self.notify(
                        Level::Info,
                        format!(
                            "Import of {} cancelled; the workspace is unchanged.",
                            status.name
                        ),
                    );
                }
            }
            Action::Notify(level, text) => self.notify(level, text),
            Action::DismissNotice(index) => {
                if index < self.notices.len() {
                    self.notices.remove(index);
                }
            }
            Action::Reshard(ReshardAction::ApplyTarget) => {
                if self.reshard.has_target() {
                    let json = self.reshard.target(&self.topology).to_json();
                    self.apply_action(Action::SetConfigJson(json));
                    if self.config_problem.is_none() {
                        self.notify(
                            Level::Info,
                            "The target is now the configuration in force: every view shows \
                             it."
                            .into(),
                        );
                    }
                }
            }
            Action::Reshard(action) => {
                self.with_reshard(|reshard, cx| reshard.apply(action, cx));
            }
        }
    }

    fn notify(&mut self, level: Level, text: String) {
        const MAX_NOTICES: usize = 4;
        if self.notices.len() >= MAX_NOTICES {
            self.notices.remove(0);
        }
        self.notices.push(Notice { level, text });
    }

    fn generator(&self) -> Result<Generator, String> {
        let count = self.generator_count.trim();
        let documents = count
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_GENERATED).contains(n))
            .ok_or_else(|| {
                format!(
                    "'{}' is not a document count. Enter 1 to {MAX_GENERATED}.",
                    preview(count)
                )
            })?;
        let share = self.generator_share.trim();
        let percent = share
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .filter(|p| (0.0..=100.0).contains(p))
            .ok_or_else(|| {
                format!(
                    "'{}' is not an anchored share. Enter a percentage from 0 to 100.",
                    preview(share)
                )
            })?;
        Ok(Generator {
            documents,
            anchored_share: percent / 100.0,
            seed: 1,
        })
    }

    /// Replaces the workspace's documents (and the editor's text).
    fn replace_documents(&mut self, documents: Vec<Document>, notice: Option<String>) {
        self.page = Page::at(&documents, 0);
        self.parse_notes.clear();
        self.documents = Rc::new(documents);
        self.place();
        if let Some(text) = notice {
            self.notify(Level::Info, text);
        }
    }

    fn set_nodes_and_rf(&mut self, nodes: &str, rf: &str) {
        self.nodes_input = nodes.to_string();
        self.rf_input = rf.to_string();
        match parse_nodes(nodes) {
            Ok(tags) => {
                self.nodes_error = None;
                match parse_replication_factor(rf, tags.len()) {
                    Ok(rf) => {
                        self.rf_error = None;
                        self.replication_factor = rf;
                    }
                    Err(e) => self.rf_error = Some(e),
                }
                self.nodes = tags;
            }
            Err(e) => self.nodes_error = Some(e),
        }
    }

    /// Assigns members to every shard with RavenDB's algorithm.
    fn assign(&mut self) {
        let numbers: Vec<u32> = self.topology.shards().map(|s| s.number).collect();
        match assign_members(numbers.len() as u32, &self.nodes, self.replication_factor) {
            Ok(members) => {
                self.member_error = None;
                self.members_edited = false;
                let pairs: Vec<(u32, Vec<String>)> = numbers.into_iter().zip(members).collect();
                self.set_members(&pairs);
            }
            Err(e) => self.member_error = Some(format!("Members not assigned: {e}")),
        }
    }

    /// Sets members without placing the documents again.
    fn set_members(&mut self, pairs: &[(u32, Vec<String>)]) {
        let placement = Rc::make_mut(&mut self.placement);
        let topology = Rc::make_mut(&mut self.topology);
        for (shard, members) in pairs {
            placement.set_members(*shard, members.clone());
            topology.set_members(*shard, members.clone());
        }
        Rc::make_mut(&mut self.reshard).invalidate();
        self.refresh_explanation();
    }

    /// Puts a new topology in force and places the documents by it. Members: the
    /// topology's own when it has any, else assigned from the nodes field (`assign`).
    fn install_topology(&mut self, topology: Topology, custom: bool, assign: bool) {
        self.custom = custom;
        self.shard_input = topology.shards().len().to_string();
        self.shard_error = None;
        let (nodes, most) = nodes_of(&topology);
        // Checked by read_configuration and from_saved; a default topology has no design.
        let design = ContentDesign::from_topology(&topology).unwrap_or_default();
        self.design.set_design(&topology, design);
        Rc::make_mut(&mut self.reshard).reset();
        self.topology = Rc::new(topology);
        self.place();
        if nodes.is_empty() {
            if assign {
                self.assign();
            }
        } else if custom {
            self.nodes_input = nodes.join(", ");
            self.nodes = nodes;
            self.nodes_error = None;
            self.rf_input = most.to_string();
            self.replication_factor = most as u32;
            self.rf_error = None;
            self.members_edited = true;
        }
    }

    /// How the documents are placed: with the design, when on.
    fn placement_options(&self) -> PlacementOptions {
        PlacementOptions {
            design: self.design.design().map(|d| ContentDesign::clone(d)),
            ..PlacementOptions::default()
        }
    }

    /// Places the documents by the topology; everything derived follows.
    fn place(&mut self) {
        let options = self.placement_options();
        self.placement = Rc::new(Placement::new(&self.documents, &self.topology, &options));
        Rc::make_mut(&mut self.reshard).invalidate();
        // Group numbers and shards may mean something else now.
        self.selected_group = None;
        self.query.group = None;
        if let Some(shard) = self.query.shard {
            if self.topology.shard(shard).is_none() {
                self.query.shard = None;
            }
        }
        self.refresh_rows();
        self.refresh_explanation();
    }

    fn refresh_rows(&mut self) {
        self.rows = Rc::new(self.placement.rows(&self.query));
    }

    fn refresh_explanation(&mut self) {
        self.explanation = if self.explain_id.is_empty() {
            None
        } else {
            Some(Rc::new(
                explain(&self.explain_id, Some(&self.topology)).map_err(|e| e.to_string()),
            ))
        };
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
