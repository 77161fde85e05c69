//! `ravenshard plan --calls` and `ravenshard balance --calls`: the calls that carry a plan
//! out, as JSON and as a shell script; `--bucket-cost` and `--objective`.

mod common;

use common::ravenshard;

fn write(name: &str, text: &str) -> String {
    common::write("cli-calls", name, text)
}
use serde_json::Value;
use std::process::Output;

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "status {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

const TWO: &str = r#"{"Shards": {"0": {}, "1": {}}}"#;
/// Shard 0 takes 500000..599999 from shard 1, shard 1 keeps the rest.
const MOVED: &str = r#"{"Shards": {"0": {}, "1": {}}, "BucketRanges": [
    {"BucketRangeStart": 0, "ShardNumber": 0},
    {"BucketRangeStart": 600000, "ShardNumber": 1}]}"#;

#[test]
fn plan_prints_its_calls_as_json_and_as_a_script() {
    let (current, target) = (write("two.json", TWO), write("moved.json", MOVED));
    let args = |format: &'static str| {
        vec![
            "plan",
            "--config",
            current.as_str(),
            "--target",
            target.as_str(),
            "--calls",
            format,
            "--database",
            "Orders",
            "--url",
            "https://a.example.com",
            "--bucket-cost",
            "10ms",
        ]
    };
    let c: Value = serde_json::from_str(&stdout(&ravenshard(&args("json"), "orders/1\n"))).unwrap();
    assert_eq!(c["calls"].as_array().unwrap().len(), 1);
    assert_eq!(
        c["calls"][0]["path"],
        "/admin/resharding/start?database=Orders&fromBucket=524288&toBucket=599999&toShard=0"
    );
    assert_eq!(c["url"], "https://a.example.com");
    assert_eq!(c["estimate"]["buckets"], 75712);
    assert!((c["estimate"]["buckets_seconds"].as_f64().unwrap() - 757.12).abs() < 1e-9);
    let mut sh = args("sh");
    sh.extend(["--cert", "admin.pem", "--key", "admin.key"]);
    let script = stdout(&ravenshard(&sh, "orders/1\n"));
    assert!(script.starts_with("#!/bin/sh\n"));
    assert!(script.contains("\n1 524288 599999 0\n"), "{script}");
    assert!(script.contains("CERT='admin.pem'") && script.contains("KEY='admin.key'"));
    assert!(script.contains("DATABASE='Orders'"));
}

#[test]
fn the_plan_shows_both_terms_of_the_estimate() {
    let (current, target) = (write("two-e.json", TWO), write("moved-e.json", MOVED));
    let out = ravenshard(
        &[
            "plan",
            "--config",
            &current,
            "--target",
            &target,
            "--throughput",
            "1docs/s",
        ],
        "orders/1\n",
    );
    let p: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let e = &p["estimate"];
    assert_eq!(e["buckets"], 75712);
    assert_eq!(e["bucket_cost_seconds"], 0.04);
    assert_eq!(e["dominant"], "buckets");
    assert!(e["data_seconds"].is_number());
}

#[test]
fn balance_takes_an_objective_and_reports_both() {
    let config = write("two-b.json", TWO);
    // 4,000 documents over two shards, a little uneven.
    let ids: String = (0..4000)
        .map(|i| format!("orders/{i}\n"))
        .collect::<String>();
    let run = |objective: &str| -> Value {
        let out = ravenshard(
            &[
                "balance",
                "--config",
                &config,
                "--threshold",
                "1",
                "--objective",
                objective,
            ],
            &ids,
        );
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    let (contiguous, fewest) = (run("contiguous"), run("fewest-migrations"));
    assert_eq!(fewest["options"]["objective"], "fewest-migrations");
    assert_eq!(contiguous["objectives"], fewest["objectives"]);
    assert!(fewest["migrations"].as_u64() <= contiguous["migrations"].as_u64());
    let bad = ravenshard(&["balance", "--config", &config, "--objective", "fast"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("fewest-migrations"));
    let calls = ravenshard(
        &[
            "balance",
            "--config",
            &config,
            "--calls",
            "json",
            "--url",
            "a.example.com",
        ],
        &ids,
    );
    assert_eq!(calls.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&calls.stderr).contains("is not a node's URL"));
}
