//! What survives a reload: the workspace and configuration as a versioned JSON value kept
//! in `localStorage`. Reading one never fails hard: a corrupt or foreign value is reported,
//! and the caller sets it aside (under [`SET_ASIDE_KEY`]) and starts from the sample.

use ravenshard::workspace::Document;
use serde::{Deserialize, Serialize};

/// The `localStorage` key of the saved studio.
pub const STORAGE_KEY: &str = "ravenshard-studio";

/// Where a saved studio that cannot be read is kept, so that nothing is lost.
pub const SET_ASIDE_KEY: &str = "ravenshard-studio.unreadable";

/// The version of [`Saved`] this build writes and reads.
pub const SAVED_VERSION: u32 = 1;

/// The studio as saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// [`SAVED_VERSION`] when written.
    pub version: u32,
    /// The database name.
    pub database: String,
    /// The nodes field.
    pub nodes: String,
    /// The replication factor field.
    pub replication_factor: String,
    /// The `ShardingConfiguration` JSON in force (with members).
    pub config: String,
    /// Whether the configuration was given as JSON (ranges or prefixes may be custom).
    #[serde(default)]
    pub custom: bool,
    /// The documents.
    pub documents: Vec<Document>,
}

/// Reads a saved studio, or says why it cannot be used.
pub fn read_saved(text: &str) -> Result<Saved, String> {
    #[derive(Deserialize)]
    struct Versioned {
        version: Option<u32>,
    }
    // from_slice, as the core parses: one copy of serde_json's parser, not two.
    let version = serde_json::from_slice::<Versioned>(text.as_bytes())
        .map_err(|e| format!("the saved studio is not readable JSON ({e})"))?
        .version;
    match version {
        Some(SAVED_VERSION) => serde_json::from_slice::<Saved>(text.as_bytes())
            .map_err(|e| format!("the saved studio is damaged ({e})")),
        Some(v) => Err(format!(
            "the saved studio has format version {v}, this studio reads version \
             {SAVED_VERSION}"
        )),
        None => Err("the saved studio has no format version (an older studio wrote it)".into()),
    }
}
