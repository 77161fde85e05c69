//! The documents view's rows over a large placement, made a slice at a time: a first sort
//! or a filter of millions of documents is a pass over all of them (seconds at
//! 10,000,000), which the render that reads the rows must not make in one task. The
//! [`RowsJob`](ravenshard_model::workspace::RowsJob) of the model runs here
//! [`SLICE_MS`] at a time, giving the event loop back between slices (the page paints and
//! takes input), reporting its progress at most every [`REPORT_MS`], and hands its rows
//! over as [`ViewAction::RowsMade`]. An edit of the documents or another query ends it:
//! the placement's handle is no longer the latest, or the view dropped the job.

use super::bulk::{now, yield_now, REPORT_MS, SLICE_MS};
use crate::state::{Live, ViewAction};
use ravenshard_model::workspace::{Placement, RowQuery};
use std::cell::Cell;
use std::rc::Rc;
use yew::Callback;

/// Documents a step of the job reads (about a millisecond in wasm): the job checks the
/// clock between steps.
const STEP: usize = 4_096;

/// Ends a rows job when dropped (the view's query or placement changed, or the view went).
#[derive(Debug, Default)]
pub struct RowsJobHandle(Rc<Cell<bool>>);

impl Drop for RowsJobHandle {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

/// Starts making the rows of `query` over `placement` (at the handle's version), sending
/// progress and the rows to `on`; the job ends when the handle is dropped.
pub fn start(
    placement: Live<Placement>,
    query: RowQuery,
    on: Callback<ViewAction>,
) -> RowsJobHandle {
    let stopped = Rc::new(Cell::new(false));
    wasm_bindgen_futures::spawn_local(run(placement, query, on, Rc::clone(&stopped)));
    RowsJobHandle(stopped)
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
    loop {
        // Yield first: the job starts after the render that asked for it is painted.
        yield_now().await;
        if stopped.get() || !placement.is_latest() {
            return;
        }
        // The placement is borrowed for one slice only: an edit between slices changes
        // it in place (a kept `Rc` would make the edit copy it).
        let p = placement.get();
        let slice = now();
        let made = loop {
            match job.step(&p, STEP) {
                Ok(Some(rows)) => break Some(rows),
                Ok(None) if now() - slice < SLICE_MS => {}
                Ok(None) => break None,
                Err(_) => return,
            }
        };
        drop(p);
        if let Some(rows) = made {
            on.emit(ViewAction::RowsMade {
                version,
                query,
                rows: Rc::new(rows),
            });
            return;
        }
        if now() - reported >= REPORT_MS {
            reported = now();
            let (done, total) = job.progress();
            on.emit(ViewAction::RowsProgress {
                version,
                query: query.clone(),
                done,
                total,
            });
        }
    }
}
