//! The restore of the saved studio: the worker reads its documents from IndexedDB a part
//! at a time ([`PartReader`]) and sends them as an import's. [`protocol`] holds its
//! request.

pub mod protocol;
pub mod worker;

pub use protocol::RestoreRequest;
pub use worker::{PartReader, RESTORE_BATCH_DOCUMENTS};
