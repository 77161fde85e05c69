//! The page's side of an import read by the worker: [`Reading`] starts the import's worker
//! on a blob URL of the file, hands its replies over in order, tells it how many batches
//! the page placed, and terminates it when dropped (the import is done, failed or
//! cancelled), which frees the worker's memory.

use super::client;
use super::protocol::{Channel, ImportRequest, Reply, Request};
use futures::channel::mpsc::{unbounded, UnboundedReceiver};
use futures::StreamExt;
use ravenshard_model::import::{FieldPaths, Format};
use std::cell::Cell;
use web_sys::Blob;
use yew::Callback;

thread_local! {
    /// The last import's run number.
    static RUNS: Cell<u64> = const { Cell::new(0) };
}

/// An import in the worker.
pub struct Reading {
    run: u64,
    replies: UnboundedReceiver<Reply>,
    url: String,
    instance: Option<u64>,
}

impl Reading {
    /// Starts reading `blob` named `name` (`size` bytes, in `format`) in a new worker,
    /// keeping `fields` of each document (none: no bodies). An import running before is
    /// stopped.
    ///
    /// # Errors
    ///
    /// The browser could not make a URL of the file.
    pub fn start(
        blob: &Blob,
        name: &str,
        format: Format,
        fields: &FieldPaths,
    ) -> Result<Reading, String> {
        client::stop(Channel::Import);
        let url = web_sys::Url::create_object_url_with_blob(blob).map_err(|_| {
            "the browser could not hand the file to the studio's worker".to_string()
        })?;
        let run = RUNS.with(|r| {
            r.set(r.get() + 1);
            r.get()
        });
        let (sender, replies) = unbounded();
        let request = ImportRequest {
            run,
            url: url.clone(),
            name: name.to_string(),
            size: blob.size() as u64,
            format: format.key().to_string(),
            fields: fields.paths().map(str::to_string).collect(),
        };
        let on_reply = Callback::from(move |reply| {
            // The receiver is gone once the import stopped: a late reply is dropped.
            let _ = sender.unbounded_send(reply);
        });
        client::send(Request::Import(request), on_reply);
        Ok(Reading {
            run,
            replies,
            url,
            instance: client::instance(Channel::Import),
        })
    }

    /// The next reply of this import (a crash included); `None` when another import took
    /// the worker over.
    pub async fn next(&mut self) -> Option<Reply> {
        while let Some(reply) = self.replies.next().await {
            let run = match &reply {
                Reply::Progress { run, .. }
                | Reply::Batch { run, .. }
                | Reply::Imported { run, .. }
                | Reply::Failed { run, .. } => *run,
                _ => self.run,
            };
            if run == self.run {
                return Some(reply);
            }
        }
        None
    }

    /// Tells the worker that the page placed the first `batches` batches.
    pub fn placed(&self, batches: u64) {
        let run = self.run;
        client::tell(Request::ImportPlaced { run, batches });
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        let _ = web_sys::Url::revoke_object_url(&self.url);
        if self.instance.is_some() && client::instance(Channel::Import) == self.instance {
            client::stop(Channel::Import);
        }
    }
}
