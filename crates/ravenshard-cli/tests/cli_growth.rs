//! `ravenshard growth`: snapshots of a cluster's bucket statistics side by side.

mod common;

use common::ravenshard;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ravenshard-growth-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An answer of `debug/sharding/buckets`, as RavenDB writes it, with ranges
/// `(from, to, shard, docs)` changed last at `when`.
fn answer(ranges: &[(u32, u32, u32, u64)], when: &str) -> String {
    let entries: Vec<String> = ranges
        .iter()
        .map(|(from, to, shard, docs)| {
            format!(
                r#""{from}": {{"RangeSizeHumane": "-", "ShardNumbers": [{shard}],
                "FromBucket": {from}, "ToBucket": {to}, "NumberOfBuckets": 2,
                "RangeSize": {}, "DocumentsCount": {docs}, "LastModified": "{when}"}}"#,
                docs * 1000
            )
        })
        .collect();
    format!(
        r#"{{"TotalSizeHumane": "-", "TotalSize": 0, "BucketRanges": {{{}}}}}"#,
        entries.join(",")
    )
}

fn write(path: &Path, text: &str) -> String {
    std::fs::write(path, text).unwrap();
    path.display().to_string()
}

#[test]
fn growth_orders_snapshots_and_names_the_ranges_that_grew() {
    let d = dir("grew");
    let monday = write(
        &d.join("monday.json"),
        &answer(
            &[(0, 32767, 0, 100), (524288, 557055, 1, 50)],
            "2026-11-23T08:00:00.1234567Z",
        ),
    );
    // Tuesday's snapshot is a folder of per-shard answers.
    let tuesday = d.join("tuesday");
    std::fs::create_dir_all(&tuesday).unwrap();
    write(
        &tuesday.join("shard-0.json"),
        &answer(&[(0, 32767, 0, 130)], "2026-11-24T08:00:00.1234567Z"),
    );
    write(
        &tuesday.join("shard-1.json"),
        &answer(&[(524288, 557055, 1, 250)], "2026-11-24T07:00:00.0000000Z"),
    );
    let tuesday = tuesday.display().to_string();
    let out = ravenshard(&["growth", "--top", "1", &tuesday, &monday], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["width"], 32768);
    assert_eq!(v["snapshots"][0]["name"], monday.as_str());
    assert_eq!(v["snapshots"][1]["time"], "2026-11-24T08:00:00.1234567Z");
    assert_eq!(v["snapshots"][1]["shards"][1]["shard"], 1);
    assert_eq!(v["snapshots"][1]["shards"][1]["docs"], 250);
    assert_eq!(v["bins"].as_array().unwrap().len(), 2);
    assert_eq!(v["growing"].as_array().unwrap().len(), 1);
    assert_eq!(v["growing"][0]["from_bucket"], 524288);
    assert_eq!(v["growing"][0]["docs_change"], 200);
    assert_eq!(v["growing"][0]["shards"], serde_json::json!([1]));
}

#[test]
fn growth_says_what_is_missing() {
    let d = dir("missing");
    let one = write(
        &d.join("one.json"),
        &answer(&[(0, 32767, 0, 1)], "2026-11-23T08:00:00Z"),
    );
    let out = ravenshard(&["growth", &one], "");
    assert_eq!(out.status.code(), Some(2));
    let timeless = write(&d.join("timeless.json"), &answer(&[(0, 32767, 0, 1)], "-"));
    let out = ravenshard(&["growth", &one, &timeless], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("timeless.json: no time"), "{stderr}");
    // The files' times order them instead.
    let out = ravenshard(&["growth", "--file-times", &one, &timeless], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let broken = write(&d.join("broken.json"), "{\"BucketRanges\": [");
    let out = ravenshard(&["growth", &one, &broken], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.json"));
}
