//! What a restore's worker is asked.

use ravenshard_model::batch::Read;
use serde::{Deserialize, Serialize};

/// What a restore is asked: read the saved documents' records from IndexedDB and send
/// them back in [`DocumentBatch`](ravenshard_model::batch::DocumentBatch)es, as an import's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestoreRequest {
    /// The run's number.
    pub run: u64,
    /// The keys of the documents' records, in order, as the settings record says
    /// ([`Layout::part_keys`](crate::persist::Layout::part_keys); `None`: one record, as studios saved before kept the
    /// documents).
    pub keys: Option<Vec<String>>,
    /// What earlier runs of the same restore read (zero for a first run): a restore that
    /// another save outdated reads on from the first part the newer settings name
    /// differently, and its batches count on from there.
    pub read: Read,
}
