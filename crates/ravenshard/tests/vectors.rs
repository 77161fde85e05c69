//! Known answers: the chapter's examples, RavenDB's docs and tests, and the shared vector
//! file (`tests/data/buckets-3-shards.tsv`, computed from RavenDB's published algorithm).

use ravenshard::{bucket_for, explain, Topology, NUMBER_OF_BUCKETS};

const VECTORS: &str = include_str!("../../../vectors/buckets-3-shards.tsv");

/// `(id, bucket, shard)` rows of the vector file.
fn vectors() -> Vec<(&'static str, u32, u32)> {
    VECTORS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "malformed vector line {l:?}");
            (cols[0], cols[1].parse().unwrap(), cols[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn vector_file_has_the_documented_cases() {
    let v = vectors();
    assert!(v.len() >= 60, "only {} vectors", v.len());
    for id in [
        "$foo",
        "foo$",
        "$",
        "x$$",
        "Ωmega/7",
        "Straße/1",
        "ÉCOLE/3$écoles/1",
    ] {
        assert!(v.iter().any(|(i, _, _)| *i == id), "{id} missing");
    }
}

#[test]
fn every_vector_bucket_matches() {
    for (id, bucket, _) in vectors() {
        assert_eq!(bucket_for(id), Ok(bucket), "bucket of {id:?}");
    }
}

#[test]
fn every_vector_shard_matches_with_three_default_shards() {
    let topology = Topology::with_shards(3).unwrap();
    for (id, bucket, shard) in vectors() {
        let location = topology.locate(id).unwrap();
        assert_eq!((location.bucket, location.shard), (bucket, shard), "{id:?}");
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
