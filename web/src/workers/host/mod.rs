//! The workspace's host: the worker that holds the documents' placement
//! ([`ravenshard_model::host::Host`]) for the page's whole life. [`protocol`] holds its
//! messages, `worker` its side ([`HostWorker`]), [`client`] the page's: changes in order,
//! questions answered through callbacks, its news.

mod advice;
pub mod client;
pub mod protocol;
pub(crate) mod worker;

pub use client::*;
pub use protocol::{HostReply, HostRequest};
pub use worker::HostWorker;
