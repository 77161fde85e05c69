//! The restore of the saved studio: the worker reads its documents from IndexedDB a part
//! at a time ([`PartReader`]) and sends them as an import's.

pub mod worker;

pub use worker::{PartReader, RESTORE_BATCH_DOCUMENTS};
