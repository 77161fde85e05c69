//! What the page and the Readiness view's worker say to each other: the studio's documents
//! a page at a time ([`CheckRequest::Documents`]), then the check
//! ([`CheckRequest::Check`]); the report comes back ([`Checked`]).

use crate::workers::transport::{crash_reply, Crashed};
use ravenshard::Document;
use ravenshard_check::Report;
use serde::{Deserialize, Serialize};

/// What a check reads, besides the documents sent before it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckInputs {
    /// The run's number (the documents sent for it with the same number).
    pub run: u64,
    /// The database record's JSON (`GET /admin/databases?name=<db>`).
    pub record: String,
    /// Index definitions on their own (`GET /databases/<db>/indexes`), if given.
    pub indexes: Option<String>,
    /// RQL queries, one a line, if given.
    pub queries: Option<String>,
    /// `LoadDocument` relations, `Collection.Field` one a line, if given.
    pub loads: Option<String>,
    /// The intended sharding: the studio's configuration in force, as JSON
    /// (`Topology::to_json`, with its members).
    pub configuration: String,
    /// How many documents the page sent for this run: the worker checks that it holds
    /// them all.
    pub documents: u64,
}

/// What the Readiness view's worker is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CheckRequest {
    /// The next page of the studio's documents for run `run` (the first page of a new run
    /// drops those of the one before).
    Documents {
        /// The run.
        run: u64,
        /// The documents, in the workspace's order.
        #[serde(with = "ravenshard_model::host::wire")]
        documents: Vec<Document>,
    },
    /// Check, with the documents sent for the run; the reply is [`CheckReply::Checked`] or
    /// [`CheckReply::Failed`].
    Check(CheckInputs),
}

/// What a check found, and over how many of the studio's documents.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Checked {
    /// How many of the studio's documents the data checks read.
    pub documents: u64,
    /// The check's report (its names owned, as read back).
    pub report: Report,
}

/// What the Readiness view's worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CheckReply {
    /// The report of run `run`.
    Checked {
        /// The run.
        run: u64,
        /// The report (boxed: the largest reply).
        report: Box<Checked>,
    },
    /// Bad input: the check's message, naming the input, the path and the position.
    Failed {
        /// The run.
        run: u64,
        /// The input it is in (`record`, `indexes`, `queries`, `loads`, `sharding`).
        input: String,
        /// Why.
        message: String,
    },
    /// The worker stopped.
    Crashed(Crashed),
}

crash_reply!(CheckReply);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::transport::round_trip;

    #[test]
    fn every_message_reads_back_as_written() {
        let documents = CheckRequest::Documents {
            run: 2,
            documents: vec![Document::new("orders/1-A"), Document::new("carts/1-A$")],
        };
        assert_eq!(round_trip(&documents), documents);
        let check = CheckRequest::Check(CheckInputs {
            run: 2,
            record: r#"{"DatabaseName": "Shop"}"#.into(),
            queries: Some("from Orders".into()),
            configuration: "{}".into(),
            documents: 2,
            ..CheckInputs::default()
        });
        assert_eq!(round_trip(&check), check);
        let record = r#"{"DatabaseName": "Shop", "PeriodicBackups": [{"Name": "n", "BackupType": "Snapshot"}]}"#;
        let report = ravenshard_check::check(&ravenshard_check::Inputs::record(record)).unwrap();
        let checked = CheckReply::Checked {
            run: 2,
            report: Box::new(Checked {
                documents: 0,
                report: report.clone(),
            }),
        };
        assert_eq!(round_trip(&checked), checked);
        assert_eq!(report.findings[0].rule, "task.snapshot-backup");
        let failed = CheckReply::Failed {
            run: 2,
            input: "record".into(),
            message: "record: line 1, column 2".into(),
        };
        assert_eq!(round_trip(&failed), failed);
    }
}
