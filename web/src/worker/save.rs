//! The save's side of the worker: the page sends the documents the save writes in batches
//! ([`Request::SaveBatch`]: all of them, or after an edit only those outside the stored
//! parts it keeps); the worker writes them out in parts ([`PartRef::write`]) and stores
//! each part, in a transaction of its own, under the keys of a new save
//! ([`PartRef::key`]: beside the parts in force, which a reload still reads); at
//! [`Request::SaveEnd`] one transaction checks that the parts kept are still stored,
//! stores the settings with the layout of the parts kept and written, in order, and
//! removes every part that layout does not name, so that the saved studio changes all at
//! once or not at all. Parts of a save that never ended (the page left, or started a newer
//! save) are removed by the next save's end.
//!
//! The requests are handled one after the other, in the order they came ([`Saves`]).

use super::batch::DocumentBatch;
use super::protocol::{Reply, Request, SavePart};
use super::run::StudioWorker;
use super::saved::{self, commit, from_bytes, part_key_range, reason, to_bytes};
use super::saved::{DOCUMENTS_KEY, SETTINGS_KEY, STORE};
use crate::state::{even_parts, read_layout, read_saved, settings_json};
use crate::state::{Layout, PartRef};
use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use gloo::worker::{HandlerId, WorkerScope};
use rexie::{Rexie, TransactionMode};
use std::collections::HashSet;
use wasm_bindgen::JsValue;

/// Where the worker queues the save's requests: a task handles them in order.
pub(super) struct Saves {
    queue: UnboundedSender<(HandlerId, Request)>,
}

impl Saves {
    /// Starts the task that handles the save's requests.
    pub(super) fn start(scope: &WorkerScope<StudioWorker>) -> Saves {
        let (queue, requests) = unbounded();
        wasm_bindgen_futures::spawn_local(handle(scope.clone(), requests));
        Saves { queue }
    }

    /// Queues `request` from `id`.
    pub(super) fn push(&self, id: HandlerId, request: Request) {
        let _ = self.queue.unbounded_send((id, request));
    }
}

async fn handle(
    scope: WorkerScope<StudioWorker>,
    mut requests: UnboundedReceiver<(HandlerId, Request)>,
) {
    let mut current: Option<SaveRun> = None;
    while let Some((id, request)) = requests.next().await {
        match request {
            Request::SaveBatch { run, batch } => {
                let save = match current.take() {
                    Some(save) if save.run == run => current.insert(save),
                    _ => current.insert(SaveRun::new(run)),
                };
                if batch.number != save.written.len() as u64 && save.failed.is_none() {
                    // A worker started again during the save: the first batches are lost.
                    let why = "the studio's worker was restarted during the save";
                    save.failed.get_or_insert_with(|| why.to_string());
                }
                let batches = batch.number + 1;
                save.write(batch).await;
                scope.respond(id, Reply::SaveWritten { run, batches });
            }
            Request::SaveEnd {
                run,
                settings,
                parts,
                documents,
            } => {
                let save = match current.take() {
                    Some(save) if save.run == run => save,
                    // A save that writes no documents sends no batch.
                    _ => SaveRun::new(run),
                };
                scope.respond(id, save.finish(&settings, &parts, documents).await);
            }
            _ => {}
        }
    }
}

/// A save being written: the parts stored so far, under its generation's keys.
struct SaveRun {
    run: u64,
    db: Option<Rexie>,
    generation: u64,
    /// The parts written of each batch, by the batch's number.
    written: Vec<Vec<PartRef>>,
    /// The index of the next part written.
    next_index: u32,
    /// Why it cannot be stored (then nothing more is written).
    failed: Option<String>,
}

/// How a save's end went.
enum Swapped {
    /// Stored: the bytes of the saved studio, and its parts.
    Stored(u64, Vec<PartRef>),
    /// A part kept is no longer stored: nothing changed.
    Outdated,
}

thread_local! {
    /// The last generation a save of this worker used.
    static LAST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A generation for a new save: the time in milliseconds (later than the one in force,
/// written by an earlier visit), and always more than the last one of this worker.
fn next_generation() -> u64 {
    let now = js_sys::Date::now().max(0.0) as u64;
    LAST.with(|last| {
        let generation = now.max(last.get() + 1);
        last.set(generation);
        generation
    })
}

impl SaveRun {
    fn new(run: u64) -> SaveRun {
        SaveRun {
            run,
            db: None,
            generation: next_generation(),
            written: Vec::new(),
            next_index: 0,
            failed: None,
        }
    }

    /// The bytes written out so far.
    fn bytes(&self) -> u64 {
        self.written.iter().flatten().map(|p| p.bytes).sum()
    }

    /// Writes `batch`'s documents out in parts and stores them, in one transaction.
    async fn write(&mut self, batch: DocumentBatch) {
        if self.failed.is_some() {
            return;
        }
        let documents = match batch.into_documents() {
            Ok(documents) => documents,
            Err(e) => return self.failed = Some(e.to_string()),
        };
        let mut records: Vec<(String, String)> = Vec::new();
        let mut parts = Vec::new();
        for range in even_parts(&documents) {
            let (part, text) = PartRef::write(self.generation, self.next_index, &documents[range]);
            self.next_index += 1;
            records.push((part.key(), text));
            parts.push(part);
        }
        drop(documents);
        self.written.push(parts);
        if let Err(e) = self.put(&records).await {
            self.failed = Some(e);
        }
    }

    /// The database, opened at the first record stored.
    async fn db(&mut self) -> Result<&Rexie, String> {
        if self.db.is_none() {
            self.db = Some(saved::open().await?);
        }
        self.db
            .as_ref()
            .ok_or_else(|| "the browser could not open the database".to_string())
    }

    /// Stores `records` (key, text) in one transaction.
    async fn put(&mut self, records: &[(String, String)]) -> Result<(), String> {
        let db = self.db().await?;
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadWrite)
            .map_err(reason)?;
        let store = tx.store(STORE).map_err(reason)?;
        for (key, text) in records {
            let key = JsValue::from_str(key);
            store
                .put(&to_bytes(text), Some(&key))
                .await
                .map_err(reason)?;
        }
        commit(tx).await
    }

    /// Stores `settings` with the layout of `order` (which must hold `documents`) and
    /// removes every other part, in one transaction.
    async fn finish(mut self, settings: &str, order: &[SavePart], documents: u64) -> Reply {
        let run = self.run;
        let result = match self.failed.take() {
            Some(why) => Err(why),
            None => self.swap(settings, order, documents).await,
        };
        if let Some(db) = self.db.take() {
            db.close();
        }
        match result {
            Ok(Swapped::Stored(bytes, parts)) => Reply::Saved { run, bytes, parts },
            Ok(Swapped::Outdated) => Reply::SaveOutdated { run },
            Err(message) => Reply::SaveFailed {
                run,
                message,
                bytes: self.bytes(),
            },
        }
    }

    /// The parts of `order`: the ones kept, and the ones written of each batch.
    fn parts_of(&self, order: &[SavePart]) -> Result<Vec<PartRef>, String> {
        let mut parts = Vec::with_capacity(order.len());
        for step in order {
            match step {
                SavePart::Kept(part) => parts.push(*part),
                SavePart::Batch(n) => parts.extend(
                    self.written
                        .get(*n as usize)
                        .ok_or_else(|| format!("the save's batch {n} never reached its worker"))?,
                ),
            }
        }
        Ok(parts)
    }

    async fn swap(
        &mut self,
        settings: &str,
        order: &[SavePart],
        documents: u64,
    ) -> Result<Swapped, String> {
        let parts = self.parts_of(order)?;
        let held: u64 = parts.iter().map(|p| u64::from(p.documents)).sum();
        if held != documents {
            return Err(format!(
                "the save's parts hold {held} documents, not the studio's {documents} (a fault \
                 of the studio: the save in force is kept)"
            ));
        }
        let kept: Vec<&PartRef> = order
            .iter()
            .filter_map(|s| match s {
                SavePart::Kept(part) => Some(part),
                SavePart::Batch(_) => None,
            })
            .collect();
        let keys: HashSet<String> = parts.iter().map(PartRef::key).collect();
        let layout = Layout::of_parts(self.generation, parts);
        let settings = settings_json(&read_saved(settings)?, &layout);
        let db = self.db().await?;
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadWrite)
            .map_err(reason)?;
        let store = tx.store(STORE).map_err(reason)?;
        let settings_key = JsValue::from_str(SETTINGS_KEY);
        if !kept.is_empty() {
            let stored = match store.get(settings_key.clone()).await.map_err(reason)? {
                Some(value) => read_layout(&from_bytes(value)?).parts.unwrap_or_default(),
                None => Vec::new(),
            };
            if kept.iter().any(|part| !stored.contains(part)) {
                // Nothing written: the transaction ends without a change.
                commit(tx).await?;
                return Ok(Swapped::Outdated);
            }
        }
        let stored_keys = store
            .get_all_keys(Some(part_key_range()?), None)
            .await
            .map_err(reason)?;
        for key in stored_keys {
            if !key.as_string().is_some_and(|k| keys.contains(&k)) {
                store.delete(key).await.map_err(reason)?;
            }
        }
        store.delete(DOCUMENTS_KEY.into()).await.map_err(reason)?;
        store
            .put(&to_bytes(&settings), Some(&settings_key))
            .await
            .map_err(reason)?;
        commit(tx).await?;
        let parts = layout.parts.unwrap_or_default();
        let bytes = parts.iter().map(|p| p.bytes).sum::<u64>() + settings.len() as u64;
        Ok(Swapped::Stored(bytes, parts))
    }
}
