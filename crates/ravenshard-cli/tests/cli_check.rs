//! `ravenshard check`: the report, `--json`, and the exit status (0 nothing blocks, 1
//! something does, 2 bad input), on the check crate's fixtures.

mod common;

use common::{ravenshard, write};
use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ravenshard-check/fixtures");

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

#[test]
fn a_clean_record_exits_0() {
    let out = ravenshard(&["check", &fixture("clean-record.json")], "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("ravenshard check: Shop (not sharded)\n0 blocks, 0 changes, 1 note, 0 not checked\n\nNOTE (1)\n"), "{text}");
}

#[test]
fn every_kind_of_finding_exits_1_grouped_by_severity() {
    let args = [
        "check",
        "--config",
        &fixture("sharding.json"),
        "--indexes",
        &fixture("indexes.json"),
        "--queries",
        &fixture("queries.rql"),
        "--loads",
        &fixture("loads.txt"),
        &fixture("every-finding-record.json"),
        &fixture("export.ndjson"),
    ];
    let out = ravenshard(&args, "");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let headings: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with(')') && !l.starts_with(' ') && !l.starts_with('-'))
        .collect();
    let names: Vec<&str> = headings
        .iter()
        .map(|h| h.split(" (").next().unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        ["BLOCKS", "CHANGES", "NOTE", "NOT CHECKED"],
        "{text}"
    );
    assert!(
        text.contains("  where: queries: query 15, line 16, column 1\n"),
        "{text}"
    );
    assert!(text.contains("(share "), "{text}");

    let mut json_args = args.to_vec();
    json_args.insert(1, "--json");
    let out = ravenshard(&json_args, "");
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["shards"], 3);
    let first = &report["findings"][0];
    assert_eq!(first["severity"], "blocks");
    for key in [
        "rule", "feature", "location", "detail", "instead", "source", "share",
    ] {
        assert!(first.get(key).is_some(), "{key}: {first}");
    }
}

#[test]
fn bad_input_exits_2_naming_path_and_position() {
    let broken = write("check-bad", "record.json", "{\"DatabaseName\": \"x\",\n  \"Indexes\": {\"A\": {\"Maps\": [\"from o in docs.Orders select new { (\"]}}}");
    let out = ravenshard(&["check", &broken], "");
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        message.trim_end(),
        format!(
            "error: {broken}: record: Indexes.A.Maps[0]: line 1, column 36: '(' is never closed. Give the map as RavenDB stores it (the index definition's Maps)."
        )
    );
    let not_json = write("check-bad", "broken.json", "{\"DatabaseName\": ");
    let out = ravenshard(&["check", &not_json], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with(&format!("error: {not_json}: record: line 1, column 17: ")));
    let loads = write("check-bad", "loads.txt", "Orders\n");
    let out = ravenshard(
        &["check", "--loads", &loads, &fixture("clean-record.json")],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().starts_with(&format!(
        "error: {loads}: loads, line 1: 'Orders' is not Collection.Field."
    )));
}
