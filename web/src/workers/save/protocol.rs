//! What a save's client and the save's machinery say to each other: batches of the
//! documents, then the end with the settings; how far it stored, and how it ended.

use crate::persist::PartRef;
use crate::workers::transport::{crash_reply, Crashed};
use ravenshard_model::batch::DocumentBatch;
use serde::{Deserialize, Serialize};

/// One step of a save's documents, in order ([`SaveRequest::End`]): a stored part kept,
/// or the parts the save's worker wrote of one of the save's batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavePart {
    /// A part stored by an earlier save, still the documents it holds (the layout in
    /// force names it).
    Kept(PartRef),
    /// The parts written of the save's batch with this number.
    Batch(u64),
}

/// What the save's machinery is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SaveRequest {
    /// Documents of the save `run` (batches numbered from 0, a part of the saved
    /// documents or more each): the worker writes them out and stores them beside the
    /// parts in force, answering [`SaveReply::Written`]. Several runs may be open at once
    /// (a save an edit stopped, and a newer one); a run's parts are kept until its end, or
    /// until [`SaveRequest::Drop`].
    Batch {
        /// The save.
        run: u64,
        /// The save's generation (the keys of its parts; the page numbers them).
        generation: u64,
        /// The documents.
        batch: DocumentBatch,
    },
    /// The save `run` sent all its batches: the worker stores the settings (the JSON of
    /// [`Saved`](crate::persist::Saved) without documents) with the layout of `parts`, and
    /// removes every part the layout does not name, in one transaction
    /// ([`SaveReply::Saved`]), except the parts of the runs still open; if a part kept is no
    /// longer in the layout in force,
    /// a part the new layout would name is no longer stored, or a batch of the run is
    /// missing (the worker was started again meanwhile), nothing changes
    /// ([`SaveReply::Outdated`]).
    End {
        /// The save.
        run: u64,
        /// The save's generation.
        generation: u64,
        /// The settings record, without the layout.
        settings: String,
        /// The documents' parts, in order.
        parts: Vec<SavePart>,
        /// How many documents they hold in all (else the save fails, and the one in
        /// force stays).
        documents: u64,
    },
    /// The save `run` will not end (the page stopped it): the worker removes the parts it
    /// wrote; no reply.
    Drop {
        /// The save.
        run: u64,
    },
}

/// What the save's machinery answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SaveReply {
    /// The save's worker stored the first `batches` batches of the save `run`.
    Written {
        /// The save.
        run: u64,
        /// How many batches are stored.
        batches: u64,
    },
    /// The save `run` is stored (all or nothing): `bytes` in all, the documents in
    /// `parts`.
    Saved {
        /// The save.
        run: u64,
        /// The bytes stored.
        bytes: u64,
        /// The documents' parts now stored, in order.
        parts: Vec<PartRef>,
    },
    /// The save `run` kept parts that the stored studio no longer names (another tab
    /// saved meanwhile, or the storage was cleared), or the worker lost batches of it (it
    /// was started again meanwhile): nothing of it is in force, and the page saves again,
    /// whole.
    Outdated {
        /// The save.
        run: u64,
    },
    /// The save `run` failed (the browser refused to store it): nothing of it is in force.
    Failed {
        /// The save.
        run: u64,
        /// The browser's reason.
        message: String,
        /// The bytes written out until then.
        bytes: u64,
    },
    /// The worker stopped.
    Crashed(Crashed),
}

crash_reply!(SaveReply);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::transport::round_trip;

    /// A part with every figure set.
    fn part() -> PartRef {
        PartRef {
            generation: 1_764_000_000_000,
            index: 3,
            documents: 16_384,
            id_bytes: 300_000,
            bodies: 2,
            body_bytes: 77,
            bytes: 400_000,
        }
    }

    /// Every save message reads back as it was written.
    #[test]
    fn save_messages_survive_the_workers_codec() {
        let mut document = ravenshard_model::workspace::Document::new("orders/1-A");
        document.body = Some("{}".into());
        let requests = [
            SaveRequest::Batch {
                run: 4,
                generation: 1_764_000_000_001,
                batch: DocumentBatch::of(2, &[document], Default::default()),
            },
            SaveRequest::End {
                run: 4,
                generation: 1_764_000_000_001,
                settings: "{\"version\":1}".into(),
                parts: vec![SavePart::Kept(part()), SavePart::Batch(0)],
                documents: 16_385,
            },
            SaveRequest::Drop { run: 4 },
        ];
        for request in requests {
            assert_eq!(round_trip(&request), request);
        }
        let replies = [
            SaveReply::Written { run: 4, batches: 3 },
            SaveReply::Saved {
                run: 4,
                bytes: 9,
                parts: vec![part()],
            },
            SaveReply::Outdated { run: 4 },
            SaveReply::Failed {
                run: 4,
                message: "QuotaExceededError".into(),
                bytes: 7,
            },
        ];
        for reply in replies {
            assert_eq!(round_trip(&reply), reply);
        }
    }
}
