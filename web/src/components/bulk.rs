//! Jobs that make a workspace of up to millions of documents without freezing the page: a
//! large generation and an import. Each makes its documents a chunk at a time and places
//! them as they come ([`PlacementBuilder`](ravenshard_model::workspace::PlacementBuilder)),
//! giving the event loop back every [`SLICE_MS`] milliseconds (to paint the progress and
//! to notice Cancel), and hands the documents and their placement over whole when complete
//! ([`Action::Loaded`](crate::state::Action::Loaded)): a cancelled job leaves the workspace
//! as it was.

use super::import::{read_slice, CancelToken, SNIFF_BYTES};
use crate::state::{check_fits, check_import_size, import_summary, read_saved, Action};
use crate::state::{Loaded, Placer};
use crate::state::{State, Stored, Tab, ViewAction, Work, WorkspaceAction, LINES_HEADER};
use ravenshard_model::import::{Format, Importer};
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::{Document, PlacementBuilder};
use std::rc::Rc;
use web_sys::Blob;
use yew::Callback;

/// Generations of more documents than this run as a chunked job; smaller ones are made
/// at once (a few tens of milliseconds).
pub const CHUNKED_FROM: usize = 50_000;

/// The longest the job runs before giving the event loop back, in milliseconds.
pub const SLICE_MS: f64 = 25.0;

/// Documents placed per [`PlacementBuilder::push`] (about 2 ms natively).
const STEP: usize = 2_000;

/// The average bytes of a generated ID, for the memory check (as the reducer's).
const GENERATED_ID_BYTES: u64 = 24;

/// Milliseconds since the page started.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Where a job reports and whether it is still wanted.
pub struct Job {
    token: CancelToken,
    generation: u64,
    on_workspace: Callback<WorkspaceAction>,
    on_loaded: Callback<Rc<Loaded>>,
    label: String,
    started: f64,
    slice: f64,
}

impl Job {
    /// A job named `label` (`Generating`); the jobs running before stop.
    pub fn new(
        label: String,
        token: CancelToken,
        on_workspace: Callback<WorkspaceAction>,
        on_loaded: Callback<Rc<Loaded>>,
    ) -> Job {
        token.cancel();
        let started = now();
        Job {
            generation: token.generation(),
            token,
            on_workspace,
            on_loaded,
            label,
            started,
            slice: started,
        }
    }

    fn wanted(&self) -> bool {
        self.token.generation() == self.generation
    }

    /// Reports `done` documents (`fraction` of the job) and yields to the browser when
    /// the slice is used up. `false`: the job was cancelled.
    async fn breathe(&mut self, done: usize, fraction: Option<f64>) -> bool {
        if now() - self.slice < SLICE_MS {
            return self.wanted();
        }
        let elapsed = now() - self.started;
        let left_ms = fraction
            .filter(|f| *f > 0.02 && elapsed > 300.0)
            .map(|f| elapsed * (1.0 - f) / f);
        self.on_workspace.emit(WorkspaceAction::Working(Work {
            label: self.label.clone(),
            done,
            fraction,
            left_ms,
        }));
        gloo::timers::future::TimeoutFuture::new(0).await;
        self.slice = now();
        self.wanted()
    }

    /// Places `documents` in steps, yielding between slices. `false`: cancelled or failed
    /// (then reported).
    async fn place(
        &mut self,
        builder: &mut PlacementBuilder,
        documents: &[Document],
        fraction: impl Fn(usize) -> Option<f64>,
    ) -> bool {
        for step in documents.chunks(STEP) {
            if let Err(e) = builder.push(step) {
                self.stop(format!("{} stopped: {e}", self.label));
                return false;
            }
            let done = builder.len();
            if !self.breathe(done, fraction(done)).await {
                return false;
            }
        }
        true
    }

    /// Stops with a notice (the workspace is unchanged).
    fn stop(&self, why: String) {
        if self.wanted() {
            self.on_workspace.emit(WorkspaceAction::WorkStopped(why));
        }
    }

    /// Stops an import that failed: the import's error says why (the workspace is
    /// unchanged).
    fn fail(&self, name: &str, message: String) {
        if self.wanted() {
            let name = name.to_string();
            let action = WorkspaceAction::ImportFailed { name, message };
            self.on_workspace.emit(action);
        }
    }

    /// Hands the documents and their placement over.
    fn finish(
        self,
        documents: Vec<Document>,
        builder: PlacementBuilder,
        placer: Placer,
        summary: Option<String>,
    ) {
        if !self.wanted() {
            return;
        }
        let placement = builder.finish();
        let loaded = Loaded {
            documents,
            placement,
            placer,
            summary,
        };
        self.on_loaded.emit(Rc::new(loaded));
    }
}

/// Makes `generator`'s documents and places them by `placer`, a chunk at a time.
pub async fn generate(generator: Generator, placer: Placer, mut job: Job) {
    if let Err(message) = check_fits("Generate", generator.documents as u64, GENERATED_ID_BYTES) {
        return job.stop(message);
    }
    let mut made = match generator.documents_iter() {
        Ok(made) => made,
        Err(e) => return job.stop(e.to_string()),
    };
    let total = made.total().max(1);
    let mut documents = Vec::with_capacity(made.total());
    let mut builder = placer.builder();
    builder.reserve(
        made.total(),
        made.total().saturating_mul(GENERATED_ID_BYTES as usize),
    );
    loop {
        let start = documents.len();
        documents.extend(made.by_ref().take(STEP));
        if documents.len() == start {
            break;
        }
        if let Err(e) = builder.push(&documents[start..]) {
            return job.stop(format!("Generate stopped: {e}"));
        }
        let done = documents.len();
        if !job.breathe(done, Some(done as f64 / total as f64)).await {
            return;
        }
    }
    job.finish(documents, builder, placer, None);
}

/// Imports `blob` named `name` as documents, placing them as they are read.
pub async fn import(blob: Blob, name: String, placer: Placer, mut job: Job) {
    let total = blob.size();
    let head = match read_slice(&blob, 0.0, total.min(SNIFF_BYTES)).await {
        Ok(head) => head,
        Err(e) => return job.fail(&name, e),
    };
    if let Err(message) = check_import_size(total as u64, head.starts_with(&[0x1f, 0x8b])) {
        return job.fail(&name, message);
    }
    let format = Format::detect(Some(&name), &head);
    let mut importer = Importer::new(format, Some(total as u64));
    let mut documents: Vec<Document> = Vec::new();
    let mut builder = placer.builder();
    let mut offset = 0.0;
    while offset < total {
        let end = (offset + importer.next_chunk_len() as f64).min(total);
        let chunk = match read_slice(&blob, offset, end).await {
            Ok(chunk) => chunk,
            Err(e) => return job.fail(&name, e),
        };
        if let Err(e) = importer.push(&chunk) {
            return job.fail(&name, format!("{e} (read as {format})"));
        }
        offset = end;
        let read = importer.progress().fraction();
        let start = documents.len();
        let taken = importer.take_documents();
        if start == 0 && !taken.is_empty() {
            // Room for the documents the file holds at the first slice's density, so that
            // the list is not copied whole as it doubles (a task of half a second at
            // 10,000,000 documents).
            let per_byte = taken.len() as f64 / end.max(1.0);
            let expected = (per_byte * total * 1.05) as usize;
            documents.reserve(expected);
            let id_bytes = taken.iter().map(|d| d.id.len()).sum::<usize>() / taken.len();
            builder.reserve(expected, expected.saturating_mul(id_bytes));
        }
        documents.extend(taken);
        if !job.place(&mut builder, &documents[start..], |_| read).await
            || !job.breathe(documents.len(), read).await
        {
            return;
        }
    }
    let imported = match importer.finish() {
        Ok(imported) => imported,
        Err(e) => return job.fail(&name, format!("{e} (read as {format})")),
    };
    let start = documents.len();
    documents.extend(imported.documents);
    if !job
        .place(&mut builder, &documents[start..], |_| Some(1.0))
        .await
    {
        return;
    }
    if documents.is_empty() {
        return job.fail(
            &name,
            format!("no document IDs were found in it (read as {format})"),
        );
    }
    let summary = import_summary(
        &name,
        documents.len(),
        imported.skipped,
        imported.warnings.first().map(ToString::to_string),
    );
    job.finish(documents, builder, placer, Some(summary));
}

/// Saved documents of more bytes than this are restored as a chunked job (about 30,000
/// documents); fewer are read at once.
pub const CHUNKED_RESTORE_BYTES: usize = 2 << 20;

/// Restores a large saved studio a chunk at a time, reporting through `on_progress`:
/// `None` when `stored` is small or not in the line format (read it at once then), else
/// the state or why the records cannot be used (then nothing was changed).
pub async fn restore(
    stored: &Stored,
    on_progress: &Callback<Work>,
) -> Option<Result<State, String>> {
    let lines = stored.documents.strip_prefix(LINES_HEADER)?;
    if stored.documents.len() < CHUNKED_RESTORE_BYTES {
        return None;
    }
    Some(restore_lines(&stored.settings, lines, on_progress).await)
}

async fn restore_lines(
    settings: &str,
    lines: &str,
    on_progress: &Callback<Work>,
) -> Result<State, String> {
    let saved = read_saved(settings)?;
    let tab = saved.tab.as_deref().and_then(Tab::from_key);
    let mut state = State::from_saved(saved)?;
    let placer = state.placer();
    let total = lines.bytes().filter(|&b| b == b'\n').count().max(1);
    let mut documents = Vec::with_capacity(total);
    let mut builder = placer.builder();
    builder.reserve(total, lines.len() / 2);
    let (started, mut slice) = (now(), now());
    let mut parsed = Document::parse_lines(lines);
    loop {
        let start = documents.len();
        for line in parsed.by_ref().take(STEP) {
            if let Some(bad) = line.bad_size {
                return Err(format!(
                    "the saved documents are damaged (line {}: size {bad:?} is not a whole \
                     number of bytes)",
                    line.line
                ));
            }
            documents.push(line.document);
        }
        if documents.len() == start {
            break;
        }
        builder
            .push(&documents[start..])
            .map_err(|e| format!("the saved documents do not fit: {e}"))?;
        if now() - slice >= SLICE_MS {
            let fraction = (documents.len() as f64 / total as f64).min(1.0);
            let elapsed = now() - started;
            on_progress.emit(Work {
                label: "Restoring the saved studio".into(),
                done: documents.len(),
                fraction: Some(fraction),
                left_ms: (fraction > 0.02).then(|| elapsed * (1.0 - fraction) / fraction),
            });
            gloo::timers::future::TimeoutFuture::new(0).await;
            slice = now();
        }
    }
    let loaded = Loaded {
        documents,
        placement: builder.finish(),
        placer,
        summary: None,
    };
    state.apply(Action::Loaded(Rc::new(loaded)));
    if let Some(tab) = tab {
        state.apply(Action::View(ViewAction::SelectTab(tab)));
    }
    Ok(state)
}
