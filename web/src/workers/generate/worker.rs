//! The generation's side of the worker: makes a [`Generator`]'s documents a batch at a time
//! ([`Generator::documents_iter`]) and sends them to the page as an import's are
//! ([`Sender`]: never more than [`BATCHES_AHEAD`](super::BATCHES_AHEAD) ahead of the page's
//! placing), so that making and placing overlap and the page's thread only places.
//!
//! [`Generator`]: ravenshard_model::sample::Generator

use crate::workers::generate::protocol::GenerateRequest;
use crate::workers::import::protocol::ReadingReply;
use crate::workers::import::worker::Reader;
use crate::workers::import::worker::Sender;
use crate::workers::transport::Scope;
use gloo::worker::HandlerId;
use ravenshard_model::batch::{Read, BATCH_DOCUMENTS};
use ravenshard_model::workspace::Document;
use std::cell::Cell;

/// Makes the documents and sends them; [`ReadingReply::Generated`] when all were sent, or why the
/// generator's settings cannot be used ([`ReadingReply::Failed`]).
pub(crate) async fn generate(
    scope: &Scope<Reader>,
    id: HandlerId,
    request: GenerateRequest,
    placed: &Cell<(u64, u64)>,
) -> ReadingReply {
    let run = request.run;
    let mut made = match request.generator.documents_iter() {
        Ok(made) => made,
        Err(e) => {
            let message = e.to_string();
            return ReadingReply::Failed { run, message };
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
    ReadingReply::Generated {
        run,
        documents: sender.documents(),
    }
}
