//! What survives a reload: the workspace and configuration as a versioned JSON value kept
//! in `localStorage`. Reading one never fails hard: a corrupt or foreign value is reported,
//! and the caller sets it aside (under [`SET_ASIDE_KEY`]) and starts from the sample.

use ravenshard::json::{self, null_as_default};
use ravenshard_model::workspace::Document;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `localStorage` key of the saved studio.
pub const STORAGE_KEY: &str = "ravenshard-studio";

/// Where a saved studio that cannot be read is kept, so that nothing is lost.
pub const SET_ASIDE_KEY: &str = "ravenshard-studio.unreadable";

/// The version of [`Saved`] this build writes and reads.
pub const SAVED_VERSION: u32 = 1;

/// The studio as saved (read back with [`read_saved`]).
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
    /// Whether the configuration was given as JSON (ranges or prefixes may be custom);
    /// `false` when missing.
    #[serde(default)]
    pub custom: bool,
    /// The documents (`null` reads as none).
    #[serde(deserialize_with = "null_as_default")]
    pub documents: Vec<Document>,
}

/// The format version of a saved studio, read before the rest: a studio of another version
/// is named as such, not as damaged.
#[derive(Deserialize)]
#[serde(expecting = "struct Saved")]
struct Version {
    version: Option<u32>,
}

/// Reads a saved studio, or says why it cannot be used: not JSON, no or another format
/// version, or a value that is not what this version writes (the message names its path,
/// `documents[3].id`). Unknown keys are ignored.
pub fn read_saved(text: &str) -> Result<Saved, String> {
    let value = serde_json::from_str::<Value>(text)
        .map_err(|e| format!("the saved studio is not readable JSON ({e})"))?;
    let damaged = |e: json::Error| format!("the saved studio is damaged ({e})");
    let Version { version } = json::from_value(&value, "Saved").map_err(damaged)?;
    match version {
        Some(SAVED_VERSION) => json::from_value(value, "Saved").map_err(damaged),
        Some(v) => Err(format!(
            "the saved studio has format version {v}, this studio reads version \
             {SAVED_VERSION}"
        )),
        None => Err("the saved studio has no format version (an older studio wrote it)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAVED: &str = r#"{"version": 1, "database": "Orders", "nodes": "A, B", "replication_factor": "1", "config": "{}", "documents": [{"id": "a", "size": 3}]}"#;

    fn with(key: &str, value: Value) -> String {
        let mut saved: Value = serde_json::from_str(SAVED).unwrap();
        saved[key] = value;
        saved.to_string()
    }

    #[test]
    fn null_documents_are_none_and_numbers_are_checked() {
        let saved = read_saved(SAVED).unwrap();
        assert_eq!((saved.version, saved.documents.len()), (1, 1));
        let saved = read_saved(&with("documents", Value::Null)).unwrap();
        assert!(saved.documents.is_empty());
        let damaged = |key: &str, value: Value| read_saved(&with(key, value)).unwrap_err();
        assert_eq!(
            damaged("version", 1.0.into()),
            "the saved studio is damaged (version: invalid type: floating point `1.0`, \
             expected u32)"
        );
        assert_eq!(
            damaged("version", 4_294_967_297u64.into()),
            "the saved studio is damaged (version: invalid value: integer `4294967297`, \
             expected u32)"
        );
        assert_eq!(
            damaged("documents", serde_json::json!([{"id": "a", "size": 1.5}])),
            "the saved studio is damaged (documents[0].size: invalid type: floating point \
             `1.5`, expected u64)"
        );
        assert_eq!(
            read_saved("5").unwrap_err(),
            "the saved studio is damaged (invalid type: integer `5`, expected struct Saved)"
        );
    }
}
