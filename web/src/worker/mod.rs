//! The studio's Web Worker: work that can take longer than a frame runs there, so that the
//! page's main thread only renders. Today it runs the sharding advisor
//! ([`ravenshard_model::advise`]); it is built with `gloo-worker` as trunk's worker target
//! (`src/bin/worker.rs`, `ravenshard-studio-worker.js` and its wasm next to `index.html`).
//!
//! * [`protocol`]: the messages ([`Request`], [`Reply`]), plain data.
//! * [`run`]: the worker's side ([`StudioWorker`]): reads the export from a blob URL in
//!   chunks, advises, reports progress, and tells the page when it panics.
//! * [`client`]: the page's side: one worker for the page, started on the first request,
//!   terminated on cancel or after a crash and started again on the next request.

pub mod client;
pub mod protocol;
pub mod run;

pub use protocol::{AdviseRequest, Reply, Request, Stage};
pub use run::StudioWorker;
