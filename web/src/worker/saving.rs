//! The page's side of a save in the worker: [`Saving`] sends the documents in batches
//! ([`Request::SaveBatch`]), never more than [`SAVE_AHEAD`] ahead of what the worker
//! stored, then the settings ([`Request::SaveEnd`]), and hands over how it ended. The
//! save's worker ([`Channel::Save`]) stays between saves.

use super::batch::DocumentBatch;
use super::client;
use super::protocol::{Channel, Reply, Request, SavePart};
use crate::state::PartRef;
use futures::channel::mpsc::UnboundedReceiver;
use futures::StreamExt;
use std::fmt;
use yew::Callback;

/// How many batches the page sends ahead of the worker's storing: enough that the worker
/// never waits, few enough that the copies in flight stay small.
pub const SAVE_AHEAD: u64 = 3;

/// The most documents of a save's batch: one part of the saved documents
/// ([`PART_DOCUMENTS`](crate::state::PART_DOCUMENTS), what
/// [`even_batches`](crate::state::even_batches) cuts to), which the worker stores in one
/// transaction. Copying it from the placement, encoding and posting it is the page's task
/// of the save: four parts a batch made tasks of 110-150 ms on a loaded 2-core machine
/// (one transaction for four parts did not make the save faster there).
pub const SAVE_BATCH_DOCUMENTS: usize = crate::state::PART_DOCUMENTS;

/// Why a save in the worker did not store the studio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// The browser refused to store it (the worker's reason), after `bytes` were written
    /// out.
    Refused {
        /// The browser's reason.
        reason: String,
        /// The bytes written out until then.
        bytes: u64,
    },
    /// The worker stopped (what it said).
    Stopped(String),
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Refused { reason, .. } => write!(f, "{reason}"),
            SaveError::Stopped(said) => {
                write!(f, "the studio's worker stopped while saving ({said})")
            }
        }
    }
}

impl std::error::Error for SaveError {}

/// Starts the save's worker if none runs (the first save then does not wait for it to
/// load).
pub fn warm_up() {
    if client::instance(Channel::Save).is_none() {
        client::send(Request::SaveWarmUp, Callback::noop());
    }
}

/// How a save's end went ([`Saving::end`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// Stored: the bytes of the saved studio and the documents' parts, in order.
    Stored {
        /// The bytes stored in all.
        bytes: u64,
        /// The parts.
        parts: Vec<PartRef>,
    },
    /// A part the save kept is no longer stored (another tab saved, or the storage was
    /// cleared): nothing changed; save again, whole.
    Outdated,
}

/// A save in the worker.
pub struct Saving {
    run: u64,
    replies: UnboundedReceiver<Reply>,
    on_reply: Callback<Reply>,
    sent: u64,
    written: u64,
}

impl Default for Saving {
    fn default() -> Saving {
        Saving::new()
    }
}

impl Saving {
    /// A new save (a newer run than any before: the worker drops what an unfinished one
    /// wrote).
    pub fn new() -> Saving {
        let run = client::next_run();
        let (on_reply, replies) = client::queue();
        Saving {
            run,
            replies,
            on_reply,
            sent: 0,
            written: 0,
        }
    }

    /// Reads `reply`: `Some` once the save ended.
    fn take(&mut self, reply: Reply) -> Result<Option<Ended>, SaveError> {
        let run = self.run;
        match reply {
            Reply::SaveWritten { run: r, batches } if r == run => {
                self.written = self.written.max(batches);
                Ok(None)
            }
            Reply::Saved {
                run: r,
                bytes,
                parts,
            } if r == run => Ok(Some(Ended::Stored { bytes, parts })),
            Reply::SaveOutdated { run: r } if r == run => Ok(Some(Ended::Outdated)),
            Reply::SaveFailed {
                run: r,
                message,
                bytes,
            } if r == run => Err(SaveError::Refused {
                reason: message,
                bytes,
            }),
            Reply::Crashed { message } => Err(SaveError::Stopped(message)),
            _ => Ok(None),
        }
    }

    /// The next reply read (`Some`: the save ended).
    async fn next(&mut self) -> Result<Option<Ended>, SaveError> {
        match self.replies.next().await {
            Some(reply) => self.take(reply),
            None => Err(SaveError::Stopped("no reply".into())),
        }
    }

    /// Reads the replies that came, and waits until the worker stored all but
    /// [`SAVE_AHEAD`] of the batches sent.
    pub async fn room(&mut self) -> Result<(), SaveError> {
        while let Ok(reply) = self.replies.try_recv() {
            self.take(reply)?;
        }
        while self.sent >= self.written + SAVE_AHEAD {
            self.next().await?;
        }
        Ok(())
    }

    /// The number the next batch must carry.
    pub fn next_batch(&self) -> u64 {
        self.sent
    }

    /// Sends `batch` (numbered [`next_batch`](Self::next_batch)).
    pub fn send(&mut self, batch: DocumentBatch) {
        let run = self.run;
        client::send(Request::SaveBatch { run, batch }, self.on_reply.clone());
        self.sent += 1;
    }

    /// Sends the settings record (without the layout, which the worker adds) and the
    /// documents' `parts` in order (stored parts kept, and the batches sent), which hold
    /// `documents` in all, and waits until the save ended.
    ///
    /// # Errors
    ///
    /// The browser refused to store it, or the worker stopped.
    pub async fn end(
        mut self,
        settings: String,
        parts: Vec<SavePart>,
        documents: u64,
    ) -> Result<Ended, SaveError> {
        self.room().await?;
        let run = self.run;
        let request = Request::SaveEnd {
            run,
            settings,
            parts,
            documents,
        };
        client::send(request, self.on_reply.clone());
        loop {
            if let Some(ended) = self.next().await? {
                return Ok(ended);
            }
        }
    }
}
