//! The save of the studio. [`engine`] writes the workspace's documents to IndexedDB in
//! parts, only what changed since the last save, and swaps them in with the settings at
//! once ([`Store`]); it runs in the workspace's host's worker, over the host's placement.
//! [`client`] is the machinery a save runs on ([`Saving`](client::Saving)): batches a few
//! ahead of the storing; [`protocol`] their messages; `worker` the machinery itself, in
//! the host's worker.

pub mod client;
pub mod engine;
pub mod protocol;
mod worker;

pub use engine::{size_text, unchanged_since, Documents, StorageError, Store, StoredDocuments};
pub use protocol::{SavePart, SaveReply, SaveRequest};
pub(crate) use worker::Saves;
