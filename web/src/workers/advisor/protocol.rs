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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AdvisorReply {
    /// How far the run is.
    Progress(Progress),
    /// The advice.
    Advice {
        /// The run.
        run: u64,
        /// The advice (boxed: the largest reply).
        advice: Box<ravenshard_advise::Advice>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::transport::round_trip;
    use ravenshard_advise::{advise, Workload};
    use ravenshard_import::Format;

    /// The advice crosses the worker's codec as it is, a candidate's configuration too
    /// (a JSON value, which the advice's JSON keeps as itself).
    #[test]
    fn the_advice_survives_the_workers_codec() {
        let export: String = (1..=40)
            .map(|i| {
                let company = format!("companies/{}-A", i % 4 + 1);
                format!(
                    "{{\"@metadata\": {{\"@id\": \"orders/{i}-A\", \"@collection\": \"Orders\"}}, \"Company\": \"{company}\"}}\n\
                     {{\"@metadata\": {{\"@id\": \"{company}\", \"@collection\": \"Companies\"}}}}\n"
                )
            })
            .collect();
        let topology = ravenshard::Topology::with_shards(3).unwrap();
        let workload = Workload::default();
        let mut advice = advise(
            export.as_bytes(),
            Some(Format::Ndjson),
            &topology,
            &workload,
        )
        .expect("advised");
        let configuration = serde_json::json!({"Shards": {"0": {}, "1": {}}, "Prefixed": []});
        let candidate = &mut advice.collections[0].candidates[0];
        candidate.configuration = Some(configuration.clone());
        let json = serde_json::to_value(&advice).unwrap();
        let pointer = "/collections/0/candidates/0/configuration";
        assert_eq!(json.pointer(pointer), Some(&configuration));
        let reply = AdvisorReply::Advice {
            run: 2,
            advice: Box::new(advice),
        };
        assert_eq!(round_trip(&reply), reply);
    }
}
