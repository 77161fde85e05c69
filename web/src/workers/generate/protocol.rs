//! What a generation's worker is asked.

use serde::{Deserialize, Serialize};

/// What a generation is asked: make a [`Generator`]'s documents and send them back in
/// [`DocumentBatch`](ravenshard_model::batch::DocumentBatch)es, as an import's.
///
/// [`Generator`]: ravenshard_model::sample::Generator
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateRequest {
    /// The run's number.
    pub run: u64,
    /// The generator's settings.
    pub generator: ravenshard_model::sample::Generator,
}
