//! Reading a configuration: a walk over a parsed [`Value`] that builds the types of
//! [`config`](super) and names the JSON path of any value it cannot use.
//!
//! It reads as serde's derive would: keys are exact (PascalCase); a missing key, or `null`,
//! is the empty default for `Shards`, `BucketRanges`, `Prefixed`, `Members` and a prefix's
//! `Shards`; `BucketRangeStart` and `ShardNumber` of a range and `Prefix` are required; a
//! prefix's `BucketRangeStart` may be missing or `null`; unknown keys go to `other` in the
//! order of the JSON object (a range drops them). Messages are serde's own (`invalid type:
//! string "x", expected u32`), and when several values are wrong the first in object order
//! is reported, as serde does. Walking by hand spares the studio's wasm serde's `flatten`
//! buffering and a path-tracking deserializer.

use super::{DatabaseTopology, PrefixedShardingSetting, ShardBucketRange, ShardingConfiguration};
#[cfg(test)]
use crate::read::ReadError;
use crate::read::{
    deserialize_through_the_reader, list, number, object, required, string, Path, Read,
};
use serde_json::Value;
use std::collections::BTreeMap;

/// Reads a `ShardingConfiguration` (the value of `Sharding` in a database record).
pub(crate) fn configuration(value: Value) -> Read<ShardingConfiguration> {
    sharding(value, Path::Root)
}

fn sharding(value: Value, at: Path) -> Read<ShardingConfiguration> {
    let mut config = ShardingConfiguration::default();
    for (key, value) in object(value, at, "struct ShardingConfiguration")? {
        let at = at.key(&key);
        match key.as_str() {
            "Shards" => config.shards = shards(value, at)?,
            "BucketRanges" => config.bucket_ranges = list(value, at, range)?,
            "Prefixed" => config.prefixed = list(value, at, prefix)?,
            _ => {
                config.other.insert(key, value);
            }
        }
    }
    Ok(config)
}

/// `Shards`: shard number (as written) to topology; `null` is none.
fn shards(value: Value, at: Path) -> Read<BTreeMap<String, DatabaseTopology>> {
    match value {
        Value::Null => Ok(BTreeMap::new()),
        Value::Object(entries) => {
            // Inserted one by one: collecting into a map sorts, one more copy of the sort.
            let mut shards = BTreeMap::new();
            for (key, value) in entries {
                let topology = topology(value, at.key(&key))?;
                shards.insert(key, topology);
            }
            Ok(shards)
        }
        other => Err(at.invalid_type(&other, "a map")),
    }
}

fn topology(value: Value, at: Path) -> Read<DatabaseTopology> {
    let mut topology = DatabaseTopology::default();
    for (key, value) in object(value, at, "struct DatabaseTopology")? {
        let at = at.key(&key);
        match key.as_str() {
            "Members" => topology.members = list(value, at, string)?,
            _ => {
                topology.other.insert(key, value);
            }
        }
    }
    Ok(topology)
}

fn range(value: Value, at: Path) -> Read<ShardBucketRange> {
    let (mut start, mut shard) = (None, None);
    for (key, value) in object(value, at, "struct ShardBucketRange")? {
        let at = at.key(&key);
        match key.as_str() {
            "BucketRangeStart" => start = Some(number(value, at)?),
            "ShardNumber" => shard = Some(number(value, at)?),
            _ => {}
        }
    }
    Ok(ShardBucketRange {
        bucket_range_start: required(start, at, "BucketRangeStart")?,
        shard_number: required(shard, at, "ShardNumber")?,
    })
}

fn prefix(value: Value, at: Path) -> Read<PrefixedShardingSetting> {
    let mut prefix = None;
    let mut setting = PrefixedShardingSetting::default();
    for (key, value) in object(value, at, "struct PrefixedShardingSetting")? {
        let at = at.key(&key);
        match key.as_str() {
            "Prefix" => prefix = Some(string(value, at)?),
            "Shards" => setting.shards = list(value, at, number)?,
            "BucketRangeStart" if value.is_null() => setting.bucket_range_start = None,
            "BucketRangeStart" => setting.bucket_range_start = Some(number(value, at)?),
            _ => {
                setting.other.insert(key, value);
            }
        }
    }
    setting.prefix = required(prefix, at, "Prefix")?;
    Ok(setting)
}

deserialize_through_the_reader! {
    ShardingConfiguration => sharding,
    DatabaseTopology => topology,
    ShardBucketRange => range,
    PrefixedShardingSetting => prefix,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(value: Value) -> (String, String) {
        match configuration(value) {
            Ok(config) => panic!("accepted: {config:?}"),
            Err(ReadError { path, message }) => (path, message),
        }
    }

    #[test]
    fn errors_have_serdes_words_and_the_path() {
        let cases = [
            (
                json!(5),
                "",
                "invalid type: integer `5`, expected struct ShardingConfiguration",
            ),
            (
                json!({"Shards": [1]}),
                "Shards",
                "invalid type: sequence, expected a map",
            ),
            (
                json!({"Shards": {"0": null}}),
                "Shards.0",
                "invalid type: null, expected struct DatabaseTopology",
            ),
            (
                json!({"Shards": {"0": {"Members": [1]}}}),
                "Shards.0.Members[0]",
                "invalid type: integer `1`, expected a string",
            ),
            (
                json!({"Shards": {"": {"Members": {}}}}),
                "Shards..Members",
                "invalid type: map, expected a sequence",
            ),
            (
                json!({"BucketRanges": 1}),
                "BucketRanges",
                "invalid type: integer `1`, expected a sequence",
            ),
            (
                json!({"BucketRanges": [[0, 1]]}),
                "BucketRanges[0]",
                "invalid type: sequence, expected struct ShardBucketRange",
            ),
            (
                json!({"BucketRanges": [{"ShardNumber": 0, "bucketRangeStart": 0}]}),
                "BucketRanges[0]",
                "missing field `BucketRangeStart`",
            ),
            (
                json!({"BucketRanges": [{"BucketRangeStart": 0}]}),
                "BucketRanges[0]",
                "missing field `ShardNumber`",
            ),
            (
                json!({"BucketRanges": [{"BucketRangeStart": -1, "ShardNumber": 0}]}),
                "BucketRanges[0].BucketRangeStart",
                "invalid value: integer `-1`, expected u32",
            ),
            (
                json!({"BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 4294967296u64}]}),
                "BucketRanges[0].ShardNumber",
                "invalid value: integer `4294967296`, expected u32",
            ),
            (
                json!({"BucketRanges": [{"BucketRangeStart": 1.0, "ShardNumber": 0}]}),
                "BucketRanges[0].BucketRangeStart",
                "invalid type: floating point `1.0`, expected u32",
            ),
            (
                json!({"BucketRanges": [{"BucketRangeStart": null, "ShardNumber": 0}]}),
                "BucketRanges[0].BucketRangeStart",
                "invalid type: null, expected u32",
            ),
            (
                json!({"BucketRanges": [{"ShardNumber": "x"}]}),
                "BucketRanges[0].ShardNumber",
                "invalid type: string \"x\", expected u32",
            ),
            (
                json!({"Prefixed": [[]]}),
                "Prefixed[0]",
                "invalid type: sequence, expected struct PrefixedShardingSetting",
            ),
            (
                json!({"Prefixed": [{"Shards": [0]}]}),
                "Prefixed[0]",
                "missing field `Prefix`",
            ),
            (
                json!({"Prefixed": [{"Prefix": null}]}),
                "Prefixed[0].Prefix",
                "invalid type: null, expected a string",
            ),
            (
                json!({"Prefixed": [{"Prefix": "a/"}, {"Prefix": "b/", "Shards": [0, 1.5]}]}),
                "Prefixed[1].Shards[1]",
                "invalid type: floating point `1.5`, expected u32",
            ),
            (
                json!({"Prefixed": [{"Prefix": "a/", "BucketRangeStart": true}]}),
                "Prefixed[0].BucketRangeStart",
                "invalid type: boolean `true`, expected u32",
            ),
            // The first wrong value in key order is the one reported, as serde reports it.
            (
                json!({"Shards": {"0": {"Members": 1}}, "Prefixed": 1, "BucketRanges": 1}),
                "BucketRanges",
                "invalid type: integer `1`, expected a sequence",
            ),
        ];
        for (value, path, message) in cases {
            assert_eq!(
                error(value.clone()),
                (path.into(), message.into()),
                "{value}"
            );
        }
    }

    #[test]
    fn null_and_missing_are_defaults_and_unknown_keys_are_kept() {
        let config = configuration(json!({
            "Shards": {"0": {"Members": null, "Zeta": 1, "Alpha": [2]}, "1": {}},
            "BucketRanges": null,
            "Prefixed": [{"Prefix": "a/", "Shards": null, "BucketRangeStart": null, "X": {}}],
            "shards": "not ours",
            "Orchestrator": {"Members": ["A"]},
        }))
        .unwrap();
        assert_eq!(config.shards.len(), 2);
        let zero = &config.shards["0"];
        assert!(zero.members.is_empty());
        assert_eq!(zero.other.keys().collect::<Vec<_>>(), ["Alpha", "Zeta"]);
        assert!(config.bucket_ranges.is_empty());
        let prefix = &config.prefixed[0];
        assert_eq!(
            (prefix.prefix.as_str(), prefix.bucket_range_start),
            ("a/", None)
        );
        assert!(prefix.shards.is_empty());
        assert_eq!(prefix.other["X"], json!({}));
        assert_eq!(
            config.other.keys().collect::<Vec<_>>(),
            ["Orchestrator", "shards"]
        );
        assert_eq!(
            configuration(json!({})),
            Ok(ShardingConfiguration::default())
        );

        // A range keeps its two numbers only.
        let config = configuration(json!({
            "BucketRanges": [{"BucketRangeStart": 4294967295u32, "ShardNumber": 2, "X": 1}],
            "Prefixed": [{"Prefix": "b-", "Shards": [3], "BucketRangeStart": 1048576}],
        }))
        .unwrap();
        assert_eq!(
            config.bucket_ranges,
            [ShardBucketRange {
                bucket_range_start: u32::MAX,
                shard_number: 2
            }]
        );
        assert_eq!(config.prefixed[0].shards, [3]);
        assert_eq!(config.prefixed[0].bucket_range_start, Some(1048576));
    }

    #[test]
    fn deserialize_goes_through_the_reader() {
        let text = r#"{"Shards": {"0": {"Members": ["A"]}}, "Prefixed": [{"Prefix": "a/", "Shards": [0]}]}"#;
        let config: ShardingConfiguration = serde_json::from_str(text).unwrap();
        assert_eq!(config.shards["0"].members, ["A"]);
        let range: ShardBucketRange =
            serde_json::from_value(json!({"BucketRangeStart": 5, "ShardNumber": 1})).unwrap();
        assert_eq!((range.bucket_range_start, range.shard_number), (5, 1));

        let e = serde_json::from_str::<ShardingConfiguration>(
            r#"{"BucketRanges": [{"ShardNumber": -1}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "BucketRanges[0].ShardNumber: invalid value: integer `-1`, expected u32"
        );
        let e = serde_json::from_str::<PrefixedShardingSetting>("{}").unwrap_err();
        assert_eq!(e.to_string(), "missing field `Prefix`");
        let e = serde_json::from_str::<DatabaseTopology>("[]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid type: sequence, expected struct DatabaseTopology"
        );
    }
}
