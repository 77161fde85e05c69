//! The bucket statistics reader on hand-written answers in RavenDB's format, and plans and
//! balances over them.

use ravenshard::Topology;
use ravenshard_reshard::{
    balance, BalanceOptions, BucketStatistics, Objective, PlanNote, PlanOptions, StatisticsError,
    Workload,
};

/// The issue's answer: one range of 32768 buckets on shard 0.
const WHOLE: &str = r#"{"TotalSizeHumane": "1.21 KBytes", "TotalSize": 1240,
 "BucketRanges": {"131072": {"RangeSizeHumane": "1.21 KBytes", "ShardNumbers": [0],
   "FromBucket": 131072, "ToBucket": 163839, "NumberOfBuckets": 2, "RangeSize": 1240,
   "DocumentsCount": 2, "LastModified": "2026-11-20T10:11:12.1234567Z"}}}"#;

fn range(from: u32, to: u32, shards: &str, docs: u64, bytes: u64) -> String {
    format!(
        r#""{from}": {{"RangeSizeHumane": "x", "ShardNumbers": [{shards}], "FromBucket": {from},
        "ToBucket": {to}, "NumberOfBuckets": 1, "RangeSize": {bytes}, "DocumentsCount": {docs},
        "LastModified": "2026-11-20T10:11:12.1234567Z"}}"#
    )
}

fn answer(ranges: &[String]) -> String {
    format!(
        r#"{{"TotalSize": 0, "BucketRanges": {{{}}}}}"#,
        ranges.join(",")
    )
}

fn read(files: &[(&str, &str)]) -> Result<BucketStatistics, StatisticsError> {
    BucketStatistics::read(files.iter().copied())
}

#[test]
fn reads_the_issues_answer() {
    let s = read(&[("buckets.json", WHOLE)]).unwrap();
    let r = &s.ranges()[0];
    assert_eq!(
        (r.from_bucket, r.to_bucket, r.docs, r.bytes),
        (131072, 163839, 2, 1240)
    );
    assert_eq!(
        (r.buckets_used, r.resolution(), &r.shards),
        (2, 32768, &vec![0])
    );
    assert_eq!(r.source.key, "BucketRanges.131072");
    assert_eq!(s.coarse_ranges(), 1);
}

#[test]
fn a_merged_multi_shard_answer_keeps_its_shards() {
    let text = answer(&[
        range(0, 32767, "0", 10, 100),
        range(327680, 360447, "0,1", 7, 70),
        range(1015808, 1048575, "2", 3, 30),
    ]);
    let s = read(&[("all.json", &text)]).unwrap();
    assert_eq!(s.ranges().len(), 3);
    assert_eq!(s.ranges()[1].shards, [0, 1]);
    assert_eq!((s.total().docs, s.total().bytes), (20, 200));
    // Placed by the record: the straddling range counts where its first bucket is.
    let t = Topology::with_shards(3).unwrap();
    let w = Workload::from_statistics(&s, &t).unwrap();
    let p = w.plan(&t, &t, &PlanOptions::default()).unwrap();
    let held: Vec<u64> = p.per_shard.iter().map(|c| c.held(false).docs).collect();
    assert_eq!(held, [17, 0, 3]);
    let note = p.notes.iter().find(|n| n.kind() == "per_range").unwrap();
    let PlanNote::PerRange {
        ranges,
        unresolved,
        drill_downs,
        ..
    } = note
    else {
        panic!("{note:?}")
    };
    assert_eq!((*ranges, *unresolved), (3, 1));
    assert_eq!(
        drill_downs[0].path("db"),
        "/databases/db/debug/sharding/buckets?fromBucket=327680&toBucket=360447&range=1024"
    );
    assert!(note
        .to_string()
        .contains("fromBucket=327680&toBucket=360447&range=1024"));
}

#[test]
fn shard_numbers_narrow_a_range_to_the_shards_that_hold_it() {
    // 349525 starts shard 1's range: data only on shard 1 stands in shard 1.
    let text = answer(&[range(327680, 360447, "1", 7, 70)]);
    let s = read(&[("s1.json", &text)]).unwrap();
    let t = Topology::with_shards(3).unwrap();
    let w = Workload::from_statistics(&s, &t).unwrap();
    let p = w.plan(&t, &t, &PlanOptions::default()).unwrap();
    let held: Vec<u64> = p.per_shard.iter().map(|c| c.held(false).docs).collect();
    assert_eq!(held, [0, 7, 0]);
}

#[test]
fn per_shard_answers_are_summed_and_copies_read_once() {
    let s0 = answer(&[range(0, 32767, "0", 10, 100)]);
    let s1 = answer(&[range(0, 32767, "1", 5, 50), range(32768, 65535, "1", 1, 1)]);
    let s = read(&[("s0.json", &s0), ("s1.json", &s1), ("copy.json", &s0)]).unwrap();
    assert_eq!(s.ranges().len(), 2);
    let r = &s.ranges()[0];
    assert_eq!(
        (r.docs, r.bytes, r.buckets_used, &r.shards),
        (15, 150, 2, &vec![0, 1])
    );
}

#[test]
fn a_drill_down_replaces_the_range_it_resolves() {
    let drill = answer(&[
        range(131072, 132095, "0", 1, 1000),
        range(140288, 141311, "0", 1, 240),
    ]);
    let s = read(&[("drill.json", &drill), ("whole.json", WHOLE)]).unwrap();
    let spans: Vec<(u32, u32)> = s
        .ranges()
        .iter()
        .map(|r| (r.from_bucket, r.to_bucket))
        .collect();
    assert_eq!(spans, [(131072, 132095), (140288, 141311)]);
    assert!(s.notes().is_empty());
    // Per bucket (range=1) inside the drill-down: finer again; figures that differ are said.
    let single = r#"{"Bucket": 131080, "Size": 900, "NumberOfDocuments": 1,
        "LastModified": "2026-11-20T10:11:12.1234567Z", "Items": ["orders/1-A"]}"#;
    let s = read(&[
        ("whole.json", WHOLE),
        ("drill.json", &drill),
        ("b.json", single),
    ])
    .unwrap();
    assert_eq!(s.ranges()[0].resolution(), 1);
    assert_eq!(s.total().bytes, 1140);
    assert_eq!(s.notes().len(), 2, "{:?}", s.notes());
    assert!(s.notes()[0].contains("drill.json at BucketRanges.131072"));
}

/// Two ranges of 32768 buckets on shard 0 (600 and 300 documents) and one bucket on shard
/// 1 (100), over two shards.
fn two_ranges_on_shard_0() -> (Topology, Workload) {
    let text = answer(&[
        range(0, 32767, "0", 600, 0),
        range(32768, 65535, "0", 300, 0),
        range(600000, 600000, "1", 100, 0),
    ]);
    let s = read(&[("a.json", &text)]).unwrap();
    let t = Topology::with_shards(2).unwrap();
    let w = Workload::from_statistics(&s, &t).unwrap();
    (t, w)
}

#[test]
fn a_balance_never_splits_a_range_and_says_so() {
    let (t, w) = two_ranges_on_shard_0();
    let b = balance(
        &t,
        &w.load,
        &BalanceOptions {
            threshold: 0.0,
            ..Default::default()
        },
    )
    .unwrap();
    for m in &b.plan.moves {
        assert!(
            m.from_bucket % 32768 == 0 || m.from_bucket >= 524288,
            "{m:?}"
        );
        assert!(
            (m.to_bucket + 1) % 32768 == 0 || m.to_bucket >= 524287,
            "{m:?}"
        );
    }
    assert_eq!(b.plan.docs_moved, 300);
    assert!(b.plan.notes.iter().any(|n| n.kind() == "per_range"));
    let json = serde_json::to_value(&b).unwrap();
    let note = json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["kind"] == "per_range");
    assert_eq!(note.unwrap()["drill_downs"][0]["range"], 1024);
}

/// `fewest-migrations` moves entries fullest first: an entry of bucket statistics that
/// covers a range moves whole (every bucket of it migrates), never only its first bucket.
#[test]
fn fewest_migrations_moves_a_range_whole() {
    let (t, w) = two_ranges_on_shard_0();
    let options = BalanceOptions {
        threshold: 0.0,
        objective: Objective::FewestMigrations,
        ..Default::default()
    };
    let b = balance(&t, &w.load, &options).unwrap();
    // The fullest entry (600 of shard 0's 900) brings both shards closer to 500: it moves.
    assert_eq!(b.plan.docs_moved, 600);
    assert_eq!(b.migrations, 32768);
    let moved: Vec<(u32, u32)> = b
        .plan
        .moves
        .iter()
        .map(|m| (m.from_bucket, m.to_bucket))
        .collect();
    assert_eq!(moved, [(0, 32767)]);
}

#[test]
fn a_range_that_keeps_a_shard_above_its_share_is_one_to_drill_into() {
    let text = answer(&[range(0, 32767, "0", 9, 900)]);
    let s = read(&[("a.json", &text)]).unwrap();
    let t = Topology::with_shards(2).unwrap();
    let w = Workload::from_statistics(&s, &t).unwrap();
    let b = balance(&t, &w.load, &BalanceOptions::default()).unwrap();
    assert!(b.plan.moves.is_empty());
    assert!(
        b.obstacles.is_empty(),
        "a range is not a bucket: {:?}",
        b.obstacles
    );
    let Some(PlanNote::PerRange { drill_downs, .. }) =
        b.plan.notes.iter().find(|n| n.kind() == "per_range")
    else {
        panic!("{:?}", b.plan.notes)
    };
    assert_eq!(
        (
            drill_downs[0].from_bucket,
            drill_downs[0].to_bucket,
            drill_downs[0].range
        ),
        (0, 32767, 1024)
    );
}

fn error(files: &[(&str, &str)]) -> String {
    read(files).unwrap_err().to_string()
}

#[test]
fn bad_input_is_named_with_its_key() {
    let e = error(&[("x.json", "buckets: 3")]);
    assert!(e.starts_with("x.json: not JSON"), "{e}");
    let e = error(&[("x.json", r#"{"Results": []}"#)]);
    assert!(
        e.contains("x.json: not a bucket statistics answer: expected"),
        "{e}"
    );
    let e = error(&[("x.json", "[1]")]);
    assert!(e.contains("not a bucket statistics answer"), "{e}");
    let bad = WHOLE.replace(r#""DocumentsCount": 2"#, r#""DocumentsCount": "two""#);
    let e = error(&[("x.json", &bad)]);
    assert!(
        e.starts_with("x.json: BucketRanges.131072.DocumentsCount: invalid type"),
        "{e}"
    );
    let e = error(&[("x.json", &WHOLE.replace("\"131072\":", "\"5\":"))]);
    assert!(
        e.contains("x.json at BucketRanges.5: the key is not the range's FromBucket"),
        "{e}"
    );
    let e = error(&[("x.json", &answer(&[range(10, 5, "0", 1, 1)]))]);
    assert!(
        e.contains("BucketRanges.10: ToBucket 5 is below FromBucket 10"),
        "{e}"
    );
    let e = error(&[("x.json", &answer(&[range(0, 2097151, "0", 1, 1)]))]);
    assert!(
        e.contains("BucketRanges.0: buckets 0..=2097151 leave their block"),
        "{e}"
    );
    let a = answer(&[range(0, 1023, "0", 1, 1)]);
    let b = answer(&[range(512, 2047, "0", 1, 1)]);
    let e = error(&[("a.json", &a), ("b.json", &b)]);
    assert!(
        e.contains("a.json at BucketRanges.0 and b.json at BucketRanges.512"),
        "{e}"
    );
    assert!(e.contains("overlap without one holding the other"), "{e}");
    let c = answer(&[range(0, 1023, "0", 2, 1)]);
    let e = error(&[("a.json", &a), ("c.json", &c)]);
    assert!(e.contains("with different figures"), "{e}");
}

#[test]
fn a_prefix_block_needs_a_prefix_in_the_record() {
    let text = answer(&[range(1048576, 1081343, "0", 4, 40)]);
    let s = read(&[("p.json", &text)]).unwrap();
    let plain = Topology::with_shards(2).unwrap();
    let e = Workload::from_statistics(&s, &plain)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("p.json at BucketRanges.1048576: the range is in the prefix block starting at bucket 1048576"), "{e}");
    let prefixed = Topology::from_json(
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#,
    )
    .unwrap();
    let w = Workload::from_statistics(&s, &prefixed).unwrap();
    assert_eq!(w.load.total().docs, 4);
    // Adding a prefix cannot be checked without IDs: the plan says so.
    let asia = Topology::from_json(
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]},
            {"Prefix": "asia/", "Shards": [0]}]}"#,
    )
    .unwrap();
    let p = w.plan(&prefixed, &asia, &PlanOptions::default()).unwrap();
    let kinds: Vec<&str> = p.notes.iter().map(|n| n.kind()).collect();
    assert!(kinds.contains(&"prefix_unchecked"), "{kinds:?}");
}

mod invariants {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Per-shard answers of any ranges, given in any order (and one of them twice),
        /// merge into the orchestrator's sums; a drill-down of each range that keeps its
        /// figures changes no total.
        #[test]
        fn merging_keeps_every_document(
            cells in proptest::collection::btree_map(0u32..32, (1u64..1000, 1u64..1000, 0u32..3), 1..12),
            rotate in 0usize..8,
        ) {
            let mut files: Vec<String> = (0..3u32)
                .map(|shard| {
                    let ranges: Vec<String> = cells
                        .iter()
                        .filter(|(_, c)| c.2 == shard)
                        .map(|(&k, c)| range(k * 32768, k * 32768 + 32767, &shard.to_string(), c.0, c.1))
                        .collect();
                    answer(&ranges)
                })
                .collect();
            let drill: Vec<String> = cells
                .iter()
                .map(|(&k, c)| range(k * 32768 + 1024, k * 32768 + 2047, &c.2.to_string(), c.0, c.1))
                .collect();
            files.push(answer(&drill));
            files.push(files[0].clone());
            let n = files.len();
            files.rotate_left(rotate % n);
            let named: Vec<(&str, &str)> = files.iter().map(|f| ("f.json", f.as_str())).collect();
            let s = read(&named).unwrap();
            let docs: u64 = cells.values().map(|c| c.0).sum();
            let bytes: u64 = cells.values().map(|c| c.1).sum();
            prop_assert_eq!((s.total().docs, s.total().bytes), (docs, bytes));
            prop_assert_eq!(s.ranges().len(), cells.len());
            prop_assert!(s.ranges().iter().all(|r| r.resolution() == 1024));
            prop_assert!(s.notes().is_empty());
        }
    }
}
