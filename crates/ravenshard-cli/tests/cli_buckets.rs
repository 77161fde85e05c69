//! `ravenshard plan --buckets` and `ravenshard balance --buckets`: a cluster's own bucket
//! statistics in place of a document list.

mod common;

use common::ravenshard;
use serde_json::Value;
use std::path::PathBuf;

fn dir(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("ravenshard-buckets-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// An answer of `debug/sharding/buckets` with ranges `(from, to, shard, docs, bytes)`.
fn answer(ranges: &[(u32, u32, u32, u64, u64)]) -> String {
    let entries: Vec<String> = ranges
        .iter()
        .map(|(from, to, shard, docs, bytes)| {
            let used = (to - from + 1).min(3);
            format!(
                r#""{from}": {{"RangeSizeHumane": "-", "ShardNumbers": [{shard}],
                "FromBucket": {from}, "ToBucket": {to}, "NumberOfBuckets": {used},
                "RangeSize": {bytes}, "DocumentsCount": {docs},
                "LastModified": "2026-11-20T10:11:12.1234567Z"}}"#
            )
        })
        .collect();
    format!(
        r#"{{"TotalSizeHumane": "-", "TotalSize": 0, "BucketRanges": {{{}}}}}"#,
        entries.join(",")
    )
}

const RECORD: &str = r#"{"DatabaseName": "shop", "Sharding": {"Shards": {"0": {}, "1": {}}}}"#;

fn json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn plan_reads_a_folder_of_per_shard_answers() {
    let d = dir("plan");
    let stats = d.join("stats");
    std::fs::create_dir_all(&stats).unwrap();
    write(
        &stats,
        "shard0.json",
        &answer(&[(0, 32767, 0, 600, 6000), (491520, 524287, 0, 10, 100)]),
    );
    write(
        &stats,
        "shard1.json",
        &answer(&[(524288, 557055, 1, 100, 1000)]),
    );
    write(&stats, "notes.txt", "not read");
    let record = write(&d, "record.json", RECORD);
    let target = write(
        &d,
        "target.json",
        r#"{"Shards": {"0": {}, "1": {}}, "BucketRanges": [
            {"BucketRangeStart": 0, "ShardNumber": 0}, {"BucketRangeStart": 500000, "ShardNumber": 1}]}"#,
    );
    let out = ravenshard(
        &[
            "plan",
            "--config",
            &record,
            "--target",
            &target,
            "--buckets",
            stats.to_str().unwrap(),
        ],
        "",
    );
    let p = json(&out);
    assert_eq!(p["docs"], 710);
    // 491520..=524287 straddles the target's boundary at 500000: counted at its first
    // bucket, so it stays on shard 0, and the note asks for its drill-down.
    assert_eq!(p["docs_moved"], 0);
    let note = p["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["kind"] == "per_range")
        .unwrap();
    assert_eq!(note["drill_downs"][0]["from_bucket"], 491520);
    assert!(note["message"].as_str().unwrap().contains(
        "GET /databases/shop/debug/sharding/buckets?fromBucket=491520&toBucket=524287&range=1024"
    ));
}

#[test]
fn balance_takes_repeated_files_and_moves_whole_ranges() {
    let d = dir("balance");
    let a = write(
        &d,
        "a.json",
        &answer(&[(0, 32767, 0, 600, 0), (32768, 65535, 0, 300, 0)]),
    );
    let b = write(&d, "b.json", &answer(&[(600000, 600000, 1, 100, 0)]));
    let record = write(&d, "record.json", RECORD);
    let out = ravenshard(
        &[
            "balance",
            "--config",
            &record,
            "--threshold",
            "0",
            "--buckets",
            &a,
            "--buckets",
            &b,
        ],
        "",
    );
    let bal = json(&out);
    assert_eq!(bal["docs_moved"], 300);
    let moves = bal["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(
        (
            moves[0]["from_bucket"].as_u64(),
            moves[0]["to_bucket"].as_u64()
        ),
        (Some(32768), Some(524287))
    );
    assert!(bal["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["kind"] == "per_range"));
}

#[test]
fn bad_statistics_are_named_by_file_and_key() {
    let d = dir("bad");
    let bad =
        answer(&[(0, 32767, 0, 1, 1)]).replace(r#""DocumentsCount": 1"#, r#""DocumentsCount": -1"#);
    let file = write(&d, "bad.json", &bad);
    let record = write(&d, "record.json", RECORD);
    let out = ravenshard(&["balance", "--config", &record, "--buckets", &file], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json: BucketRanges.0.DocumentsCount: invalid value"),
        "{err}"
    );
    let prefixed = write(&d, "prefixed.json", &answer(&[(1048576, 1048576, 0, 1, 1)]));
    let out = ravenshard(
        &["balance", "--config", &record, "--buckets", &prefixed],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no prefix of the database record owns that block"),
        "{err}"
    );
    let out = ravenshard(
        &["balance", "--config", &record, "--buckets", &file, &file],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "a document list and --buckets conflict"
    );
}
