//! The restore's side of the worker: reads the saved documents' records from IndexedDB
//! ([`crate::persist::records`]) a part at a time, parses them ([`PartReader`]) and sends the
//! documents to the page in [`DocumentBatch`](crate::workers::DocumentBatch)es as an import's are
//! (`Sender`: never more than [`BATCHES_AHEAD`](crate::workers::BATCHES_AHEAD) ahead of the page's
//! placing). The worker only reads: a cancel, a failure or a panic leaves the records as
//! they were.

use crate::persist::records::{self, DOCUMENTS_KEY};
use crate::persist::{read_documents, PART_DOCUMENTS};
use crate::workers::import::protocol::ReadingReply;
use crate::workers::import::worker::Reader;
use crate::workers::import::worker::Sender;
use crate::workers::restore::protocol::RestoreRequest;
use crate::workers::transport::Scope;
use gloo::worker::HandlerId;
use ravenshard_model::batch::Read;
use ravenshard_model::workspace::Document;
use rexie::Rexie;
use std::cell::Cell;

/// The documents of a restore's batch: a part of the saved documents
/// ([`PART_DOCUMENTS`]), half an import's batch, so that the page's task that turns a
/// batch into documents stays short (a 32,768-document batch took up to 34 ms on a loaded
/// machine, before the placing of the same task).
pub const RESTORE_BATCH_DOCUMENTS: usize = PART_DOCUMENTS;

/// The documents of the saved parts, read in order and handed out in batches of
/// [`RESTORE_BATCH_DOCUMENTS`].
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::Document;
/// use ravenshard_studio::persist::write_documents;
/// use ravenshard_studio::workers::restore::PartReader;
///
/// let mut reader = PartReader::default();
/// reader.push("documents.0", &write_documents(&[Document::new("orders/1-A")])).unwrap();
/// assert_eq!(reader.take(false), None, "not a whole batch yet");
/// let (documents, read) = reader.take(true).unwrap();
/// assert_eq!((documents[0].id.as_str(), read.documents, read.id_bytes), ("orders/1-A", 1, 10));
/// assert!(reader.push("documents.1", "garbage").unwrap_err().contains("documents.1"));
/// ```
#[derive(Debug, Default)]
pub struct PartReader {
    pending: Vec<Document>,
    read: Read,
}

impl PartReader {
    /// A reader whose counts go on from `read` (what earlier runs of the restore read).
    pub fn after(read: Read) -> PartReader {
        PartReader {
            pending: Vec::new(),
            read,
        }
    }

    /// Reads the part stored under `key` (as [`write_documents`] wrote it: lines or JSON).
    ///
    /// # Errors
    ///
    /// Why the part cannot be read, naming its record.
    ///
    /// [`write_documents`]: crate::persist::write_documents
    pub fn push(&mut self, key: &str, part: &str) -> Result<(), String> {
        let documents = read_documents(part).map_err(|e| format!("{e} (record \"{key}\")"))?;
        self.read.documents += documents.len() as u64;
        // A restore's "bytes" are the documents read: the page's fraction is of the count.
        self.read.bytes = self.read.documents;
        self.read.id_bytes += documents.iter().map(|d| d.id.len() as u64).sum::<u64>();
        self.pending.extend(documents);
        Ok(())
    }

    /// The next [`RESTORE_BATCH_DOCUMENTS`] documents read and how far the reading is, or
    /// with `all` what is left; `None`: not enough yet (nothing left, with `all`).
    pub fn take(&mut self, all: bool) -> Option<(Vec<Document>, Read)> {
        let n = if all {
            self.pending.len()
        } else {
            RESTORE_BATCH_DOCUMENTS
        };
        if self.pending.is_empty() || self.pending.len() < n {
            return None;
        }
        let rest = self.pending.split_off(n);
        Some((std::mem::replace(&mut self.pending, rest), self.read))
    }
}

/// Why a restore's parts were not all sent.
enum Unsent {
    /// The part of this record is not stored ([`ReadingReply::PartMissing`]).
    Missing(String),
    /// A record cannot be read: why.
    Failed(String),
}

/// Reads the saved documents and sends them; [`ReadingReply::Restored`] when all were sent,
/// [`ReadingReply::PartMissing`] when a part is not stored (the page tells why), or why a record
/// cannot be read ([`ReadingReply::Failed`]).
pub(crate) async fn restore(
    scope: &Scope<Reader>,
    id: HandlerId,
    request: RestoreRequest,
    placed: &Cell<(u64, u64)>,
) -> ReadingReply {
    let run = request.run;
    let mut sender = Sender::new(scope, id, run, placed);
    match send_parts(&request, &mut sender).await {
        Ok(()) => ReadingReply::Restored {
            run,
            documents: sender.documents(),
        },
        Err(Unsent::Missing(key)) => ReadingReply::PartMissing { run, key },
        Err(Unsent::Failed(message)) => ReadingReply::Failed { run, message },
    }
}

async fn send_parts(request: &RestoreRequest, sender: &mut Sender<'_>) -> Result<(), Unsent> {
    let db = records::open().await.map_err(Unsent::Failed)?;
    let sent = send_parts_of(&db, request, sender).await;
    db.close();
    sent
}

/// Reads each part the request names from `db` (a transaction each: the page places the
/// documents between them) and sends its documents; at a part not stored, sends those of
/// the parts before it first.
async fn send_parts_of(
    db: &Rexie,
    request: &RestoreRequest,
    sender: &mut Sender<'_>,
) -> Result<(), Unsent> {
    let keys: Vec<String> = match &request.keys {
        Some(keys) => keys.clone(),
        None => vec![DOCUMENTS_KEY.to_string()],
    };
    let mut reader = PartReader::after(request.read);
    for key in &keys {
        let part = match records::get(db, key).await {
            Ok(Some(part)) => part,
            Ok(None) if request.keys.is_none() => break,
            Ok(None) => {
                // The page gets every document of the parts before it, so that a restore
                // another save outdated can read on from this part.
                if let Some((documents, read)) = reader.take(true) {
                    sender.send(&documents, read).await;
                }
                return Err(Unsent::Missing(key.clone()));
            }
            Err(e) => {
                let why = format!("the browser could not read the saved studio ({e})");
                return Err(Unsent::Failed(why));
            }
        };
        reader.push(key, &part).map_err(Unsent::Failed)?;
        drop(part);
        while let Some((documents, read)) = reader.take(false) {
            sender.send(&documents, read).await;
        }
    }
    if let Some((documents, read)) = reader.take(true) {
        sender.send(&documents, read).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::records::part_key;
    use crate::persist::{read_saved, Stored};

    const SETTINGS: &str = r#"{"version": 1, "database": "Orders", "nodes": "A", "replication_factor": "1", "config": "{}", "documents": []}"#;

    /// Every part read into batches gives the documents back, in order, in batches of
    /// `RESTORE_BATCH_DOCUMENTS` (the last one shorter), lines and JSON parts alike.
    #[test]
    fn parts_read_into_batches_give_the_documents_back() {
        let mut documents: Vec<Document> = (0..70_000u64)
            .map(|i| {
                let mut d = Document::new(format!("orders/{i}-A"));
                d.size = Some(i);
                d.collection = (i % 3 == 0).then(|| "Orders".to_string());
                d
            })
            .collect();
        documents[20_000].id = "tab\there".into(); // its part is kept as JSON
        documents[50_000].body = Some("{\"Customer\":\"c/1\"}".into());
        let stored = Stored::new(&read_saved(SETTINGS).unwrap(), &documents);
        assert!(stored.parts.len() > 3);
        let mut reader = PartReader::default();
        let mut batches = Vec::new();
        for (i, part) in stored.parts.iter().enumerate() {
            reader.push(&part_key(i), part).unwrap();
            while let Some(batch) = reader.take(false) {
                batches.push(batch);
            }
        }
        batches.extend(reader.take(true));
        assert_eq!(reader.take(true), None);
        let sizes: Vec<usize> = batches.iter().map(|(d, _)| d.len()).collect();
        let n = RESTORE_BATCH_DOCUMENTS;
        assert_eq!(sizes, [n, n, n, n, 70_000 - 4 * n]);
        let last = batches.last().unwrap().1;
        let id_bytes: usize = documents.iter().map(|d| d.id.len()).sum();
        assert_eq!(
            (last.bytes, last.documents, last.id_bytes),
            (70_000, 70_000, id_bytes as u64)
        );
        let back: Vec<Document> = batches.into_iter().flat_map(|(d, _)| d).collect();
        assert_eq!(back, documents);
    }

    /// A damaged part is refused with its record and line; nothing of it is handed out.
    #[test]
    fn a_damaged_part_names_its_record() {
        let mut reader = PartReader::default();
        let good = crate::persist::write_documents(&[Document::new("a")]);
        reader.push("documents.0", &good).unwrap();
        let bad = "ravenshard documents lines 1\nb\nc\tx1\n";
        assert_eq!(
            reader.push("documents.1", bad).unwrap_err(),
            "the saved documents are damaged (line 2: size \"x1\" is not a whole number of \
             bytes) (record \"documents.1\")"
        );
        assert!(reader
            .push("documents", "[]")
            .unwrap_err()
            .contains("does not know"));
        assert_eq!(reader.take(true).unwrap().0, [Document::new("a")]);
    }
}
