//! What the page and the workspace's host say to each other. The host handles the
//! requests in order: an answer is of the workspace after every change sent before it.

use crate::persist::Saved;
use crate::workers::save::engine::StorageError;
use crate::workers::transport::{crash_reply, Crashed};
use ravenshard_model::batch::DocumentBatch;
use ravenshard_model::host::{AnyAnswer, AnyQuestion, Change, ChangeError, Changed, Staging};
use serde::{Deserialize, Serialize};

/// What the page tells the workspace's host ([`Channel::Workspace`](crate::workers::Channel::Workspace)). The host handles
/// them in order: an answer is of the workspace after every change sent before it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum HostRequest {
    /// Make a change ([`HostReply::Changed`], or [`HostReply::ChangeRefused`]).
    Change {
        /// The change's number (the page's, one more each).
        seq: u64,
        /// The change.
        change: Change,
    },
    /// Answer a question ([`HostReply::Answer`]).
    Ask {
        /// The question's number (the page's).
        id: u64,
        /// The question.
        question: AnyQuestion,
    },
    /// The answer to the question `id` is no longer wanted: a job making it stops.
    Forget {
        /// The question's number.
        id: u64,
    },
    /// A batch of the documents a job makes, placed apart from the workspace until the
    /// job ends ([`Host::stage`](ravenshard_model::host::Host::stage), then
    /// [`Change::Adopt`]); no reply.
    Stage {
        /// The job (the page numbers them).
        job: u64,
        /// With the job's first batch: what it places by, and the room to make.
        start: Option<Staging>,
        /// The documents.
        batch: DocumentBatch,
    },
    /// The job stopped: its staged documents are dropped; no reply.
    Unstage {
        /// The job.
        job: u64,
    },
    /// Save the settings and the host's documents to IndexedDB
    /// ([`Store::save`](crate::workers::save::engine::Store::save)): [`HostReply::Saved`].
    Save {
        /// The save's number (the page's).
        id: u64,
        /// The settings, without documents (the host saves the ones it holds).
        #[serde(with = "settings")]
        settings: Saved,
        /// A save generation the page gave for it, if it starts a new run (the page
        /// outlives the worker: a new worker's parts never share a key with a crashed one's).
        generation: u64,
    },
    /// The documents the host holds now are the ones IndexedDB holds (a restored
    /// studio's): the next save writes only what changes; no reply.
    Restored,
}

/// What the workspace's host answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum HostReply {
    /// How the host's save `id` went: the bytes stored, why not, or `None` when an edit
    /// stopped it (the next save goes on from there).
    Saved {
        /// The save.
        id: u64,
        /// How it went.
        result: Option<Result<u64, StorageError>>,
    },
    /// The host made the change `seq`.
    Changed {
        /// The change's number.
        seq: u64,
        /// What it did (boxed: the summary is large, and replies are moved whole).
        changed: Box<Changed>,
    },
    /// The host did not make the change `seq`: the workspace is as it was.
    ChangeRefused {
        /// The change's number.
        seq: u64,
        /// Why.
        error: ChangeError,
    },
    /// The question `id` is answered by a job, a step at a time (the rows of a sort or a
    /// filter of a large workspace): how far it is. Sent when it starts, then at most
    /// every [`PROGRESS_EVERY_MS`](crate::workers::transport::PROGRESS_EVERY_MS).
    Working {
        /// The question's number.
        id: u64,
        /// Work done (documents).
        done: u64,
        /// Work to do in all.
        total: u64,
    },
    /// The host's answer to the question `id`, at its `version` then.
    Answer {
        /// The question's number.
        id: u64,
        /// The workspace's version the answer is of.
        version: u64,
        /// The answer: the one of the question's name.
        answer: AnyAnswer,
    },
    /// The worker stopped.
    Crashed(Crashed),
}

crash_reply!(HostReply);

impl HostReply {
    /// The question `id` is answered by a job that has done `done` of `total`.
    pub fn working(id: u64, (done, total): (u64, u64)) -> HostReply {
        HostReply::Working { id, done, total }
    }
}

/// [`Saved`] without its documents, every field written: its own serde form (its JSON
/// record's) leaves out the missing ones, which the worker's codec cannot read back. The
/// settings are taken apart field by field, so a field added to them is a compile error
/// here until it crosses too.
mod settings {
    use crate::persist::{Saved, SavedReadiness};
    use crate::state::kept::SavedKept;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    type Fields = (
        u32,
        String,
        String,
        String,
        String,
        bool,
        Option<String>,
        Option<SavedKept>,
        Option<SavedReadiness>,
    );

    pub fn serialize<S: Serializer>(saved: &Saved, s: S) -> Result<S::Ok, S::Error> {
        let Saved {
            version,
            database,
            nodes,
            replication_factor,
            config,
            custom,
            documents: _,
            tab,
            kept,
            readiness,
        } = saved;
        (
            version,
            database,
            nodes,
            replication_factor,
            config,
            custom,
            tab,
            kept,
            readiness,
        )
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Saved, D::Error> {
        let (version, database, nodes, replication_factor, config, custom, tab, kept, readiness) =
            Fields::deserialize(d)?;
        Ok(Saved {
            version,
            database,
            nodes,
            replication_factor,
            config,
            custom,
            documents: Vec::new(),
            tab,
            kept,
            readiness,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::kept::SavedKept;
    use crate::workers::transport::round_trip;
    use ravenshard_model::host::question::{Page, RowData, Rows};
    use ravenshard_model::workspace::RowQuery;

    /// A save's settings cross as they are (without documents: the host saves its own),
    /// every optional field set or not; a question and its answer cross as they are.
    #[test]
    fn host_messages_survive_the_workers_codec() {
        let settings = Saved {
            version: 1,
            database: "Orders".into(),
            nodes: "A, B".into(),
            replication_factor: "2".into(),
            config: ravenshard::Topology::with_shards(4).unwrap().to_json(),
            custom: true,
            documents: Vec::new(),
            tab: Some("map".into()),
            kept: Some(SavedKept {
                file: "export.ravendbdump".into(),
                fields: vec!["Company".into(), "Lines.Product".into()],
            }),
            readiness: Some(crate::persist::SavedReadiness {
                record: r#"{"DatabaseName": "Shop"}"#.into(),
                queries: "from Orders".into(),
                ..Default::default()
            }),
        };
        let bare = Saved {
            custom: false,
            tab: None,
            kept: None,
            readiness: None,
            ..settings.clone()
        };
        for settings in [settings, bare] {
            let request = HostRequest::Save {
                id: 7,
                settings,
                generation: 3,
            };
            assert_eq!(round_trip(&request), request);
        }
        let question = Rows {
            query: RowQuery::default(),
            from: 10,
            count: 5,
        };
        let request = HostRequest::Ask {
            id: 9,
            question: question.into(),
        };
        assert_eq!(round_trip(&request), request);
        let row = RowData {
            index: 10,
            id: "orders/1-A".into(),
            hashed_chars: Some([0, 10]),
            collection: None,
            size: Some(120),
            bucket: Some(982_173),
            shard: Some(2),
            group: None,
            group_anchor: None,
            group_documents: None,
            error: None,
            generated: None,
        };
        let reply = HostReply::Answer {
            id: 9,
            version: 4,
            answer: AnyAnswer::Rows(Page {
                total: 11,
                items: vec![row],
            }),
        };
        assert_eq!(round_trip(&reply), reply);
    }
}
