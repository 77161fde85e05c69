//! What the page and the worker say to each other (bincode-encoded by `gloo-worker`).
//! Every request and reply of a run carries its run number, so that the page can drop a
//! late reply of a run it cancelled.

use serde::{Deserialize, Serialize};

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

/// A request to the worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply {
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
        /// The JSON of [`ravenshard_model::advise::Advice`].
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
}

/// How often, at most, the worker reports progress.
pub const PROGRESS_EVERY_MS: f64 = 100.0;
