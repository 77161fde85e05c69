//! Jobs that make a workspace of up to millions of documents without freezing the page: a
//! large generation and an import. Each makes its documents a chunk at a time and places
//! them as they come ([`PlacementBuilder`](ravenshard_model::workspace::PlacementBuilder)),
//! giving the event loop back every [`SLICE_MS`] milliseconds (to paint the progress and
//! to notice Cancel), packs the placement's per-bucket tree a step at a time too
//! ([`PlacementBuilder::pack_step`]), and hands the documents and their placement over whole
//! when complete ([`Action::Loaded`](crate::state::Action::Loaded)): a cancelled job leaves
//! the workspace as it was, and what it made is freed a part at a time (`Made`), as is
//! the workspace a job replaces.

use super::import::{read_slice, CancelToken, SNIFF_BYTES};
use super::saving::with_tab;
use crate::state::{check_fits, check_import_size, import_summary, read_saved, Action};
use crate::state::{read_layout, take_retired, Loaded, Placer, Retired};
use crate::state::{State, Stored, Work, WorkspaceAction, LINES_HEADER};
use ravenshard_model::import::{Format, Importer};
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::{Document, Freeing, PlacementBuilder};
use std::rc::Rc;
use web_sys::Blob;
use yew::Callback;

/// Generations of more documents than this run as a chunked job; smaller ones are made
/// at once (a few tens of milliseconds).
pub const CHUNKED_FROM: usize = 50_000;

/// The longest the job runs before giving the event loop back, in milliseconds.
pub const SLICE_MS: f64 = 25.0;

/// The progress line is updated at most this often, in milliseconds (the job still gives
/// the event loop back every [`SLICE_MS`]). Each update lays the page out again: in a
/// trace of the 10,000,000-ID import, 15-20 ms of main-thread time a frame, paid at every
/// slice (over 700 frames) when the line was updated at each.
pub const REPORT_MS: f64 = 100.0;

/// Documents placed per [`PlacementBuilder::push`] (about 2 ms natively).
const STEP: usize = 2_000;

/// The average bytes of a generated ID, for the memory check (as the reducer's).
const GENERATED_ID_BYTES: u64 = 24;

/// Buckets of the per-bucket tree packed per [`PlacementBuilder::pack_step`] (a few
/// milliseconds in wasm).
const PACK_STEP: usize = 16_384;

/// Gives the event loop back (a zero-delay timeout: the browser paints and handles input
/// before the job goes on). A `MessageChannel` message, which skips the 4 ms a nested
/// timeout waits, made the 10,000,000-ID import slower, not faster, in an A/B run.
pub async fn yield_now() {
    gloo::timers::future::TimeoutFuture::new(0).await;
}

/// Milliseconds since the page started.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Runs `f` between performance marks, adding the measure `ravenshard-job-{stage}` (the
/// bench, `web/bench/studio.py --bulk`, sums them per stage).
fn timed<T>(stage: &str, f: impl FnOnce() -> T) -> T {
    let name = format!("ravenshard-job-{stage}");
    let start = format!("{name}-start");
    super::saving::mark(&start);
    let result = f();
    super::saving::measure(&name, Some(&start));
    result
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
    /// When the progress line was last updated.
    reported: f64,
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
            reported: f64::NEG_INFINITY,
        }
    }

    fn wanted(&self) -> bool {
        self.token.generation() == self.generation
    }

    /// Yields to the browser when the slice is used up, reporting `done` documents
    /// (`fraction` of the job) if the last report is [`REPORT_MS`] old. `false`: the job
    /// was cancelled.
    async fn breathe(&mut self, done: usize, fraction: Option<f64>) -> bool {
        if now() - self.slice < SLICE_MS {
            return self.wanted();
        }
        if now() - self.reported >= REPORT_MS {
            self.reported = now();
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
        }
        yield_now().await;
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
            if let Err(e) = timed("place", || builder.push(step)) {
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

    /// Packs the placement a step at a time, then hands the documents and it over.
    async fn finish(mut self, mut made: Made, summary: Option<String>) {
        let done = made.documents.len();
        while !timed("pack", || made.builder.pack_step(PACK_STEP)) {
            if !self.breathe(done, Some(1.0)).await {
                return;
            }
        }
        // The render of the new workspace starts a task of its own.
        yield_now().await;
        if !self.wanted() {
            return;
        }
        let placer = made.placer.clone();
        let (documents, builder) = made.take();
        let placement = builder.finish();
        let loaded = Loaded {
            documents,
            placement,
            placer,
            summary,
        };
        timed("handover", || self.on_loaded.emit(Rc::new(loaded)));
        wasm_bindgen_futures::spawn_local(free_retired());
    }
}

/// Documents freed per task by [`free_retired`] and [`free_in_parts`] (a few
/// milliseconds).
const FREE_STEP: usize = 20_000;

/// What a job made so far: the documents and their placement. Dropped before they are
/// handed over (the job cancelled or failed), they are freed a chunk at a time in tasks of
/// their own ([`free_in_parts`]): millions of documents freed at once are a task of half a
/// second (a restore of 10,000,000 cancelled halfway: 522 ms).
struct Made {
    documents: Vec<Document>,
    builder: PlacementBuilder,
    placer: Placer,
}

impl Made {
    /// Nothing made yet, to be placed by `placer`.
    fn new(placer: Placer) -> Made {
        Made {
            documents: Vec::new(),
            builder: placer.builder(),
            placer,
        }
    }

    /// The documents and their builder, to hand over (no longer freed by `Made`).
    fn take(mut self) -> (Vec<Document>, PlacementBuilder) {
        let documents = std::mem::take(&mut self.documents);
        let builder = std::mem::replace(&mut self.builder, self.placer.builder());
        (documents, builder)
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        if self.documents.len() < FREE_STEP && self.builder.len() < FREE_STEP {
            return;
        }
        let documents = std::mem::take(&mut self.documents);
        let builder = std::mem::replace(&mut self.builder, self.placer.builder());
        wasm_bindgen_futures::spawn_local(free_in_parts(documents, Some(builder.into())));
    }
}

/// Frees `documents` [`FREE_STEP`] at a time, then `placement`'s anchored groups as many
/// at a time ([`Freeing`]) and the rest of it, yielding between.
async fn free_in_parts(mut documents: Vec<Document>, placement: Option<Freeing>) {
    while !documents.is_empty() {
        documents.truncate(documents.len().saturating_sub(FREE_STEP));
        yield_now().await;
    }
    let Some(mut placement) = placement else {
        return;
    };
    while !timed("free", || placement.step(FREE_STEP)) {
        yield_now().await;
    }
    timed("free", || drop(placement));
}

/// Frees what the jobs' workspaces replaced ([`take_retired`]) once the page rendered the
/// new one, a part at a time ([`free_in_parts`]). What is still held elsewhere (a save in
/// progress) is left to its last holder.
async fn free_retired() {
    // The render of the new workspace, then the old state's release.
    for _ in 0..3 {
        yield_now().await;
    }
    super::saving::measure(
        "ravenshard-job-settle",
        Some("ravenshard-job-handover-start"),
    );
    for retired in take_retired() {
        match retired {
            Retired::Documents(documents) => {
                if let Ok(documents) = Rc::try_unwrap(documents) {
                    free_in_parts(documents, None).await;
                }
            }
            Retired::Placement(placement) => {
                if let Ok(placement) = Rc::try_unwrap(placement) {
                    free_in_parts(Vec::new(), Some(placement.into())).await;
                }
            }
        }
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
    let mut out = Made::new(placer);
    out.documents.reserve(made.total());
    // Room for the IDs' bytes as made, not an average: an arena that outgrows its room is
    // copied whole (a place step of 705 ms at 10,000,000 documents, whose IDs average 25
    // bytes).
    out.builder.reserve(made.total(), made.counts().id_bytes());
    loop {
        let start = out.documents.len();
        timed("make", || out.documents.extend(made.by_ref().take(STEP)));
        if out.documents.len() == start {
            break;
        }
        let Made {
            documents, builder, ..
        } = &mut out;
        if let Err(e) = timed("place", || builder.push(&documents[start..])) {
            return job.stop(format!("Generate stopped: {e}"));
        }
        let done = out.documents.len();
        if !job.breathe(done, Some(done as f64 / total as f64)).await {
            return;
        }
    }
    job.finish(out, None).await;
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
        if let Err(e) = timed("read", || importer.push(&chunk)) {
            return job.fail(&name, format!("{e} (read as {format})"));
        }
        offset = end;
        let read = importer.progress().fraction();
        let start = documents.len();
        let taken = timed("take", || importer.take_documents());
        if start == 0 && !taken.is_empty() {
            // Room for the documents the file holds at the first slice's density, so that
            // the list is not copied whole as it doubles (a task of half a second at
            // 10,000,000 documents).
            let per_byte = taken.len() as f64 / end.max(1.0);
            let expected = (per_byte * total * 1.05) as usize;
            timed("reserve", || documents.reserve(expected));
            // ID bytes at the same density (not the first IDs' length times the count: the
            // later IDs of a file are often longer, and an arena that outgrows its room is
            // copied whole, 80 ms at 10,000,000 IDs).
            let seen = taken.iter().map(|d| d.id.len()).sum::<usize>() as f64;
            let id_bytes = (seen / end.max(1.0) * total * 1.05) as usize;
            timed("reserve", || builder.reserve(expected, id_bytes));
        }
        timed("extend", || documents.extend(taken));
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
    let made = Made {
        documents,
        builder,
        placer,
    };
    job.finish(made, Some(summary)).await;
}

/// Saved documents of more bytes than this are restored as a chunked job (about 30,000
/// documents); fewer are read at once.
pub const CHUNKED_RESTORE_BYTES: usize = 2 << 20;

/// What restoring the saved studio gave.
pub enum Restored {
    /// The studio.
    State(State),
    /// The user cancelled: nothing was changed.
    Cancelled,
    /// Why the records cannot be used (nothing was changed).
    Failed(String),
}

/// Restores the saved studio: a large one (over [`CHUNKED_RESTORE_BYTES`]) a part and a
/// chunk at a time, reporting through `on_progress` and stopping when `cancel` is
/// cancelled; a small one at once.
pub async fn restore(
    stored: &Stored,
    on_progress: &Callback<Work>,
    cancel: &CancelToken,
) -> Restored {
    let result = if stored.len() < CHUNKED_RESTORE_BYTES {
        stored.read().and_then(with_tab).map(Some)
    } else {
        restore_parts(stored, on_progress, cancel).await
    };
    match result {
        Ok(Some(state)) => Restored::State(state),
        Ok(None) => Restored::Cancelled,
        Err(why) => Restored::Failed(why),
    }
}

/// `None`: cancelled.
async fn restore_parts(
    stored: &Stored,
    on_progress: &Callback<Work>,
    cancel: &CancelToken,
) -> Result<Option<State>, String> {
    let mut state = with_tab(read_saved(&stored.settings)?)?;
    let total = read_layout(&stored.settings).document_count.max(1);
    let mut out = Made::new(state.placer());
    out.documents.reserve(total);
    out.builder.reserve(total, stored.len() / 2);
    let mut pace = Pace::new(on_progress, cancel, total);
    let Made {
        documents, builder, ..
    } = &mut out;
    for part in &stored.parts {
        let Some(lines) = part.strip_prefix(LINES_HEADER) else {
            // A part kept as JSON (a document a line would change): read at once.
            let start = documents.len();
            documents.extend(crate::state::read_documents(part)?);
            builder
                .push(&documents[start..])
                .map_err(|e| format!("the saved documents do not fit: {e}"))?;
            continue;
        };
        let mut parsed = Document::parse_lines(lines);
        loop {
            let start = documents.len();
            timed("parse", || parse_step(&mut parsed, documents))?;
            if documents.len() == start {
                break;
            }
            timed("place", || builder.push(&documents[start..]))
                .map_err(|e| format!("the saved documents do not fit: {e}"))?;
            if !pace.breathe(documents.len()).await {
                return Ok(None);
            }
        }
    }
    while !timed("pack", || builder.pack_step(PACK_STEP)) {
        if !pace.breathe(documents.len()).await {
            return Ok(None);
        }
    }
    let placer = out.placer.clone();
    let (documents, builder) = out.take();
    let loaded = Loaded {
        documents,
        placement: builder.finish(),
        placer,
        summary: None,
    };
    state.apply(Action::Loaded(Rc::new(loaded)));
    // The first render of the studio starts a task of its own.
    yield_now().await;
    Ok(Some(state))
}

/// Reads up to [`STEP`] documents of `parsed` into `documents`.
fn parse_step(
    parsed: &mut impl Iterator<Item = ravenshard::DocumentLine>,
    documents: &mut Vec<Document>,
) -> Result<(), String> {
    for line in parsed.by_ref().take(STEP) {
        if let Some(bad) = line.bad_size {
            return Err(format!(
                "the saved documents are damaged (line {}: size {bad:?} is not a whole \
                 number of bytes)",
                documents.len() + 1
            ));
        }
        documents.push(line.document);
    }
    Ok(())
}

/// The restore's pace: it reports and gives the event loop back every [`SLICE_MS`].
struct Pace<'a> {
    on_progress: &'a Callback<Work>,
    cancel: &'a CancelToken,
    generation: u64,
    total: usize,
    started: f64,
    slice: f64,
}

impl<'a> Pace<'a> {
    fn new(on_progress: &'a Callback<Work>, cancel: &'a CancelToken, total: usize) -> Pace<'a> {
        Pace {
            on_progress,
            generation: cancel.generation(),
            cancel,
            total,
            started: now(),
            slice: now(),
        }
    }

    /// Reports `done` documents and yields when the slice is used up; `false`: cancelled.
    async fn breathe(&mut self, done: usize) -> bool {
        if now() - self.slice >= SLICE_MS {
            let fraction = (done as f64 / self.total as f64).min(1.0);
            let elapsed = now() - self.started;
            self.on_progress.emit(Work {
                label: "Restoring the saved studio".into(),
                done,
                fraction: Some(fraction),
                left_ms: (fraction > 0.02).then(|| elapsed * (1.0 - fraction) / fraction),
            });
            yield_now().await;
            self.slice = now();
        }
        self.cancel.generation() == self.generation
    }
}
