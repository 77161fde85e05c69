//! The CSV export of a large workspace, written a range of documents at a time: the CSV of
//! 10,000,000 documents is hundreds of megabytes, which one task would take seconds to
//! write. The job writes [`SLICE_MS`] at a time into parts (JS strings, never one string
//! of the whole file), gives the event loop back between slices, reports how far it is at
//! most every [`REPORT_MS`], and offers the file made of the parts
//! ([`browser::download_parts`]) when done. Each part is made a Blob in its slice: a
//! file made of strings encodes them all in the one call that makes it (200 ms for the
//! 45 MB of 1,000,000 documents). Clicking the button again stops it; a change of
//! the documents meanwhile stops it too, with a message (the file would mix two states).

use super::browser;
use super::bulk::{now, yield_now, REPORT_MS, SLICE_MS};
use crate::state::{write_csv_rows, Live, CSV_HEADER};
use ravenshard_model::workspace::Placement;
use std::cell::Cell;
use std::rc::Rc;
use yew::Callback;

/// From this many documents on the CSV is written by a job (below, at once: under about
/// 30 ms in wasm).
pub const CSV_SLICED_FROM: usize = 100_000;

/// Documents written between two looks at the clock.
const STEP: usize = 8_192;

/// Starts the CSV export of `placement` (at the handle's version) as the file `name`;
/// `on_progress` hears the share written (`None` when it ends, however), `on_error` why
/// it stopped short. Setting the returned flag stops it.
pub fn export_csv(
    placement: Live<Placement>,
    name: String,
    on_progress: Callback<Option<f64>>,
    on_error: Callback<String>,
) -> Rc<Cell<bool>> {
    let stopped = Rc::new(Cell::new(false));
    let job = run(placement, name, on_progress, on_error, Rc::clone(&stopped));
    wasm_bindgen_futures::spawn_local(job);
    stopped
}

async fn run(
    placement: Live<Placement>,
    name: String,
    on_progress: Callback<Option<f64>>,
    on_error: Callback<String>,
    stopped: Rc<Cell<bool>>,
) {
    let parts = js_sys::Array::new();
    let push = |text: &str| browser::blob_part(text).map(|part| parts.push(&part));
    if let Err(e) = push(CSV_HEADER) {
        return on_error.emit(e);
    }
    let documents = placement.get().len();
    let (mut at, mut reported) = (0, now());
    on_progress.emit(Some(0.0));
    while at < documents {
        yield_now().await;
        if stopped.get() {
            on_progress.emit(None);
            return;
        }
        if !placement.is_latest() {
            on_progress.emit(None);
            on_error.emit(
                "The documents changed during the CSV export, so it stopped: export again.".into(),
            );
            return;
        }
        let p = placement.get();
        let (slice, mut part) = (now(), String::new());
        while at < documents && now() - slice < SLICE_MS {
            let end = (at + STEP).min(documents);
            write_csv_rows(&p, at..end, &mut part);
            at = end;
        }
        drop(p);
        if let Err(e) = push(&part) {
            on_progress.emit(None);
            return on_error.emit(e);
        }
        if now() - reported >= REPORT_MS {
            reported = now();
            on_progress.emit(Some(at as f64 / documents as f64));
        }
    }
    on_progress.emit(None);
    if let Err(e) = browser::download_parts(&name, "text/csv", &parts) {
        on_error.emit(e);
    }
}
