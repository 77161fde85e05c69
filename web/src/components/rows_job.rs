//! The documents view's rows over a large placement, made a slice at a time: a first sort
//! or a filter of millions of documents is a pass over all of them (seconds at
//! 10,000,000), which the render that reads the rows must not make in one task. The
//! [`RowsJob`](ravenshard_model::workspace::RowsJob) of the model runs here
//! [`SLICE_MS`](super::bulk::SLICE_MS) at a time ([`in_slices`]), giving the event loop
//! back between slices (the page paints and takes input), reporting its progress at most every [`REPORT_MS`], and hands its rows
//! over as [`ViewAction::RowsMade`]. An edit of the documents or another query ends it:
//! the placement's handle is no longer the latest, or the view dropped the job.

use super::bulk::{in_slices, now, JobHandle, REPORT_MS};
use crate::state::{Live, ViewAction};
use ravenshard_model::workspace::{Placement, RowQuery};
use std::cell::Cell;
use std::rc::Rc;
use yew::Callback;

/// Documents a step of the job reads (about a millisecond in wasm): the job checks the
/// clock between steps.
const STEP: usize = 4_096;

/// Starts making the rows of `query` over `placement` (at the handle's version), sending
/// progress and the rows to `on`; the job ends when the handle is dropped.
pub fn start(placement: Live<Placement>, query: RowQuery, on: Callback<ViewAction>) -> JobHandle {
    let handle = JobHandle::default();
    wasm_bindgen_futures::spawn_local(run(placement, query, on, handle.stopped()));
    handle
}

async fn run(
    placement: Live<Placement>,
    query: RowQuery,
    on: Callback<ViewAction>,
    stopped: Rc<Cell<bool>>,
) {
    let version = placement.version();
    let mut job = placement.get().rows_job(&query);
    let mut reported = now();
    let made = in_slices(&placement, &stopped, |p| {
        let made = job.step(p, STEP).transpose();
        if made.is_none() && now() - reported >= REPORT_MS {
            reported = now();
            let (done, total) = job.progress();
            on.emit(ViewAction::RowsProgress {
                version,
                query: query.clone(),
                done,
                total,
            });
        }
        made
    })
    .await;
    // Made, or the placement changed under the job (dropped: the view makes them again).
    if let Some(Ok(rows)) = made {
        on.emit(ViewAction::RowsMade {
            version,
            query,
            rows: Rc::new(rows),
        });
    }
}
