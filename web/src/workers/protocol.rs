//! What the page and the worker say to each other (bincode-encoded by `gloo-worker`).
//! Every request and reply of a run carries its run number, so that the page can drop a
//! late reply of a run it cancelled. Each view has its own worker ([`Channel`]).

use crate::persist::PartRef;
use crate::workers::reshard::plan::{CallsFile, CallsRequest, PlanRequest, Planned};
use crate::workers::save::engine::StorageError;
use ravenshard_import::BodiesDropped;
use ravenshard_model::batch::{DocumentBatch, Read};
use ravenshard_model::host::{Answer, Change, ChangeError, Changed, Question, Staging};
use ravenshard_reshard::{Amount, BalanceOptions, BucketLoad, ObjectiveSummary, Obstacle};
use serde::{Deserialize, Serialize};

/// What a restore is asked: read the saved documents' records from IndexedDB and send
/// them back in [`DocumentBatch`]es, as an import's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestoreRequest {
    /// The run's number.
    pub run: u64,
    /// The keys of the documents' records, in order, as the settings record says
    /// ([`Layout::part_keys`](crate::persist::Layout::part_keys); `None`: one record, as studios saved before kept the
    /// documents).
    pub keys: Option<Vec<String>>,
    /// What earlier runs of the same restore read (zero for a first run): a restore that
    /// another save outdated reads on from the first part the newer settings name
    /// differently, and its batches count on from there.
    pub read: Read,
}

/// One step of a save's documents, in order ([`Request::SaveEnd`]): a stored part kept,
/// or the parts the save's worker wrote of one of the save's batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavePart {
    /// A part stored by an earlier save, still the documents it holds (the layout in
    /// force names it).
    Kept(PartRef),
    /// The parts written of the save's batch with this number.
    Batch(u64),
}

/// What the advisor is asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdviseRequest {
    /// The run's number.
    pub run: u64,
    /// A blob URL of the export (`URL.createObjectURL(file)`), which the worker fetches:
    /// the file's bytes never pass through the page's thread.
    pub url: String,
    /// The file's name (its extension helps to recognise the format).
    pub name: String,
    /// The file's size in bytes.
    pub size: u64,
    /// The configuration in force, as JSON (`Topology::to_json`).
    pub configuration: String,
    /// RQL queries, one a line.
    pub queries: String,
    /// `LoadDocument` relations, `Collection.Field` one a line.
    pub loads: String,
}

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

/// What a generation is asked: make a [`Generator`]'s documents and send them back in
/// [`DocumentBatch`]es, as an import's.
///
/// [`Generator`]: ravenshard_model::sample::Generator
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateRequest {
    /// The run's number.
    pub run: u64,
    /// The generator's settings.
    pub generator: ravenshard_model::sample::Generator,
}

/// What each used bucket of the configuration in force holds, as flat arrays (one entry a
/// used bucket, or a range of buckets for bucket statistics): about 630,000 entries, 12 MB,
/// for 1,000,000 documents. The worker keeps the last one it was sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadData {
    /// The load's number: the page numbers each load it computes.
    pub number: u64,
    /// Each entry's first bucket, ascending.
    pub first: Vec<u32>,
    /// Each entry's last bucket; empty when every entry is one bucket.
    pub last: Vec<u32>,
    /// Each entry's documents.
    pub docs: Vec<u64>,
    /// Each entry's bytes.
    pub bytes: Vec<u64>,
}

impl LoadData {
    /// The flat arrays of `load`, numbered `number`. O(entries).
    pub fn of(number: u64, load: &BucketLoad) -> LoadData {
        let n = load.buckets_used();
        let mut data = LoadData {
            number,
            first: Vec::with_capacity(n),
            docs: Vec::with_capacity(n),
            bytes: Vec::with_capacity(n),
            last: Vec::new(),
        };
        // The last buckets only when some entry is a range (a load of statistics).
        let ranges = load.ranges().next().is_some();
        if ranges {
            data.last.reserve_exact(n);
        }
        for (first, end, held) in load.spans() {
            data.first.push(first);
            if ranges {
                data.last.push(end);
            }
            data.docs.push(held.docs);
            data.bytes.push(held.bytes);
        }
        data
    }

    /// The load again (what a balance reads of it: the documents without a size are not
    /// counted).
    pub fn load(&self) -> BucketLoad {
        let last = |i: usize| self.last.get(i).copied().unwrap_or(self.first[i]);
        BucketLoad::from_ranges((0..self.first.len()).map(|i| {
            let held = Amount {
                docs: self.docs.get(i).copied().unwrap_or(0),
                bytes: self.bytes.get(i).copied().unwrap_or(0),
            };
            (self.first[i], last(i), held)
        }))
    }
}

/// What a balance is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceRequest {
    /// The run's number.
    pub run: u64,
    /// The number of the load to balance, which the worker holds (a [`Request::Plan`]
    /// sent it before, or `data`).
    pub load: u64,
    /// The load itself, when the page does not know that this worker holds it.
    pub data: Option<LoadData>,
    /// The target to balance, as JSON (`Topology::to_json`).
    pub target: String,
    /// How (as JSON inside the message: bincode cannot read back the throughput, an
    /// adjacently tagged enum).
    #[serde(with = "as_json")]
    pub options: BalanceOptions,
}

/// What a drain of a shard is asked: the target with every bucket of the shard given to
/// the others, evenly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrainRequest {
    /// The run's number.
    pub run: u64,
    /// The number of the load to drain by, which the worker holds (or `data`).
    pub load: u64,
    /// The load itself, when the page does not know that this worker holds it.
    pub data: Option<LoadData>,
    /// The target to drain the shard of, as JSON.
    pub target: String,
    /// The shard.
    pub shard: u32,
    /// What "evenly" counts.
    pub by: ravenshard_reshard::Measure,
}

/// A value as a JSON string, in a bincode message.
pub(crate) mod as_json {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&serde_json::to_string(value).map_err(S::Error::custom)?)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        d: D,
    ) -> Result<T, D::Error> {
        serde_json::from_str(&String::deserialize(d)?).map_err(D::Error::custom)
    }
}

/// A balanced target, what the Resharding view shows of the balance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balanced {
    /// The target, as JSON.
    pub target: String,
    /// What the balance had to say, as the view shows it.
    pub notes: Vec<String>,
    /// The buckets too big for a fair share.
    pub obstacles: Vec<Obstacle>,
    /// The balance's figures under its objective.
    pub summary: ObjectiveSummary,
}

/// Which view a request is for: each has its own worker, so that one view's cancel or
/// crash does not stop the other's run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// The Advisor view.
    Advisor,
    /// The Resharding view.
    Reshard,
    /// An import of a document list, a generation, or the restore of the saved studio:
    /// one job that makes a workspace at a time.
    Import,
    /// The save of the studio (one at a time; the worker stays between saves).
    Save,
    /// The workspace's host: the worker that holds the documents' placement
    /// ([`ravenshard_model::host::Host`]) for the page's whole life.
    Workspace,
}

/// What the page tells the workspace's host ([`Channel::Workspace`]). The host handles
/// them in order: an answer is of the workspace after every change sent before it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum HostRequest {
    /// Make a change ([`Reply::Changed`], or [`Reply::ChangeRefused`]).
    Change {
        /// The change's number (the page's, one more each).
        seq: u64,
        /// The change.
        change: Change,
    },
    /// Answer a question ([`Reply::Answer`]).
    Ask {
        /// The question's number (the page's).
        id: u64,
        /// The question.
        question: Question,
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
    /// ([`Store::save`](crate::workers::save::engine::Store::save)): [`Reply::HostSaved`].
    Save {
        /// The save's number (the page's).
        id: u64,
        /// The settings ([`Saved`](crate::persist::Saved)) as JSON.
        settings: String,
        /// A save generation the page gave for it, if it starts a new run (the page
        /// outlives the worker: the parts of a run a crash stopped stay this tab's).
        generation: u64,
        /// The save generations the page gave lately
        /// ([`own_generations`](crate::workers::save::client::own_generations)): this tab's too.
        own: Vec<u64>,
    },
    /// The documents the host holds now are the ones IndexedDB holds (a restored
    /// studio's): the next save writes only what changes; no reply.
    Restored,
    /// Panic (a debug action, as [`Request::Panic`]: the page must survive it).
    Panic,
}

/// A request to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Read an export and advise on it; the export is kept for [`Request::Rewrites`].
    Advise(AdviseRequest),
    /// The IDs the `anchor` candidate on `field` gives the documents of `collection` in the
    /// export last advised on.
    Rewrites {
        /// The run that advised.
        run: u64,
        /// The collection.
        collection: String,
        /// The reference field.
        field: String,
    },
    /// Panic (a hidden debug action: the page must survive it).
    Panic,
    /// Plan from the configuration in force to a target (and keep the load for the plans
    /// and balances to come); the reply is [`Reply::Planned`].
    Plan(PlanRequest),
    /// The calls that carry out a plan, as a file; the reply is [`Reply::Calls`].
    Calls(CallsRequest),
    /// Balance a target; the reply is [`Reply::Balanced`], then [`Reply::Compared`].
    Balance(BalanceRequest),
    /// Drain a shard of a target; the reply is [`Reply::Drained`].
    Drain(DrainRequest),
    /// Panic in the Resharding view's worker (a debug action, as [`Request::Panic`]).
    PanicReshard,
    /// Read a file and send its documents in batches ([`Reply::Batch`], then
    /// [`Reply::Imported`]).
    Import(ImportRequest),
    /// Generate documents and send them in batches ([`Reply::Batch`], then
    /// [`Reply::Generated`]).
    Generate(GenerateRequest),
    /// Read the saved documents and send them in batches ([`Reply::Batch`], then
    /// [`Reply::Restored`]).
    Restore(RestoreRequest),
    /// The page placed the import's (or the generation's) first `batches` batches: the
    /// worker sends at most [`BATCHES_AHEAD`] batches more than the page placed.
    ImportPlaced {
        /// The run.
        run: u64,
        /// How many batches are placed.
        batches: u64,
    },
    /// Panic in the import's (and the generation's) worker (a debug action, as
    /// [`Request::Panic`]).
    PanicImport,
    /// Documents of the save `run` (batches numbered from 0, a part of the saved
    /// documents or more each): the worker writes them out and stores them beside the
    /// parts in force, answering [`Reply::SaveWritten`]. Several runs may be open at once
    /// (a save an edit stopped, and a newer one); a run's parts are kept until its end, or
    /// until [`Request::SaveDrop`].
    SaveBatch {
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
    /// ([`Reply::Saved`]), except the parts of the runs still open; if a part kept is no
    /// longer in the layout in force,
    /// a part the new layout would name is no longer stored, or a batch of the run is
    /// missing (the worker was started again meanwhile), nothing changes
    /// ([`Reply::SaveOutdated`]).
    SaveEnd {
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
        /// The generations the page gave in the last
        /// [`OTHER_TABS_PARTS_KEPT_MS`](crate::persist::records::OTHER_TABS_PARTS_KEPT_MS)
        /// ([`own_generations`](crate::workers::save::client::own_generations)): the end removes their
        /// parts no layout names, but keeps younger ones of other generations (maybe
        /// another tab's save in progress).
        own: Vec<u64>,
    },
    /// The save `run` will not end (the page stopped it): the worker removes the parts it
    /// wrote; no reply.
    SaveDrop {
        /// The save.
        run: u64,
    },
    /// Panic in the save's worker (a debug action, as [`Request::Panic`]).
    PanicSave,
    /// A request to the workspace's host.
    Host(HostRequest),
}

/// How many batches the import's worker sends ahead of the page's placing: enough that the
/// page never waits for the next, few enough that memory does not hold the file twice.
pub const BATCHES_AHEAD: u64 = 3;

impl Request {
    /// The view it is for.
    pub fn channel(&self) -> Channel {
        match self {
            Request::Advise(_) | Request::Rewrites { .. } | Request::Panic => Channel::Advisor,
            Request::Plan(_)
            | Request::Calls(_)
            | Request::Balance(_)
            | Request::Drain(_)
            | Request::PanicReshard => Channel::Reshard,
            Request::Import(_)
            | Request::Generate(_)
            | Request::Restore(_)
            | Request::ImportPlaced { .. }
            | Request::PanicImport => Channel::Import,
            Request::SaveBatch { .. }
            | Request::SaveEnd { .. }
            | Request::SaveDrop { .. }
            | Request::PanicSave => Channel::Save,
            Request::Host(_) => Channel::Workspace,
        }
    }
}

/// What a run is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Reading the export: `done` bytes of `total`.
    Reading,
    /// Scoring the candidates: `done` documents of `total` scored under all of them.
    Scoring,
}

/// A reply of the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// How the host's save `id` went: the bytes stored, why not, or `None` when an edit
    /// stopped it (the next save goes on from there).
    HostSaved {
        /// The save.
        id: u64,
        /// How it went.
        result: Option<Result<u64, StorageError>>,
    },
    /// How far a run is (sent at most every [`PROGRESS_EVERY_MS`]).
    Progress {
        /// The run.
        run: u64,
        /// Its stage.
        stage: Stage,
        /// Done so far (bytes or documents).
        done: u64,
        /// Of how many, when known.
        total: Option<u64>,
        /// Milliseconds since the stage began.
        elapsed_ms: u64,
    },
    /// The advice, as the CLI's JSON.
    Advice {
        /// The run.
        run: u64,
        /// The JSON of [`ravenshard_advise::Advice`].
        json: String,
    },
    /// The IDs to rewrite, `(from, to)`.
    Rewrites {
        /// The run that advised.
        run: u64,
        /// The collection.
        collection: String,
        /// The field.
        field: String,
        /// `(ID as stored, ID under the candidate)`.
        rewrites: Vec<(String, String)>,
    },
    /// The run failed (an unreadable export, a bad query); the message says why.
    Failed {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
    /// The worker stopped (a panic, or it could not start); the page restarts it on the
    /// next request.
    Crashed {
        /// What it said.
        message: String,
    },
    /// The plan of a [`Request::Plan`].
    Planned {
        /// The run.
        run: u64,
        /// The plan and its step (boxed: the largest reply).
        planned: Box<Planned>,
    },
    /// The calls of a [`Request::Calls`], as a file, or why there are none.
    Calls(Result<CallsFile, String>),
    /// The balanced target of a [`Request::Balance`].
    Balanced {
        /// The run.
        run: u64,
        /// The balance.
        balanced: Balanced,
    },
    /// The drained target of a [`Request::Drain`] (its JSON), or why there is none.
    Drained {
        /// The run.
        run: u64,
        /// The target.
        target: Result<String, String>,
    },
    /// After [`Reply::Balanced`]: the same balance's figures under the other objective, for
    /// the comparison.
    Compared {
        /// The run.
        run: u64,
        /// The figures.
        summary: ObjectiveSummary,
    },
    /// Documents an import read (after [`Reply::Progress`] of its reading).
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
    /// The save's worker stored the first `batches` batches of the save `run`.
    SaveWritten {
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
    SaveOutdated {
        /// The save.
        run: u64,
    },
    /// The save `run` failed (the browser refused to store it): nothing of it is in force.
    SaveFailed {
        /// The save.
        run: u64,
        /// The browser's reason.
        message: String,
        /// The bytes written out until then.
        bytes: u64,
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
    /// every [`PROGRESS_EVERY_MS`].
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
        /// The answer.
        answer: Answer,
    },
    /// A balance could not be made (options the core refuses, a load the worker does not
    /// hold); the message says why.
    BalanceFailed {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
}

/// How often, at most, the worker reports progress.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

#[cfg(test)]
mod tests {
    use super::*;
    use ravenshard_reshard::{balance, BucketLoad, Measure, Objective, Throughput, MAX_OBSTACLES};

    /// Encodes and decodes as `gloo-worker`'s codec does.
    fn round_trip<T: Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
        let bytes = bincode::serialize(value).expect("encodes");
        bincode::deserialize(&bytes).expect("decodes")
    }

    /// Every import message reads back as it was written.
    #[test]
    fn import_messages_survive_the_workers_codec() {
        let mut document = ravenshard_model::workspace::Document::new("orders/1-A");
        document.body = Some(r#"{"Customer":"c/1"}"#.into());
        let messages = [
            Request::Import(ImportRequest {
                run: 2,
                url: "blob:x".into(),
                name: "a.json.gz".into(),
                size: 12,
                fields: vec!["Customer".into(), "Address.Zip".into()],
            }),
            Request::Generate(GenerateRequest {
                run: 2,
                generator: ravenshard_model::sample::Generator {
                    documents: 1_000_000,
                    anchored_share: 0.35,
                    seed: u64::MAX,
                },
            }),
            Request::Restore(RestoreRequest {
                run: 2,
                keys: Some(vec!["documents.1764000000000.0".into()]),
                read: Read {
                    bytes: 32_768,
                    documents: 32_768,
                    id_bytes: 600_000,
                },
            }),
            Request::Restore(RestoreRequest {
                run: 3,
                keys: None,
                read: Read::default(),
            }),
            Request::ImportPlaced { run: 2, batches: 7 },
            Request::PanicImport,
        ];
        for request in messages {
            assert_eq!(request.channel(), Channel::Import);
            assert_eq!(round_trip(&request), request);
        }
        let replies = [
            Reply::Batch {
                run: 2,
                batch: DocumentBatch::of(4, &[document], Default::default()),
            },
            Reply::Imported {
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
            Reply::Generated {
                run: 2,
                documents: 9,
            },
            Reply::Restored {
                run: 2,
                documents: 1_000_000,
            },
            Reply::PartMissing {
                run: 2,
                key: "documents.17.3".into(),
            },
        ];
        for reply in replies {
            assert_eq!(round_trip(&reply), reply);
        }
    }

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
            Request::SaveBatch {
                run: 4,
                generation: 1_764_000_000_001,
                batch: DocumentBatch::of(2, &[document], Default::default()),
            },
            Request::SaveEnd {
                run: 4,
                generation: 1_764_000_000_001,
                settings: "{\"version\":1}".into(),
                own: vec![1_764_000_000_000, 1_764_000_000_001],
                parts: vec![SavePart::Kept(part()), SavePart::Batch(0)],
                documents: 16_385,
            },
            Request::SaveDrop { run: 4 },
            Request::PanicSave,
        ];
        for request in requests {
            assert_eq!(request.channel(), Channel::Save);
            assert_eq!(round_trip(&request), request);
        }
        let replies = [
            Reply::SaveWritten { run: 4, batches: 3 },
            Reply::Saved {
                run: 4,
                bytes: 9,
                parts: vec![part()],
            },
            Reply::SaveOutdated { run: 4 },
            Reply::SaveFailed {
                run: 4,
                message: "QuotaExceededError".into(),
                bytes: 7,
            },
        ];
        for reply in replies {
            assert_eq!(round_trip(&reply), reply);
        }
    }

    /// Every balance message reads back as it was written, every option and figure set.
    #[test]
    fn balance_messages_survive_the_workers_codec() {
        let current = ravenshard::Topology::with_shards(2).unwrap();
        let load = BucketLoad::from_buckets(
            (0..300u32)
                .map(|i| (i * 1000, Some(u64::from(i))))
                .chain([(600_000, Some(9))]),
        );
        let options = BalanceOptions {
            by: Measure::Bytes,
            weights: [(0, 1.5), (1, 2.0)].into_iter().collect(),
            threshold: 2.5,
            max_buckets: Some(9),
            throughput: Some(Throughput::Bytes(2e7)),
            objective: Objective::FewestMigrations,
            ..BalanceOptions::default()
        };
        let request = Request::Balance(BalanceRequest {
            run: 3,
            load: 4,
            data: Some(LoadData::of(4, &load)),
            target: current.to_json(),
            options: options.clone(),
        });
        assert_eq!(round_trip(&request), request);
        let b = balance(&current, &load, &options).unwrap();
        assert!(b.obstacles.len() <= MAX_OBSTACLES);
        let replies = [
            Reply::Balanced {
                run: 3,
                balanced: Balanced {
                    target: b.plan.target.to_json(),
                    notes: vec!["a note".into()],
                    obstacles: b.obstacles.clone(),
                    summary: b.summary(),
                },
            },
            Reply::Compared {
                run: 3,
                summary: b.objectives[0].clone(),
            },
            Reply::BalanceFailed {
                run: 3,
                message: "why".into(),
            },
        ];
        for reply in replies {
            assert_eq!(round_trip(&reply), reply);
        }
    }

    /// A plan's request and its answer (a plan of more moves than are shown, its step, and
    /// the calls) read back as they were written.
    #[test]
    fn plan_messages_survive_the_workers_codec() {
        use crate::workers::{CallsRequest, Planner, StepAt, MOVES_SHOWN};
        use ravenshard_reshard::{BucketCost, PlanOptions};
        let current = ravenshard::Topology::with_shards(2).unwrap();
        // Every other bucket of the first 400 moves: 200 moves of one bucket.
        let ranges: Vec<String> = (0..=400u32)
            .map(|b| format!(r#"{{"BucketRangeStart": {b}, "ShardNumber": {}}}"#, b % 2))
            .collect();
        let target = format!(
            r#"{{"Shards": {{"0": {{}}, "1": {{}}}}, "BucketRanges": [{}, {{"BucketRangeStart": 524288, "ShardNumber": 1}}]}}"#,
            ranges.join(",")
        );
        let load = BucketLoad::from_buckets((0..400u32).map(|b| (b, Some(10))));
        let plan = PlanRequest {
            run: 5,
            load: 2,
            data: Some(LoadData::of(2, &load)),
            current: current.to_json(),
            target,
            database: "Orders".into(),
            options: PlanOptions {
                measure: Measure::Bytes,
                throughput: Some(Throughput::Docs(500.0)),
                bucket_cost: BucketCost::parse("10ms").unwrap(),
            },
            step: StepAt::NextWithDocuments(3),
        };
        let request = Request::Plan(plan.clone());
        assert_eq!(round_trip(&request), request);
        let mut planner = Planner::default();
        let mut balancer = crate::workers::Balancer::default();
        let planned = planner.plan(&mut balancer, &plan);
        let shown = planned.plan.as_ref().unwrap();
        assert_eq!(shown.move_count, 200);
        assert_eq!(shown.moves.len(), MOVES_SHOWN);
        assert_eq!(shown.steps(), 800);
        assert_eq!(planned.step, 4, "the next bucket holding documents");
        let step = planned.migration.as_ref().unwrap().as_ref().unwrap();
        assert_eq!((step.bucket, step.docs, step.bytes), (3, 1, 10));
        assert!(step.configuration.contains("\"BucketMigrations\""));
        let reply = Reply::Planned {
            run: 5,
            planned: Box::new(planned),
        };
        assert_eq!(round_trip(&reply), reply);
        let calls = CallsRequest {
            plan,
            url: "https://a.example.com".into(),
            script: false,
        };
        assert_eq!(
            round_trip(&Request::Calls(calls.clone())),
            Request::Calls(calls.clone())
        );
        let file = planner.calls(&mut balancer, &calls);
        assert_eq!(file.as_ref().unwrap().name, "Orders-calls.json");
        let reply = Reply::Calls(file);
        assert_eq!(round_trip(&reply), reply);
    }
}
