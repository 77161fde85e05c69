//! The studio's Web Worker: work that can take longer than a frame runs there, so that the
//! page's main thread only renders. It runs the sharding advisor
//! ([`ravenshard_advise`]), the Resharding view's balance
//! ([`ravenshard_reshard::balance`]), the reading of imports (inflating and
//! parsing, [`ravenshard_import`]), large generations
//! ([`ravenshard_model::sample::Generator`]) and the restore of the saved studio; it is built with `gloo-worker` as trunk's
//! worker target (`src/bin/worker.rs`, `ravenshard-studio-worker.js` and its wasm next to
//! `index.html`).
//!
//! * [`protocol`]: the messages ([`Request`], [`Reply`]), plain data.
//! * [`run`]: the worker's side ([`StudioWorker`]): reads the export from a blob URL in
//!   chunks, advises, reports progress, balances, and tells the page when it panics.
//! * `import`: the import's side of the worker: reads the file, keeps the design's fields
//!   only, sends the documents in [`DocumentBatch`]es a few ahead of the page's placing.
//! * `generate`: the generation's side of the worker: makes the documents a batch at a
//!   time and sends them as the import's side does.
//! * [`DocumentBatch`] (`ravenshard_model::batch`): the documents of an import or a generation as flat
//!   arrays.
//! * [`restore`]: the restore's side of the worker: reads the saved studio's documents from
//!   IndexedDB a part at a time and sends them as an import's.
//! * `save`: the save's side of the worker: writes the page's batches out in parts and
//!   stores them beside the parts in force, then swaps them in in one transaction.
//! * [`saving`]: the page's side of a save ([`Saving`]): sends the placement's documents
//!   in batches, a few ahead of the worker's storing.
//! * `writer`: writes documents out in parts and stores them under a save generation's
//!   keys: the save's worker for the page's batches, an import's worker
//!   for the documents it makes.
//! * [`saved`]: the saved studio's records in IndexedDB, read and written the same way by
//!   the page and the worker.
//! * [`balance`]: the balance's side of the worker ([`Balancer`]), plain Rust.
//! * [`reading`]: the page's side of an import or a generation ([`Reading`]): its replies
//!   in order, the batches placed, the worker terminated when it ends.
//! * [`host`]: the page's side of the workspace's host, the worker that holds the
//!   documents ([`ravenshard_model::host::Host`]): changes in order, questions answered
//!   through callbacks, its news.
//! * [`client`]: the page's side: one worker a view ([`Channel`]), started on its first
//!   request, terminated on cancel or after a crash and started again on the next request.

pub mod balance;
pub mod client;
mod generate;
pub mod host;
mod import;
pub mod plan;
pub mod protocol;
pub mod reading;
pub mod restore;
pub mod run;
mod save;
pub mod saved;
pub mod saving;
pub mod store;
mod writer;

pub use balance::Balancer;
pub use plan::{
    CallsFile, CallsRequest, PlanRequest, PlanShown, Planned, Planner, StepAt, StepShown,
    MOVES_SHOWN,
};
pub use protocol::{
    AdviseRequest, BalanceRequest, Balanced, Channel, DrainRequest, GenerateRequest, HostRequest,
    ImportRequest, LoadData, Reply, Request, RestoreRequest, SavePart, Stage, BATCHES_AHEAD,
};
pub use ravenshard_model::batch::{DamagedBatch, DocumentBatch, Read, BATCH_DOCUMENTS};

/// Registers [`StudioWorker`] in the worker that loaded this module: called by the worker's
/// loader ([`client::loader`]), in the worker.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn register_studio_worker() {
    use gloo::worker::Registrable;
    StudioWorker::registrar().register();
}
pub use reading::Reading;
pub use run::StudioWorker;
pub use saving::Saving;
