//! The Advisor's worker: reads an export the page names by a blob URL, advises on it
//! ([`ravenshard_advise`]), and keeps it for the rewrites of the candidate applied.
//! [`protocol`] holds its messages; `worker` its side.

pub mod protocol;
pub(crate) mod worker;

pub use protocol::{AdviseRequest, AdvisorReply, AdvisorRequest};
pub use worker::Advisor;
