//! The jobs that make a workspace in a worker: an import of a document list, a generation,
//! a restore (one at a time, on one channel). [`protocol`] holds their messages; `worker`
//! the worker's side ([`Reader`]: reads the file, keeps the design's fields only, sends
//! the documents in batches a few ahead of the page's placing); [`client`] the page's
//! side ([`Reading`](client::Reading)): its replies in order, the worker terminated when
//! it ends.

pub mod client;
pub mod protocol;
pub(crate) mod worker;

pub use protocol::{ImportRequest, ReadingReply, ReadingRequest, BATCHES_AHEAD};
pub use worker::Reader;
