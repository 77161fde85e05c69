//! Picking or dropping files into the workspace: RavenDB bucket statistics answers are read
//! whole, as one workspace of statistics; a document list goes to [`bulk::import`], which
//! has the studio's worker read it and places its documents as they come.

use super::bulk;
use crate::state::{Loaded, Placer, WorkspaceAction};
use ravenshard_import::is_bucket_statistics;
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

/// How many of a file's first bytes are read to tell whether it holds bucket statistics
/// (the worker tells a document list's format from as many).
pub(crate) const SNIFF_BYTES: f64 = ravenshard_import::DETECT_BYTES as f64;

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
/// else is a document list, of which the first file is imported ([`bulk::import`]): read in
/// the worker and placed by `placer` as it is read, the workspace going to `on_loaded`.
pub async fn import_files(
    files: Vec<(String, Blob)>,
    on_action: Callback<WorkspaceAction>,
    token: CancelToken,
    (placer, on_loaded): (Placer, Callback<Rc<Loaded>>),
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
        let label = format!("Reading {name}");
        let job = bulk::Job::new(label, token, on_action, on_loaded);
        bulk::import(blob, name, placer, job).await;
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
