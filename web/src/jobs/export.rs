//! The CSV export, written by the workspace's host a range of documents at a time: its
//! worker writes the lines (the CSV of 10,000,000 documents is hundreds of megabytes), one
//! answer per [`CHUNK`] documents, and the page makes each answer a Blob part as it comes
//! (a file made of strings encodes them all in the one call that makes it: 200 ms for the
//! 45 MB of 1,000,000 documents), reports how far it is, and offers the file made of the
//! parts ([`browser::download_parts`]) when done. Clicking the button again stops it; a
//! change of the documents meanwhile stops it too, with a message (the file would mix two
//! states).

use super::browser;
use crate::state::CSV_HEADER;
use crate::workers::host::{self, Walked};
use ravenshard_model::host::question::Csv;
use std::cell::Cell;
use std::rc::Rc;
use yew::Callback;

/// Documents whose lines one answer holds (about 3 MB of CSV).
pub const CHUNK: u64 = 65_536;

/// Starts the CSV export of the workspace's `documents` documents as the file `name`;
/// `on_progress` hears the share written (`None` when it ends, however), `on_error` why it
/// stopped short. Setting the returned flag stops it.
pub fn export_csv(
    documents: u64,
    name: String,
    on_progress: Callback<Option<f64>>,
    on_error: Callback<String>,
) -> Rc<Cell<bool>> {
    let stopped = Rc::new(Cell::new(false));
    let job = run(documents, name, on_progress, on_error, Rc::clone(&stopped));
    wasm_bindgen_futures::spawn_local(job);
    stopped
}

async fn run(
    documents: u64,
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
    let stop = |why: &str| {
        on_progress.emit(None);
        on_error.emit(why.to_string());
    };
    on_progress.emit(Some(0.0));
    let mut written = 0;
    let on_page = |csv: String| {
        push(&csv)?;
        written += CHUNK;
        on_progress.emit(Some(written.min(documents) as f64 / documents as f64));
        Ok(CHUNK)
    };
    let question = |start, end| Csv { start, end };
    match host::walk_pages(documents, CHUNK, question, on_page, &stopped).await {
        Walked::Done(_) => {}
        Walked::Cancelled => return on_progress.emit(None),
        Walked::Stopped => {
            return stop("The studio's worker stopped during the CSV export: export again.")
        }
        Walked::Changed => {
            return stop(
                "The documents changed during the CSV export, so it stopped: export again.",
            )
        }
        Walked::Refused(e) => {
            on_progress.emit(None);
            return on_error.emit(e);
        }
    }
    on_progress.emit(None);
    if let Err(e) = browser::download_parts(&name, "text/csv", &parts) {
        on_error.emit(e);
    }
}
