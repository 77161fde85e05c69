//! The page's side of an import read by the worker, a generation made there, or a restore
//! of the saved studio read there: [`Reading`]
//! starts the worker (on a blob URL of the file, or with the generator's settings), hands
//! its replies over in order, tells it how many batches the page placed, and terminates it
//! when dropped (the run is done, failed or cancelled), which frees the worker's memory.

use crate::workers::client;
use crate::workers::generate::GenerateRequest;
use crate::workers::import::protocol::{ImportRequest, ReadingReply, ReadingRequest};
use crate::workers::import::worker::Reader;
use crate::workers::restore::RestoreRequest;
use crate::workers::transport::Channel;
use futures::channel::mpsc::UnboundedReceiver;
use futures::StreamExt;
use ravenshard_import::FieldPaths;
use ravenshard_model::batch::Read;
use ravenshard_model::sample::Generator;
use web_sys::Blob;

/// An import or a generation in the worker.
pub struct Reading {
    run: u64,
    replies: UnboundedReceiver<ReadingReply>,
    /// The file's blob URL (an import's), revoked when the run ends.
    url: Option<String>,
    instance: Option<u64>,
}

impl Reading {
    /// Starts reading `blob` named `name` in a new worker, which tells its
    /// format from its name and first bytes, keeping `fields` of each document (none: no
    /// bodies). An import or a generation running before is stopped.
    ///
    /// # Errors
    ///
    /// The browser could not make a URL of the file.
    pub fn start(blob: &Blob, name: &str, fields: &FieldPaths) -> Result<Reading, String> {
        client::stop(Channel::Import);
        let url = web_sys::Url::create_object_url_with_blob(blob).map_err(|_| {
            "the browser could not hand the file to the studio's worker".to_string()
        })?;
        let request = |run| {
            ReadingRequest::Import(ImportRequest {
                run,
                url: url.clone(),
                name: name.to_string(),
                size: blob.size() as u64,
                fields: fields.paths().map(str::to_string).collect(),
            })
        };
        Ok(Reading::begin(request, Some(url.clone())))
    }

    /// Starts making `generator`'s documents in a new worker, which sends them in batches
    /// as an import's. An import or a generation running before is stopped.
    pub fn generate(generator: Generator) -> Reading {
        client::stop(Channel::Import);
        Reading::begin(
            |run| ReadingRequest::Generate(GenerateRequest { run, generator }),
            None,
        )
    }

    /// Starts reading the saved studio's documents (the records `keys`, in order, or
    /// `None`: one record as studios saved before kept them) in a new worker, which sends
    /// them in batches as an import's, counting on from `read` (what earlier runs of the
    /// restore read; zero for the first). An import or a generation running before is
    /// stopped.
    pub fn restore(keys: Option<Vec<String>>, read: Read) -> Reading {
        client::stop(Channel::Import);
        let request = |run| ReadingRequest::Restore(RestoreRequest { run, keys, read });
        Reading::begin(request, None)
    }

    /// Sends the request of a new run to a new worker (the one before was stopped).
    fn begin(request: impl FnOnce(u64) -> ReadingRequest, url: Option<String>) -> Reading {
        let run = client::next_run();
        let (on_reply, replies) = client::queue();
        client::send::<Reader>(request(run), on_reply);
        Reading {
            run,
            replies,
            url,
            instance: client::instance(Channel::Import),
        }
    }

    /// The next reply of this run (a crash included); `None` when another import or
    /// generation took the worker over.
    pub async fn next(&mut self) -> Option<ReadingReply> {
        while let Some(reply) = self.replies.next().await {
            let run = match &reply {
                ReadingReply::Progress(progress) => progress.run,
                ReadingReply::Batch { run, .. }
                | ReadingReply::Imported { run, .. }
                | ReadingReply::Generated { run, .. }
                | ReadingReply::Restored { run, .. }
                | ReadingReply::PartMissing { run, .. }
                | ReadingReply::Failed { run, .. } => *run,
                ReadingReply::Crashed(_) => self.run,
            };
            if run == self.run {
                return Some(reply);
            }
        }
        None
    }

    /// Tells the worker that the page placed the run's first `batches` batches.
    pub fn placed(&self, batches: u64) {
        let run = self.run;
        client::tell::<Reader>(ReadingRequest::Placed { run, batches });
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        if let Some(url) = &self.url {
            let _ = web_sys::Url::revoke_object_url(url);
        }
        if self.instance.is_some() && client::instance(Channel::Import) == self.instance {
            client::stop(Channel::Import);
        }
    }
}
