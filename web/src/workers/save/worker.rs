//! The save's machinery in the host's worker: a save sends the documents it writes in batches
//! ([`SaveRequest::Batch`]: all of them, or after an edit only those outside the stored
//! parts it keeps); the worker writes them out in parts ([`PartRef::write`]) and stores
//! each part, in a transaction of its own, under the keys of a new save
//! ([`PartRef::key`]: beside the parts in force, which a reload still reads); at
//! [`SaveRequest::End`] one transaction checks that the parts kept are still stored,
//! stores the settings with the layout of the parts kept and written, in order, and
//! removes every part that layout does not name, so that the saved studio changes all at
//! once or not at all. Several saves may be open at once (a save an edit stopped, and a
//! newer one): a save's end keeps the parts of the other saves still open. Parts of a
//! save the page dropped ([`SaveRequest::Drop`]), or of one that never ended (a tab closed,
//! a page left), are removed at the first save's end after that: only the tab holding the
//! writer's lock saves ([`Writer`](crate::state::Writer)), so no other tab's save is in
//! progress beside this one.
//!
//! The requests are handled one after the other, in the order they came ([`Saves`]).

use crate::persist::records::{self, commit, part_key_range, reason, to_bytes};
use crate::persist::records::{generation_key_range, generation_prefix};
use crate::persist::records::{DOCUMENTS_KEY, SETTINGS_KEY, STORE};
use crate::persist::writer::PartWriter;
use crate::persist::{read_layout, read_saved, settings_json};
use crate::persist::{Layout, PartRef};
use crate::workers::save::protocol::{SavePart, SaveReply, SaveRequest};
use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use ravenshard_model::batch::DocumentBatch;
use rexie::{Rexie, TransactionMode};
use std::collections::HashSet;
use wasm_bindgen::JsValue;

/// Where the worker queues the save's requests: a task handles them in order, each
/// reply to the queue its request came with.
#[derive(Clone)]
pub struct Saves {
    queue: UnboundedSender<(UnboundedSender<SaveReply>, SaveRequest)>,
}

impl Saves {
    /// Starts the task that handles the save's requests in this worker (the host's
    /// saves).
    pub(crate) fn local() -> Saves {
        let (queue, requests) = unbounded();
        wasm_bindgen_futures::spawn_local(handle(requests));
        Saves { queue }
    }

    /// Queues `request` from a save in this worker, whose replies go to `replies`.
    pub(crate) fn push_local(&self, request: SaveRequest, replies: UnboundedSender<SaveReply>) {
        let _ = self.queue.unbounded_send((replies, request));
    }
}

/// The most save runs the worker keeps open: past it, the oldest is dropped (its page
/// should have ended or dropped it; a page does not run more than two at once).
const MAX_OPEN: usize = 8;

/// What the save's worker keeps apart from any save's end: the runs open, oldest first.
struct Open {
    runs: Vec<SaveRun>,
}

impl Open {
    /// The run `run` (of the save `generation`), opened if new.
    async fn get(&mut self, run: u64, generation: u64) -> &mut SaveRun {
        let at = match self.runs.iter().position(|s| s.run == run) {
            Some(at) => at,
            None => {
                if self.runs.len() >= MAX_OPEN {
                    self.runs.remove(0).drop_parts().await;
                }
                self.runs.push(SaveRun::new(run, generation));
                self.runs.len() - 1
            }
        };
        &mut self.runs[at]
    }

    /// Writes the batch `number` of the run `run` (of the save `generation`), its
    /// documents from `source`: what to answer the page.
    async fn write(
        &mut self,
        run: u64,
        generation: u64,
        number: u64,
        batch: DocumentBatch,
    ) -> SaveReply {
        self.get(run, generation).await.write(number, batch).await;
        SaveReply::Written {
            run,
            batches: number + 1,
        }
    }

    /// The run `run`, no longer open.
    fn take(&mut self, run: u64) -> Option<SaveRun> {
        let at = self.runs.iter().position(|s| s.run == run)?;
        Some(self.runs.remove(at))
    }

    /// The generations whose parts no save's end removes: the open runs'.
    fn generations(&self) -> Vec<u64> {
        self.runs.iter().map(|s| s.writer.generation()).collect()
    }
}

async fn handle(mut requests: UnboundedReceiver<(UnboundedSender<SaveReply>, SaveRequest)>) {
    let mut open = Open { runs: Vec::new() };
    while let Some((replies, request)) = requests.next().await {
        let respond = |reply| {
            let _ = replies.unbounded_send(reply);
        };
        match request {
            SaveRequest::Batch {
                run,
                generation,
                batch,
            } => {
                let number = batch.number;
                respond(open.write(run, generation, number, batch).await);
            }
            SaveRequest::End {
                run,
                generation,
                settings,
                parts,
                documents,
            } => {
                // A save that writes no documents sends no batch.
                let save = open
                    .take(run)
                    .unwrap_or_else(|| SaveRun::new(run, generation));
                let end = End {
                    settings: &settings,
                    order: &parts,
                    documents,
                };
                let reply = save.finish(&end, &open).await;
                respond(reply);
            }
            SaveRequest::Drop { run } => {
                if let Some(save) = open.take(run) {
                    save.drop_parts().await;
                }
            }
        }
    }
}

/// What a save's end ([`SaveRequest::End`]) asks.
struct End<'a> {
    /// The settings record, without the layout.
    settings: &'a str,
    /// The documents' parts, in order.
    order: &'a [SavePart],
    /// How many documents they hold in all.
    documents: u64,
}

/// A save being written: the parts stored so far, under its generation's keys.
struct SaveRun {
    run: u64,
    writer: PartWriter,
    /// The parts written of each batch, by the batch's number.
    written: Vec<Vec<PartRef>>,
    /// Why it cannot be stored (then nothing more is written).
    failed: Option<String>,
    /// Whether batches of it are missing (the worker was started again during it).
    lost: bool,
}

/// How a save's end went.
enum Swapped {
    /// Stored: the bytes of the saved studio, and its parts.
    Stored(u64, Vec<PartRef>),
    /// A part kept is no longer stored: nothing changed.
    Outdated,
}

impl SaveRun {
    fn new(run: u64, generation: u64) -> SaveRun {
        SaveRun {
            run,
            writer: PartWriter::new(generation),
            written: Vec::new(),
            failed: None,
            lost: false,
        }
    }

    /// The bytes written out so far.
    fn bytes(&self) -> u64 {
        self.written.iter().flatten().map(|p| p.bytes).sum()
    }

    /// Whether the batch `number` is to be written: the run neither failed nor lost a
    /// batch (a number other than the next one: a worker started again during the save lost
    /// the first ones).
    fn writes(&mut self, number: u64) -> bool {
        if number != self.written.len() as u64 {
            self.lost = true;
        }
        self.failed.is_none() && !self.lost
    }

    /// Writes the batch `number`'s documents out in parts and stores them, in one
    /// transaction (or notes why it cannot); nothing when the run does not write it
    /// ([`SaveRun::writes`]).
    async fn write(&mut self, number: u64, batch: DocumentBatch) {
        if !self.writes(number) {
            return;
        }
        let written = match batch.into_documents() {
            Ok(documents) => self.writer.write(&documents).await,
            Err(e) => Err(e.to_string()),
        };
        match written {
            Ok(parts) => self.written.push(parts),
            Err(e) => self.failed = Some(e),
        }
    }

    /// Stores the end's settings with the layout of its order and removes every other
    /// part but those of the other runs `open`, in one transaction.
    async fn finish(mut self, end: &End<'_>, open: &Open) -> SaveReply {
        let run = self.run;
        let result = match self.failed.take() {
            Some(why) => Err(why),
            None if self.lost => Ok(Swapped::Outdated),
            None => self.swap(end, open).await,
        };
        self.writer.close();
        match result {
            Ok(Swapped::Stored(bytes, parts)) => SaveReply::Saved { run, bytes, parts },
            Ok(Swapped::Outdated) => SaveReply::Outdated { run },
            Err(message) => SaveReply::Failed {
                run,
                message,
                bytes: self.bytes(),
            },
        }
    }

    /// The parts of `order`: the ones kept or written by a job, and the ones written of
    /// each batch. `None`: a batch never reached this worker (it was started again during
    /// the save).
    fn parts_of(&self, order: &[SavePart]) -> Option<Vec<PartRef>> {
        let mut parts = Vec::with_capacity(order.len());
        for step in order {
            match step {
                SavePart::Kept(part) => parts.push(*part),
                SavePart::Batch(n) => parts.extend(self.written.get(*n as usize)?),
            }
        }
        Some(parts)
    }

    async fn swap(&mut self, end: &End<'_>, open: &Open) -> Result<Swapped, String> {
        let (order, documents) = (end.order, end.documents);
        let Some(parts) = self.parts_of(order) else {
            return Ok(Swapped::Outdated);
        };
        let held: u64 = parts.iter().map(|p| u64::from(p.documents)).sum();
        if held != documents {
            return Err(format!(
                "the save's parts hold {held} documents, not the studio's {documents} (a fault \
                 of the studio: the save in force is kept)"
            ));
        }
        let keys: HashSet<String> = parts.iter().map(PartRef::key).collect();
        let layout = Layout::of_parts(self.writer.generation(), parts);
        let settings = settings_json(&read_saved(end.settings)?, &layout);
        let db = self.writer.db().await?;
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadWrite)
            .map_err(reason)?;
        let store = tx.store(STORE).map_err(reason)?;
        let settings_key = JsValue::from_str(SETTINGS_KEY);
        let stored_keys = store
            .get_all_keys(Some(part_key_range()?), None)
            .await
            .map_err(reason)?;
        let in_force = parts_in_force(&store).await?;
        // Every part the layout names must be stored: the storage was cleared meanwhile, or
        // a tab that wrote before this one got the lock removed them.
        let present: HashSet<String> = stored_keys.iter().filter_map(JsValue::as_string).collect();
        if !still_stored(order, &in_force) || !keys.iter().all(|k| present.contains(k)) {
            // Nothing written: the transaction ends without a change.
            commit(tx).await?;
            return Ok(Swapped::Outdated);
        }
        // Read once the keys are: a job kept meanwhile has its parts kept too.
        let open: Vec<String> = (open.generations().into_iter())
            .map(generation_prefix)
            .collect();
        for key in stored_keys {
            let kept = key.as_string().is_some_and(|k| {
                keys.contains(&k) || open.iter().any(|prefix| k.starts_with(prefix))
            });
            if !kept {
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

    /// Removes the parts this save wrote (it will not end), in one transaction; a part
    /// that cannot be removed now is removed by the next save's end.
    async fn drop_parts(mut self) {
        if self.writer.wrote() {
            let generation = self.writer.generation();
            if let Ok(db) = self.writer.db().await {
                let _ = delete_generation(db, generation, false).await;
            }
        }
    }
}

/// Whether the stored parts `order` keeps are all in the layout in force, `in_force`
/// (else another tab saved, or the storage was cleared, since the save planned).
fn still_stored(order: &[SavePart], in_force: &[PartRef]) -> bool {
    order.iter().all(|step| match step {
        SavePart::Kept(part) => in_force.contains(part),
        SavePart::Batch(_) => true,
    })
}

/// The parts the layout of the settings in force names (none without settings), read in
/// `store`'s transaction.
async fn parts_in_force(store: &rexie::Store) -> Result<Vec<PartRef>, String> {
    let settings = records::read(store, SETTINGS_KEY).await?;
    Ok(settings
        .and_then(|s| read_layout(&s).parts)
        .unwrap_or_default())
}

/// Removes every part the save `generation` wrote, but (`keep_named`) those the layout in
/// force names, in one transaction.
async fn delete_generation(db: &Rexie, generation: u64, keep_named: bool) -> Result<(), String> {
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadWrite)
        .map_err(reason)?;
    let store = tx.store(STORE).map_err(reason)?;
    let named: HashSet<String> = if keep_named {
        let parts = parts_in_force(&store).await?;
        parts.iter().map(PartRef::key).collect()
    } else {
        HashSet::new()
    };
    let range = generation_key_range(generation)?;
    let keys = store
        .get_all_keys(Some(range), None)
        .await
        .map_err(reason)?;
    for key in keys {
        if !key.as_string().is_some_and(|k| named.contains(&k)) {
            store.delete(key).await.map_err(reason)?;
        }
    }
    commit(tx).await
}
