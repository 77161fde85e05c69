//! What the page and the Advisor's worker say to each other.

use crate::workers::progress::Progress;
use crate::workers::transport::{crash_reply, Crashed};
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

/// What the Advisor's worker is asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdvisorRequest {
    /// Read an export and advise on it; the export is kept for
    /// [`AdvisorRequest::Rewrites`].
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
}

/// What the Advisor's worker answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdvisorReply {
    /// How far the run is.
    Progress(Progress),
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
    /// The worker stopped.
    Crashed(Crashed),
}

crash_reply!(AdvisorReply);

impl From<Progress> for AdvisorReply {
    fn from(progress: Progress) -> Self {
        AdvisorReply::Progress(progress)
    }
}
