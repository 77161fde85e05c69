//! The Readiness view's worker: checks a database record, index definitions, queries and
//! `LoadDocument` relations against RavenDB's sharding rules ([`ravenshard_check`]), with
//! the studio's documents for the data checks and its configuration (shards, prefixes and
//! nodes) as the intended sharding. [`protocol`] holds its messages; `worker` its side.

pub mod protocol;
pub(crate) mod worker;

pub use protocol::{CheckInputs, CheckReply, CheckRequest, Checked};
pub use worker::Check;
