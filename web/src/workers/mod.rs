//! The studio's Web Workers: work that can take longer than a frame runs there, so that
//! the page's main thread only renders. A worker loads the page's own module (one
//! download) and registers its role ([`register_worker`]); one worker runs per role
//! ([`Channel`]). Each role has its folder, with its messages (`protocol`), the worker's
//! side and, where it has one, the page's (its client):
//!
//! * [`host`]: the workspace's host, the worker that holds the documents
//!   ([`ravenshard_model::host::Host`]): changes in order, questions answered through
//!   callbacks, its news, and the saves of its documents.
//! * [`import`], [`generate`], [`restore`]: the jobs that make a workspace (one at a time,
//!   on one channel), their documents sent in [`DocumentBatch`]es a few ahead of the
//!   page's placing ([`Reading`]).
//! * [`save`]: the save's machinery, in the host's worker.
//! * [`reshard`]: the Resharding view's balance and plans ([`Balancer`], [`Planner`]),
//!   over the load per bucket its worker asks the host's for over their own channel.
//! * [`advisor`]: the Advisor's run ([`ravenshard_advise`]).
//! * [`check`]: the Readiness view's check ([`ravenshard_check`]), over the documents the
//!   page sends it from the host.
//!
//! [`transport`] is what every role shares ([`Role`]: its request and reply types and its
//! state; one crash reply, [`Crashed`]; one panic request); [`peer`] the channel between
//! two workers; [`progress`] the progress and file chunks of the roles that read a file;
//! [`client`] the page's side of every channel: started on its first request, terminated
//! on cancel or after a crash and started again on the next.

pub mod advisor;
pub mod check;
pub mod client;
pub mod generate;
pub mod host;
pub mod import;
pub mod peer;
pub mod progress;
pub mod reshard;
pub mod restore;
pub mod save;
pub mod transport;

pub use advisor::{AdviseRequest, Advisor, AdvisorReply, AdvisorRequest};
pub use check::{Check, CheckInputs, CheckReply, CheckRequest, Checked};
pub use generate::GenerateRequest;
pub use host::{HostReply, HostRequest, HostWorker};
pub use import::{ImportRequest, Reader, ReadingReply, ReadingRequest, BATCHES_AHEAD};
pub use progress::{Progress, Stage};
pub use ravenshard_model::batch::{DamagedBatch, DocumentBatch, Read, BATCH_DOCUMENTS};
pub use reshard::balance::Balancer;
pub use reshard::plan::{
    CallsFile, CallsRequest, PlanRequest, PlanShown, Planned, Planner, StepAt, StepShown,
    MOVES_SHOWN,
};
pub use reshard::{
    BalanceRequest, Balanced, DrainRequest, LoadAsk, LoadData, LoadSent, Reshard, ReshardReply,
    ReshardRequest,
};
pub use restore::RestoreRequest;
pub use save::{SavePart, SaveReply, SaveRequest};
pub use transport::{Channel, Crashed, Role};

/// Registers the worker of the role named `role` ([`Role::NAME`]) in the worker that
/// loaded this module: called by the worker's loader ([`client::loader`]), in the worker.
/// An unknown name registers nothing (the page hears that the worker never answers as a
/// crash, through the worker's `error` event or its first request).
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn register_worker(role: &str) {
    use gloo::worker::Registrable;
    use transport::RoleWorker;
    // Before `gloo-worker`'s listener: the messages that hand a port stop there.
    peer::listen();
    match role {
        Advisor::NAME => RoleWorker::<Advisor>::registrar().register(),
        Check::NAME => RoleWorker::<Check>::registrar().register(),
        Reshard::NAME => RoleWorker::<Reshard>::registrar().register(),
        Reader::NAME => RoleWorker::<Reader>::registrar().register(),
        HostWorker::NAME => RoleWorker::<HostWorker>::registrar().register(),
        unknown => web_sys::console::error_1(&format!("no worker role is named {unknown}").into()),
    };
}
pub use import::client::Reading;
pub use save::client::Saving;
