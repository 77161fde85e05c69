//! Broken configurations: each error names the offending value and its JSON path, with
//! RavenDB's own message where it has one.

use ravenshard::{ConfigError, ConfigWarning, Topology};

fn error(json: &str) -> ConfigError {
    match Topology::from_json(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => e,
    }
}

fn shards(n: u32) -> String {
    let entries: Vec<String> = (0..n).map(|i| format!("\"{i}\": {{}}")).collect();
    format!("{{{}}}", entries.join(","))
}

#[test]
fn prefix_must_end_with_slash_or_dash() {
    let e = error(&format!(
        r#"{{"Shards": {}, "Prefixed": [{{"Prefix": "asia", "Shards": [1, 2]}}]}}"#,
        shards(3)
    ));
    assert_eq!(e.path(), Some("Prefixed[0].Prefix"));
    assert!(e.to_string().contains(
        "Cannot add prefix 'asia' to ShardingConfiguration.Prefixed. In order to define \
         sharding by prefix, the prefix string must end with '/' or '-' characters."
    ));
}

#[test]
fn prefix_needs_shards_that_exist() {
    let e = error(&format!(
        r#"{{"Shards": {}, "Prefixed": [{{"Prefix": "users/", "Shards": []}}]}}"#,
        shards(2)
    ));
    assert_eq!(e.path(), Some("Prefixed[0].Shards"));
    assert!(e
        .to_string()
        .contains("PrefixedShardingSetting.Shards cannot be empty"));

    let e = error(&format!(
        r#"{{"Shards": {}, "Prefixed": [{{"Prefix": "users/", "Shards": [0, 5]}}]}}"#,
        shards(2)
    ));
    assert_eq!(e.path(), Some("Prefixed[0].Shards[1]"));
    assert!(e.to_string().contains(
        "Cannot assign shard number 5 to prefix users/, there's no shard '5' in sharding topology!"
    ));
}

#[test]
fn prefix_in_different_casing() {
    let e = error(&format!(
        r#"{{"Shards": {}, "Prefixed": [{{"Prefix": "users/", "Shards": [0]}}, {{"Prefix": "Users/", "Shards": [1]}}]}}"#,
        shards(2)
    ));
    assert_eq!(e.path(), Some("Prefixed[1].Prefix"));
    assert!(e
        .to_string()
        .contains("Prefix 'Users/' already exists in different casing"));
}

/// RavenDB's own record after moving buckets 982,173 to 1,048,575 from shard 2 to a new
/// shard 3, one at a time with `ShardHelper.MoveBucket` (7.1.5): an empty range at the last
/// bucket, two ranges with one start. It is read, with a warning, and answered as
/// `FindBucketShard` answers: the later of the two ranges.
#[test]
fn ranges_with_one_start_are_read_as_the_server_reads_them() {
    let record = r#"{"Shards": {"0": {}, "1": {}, "2": {}, "3": {}}, "BucketRanges": [
        {"BucketRangeStart": 0, "ShardNumber": 0}, {"BucketRangeStart": 349525, "ShardNumber": 1},
        {"BucketRangeStart": 699050, "ShardNumber": 2}, {"BucketRangeStart": 982173, "ShardNumber": 3},
        {"BucketRangeStart": 1048575, "ShardNumber": 2}, {"BucketRangeStart": 1048575, "ShardNumber": 3}]}"#;
    let t = Topology::from_json(record).unwrap();
    assert_eq!(t.shard_for_bucket(1048575), Some(3));
    assert_eq!(t.shard_for_bucket(1048574), Some(3));
    assert_eq!(t.shard_for_bucket(982172), Some(2));
    assert_eq!(t.locate("customers/1-A").unwrap().shard, 3);
    assert!(t.warnings().iter().any(|w| matches!(
        w,
        ConfigWarning::EmptyRange {
            start: 1048575,
            shard: 2,
            refuses_moves: false,
            ..
        }
    )));
    assert!(!t
        .warnings()
        .iter()
        .any(|w| matches!(w, ConfigWarning::ShardWithoutBuckets { .. })));
}

/// A record the config fuzz target made (`fixtures/fuzz-config-empty-range-mid-block.json`):
/// two ranges start at 699,050 in the middle of the default block, the block's last bucket
/// has its own range, and the prefix block starts late. RavenDB 7.1.5 and 6.2.4 read it
/// and answer as below (`FindBucketShard`, `GetShardNumberAndBucketFor`); their
/// `ValidateBucketsMapping` refuses it ("Overlap detected between mapping '2' and '1'"), so
/// the warning says that no bucket can move while the empty range stays.
#[test]
fn ranges_with_one_start_mid_block_are_read_and_said_to_block_moves() {
    let record = include_str!("fixtures/fuzz-config-empty-range-mid-block.json");
    let t = Topology::from_json(record).unwrap();
    let ravendb = [
        (0, 0),
        (699049, 0),
        (699050, 2),
        (699051, 2),
        (1048574, 2),
        (1048575, 1),
        (1048576, 2),
        (1572863, 2),
        (1572864, 2),
        (2097151, 2),
    ];
    for (bucket, shard) in ravendb {
        assert_eq!(t.shard_for_bucket(bucket), Some(shard), "bucket {bucket}");
    }
    for (id, bucket, shard) in [
        ("orders/1-A", 151326, 0),
        ("customers/1-A$x", 266531, 0),
        ("eu/1", 1816397, 2),
        ("eu/", 1872555, 2),
        ("a", 814683, 2),
    ] {
        let located = t.locate(id).unwrap();
        assert_eq!((located.bucket, located.shard), (bucket, shard), "{id}");
    }
    let empty: Vec<_> = t
        .warnings()
        .iter()
        .filter(|w| matches!(w, ConfigWarning::EmptyRange { .. }))
        .collect();
    assert_eq!(
        empty,
        [&ConfigWarning::EmptyRange {
            path: "Sharding.BucketRanges[1]".to_string(),
            start: 699050,
            shard: 1,
            refuses_moves: true,
        }]
    );
    assert!(empty[0].to_string().contains("refuses every bucket move"));
    // Written back, the record keeps both ranges, as RavenDB writes it.
    let again = Topology::from_json(&t.to_json()).unwrap();
    assert_eq!(again.ranges(), t.ranges());
}

/// After MoveBucket moves the first bucket of a prefix's block, the block's first range
/// starts one bucket late (RavenDB 7.1.5); FindBucketShard gives the first bucket to that
/// range all the same.
#[test]
fn a_prefix_block_whose_first_range_starts_late_is_read_as_the_server_reads_it() {
    let record = r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [0, 1], "BucketRangeStart": 1048576}],
        "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0}, {"BucketRangeStart": 1048577, "ShardNumber": 1},
        {"BucketRangeStart": 1572864, "ShardNumber": 0}]}"#;
    let t = Topology::from_json(record).unwrap();
    assert_eq!(t.shard_for_bucket(1048576), Some(1));
    assert_eq!(t.shard_for_bucket(1048577), Some(1));
    assert_eq!(t.shard_for_bucket(1048575), Some(0));
    assert_eq!(t.shard_for_bucket(1572864), Some(0));
    // The default block must still start at 0, as the server's ValidateBucketsMapping says.
    let e = error(
        r#"{"Shards": {"0": {}}, "BucketRanges": [{"BucketRangeStart": 1, "ShardNumber": 0}]}"#,
    );
    assert!(
        matches!(e, ConfigError::RangeGap { block_start: 0, .. }),
        "{e}"
    );
}

#[test]
fn ranges_overlap_gap_and_unknown_shard() {
    let e = error(
        r#"{"Shards": {"0": {}, "1": {}}, "BucketRanges": [
            {"BucketRangeStart": 0, "ShardNumber": 0}, {"BucketRangeStart": 10, "ShardNumber": 1},
            {"BucketRangeStart": 5, "ShardNumber": 0}]}"#,
    );
    assert_eq!(e.path(), Some("BucketRanges[2].BucketRangeStart"));
    assert!(matches!(
        e,
        ConfigError::RangesOverlap {
            start: 5,
            previous: 10,
            ..
        }
    ));

    let e = error(
        r#"{"Shards": {"0": {}}, "BucketRanges": [{"BucketRangeStart": 10, "ShardNumber": 0}]}"#,
    );
    assert!(
        matches!(e, ConfigError::RangeGap { block_start: 0, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("no bucket range starts at 0"));

    let e = error(
        r#"{"Shards": {"0": {}}, "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 3}]}"#,
    );
    assert_eq!(e.path(), Some("BucketRanges[0].ShardNumber"));
    assert!(e.to_string().contains("shard 3"));

    let e = error(
        r#"{"Shards": {"0": {}}, "BucketRanges": [
            {"BucketRangeStart": 0, "ShardNumber": 0}, {"BucketRangeStart": 1048577, "ShardNumber": 0}]}"#,
    );
    assert!(
        matches!(e, ConfigError::RangeOutsideBlocks { start: 1048577, .. }),
        "{e}"
    );
}

/// RavenDB 6.2.4's record after a plan drained shard 5 (its `MoveBucket`, replayed by the
/// differential suite): the blocks of `ORdErs/2024-` and the start of `orderS/`'s lost
/// their ranges. The server's `FindBucketShard` answers for a block with no range with the
/// list's last range (shard 6), and for a block whose first range starts late with that
/// range; so does ravenshard, with a warning, and the list is written back as it was.
#[test]
fn a_prefix_block_without_ranges_is_answered_as_the_server_answers() {
    let record = r#"{"Shards": {"0": {}, "1": {}, "5": {}, "6": {}},
        "Prefixed": [{"Prefix": "uSerS/", "Shards": [0, 1, 5, 6], "BucketRangeStart": 1048576},
            {"Prefix": "über/", "Shards": [0, 5], "BucketRangeStart": 2097152},
            {"Prefix": "ORdErs/2024-", "Shards": [0, 5], "BucketRangeStart": 3145728},
            {"Prefix": "orderS/", "Shards": [0, 1], "BucketRangeStart": 4194304},
            {"Prefix": "-", "Shards": [0, 1, 5, 6], "BucketRangeStart": 5242880}],
        "BucketRanges": [[0, 0], [262144, 6], [582885, 0], [584103, 6], [601259, 1],
            [1048576, 0], [1310720, 1], [1572864, 6], [2097152, 0], [4718592, 1],
            [5242880, 0], [5505024, 1], [5767168, 6]]}"#;
    let mut record = record.to_string();
    for [start, shard] in [
        [0, 0],
        [262144, 6],
        [582885, 0],
        [584103, 6],
        [601259, 1],
        [1048576, 0],
        [1310720, 1],
        [1572864, 6],
        [2097152, 0],
        [4718592, 1],
        [5242880, 0],
        [5505024, 1],
        [5767168, 6],
    ] {
        record = record.replacen(
            &format!("[{start}, {shard}]"),
            &format!(r#"{{"BucketRangeStart": {start}, "ShardNumber": {shard}}}"#),
            1,
        );
    }
    let t = Topology::from_json(&record).unwrap();
    let answers: Vec<Option<u32>> = [
        3145728, 3500000, 4194303, 4194304, 4500000, 4718592, 2097152, 3145727,
    ]
    .iter()
    .map(|&b| t.shard_for_bucket(b))
    .collect();
    let server = [6, 6, 6, 1, 1, 1, 0, 0].map(Some);
    assert_eq!(answers, server);
    assert!(t.warnings().iter().any(|w| matches!(
        w,
        ConfigWarning::BlockWithoutRanges {
            block_start: 3145728,
            shard: 6,
            ..
        }
    )));
    assert_eq!(t.to_configuration().bucket_ranges.len(), 13);
    assert_eq!(Topology::from_json(&t.to_json()).unwrap(), t);
}

#[test]
fn prefix_block_range_must_use_the_prefix_shards() {
    let e = error(
        r#"{"Shards": {"0": {}, "1": {}},
            "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
                             {"BucketRangeStart": 1048576, "ShardNumber": 0}],
            "Prefixed": [{"Prefix": "eu/", "Shards": [1], "BucketRangeStart": 1048576}]}"#,
    );
    assert_eq!(e.path(), Some("BucketRanges[1].ShardNumber"));
}

#[test]
fn empty_topology_and_bad_keys() {
    let e = error(r#"{"Shards": {}}"#);
    assert_eq!(e.path(), Some("Shards"));
    let e = error(r#"{"DatabaseName": "x", "Sharding": {"Shards": {}}}"#);
    assert_eq!(e.path(), Some("Sharding.Shards"));
    let e = error(r#"{"Shards": {"zero": {}}}"#);
    assert_eq!(e.path(), Some("Shards.zero"));
    assert!(matches!(
        error(r#"{"Name": 1}"#),
        ConfigError::NotAConfiguration
    ));
    assert!(matches!(error("[1, 2]"), ConfigError::NotAConfiguration));
}

#[test]
fn json_errors_have_position_or_path() {
    match error("{\"Shards\": {\n  \"0\": {},\n  }") {
        ConfigError::Json { line, .. } => assert_eq!(line, 3),
        other => panic!("{other}"),
    }
    let e = error(r#"{"Sharding": {"Shards": {"0": {"Members": "A"}}}}"#);
    assert_eq!(e.path(), Some("Sharding.Shards.0.Members"));
    assert!(e.to_string().contains("expected a sequence"), "{e}");
}

#[test]
fn unknown_keys_are_ignored_and_kept() {
    let t = Topology::from_json(
        r#"{"Shards": {"0": {"Members": ["A"], "ReplicationFactor": 1}}, "Orchestrator": {"X": 1}, "Future": true}"#,
    )
    .unwrap();
    assert!(t.to_json().contains("\"Future\": true"));
    assert!(t.to_json().contains("ReplicationFactor"));
}

#[test]
fn warnings_for_shadowed_prefix_and_empty_shard() {
    let t = Topology::from_json(
        r#"{"Shards": {"0": {}, "1": {}, "2": {}},
            "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
                             {"BucketRangeStart": 1048576, "ShardNumber": 1},
                             {"BucketRangeStart": 2097152, "ShardNumber": 1}],
            "Prefixed": [{"Prefix": "users/", "Shards": [1], "BucketRangeStart": 1048576},
                         {"Prefix": "users/eu/", "Shards": [1], "BucketRangeStart": 2097152}]}"#,
    )
    .unwrap();
    assert!(t.warnings().iter().any(
        |w| matches!(w, ConfigWarning::ShadowedPrefix { prefix, .. } if prefix == "users/eu/")
    ));
    assert!(t
        .warnings()
        .iter()
        .any(|w| matches!(w, ConfigWarning::ShardWithoutBuckets { shard: 2, .. })));
}

#[test]
fn shard_count_limits() {
    assert!(matches!(
        Topology::with_shards(0),
        Err(ConfigError::NoShards { .. })
    ));
    assert!(Topology::with_shards(1024).is_ok());
}

#[test]
fn prefix_and_shard_counts_are_bounded_without_overflow() {
    assert!(matches!(
        Topology::with_shards(u32::MAX),
        Err(ConfigError::TooManyShards { .. })
    ));
    let prefixes: Vec<String> = (0..=ravenshard::MAX_PREFIXES)
        .map(|i| format!(r#"{{"Prefix": "p{i}/", "Shards": [0]}}"#))
        .collect();
    let json = format!(
        r#"{{"Shards": {{"0": {{}}}}, "Prefixed": [{}]}}"#,
        prefixes.join(",")
    );
    let e = error(&json);
    assert!(
        matches!(e, ConfigError::TooManyPrefixes { count: 2048, .. }),
        "{e}"
    );
    // The largest allowed count builds, and its last block ends exactly at 2^31.
    let json = format!(
        r#"{{"Shards": {{"0": {{}}}}, "Prefixed": [{}]}}"#,
        prefixes[..ravenshard::MAX_PREFIXES].join(",")
    );
    let t = Topology::from_json(&json).unwrap();
    assert_eq!(t.ranges().last().unwrap().end, 1 << 31);
    let r = ravenshard::report(["p0/1", "x"], Some(&t), &Default::default());
    assert_eq!(r.shards[0].documents, 2);
}

#[test]
fn prefix_blocks_need_not_be_contiguous() {
    // After a prefix is removed, a later one keeps its block: blocks 1 and 3 are owned, 2 is not.
    let t = Topology::from_json(
        r#"{"Shards": {"0": {}, "1": {}},
            "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
                             {"BucketRangeStart": 1048576, "ShardNumber": 1},
                             {"BucketRangeStart": 3145728, "ShardNumber": 0}],
            "Prefixed": [{"Prefix": "eu/", "Shards": [1], "BucketRangeStart": 1048576},
                         {"Prefix": "us/", "Shards": [0], "BucketRangeStart": 3145728}]}"#,
    )
    .unwrap();
    assert_eq!(t.bucket_space(), 4 * (1 << 20));
    assert_eq!(t.shard_for_bucket(2 * (1 << 20) + 5), None);
    let l = t.locate("us/1").unwrap();
    assert_eq!((l.bucket / (1 << 20), l.shard), (3, 0));
}

#[test]
fn json_nested_past_the_limit_names_the_limit() {
    let levels = ravenshard::json::MAX_DEPTH;
    let text = format!(
        r#"{{"Shards": {{"0": {{}}}}, "X": {}{}}}"#,
        "[".repeat(levels),
        "]".repeat(levels)
    );
    let e = ravenshard::Topology::from_json(&text).unwrap_err();
    assert!(
        e.to_string().contains("nested deeper than 127 levels"),
        "{e}"
    );
}

/// RavenDB's record after `ShardHelper.MoveBucket(record, 1048575, 2)` in a database with a
/// prefix (7.1.5 and 6.2.4): the range is appended after the prefix's block. The server's
/// `FindBucketShard` then sends the prefix block's last range to shard 2, and bucket
/// 1048575 stays on shard 1; the record is read and answered the same, with a warning, and
/// written back as it was.
#[test]
fn a_range_appended_after_the_prefix_blocks_is_read_as_the_server_reads_it() {
    let record = r#"{"Shards": {"0": {}, "1": {}, "2": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [0, 1], "BucketRangeStart": 1048576}],
        "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0}, {"BucketRangeStart": 524288, "ShardNumber": 1},
        {"BucketRangeStart": 1048576, "ShardNumber": 0}, {"BucketRangeStart": 1572864, "ShardNumber": 1},
        {"BucketRangeStart": 1048575, "ShardNumber": 2}]}"#;
    let t = Topology::from_json(record).unwrap();
    assert_eq!(t.shard_for_bucket(1048575), Some(1));
    assert_eq!(t.shard_for_bucket(1048576), Some(0));
    assert_eq!(t.shard_for_bucket(1572863), Some(0));
    assert_eq!(t.shard_for_bucket(1572864), Some(2));
    assert_eq!(t.shard_for_bucket(2097151), Some(2));
    assert!(t.warnings().iter().any(|w| matches!(
        w,
        ConfigWarning::TrailingRange {
            start: 1048575,
            shard: 2,
            covers: 1572864,
            instead_of: 1,
            ..
        }
    )));
    let written = t.to_configuration().bucket_ranges;
    let pairs: Vec<(u32, u32)> = written
        .iter()
        .map(|r| (r.bucket_range_start, r.shard_number))
        .collect();
    assert_eq!(
        pairs,
        [
            (0, 0),
            (524288, 1),
            (1048576, 0),
            (1572864, 1),
            (1048575, 2)
        ]
    );
    assert_eq!(Topology::from_json(&t.to_json()).unwrap(), t);
    // A trailing range must name a shard of the database.
    let unknown = record.replace(
        r#"{"BucketRangeStart": 1048575, "ShardNumber": 2}"#,
        r#"{"BucketRangeStart": 1048575, "ShardNumber": 7}"#,
    );
    assert!(matches!(
        Topology::from_json(&unknown),
        Err(ConfigError::RangeUnknownShard { shard: 7, .. })
    ));
}
