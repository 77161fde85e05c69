//! The studio's Web Workers: work that can take longer than a frame runs there, so that
//! the page's main thread only renders. The workers load the page's own module (one
//! download) and register [`StudioWorker`] ([`register_studio_worker`]); one worker runs
//! per channel ([`Channel`]). Each role has its folder, with the page's side (its client)
//! and the worker's:
//!
//! * [`host`]: the workspace's host, the worker that holds the documents
//!   ([`ravenshard_model::host::Host`]): changes in order, questions answered through
//!   callbacks, its news.
//! * [`import`], [`generate`], [`restore`]: the jobs that make a workspace, their documents
//!   sent in [`DocumentBatch`]es a few ahead of the page's placing ([`Reading`]).
//! * [`save`]: the save of the studio, written from the host's documents.
//! * [`reshard`]: the Resharding view's balance and plans ([`Balancer`], [`Planner`]).
//! * The Advisor's run ([`ravenshard_advise`]) is in [`run`].
//!
//! [`protocol`] holds the messages ([`Request`], [`Reply`]), plain data; [`run`] the
//! worker's side ([`StudioWorker`]); [`client`] the page's side of every channel: started on
//! its first request, terminated on cancel or after a crash and started again on the next.

pub mod client;
pub mod generate;
pub mod host;
pub mod import;
pub mod protocol;
pub mod reshard;
pub mod restore;
pub mod run;
pub mod save;

pub use protocol::{
    AdviseRequest, BalanceRequest, Balanced, Channel, DrainRequest, GenerateRequest, HostRequest,
    ImportRequest, LoadData, Reply, Request, RestoreRequest, SavePart, Stage, BATCHES_AHEAD,
};
pub use ravenshard_model::batch::{DamagedBatch, DocumentBatch, Read, BATCH_DOCUMENTS};
pub use reshard::balance::Balancer;
pub use reshard::plan::{
    CallsFile, CallsRequest, PlanRequest, PlanShown, Planned, Planner, StepAt, StepShown,
    MOVES_SHOWN,
};

/// Registers [`StudioWorker`] in the worker that loaded this module: called by the worker's
/// loader ([`client::loader`]), in the worker.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn register_studio_worker() {
    use gloo::worker::Registrable;
    StudioWorker::registrar().register();
}
pub use import::client::Reading;
pub use run::StudioWorker;
pub use save::client::Saving;
