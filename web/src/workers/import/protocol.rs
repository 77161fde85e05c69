//! What the page and the worker of a job that makes a workspace (an import, a generation,
//! a restore: one at a time, on one channel) say to each other.

use crate::workers::generate::protocol::GenerateRequest;
use crate::workers::progress::Progress;
use crate::workers::restore::protocol::RestoreRequest;
use crate::workers::transport::{crash_reply, Crashed};
use ravenshard_import::BodiesDropped;
use ravenshard_model::batch::DocumentBatch;
use serde::{Deserialize, Serialize};

/// What an import is asked: read a document list and send its documents back in
/// [`DocumentBatch`]es.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportRequest {
    /// The run's number.
    pub run: u64,
    /// A blob URL of the file, which the worker fetches.
    pub url: String,
    /// The file's name (for messages).
    pub name: String,
    /// The file's size in bytes.
    pub size: u64,
    /// The field paths to keep of each document instead of its body (the design's); none:
    /// no bodies.
    pub fields: Vec<String>,
}

/// How many batches the import's worker sends ahead of the page's placing: enough that the
/// page never waits for the next, few enough that memory does not hold the file twice.
pub const BATCHES_AHEAD: u64 = 3;

/// What the worker of a job that makes a workspace is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ReadingRequest {
    /// Read a file and send its documents in batches ([`ReadingReply::Batch`], then
    /// [`ReadingReply::Imported`]).
    Import(ImportRequest),
    /// Generate documents and send them in batches ([`ReadingReply::Batch`], then
    /// [`ReadingReply::Generated`]).
    Generate(GenerateRequest),
    /// Read the saved documents and send them in batches ([`ReadingReply::Batch`], then
    /// [`ReadingReply::Restored`]).
    Restore(RestoreRequest),
    /// The page placed the first `batches` batches of the run `run`: the worker sends up
    /// to [`BATCHES_AHEAD`] more.
    Placed {
        /// The run.
        run: u64,
        /// How many batches the page placed.
        batches: u64,
    },
}

/// What the worker of a job that makes a workspace answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ReadingReply {
    /// How far the run reads.
    Progress(Progress),
    /// Documents the run read.
    Batch {
        /// The run.
        run: u64,
        /// The documents.
        batch: DocumentBatch,
    },
    /// The import read the whole file: every batch was sent.
    Imported {
        /// The run.
        run: u64,
        /// The format the worker read the file as, from its name and first bytes
        /// ([`Format::key`](ravenshard_import::Format::key)).
        format: String,
        /// How many documents the batches held.
        documents: u64,
        /// How many entries were skipped.
        skipped: u64,
        /// Why the first skipped entry was skipped.
        warning: Option<String>,
        /// The documents whose body (the kept fields) was not kept.
        bodies_dropped: BodiesDropped,
    },
    /// The generation made every document: every batch was sent.
    Generated {
        /// The run.
        run: u64,
        /// How many documents the batches held.
        documents: u64,
    },
    /// The restore read every saved document: every batch was sent.
    Restored {
        /// The run.
        run: u64,
        /// How many documents the batches held.
        documents: u64,
    },
    /// The restore `run` stopped: the part `key` it was asked to read is not stored. The
    /// page tells why: another save replaced it since the page read the settings (they no
    /// longer name it), or the saved studio is damaged.
    PartMissing {
        /// The run.
        run: u64,
        /// The part's record.
        key: String,
    },
    /// The run failed (an unreadable file, settings a generator refuses, a record that
    /// does not read); the message says why.
    Failed {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
    /// The worker stopped.
    Crashed(Crashed),
}

crash_reply!(ReadingReply);

impl From<Progress> for ReadingReply {
    fn from(progress: Progress) -> Self {
        ReadingReply::Progress(progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::transport::round_trip;
    use ravenshard_model::batch::Read;

    /// Every import message reads back as it was written.
    #[test]
    fn import_messages_survive_the_workers_codec() {
        let mut document = ravenshard_model::workspace::Document::new("orders/1-A");
        document.body = Some(r#"{"Customer":"c/1"}"#.into());
        let messages = [
            ReadingRequest::Import(ImportRequest {
                run: 2,
                url: "blob:x".into(),
                name: "a.json.gz".into(),
                size: 12,
                fields: vec!["Customer".into(), "Address.Zip".into()],
            }),
            ReadingRequest::Generate(GenerateRequest {
                run: 2,
                generator: ravenshard_model::sample::Generator {
                    documents: 1_000_000,
                    anchored_share: 0.35,
                    seed: u64::MAX,
                },
            }),
            ReadingRequest::Restore(RestoreRequest {
                run: 2,
                keys: Some(vec!["documents.1764000000000.0".into()]),
                read: Read {
                    bytes: 32_768,
                    documents: 32_768,
                    id_bytes: 600_000,
                },
            }),
            ReadingRequest::Restore(RestoreRequest {
                run: 3,
                keys: None,
                read: Read::default(),
            }),
            ReadingRequest::Placed { run: 2, batches: 7 },
        ];
        for request in messages {
            assert_eq!(round_trip(&request), request);
        }
        let replies = [
            ReadingReply::Batch {
                run: 2,
                batch: DocumentBatch::of(4, &[document], Default::default()),
            },
            ReadingReply::Imported {
                run: 2,
                format: "ravendbdump".into(),
                documents: 1,
                skipped: 3,
                warning: Some("why".into()),
                bodies_dropped: BodiesDropped {
                    documents: 1,
                    largest: 40 << 20,
                    fields: true,
                },
            },
            ReadingReply::Generated {
                run: 2,
                documents: 9,
            },
            ReadingReply::Restored {
                run: 2,
                documents: 1_000_000,
            },
            ReadingReply::PartMissing {
                run: 2,
                key: "documents.17.3".into(),
            },
            ReadingReply::Progress(Progress {
                run: 2,
                stage: crate::workers::progress::Stage::Reading,
                done: 7,
                total: Some(9),
                elapsed_ms: 3,
            }),
            ReadingReply::Failed {
                run: 2,
                message: "why".into(),
            },
            ReadingReply::from(Crashed {
                message: "a panic".into(),
            }),
        ];
        for reply in replies {
            assert_eq!(round_trip(&reply), reply);
        }
    }
}
