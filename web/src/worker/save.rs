//! The save's side of the worker: the page sends the placement's documents in batches
//! ([`Request::SaveBatch`]); the worker writes them out in parts ([`write_documents`]) and
//! stores each part, in a transaction of its own, under the keys of a new save
//! ([`layout_part_key`]: beside the parts in force, which a reload still reads); at
//! [`Request::SaveEnd`] one transaction stores the settings with the new parts' layout and
//! removes every other part, so that the saved studio changes all at once or not at all.
//! Parts of a save that never ended (the page left, or started a newer save) are removed
//! by the next save's end.
//!
//! The requests are handled one after the other, in the order they came ([`Saves`]).

use super::batch::DocumentBatch;
use super::protocol::{Reply, Request};
use super::run::StudioWorker;
use super::saved::{self, commit, layout_part_key, part_keys_but, reason, to_bytes};
use super::saved::{DOCUMENTS_KEY, SETTINGS_KEY, STORE};
use crate::state::{part_len, read_saved, settings_json, write_documents, Layout};
use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use gloo::worker::{HandlerId, WorkerScope};
use rexie::{Rexie, TransactionMode};
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
                if save.layout.document_parts == Some(0) && batch.number > 0 {
                    // A worker started again during the save: the first batches are lost.
                    let why = "the studio's worker was restarted during the save";
                    save.failed.get_or_insert_with(|| why.to_string());
                }
                let batches = batch.number + 1;
                save.write(batch).await;
                scope.respond(id, Reply::SaveWritten { run, batches });
            }
            Request::SaveEnd { run, settings } => {
                let save = match current.take() {
                    Some(save) if save.run == run => save,
                    // A save of no documents sends no batch.
                    _ => SaveRun::new(run),
                };
                scope.respond(id, save.finish(&settings).await);
            }
            _ => {}
        }
    }
}

/// A save being written: the parts stored so far, under its generation's keys.
struct SaveRun {
    run: u64,
    db: Option<Rexie>,
    layout: Layout,
    generation: u64,
    bytes: u64,
    /// Why it cannot be stored (then nothing more is written).
    failed: Option<String>,
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
        let generation = next_generation();
        SaveRun {
            run,
            db: None,
            layout: Layout {
                document_parts: Some(0),
                generation: Some(generation),
                ..Layout::default()
            },
            generation,
            bytes: 0,
            failed: None,
        }
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
        let mut rest = documents.as_slice();
        while !rest.is_empty() {
            let (part, after) = rest.split_at(part_len(rest));
            rest = after;
            let layout = &mut self.layout;
            layout.document_count += part.len();
            layout.id_bytes += part.iter().map(|d| d.id.len()).sum::<usize>();
            let bodies = part.iter().filter_map(|d| d.body.as_ref());
            layout.bodies += bodies.clone().count();
            layout.body_bytes += bodies.map(String::len).sum::<usize>();
            let text = write_documents(part);
            self.bytes += text.len() as u64;
            let index = layout.document_parts.unwrap_or(0);
            layout.document_parts = Some(index + 1);
            records.push((layout_part_key(Some(self.generation), index), text));
        }
        drop(documents);
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

    /// Stores `settings` with the parts' layout and removes every other part, in one
    /// transaction.
    async fn finish(mut self, settings: &str) -> Reply {
        let run = self.run;
        let result = match self.failed.take() {
            Some(why) => Err(why),
            None => self.swap(settings).await,
        };
        if let Some(db) = self.db.take() {
            db.close();
        }
        match result {
            Ok(bytes) => Reply::Saved { run, bytes },
            Err(message) => Reply::SaveFailed {
                run,
                message,
                bytes: self.bytes,
            },
        }
    }

    async fn swap(&mut self, settings: &str) -> Result<u64, String> {
        let settings = settings_json(&read_saved(settings)?, self.layout);
        let db = self.db().await?;
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadWrite)
            .map_err(reason)?;
        let store = tx.store(STORE).map_err(reason)?;
        for range in part_keys_but(self.generation)? {
            store.delete(range.into()).await.map_err(reason)?;
        }
        store.delete(DOCUMENTS_KEY.into()).await.map_err(reason)?;
        let key = JsValue::from_str(SETTINGS_KEY);
        store
            .put(&to_bytes(&settings), Some(&key))
            .await
            .map_err(reason)?;
        commit(tx).await?;
        Ok(self.bytes + settings.len() as u64)
    }
}
