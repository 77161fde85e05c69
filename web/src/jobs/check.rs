//! The readiness check's run ([`check`]): the studio's documents, asked of the
//! workspace's host a page of [`PAGE`] at a time and sent on to the check's worker,
//! then the check itself. The documents pass through the page once per run, a page at a
//! time, as the CSV export's lines do; a change of the documents meanwhile stops the run
//! with a message (the check would mix two states).

use crate::workers::host::{self, Walked};
use crate::workers::{client, Check, CheckInputs, CheckReply, CheckRequest};
use ravenshard_model::host::question::Documents;
use std::cell::Cell;
use std::convert::Infallible;
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
    let run_number = inputs.run;
    // An empty first page tells the worker the run began (it drops an older run's pages).
    client::send::<Check>(
        CheckRequest::Documents {
            run: run_number,
            documents: Vec::new(),
        },
        news.replies.clone(),
    );
    let mut sent = 0;
    let on_page = |documents: Vec<_>| {
        let read = documents.len() as u64;
        if read > 0 {
            let request = CheckRequest::Documents {
                run: run_number,
                documents,
            };
            client::send::<Check>(request, news.replies.clone());
            sent += read;
            news.sent.emit(sent);
        }
        Ok::<_, Infallible>(read)
    };
    let question = |start, end| Documents { start, end };
    let why = match host::walk_pages(inputs.documents, PAGE, question, on_page, &stopped).await {
        Walked::Done(documents) => {
            let inputs = CheckInputs {
                documents,
                ..inputs
            };
            return client::send::<Check>(CheckRequest::Check(inputs), news.replies);
        }
        Walked::Cancelled | Walked::Refused(_) => return,
        Walked::Stopped => {
            "The studio's worker stopped while the documents were sent: check again."
        }
        Walked::Changed => "The documents changed while they were sent to the check: check again.",
    };
    news.stopped.emit(why.into());
}
