//! `ravenshard plan` and `ravenshard balance` on the known-answer vectors: the moves and
//! totals agree with the vectors' buckets, the JSON has the issue's keys, and RavenDB's
//! messages come through.

mod common;

use common::{ravenshard, write};
use serde_json::Value;
use std::process::Output;

const VECTORS: &str = include_str!("../../../vectors/buckets-3-shards.tsv");
const NON_ASCII_AND_CONTROL: &str =
    include_str!("../../../vectors/buckets-non-ascii-and-control.tsv");

/// `(id, bucket)` of every vector row of both files, IDs unescaped (`\xHH` is one ASCII
/// byte; no ID holds `\n`, `\r` or a tab, so each is one line of `id<TAB>size`).
fn vectors() -> Vec<(String, u32)> {
    VECTORS
        .lines()
        .chain(NON_ASCII_AND_CONTROL.lines())
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|row| {
            let mut f = row.split('\t');
            let mut written = f.next().unwrap();
            let mut id = String::new();
            while let Some(at) = written.find("\\x") {
                id.push_str(&written[..at]);
                id.push(char::from(
                    u8::from_str_radix(&written[at + 2..at + 4], 16).unwrap(),
                ));
                written = &written[at + 4..];
            }
            id.push_str(written);
            assert!(
                !id.contains(['\n', '\r', '\t']),
                "{id:?} cannot be one line"
            );
            (id, f.next().unwrap().parse().unwrap())
        })
        .collect()
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "status {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

const THREE: &str =
    r#"{"Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}, "2": {"Members": ["C"]}}}"#;

#[test]
fn plan_counts_the_vectors_in_the_moved_run() {
    let current = write("plan", "current.json", THREE);
    // Shard 2 takes buckets 600000..699049 from shard 1.
    let target = write(
        "plan",
        "target.json",
        r#"{"Shards": {"0": {}, "1": {}, "2": {}}, "BucketRanges": [
            {"BucketRangeStart": 0, "ShardNumber": 0},
            {"BucketRangeStart": 349525, "ShardNumber": 1},
            {"BucketRangeStart": 600000, "ShardNumber": 2}]}"#,
    );
    let rows = vectors();
    let stdin: String = rows.iter().map(|(id, _)| format!("{id}\t100\n")).collect();
    let p = json(&ravenshard(
        &[
            "plan",
            "--config",
            &current,
            "--target",
            &target,
            "--throughput",
            "1KB/s",
        ],
        &stdin,
    ));
    let expected = rows
        .iter()
        .filter(|(_, b)| (600_000..699_050).contains(b))
        .count() as u64;
    assert!(expected > 0, "the vectors reach the moved run");
    assert_eq!(p["moves"].as_array().unwrap().len(), 1);
    assert_eq!(p["moves"][0]["from_bucket"], 600000);
    assert_eq!(p["moves"][0]["to_bucket"], 699049);
    assert_eq!(p["moves"][0]["from_shard"], 1);
    assert_eq!(p["moves"][0]["to_shard"], 2);
    assert_eq!(p["docs_moved"], expected);
    assert_eq!(p["bytes_moved"], expected * 100);
    assert_eq!(p["buckets_moved"], 99050);
    let data = expected as f64 * 100.0 / 1000.0;
    assert_eq!(p["estimate"]["data_seconds"].as_f64(), Some(data));
    // Plus 99,050 bucket migrations at the default 40 ms.
    assert_eq!(p["estimate_seconds"].as_f64(), Some(data + 99050.0 * 0.04));
    for key in ["share_moved", "skew_before", "skew_after"] {
        assert!(p[key].is_number(), "{key}");
    }
    let shard1 = &p["per_shard"][1];
    let on_1 = rows
        .iter()
        .filter(|(_, b)| (349_525..699_050).contains(b))
        .count() as u64;
    assert_eq!(shard1["docs_before"], on_1);
    assert_eq!(shard1["docs_after"], on_1 - expected);
    assert_eq!(shard1["bytes_before"], on_1 * 100);
    assert_eq!(p["target"]["BucketRanges"][2]["BucketRangeStart"], 600000);
    assert_eq!(p["target"]["Shards"]["0"]["Members"], serde_json::json!([]));
}

#[test]
fn balance_evens_a_new_shard_from_a_file() {
    let four = write(
        "balance",
        "four.json",
        r#"{"Shards": {"0": {}, "1": {}, "2": {}, "3": {}}, "BucketRanges": [
            {"BucketRangeStart": 0, "ShardNumber": 0},
            {"BucketRangeStart": 349525, "ShardNumber": 1},
            {"BucketRangeStart": 699050, "ShardNumber": 2}]}"#,
    );
    let ids: String = (0..4000).map(|i| format!("orders/{i}-A\n")).collect();
    let file = write("balance", "ids.txt", &ids);
    let b = json(&ravenshard(
        &["balance", "--config", &four, "--threshold", "0", &file],
        "",
    ));
    let shard3 = &b["per_shard"][3];
    assert_eq!(shard3["docs_before"], 0);
    let after = shard3["docs_after"].as_u64().unwrap();
    assert!((990..=1010).contains(&after), "{after}");
    assert!(b["skew_after"].as_f64().unwrap() < 1.02);
    assert!(b["skew_before"].as_f64().unwrap() > 1.3);
    assert!(b["obstacles"].as_array().unwrap().is_empty());
    // Weights and a cap.
    let weighted = json(&ravenshard(
        &[
            "balance",
            "--config",
            &four,
            "--weights",
            "3=2",
            "--max-buckets",
            "5",
            &file,
        ],
        "",
    ));
    assert!(weighted["buckets_moved"].as_u64().unwrap() <= 5);
    assert_eq!(weighted["notes"][0]["kind"], "capped");
}

#[test]
fn bad_input_is_reported_not_fatal() {
    let current = write("bad", "current.json", THREE);
    let out = ravenshard(
        &["balance", "--config", &current],
        "orders/1-A\t12\n\norders/2-A\tlots\n\t5\norders/3-A\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 3: the size 'lots' is not a whole number of bytes"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 4: Document ID cannot be empty"),
        "{stderr}"
    );
    let b: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        b["plan"].is_null(),
        "the plan is flattened into the balance"
    );
    let total: u64 = b["per_shard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["docs_before"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 2);
    let out = ravenshard(&["balance", "--config", &current, "--weights", "0=two"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'0=two' is not a weight"));
    let out = ravenshard(
        &["balance", "--config", &current, "--by", "bytes"],
        "orders/1-A\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("No document has a size"));
    let out = ravenshard(
        &[
            "plan",
            "--config",
            &current,
            "--target",
            &current,
            "--throughput",
            "fast",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'fast' is not a throughput"));
}

#[test]
fn plan_refuses_a_prefix_over_existing_documents() {
    let current = write("prefix", "current.json", THREE);
    let target = write(
        "prefix",
        "target.json",
        r#"{"Shards": {"0": {}, "1": {}, "2": {}},
            "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
                {"BucketRangeStart": 349525, "ShardNumber": 1},
                {"BucketRangeStart": 699050, "ShardNumber": 2},
                {"BucketRangeStart": 1048576, "ShardNumber": 1}],
            "Prefixed": [{"Prefix": "eu/", "Shards": [1], "BucketRangeStart": 1048576}]}"#,
    );
    let out = ravenshard(
        &["plan", "--config", &current, "--target", &target],
        "orders/1\nEU/orders/2\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Cannot add prefix 'eu/' to ShardingConfiguration.Prefixed. There are existing documents in database 'db' that start with 'eu/'"),
        "{stderr}"
    );
    let p = json(&ravenshard(
        &["plan", "--config", &current, "--target", &target],
        "orders/1\n",
    ));
    assert_eq!(p["notes"][0]["kind"], "prefix_added");
    assert_eq!(p["moves"], serde_json::json!([]));
}

/// `--server-version 6.2` places the documents by 6.2's rule: `é0<U+0001>` is in bucket
/// 1037505 on 6.2.4 (its control character hashed unescaped) and in shard 0's half on 7.x,
/// so removing shard 1 moves it only on 6.2. `balance` takes the flag too.
#[test]
fn plan_and_balance_follow_the_server_version() {
    let two = write(
        "plan-version",
        "two.json",
        r#"{"Shards": {"0": {}, "1": {}}}"#,
    );
    let one = write("plan-version", "one.json", r#"{"Shards": {"0": {}}}"#);
    let moved = |version: &str| {
        let args = [
            "plan",
            "--config",
            &two,
            "--target",
            &one,
            "--server-version",
            version,
        ];
        json(&ravenshard(&args, "é0\u{1}\n"))["docs_moved"].clone()
    };
    assert_eq!(moved("7"), 0);
    assert_eq!(moved("6.2"), 1);
    let drained = |version: &str| {
        let args = [
            "balance",
            "--config",
            &two,
            "--weights",
            "1=0",
            "--server-version",
            version,
        ];
        json(&ravenshard(&args, "é0\u{1}\n"))["docs_moved"].clone()
    };
    assert_eq!(drained("7"), 0);
    assert_eq!(drained("6.2"), 1);
    let out = ravenshard(
        &[
            "plan",
            "--config",
            &two,
            "--target",
            &one,
            "--server-version",
            "5",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--server-version"));
}
