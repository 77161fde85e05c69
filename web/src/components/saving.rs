//! The saved studio in IndexedDB (through `rexie`, [`saved`]): opened on load, saved
//! after changes.
//!
//! The database [`DATABASE`] has one object store, [`STORE`], holding the records of a
//! [`Stored`]: the settings under [`SETTINGS_KEY`] and the documents' parts under the keys
//! of the save that wrote them. A save ([`store`]) sends the placement's documents to the
//! studio's worker a part at a time, which writes them out, stores them and swaps them in
//! with the settings in one transaction. On load the page reads the settings; the
//! documents are read by the studio's worker ([`restore`]). Studios saved before kept the
//! documents in one record, [`DOCUMENTS_KEY`], still read. A studio saved before in
//! `localStorage` (under [`STORAGE_KEY`]) is read when IndexedDB has none, and removed from
//! `localStorage` once IndexedDB holds it. Records that cannot be read are set aside under
//! [`SET_ASIDE_PREFIX`] keys ([`saved::set_aside`]), never overwritten.

use super::bulk::{yield_now, SLICE_MS};
use super::import::CancelToken;
use super::restore::{self, with_tab, Restored};
use crate::editors::geometry::group_digits;
use crate::state::{
    even_batches, placement_lines_capacity, plan_parts, read_layout, read_saved, settings_json,
    Action, Layout, Level, Live, Notice, NoticeAction, PartPlan, PartRef, Saved, State, Stored,
    Work, SET_ASIDE_KEY, STORAGE_KEY,
};
use crate::worker::saved;
pub use crate::worker::saved::{
    forget, part_key, DATABASE, DATABASE_VERSION, DOCUMENTS_KEY, PART_PREFIX, SETTINGS_KEY,
    SET_ASIDE_PREFIX, STORE,
};
use crate::worker::saving::{Ended, SaveError, Saving};
use crate::worker::{DocumentBatch, SavePart};
use ravenshard_model::share::decode_fragment;
use ravenshard_model::workspace::{kept_runs, DocumentsMark, Placement};
use std::cell::{Cell, RefCell};
use std::fmt;
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
}

/// What a save of `placement` keeps of the `base` stored and writes anew: after splices
/// since `base`, only what they touched ([`plan_parts`]); with no base, or one these
/// documents do not descend from, everything.
fn plan(placement: &Placement, base: Option<&StoredDocuments>) -> Vec<PartPlan> {
    let known = base.and_then(|b| {
        let parts = b.parts.as_deref()?;
        let stored: usize = parts.iter().map(|p| p.documents as usize).sum();
        let splices = placement.splices_since(&b.mark)?;
        (stored == b.len).then(|| (parts, kept_runs(b.len, splices)))
    });
    match known {
        Some((parts, runs)) => plan_parts(parts, &runs, placement.len()),
        None => plan_parts(&[], &[], placement.len()),
    }
}

/// Saves `settings` and the documents `placement` holds through the save's worker
/// ([`Saving`]), writing only what changed since `base` ([`plan`]): the page copies the
/// documents to write a part at a time ([`even_batches`] of at most
/// [`SAVE_BATCH_DOCUMENTS`](crate::worker::saving::SAVE_BATCH_DOCUMENTS),
/// [`DocumentBatch::of_placement`]:
/// the IDs' bytes, sizes, collections and bodies), giving the event loop back every
/// [`SLICE_MS`], and the worker writes them out, stores them and swaps them in with the
/// parts kept (all or nothing). The placement is held only while a batch is copied: an
/// edit meanwhile replaces it without copying it, and the save stops (`Ok(None)`: the
/// edit's save follows). Returns the bytes stored and what IndexedDB now holds; then a
/// studio saved in `localStorage` before is no longer needed. When a part kept is no
/// longer stored (another tab saved meanwhile), saves again whole.
pub async fn store(
    settings: &Saved,
    placement: &Weak<Placement>,
    base: Option<StoredDocuments>,
) -> Result<Option<(usize, StoredDocuments)>, StorageError> {
    let mut base = match base {
        Some(b) if b.parts.is_none() => Some(StoredDocuments {
            parts: stored_parts().await,
            ..b
        }),
        base => base,
    };
    loop {
        match store_plan(settings, placement, base.take().as_ref()).await? {
            Some(Outcome::Outdated) => continue,
            Some(Outcome::Saved(bytes, stored)) => {
                if let Some(s) = local_storage() {
                    let _ = s.remove_item(STORAGE_KEY);
                }
                return Ok(Some((bytes, stored)));
            }
            None => return Ok(None),
        }
    }
}

/// How [`store_plan`] ended.
enum Outcome {
    /// Saved: the bytes stored and what IndexedDB holds.
    Saved(usize, StoredDocuments),
    /// A part kept was no longer stored; nothing changed.
    Outdated,
}

/// The parts the settings record in IndexedDB names (none if it cannot be read).
async fn stored_parts() -> Option<Vec<PartRef>> {
    let settings = saved::read_settings().await.ok()??;
    read_layout(&settings).parts
}

/// One save of [`store`] against `base`.
async fn store_plan(
    settings: &Saved,
    placement: &Weak<Placement>,
    base: Option<&StoredDocuments>,
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
        return Ok(None);
    };
    let (steps, mark, len) = (plan(&p, base), p.documents_mark(), p.len());
    drop(p);
    let mut saving = Saving::new();
    let mut parts = Vec::with_capacity(steps.len());
    let mut slice = now();
    for step in steps {
        let range = match step {
            PartPlan::Keep(part) => {
                parts.push(SavePart::Kept(part));
                continue;
            }
            PartPlan::Write(range) => range,
        };
        for batch in even_batches(range) {
            saving.room().await.map_err(failed)?;
            let Some(p) = placement.upgrade() else {
                return Ok(None);
            };
            parts.push(SavePart::Batch(saving.next_batch()));
            let batch = DocumentBatch::of_placement(saving.next_batch(), &p, batch);
            drop(p);
            saving.send(batch);
            if now() - slice >= SLICE_MS {
                yield_now().await;
                slice = now();
            }
        }
    }
    measure(SERIALIZE_MEASURE, Some(SAVE_START));
    let settings = settings_json(settings, &Layout::default());
    let ended = saving.end(settings, parts, len as u64).await;
    Ok(Some(match ended.map_err(failed)? {
        Ended::Stored { bytes, parts } => {
            let parts = Some(parts);
            Outcome::Saved(bytes as usize, StoredDocuments { mark, len, parts })
        }
        Ended::Outdated => Outcome::Outdated,
    }))
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
        Ok(Some(settings)) => from_settings(&settings, &mut notices, &on_progress, &cancel).await,
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

/// The state of the saved studio whose settings record is `settings` ([`restore`]);
/// records that cannot be used are set aside.
async fn from_settings(
    settings: &str,
    notices: &mut Vec<Notice>,
    on_progress: &Callback<Work>,
    cancel: &CancelToken,
) -> Option<State> {
    let why = match restore::restore(settings, on_progress, cancel).await {
        Restored::State(state) => return Some(state),
        Restored::Cancelled => return Some(without_documents(settings, None, notices)),
        Restored::Stopped(why) => return Some(without_documents(settings, Some(&why), notices)),
        Restored::Failed(why) => why,
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
/// configuration changed: [`store_settings`]); the parts an edit touched when documents
/// were edited ([`plan`]); everything when the documents were made anew (an import, a
/// generation). At 1,000,000 documents a save of every document copies about 1.8 s of
/// sliced work through the page; after a one-ID edit it copies one part.
#[derive(Default)]
pub struct Saver {
    busy: Cell<bool>,
    next: RefCell<Option<Request>>,
    /// The documents IndexedDB holds (a mark, which keeps no placement alive).
    stored: RefCell<Option<StoredDocuments>>,
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
                mark(SAVE_START);
                let settings_only = if saver.holds(&request.placement) {
                    store_settings(&request.settings).await
                } else {
                    Ok(None)
                };
                let saved = match settings_only {
                    Ok(Some(bytes)) => Ok(Some(bytes)),
                    // Not the documents stored last, or no settings record any more
                    // (cleared meanwhile): what changed is saved, or all.
                    Ok(None) => {
                        let base = saver.stored.borrow().clone();
                        let stored = store(&request.settings, &request.placement, base).await;
                        stored.map(|saved| {
                            saved.map(|(bytes, stored)| {
                                *saver.stored.borrow_mut() = Some(stored);
                                bytes
                            })
                        })
                    }
                    Err(e) => Err(e),
                };
                let saved = match saved {
                    // Replaced by an edit: its save follows.
                    Ok(None) => continue,
                    Ok(Some(bytes)) => Ok(bytes),
                    Err(e) => Err(e),
                };
                if saved.is_ok() {
                    measure(SAVE_MEASURE, Some(SAVE_START));
                }
                done.emit(saved);
            }
            saver.busy.set(false);
        });
    }
}
