//! The workspace part of the studio's state: the page of documents the ID editor shows,
//! what every view shows of them (the [`Summary`] the workspace's host sent last), the
//! generator's fields and the import in progress. The documents themselves are the host's
//! (in the studio's worker): each change of them is queued for it ([`Outbox`]), and its
//! news bring the summary back ([`WorkspaceAction::Hosted`]).

use super::editor::{Page, PageMove, PAGE_LINES};
use super::inputs::{preview, Field};
use super::limits::check_generation_fits;
use super::notices::{Level, Notice};
use super::outbox::Outbox;
use ravenshard::Topology;
use ravenshard_advise::Rewrite;
use ravenshard_model::host::{Change, Changed};
use ravenshard_model::sample::{chapter_examples, Generator};
use ravenshard_model::workspace::{Document, Placement, PlacementOptions, Summary};
use ravenshard_reshard::BucketStatistics;
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
    /// The documents a job staged with the host replace the workspace's (sent by
    /// [`Action::Loaded`](crate::views::state::Action::Loaded)).
    Loaded {
        /// How many.
        documents: u64,
        /// The job's number with the host.
        job: u64,
    },
    /// The host refused the change `seq` (sent by the studio's state with its news): the
    /// workspace is as the host had it, the editor shows its page again.
    Refused {
        /// The change's number.
        seq: u64,
    },
    /// The host made the change `seq` (sent by the studio's state with its news).
    Hosted {
        /// The change's number.
        seq: u64,
        /// What it did, and the summary after it.
        changed: Rc<Changed>,
    },
    /// The configuration in force changed, or only its members (sent by the studio's
    /// state): the host places the documents by `topology`, in place when it can (no
    /// document moves when only members changed).
    Configure(Rc<Topology>),
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

/// What every view shows of `documents` placed by `topology`, before the host's news
/// (a workspace made in the page: the chapter's examples, a share link's, a small saved
/// studio's).
fn summary_of(documents: &[Document], topology: &Topology) -> Rc<Summary> {
    let options = PlacementOptions::default();
    Rc::new(Placement::new(documents, topology, &options).summary())
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
    /// How many documents the workspace holds after the changes queued.
    documents: usize,
    /// What every view shows of the documents ([`Summary`]): the host's, after the last
    /// change it made.
    summary: Rc<Summary>,
    /// Bucket statistics in place of documents (the host places them).
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
    /// An advisor's rewrite sent to the host, until it says how many IDs it rewrote: its
    /// change's number, its candidate's name and how many IDs it names.
    rewriting: Option<(u64, String, usize)>,
}

impl WorkspaceState {
    /// A workspace of `documents`, placed by RavenDB's default configuration until the
    /// studio's state configures it ([`WorkspaceAction::Configure`]), the editor on their
    /// first page; queued for the host.
    pub fn with_documents(documents: Vec<Document>) -> WorkspaceState {
        let topology = super::ConfigState::default().topology().clone();
        let summary = summary_of(&documents, &topology);
        let page = Page::of(0, documents.iter().take(PAGE_LINES).cloned().collect());
        let outbox = Outbox::default();
        let count = documents.len();
        outbox.push(Change::Replace { documents });
        outbox.push(configure(&topology));
        WorkspaceState {
            outbox,
            page,
            page_wanted: None,
            page_tokens: 0,
            documents: count,
            summary,
            statistics: None,
            parse_notes: Vec::new(),
            generated: Field::new(DEFAULT_GENERATED, 10_000),
            anchored_percent: Field::new(DEFAULT_ANCHORED_PERCENT, 50.0),
            import: None,
            import_error: None,
            work: None,
            notice: None,
            rewriting: None,
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

    /// What every view shows of the documents: totals, shards, nodes × shards, blocks,
    /// the groups' count (the host's, after the last change it made).
    pub fn summary(&self) -> &Rc<Summary> {
        &self.summary
    }

    /// How many documents the workspace holds, once the host made the changes queued.
    pub fn len(&self) -> usize {
        self.documents
    }

    /// Whether the workspace holds no document.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The changes of the workspace on their way to its host.
    pub fn outbox(&self) -> &Outbox {
        &self.outbox
    }

    /// Sends its changes through `outbox` from now on (a workspace made apart, taking the
    /// place of the one `outbox` is of), its queued changes too.
    pub(crate) fn send_through(&mut self, outbox: &Outbox) {
        outbox.take_from(&self.outbox);
        self.outbox = outbox.clone();
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
            WorkspaceAction::Loaded { documents, job } => {
                self.work = None;
                self.import_error = None;
                self.outbox.push(Change::Adopt { job, documents });
                self.adopt(documents as usize);
            }
            WorkspaceAction::Hosted { seq, changed } => self.hosted(seq, &changed),
            WorkspaceAction::Refused { seq } => {
                self.documents = self.summary.documents;
                self.rewriting.take_if(|(s, _, _)| *s == seq);
                self.work = None;
                self.want_page(self.page.start());
            }
            WorkspaceAction::Configure(topology) => {
                self.outbox.push(configure(&topology));
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
            let change = Change::Splice {
                at: splice.at as u64,
                remove: splice.remove as u64,
                insert: splice.insert,
            };
            // Typed documents replace bucket statistics (the host places them anew).
            self.statistics = None;
            self.outbox.push(change);
            self.documents = documents;
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

    /// Rewrites the IDs `rewrites` names, in the host; the notice says how many of the
    /// workspace's once it did ([`WorkspaceState::hosted`]).
    fn rewrite(&mut self, label: &str, rewrites: &[Rewrite]) {
        let rewrites = rewrites.to_vec();
        let asked = rewrites.len();
        let seq = self.outbox.push(Change::Rewrite { rewrites });
        self.rewriting = Some((seq, label.to_string(), asked));
    }

    /// The host made the change `seq`: what every view shows is what it says; a rewrite
    /// says how many IDs changed, and the editor shows the rewritten page.
    fn hosted(&mut self, seq: u64, changed: &Changed) {
        self.summary = Rc::new(changed.summary.clone());
        if seq == self.outbox.last() {
            self.documents = self.summary.documents;
        }
        if let Some(warning) = &changed.warning {
            self.notice = Some(Notice::new(Level::Error, warning.clone()));
        }
        let Some((_, label, asked)) = self.rewriting.take_if(|(s, _, _)| *s == seq) else {
            return;
        };
        let rewritten = changed.rewritten as usize;
        let missing = asked - rewritten.min(asked);
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
            self.want_page(self.page.start());
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
        let page = Page::of(0, documents.iter().take(PAGE_LINES).cloned().collect());
        let count = documents.len();
        self.outbox.push(Change::Replace { documents });
        self.adopt(count);
        self.page = page;
        self.page_wanted = None;
    }

    /// The workspace now holds `documents` new documents; the editor opens on their first
    /// page, asked of the workspace's host (empty until it comes).
    fn adopt(&mut self, documents: usize) {
        self.page = Page::default();
        self.want_page(0);
        self.parse_notes.clear();
        self.documents = documents;
        self.statistics = None;
    }
}

impl Reducible for WorkspaceState {
    type Action = WorkspaceAction;

    fn reduce(self: Rc<Self>, action: WorkspaceAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
