//! The studio's Web Worker: work that can take longer than a frame runs there, so that the
//! page's main thread only renders. It runs the sharding advisor
//! ([`ravenshard_model::advise`]) and the Resharding view's balance
//! ([`ravenshard_design::reshard::balance`]); it is built with `gloo-worker` as trunk's
//! worker target (`src/bin/worker.rs`, `ravenshard-studio-worker.js` and its wasm next to
//! `index.html`).
//!
//! * [`protocol`]: the messages ([`Request`], [`Reply`]), plain data.
//! * [`run`]: the worker's side ([`StudioWorker`]): reads the export from a blob URL in
//!   chunks, advises, reports progress, balances, and tells the page when it panics.
//! * [`balance`]: the balance's side of the worker ([`Balancer`]), plain Rust.
//! * [`client`]: the page's side: one worker a view ([`Channel`]), started on its first
//!   request, terminated on cancel or after a crash and started again on the next request.

pub mod balance;
pub mod client;
pub mod protocol;
pub mod run;

pub use balance::Balancer;
pub use protocol::{
    AdviseRequest, BalanceRequest, Balanced, Channel, LoadData, Reply, Request, Stage,
};
pub use run::StudioWorker;
