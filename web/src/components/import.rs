//! Reading a file into the workspace without freezing the page: the core's
//! [`Importer`] is fed slices of the file of [`Importer::next_chunk_len`] bytes, and the
//! page gets the event loop back between slices (to paint the progress bar and to notice
//! Cancel).

use super::bulk;
use crate::state::{check_import_size, Loaded, Placer, WorkspaceAction};
use ravenshard_model::import::{is_bucket_statistics, Format, Importer};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;
use yew::Callback;

/// Cancels an import: each import remembers the generation it started in and stops when it
/// changes.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Rc<Cell<u64>>);

impl CancelToken {
    /// A new generation: the imports running now stop at their next slice.
    pub fn cancel(&self) {
        self.0.set(self.0.get().wrapping_add(1));
    }

    /// The generation now: a job that remembers it stops when it changes.
    pub fn generation(&self) -> u64 {
        self.0.get()
    }
}

/// How many bytes are read to guess the format.
pub(crate) const SNIFF_BYTES: f64 = 4096.0;

/// What a JavaScript exception says: an `Error`'s message, a thrown string, or its type.
fn js_message(e: &wasm_bindgen::JsValue) -> String {
    if let Some(error) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Error>(e) {
        String::from(error.message())
    } else if let Some(text) = e.as_string() {
        text
    } else {
        e.js_typeof().as_string().unwrap_or_default()
    }
}

pub(crate) async fn read_slice(blob: &Blob, start: f64, end: f64) -> Result<Vec<u8>, String> {
    let part = blob
        .slice_with_f64_and_f64(start, end)
        .map_err(|_| "the browser could not slice the file".to_string())?;
    let buffer = JsFuture::from(part.array_buffer())
        .await
        .map_err(|e| format!("the browser could not read the file ({})", js_message(&e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Imports dropped or picked files: RavenDB bucket statistics answers (told by the first
/// file's first bytes) are read whole, every file, as one workspace of statistics; anything
/// else is a document list, of which the first file is imported: placed as it is read when
/// `chunked` gives the configuration and where the workspace goes ([`bulk::import`]), else
/// by the reducer ([`import_blob`]).
pub async fn import_files(
    files: Vec<(String, Blob)>,
    on_action: Callback<WorkspaceAction>,
    token: CancelToken,
    chunked: Option<(Placer, Callback<Rc<Loaded>>)>,
) {
    let Some((name, first)) = files.first() else {
        return;
    };
    let head = match read_slice(first, 0.0, first.size().min(SNIFF_BYTES)).await {
        Ok(head) => head,
        Err(message) => {
            let name = name.clone();
            return on_action.emit(WorkspaceAction::ImportFailed { name, message });
        }
    };
    if !is_bucket_statistics(&head) {
        let Some((name, blob)) = files.into_iter().next() else {
            return;
        };
        match chunked {
            Some((placer, on_loaded)) => {
                let label = format!("Reading {name}");
                let job = bulk::Job::new(label, token, on_action, on_loaded);
                bulk::import(blob, name, placer, job).await;
            }
            None => import_blob(blob, name, on_action, token).await,
        }
        return;
    }
    token.cancel();
    let generation = token.generation();
    let (mut names, mut texts) = (Vec::new(), Vec::new());
    for (name, blob) in files {
        on_action.emit(WorkspaceAction::ImportStarted { name: name.clone() });
        let text = read_slice(&blob, 0.0, blob.size())
            .await
            .and_then(|bytes| String::from_utf8(bytes).map_err(|e| format!("not UTF-8 ({e})")));
        if token.generation() != generation {
            return;
        }
        match text {
            Ok(text) => texts.push(text),
            Err(message) => return on_action.emit(WorkspaceAction::ImportFailed { name, message }),
        }
        names.push(name);
    }
    on_action.emit(WorkspaceAction::StatisticsImported { names, texts });
}

/// Imports `blob` (a `File` or any blob) named `name`, reporting through `on_action`:
/// `ImportStarted`, `ImportProgress` after each slice, then `ImportFinished` or
/// `ImportFailed`; nothing more once `token` is cancelled.
pub async fn import_blob(
    blob: Blob,
    name: String,
    on_action: Callback<WorkspaceAction>,
    token: CancelToken,
) {
    token.cancel();
    let generation = token.generation();
    on_action.emit(WorkspaceAction::ImportStarted { name: name.clone() });
    let fail = |message: String| WorkspaceAction::ImportFailed {
        name: name.clone(),
        message,
    };
    let total = blob.size();
    let head = match read_slice(&blob, 0.0, total.min(SNIFF_BYTES)).await {
        Ok(head) => head,
        Err(e) => return on_action.emit(fail(e)),
    };
    let gzip = head.starts_with(&[0x1f, 0x8b]);
    if let Err(message) = check_import_size(total as u64, gzip) {
        return on_action.emit(fail(message));
    }
    let format = Format::detect(Some(&name), &head);
    let mut importer = Importer::new(format, Some(total as u64));
    let mut offset = 0.0;
    while offset < total {
        gloo::timers::future::TimeoutFuture::new(0).await;
        if token.generation() != generation {
            return;
        }
        let end = (offset + importer.next_chunk_len() as f64).min(total);
        let chunk = match read_slice(&blob, offset, end).await {
            Ok(chunk) => chunk,
            Err(e) => return on_action.emit(fail(e)),
        };
        if let Err(e) = importer.push(&chunk) {
            return on_action.emit(fail(format!("{e} (read as {format})")));
        }
        offset = end;
        on_action.emit(WorkspaceAction::ImportProgress {
            fraction: importer.progress().fraction(),
            documents: importer.documents_so_far(),
        });
    }
    if token.generation() != generation {
        return;
    }
    match importer.finish() {
        Ok(imported) if imported.documents.is_empty() => on_action.emit(fail(format!(
            "no document IDs were found in it (read as {format}{})",
            if imported.skipped > 0 {
                format!("; {} entries skipped", imported.skipped)
            } else {
                String::new()
            }
        ))),
        Ok(imported) => on_action.emit(WorkspaceAction::ImportFinished { name, imported }),
        Err(e) => on_action.emit(fail(format!("{e} (read as {format})"))),
    }
}
