//! What changes the workspace ([`Change`]), what a change did ([`Changed`]), and why one
//! was refused ([`ChangeError`]).

use crate::workspace::{Document, Summary};
use ravenshard_advise::Rewrite;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A change of the workspace's documents or of the configuration that places them: plain
/// data, so that the page can send it to the worker that holds the documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Change {
    /// These documents replace the workspace's (the chapter's examples, an emptied
    /// workspace, a share link's documents).
    Replace {
        /// The documents.
        #[serde(with = "super::wire")]
        documents: Vec<Document>,
    },
    /// Documents `at..at + remove` are replaced by `insert` (an edit of the ID editor).
    Splice {
        /// The first document replaced.
        at: u64,
        /// How many documents are removed from `at` on.
        remove: u64,
        /// The documents put in their place.
        #[serde(with = "super::wire")]
        insert: Vec<Document>,
    },
    /// Place the documents by this configuration (RavenDB's `ShardingConfiguration` JSON,
    /// as [`Topology::to_json`](ravenshard::Topology::to_json) writes it); the draft
    /// chapter's design follows its `ByContent` section.
    Configure {
        /// The configuration's JSON.
        configuration: String,
        /// The database's name (the fragments are `<database>$<shard>`), which the
        /// sharding configuration does not hold.
        database: String,
    },
    /// Rewrite the IDs the list names (ignoring case), as an advisor's candidate says.
    Rewrite {
        /// `(ID as stored, new ID)` pairs.
        rewrites: Vec<Rewrite>,
    },
    /// A cluster's bucket statistics (`GET /databases/<db>/debug/sharding/buckets`
    /// answers, drill-downs, per-shard answers) replace the documents.
    Statistics {
        /// The files' names.
        names: Vec<String>,
        /// Their texts, in the same order.
        texts: Vec<String>,
    },
    /// The documents the job `job` staged ([`Host::stage`](super::Host::stage)) replace the
    /// workspace's, placed by the configuration in force. Refused
    /// ([`ChangeError::Staged`]) unless the host staged exactly `documents` of that job.
    Adopt {
        /// The job.
        job: u64,
        /// How many documents the job made.
        documents: u64,
    },
}

/// How a change moved the documents: what a view made before it can keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum What {
    /// Nothing changed (the same configuration again, an edit that replaced documents by
    /// equal ones).
    Nothing,
    /// Only the shards' member nodes changed: every document is where it was.
    Members,
    /// Documents `at..at + removed` were replaced by `inserted` documents; the documents
    /// before kept their indices, those after moved by `inserted - removed`.
    Edited {
        /// The first document replaced.
        at: u64,
        /// How many were removed.
        removed: u64,
        /// How many were put in their place.
        inserted: u64,
    },
    /// The documents were placed anew (other documents, another configuration): indices,
    /// groups, buckets and shards may all mean something else.
    Placed,
}

/// What a change did: the workspace's new version and its [`Summary`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Changed {
    /// The workspace's version after the change (one more per change that did something).
    pub version: u64,
    /// How the documents moved.
    pub what: What,
    /// What every view shows of the workspace now.
    pub summary: Summary,
    /// How many documents a [`Change::Rewrite`] rewrote (0 for other changes).
    pub rewritten: u64,
    /// What the user should know of the change (bucket statistics the configuration
    /// cannot place, so the views are empty).
    pub warning: Option<String>,
}

/// Why a change was not made: the workspace is as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChangeError {
    /// The documents do not fit (more than 4 GiB of IDs or bodies, more than
    /// [`MAX_DOCUMENTS`](crate::workspace::MAX_DOCUMENTS)), or an edit names documents the
    /// workspace does not hold.
    Edit(String),
    /// The configuration is not valid JSON of a sharding configuration.
    Configuration(String),
    /// The bucket statistics could not be read.
    Statistics(String),
    /// The host does not hold the documents a job staged (they were damaged, or its worker
    /// was started again meanwhile): why. The page sends them whole instead.
    Staged(String),
}

impl fmt::Display for ChangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeError::Edit(e) => write!(
                f,
                "the documents were not changed: {e}. Remove documents or split the workspace"
            ),
            ChangeError::Configuration(e) => write!(
                f,
                "the configuration was not applied: {e}. Fix it in Configuration"
            ),
            ChangeError::Statistics(e) => write!(
                f,
                "the bucket statistics could not be read, so the workspace is unchanged: {e}"
            ),
            ChangeError::Staged(e) => write!(
                f,
                "the workspace's host did not keep the job's documents ({e}); they are sent \
                 to it again"
            ),
        }
    }
}

impl std::error::Error for ChangeError {}
