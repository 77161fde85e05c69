//! The configuration's derived `Deserialize`: what it reads, and the path and serde's words
//! in each error.

use super::*;
use serde_json::json;

fn configuration(value: Value) -> Result<ShardingConfiguration, ConfigError> {
    read_sharding(value, "")
}

fn error(value: Value) -> (String, String) {
    match configuration(value) {
        Ok(config) => panic!("accepted: {config:?}"),
        Err(ConfigError::Json {
            path,
            line: 0,
            message,
            ..
        }) => (path, message),
        Err(other) => panic!("not a JSON error: {other:?}"),
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
            json!([{"Shards": {}}]),
            "",
            "invalid type: sequence, expected struct ShardingConfiguration",
        ),
        (
            json!({"BucketRanges": [[0]]}),
            "BucketRanges[0]",
            "invalid length 1, expected struct ShardBucketRange with 2 elements",
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
fn deserialize_reads_text_alike() {
    let text =
        r#"{"Shards": {"0": {"Members": ["A"]}}, "Prefixed": [{"Prefix": "a/", "Shards": [0]}]}"#;
    let config: ShardingConfiguration = serde_json::from_str(text).unwrap();
    assert_eq!(config, parse_configuration(text).unwrap().sharding);
    assert_eq!(config.shards["0"].members, ["A"]);

    // serde_json reads a struct without flattened keys from an array of its fields too.
    let config = configuration(json!({"BucketRanges": [[0, 1]]})).unwrap();
    assert_eq!(
        config.bucket_ranges,
        [ShardBucketRange {
            bucket_range_start: 0,
            shard_number: 1
        }]
    );

    let e =
        serde_json::from_str::<ShardingConfiguration>(r#"{"BucketRanges": [{"ShardNumber": -1}]}"#)
            .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value: integer `-1`, expected u32 at line 1 column 36"
    );
    let e = serde_json::from_str::<PrefixedShardingSetting>("{}").unwrap_err();
    assert_eq!(e.to_string(), "missing field `Prefix` at line 1 column 2");
    let e = serde_json::from_str::<DatabaseTopology>("[]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid type: sequence, expected struct DatabaseTopology at line 1 column 0"
    );
}
