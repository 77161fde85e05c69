//! The import of a document list. `worker` is the worker's side: reads the file, keeps
//! the design's fields only, sends the documents in batches a few ahead of the page's
//! placing. [`client`] is the page's side of an import, a generation or a restore
//! ([`Reading`](client::Reading)): its replies in order, the worker terminated when it ends.

pub mod client;
pub(crate) mod worker;
