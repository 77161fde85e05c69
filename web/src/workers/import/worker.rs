//! The import's side of the worker: reads a file from its blob URL in chunks, inflates and
//! parses it ([`Importer`], keeping only the fields the page named), and sends the documents
//! to the page in [`DocumentBatch`]es, never more than [`BATCHES_AHEAD`] ahead of the page's
//! placing.

use crate::workers::import::protocol::{
    ImportRequest, ReadingReply, ReadingRequest, BATCHES_AHEAD,
};
use crate::workers::progress::{Chunks, Reporter, Stage};
use crate::workers::transport::{Channel, Role, Scope};
use gloo::worker::HandlerId;
use ravenshard_import::{FieldPaths, Format, Importer, DETECT_BYTES};
use ravenshard_model::batch::{DocumentBatch, Read, BATCH_DOCUMENTS};
use ravenshard_model::workspace::Document;
use std::cell::Cell;
use std::rc::Rc;

/// How long the worker waits before looking again whether the page placed enough batches.
const WAIT_MS: u32 = 2;

/// The worker of a job that makes a workspace (an import, a generation, a restore): it
/// holds how many batches of its run the page placed.
#[derive(Default)]
pub struct Reader {
    /// `(run, batches)` the page said it placed.
    placed: Rc<Cell<(u64, u64)>>,
}

impl Role for Reader {
    type Request = ReadingRequest;
    type Reply = ReadingReply;
    const CHANNEL: Channel = Channel::Import;

    fn start(_scope: &Scope<Self>) -> Self {
        Self::default()
    }

    fn received(&mut self, scope: &Scope<Self>, request: ReadingRequest, id: HandlerId) {
        let (scope, placed) = (scope.clone(), Rc::clone(&self.placed));
        match request {
            ReadingRequest::Placed { run, batches } => placed.set((run, batches)),
            ReadingRequest::Import(request) => wasm_bindgen_futures::spawn_local(async move {
                let reply = import(&scope, id, request, &placed).await;
                scope.respond(id, reply);
            }),
            ReadingRequest::Generate(request) => wasm_bindgen_futures::spawn_local(async move {
                let reply =
                    crate::workers::generate::worker::generate(&scope, id, request, &placed).await;
                scope.respond(id, reply);
            }),
            ReadingRequest::Restore(request) => wasm_bindgen_futures::spawn_local(async move {
                let reply =
                    crate::workers::restore::worker::restore(&scope, id, request, &placed).await;
                scope.respond(id, reply);
            }),
        }
    }
}

/// Where the batches of an import or a generation go, and how far the page placed them.
pub(crate) struct Sender<'s> {
    scope: &'s Scope<Reader>,
    id: HandlerId,
    run: u64,
    /// `(run, batches)` the page said it placed.
    placed: &'s Cell<(u64, u64)>,
    sent: u64,
    documents: u64,
}

impl<'s> Sender<'s> {
    /// Sends `run`'s batches to `id`; `placed` is what the page said it placed.
    pub(crate) fn new(
        scope: &'s Scope<Reader>,
        id: HandlerId,
        run: u64,
        placed: &'s Cell<(u64, u64)>,
    ) -> Sender<'s> {
        Sender {
            scope,
            id,
            run,
            placed,
            sent: 0,
            documents: 0,
        }
    }

    /// How many documents it sent.
    pub(crate) fn documents(&self) -> u64 {
        self.documents
    }

    /// Sends `documents` in batches, each once the page placed all but
    /// [`BATCHES_AHEAD`] of those sent before.
    pub(crate) async fn send(&mut self, documents: &[Document], read: Read) {
        for part in documents.chunks(BATCH_DOCUMENTS) {
            while self.sent >= self.placed_batches() + BATCHES_AHEAD {
                gloo::timers::future::TimeoutFuture::new(WAIT_MS).await;
            }
            let (run, number) = (self.run, self.sent);
            let batch = DocumentBatch::of(number, part, read);
            self.sent += 1;
            self.documents += part.len() as u64;
            self.scope
                .respond(self.id, ReadingReply::Batch { run, batch });
        }
    }

    fn placed_batches(&self) -> u64 {
        match self.placed.get() {
            (run, batches) if run == self.run => batches,
            _ => 0,
        }
    }
}

/// Reads the file and sends its documents; the summary ([`ReadingReply::Imported`]) or why the
/// file cannot be read (its location and the format it was read as).
pub(crate) async fn import(
    scope: &Scope<Reader>,
    id: HandlerId,
    request: ImportRequest,
    placed: &Cell<(u64, u64)>,
) -> ReadingReply {
    let run = request.run;
    match read(scope, id, &request, placed).await {
        Ok(reply) => reply,
        Err(message) => ReadingReply::Failed { run, message },
    }
}

async fn read(
    scope: &Scope<Reader>,
    id: HandlerId,
    request: &ImportRequest,
    placed: &Cell<(u64, u64)>,
) -> Result<ReadingReply, String> {
    let chunks = Chunks::open(&request.url).await?;
    let (head, ended) = first_bytes(&chunks).await?;
    let format = Format::detect(Some(&request.name), &head);
    let in_file = |e: &dyn std::fmt::Display| format!("{e} (read as {format})");
    let fields = FieldPaths::new(&request.fields);
    let mut importer = Importer::new(format, Some(request.size)).keeping_fields(fields);
    let mut reporter = Reporter::<Reader>::new(scope, id, request.run, Stage::Reading);
    let mut sender = Sender::new(scope, id, request.run, placed);
    let mut first = Some(head);
    let mut pending: Vec<Document> = Vec::new();
    let mut read = Read::default();
    let take = |importer: &mut Importer, pending: &mut Vec<Document>, read: &mut Read| {
        let mut taken = importer.take_documents();
        read.bytes = importer.progress().bytes_read;
        read.documents += taken.len() as u64;
        read.id_bytes += taken.iter().map(|d| d.id.len() as u64).sum::<u64>();
        pending.append(&mut taken);
    };
    loop {
        let chunk = match first.take() {
            Some(head) => head,
            None if ended => break,
            None => match chunks.next().await? {
                Some(chunk) => chunk,
                None => break,
            },
        };
        // A stream's chunk can be the whole file: push it in the importer's slices.
        let mut rest = chunk.as_slice();
        while !rest.is_empty() {
            let (part, tail) = rest.split_at(importer.next_chunk_len().clamp(1, rest.len()));
            importer.push(part).map_err(|e| in_file(&e))?;
            rest = tail;
            take(&mut importer, &mut pending, &mut read);
            reporter.report(read.bytes, Some(request.size), false);
            if pending.len() >= BATCH_DOCUMENTS {
                let whole = pending.len() / BATCH_DOCUMENTS * BATCH_DOCUMENTS;
                sender.send(&pending[..whole], read).await;
                pending.drain(..whole);
            }
        }
    }
    take(&mut importer, &mut pending, &mut read);
    reporter.report(read.bytes, Some(request.size), true);
    let imported = importer.finish().map_err(|e| in_file(&e))?;
    pending.extend(imported.documents);
    sender.send(&pending, read).await;
    Ok(ReadingReply::Imported {
        run: request.run,
        format: format.key().to_string(),
        documents: sender.documents,
        skipped: imported.skipped as u64,
        warning: imported.warnings.first().map(ToString::to_string),
        bodies_dropped: imported.bodies_dropped,
    })
}

/// The file's first [`DETECT_BYTES`] (all of it when shorter), what its format is told
/// from, and whether that is the whole file.
async fn first_bytes(chunks: &Chunks) -> Result<(Vec<u8>, bool), String> {
    let mut head = Vec::new();
    while head.len() < DETECT_BYTES {
        match chunks.next().await? {
            Some(chunk) => head.extend_from_slice(&chunk),
            None => return Ok((head, true)),
        }
    }
    Ok((head, false))
}
