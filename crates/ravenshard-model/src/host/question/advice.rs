//! The Advisor view's question: the sharding advisor ([`ravenshard_advise`]) on the
//! workspace's documents, under the configuration in force, read straight from the
//! placement's tables (their IDs, sizes, collections and bodies) with no export text in
//! between. A large workspace is advised by a job a step at a time ([`AdviceJob`]), as the
//! studio's host worker runs it.

use super::Question;
use crate::host::Host;
use crate::workspace::Placement;
use ravenshard_advise::{Advice, AdviseError, DocumentReader, Rewrite, Workload};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::ControlFlow;
use std::ops::Range;

/// The advisor on the workspace's documents (those with a body give the references; every
/// document's ID can be named), scoring every candidate under the workspace's
/// configuration and `queries` and `loads`: the same [`Advice`] as
/// [`advise`](ravenshard_advise::advise) on an export of the same documents.
///
/// # Examples
///
/// ```
/// use ravenshard_model::host::question::Advise;
/// use ravenshard_model::host::{Change, Host};
/// use ravenshard_model::workspace::Document;
///
/// let mut host = Host::default();
/// let mut order = Document::new("orders/1-A");
/// order.body = Some(r#"{"Company": "companies/1-A"}"#.into());
/// let documents = vec![Document::new("companies/1-A"), order];
/// host.apply(Change::Replace { documents })?;
/// let question = Advise { queries: String::new(), loads: "Orders.Company".into() };
/// let advice = host.answer(&question).unwrap();
/// assert_eq!((advice.documents, advice.shards), (2, 3));
/// let orders = &advice.collections[1];
/// assert_eq!((orders.collection.as_str(), orders.references[0].field.as_str()), ("orders", "Company"));
/// # Ok::<(), ravenshard_model::host::ChangeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Advise {
    /// RQL queries, one a line.
    pub queries: String,
    /// `LoadDocument` relations, `Collection.Field` one a line.
    pub loads: String,
}

/// Why the workspace was not advised on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdviceError {
    /// The queries or the loads do not read: the advisor's message, which names the line
    /// and what to write.
    Workload(String),
    /// The documents changed while a job read them (an edit, an import, another
    /// configuration): advise again on the workspace as it is.
    Changed,
    /// The job's asker stopped it (its progress callback answered `Break`).
    Cancelled,
}

impl fmt::Display for AdviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdviceError::Workload(message) => f.write_str(message),
            AdviceError::Changed => f.write_str(
                "the workspace's documents changed while the advisor read them: advise again",
            ),
            AdviceError::Cancelled => {
                f.write_str("the advisor was cancelled; advise again for an answer")
            }
        }
    }
}

impl std::error::Error for AdviceError {}

impl Question for Advise {
    type Answer = Result<Advice, AdviceError>;

    fn answer(&self, host: &mut Host) -> Result<Advice, AdviceError> {
        let mut job = host.advice_job(self)?;
        loop {
            let step = host.step_advice(&mut job, usize::MAX, &mut |_| ControlFlow::Continue(()));
            if let Some(answer) = step {
                return answer;
            }
        }
    }
}

/// [`Advise`] answered a step at a time: [`Host::step_advice`] reads some documents each
/// step, then scores every candidate in the last (the advisor's scoring is one pass,
/// telling its progress as it goes).
#[derive(Debug)]
pub struct AdviceJob {
    /// The host's version the job reads.
    version: u64,
    workload: Workload,
    /// `None` once the documents were read.
    reader: Option<DocumentReader>,
    /// The next document to read.
    at: usize,
    /// The documents to read.
    len: usize,
}

impl AdviceJob {
    /// How far it is, `(done, total)`: the documents read, then the documents scored (under
    /// every candidate of their collection), of twice the documents.
    pub fn progress(&self) -> (u64, u64) {
        let len = self.len as u64;
        (self.at as u64, 2 * len)
    }
}

impl Host {
    /// A job that answers `question` a step at a time ([`step_advice`](Self::step_advice)).
    ///
    /// # Errors
    ///
    /// [`AdviceError::Workload`] when the queries or the loads do not read.
    pub fn advice_job(&self, question: &Advise) -> Result<AdviceJob, AdviceError> {
        let workload = Workload::parse(&question.queries, &question.loads)
            .map_err(|e| AdviceError::Workload(e.to_string()))?;
        Ok(AdviceJob {
            version: self.version,
            workload,
            reader: Some(DocumentReader::new()),
            at: 0,
            len: self.placement.len(),
        })
    }

    /// Runs `job`: reads about `work` documents, or, once all are read, scores them under
    /// the configuration in force, telling `progress` how far it is
    /// ([`AdviceJob::progress`]'s figures); `progress` answering [`ControlFlow::Break`]
    /// cancels it. The answer once done, `None` while documents are left to read.
    pub fn step_advice(
        &self,
        job: &mut AdviceJob,
        work: usize,
        progress: &mut dyn FnMut((u64, u64)) -> ControlFlow<()>,
    ) -> Option<Result<Advice, AdviceError>> {
        if job.version != self.version || job.len != self.placement.len() {
            return Some(Err(AdviceError::Changed));
        }
        let reader = job.reader.as_mut()?;
        let p = &self.placement;
        let end = job.at.saturating_add(work.max(1)).min(job.len);
        read(p, job.at..end, reader);
        job.at = end;
        if end < job.len {
            return None;
        }
        let read = job.reader.take()?.read();
        let len = job.len as u64;
        let advice = read.advise(p.topology(), &job.workload, &mut |scored| {
            progress((len + scored.done.min(len), 2 * len))
        });
        Some(advice.map_err(|e| match e {
            AdviseError::Cancelled => AdviceError::Cancelled,
            other => AdviceError::Workload(other.to_string()),
        }))
    }
}

/// Reads the documents `range` of `p` into `reader`.
fn read(p: &Placement, range: Range<usize>, reader: &mut DocumentReader) {
    for i in range {
        if let Some(id) = p.id(i) {
            reader.add(id, p.size(i), p.collection(i), p.body(i));
        }
    }
}

/// The IDs the `anchor` candidate on `field` gives the workspace's documents of
/// `collection` ([`ReadExport::anchor_rewrites`](ravenshard_advise::ReadExport::anchor_rewrites)
/// on them): what applying that candidate of [`Advise`]'s advice rewrites
/// ([`Change::Rewrite`](crate::host::Change::Rewrite)). One pass over the documents.
///
/// # Examples
///
/// ```
/// use ravenshard_model::host::question::AnchorRewrites;
/// use ravenshard_model::host::{Change, Host};
/// use ravenshard_model::workspace::Document;
///
/// let mut host = Host::default();
/// let mut order = Document::new("orders/1-A");
/// order.body = Some(r#"{"Company": "companies/1-A"}"#.into());
/// host.apply(Change::Replace { documents: vec![Document::new("companies/1-A"), order] })?;
/// let question = AnchorRewrites { collection: "orders".into(), field: "Company".into() };
/// let rewrites = host.answer(&question);
/// assert_eq!((rewrites[0].from.as_str(), rewrites[0].to.as_str()), ("orders/1-A", "orders/1-A$companies/1-A"));
/// # Ok::<(), ravenshard_model::host::ChangeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AnchorRewrites {
    /// The collection.
    pub collection: String,
    /// The reference field its documents are anchored by.
    pub field: String,
}

impl Question for AnchorRewrites {
    type Answer = Vec<Rewrite>;

    fn answer(&self, host: &mut Host) -> Vec<Rewrite> {
        let p = &host.placement;
        let mut reader = DocumentReader::new();
        read(p, 0..p.len(), &mut reader);
        reader.read().anchor_rewrites(&self.collection, &self.field)
    }
}
