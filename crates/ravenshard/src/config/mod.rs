//! RavenDB's `ShardingConfiguration` JSON, as it appears in a database record (PascalCase).
//!
//! These types mirror the JSON one to one; [`Topology`](crate::Topology) is the validated
//! form. Keys this crate does not model (`Orchestrator`, `BucketMigrations`, `Promotables`,
//! ...) are kept, so reading and writing a configuration does not lose them.
//!
//! Reading and writing are serde's derive. Reading takes a `null` `Shards`, `BucketRanges`,
//! `Prefixed`, `Members` or prefix `Shards` as empty, and names the JSON path of any value
//! it cannot use ([`json`]); a bucket range keeps its two numbers only.

use crate::json::{self, null_as_default};
use crate::ConfigError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

mod escapes;
mod key_order;
#[cfg(test)]
mod tests;

/// `ShardingConfiguration` as RavenDB writes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ShardingConfiguration {
    /// Shard number (as a string key) to that shard's database topology.
    #[serde(default, deserialize_with = "null_as_default")]
    pub shards: BTreeMap<String, DatabaseTopology>,
    /// Bucket ranges in ascending order of start; absent or empty at database creation.
    #[serde(default, deserialize_with = "null_as_default")]
    pub bucket_ranges: Vec<ShardBucketRange>,
    /// Prefixed sharding settings.
    #[serde(default, deserialize_with = "null_as_default")]
    pub prefixed: Vec<PrefixedShardingSetting>,
    /// Every other key, kept as it was.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One shard's database topology; only `Members` is modelled.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct DatabaseTopology {
    /// Tags of the nodes that hold an up-to-date copy of the shard.
    #[serde(default, deserialize_with = "null_as_default")]
    pub members: Vec<String>,
    /// Every other key, kept as it was.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// `{ "BucketRangeStart": n, "ShardNumber": s }`: buckets from `n` up to the next range's
/// start belong to shard `s`. Other keys of a range are not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ShardBucketRange {
    /// First bucket of the range.
    pub bucket_range_start: u32,
    /// The shard that owns the range.
    pub shard_number: u32,
}

/// `{ "Prefix": "eu/", "Shards": [0], "BucketRangeStart": 1048576 }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct PrefixedShardingSetting {
    /// The ID prefix; must end with `/` or `-`.
    pub prefix: String,
    /// The shards that hold documents with this prefix.
    #[serde(default, deserialize_with = "null_as_default")]
    pub shards: Vec<u32>,
    /// Start of the prefix's 2^20 block (assigned at creation); missing or `null` when not
    /// yet assigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bucket_range_start: Option<u32>,
    /// Every other key, kept as it was.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// A configuration read from JSON, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedConfiguration {
    /// The configuration.
    pub sharding: ShardingConfiguration,
    /// `DatabaseName` when the JSON was a whole database record.
    pub database: Option<String>,
    /// The JSON path of the configuration: `""` for a bare configuration, `"Sharding"` in a
    /// database record.
    pub base_path: String,
    /// The keys of `Shards` in the order the JSON lists them (the order RavenDB's creation
    /// step gives the main block's ranges in; `sharding.shards` is sorted).
    pub shard_order: Vec<String>,
}

/// Reads a `ShardingConfiguration`, or a database record that contains `"Sharding"`, as
/// RavenDB reads it: unknown keys are ignored (and kept), and an escaped UTF-16 surrogate
/// (`"\ud801\udc28"`) is U+FFFD, as Sparrow's reader makes it.
///
/// # Examples
///
/// ```
/// use ravenshard::config::parse_configuration;
///
/// let record = r#"{"DatabaseName": "Orders", "Sharding": {"Shards": {"0": {"Members": ["A"]}}}}"#;
/// let parsed = parse_configuration(record).unwrap();
/// assert_eq!(parsed.database.as_deref(), Some("Orders"));
/// assert_eq!(parsed.sharding.shards["0"].members, vec!["A"]);
///
/// let err = parse_configuration(r#"{"Shards": {"0": {}}, "BucketRanges": [{"BucketRangeStart": -1, "ShardNumber": 0}]}"#)
///     .unwrap_err();
/// assert_eq!(err.path(), Some("BucketRanges[0].BucketRangeStart"));
/// ```
pub fn parse_configuration(text: &str) -> Result<ParsedConfiguration, ConfigError> {
    let text = &*escapes::as_ravendb_reads_them(text);
    let value: Value = serde_json::from_str(text).map_err(|e| ConfigError::Json {
        path: "$".into(),
        line: e.line(),
        column: e.column(),
        message: json::message(&e),
    })?;
    let Value::Object(mut object) = value else {
        return Err(ConfigError::NotAConfiguration);
    };
    let (sharding, database, base_path) = match object.remove("Sharding") {
        Some(sharding) if !sharding.is_null() => {
            let database = match object.get("DatabaseName") {
                Some(Value::String(name)) => Some(name.clone()),
                _ => None,
            };
            (sharding, database, "Sharding".to_string())
        }
        _ if object.contains_key("Shards") => (Value::Object(object), None, String::new()),
        _ => return Err(ConfigError::NotAConfiguration),
    };
    let sharding = read_sharding(sharding, &base_path)?;
    let shard_order = key_order::shard_keys_in_order(text, !base_path.is_empty());
    Ok(ParsedConfiguration {
        sharding,
        database,
        base_path,
        shard_order,
    })
}

/// Reads the value of `Sharding` (at JSON path `base_path`) with the derived `Deserialize`.
fn read_sharding(value: Value, base_path: &str) -> Result<ShardingConfiguration, ConfigError> {
    json::from_value(value, "ShardingConfiguration").map_err(|e| ConfigError::Json {
        path: join_path(base_path, &json::path(&e)),
        line: 0,
        column: 0,
        message: e.into_inner().to_string(),
    })
}

/// Joins a base JSON path and a relative one: `("Sharding", "Prefixed[0]")` gives
/// `Sharding.Prefixed[0]`.
pub fn join_path(base: &str, rest: &str) -> String {
    match (base.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => base.to_string(),
        (false, false) if rest.starts_with('[') => format!("{base}{rest}"),
        (false, false) => format!("{base}.{rest}"),
    }
}
