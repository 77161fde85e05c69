//! Invariants that hold for every input (proptest).

use proptest::prelude::*;
use ravenshard::casing::{lower_case, lower_char};
use ravenshard::{
    bucket_for, bucket_for_with, lower_id, report, ReportOptions, ServerVersion, Topology,
    NUMBER_OF_BUCKETS,
};

/// IDs of up to 60 characters from a mix of ASCII, `$`, and non-ASCII letters.
fn id() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[A-Za-z0-9/\\-$ÉéΩωßẞİ𐐀ǅ]{1,60}").expect("valid regex")
}

proptest! {
    #[test]
    fn anchored_ids_share_their_anchors_bucket(head in id(), anchor in id()) {
        // The anchor must not itself contain a `$`, or the *last* `$` moves into it.
        let anchor = anchor.replace('$', "");
        prop_assume!(!anchor.is_empty());
        let anchored = format!("{head}${anchor}");
        prop_assume!(anchored.len() <= 512);
        prop_assert_eq!(bucket_for(&anchored), bucket_for(&anchor));
    }

    #[test]
    fn lower_casing_is_idempotent(id in any::<String>()) {
        let once = lower_case(&id).into_owned();
        prop_assert_eq!(lower_case(&once).into_owned(), once.clone());
        prop_assert_eq!(once.chars().count(), id.chars().count());
    }

    #[test]
    fn lowering_is_lower_casing_then_escaping(id in "[A-Za-zÉΩ$\\\\\\x00-\\x1f\\x7f]{0,40}") {
        let expected = ravenshard::escape_controls(&lower_case(&id)).into_owned();
        prop_assert_eq!(lower_id(&id).into_owned(), expected.clone());
        let mut pushed = String::from("|");
        ravenshard::push_lower_id(&mut pushed, &id, ravenshard::ServerVersion::V7);
        prop_assert_eq!(pushed, format!("|{expected}"));
        // Each escaped byte became six characters; nothing else changed length.
        let escaped = id.bytes().filter(|&b| ravenshard::is_escaped_control(b)).count();
        prop_assert_eq!(expected.chars().count(), id.chars().count() + 5 * escaped);
    }

    #[test]
    fn bucket_ignores_case_as_ravendb_does(id in id()) {
        let lowered: String = id.chars().map(lower_char).collect();
        prop_assert_eq!(bucket_for(&id), bucket_for(&lowered));
    }

    #[test]
    fn buckets_are_in_range(id in any::<String>()) {
        if let Ok(b) = bucket_for(&id) {
            prop_assert!(b < NUMBER_OF_BUCKETS);
        }
    }

    #[test]
    fn every_bucket_of_a_valid_topology_maps_to_exactly_one_shard(
        shards in 1u32..40,
        prefixes in proptest::collection::vec((1u32..4, "[a-z]{1,6}[/-]"), 0..4),
        probes in proptest::collection::vec(any::<u32>(), 50),
    ) {
        let prefixed: Vec<String> = prefixes
            .iter()
            .map(|(n, p)| {
                let list: Vec<String> = (0..(*n).min(shards)).map(|s| s.to_string()).collect();
                format!(r#"{{"Prefix": "{p}", "Shards": [{}]}}"#, list.join(","))
            })
            .collect();
        let shard_keys: Vec<String> = (0..shards).map(|s| format!(r#""{s}": {{}}"#)).collect();
        let json = format!(
            r#"{{"Shards": {{{}}}, "Prefixed": [{}]}}"#,
            shard_keys.join(","),
            prefixed.join(",")
        );
        let Ok(t) = Topology::from_json(&json) else {
            // Only duplicate prefixes are rejected here.
            let mut names: Vec<&String> = prefixes.iter().map(|(_, p)| p).collect();
            names.sort();
            names.dedup();
            prop_assert!(names.len() < prefixes.len());
            return Ok(());
        };
        // Ranges tile [0, bucket_space) without gaps or overlaps...
        let mut covered = 0u64;
        for r in t.ranges() {
            prop_assert!(r.start < r.end);
            covered += u64::from(r.end - r.start);
        }
        prop_assert_eq!(covered, t.bucket_space());
        // ...so every bucket has exactly one range, and it is the shard_for_bucket answer.
        for probe in probes {
            let bucket = (u64::from(probe) % t.bucket_space()) as u32;
            let owners: Vec<_> = t.ranges().iter().filter(|r| r.start <= bucket && bucket < r.end).collect();
            prop_assert_eq!(owners.len(), 1);
            prop_assert_eq!(t.shard_for_bucket(bucket), Some(owners[0].shard));
        }
    }

    #[test]
    fn report_counts_every_valid_document_once(ids in proptest::collection::vec(id(), 0..200), shards in 1u32..8) {
        let t = Topology::with_shards(shards).unwrap();
        let r = report(ids.iter().map(String::as_str), Some(&t), &ReportOptions::default());
        let per_shard: u64 = r.shards.iter().map(|s| s.documents).sum();
        prop_assert_eq!(per_shard, r.documents);
        prop_assert_eq!(r.documents + r.invalid_count, ids.len() as u64);
    }

    #[test]
    fn json_round_trip_keeps_every_location(shards in 1u32..20, ids in proptest::collection::vec(id(), 1..20)) {
        let t = Topology::with_shards(shards).unwrap();
        let again = Topology::from_json(&t.to_json()).unwrap();
        for id in &ids {
            prop_assert_eq!(t.locate(id), again.locate(id));
        }
    }
}

proptest! {
    #[test]
    fn bulk_buckets_equal_one_by_one(ids in proptest::collection::vec(id(), 0..50), crlf in any::<bool>()) {
        let text = ids.join(if crlf { "\r\n" } else { "\n" });
        let bulk = ravenshard::bulk::buckets_for_lines(&text, None);
        let single: Result<Vec<u32>, _> = ids.iter().map(|id| bucket_for(id)).collect();
        match (bulk, single) {
            (Ok(b), Ok(s)) => prop_assert_eq!(b, s),
            (Err(e), Err(_)) => prop_assert!(e.line >= 1 && e.line <= ids.len()),
            (b, s) => prop_assert!(false, "bulk {:?} vs single {:?}", b, s),
        }
    }
}

proptest! {
    #[test]
    fn fast_path_equals_the_reference_pipeline(id in any::<String>()) {
        // bucket_for's ASCII fast path must agree with lower-case -> anchor -> hash.
        if ravenshard::check_id(&id).is_ok() {
            let reference = ravenshard::bucket_of_lower(lower_id(&id).as_bytes());
            prop_assert_eq!(bucket_for(&id), Ok(reference));
        }
    }

    #[test]
    fn fast_path_finds_the_last_dollar_anywhere(id in "[A-Z$a/]{1,40}") {
        // Dense `$`s on both sides of the 8-byte word boundaries of the SWAR pass.
        let lower = id.to_ascii_lowercase();
        prop_assert_eq!(bucket_for(&id), Ok(ravenshard::bucket_of_lower(lower.as_bytes())));
    }

    #[test]
    fn fast_path_with_control_characters(id in "[A-Z$a/\\\\\\x00-\\x1f]{1,40}") {
        let lower = ravenshard::escape_controls(&id.to_ascii_lowercase()).into_owned();
        prop_assert_eq!(bucket_for(&id), Ok(ravenshard::bucket_of_lower(lower.as_bytes())));
    }

    #[test]
    fn non_ascii_table_path_equals_per_character_lower_casing(
        id in "[A-Za-z$/ÉéΩßẞİȺK𐐀ǅЖ\\u{1}\\u{1f}\t]{1,80}",
        v6 in any::<bool>(),
    ) {
        // The table path lowers a whole UTF-8 ID at once (with `Ⱥ` growing and `K`
        // shrinking in UTF-8); the reference maps one character at a time, then escapes.
        let version = if v6 { ServerVersion::V6_2 } else { ServerVersion::V7 };
        let lowered: String = id.chars().map(lower_char).collect();
        let reference = match version {
            ServerVersion::V6_2 if !id.is_ascii() => lowered,
            _ => ravenshard::escape_controls(&lowered).into_owned(),
        };
        prop_assert_eq!(lower_case(&id), id.chars().map(lower_char).collect::<String>());
        prop_assert_eq!(
            bucket_for_with(&id, version),
            Ok(ravenshard::bucket_of_lower(reference.as_bytes()))
        );
    }

    #[test]
    fn fast_path_on_ascii_ids(id in "[ -~]{1,600}") {
        match ravenshard::check_id(&id) {
            Ok(()) => prop_assert_eq!(bucket_for(&id), Ok(ravenshard::bucket_of_lower(id.to_ascii_lowercase().as_bytes()))),
            Err(e) => prop_assert_eq!(bucket_for(&id), Err(e)),
        }
    }
}

/// Keys a configuration reader looks for, and some it does not; none holds `.` or `[`, so
/// a JSON path splits back into them.
fn config_key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Shards"),
        Just("BucketRanges"),
        Just("Prefixed"),
        Just("Members"),
        Just("Prefix"),
        Just("BucketRangeStart"),
        Just("ShardNumber"),
        Just("0"),
        Just("1"),
        Just("shards"),
        Just("Sharding"),
        Just("DatabaseName"),
        Just("Other"),
    ]
    .prop_map(String::from)
}

/// Any JSON value, with numbers at the edges of `u32`, floats, and keys from [`config_key`].
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{json, Value};
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop_oneof![
            Just(-1i64),
            Just(i64::MIN),
            Just(4_294_967_296),
            0i64..4_294_967_296
        ]
        .prop_map(|n| json!(n)),
        Just(json!(u64::MAX)),
        // Floats with short decimals, which serde_json reads back exactly (any f64 can come
        // back one unit in the last place off, which the round trip below would see).
        (-4000i32..4000).prop_map(|n| json!(f64::from(n) / 8.0)),
        Just(json!(1e300)),
        "[a-z/-]{0,4}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((config_key(), inner), 0..7)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// The value at a JSON path as the configuration errors write it (`Sharding.Prefixed[1].Shards`).
fn value_at<'v>(value: &'v serde_json::Value, path: &str) -> Option<&'v serde_json::Value> {
    let mut at = value;
    for part in path
        .split('.')
        .filter(|part| !path.is_empty() || !part.is_empty())
    {
        let (key, indices) = part.split_at(part.find('[').unwrap_or(part.len()));
        if !key.is_empty() {
            at = at.get(key)?;
        }
        for index in indices.split('[').skip(1) {
            at = at.get(index.strip_suffix(']')?.parse::<usize>().ok()?)?;
        }
    }
    Some(at)
}

proptest! {
    /// Reading never panics: a JSON value is a configuration, not one, or an error that
    /// names a path found in the value. What is read writes back to the same configuration.
    #[test]
    fn any_json_reads_or_names_a_path_in_it(
        value in json_value(),
        shards in json_value(),
        ranges in proptest::collection::vec(json_value(), 0..4),
        prefixed in proptest::collection::vec(json_value(), 0..4),
        record in any::<bool>(),
    ) {
        use ravenshard::config::parse_configuration;
        use ravenshard::ConfigError;
        use serde_json::json;
        // Mostly configuration-shaped, so that the walk goes deep; sometimes anything.
        let config = json!({"Shards": shards, "BucketRanges": ranges, "Prefixed": prefixed, "Other": value});
        for input in [value.clone(), if record { json!({"DatabaseName": "db", "Sharding": config}) } else { config }] {
            match parse_configuration(&input.to_string()) {
                Ok(parsed) => {
                    if !parsed.sharding.other.contains_key("Sharding") {
                        let written = serde_json::to_string(&parsed.sharding).unwrap();
                        prop_assert_eq!(parse_configuration(&written).unwrap().sharding, parsed.sharding);
                    }
                }
                Err(ConfigError::NotAConfiguration) => {}
                Err(ConfigError::Json { path, line: 0, message, .. }) => {
                    prop_assert!(value_at(&input, &path).is_some(), "{} not in {}: {}", path, input, message);
                }
                Err(other) => prop_assert!(false, "{}: {:?}", input, other),
            }
        }
    }
}
