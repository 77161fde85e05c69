//! The `ravenshard` binary: the same known answers, through stdin, arguments and files.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const VECTORS: &str = include_str!("data/buckets-3-shards.tsv");

fn ravenshard(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ravenshard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ravenshard binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input
        .write_all(stdin.as_bytes())
        .expect("stdin accepts input");
    drop(input);
    child.wait_with_output().expect("ravenshard finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn vector_rows() -> Vec<&'static str> {
    VECTORS.lines().filter(|l| !l.starts_with('#')).collect()
}

#[test]
fn bucket_on_stdin_reproduces_the_vector_file() {
    let ids: String = vector_rows()
        .iter()
        .map(|row| format!("{}\n", row.split('\t').next().unwrap()))
        .collect();
    let out = ravenshard(&["bucket", "--shards", "3"], &ids);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    let expected: Vec<String> = vector_rows().iter().map(|r| r.to_string()).collect();
    assert_eq!(lines, expected);
}

#[test]
fn bucket_without_shards_prints_two_columns() {
    let out = ravenshard(&["bucket", "orders/1-A", "Users/70$Users/4"], "");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "orders/1-A\t151326\nUsers/70$Users/4\t690258\n"
    );
}

#[test]
fn invalid_ids_go_to_stderr_with_their_line_and_the_rest_still_run() {
    let long = "x".repeat(600);
    let input = format!("orders/1-A\n\n{long}\ncustomers/1-A\t512\r\n\u{0}ok\nab\u{FFFD}\n");
    let mut bytes = input.into_bytes();
    bytes.extend_from_slice(b"bad\xff\n");
    let out = {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ravenshard"))
            .args(["bucket", "--shards", "3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&bytes).unwrap();
        child.wait_with_output().unwrap()
    };
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("orders/1-A\t151326\t0\ncustomers/1-A\t982173\t2\n"),
        "{stdout}"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("line 2: Document ID cannot be empty"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 3: Document ID cannot exceed 512 bytes, but the ID was 600 bytes.")
    );
    assert!(
        stderr.contains("line 7: not valid UTF-8 at byte 3"),
        "{stderr}"
    );
}

#[test]
fn config_file_with_prefixes() {
    let dir = std::env::temp_dir().join(format!("ravenshard-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sharding.json");
    std::fs::write(
        &path,
        r#"{"DatabaseName": "Orders", "Sharding": {
            "Shards": {"0": {"Members": ["A", "B"]}, "1": {"Members": ["B", "C"]}, "2": {"Members": ["C", "A"]}},
            "Prefixed": [{"Prefix": "eu/", "Shards": [0]}, {"Prefix": "asia/", "Shards": [1, 2]}]}}"#,
    )
    .unwrap();
    let config = path.to_str().unwrap();
    let out = ravenshard(
        &["bucket", "--config", config, "eu/0", "asia/1", "asia/2"],
        "",
    );
    assert_eq!(
        text(&out.stdout),
        "eu/0\t1906271\t0\nasia/1\t2429030\t1\nasia/2\t2831086\t2\n"
    );
    let out = ravenshard(&["explain", "--config", config, "asia/2"], "");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("'asia/' -> + 2097152 = bucket 2831086"),
        "{stdout}"
    );
    assert!(stdout.contains("Orders$2 on nodes C, A"), "{stdout}");

    std::fs::write(
        &path,
        r#"{"Shards": {"0": {}}, "Prefixed": [{"Prefix": "eu", "Shards": [0]}]}"#,
    )
    .unwrap();
    let out = ravenshard(&["bucket", "--config", config, "x"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("Prefixed[0].Prefix"), "{stderr}");
    assert!(stderr.contains("must end with '/' or '-'"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn explain_json_is_machine_readable() {
    let out = ravenshard(
        &[
            "explain",
            "--shards",
            "3",
            "--json",
            "orders/2-A$customers/1-A",
        ],
        "",
    );
    assert!(out.status.success());
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["bucket"], 982173);
    assert_eq!(value["shard"], 2);
    assert_eq!(value["hashed"], "customers/1-a");
    assert_eq!(value["fragment"], "db$2");
}

#[test]
fn explain_of_an_invalid_id_fails_with_the_reason() {
    let out = ravenshard(&["explain", ""], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot be empty"));
}

#[test]
fn report_json_counts_shards_and_groups() {
    let ids = "users/4\nUsers/70$Users/4\nUsers/71$Users/4\nUsers/72$Users/4\norders/1-A\ncustomers/1-A\n";
    let out = ravenshard(
        &["report", "--shards", "3", "--json", "--database", "Orders"],
        ids,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["documents"], 6);
    assert_eq!(r["shards"][0]["documents"], 1);
    assert_eq!(r["shards"][1]["documents"], 4);
    assert_eq!(r["shards"][1]["fragment"], "Orders$1");
    assert_eq!(r["anchored_groups"][0]["anchor"], "users/4");
    assert_eq!(r["anchored_groups"][0]["count"], 3);
    assert_eq!(r["anchored_groups"][0]["anchor_is_document"], true);
    assert_eq!(r["top_buckets"][0]["bucket"], 690258);
    assert_eq!(r["skew"], 2.0);
}

#[test]
fn report_reads_a_file_and_finds_anchor_documents_listed_later() {
    let dir = std::env::temp_dir().join(format!("ravenshard-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ids.txt");
    std::fs::write(&path, "orders/2-A$customers/1-A\t120\ncustomers/1-A\t300\n").unwrap();
    let out = ravenshard(&["report", "--json", path.to_str().unwrap()], "");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["anchored_groups"][0]["anchor_is_document"], true);
    assert_eq!(r["shards"].as_array().unwrap().len(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn conflicting_and_broken_arguments_are_usage_errors() {
    let out = ravenshard(&["bucket", "--shards", "3", "--config", "x.json", "a"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = ravenshard(&["bucket", "--shards", "0", "a"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no shards"));
    let out = ravenshard(&["bucket", "--config", "/nonexistent/config.json", "a"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/config.json"));
}

#[test]
fn report_names_lines_that_are_not_utf8() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ravenshard"))
        .args(["report", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a\nb\xff\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["documents"], 1);
    assert_eq!(r["invalid"][0]["line"], 2);
    assert_eq!(
        r["invalid"][0]["error"],
        "not valid UTF-8 at byte 1; save the file as UTF-8"
    );
}
