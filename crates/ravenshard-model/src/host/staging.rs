//! The documents of a job (an import, a generation, a restore) that the host places as
//! their batches come ([`Host::stage`]), apart from the workspace, which they replace when
//! the job ends ([`Change::Adopt`](super::Change::Adopt)): the thread that makes them never
//! sends them whole, and the host never waits for a whole workspace to place it.

use super::{options_of, ChangeError, Host, What};
use crate::batch::DocumentBatch;
use crate::workspace::{Document, PlacementBuilder};
use ravenshard::Topology;
use serde::{Deserialize, Serialize};

/// What a job's first batch says: the configuration it places by, and the room to make
/// (so that the tables are not copied whole as they double; 0 when not known).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Staging {
    /// The configuration's JSON.
    pub configuration: String,
    /// The database's name.
    pub database: String,
    /// The documents to make room for.
    pub documents: u64,
    /// Their IDs' bytes.
    pub id_bytes: u64,
    /// The bodies to make room for (the design's fields, a generation's orders).
    pub bodies: u64,
    /// Their bytes.
    pub body_bytes: u64,
}

/// A job's documents as staged so far.
#[derive(Debug)]
pub(super) struct Staged {
    job: u64,
    builder: PlacementBuilder,
    /// Why the staged documents cannot be adopted (a batch damaged or not placed).
    broken: Option<String>,
    /// The last batch's documents: the next batch fills them in place, reusing their
    /// strings (no allocation per ID and collection for each batch).
    documents: Vec<Document>,
}

impl Host {
    /// Places a batch of the job `job` apart from the workspace: a job's first batch comes
    /// with its `start` (another job's documents staged before are dropped). A batch that
    /// cannot be placed, or of a job whose start the host did not see, breaks the staging:
    /// its adoption is refused, and the page sends the documents whole.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::batch::DocumentBatch;
    /// use ravenshard_model::host::{Change, Host, Staging, What};
    /// use ravenshard_model::workspace::Document;
    ///
    /// let mut host = Host::default();
    /// let start = Staging {
    ///     configuration: ravenshard::Topology::with_shards(3).unwrap().to_json(),
    ///     database: "Orders".into(),
    ///     documents: 2, id_bytes: 16, bodies: 0, body_bytes: 0,
    /// };
    /// let documents = ["orders/1-A", "orders/2-A$customers/1-A"].map(Document::new);
    /// host.stage(7, Some(start), DocumentBatch::of(0, &documents, Default::default()));
    /// assert_eq!(host.placement().len(), 0, "staged apart");
    /// let changed = host.apply(Change::Adopt { job: 7, documents: 2 })?;
    /// assert_eq!((changed.what, host.placement().len()), (What::Placed, 2));
    /// # Ok::<(), ravenshard_model::host::ChangeError>(())
    /// ```
    pub fn stage(&mut self, job: u64, start: Option<Staging>, batch: DocumentBatch) {
        if let Some(start) = start {
            self.staged = Some(staged(job, &start, self.placement.topology()));
        }
        let staged = match &mut self.staged {
            Some(s) if s.job == job => s,
            _ => {
                let builder =
                    PlacementBuilder::new(self.placement.topology(), self.placement.options());
                let broken = Some("a batch came before the job's start".to_string());
                self.staged.insert(Staged {
                    job,
                    builder,
                    broken,
                    documents: Vec::new(),
                })
            }
        };
        if staged.broken.is_some() {
            return;
        }
        let documents = &mut staged.documents;
        let placed = batch
            .fill(documents)
            .map_err(|e| e.to_string())
            .and_then(|()| staged.builder.push(documents).map_err(|e| e.to_string()));
        if let Err(why) = placed {
            staged.broken = Some(why);
            staged.builder =
                PlacementBuilder::new(self.placement.topology(), self.placement.options());
        }
    }

    /// Drops the documents staged by `job` (it was cancelled or failed).
    pub fn unstage(&mut self, job: u64) {
        if self.staged.as_ref().is_some_and(|s| s.job == job) {
            self.staged = None;
        }
    }

    /// [`Change::Adopt`](super::Change::Adopt).
    pub(super) fn adopt(&mut self, job: u64, documents: u64) -> Result<What, ChangeError> {
        let staged = match self.staged.take() {
            Some(s) if s.job == job => s,
            other => {
                self.staged = other;
                return Err(ChangeError::Staged(format!(
                    "no documents of job {job} are staged"
                )));
            }
        };
        if let Some(why) = staged.broken {
            return Err(ChangeError::Staged(why));
        }
        let held = staged.builder.len() as u64;
        if held != documents {
            return Err(ChangeError::Staged(format!(
                "{held} of the job's {documents} documents are staged"
            )));
        }
        let (topology, options) = (
            self.placement.topology().clone(),
            self.placement.options().clone(),
        );
        self.placement = staged.builder.finish();
        self.statistics = None;
        // Placed by the configuration the job started with: follow the one in force.
        self.configure(&topology, &options)?;
        Ok(What::Placed)
    }
}

/// A new staging for `job`, by `start`'s configuration (a configuration that cannot be
/// read breaks it, and `fallback` is used).
fn staged(job: u64, start: &Staging, fallback: &Topology) -> Staged {
    let topology = Topology::from_json(&start.configuration).map(|mut t| {
        t.set_database(&start.database);
        t
    });
    let (topology, broken) = match topology {
        Ok(t) => (t, None),
        Err(e) => (
            fallback.clone(),
            Some(format!("the job's configuration: {e}")),
        ),
    };
    let mut builder = PlacementBuilder::new(&topology, &options_of(&topology));
    let at_most = |n: u64| usize::try_from(n).unwrap_or(0);
    builder.reserve(at_most(start.documents), at_most(start.id_bytes));
    builder.reserve_bodies(at_most(start.bodies), at_most(start.body_bytes));
    Staged {
        job,
        builder,
        broken,
        documents: Vec::new(),
    }
}
