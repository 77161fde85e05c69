//! One save's side of the talk with the save's machinery ([`Saving`]), which runs in the
//! workspace's host's worker beside the host's saves (`Saves`).
//! [`Saving`] sends the documents in batches
//! ([`SaveRequest::Batch`]), never more than [`SAVE_AHEAD`] ahead of what the worker
//! stored, then the settings ([`SaveRequest::End`]), and hands over how it ended. Several
//! saves may be open at once (a save an edit stopped, which the next goes on from, and a
//! newer one): the machinery's replies reach each save's own queue. The page
//! gives the host's saves their generation ([`next_generation`]): it outlives a worker.

use crate::persist::PartRef;
use crate::workers::save::protocol::{SavePart, SaveReply, SaveRequest};
use crate::workers::save::Saves;
use futures::channel::mpsc::{UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use ravenshard_model::batch::DocumentBatch;
use std::fmt;

/// How many batches the page sends ahead of the worker's storing: enough that the worker
/// never waits, few enough that the copies in flight stay small.
pub const SAVE_AHEAD: u64 = 3;

/// The most documents of a save's batch: one part of the saved documents
/// ([`PART_DOCUMENTS`](crate::persist::PART_DOCUMENTS), what
/// [`even_batches`](crate::persist::even_batches) cuts to), which the worker stores in one
/// transaction. Copying it from the placement, encoding and posting it is the page's task
/// of the save: four parts a batch made tasks of 110-150 ms on a loaded 2-core machine
/// (one transaction for four parts did not make the save faster there).
pub const SAVE_BATCH_DOCUMENTS: usize = crate::persist::PART_DOCUMENTS;

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

thread_local! {
    /// The last save generation given ([`next_generation`]).
    static GIVEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A generation for the parts of a new save: the time in milliseconds (later than the ones
/// an earlier visit wrote), and always more than the last one given. The page gives them
/// all, so that parts written by different workers of this tab never share a key.
pub fn next_generation() -> u64 {
    let now = js_sys::Date::now().max(0.0) as u64;
    GIVEN.with(|given| {
        let generation = now.max(given.get() + 1);
        given.set(generation);
        generation
    })
}

thread_local! {
    /// The last run given ([`next_run`]).
    static RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A run number for a new save.
fn next_run() -> u64 {
    RUNS.with(|r| {
        r.set(r.get() + 1);
        r.get()
    })
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

/// A save in the worker. Dropped before it ended, it tells the worker to remove what it
/// wrote ([`SaveRequest::Drop`]).
pub struct Saving {
    run: u64,
    generation: u64,
    saves: Saves,
    /// Where the machinery's replies to it go.
    queue: UnboundedSender<SaveReply>,
    replies: UnboundedReceiver<SaveReply>,
    sent: u64,
    written: u64,
    /// Whether its end was sent.
    ended: bool,
}

impl Saving {
    /// A new save through `saves`: a run and a save generation of its own (`generation`,
    /// given by the page, else a new one; its parts are kept apart from other saves' ends
    /// until it ends or is dropped).
    pub(crate) fn new(saves: Saves, generation: Option<u64>) -> Saving {
        let (queue, replies) = futures::channel::mpsc::unbounded();
        Saving {
            run: next_run(),
            generation: generation.unwrap_or_else(next_generation),
            saves,
            queue,
            replies,
            sent: 0,
            written: 0,
            ended: false,
        }
    }

    /// Reads `reply`: `Some` once the save ended.
    fn take(&mut self, reply: SaveReply) -> Result<Option<Ended>, SaveError> {
        let run = self.run;
        match reply {
            SaveReply::Written { run: r, batches } if r == run => {
                self.written = self.written.max(batches);
                Ok(None)
            }
            SaveReply::Saved {
                run: r,
                bytes,
                parts,
            } if r == run => Ok(Some(Ended::Stored { bytes, parts })),
            SaveReply::Outdated { run: r } if r == run => Ok(Some(Ended::Outdated)),
            SaveReply::Failed {
                run: r,
                message,
                bytes,
            } if r == run => Err(SaveError::Refused {
                reason: message,
                bytes,
            }),
            SaveReply::Crashed(crashed) => Err(SaveError::Stopped(crashed.message)),
            // Another run's: none reaches this queue.
            SaveReply::Written { .. }
            | SaveReply::Saved { .. }
            | SaveReply::Outdated { .. }
            | SaveReply::Failed { .. } => Ok(None),
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
        let (run, generation) = (self.run, self.generation);
        let request = SaveRequest::Batch {
            run,
            generation,
            batch,
        };
        self.saves.push_local(request, self.queue.clone());
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
        let request = SaveRequest::End {
            run,
            generation: self.generation,
            settings,
            parts,
            documents,
        };
        self.saves.push_local(request, self.queue.clone());
        self.ended = true;
        loop {
            if let Some(ended) = self.next().await? {
                return Ok(ended);
            }
        }
    }
}

impl Drop for Saving {
    fn drop(&mut self) {
        if !self.ended && self.sent > 0 {
            let (ignored, _) = futures::channel::mpsc::unbounded();
            self.saves
                .push_local(SaveRequest::Drop { run: self.run }, ignored);
        }
    }
}
