//! The readiness check's run ([`check`]): the studio's documents, asked of the
//! workspace's host a page of [`PAGE`] at a time and sent on to the check's worker,
//! then the check itself. The documents pass through the page once per run, a page at a
//! time, as the CSV export's lines do; a change of the documents meanwhile stops the run
//! with a message (the check would mix two states).

use crate::workers::{client, host, Check, CheckInputs, CheckReply, CheckRequest};
use ravenshard_model::host::question::Documents;
use std::cell::Cell;
use std::rc::Rc;
use yew::Callback;

/// Documents asked and sent on per step: a quarter of what the host lists at most
/// ([`MAX_LISTED`](ravenshard_model::host::MAX_LISTED)), so that decoding a page and
/// encoding it again for the check's worker stays one short main-thread task, even with
/// bodies kept.
pub const PAGE: u64 = 16_384;

/// Where a run's news go.
pub struct CheckNews {
    /// Documents sent so far.
    pub sent: Callback<u64>,
    /// Why the documents could not be sent (the run is over).
    pub stopped: Callback<String>,
    /// The worker's replies.
    pub replies: Callback<CheckReply>,
}

/// Starts run `inputs.run` over the workspace's `inputs.documents` documents. Setting the
/// returned flag stops it (no more documents nor the check are sent).
pub fn check(inputs: CheckInputs, news: CheckNews) -> Rc<Cell<bool>> {
    let stopped = Rc::new(Cell::new(false));
    wasm_bindgen_futures::spawn_local(run(inputs, news, Rc::clone(&stopped)));
    stopped
}

async fn run(inputs: CheckInputs, news: CheckNews, stopped: Rc<Cell<bool>>) {
    let (total, run_number) = (inputs.documents, inputs.run);
    let (mut at, mut version) = (0, None);
    // An empty first page tells the worker the run began (it drops an older run's pages).
    client::send::<Check>(
        CheckRequest::Documents {
            run: run_number,
            documents: Vec::new(),
        },
        news.replies.clone(),
    );
    while at < total {
        let question = Documents {
            start: at,
            end: (at + PAGE).min(total),
        };
        let answered = host::answer_in_background(question).await;
        if stopped.get() {
            return;
        }
        let Some(answered) = answered else {
            return news.stopped.emit(
                "The studio's worker stopped while the documents were sent: check again.".into(),
            );
        };
        if *version.get_or_insert(answered.version) != answered.version {
            return news.stopped.emit(
                "The documents changed while they were sent to the check: check again.".into(),
            );
        }
        let documents = &*answered.answer;
        if documents.is_empty() {
            break;
        }
        at += documents.len() as u64;
        let request = CheckRequest::Documents {
            run: run_number,
            documents: documents.clone(),
        };
        client::send::<Check>(request, news.replies.clone());
        news.sent.emit(at);
    }
    let inputs = CheckInputs {
        documents: at,
        ..inputs
    };
    client::send::<Check>(CheckRequest::Check(inputs), news.replies);
}
