//! What survives a reload: the workspace and configuration as a versioned JSON value kept
//! in `localStorage`. Reading one never fails hard: a corrupt or foreign value is reported,
//! and the caller sets it aside (under [`SET_ASIDE_KEY`]) and starts from the sample.

use ravenshard::read::{boolean, list, number, object, optional, required, string, Path, Read};
use ravenshard_model::workspace::Document;
use serde::Serialize;
use serde_json::Value;

/// The `localStorage` key of the saved studio.
pub const STORAGE_KEY: &str = "ravenshard-studio";

/// Where a saved studio that cannot be read is kept, so that nothing is lost.
pub const SET_ASIDE_KEY: &str = "ravenshard-studio.unreadable";

/// The version of [`Saved`] this build writes and reads.
pub const SAVED_VERSION: u32 = 1;

/// The studio as saved (read back by hand, see [`read_saved`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    pub custom: bool,
    /// The documents.
    pub documents: Vec<Document>,
}

/// Reads a saved studio, or says why it cannot be used: not JSON, no or another format
/// version, or a value that is not what this version writes (the message names its path,
/// `documents[3].id`). Unknown keys are ignored.
pub fn read_saved(text: &str) -> Result<Saved, String> {
    // from_slice, as the core parses: one copy of serde_json's parser, not two.
    let value = serde_json::from_slice::<Value>(text.as_bytes())
        .map_err(|e| format!("the saved studio is not readable JSON ({e})"))?;
    let damaged = |e: ravenshard::read::ReadError| format!("the saved studio is damaged ({e})");
    let Value::Object(entries) = &value else {
        return Err(damaged(Path::Root.invalid_type(&value, "struct Saved")));
    };
    let version = entries.get("version").cloned().unwrap_or(Value::Null);
    match optional(version, Path::Root.key("version"), number).map_err(damaged)? {
        Some(SAVED_VERSION) => saved(value, Path::Root).map_err(damaged),
        Some(v) => Err(format!(
            "the saved studio has format version {v}, this studio reads version \
             {SAVED_VERSION}"
        )),
        None => Err("the saved studio has no format version (an older studio wrote it)".into()),
    }
}

/// A [`Saved`] from its JSON: every field but `custom` is required.
fn saved(value: Value, at: Path) -> Read<Saved> {
    let (mut version, mut database, mut nodes, mut replication_factor) = (None, None, None, None);
    let (mut config, mut custom, mut documents) = (None, false, None);
    for (key, value) in object(value, at, "struct Saved")? {
        let at = at.key(&key);
        match key.as_str() {
            "version" => version = Some(number(value, at)?),
            "database" => database = Some(string(value, at)?),
            "nodes" => nodes = Some(string(value, at)?),
            "replication_factor" => replication_factor = Some(string(value, at)?),
            "config" => config = Some(string(value, at)?),
            "custom" => custom = boolean(value, at)?,
            "documents" => documents = Some(list(value, at, Document::read)?),
            _ => {}
        }
    }
    Ok(Saved {
        version: required(version, at, "version")?,
        database: required(database, at, "database")?,
        nodes: required(nodes, at, "nodes")?,
        replication_factor: required(replication_factor, at, "replication_factor")?,
        config: required(config, at, "config")?,
        custom,
        documents: required(documents, at, "documents")?,
    })
}
