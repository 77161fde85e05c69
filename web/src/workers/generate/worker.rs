//! The generation's side of the worker: makes a [`Generator`]'s documents a batch at a time
//! ([`Generator::documents_iter`]) and sends them to the page as an import's are
//! ([`Sender`]: never more than [`BATCHES_AHEAD`](super::BATCHES_AHEAD) ahead of the page's
//! placing), so that making and placing overlap and the page's thread only places.
//!
//! [`Generator`]: ravenshard_model::sample::Generator

use crate::workers::import::worker::Sender;
use crate::workers::protocol::{GenerateRequest, Reply};
use crate::workers::run::StudioWorker;
use gloo::worker::{HandlerId, WorkerScope};
use ravenshard_model::batch::{Read, BATCH_DOCUMENTS};
use ravenshard_model::workspace::Document;
use std::cell::Cell;

/// Makes the documents and sends them; [`Reply::Generated`] when all were sent, or why the
/// generator's settings cannot be used ([`Reply::Failed`]).
pub(crate) async fn generate(
    scope: &WorkerScope<StudioWorker>,
    id: HandlerId,
    request: GenerateRequest,
    placed: &Cell<(u64, u64)>,
) -> Reply {
    let run = request.run;
    let mut made = match request.generator.documents_iter() {
        Ok(made) => made,
        Err(e) => {
            let message = e.to_string();
            return Reply::Failed { run, message };
        }
    };
    let mut sender = Sender::new(scope, id, run, placed);
    let mut chunk: Vec<Document> = Vec::with_capacity(BATCH_DOCUMENTS);
    // A generation's "bytes" are the documents made: the page's fraction is of the count.
    let mut read = Read::default();
    loop {
        chunk.clear();
        chunk.extend(made.by_ref().take(BATCH_DOCUMENTS));
        if chunk.is_empty() {
            break;
        }
        read.bytes = made.made() as u64;
        read.documents = read.bytes;
        read.id_bytes += chunk.iter().map(|d| d.id.len() as u64).sum::<u64>();
        sender.send(&chunk, read).await;
    }
    Reply::Generated {
        run,
        documents: sender.documents(),
    }
}
