//! The saved studio in IndexedDB (through `rexie`, [`saved`]): opened on load, saved
//! after changes.
//!
//! The database [`DATABASE`] has one object store, [`STORE`], holding the records of a
//! [`Stored`]: the settings under [`SETTINGS_KEY`] and the documents' parts under the keys
//! of the save that wrote them. A save ([`store`]) sends the placement's documents to the
//! studio's worker a part at a time, which writes them out, stores them and swaps them in
//! with the settings in one transaction; the documents of an import were stored by the
//! import's worker as it read them, and those of a large generation are made again by the
//! save's worker ([`JobSave`]): the page copies none of them. On load the page reads the
//! settings; the documents are read by the studio's worker ([`restore`]). Studios saved
//! before kept the documents in one record, [`DOCUMENTS_KEY`], still read. A studio saved
//! before in `localStorage` (under [`STORAGE_KEY`]) is read when IndexedDB has none, and
//! removed from `localStorage` once IndexedDB holds it. Records that cannot be read are set
//! aside under [`SET_ASIDE_PREFIX`] keys ([`saved::set_aside`]), never overwritten.

use super::bulk::{yield_now, SLICE_MS};
use super::import::CancelToken;
use super::restore::{self, with_tab, Restored};
use crate::editors::geometry::group_digits;
use crate::state::{
    even_batches, placement_lines_capacity, plan_parts, read_layout, read_saved, segments_of,
    settings_json, Action, Layout, Level, Live, Notice, NoticeAction, PartPlan, PartRef, Saved,
    Segment, State, Stored, Work, SET_ASIDE_KEY, STORAGE_KEY,
};
use crate::worker::saved;
pub use crate::worker::saved::{
    forget, part_key, DATABASE, DATABASE_VERSION, DOCUMENTS_KEY, PART_PREFIX, SETTINGS_KEY,
    SET_ASIDE_PREFIX, STORE,
};
use crate::worker::saving::{keep, next_generation, release, Ended, SaveError, Saving};
use crate::worker::{DocumentBatch, SavePart};
use ravenshard_model::sample::Generator;
use ravenshard_model::share::decode_fragment;
use ravenshard_model::workspace::{kept_runs, DocumentsMark, Placement};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::ops::Range;
use std::rc::{Rc, Weak};
use yew::Callback;

/// The performance mark set before the studio is written out for a save.
pub const SAVE_START: &str = "ravenshard-save-start";
/// The performance measure of writing the documents out and storing them part by part,
/// from [`SAVE_START`].
pub const SERIALIZE_MEASURE: &str = "ravenshard-serialize";
/// The performance measure of a save, from [`SAVE_START`] until IndexedDB holds it.
pub const SAVE_MEASURE: &str = "ravenshard-save";
/// The performance measure from the page's start until IndexedDB gave the saved studio.
pub const READ_MEASURE: &str = "ravenshard-restore-read";
/// The performance measure from the page's start until the saved studio is read back.
pub const RESTORE_MEASURE: &str = "ravenshard-restore";

/// Sets the performance mark `name` (for `web/bench/studio.py`; ignored if the browser
/// has no Performance API).
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// Adds the performance measure `name`, from the mark `start` (or the page's start) to now.
pub fn measure(name: &str, start: Option<&str>) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = match start {
            Some(start) => performance.measure_with_start_mark(name, start),
            None => performance.measure(name),
        };
    }
}

/// Why the browser did not keep or give back the saved studio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageError {
    /// The browser refused to store `bytes` (full, limited, private mode, blocked).
    Refused {
        /// The size of what was to be stored.
        bytes: usize,
        /// The browser's reason.
        reason: String,
    },
    /// The studio's worker stopped while saving.
    Stopped {
        /// What it said.
        reason: String,
    },
    /// The browser could not read the saved studio.
    Unreadable {
        /// The browser's reason.
        reason: String,
    },
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Refused { bytes, reason } => write!(
                f,
                "the browser refused to store {} ({reason})",
                size_text(*bytes)
            ),
            StorageError::Stopped { reason } => {
                write!(f, "the studio's worker stopped while saving ({reason})")
            }
            StorageError::Unreadable { reason } => {
                write!(f, "the browser could not read the saved studio ({reason})")
            }
        }
    }
}

impl std::error::Error for StorageError {}

/// A size for messages: `840 bytes`, `35.2 KB`, `12.9 MB`.
pub fn size_text(bytes: usize) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// What IndexedDB holds of the documents after a save ([`store`]): the placement's
/// documents at a mark ([`Placement::documents_mark`]), in parts; the base of the next
/// save, which writes only what changed since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDocuments {
    mark: DocumentsMark,
    len: usize,
    /// `None`: the parts the settings record names, read at the next save (a restored
    /// studio's).
    parts: Option<Vec<PartRef>>,
}

impl StoredDocuments {
    /// The parts stored, in order (`None`: not known yet).
    pub fn parts(&self) -> Option<&[PartRef]> {
        self.parts.as_deref()
    }

    /// The documents at the mark and where they are stored; none when the parts are not
    /// known, or do not hold the documents the mark had (a restore that was cancelled).
    fn base(&self) -> Base {
        let parts = self.parts.as_deref().unwrap_or_default();
        let held: usize = parts.iter().map(|p| p.documents as usize).sum();
        let segments = if held == self.len {
            segments_of(parts)
                .into_iter()
                .map(|s| Segment {
                    old: s.old,
                    part: Held::Part(SavePart::Kept(s.part)),
                })
                .collect()
        } else {
            Vec::new()
        };
        Base {
            mark: self.mark,
            len: self.len,
            segments,
            made: None,
        }
    }
}

/// What a save starts from: the `len` documents of a moment (`mark`), whose `segments`
/// are stored already (parts of the saved studio, or an import's), sent (batches of the
/// save itself), or the documents `made` made (a generation's).
#[derive(Debug, Clone)]
struct Base {
    mark: DocumentsMark,
    len: usize,
    segments: Vec<Segment<Held>>,
    /// The generator that made the documents of the [`Held::Made`] segments.
    made: Option<Generator>,
}

/// What holds a segment of the documents a save starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// A stored part, or a batch the save sent.
    Part(SavePart),
    /// The documents `from..to` of the generator that made the workspace: the save's
    /// worker makes them again rather than the page copying them.
    Made {
        /// The first document's index among the generator's.
        from: usize,
        /// The index after the last.
        to: usize,
    },
}

thread_local! {
    /// The documents the page copied to the save's worker, since it started.
    static COPIED: Cell<u64> = const { Cell::new(0) };
}

/// How many documents the page copied to the save's worker since it started (a save
/// after an edit copies the parts it touched; a save of an import's or a generation's
/// documents copies none): for the tests and the bench.
pub fn copied_documents() -> u64 {
    COPIED.with(Cell::get)
}

/// A save stopped by an edit while it sent its batches: its run in the worker, and what
/// it stored or sent until then. The next save goes on from it, sending only what the
/// edits since touched or what was not sent yet (at 10,000,000 documents a save takes
/// about 11 s: started again after each edit, it would not end while the user works).
/// A job's save handed over ([`JobSave::hand_over`]) is one too: the parts its worker
/// stored are what it stored until then.
struct Paused {
    saving: Saving,
    /// `None`: the placement was replaced before anything was sent.
    base: Option<Base>,
    /// The job's generation whose parts `base` names, kept apart until the save ends.
    job: Option<KeptGeneration>,
}

thread_local! {
    /// The save of the documents a job made ([`JobSave::hand_over`]), until the save of
    /// its workspace goes on from it.
    static JOB_SAVE: RefCell<Option<Paused>> = const { RefCell::new(None) };
}

/// The save of the documents a job makes, so that the first save of its workspace copies
/// none through the page (after importing 10,000,000 IDs that copying took 3.3 s of the
/// page's slices; after generating 1,000,000 documents, 0.33 s).
///
/// - An import's ([`JobSave::new`]): the import's worker stores each batch it sends as
///   parts of a save generation of its own while the page places the batch
///   ([`Reply::BatchStored`](crate::worker::Reply::BatchStored)). The save's worker keeps
///   those parts apart from any save's end until the import's save ended, or the import
///   stopped (then they are removed).
/// - A generation's ([`JobSave::generated`]): storing beside the placing made a generation
///   of 1,000,000 documents 0.2 s slower, past its 1.5 s, so nothing is stored during the
///   job; the save's worker makes the documents again from the generator (which is
///   deterministic) as it writes them.
///
/// Handed over with the new workspace, it is where that workspace's first save goes on
/// from: that save names the import's parts or has the generator's documents made, and
/// copies from the placement only what edits since touched (or what the import's worker
/// did not store).
pub struct JobSave(JobKind);

/// What a [`JobSave`] holds, by the kind of job.
enum JobKind {
    /// An import's: the save generation its worker stores the parts under, where each
    /// batch received starts and how many documents it holds (by number), and the parts
    /// the worker stored, with the job's documents each holds.
    Stored {
        kept: KeptGeneration,
        batches: Vec<Range<usize>>,
        segments: Vec<Segment<Held>>,
    },
    /// A generation's generator: the save's worker makes its documents again.
    Made(Generator),
}

/// A generation the save's worker keeps apart ([`keep`]) until dropped.
struct KeptGeneration(u64);

impl Drop for KeptGeneration {
    fn drop(&mut self) {
        release(self.0);
    }
}

impl Default for JobSave {
    fn default() -> JobSave {
        JobSave::new()
    }
}

impl JobSave {
    /// A save of an import's documents, under a new generation the save's worker keeps
    /// apart.
    pub fn new() -> JobSave {
        let generation = next_generation();
        keep(generation);
        JobSave(JobKind::Stored {
            kept: KeptGeneration(generation),
            batches: Vec::new(),
            segments: Vec::new(),
        })
    }

    /// A save of `generator`'s documents: the save's worker makes them again as it writes
    /// them (the generator is deterministic), so the page copies none.
    pub fn generated(generator: Generator) -> JobSave {
        JobSave(JobKind::Made(generator))
    }

    /// The save generation an import's worker stores the parts under (none for a
    /// generation's).
    pub fn generation(&self) -> Option<u64> {
        match &self.0 {
            JobKind::Stored { kept, .. } => Some(kept.0),
            JobKind::Made(_) => None,
        }
    }

    /// The job's batch `number` (numbered from 0, in order) holds its documents `at` (what
    /// an import's parts are placed by; a generation's save needs none of it).
    pub fn received(&mut self, number: u64, at: Range<usize>) {
        if let JobKind::Stored { batches, .. } = &mut self.0 {
            if number as usize == batches.len() {
                batches.push(at);
            }
        }
    }

    /// The job's worker stored the batch `number` as `parts`, in order (ignored if they do
    /// not hold that batch's documents: the save writes them).
    pub fn stored(&mut self, number: u64, parts: &[PartRef]) {
        let JobKind::Stored {
            batches, segments, ..
        } = &mut self.0
        else {
            return;
        };
        let Some(batch) = batches.get(number as usize) else {
            return;
        };
        let held: usize = parts.iter().map(|p| p.documents as usize).sum();
        if held != batch.len() {
            return;
        }
        let mut at = batch.start;
        for part in parts {
            let old = at..at + part.documents as usize;
            at = old.end;
            let part = Held::Part(SavePart::Written(*part));
            segments.push(Segment { old, part });
        }
    }

    /// Hands the save over with `placement`, the documents the job made, in the order of
    /// its batches: the next save of a workspace whose documents descend from these goes
    /// on from it (a save of another workspace leaves it waiting).
    pub fn hand_over(self, placement: &Placement) {
        let (segments, made, job) = match self.0 {
            JobKind::Stored { kept, segments, .. } => (segments, None, Some(kept)),
            JobKind::Made(generator) => {
                let made = |old: Range<usize>| {
                    let (from, to) = (old.start, old.end);
                    let part = Held::Made { from, to };
                    Segment { old, part }
                };
                let segments = even_batches(0..placement.len()).into_iter().map(made);
                (segments.collect(), Some(generator), None)
            }
        };
        if segments.is_empty() {
            return;
        }
        let base = Base {
            mark: placement.documents_mark(),
            len: placement.len(),
            segments,
            made,
        };
        let paused = Paused {
            saving: Saving::new(),
            base: Some(base),
            job,
        };
        JOB_SAVE.with(|s| *s.borrow_mut() = Some(paused));
    }
}

/// The job's save handed over ([`JobSave::hand_over`]) if `placement`'s documents descend
/// from its documents.
fn take_job_save(placement: &Weak<Placement>) -> Option<Paused> {
    let placement = placement.upgrade()?;
    JOB_SAVE.with(|slot| {
        let mut slot = slot.borrow_mut();
        let mark = slot.as_ref()?.base.as_ref()?.mark;
        placement.splices_since(&mark)?;
        slot.take()
    })
}

/// What a save of `placement` keeps of `base` and writes anew: after splices since
/// `base`, only what they touched and what `base` lacks ([`plan_parts`]); with no base,
/// or one these documents do not descend from, everything.
fn plan(placement: &Placement, base: Option<&Base>) -> Vec<PartPlan<Held>> {
    let known = base.and_then(|b| {
        let runs = kept_runs(b.len, placement.splices_since(&b.mark)?);
        Some(plan_parts(&b.segments, &runs, placement.len()))
    });
    known.unwrap_or_else(|| plan_parts(&[], &[], placement.len()))
}

/// Saves `settings` and the documents `placement` holds through the save's worker
/// ([`Saving`]), writing only what changed since `base` (`plan`): the page copies the
/// documents to write a part at a time ([`even_batches`] of at most
/// [`SAVE_BATCH_DOCUMENTS`](crate::worker::saving::SAVE_BATCH_DOCUMENTS),
/// [`DocumentBatch::of_placement`]: the IDs' bytes, sizes, collections and bodies), giving
/// the event loop back every [`SLICE_MS`], and the worker writes them out, stores them and
/// swaps them in with the parts kept (all or nothing). The placement is held only while a
/// batch is copied: an edit meanwhile replaces it without copying it, and the save stops
/// (`Ok(None)`; the [`Saver`] goes on from there at the edit's save). Returns the bytes
/// stored and what IndexedDB now holds; then a studio saved in `localStorage` before is no
/// longer needed. When a part kept is no longer stored (another tab saved meanwhile),
/// saves again whole.
pub async fn store(
    settings: &Saved,
    placement: &Weak<Placement>,
    base: Option<StoredDocuments>,
) -> Result<Option<(usize, StoredDocuments)>, StorageError> {
    match store_from(settings, placement, base, None).await? {
        Outcome::Saved(bytes, stored) => Ok(Some((bytes, stored))),
        Outcome::Paused(_) => Ok(None),
    }
}

/// How a save ended.
enum Outcome {
    /// Saved: the bytes stored and what IndexedDB holds.
    Saved(usize, StoredDocuments),
    /// Stopped by an edit; the next save goes on from here.
    Paused(Paused),
}

/// [`store`], going on from `paused` if given.
async fn store_from(
    settings: &Saved,
    placement: &Weak<Placement>,
    base: Option<StoredDocuments>,
    mut paused: Option<Paused>,
) -> Result<Outcome, StorageError> {
    let mut base = match base {
        Some(b) if b.parts.is_none() && paused.is_none() => Some(StoredDocuments {
            parts: stored_parts().await,
            ..b
        }),
        base => base,
    };
    // A job's parts the save names stay apart from other saves' ends until it ended.
    let mut job = paused.as_mut().and_then(|p| p.job.take());
    loop {
        let resumed = paused.is_some();
        let (saving, from) = match paused.take() {
            Some(p) => (p.saving, p.base),
            None => (Saving::new(), base.take().map(|b| b.base())),
        };
        match store_plan(settings, placement, saving, from).await {
            // The worker stopped while the save waited (what it held of it is gone): the
            // save starts again, from what IndexedDB holds.
            Err(StorageError::Stopped { .. }) if resumed => continue,
            Err(e) => return Err(e),
            // A part kept was no longer stored, or the worker lost batches: nothing
            // changed; saved again.
            Ok(None) => continue,
            Ok(Some(Outcome::Saved(bytes, stored))) => {
                if let Some(s) = local_storage() {
                    let _ = s.remove_item(STORAGE_KEY);
                }
                return Ok(Outcome::Saved(bytes, stored));
            }
            Ok(Some(Outcome::Paused(mut paused))) => {
                paused.job = job.take();
                return Ok(Outcome::Paused(paused));
            }
        }
    }
}

/// The parts the settings record in IndexedDB names (none if it cannot be read).
async fn stored_parts() -> Option<Vec<PartRef>> {
    let settings = saved::read_settings().await.ok()??;
    read_layout(&settings).parts
}

/// The segment a kept step stands for (none for a step that writes).
fn kept(step: &PartPlan<Held>) -> Option<Segment<Held>> {
    match step {
        PartPlan::Keep { at, part } => Some(Segment {
            old: at.clone(),
            part: *part,
        }),
        PartPlan::Write(_) => None,
    }
}

/// What a kept step stands for in the save's order: a stored part as it is, or the
/// generator's documents, which the save's worker makes again as a batch of the run;
/// `None` for made documents without their generator (not a case: saved again whole).
async fn keep_part(
    saving: &mut Saving,
    held: Held,
    made: Option<Generator>,
) -> Result<Option<SavePart>, SaveError> {
    Ok(match (held, made) {
        (Held::Part(part), _) => Some(part),
        (Held::Made { from, to }, Some(generator)) => {
            saving.room().await?;
            Some(saving.send_made(&generator, from..to))
        }
        (Held::Made { .. }, None) => None,
    })
}

/// One run of [`store_from`] in `saving` from `base`: `None` when a part it kept was no
/// longer stored.
async fn store_plan(
    settings: &Saved,
    placement: &Weak<Placement>,
    mut saving: Saving,
    base: Option<Base>,
) -> Result<Option<Outcome>, StorageError> {
    let failed = |e: SaveError| match e {
        SaveError::Refused { reason, bytes } => StorageError::Refused {
            // About what would have been stored.
            bytes: placement.upgrade().map_or(bytes as usize, |p| {
                settings_json(settings, &Layout::default()).len() + placement_lines_capacity(&p)
            }),
            reason,
        },
        SaveError::Stopped(said) => StorageError::Stopped { reason: said },
    };
    let Some(p) = placement.upgrade() else {
        let job = None;
        return Ok(Some(Outcome::Paused(Paused { saving, base, job })));
    };
    let (steps, mark, len) = (plan(&p, base.as_ref()), p.documents_mark(), p.len());
    drop(p);
    // What is stored or sent, as this mark has it: where a stop goes on from.
    let made = base.and_then(|b| b.made);
    let mut done = Base {
        mark,
        len,
        segments: Vec::with_capacity(steps.len()),
        made,
    };
    let mut parts = Vec::with_capacity(steps.len());
    let mut slice = now();
    for (i, step) in steps.iter().enumerate() {
        let range = match step {
            PartPlan::Keep { at, part } => {
                let kept = keep_part(&mut saving, *part, made).await;
                let Some(part) = kept.map_err(failed)? else {
                    return Ok(None);
                };
                parts.push(part);
                let (old, part) = (at.clone(), Held::Part(part));
                done.segments.push(Segment { old, part });
                continue;
            }
            PartPlan::Write(range) => range.clone(),
        };
        for batch in even_batches(range) {
            saving.room().await.map_err(failed)?;
            let Some(p) = placement.upgrade() else {
                // The parts this plan keeps further on are still there to keep.
                done.segments.extend(steps[i + 1..].iter().filter_map(kept));
                let (base, job) = (Some(done), None);
                return Ok(Some(Outcome::Paused(Paused { saving, base, job })));
            };
            let part = SavePart::Batch(saving.next_batch());
            let documents = DocumentBatch::of_placement(saving.next_batch(), &p, batch.clone());
            drop(p);
            COPIED.with(|c| c.set(c.get() + documents.len() as u64));
            saving.send(documents);
            parts.push(part);
            let part = Held::Part(part);
            done.segments.push(Segment { old: batch, part });
            if now() - slice >= SLICE_MS {
                yield_now().await;
                slice = now();
            }
        }
    }
    measure(SERIALIZE_MEASURE, Some(SAVE_START));
    let settings = settings_json(settings, &Layout::default());
    let ended = saving.end(settings, parts, len as u64).await;
    Ok(match ended.map_err(failed)? {
        Ended::Stored { bytes, parts } => {
            let parts = Some(parts);
            let stored = StoredDocuments { mark, len, parts };
            Some(Outcome::Saved(bytes as usize, stored))
        }
        Ended::Outdated => None,
    })
}

/// Writes only the settings record, keeping the layout of the documents' parts it names
/// (the documents are the ones stored last), in one transaction: no document is sent to
/// the worker. `Ok(None)` when IndexedDB holds no settings (a whole save is needed).
async fn store_settings(settings: &Saved) -> Result<Option<usize>, StorageError> {
    let refused = |reason: String| StorageError::Refused {
        bytes: settings_json(settings, &Layout::default()).len(),
        reason,
    };
    let db = saved::open().await.map_err(refused)?;
    let written = async {
        let tx = db
            .transaction(&[STORE], rexie::TransactionMode::ReadWrite)
            .map_err(saved::reason)?;
        let store = tx.store(STORE).map_err(saved::reason)?;
        let key = wasm_bindgen::JsValue::from_str(SETTINGS_KEY);
        let Some(current) = store.get(key.clone()).await.map_err(saved::reason)? else {
            return Ok(None);
        };
        let text = settings_json(settings, &read_layout(&saved::from_bytes(current)?));
        store
            .put(&saved::to_bytes(&text), Some(&key))
            .await
            .map_err(saved::reason)?;
        saved::commit(tx).await?;
        Ok(Some(text.len()))
    }
    .await;
    db.close();
    written.map_err(refused)
}

/// Milliseconds since the page started.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The saved studio, if IndexedDB holds one (every record, read at once: for tests).
pub async fn load() -> Result<Option<Stored>, StorageError> {
    saved::read_stored()
        .await
        .map_err(|reason| StorageError::Unreadable { reason })
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The state the studio opens on: a share link in the URL fragment wins, then the studio
/// saved in IndexedDB, then one saved in `localStorage` by an older studio, then the
/// chapter's examples. Problems are reported as notices; a saved studio that cannot be read
/// is set aside. A large saved studio is read by the worker and placed a batch at a time
/// ([`restore`]), its progress reported through `on_progress`, until `cancel` is
/// cancelled: then (or when the worker stops) the studio opens on the saved settings
/// without documents, and the saved copy is kept untouched until the user changes
/// something. The flag says whether the state is the one IndexedDB holds (so that it need
/// not be saved again until it changes).
pub async fn open_state(on_progress: Callback<Work>, cancel: CancelToken) -> (State, bool) {
    let mut notices: Vec<Notice> = Vec::new();
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if !hash.trim_start_matches('#').trim().is_empty() {
        match decode_fragment(&hash) {
            Ok(shared) => return (State::from_shared(shared), false),
            Err(e) => notices.push(Notice::new(
                Level::Error,
                format!("The link in the address bar cannot be opened: {e}"),
            )),
        }
    }
    // A Cancel clicked while the settings are read counts too.
    let generation = cancel.generation();
    let settings = saved::read_settings().await;
    measure(READ_MEASURE, None);
    let mut saved = false;
    let restored = match settings {
        Ok(Some(settings)) if cancel.generation() != generation => {
            Some(without_documents(&settings, None, &mut notices))
        }
        Ok(Some(settings)) => from_settings(settings, &mut notices, &on_progress, &cancel).await,
        Ok(None) => None,
        Err(reason) => {
            let e = StorageError::Unreadable { reason };
            notices.push(Notice::new(
                Level::Warning,
                format!("Your saved studio could not be restored: {e}."),
            ));
            None
        }
    };
    let mut state = restored
        .inspect(|_| saved = true)
        .or_else(|| from_local_storage(&mut notices))
        .unwrap_or_default();
    measure(RESTORE_MEASURE, None);
    for notice in notices {
        state.apply(Action::Notice(NoticeAction::Notify(notice)));
    }
    (state, saved)
}

/// The studio when its restore was cancelled or stopped (`why`): the saved settings (if
/// they can be read) without documents; the notice says the saved copy is kept until
/// something changes.
fn without_documents(settings: &str, why: Option<&str>, notices: &mut Vec<Notice>) -> State {
    let count = group_digits(read_layout(settings).document_count as u64);
    let (level, head) = match why {
        None => (Level::Info, "Restoring was cancelled".to_string()),
        Some(why) => (Level::Warning, format!("Restoring stopped: {why}")),
    };
    notices.push(Notice::new(
        level,
        format!(
            "{head}, so the studio opened without documents. The saved studio ({count} \
             documents) is kept in this browser, untouched, until you change something \
             here: then this studio is saved in its place. Reload the page to restore it."
        ),
    ));
    // Without the documents, nothing is left of the import that made them.
    let without_documents = |saved: Saved| Saved {
        kept: None,
        ..saved
    };
    read_saved(settings)
        .map(without_documents)
        .and_then(with_tab)
        .unwrap_or_else(|_| State::with_documents(Vec::new()))
}

/// How many times the studio reads the saved settings again when another save replaced
/// the documents while they were read ([`Restored::Outdated`]), before it opens without
/// them.
pub const RESTORE_TRIES: usize = 3;

/// The state of the saved studio whose settings record is `settings` ([`restore`]);
/// records that cannot be used are set aside. When another save (in another tab) replaced
/// the documents while they were read, the restore reads on in the newer studio from the
/// first part it replaced, or, when the two differ more, the settings are read again and
/// the studio they name is restored from its start, up to [`RESTORE_TRIES`] times. What
/// happened is told in `notices`.
pub async fn from_settings(
    mut settings: String,
    notices: &mut Vec<Notice>,
    on_progress: &Callback<Work>,
    cancel: &CancelToken,
) -> Option<State> {
    let mut tries = 1;
    let why = loop {
        match restore::restore(&settings, on_progress, cancel).await {
            Restored::State(state) => return Some(state),
            Restored::Newer(state) => {
                notices.push(restored_newer());
                return Some(state);
            }
            Restored::Cancelled => return Some(without_documents(&settings, None, notices)),
            Restored::Stopped(why) => {
                return Some(without_documents(&settings, Some(&why), notices))
            }
            Restored::Failed(why) => break why,
            Restored::Outdated if tries < RESTORE_TRIES => {}
            Restored::Outdated => {
                let why = format!(
                    "the saved studio was replaced {RESTORE_TRIES} times while it was read \
                     (another tab is saving it)"
                );
                return Some(without_documents(&settings, Some(&why), notices));
            }
        }
        tries += 1;
        settings = match saved::read_settings().await {
            Ok(Some(newer)) => newer,
            Ok(None) => return None,
            Err(reason) => {
                let why = format!("the browser could not read the saved studio ({reason})");
                return Some(without_documents(&settings, Some(&why), notices));
            }
        };
        if tries == 2 {
            notices.push(restored_newer());
        }
    };
    let aside = match saved::set_aside().await {
        Ok(()) => format!(
            "It was set aside (IndexedDB \"{DATABASE}\", keys \"{SET_ASIDE_PREFIX}{SETTINGS_KEY}\" \
             and \"{SET_ASIDE_PREFIX}{PART_PREFIX}*\")"
        ),
        Err(_) => "It could not be set aside and will be replaced at the next save".into(),
    };
    notices.push(Notice::new(
        Level::Warning,
        format!(
            "Your saved studio could not be restored: {why}. {aside} and the studio opened \
             on the chapter's examples."
        ),
    ));
    None
}

/// What the studio says when it restored a studio another tab saved while this one read
/// the saved studio.
fn restored_newer() -> Notice {
    Notice::new(
        Level::Info,
        "The saved studio was saved again (in another tab) while this one read it: this tab \
         restored the newer one."
            .to_string(),
    )
}

/// The state an older studio saved in `localStorage`, moved to IndexedDB at the next save;
/// one that cannot be read is set aside under [`SET_ASIDE_KEY`].
fn from_local_storage(notices: &mut Vec<Notice>) -> Option<State> {
    let storage = local_storage()?;
    let text = storage.get_item(STORAGE_KEY).ok().flatten()?;
    match read_saved(&text).and_then(State::from_saved) {
        Ok(state) => Some(state),
        Err(reason) => {
            let _ = storage.set_item(SET_ASIDE_KEY, &text);
            let _ = storage.remove_item(STORAGE_KEY);
            notices.push(Notice::new(
                Level::Warning,
                format!(
                    "Your saved studio could not be restored: {reason}. It was set aside \
                     (localStorage key \"{SET_ASIDE_KEY}\") and the studio opened on the \
                     chapter's examples."
                ),
            ));
            None
        }
    }
}

/// A save asked for: the settings and the placement of the documents (not held: an edit
/// replaces it without a copy, and asks for a save of its own).
struct Request {
    settings: Saved,
    placement: Weak<Placement>,
}

/// Saves one after the other, so that an older save never lands after a newer one: while a
/// save runs, only the newest of the states asked for waits. What is written follows what
/// changed since the last save ([`Placement::splices_since`] its documents' mark): nothing
/// but the settings record when the documents are the same (only the tab, a view or the
/// configuration changed: `store_settings`); the parts an edit touched when documents
/// were edited (`plan`); the parts a job's worker stored when the documents were made by
/// an import or a large generation ([`JobSave`]: nothing copied); everything otherwise
/// (a small generation, a paste). At 1,000,000 documents a save of every document keeps the
/// page busy for about 0.4 s of slices over 1.1 s; after a one-ID edit it copies one part
/// in about 2 ms. A save an edit stops is not started again: the edit's save goes on in
/// the same run (`Paused`).
#[derive(Default)]
pub struct Saver {
    busy: Cell<bool>,
    next: RefCell<Option<Request>>,
    /// The documents IndexedDB holds (a mark, which keeps no placement alive).
    stored: RefCell<Option<StoredDocuments>>,
    /// A save an edit stopped, which the next save goes on from.
    paused: RefCell<Option<Paused>>,
}

impl Saver {
    /// A saver, its worker started (the first save then does not wait for it to load);
    /// `stored`: the documents IndexedDB holds already (a restored studio's), if known.
    pub fn new(stored: Option<Live<Placement>>) -> Saver {
        crate::worker::saving::warm_up();
        let stored = stored.map(|live| {
            let placement = live.get();
            StoredDocuments {
                mark: placement.documents_mark(),
                len: placement.len(),
                parts: None,
            }
        });
        Saver {
            stored: RefCell::new(stored),
            ..Saver::default()
        }
    }

    /// Whether IndexedDB holds the documents `placement` holds now.
    fn holds(&self, placement: &Weak<Placement>) -> bool {
        let stored = self.stored.borrow();
        let (Some(stored), Some(p)) = (stored.as_ref(), placement.upgrade()) else {
            return false;
        };
        p.splices_since(&stored.mark).is_some_and(<[_]>::is_empty)
    }

    /// Saves `settings` and the documents `placement` holds (now, or after the save that
    /// runs); `done` hears how each save went (the bytes stored, or why not).
    pub fn save(
        self: &Rc<Self>,
        settings: Saved,
        placement: &Live<Placement>,
        done: Callback<Result<usize, StorageError>>,
    ) {
        *self.next.borrow_mut() = Some(Request {
            settings,
            placement: Rc::downgrade(&placement.get()),
        });
        if self.busy.replace(true) {
            return;
        }
        let saver = Rc::clone(self);
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                let Some(request) = saver.next.borrow_mut().take() else {
                    break;
                };
                let Some(saved) = saver.store(request).await else {
                    // Stopped by an edit: its save goes on from there.
                    continue;
                };
                if saved.is_ok() {
                    measure(SAVE_MEASURE, Some(SAVE_START));
                }
                done.emit(saved);
            }
            saver.busy.set(false);
        });
    }

    /// One save: the settings alone when IndexedDB holds the documents, else what changed
    /// (going on from a save an edit stopped); `None` when an edit stopped it.
    async fn store(&self, request: Request) -> Option<Result<usize, StorageError>> {
        let mut paused = self.paused.borrow_mut().take();
        if let Some(job) = take_job_save(&request.placement) {
            // A save paused before is of documents the job's replaced; this save of the
            // job's workspace starts now (what the job sent took no time of it).
            paused = Some(job);
            mark(SAVE_START);
        }
        if paused.is_none() {
            mark(SAVE_START);
            if self.holds(&request.placement) {
                match store_settings(&request.settings).await {
                    Ok(Some(bytes)) => return Some(Ok(bytes)),
                    // No settings record any more (cleared meanwhile): saved whole.
                    Ok(None) => {}
                    Err(e) => return Some(Err(e)),
                }
            }
        }
        let base = self.stored.borrow().clone();
        match store_from(&request.settings, &request.placement, base, paused).await {
            Ok(Outcome::Saved(bytes, stored)) => {
                *self.stored.borrow_mut() = Some(stored);
                Some(Ok(bytes))
            }
            Ok(Outcome::Paused(paused)) => {
                *self.paused.borrow_mut() = Some(paused);
                None
            }
            Err(e) => Some(Err(e)),
        }
    }
}
