//! The workspace part of the studio's state: the documents, kept by their placement (the
//! one store of them in the page), the page of them the ID editor shows, the generator's
//! fields and the import in progress.

use super::editor::{Page, PageMove, PAGE_LINES};
use super::inputs::{preview, Field};
use super::limits::check_generation_fits;
use super::live::Live;
use super::notices::{Level, Notice};
use super::outbox::Outbox;
use ravenshard::Topology;
use ravenshard_design::reshard::BucketStatistics;
use ravenshard_model::advise::{rewrite_ids, Rewrite};
use ravenshard_model::host::Change;
use ravenshard_model::sample::{chapter_examples, Generator};
use ravenshard_model::workspace::{Document, Placement, PlacementOptions, Summary};
use std::rc::Rc;
use yew::Reducible;

mod placed;

/// The generator's default document count.
pub const DEFAULT_GENERATED: &str = "10000";
/// The generator's default anchored share, in percent.
pub const DEFAULT_ANCHORED_PERCENT: &str = "50";
/// The most documents the generator makes in the studio (what fits in wasm32's memory is
/// checked too: see [`check_generation_fits`]).
pub const MAX_GENERATED: usize = ravenshard_model::sample::MAX_DOCUMENTS;

/// A page of the ID editor asked of the workspace's host: its first document, and the
/// number of the request (an edit before the answer drops it: the answer is then taken
/// for nothing, [`WorkspaceAction::PageLoaded`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageWanted {
    /// The request's number.
    pub token: u64,
    /// The page's first document.
    pub start: usize,
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

/// What the user (or the browser, for imports) does to the workspace.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkspaceAction {
    /// The ID editor now holds this text (`id<TAB>size<TAB>collection` per line): the
    /// documents of the editor's page are replaced by the text's.
    SetText(String),
    /// Show another page of the workspace in the ID editor (asked of the workspace's host:
    /// [`WorkspaceState::page_wanted`]).
    MovePage(PageMove),
    /// The workspace's host gave the documents of the page asked for: shown, unless another
    /// page was asked for since or the editor was edited meanwhile.
    PageLoaded {
        /// The request's number ([`PageWanted::token`]).
        token: u64,
        /// The page's first document.
        start: usize,
        /// Its documents.
        documents: Rc<Vec<Document>>,
    },
    /// Load the chapter's examples.
    LoadChapterSample,
    /// The generator's document count field.
    SetGeneratorCount(String),
    /// The generator's anchored share field, in percent.
    SetGeneratorShare(String),
    /// Generate orders/companies/employees with the generator's fields.
    Generate,
    /// Empty the workspace.
    Clear,
    /// An import began.
    ImportStarted {
        /// The file's name.
        name: String,
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
    /// Files of RavenDB bucket statistics were read (`GET /databases/<db>/debug/sharding/buckets`
    /// answers, drill-downs, per-shard answers): they replace the documents.
    StatisticsImported {
        /// The files' names.
        names: Vec<String>,
        /// Their texts, in the same order.
        texts: Vec<String>,
    },
    /// A job that makes documents a chunk at a time (a large generation or import) made
    /// progress.
    Working(super::Work),
    /// The job stopped (cancelled or failed): the workspace is unchanged; the text says
    /// why.
    WorkStopped(String),
    /// A job's placed documents replace the workspace's (sent by
    /// [`Action::Loaded`](super::Action::Loaded)).
    Loaded {
        /// The documents.
        placement: Live<Placement>,
        /// The job's number with the host, which staged them (`None`: they are sent to it
        /// whole).
        job: Option<u64>,
    },
    /// The configuration in force changed (sent by the studio's state): the documents are
    /// placed by `topology` with `options`, in place when they can be.
    Configure {
        /// The topology in force.
        topology: Rc<Topology>,
        /// The placement options (the chapter's design when on).
        options: Rc<PlacementOptions>,
    },
    /// Only the members of the shards changed (sent by the studio's state): no document
    /// moves.
    SetMembers(Rc<Topology>),
    /// Rewrite the IDs of the documents the list names (ignoring case), as an advisor's
    /// candidate says; `label` names the candidate in the notice.
    RewriteIds {
        /// The candidate (`anchor on Company`).
        label: String,
        /// The IDs to rewrite.
        rewrites: Rc<Vec<Rewrite>>,
    },
}

impl WorkspaceAction {
    /// Whether it replaces the workspace's documents wholesale (not an edit of them).
    pub fn replaces_documents(&self) -> bool {
        matches!(
            self,
            WorkspaceAction::LoadChapterSample
                | WorkspaceAction::Generate
                | WorkspaceAction::Clear
                | WorkspaceAction::StatisticsImported { .. }
                | WorkspaceAction::Loaded { .. }
        )
    }
}

/// The first page of the documents `placement` holds (a workspace made in the page).
fn first_page(placement: &Placement) -> Page {
    Page::of(0, placement.documents(0..PAGE_LINES).collect())
}

/// The change that places the host's documents by `topology`.
fn configure(topology: &Topology) -> Change {
    Change::Configure {
        configuration: topology.to_json(),
        database: topology.database().to_string(),
    }
}

/// Reads the generator's count field: 1 to [`MAX_GENERATED`].
fn parse_count(text: &str) -> Result<usize, String> {
    let text = text.trim();
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_GENERATED).contains(n))
        .ok_or_else(|| {
            format!(
                "'{}' is not a document count. Enter 1 to {MAX_GENERATED}.",
                preview(text)
            )
        })
}

/// Reads the generator's anchored share field: a percentage from 0 to 100.
fn parse_percent(text: &str) -> Result<f64, String> {
    let text = text.trim();
    text.parse::<f64>()
        .ok()
        .filter(|p| (0.0..=100.0).contains(p))
        .ok_or_else(|| {
            format!(
                "'{}' is not an anchored share. Enter a percentage from 0 to 100.",
                preview(text)
            )
        })
}

/// `"s"` unless there is exactly one.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The documents and the ID editor.
#[derive(Debug, Clone)]
pub struct WorkspaceState {
    page: Page,
    /// The page asked of the workspace's host, until it comes.
    page_wanted: Option<PageWanted>,
    /// The last page request's number.
    page_tokens: u64,
    /// The documents placed by the configuration in force: the one store of them, changed
    /// in place by an edit of the ID editor or a change of configuration (see [`Live`]).
    placement: Live<Placement>,
    /// What every view shows of the placement ([`Summary`]), made again after each change
    /// of it (O(shards)), and the handle it was made from.
    summary: (Live<Placement>, Rc<Summary>),
    /// Bucket statistics in place of documents (then the placement is made from them).
    statistics: Option<Rc<BucketStatistics>>,
    parse_notes: Vec<String>,
    generated: Field<usize>,
    anchored_percent: Field<f64>,
    import: Option<ImportStatus>,
    import_error: Option<String>,
    /// The chunked job in progress.
    work: Option<super::Work>,
    notice: Option<Notice>,
    /// The changes on their way to the workspace's host.
    outbox: Outbox,
}

impl WorkspaceState {
    /// A workspace of `documents` placed by RavenDB's default configuration (the studio's
    /// state places them by its own: [`WorkspaceAction::Configure`]), the editor on their
    /// first page.
    pub fn with_documents(documents: Vec<Document>) -> WorkspaceState {
        let topology = super::ConfigState::default().topology().clone();
        let placement = Placement::new(&documents, &topology, &PlacementOptions::default());
        WorkspaceState::new(placement)
    }

    /// A workspace of the documents `placement` holds, the editor on their first page.
    pub fn new(placement: Placement) -> WorkspaceState {
        let summary = Rc::new(placement.summary());
        let outbox = Outbox::default();
        let documents = placement.documents(0..placement.len()).collect();
        outbox.push(Change::Replace { documents });
        outbox.push(configure(placement.topology()));
        let placement = Live::new(placement);
        WorkspaceState {
            outbox,
            page: first_page(&placement.get()),
            page_wanted: None,
            page_tokens: 0,
            summary: (placement.clone(), summary),
            placement,
            statistics: None,
            parse_notes: Vec::new(),
            generated: Field::new(DEFAULT_GENERATED, 10_000),
            anchored_percent: Field::new(DEFAULT_ANCHORED_PERCENT, 50.0),
            import: None,
            import_error: None,
            work: None,
            notice: None,
        }
    }

    /// The page of the workspace the ID editor shows.
    pub fn page(&self) -> &Page {
        &self.page
    }

    /// The page asked of the workspace's host, until it comes.
    pub fn page_wanted(&self) -> Option<PageWanted> {
        self.page_wanted
    }

    /// Asks for the page that begins at document `start` (the editor shows the one it has
    /// until it comes).
    fn want_page(&mut self, start: usize) {
        self.page_tokens += 1;
        let token = self.page_tokens;
        self.page_wanted = Some(PageWanted { token, start });
    }

    /// The documents placed by the configuration in force, now (keep the `Rc` only while
    /// needed: an edit while it is kept copies the placement).
    pub fn placement(&self) -> Rc<Placement> {
        self.placement.get()
    }

    /// What every view shows of the placement now: totals, shards, nodes × shards,
    /// blocks, the groups' count.
    pub fn summary(&self) -> &Rc<Summary> {
        &self.summary.1
    }

    /// How many documents the workspace holds.
    pub fn len(&self) -> usize {
        self.summary.1.documents
    }

    /// Whether the workspace holds no document.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The handle on the placement of the documents: it compares unequal once they or
    /// their placement change.
    pub fn live_placement(&self) -> &Live<Placement> {
        &self.placement
    }

    /// Queues every document and the configuration again, for a host that holds none
    /// (a new worker after a crash).
    pub fn resend(&self) {
        let placement = self.placement.get();
        let documents = placement.documents(0..placement.len()).collect();
        self.outbox.push(Change::Replace { documents });
        self.outbox.push(configure(placement.topology()));
    }

    /// The changes of the workspace on their way to its host.
    pub fn outbox(&self) -> &Outbox {
        &self.outbox
    }

    /// The bucket statistics the workspace holds instead of documents.
    pub fn statistics(&self) -> Option<&Rc<BucketStatistics>> {
        self.statistics.as_ref()
    }

    /// Problems reading the editor's text.
    pub fn parse_notes(&self) -> &[String] {
        &self.parse_notes
    }

    /// The generator's document count field.
    pub fn generated(&self) -> &Field<usize> {
        &self.generated
    }

    /// The generator's anchored share field, in percent.
    pub fn anchored_percent(&self) -> &Field<f64> {
        &self.anchored_percent
    }

    /// The import in progress.
    pub fn import(&self) -> Option<&ImportStatus> {
        self.import.as_ref()
    }

    /// The chunked job in progress (a large generation or import).
    pub fn work(&self) -> Option<&super::Work> {
        self.work.as_ref()
    }

    /// Why the last import failed.
    pub fn import_error(&self) -> Option<&str> {
        self.import_error.as_deref()
    }

    /// What the last action has to tell the user (the studio shows it as a notice).
    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    fn apply(&mut self, action: WorkspaceAction) {
        self.notice = None;
        match action {
            WorkspaceAction::SetText(text) => self.edit(text),
            WorkspaceAction::MovePage(to) => {
                let start = self.page.target(self.len(), to);
                self.want_page(start);
                self.parse_notes.clear();
            }
            WorkspaceAction::PageLoaded {
                token,
                start,
                documents,
            } => {
                if self.page_wanted.is_some_and(|w| w.token == token) {
                    self.page = Page::of(start, Rc::unwrap_or_clone(documents));
                    self.page_wanted = None;
                }
            }
            WorkspaceAction::LoadChapterSample => self.replace(chapter_examples()),
            WorkspaceAction::SetGeneratorCount(text) => {
                self.generated.input(text, parse_count);
            }
            WorkspaceAction::SetGeneratorShare(text) => {
                self.anchored_percent.input(text, parse_percent);
            }
            WorkspaceAction::Generate => self.generate(),
            WorkspaceAction::Clear => self.replace(Vec::new()),
            WorkspaceAction::ImportStarted { name } => {
                self.import_error = None;
                self.import = Some(ImportStatus {
                    name,
                    fraction: Some(0.0),
                    documents: 0,
                });
            }
            WorkspaceAction::ImportFailed { name, message } => {
                self.import = None;
                self.work = None;
                self.import_error = Some(format!(
                    "{name} could not be read, so the workspace is unchanged: {message}"
                ));
            }
            WorkspaceAction::StatisticsImported { names, texts } => {
                self.statistics_imported(&names, &texts)
            }
            WorkspaceAction::RewriteIds { label, rewrites } => self.rewrite(&label, &rewrites),
            WorkspaceAction::Working(work) => self.work = Some(work),
            WorkspaceAction::WorkStopped(why) => {
                self.work = None;
                self.notice = Some(Notice::new(Level::Info, why));
            }
            WorkspaceAction::Loaded { placement, job } => {
                self.work = None;
                self.import_error = None;
                let change = match job {
                    // The host staged the job's documents as they came.
                    Some(job) => Change::Adopt {
                        job,
                        documents: placement.get().len() as u64,
                    },
                    None => {
                        let p = placement.get();
                        let documents = p.documents(0..p.len()).collect();
                        Change::Replace { documents }
                    }
                };
                self.outbox.push(change);
                self.adopt(placement);
            }
            WorkspaceAction::Configure { topology, options } => self.configure(&topology, &options),
            WorkspaceAction::SetMembers(topology) => {
                self.outbox.push(configure(&topology));
                self.placement.update(|placement| {
                    for shard in topology.shards() {
                        placement.set_members(shard.number, shard.members.clone());
                    }
                })
            }
            WorkspaceAction::ImportCancelled => {
                if let Some(status) = self.import.take() {
                    self.notice = Some(Notice::new(
                        Level::Info,
                        format!(
                            "Import of {} cancelled; the workspace is unchanged.",
                            status.name
                        ),
                    ));
                }
            }
        }
    }

    /// The editor's text changed: the page's documents are replaced by the text's, in
    /// place in the placement (O(page), plus a shift of the documents after the page when
    /// it gained or lost lines).
    fn edit(&mut self, text: String) {
        if text == self.page.text().as_str() {
            return;
        }
        // An edit of the page shown drops a page asked for and not come yet.
        self.page_wanted = None;
        let edit = self.page.edit(text);
        // How many documents the workspace holds after the edit.
        let documents = match &edit.splice {
            Some(s) => self.len() + s.insert.len() - s.remove,
            None => self.len(),
        };
        self.parse_notes = edit.notes;
        if let Some(splice) = edit.splice {
            let range = splice.at..splice.at + splice.remove;
            let change = Change::Splice {
                at: splice.at as u64,
                remove: splice.remove as u64,
                insert: splice.insert.clone(),
            };
            if self.statistics.take().is_some() {
                // Typed documents replace bucket statistics: placed anew.
                let placement = self.placement.get();
                let (topology, options) = (placement.topology(), placement.options());
                let typed = Placement::new(&splice.insert, topology, options);
                self.placement = Live::new(typed);
                self.outbox.push(change);
            } else if let Err(e) = self
                .placement
                .update(|p| p.splice(range.clone(), &splice.insert))
            {
                self.notice = Some(Notice::new(
                    Level::Error,
                    format!("The edit was not applied: {e}."),
                ));
                self.want_page(self.page.start());
                return;
            } else {
                self.outbox.push(change);
            }
        }
        if edit.cut {
            self.want_page(self.page.start());
            let total = documents;
            self.notice = Some(Notice::new(
                Level::Info,
                format!(
                    "The editor shows {PAGE_LINES} lines at a time: use its pager for the rest \
                     of the {total} documents."
                ),
            ));
        }
    }

    fn generate(&mut self) {
        if !self.generated.is_valid() || !self.anchored_percent.is_valid() {
            return;
        }
        let count = *self.generated.value();
        let generator = Generator {
            documents: count,
            anchored_share: self.anchored_percent.value() / 100.0,
            seed: 1,
        };
        if let Err(message) = check_generation_fits(&generator) {
            self.notice = Some(Notice::new(Level::Error, message));
            return;
        }
        match generator.generate() {
            Ok(documents) => self.replace(documents),
            Err(e) => self.notice = Some(Notice::new(Level::Error, e.to_string())),
        }
    }

    /// Rewrites the IDs `rewrites` names; the notice says how many of the workspace's.
    fn rewrite(&mut self, label: &str, rewrites: &[Rewrite]) {
        let mut rewritten = 0;
        let placement = self
            .placement
            .get()
            .rewritten(|chunk| rewritten += rewrite_ids(chunk, rewrites));
        let placement = match placement {
            Ok(p) => p,
            Err(e) => {
                let text = format!("{label} was not applied: {e}.");
                self.notice = Some(Notice::new(Level::Error, text));
                return;
            }
        };
        let missing = rewrites.len() - rewritten.min(rewrites.len());
        let (level, mut text) = match rewritten {
            0 => (
                Level::Warning,
                format!("Applied {label}: none of the workspace's documents is in the export, so no ID changed."),
            ),
            n => (
                Level::Info,
                format!("Applied {label}: {n} ID{} rewritten.", plural(n)),
            ),
        };
        if rewritten > 0 {
            let rewrites = rewrites.to_vec();
            self.outbox.push(Change::Rewrite { rewrites });
            self.adopt(Live::new(placement));
        }
        if missing > 0 {
            text.push_str(&format!(
                " {missing} document{} of the export {} not in the workspace: import the export first to apply it to all.",
                plural(missing),
                if missing == 1 { "is" } else { "are" }
            ));
        }
        self.notice = Some(Notice::new(level, text));
    }

    /// Replaces the documents, placed as the documents before them; the editor opens on
    /// their first page.
    fn replace(&mut self, documents: Vec<Document>) {
        let placement = {
            let before = self.placement.get();
            Placement::new(&documents, before.topology(), before.options())
        };
        let page = Page::of(0, documents.iter().take(PAGE_LINES).cloned().collect());
        self.outbox.push(Change::Replace { documents });
        self.adopt(Live::new(placement));
        self.page = page;
        self.page_wanted = None;
    }

    /// Replaces the documents by those `placement` holds; the editor opens on their first
    /// page, asked of the workspace's host (empty until it comes).
    fn adopt(&mut self, placement: Live<Placement>) {
        self.page = Page::default();
        self.want_page(0);
        self.parse_notes.clear();
        self.placement = placement;
        self.statistics = None;
    }
}

impl Reducible for WorkspaceState {
    type Action = WorkspaceAction;

    fn reduce(self: Rc<Self>, action: WorkspaceAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        if next.summary.0 != next.placement {
            let summary = Rc::new(next.placement.get().summary());
            next.summary = (next.placement.clone(), summary);
        }
        Rc::new(next)
    }
}
