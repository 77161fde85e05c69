//! Known answers: the chapter's examples, RavenDB's docs and tests, and the shared vector
//! files (`vectors/buckets-3-shards.tsv`, computed from RavenDB's published algorithm, and
//! `vectors/buckets-non-ascii-and-control.tsv`, checked against RavenDB 6.2.4 and 7.2.7).

use ravenshard::{
    bucket_for, bucket_for_with, explain, ServerVersion, Topology, NUMBER_OF_BUCKETS,
};

const VECTORS: &str = include_str!("../../../vectors/buckets-3-shards.tsv");
const NON_ASCII_AND_CONTROL: &str =
    include_str!("../../../vectors/buckets-non-ascii-and-control.tsv");

/// `(id, bucket, shard)` rows of a vector file, IDs unescaped (`\xHH` is one byte).
fn rows(text: &str) -> Vec<(String, u32, u32)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "malformed vector line {l:?}");
            (
                unescape(cols[0]),
                cols[1].parse().unwrap(),
                cols[2].parse().unwrap(),
            )
        })
        .collect()
}

/// The ID a vector file writes with `\xHH` escapes (ASCII bytes only).
fn unescape(written: &str) -> String {
    let mut out = String::new();
    let mut rest = written;
    while let Some(at) = rest.find("\\x") {
        out.push_str(&rest[..at]);
        let hex = &rest[at + 2..at + 4];
        let byte = u8::from_str_radix(hex, 16).expect("two hex digits after \\x");
        assert!(byte.is_ascii(), "\\x{hex} is not ASCII");
        out.push(char::from(byte));
        rest = &rest[at + 4..];
    }
    out.push_str(rest);
    out
}

/// Every row of both vector files.
fn vectors() -> Vec<(String, u32, u32)> {
    let mut all = rows(VECTORS);
    all.extend(rows(NON_ASCII_AND_CONTROL));
    all
}

#[test]
fn vector_file_has_the_documented_cases() {
    let v = vectors();
    assert!(v.len() >= 90, "only {} vectors", v.len());
    for id in [
        "$foo",
        "foo$",
        "$",
        "x$$",
        "Ωmega/7",
        "Straße/1",
        "ÉCOLE/3$écoles/1",
        "a\u{1}b",
        "é\u{1}",
        "x\u{8}y",
        "a\u{7f}b",
    ] {
        assert!(v.iter().any(|(i, _, _)| *i == id), "{id:?} missing");
    }
}

#[test]
fn control_characters_are_hashed_escaped() {
    // Today's answer before the rule was 1039820; RavenDB gives 231705.
    assert_eq!(bucket_for("a\u{1}b"), Ok(231705));
    assert_eq!(bucket_for("a\u{1}b"), bucket_for("a\\u0001b"));
    // Escaped after lower-casing: the hex digits stay upper-case, so an ID that spells out
    // the escape is lower-cased to another hashed text.
    let upper_hex = ravenshard::bucket_of_lower(b"x\\u001B");
    assert_eq!(bucket_for("x\u{1b}"), Ok(upper_hex));
    assert_ne!(bucket_for("x\\u001B"), Ok(upper_hex));
    // The anchor is found after escaping, and a `$` is never part of an escape.
    assert_eq!(bucket_for("orders/1$\u{7}bell"), bucket_for("\u{7}bell"));
}

#[test]
fn version_6_2_skips_escaping_on_the_non_ascii_path_only() {
    for (id, bucket, _) in rows(NON_ASCII_AND_CONTROL) {
        let v62 = bucket_for_with(&id, ServerVersion::V6_2);
        let escapes = id.bytes().any(ravenshard::is_escaped_control);
        if id.is_ascii() || !escapes {
            assert_eq!(v62, Ok(bucket), "{id:?}");
        } else {
            let unescaped = ravenshard::casing::lower_case(&id);
            assert_eq!(
                v62,
                Ok(ravenshard::bucket_of_lower(unescaped.as_bytes())),
                "{id:?}"
            );
            assert_ne!(v62, Ok(bucket), "{id:?}");
        }
    }
}

#[test]
fn every_vector_bucket_matches() {
    for (id, bucket, _) in vectors() {
        assert_eq!(bucket_for(&id), Ok(bucket), "bucket of {id:?}");
        assert_eq!(
            explain(&id, None).map(|e| e.bucket),
            Ok(bucket),
            "explain {id:?}"
        );
    }
}

#[test]
fn every_vector_shard_matches_with_three_default_shards() {
    let topology = Topology::with_shards(3).unwrap();
    for (id, bucket, shard) in vectors() {
        let location = topology.locate(&id).unwrap();
        assert_eq!((location.bucket, location.shard), (bucket, shard), "{id:?}");
    }
}

#[test]
fn every_vector_through_the_bulk_and_report_paths() {
    let topology = Topology::with_shards(3).unwrap();
    // Lines cannot hold `\n` or `\r`, and a tab ends the ID on a line: those rows are
    // covered one by one above.
    let rows: Vec<(String, u32, u32)> = vectors()
        .into_iter()
        .filter(|(id, _, _)| !id.contains(['\n', '\r', '\t']))
        .collect();
    let text: Vec<&str> = rows.iter().map(|(id, _, _)| id.as_str()).collect();
    let text = text.join("\n");
    let expected: Vec<u32> = rows.iter().map(|r| r.1).collect();
    assert_eq!(
        ravenshard::bulk::buckets_for_lines(&text, None),
        Ok(expected.clone())
    );
    let shards: Vec<u32> = rows.iter().map(|r| r.2).collect();
    assert_eq!(
        ravenshard::bulk::shards_for_lines(&text, &topology),
        Ok(shards)
    );
    let report = ravenshard::report(
        rows.iter().map(|r| r.0.as_str()),
        Some(&topology),
        &ravenshard::ReportOptions::default(),
    );
    for (shard, summary) in report.shards.iter().enumerate() {
        let n = rows.iter().filter(|r| r.2 as usize == shard).count() as u64;
        assert_eq!(summary.documents, n, "shard {shard}");
    }
}

#[test]
fn chapter_and_docs_known_answers() {
    let expected = [
        ("orders/1-A", 151326),
        ("customers/1-A", 982173),
        ("customers/6-A", 16312),
        ("customers/2-B", 2423),
        ("customers/741135-C", 982173),
        ("orders/2-A$customers/1-A", 982173),
        ("Users/4", 690258),
        ("Users/70$Users/4", 690258),
        ("Users/71$Users/4", 690258),
        ("Users/1$foo", 309823),
        ("Users/2$foo", 309823),
        ("orders/1-A$", 584089),
    ];
    for (id, bucket) in expected {
        assert_eq!(bucket_for(id), Ok(bucket), "{id}");
    }
}

#[test]
fn ravendb_prefixed_sharding_test() {
    let json = r#"{
        "Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}, "2": {"Members": ["C"]}},
        "Prefixed": [
            {"Prefix": "eu/", "Shards": [0]},
            {"Prefix": "asia/", "Shards": [1, 2]}
        ]
    }"#;
    let t = Topology::from_json(json).unwrap();
    let at = |id: &str| {
        let l = t.locate(id).unwrap();
        (l.bucket, l.shard)
    };
    assert_eq!(at("eu/0"), (1906271, 0));
    assert_eq!(at("asia/1"), (2429030, 1));
    assert_eq!(at("asia/2"), (2831086, 2));
    // Descending order of prefix: eu/ gets the first block.
    assert_eq!(t.prefixes()[0].prefix, "eu/");
    assert_eq!(t.prefixes()[0].bucket_range_start, NUMBER_OF_BUCKETS);
    assert_eq!(t.prefixes()[1].bucket_range_start, 2 * NUMBER_OF_BUCKETS);
    let starts: Vec<(u32, u32)> = t.ranges().iter().map(|r| (r.start, r.shard)).collect();
    assert_eq!(
        starts,
        vec![
            (0, 0),
            (349525, 1),
            (699050, 2),
            (1048576, 0),
            (2097152, 1),
            (2097152 + 524288, 2)
        ]
    );
    // Round trip through RavenDB's JSON keeps every answer.
    let again = Topology::from_json(&t.to_json()).unwrap();
    assert_eq!(again.locate("asia/2").unwrap().shard, 2);
}

#[test]
fn explain_shows_every_step() {
    let json = r#"{"DatabaseName": "Orders", "Sharding": {
        "Shards": {"0": {"Members": ["A", "B"]}, "1": {"Members": ["B", "C"]}, "2": {"Members": ["A", "D"]}}}}"#;
    let t = Topology::from_json(json).unwrap();
    let e = explain("orders/2-A$customers/1-A", Some(&t)).unwrap();
    assert_eq!(e.hashed, "customers/1-a");
    assert_eq!(e.hashed_chars, [11, 24]);
    assert_eq!(e.raw_bucket, 982173);
    assert_eq!(e.prefix, None);
    assert_eq!(e.shard, Some(2));
    assert_eq!(
        e.range.map(|r| (r.start, r.end)),
        Some((699050, NUMBER_OF_BUCKETS))
    );
    assert_eq!(e.fragment.as_deref(), Some("Orders$2"));
    assert_eq!(e.nodes, vec!["A", "D"]);
    assert_eq!(e.hash.len(), 16);
    assert_eq!(
        u64::from_str_radix(&e.hash, 16).unwrap() % u64::from(NUMBER_OF_BUCKETS),
        982173
    );
}
