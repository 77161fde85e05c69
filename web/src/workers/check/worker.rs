//! The Readiness view's side of its worker ([`Check`]): it holds the documents sent for
//! the run in progress, and checks.

use crate::workers::check::protocol::{CheckInputs, CheckReply, CheckRequest, Checked};
use crate::workers::transport::{Channel, Role, Scope};
use gloo::worker::HandlerId;
use ravenshard::{Document, Topology};
use ravenshard_check::Inputs;

/// The Readiness view's worker: the documents of run `run`, as they came.
#[derive(Default)]
pub struct Check {
    run: u64,
    documents: Vec<Document>,
}

impl Role for Check {
    type Request = CheckRequest;
    type Reply = CheckReply;
    const CHANNEL: Channel = Channel::Check;

    fn start(_scope: &Scope<Self>) -> Self {
        Self::default()
    }

    fn received(&mut self, scope: &Scope<Self>, request: CheckRequest, id: HandlerId) {
        match request {
            CheckRequest::Documents { run, documents } => {
                if run != self.run {
                    self.run = run;
                    self.documents.clear();
                }
                self.documents.extend(documents);
            }
            CheckRequest::Check(inputs) => {
                if inputs.run != self.run {
                    self.run = inputs.run;
                    self.documents.clear();
                }
                let reply = check(&inputs, &self.documents);
                self.documents = Vec::new();
                scope.respond(id, reply);
            }
        }
    }
}

/// Checks `inputs` with `documents` (they must be the `inputs.documents` the page sent).
fn check(inputs: &CheckInputs, documents: &[Document]) -> CheckReply {
    let run = inputs.run;
    let failed = |input: &str, message: String| CheckReply::Failed {
        run,
        input: input.to_string(),
        message,
    };
    if documents.len() as u64 != inputs.documents {
        return failed(
            "documents",
            format!(
                "the worker holds {} of the studio's {} documents (it was restarted during the run): check again",
                documents.len(),
                inputs.documents
            ),
        );
    }
    let layout = match Topology::from_json(&inputs.configuration) {
        Ok(layout) => layout,
        Err(e) => return failed("sharding", format!("the studio's configuration: {e}")),
    };
    let checked = ravenshard_check::check(&Inputs {
        record: &inputs.record,
        indexes: inputs.indexes.as_deref(),
        queries: inputs.queries.as_deref(),
        loads: inputs.loads.as_deref(),
        export: None,
        documents: (!documents.is_empty()).then_some(documents),
        sharding: Some(&layout),
    });
    match checked {
        Ok(report) => CheckReply::Checked {
            run,
            report: Box::new(Checked {
                documents: documents.len() as u64,
                report,
            }),
        },
        Err(e) => failed(e.input(), e.to_string()),
    }
}
