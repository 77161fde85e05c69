//! The save's engine: writes the workspace's documents to IndexedDB in parts through the
//! save's machinery ([`Saving`]), only what changed since the last save
//! ([`Placement::splices_since`] its documents' mark), and swaps them in with the settings
//! all at once ([`Store`]). It runs where the documents are: in the workspace's host's
//! worker, over the host's placement ([`Documents`]), so that the page copies none of
//! them.

use crate::marks::{measure, SAVE_START, SERIALIZE_MEASURE};
use crate::persist::records::{self, SETTINGS_KEY, STORE};
use crate::persist::{
    even_batches, placement_lines_capacity, plan_parts, read_layout, segments_of, settings_json,
    Layout, PartPlan, PartRef, Saved, Segment, STORAGE_KEY,
};
use crate::workers::save::client::{Ended, SaveError, Saving};
use crate::workers::save::Saves;
use crate::workers::{DocumentBatch, SavePart};
use ravenshard_model::workspace::{kept_runs, DocumentsMark, Placement};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fmt;

/// How long a save copies documents before it gives the event loop back, in milliseconds.
pub const SLICE_MS: f64 = 25.0;

/// Where a save reads the documents: `None` once they are no longer the ones it started
/// from (edited or replaced since `since`, their mark when the save planned): the save
/// stops there, and the next one goes on from what it wrote.
pub trait Documents {
    /// `f` of the documents, if they are still those of `since` (any, when `None`).
    fn read<R>(&self, since: Option<&DocumentsMark>, f: impl FnOnce(&Placement) -> R) -> Option<R>;
}

/// Whether `placement`'s documents are still those of `since` (no splice since, the same
/// journal).
pub fn unchanged_since(placement: &Placement, since: Option<&DocumentsMark>) -> bool {
    since.is_none_or(|mark| placement.splices_since(mark).is_some_and(<[_]>::is_empty))
}
/// Why the browser did not keep or give back the saved studio.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// What IndexedDB holds of the documents after a save ([`Store::save`]): the placement's
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
    /// `placement`'s documents, stored in the parts the settings record names (a restored
    /// studio's).
    pub fn restored(placement: &Placement) -> StoredDocuments {
        StoredDocuments {
            mark: placement.documents_mark(),
            len: placement.len(),
            parts: None,
        }
    }

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
            let kept = |s: Segment<PartRef>| Segment {
                old: s.old,
                part: SavePart::Kept(s.part),
            };
            segments_of(parts).into_iter().map(kept).collect()
        } else {
            Vec::new()
        };
        Base {
            mark: self.mark,
            len: self.len,
            segments,
        }
    }
}

/// What a save starts from: the `len` documents of a moment (`mark`), whose `segments`
/// are stored already (parts of the saved studio) or sent (batches of the save itself).
#[derive(Debug, Clone)]
struct Base {
    mark: DocumentsMark,
    len: usize,
    segments: Vec<Segment<SavePart>>,
}

/// A save stopped by an edit while it sent its batches: its run, and what it stored or
/// sent until then. The next save goes on from it, sending only what the edits since
/// touched or what was not sent yet (at 10,000,000 documents a save takes about 11 s:
/// started again after each edit, it would not end while the user works).
struct Paused {
    saving: Saving,
    /// `None`: the documents were replaced before anything was sent.
    base: Option<Base>,
}

/// What a save of `placement` keeps of `base` and writes anew: after splices since
/// `base`, only what they touched and what `base` lacks ([`plan_parts`]); with no base,
/// or one these documents do not descend from, everything.
fn plan(placement: &Placement, base: Option<&Base>) -> Vec<PartPlan<SavePart>> {
    let known = base.and_then(|b| {
        let runs = kept_runs(b.len, placement.splices_since(&b.mark)?);
        Some(plan_parts(&b.segments, &runs, placement.len()))
    });
    known.unwrap_or_else(|| plan_parts(&[], &[], placement.len()))
}

/// How a save ended.
enum Outcome {
    /// Saved: the bytes stored and what IndexedDB holds.
    Saved(usize, StoredDocuments),
    /// Stopped by an edit; the next save goes on from here.
    Paused(Paused),
}

/// Saves `settings` and the `documents` through the save's machinery ([`Saving`] over
/// `saves`), writing only what changed since `base` (`plan`), going on from `paused` if
/// given, else in a new run under the save generation given (the page's) if any: the
/// documents to write are copied a part at a time ([`even_batches`] of at most
/// [`SAVE_BATCH_DOCUMENTS`](crate::workers::save::client::SAVE_BATCH_DOCUMENTS),
/// [`DocumentBatch::of_placement`]: the IDs' bytes, sizes, collections and bodies), giving
/// the event loop back every [`SLICE_MS`], and the machinery writes them out, stores them
/// and swaps them in with the parts kept (all or nothing). An edit between two batches
/// stops the save ([`Outcome::Paused`]; the edit's save goes on from there). When a part
/// kept is no longer stored (the storage was cleared meanwhile), saves again whole.
///
/// # Errors
///
/// The browser refused to store it, or the save's worker stopped.
async fn store_from(
    settings: &Saved,
    documents: &impl Documents,
    base: Option<StoredDocuments>,
    mut paused: Option<Paused>,
    (saves, mut generation): (&Saves, Option<u64>),
) -> Result<Outcome, StorageError> {
    let mut base = match base {
        Some(b) if b.parts.is_none() && paused.is_none() => Some(StoredDocuments {
            parts: stored_parts().await,
            ..b
        }),
        base => base,
    };
    loop {
        let resumed = paused.is_some();
        let (saving, from) = match paused.take() {
            Some(p) => (p.saving, p.base),
            None => {
                let saving = Saving::new(saves.clone(), generation.take());
                (saving, base.take().map(|b| b.base()))
            }
        };
        match store_plan(settings, documents, saving, from).await {
            // The worker stopped while the save waited (what it held of it is gone): the
            // save starts again, from what IndexedDB holds.
            Err(StorageError::Stopped { .. }) if resumed => continue,
            Err(e) => return Err(e),
            // A part kept was no longer stored, or the worker lost batches: nothing
            // changed; saved again.
            Ok(None) => continue,
            Ok(Some(outcome)) => return Ok(outcome),
        }
    }
}

/// The parts the settings record in IndexedDB names (none if it cannot be read).
async fn stored_parts() -> Option<Vec<PartRef>> {
    let settings = records::read_settings().await.ok()??;
    read_layout(&settings).parts
}

/// The segment a kept step stands for (none for a step that writes).
fn kept(step: &PartPlan<SavePart>) -> Option<Segment<SavePart>> {
    match step {
        PartPlan::Keep { at, part } => Some(Segment {
            old: at.clone(),
            part: *part,
        }),
        PartPlan::Write(_) => None,
    }
}

/// One run of [`store_from`] in `saving` from `base`: `None` when a part it kept was no
/// longer stored.
async fn store_plan(
    settings: &Saved,
    documents: &impl Documents,
    mut saving: Saving,
    base: Option<Base>,
) -> Result<Option<Outcome>, StorageError> {
    let failed = |e: SaveError| match e {
        SaveError::Refused { reason, bytes } => StorageError::Refused {
            // About what would have been stored.
            bytes: documents
                .read(None, |p| {
                    settings_json(settings, &Layout::default()).len() + placement_lines_capacity(p)
                })
                .unwrap_or(bytes as usize),
            reason,
        },
        SaveError::Stopped(said) => StorageError::Stopped { reason: said },
    };
    let planned = documents.read(None, |p| {
        (plan(p, base.as_ref()), p.documents_mark(), p.len())
    });
    let Some((steps, mark, len)) = planned else {
        return Ok(Some(Outcome::Paused(Paused { saving, base })));
    };
    // What is stored or sent, as this mark has it: where a stop goes on from.
    let mut done = Base {
        mark,
        len,
        segments: Vec::with_capacity(steps.len()),
    };
    let mut parts = Vec::with_capacity(steps.len());
    let mut slice = now();
    for (i, step) in steps.iter().enumerate() {
        let range = match step {
            PartPlan::Keep { at, part } => {
                parts.push(*part);
                done.segments.push(Segment {
                    old: at.clone(),
                    part: *part,
                });
                continue;
            }
            PartPlan::Write(range) => range.clone(),
        };
        for batch in even_batches(range) {
            saving.room().await.map_err(failed)?;
            let number = saving.next_batch();
            let copied = documents.read(Some(&mark), |p| {
                DocumentBatch::of_placement(number, p, batch.clone())
            });
            let Some(copied) = copied else {
                // The parts this plan keeps further on are still there to keep.
                done.segments.extend(steps[i + 1..].iter().filter_map(kept));
                let base = Some(done);
                return Ok(Some(Outcome::Paused(Paused { saving, base })));
            };
            saving.send(copied);
            let part = SavePart::Batch(number);
            parts.push(part);
            done.segments.push(Segment { old: batch, part });
            if now() - slice >= SLICE_MS {
                gloo::timers::future::TimeoutFuture::new(0).await;
                slice = now();
            }
        }
    }
    measure(SERIALIZE_MEASURE, Some(SAVE_START));
    let settings = settings_json(settings, &Layout::default());
    let ended = saving.end(settings, parts, len as u64).await;
    Ok(match ended.map_err(failed)? {
        Ended::Stored { bytes, parts } => {
            if let Some(s) = local_storage() {
                let _ = s.remove_item(STORAGE_KEY);
            }
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
    let db = records::open().await.map_err(refused)?;
    let written = async {
        let tx = db
            .transaction(&[STORE], rexie::TransactionMode::ReadWrite)
            .map_err(records::reason)?;
        let store = tx.store(STORE).map_err(records::reason)?;
        let key = wasm_bindgen::JsValue::from_str(SETTINGS_KEY);
        let Some(current) = store.get(key.clone()).await.map_err(records::reason)? else {
            return Ok(None);
        };
        let text = settings_json(settings, &read_layout(&records::from_bytes(current)?));
        store
            .put(&records::to_bytes(&text), Some(&key))
            .await
            .map_err(records::reason)?;
        records::commit(tx).await?;
        Ok(Some(text.len()))
    }
    .await;
    db.close();
    written.map_err(refused)
}

/// Milliseconds now (the page's or the worker's clock; a slice's length).
fn now() -> f64 {
    js_sys::Date::now()
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Saves one after the other, each writing what changed since the last: nothing but the
/// settings record when the documents are the same (only the tab, a view or the
/// configuration changed: `store_settings`); the parts an edit touched when documents were
/// edited (`plan`); everything otherwise (a job's workspace, a paste). A save an edit
/// stops is not started again: the edit's save goes on in the same run.
pub struct Store {
    saves: Saves,
    /// The documents IndexedDB holds (a mark, which keeps no placement alive).
    stored: RefCell<Option<StoredDocuments>>,
    /// A save an edit stopped, which the next save goes on from.
    paused: RefCell<Option<Paused>>,
}

impl Store {
    /// Saves through `saves`; what IndexedDB holds is known from the first save, or from a
    /// restore ([`Store::restored`]).
    pub fn new(saves: Saves) -> Store {
        Store {
            saves,
            stored: RefCell::new(None),
            paused: RefCell::new(None),
        }
    }

    /// IndexedDB holds the documents `placement` holds now (a restored studio's).
    pub fn restored(&self, placement: &Placement) {
        *self.stored.borrow_mut() = Some(StoredDocuments::restored(placement));
        *self.paused.borrow_mut() = None;
    }

    /// Whether IndexedDB holds the `documents` as they are now.
    fn holds(&self, documents: &impl Documents) -> bool {
        let stored = self.stored.borrow();
        let Some(stored) = stored.as_ref() else {
            return false;
        };
        let same = |p: &Placement| p.splices_since(&stored.mark).is_some_and(<[_]>::is_empty);
        documents.read(None, same).unwrap_or(false)
    }

    /// One save of `settings` and `documents`: the settings alone when IndexedDB holds the
    /// documents, else what changed (going on from a save an edit stopped, else in a new
    /// run under `generation` if given: the page's, which outlives this worker, so that a
    /// later save's end counts the parts as this tab's); `None` when an edit stopped it.
    pub async fn save(
        &self,
        settings: &Saved,
        documents: &impl Documents,
        generation: Option<u64>,
    ) -> Option<Result<usize, StorageError>> {
        let paused = self.paused.borrow_mut().take();
        if paused.is_none() && self.holds(documents) {
            match store_settings(settings).await {
                Ok(Some(bytes)) => return Some(Ok(bytes)),
                // No settings record any more (cleared meanwhile): saved whole.
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
        }
        let base = self.stored.borrow().clone();
        let saves = (&self.saves, generation);
        match store_from(settings, documents, base, paused, saves).await {
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
