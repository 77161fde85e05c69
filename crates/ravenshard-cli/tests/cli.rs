//! The `ravenshard` binary: the same known answers, through stdin, arguments and files.

mod common;

use common::ravenshard;
use std::io::Write;
use std::process::{Command, Stdio};

const VECTORS: &str = include_str!("../../../vectors/buckets-3-shards.tsv");
const NON_ASCII_AND_CONTROL: &str =
    include_str!("../../../vectors/buckets-non-ascii-and-control.tsv");

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

/// `(id, "bucket\tshard")` rows of the non-ASCII and control-character vectors, IDs
/// unescaped (`\xHH` is one ASCII byte).
fn non_ascii_and_control_rows() -> Vec<(String, String)> {
    NON_ASCII_AND_CONTROL
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (written, answer) = l.split_once('\t').expect("id<TAB>bucket<TAB>shard");
            let id = common::unescape(written);
            (id, answer.to_string())
        })
        .collect()
}

#[test]
fn bucket_answers_every_non_ascii_and_control_vector() {
    let rows = non_ascii_and_control_rows();
    assert!(rows.len() >= 30);
    // On stdin, one ID a line: an ID holding `\n` or `\r` cannot be a line (none does
    // today; such a row would need its own argument-only test).
    let lines: Vec<&(String, String)> = rows
        .iter()
        .filter(|(id, _)| !id.contains(['\n', '\r']))
        .collect();
    let input: String = lines.iter().map(|(id, _)| format!("{id}\n")).collect();
    let expected: String = lines.iter().map(|(id, a)| format!("{id}\t{a}\n")).collect();
    let out = ravenshard(&["bucket", "--shards", "3"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), expected);
    // As arguments: every ID but those with NUL, which no command line can carry.
    let args: Vec<&(String, String)> = rows.iter().filter(|(id, _)| !id.contains('\0')).collect();
    let mut argv = vec!["bucket", "--shards", "3"];
    argv.extend(args.iter().map(|(id, _)| id.as_str()));
    let expected: String = args.iter().map(|(id, a)| format!("{id}\t{a}\n")).collect();
    let out = ravenshard(&argv, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), expected);
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

/// A fresh folder with these files, for one test.
fn files(test: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ravenshard-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, content) in files {
        std::fs::write(dir.join(name), content).unwrap();
    }
    dir
}

fn orders_config(range: u32, mutable: bool) -> String {
    format!(
        r#"{{"Shards": {{"0": {{}}, "1": {{}}, "2": {{}}}},
            "ByContent": {{"Orders": {{"Fields": ["Customer"], "Range": {range}, "Mutable": {mutable}}}}}}}"#
    )
}

fn json_lines(bytes: &[u8]) -> Vec<serde_json::Value> {
    text(bytes)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn store_generates_the_chapters_ids_and_names_bad_lines() {
    let dir = files(
        "store",
        &[
            ("r1000.json", &orders_config(1000, false)),
            ("r1.json", &orders_config(1, false)),
        ],
    );
    let config = dir.join("r1000.json");
    let input = concat!(
        r#"{"Customer": "customers/1-A", "@metadata": {"@id": "orders/1-A$", "@collection": "Orders"}}"#,
        "\n\n",
        "not json\n",
        r#"{"Customer": "customers/1-A", "@metadata": {}}"#,
        "\n",
        r#"{"Customer": "customers/2-B", "@metadata": {"@id": "orders/1-A$@982326"}}"#,
        "\r\n",
        r#"{"@metadata": {"@id": "invoices/1-A$"}}"#,
        "\n",
        r#"{"Customer": "customers/741135-C", "@metadata": {"@id": "orders/1-A$@982326"}}"#,
    );
    let out = ravenshard(&["store", "--config", config.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 6);
    assert_eq!(
        lines[0],
        serde_json::json!({"id": "orders/1-A$@982326", "bucket": 982326, "shard": 2})
    );
    assert_eq!(lines[1]["line"], 3);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .starts_with("line 3: not JSON"));
    assert_eq!(lines[1].get("id"), None);
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .starts_with("line 4: the document has no ID (no @metadata.@id)"));
    assert_eq!(lines[3]["id"], "orders/1-A$@982326");
    assert!(lines[3]["error"].as_str().unwrap().starts_with("Rejected:"));
    assert!(lines[4]["error"]
        .as_str()
        .unwrap()
        .contains("IDs ending with '$' need a ByContent rule for collection invoices"));
    // customers/741135-C is in customers/1-A's bucket, so the update is accepted.
    assert_eq!(lines[5]["bucket"], 982326);

    // Range 1: the chapter's 982173; read from a file; all stored, exit 0.
    let docs = dir.join("docs.ndjson");
    std::fs::write(
        &docs,
        r#"{"Customer": "customers/1-A", "@metadata": {"@id": "orders/1-A$"}}"#,
    )
    .unwrap();
    let config = dir.join("r1.json");
    let out = ravenshard(
        &[
            "store",
            "--config",
            config.to_str().unwrap(),
            docs.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"id\":\"orders/1-A$@982173\",\"bucket\":982173,\"shard\":2}\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn store_needs_a_configuration_with_by_content() {
    let dir = files("store-off", &[("plain.json", r#"{"Shards": {"0": {}}}"#)]);
    let plain = dir.join("plain.json");
    let out = ravenshard(&["store", "--config", plain.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("no ByContent section, so the draft chapter's content-based design is off"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let out = ravenshard(&["store"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = ravenshard(&["store", "--config", "/nonexistent/c.json"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = ravenshard(
        &[
            "store",
            "--config",
            plain.to_str().unwrap(),
            "/nonexistent/docs",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bucket_pins_dollar_at_ids_only_with_the_design() {
    let dir = files(
        "bucket-design",
        &[
            ("on.json", &orders_config(1, false)),
            ("off.json", r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#),
        ],
    );
    let on = dir.join("on.json");
    let out = ravenshard(
        &["bucket", "--config", on.to_str().unwrap()],
        "orders/1-A$@982326\norders/1-A\nx$@1048576\nUsers/70$Users/4\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "orders/1-A$@982326\t982326\t2\norders/1-A\t151326\t0\nUsers/70$Users/4\t690258\t1\n"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "line 3: 'x$@1048576': '$@' must be followed by a bucket number from 0 to 1048575"
        ),
        "{stderr}"
    );
    // Without ByContent, '$@982326' is an ordinary anchor: '@982326' is hashed.
    let off = dir.join("off.json");
    let out = ravenshard(
        &[
            "bucket",
            "--config",
            off.to_str().unwrap(),
            "orders/1-A$@982326",
            "x$@1048576",
        ],
        "",
    );
    assert!(out.status.success());
    let hashed = ravenshard::bucket_for("@982326").unwrap();
    assert!(text(&out.stdout).starts_with(&format!("orders/1-A$@982326\t{hashed}\t")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn config_diff_exit_status_follows_the_verdict() {
    let dir = files(
        "config-diff",
        &[
            ("r1.json", &orders_config(1, false)),
            ("r1000.json", &orders_config(1000, false)),
            ("r1500.json", &orders_config(1500, false)),
            ("mutable.json", &orders_config(1000, true)),
            (
                "ids.txt",
                "orders/1-A$@982173\t120\tOrders\norders/2-A$customers/1-A\n",
            ),
            (
                "docs.ndjson",
                "\n{\"Customer\": \"customers/1-A\", \"@metadata\": {\"@id\": \"orders/9$@982999\"}}\n",
            ),
            ("bad.ndjson", "{\"@metadata\": {\"@id\": \"a\"}}\n{oops\n"),
        ],
    );
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let out = ravenshard(
        &[
            "config-diff",
            &path("r1.json"),
            &path("r1000.json"),
            "--docs",
            &path("ids.txt"),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(diff["verdict"], "safe");
    assert_eq!(diff["rules"][0]["status"], "safe");
    assert_eq!(diff["documents"], 2);

    let out = ravenshard(
        &[
            "config-diff",
            &path("r1000.json"),
            &path("r1500.json"),
            "--docs",
            &path("docs.ndjson"),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(diff["verdict"], "needs_attention");
    assert_eq!(diff["rules"][0]["status"], "needs_mutable_first");
    assert_eq!(diff["invalidated"], 1);
    assert_eq!(diff["examples"][0]["id"], "orders/9$@982999");

    let out = ravenshard(
        &["config-diff", &path("mutable.json"), &path("r1000.json")],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(diff["rules"][0]["status"], "mutable_turned_off");
    assert!(diff["rules"][0]["warning"]
        .as_str()
        .unwrap()
        .contains("the operator must have migrated them first"));

    let out = ravenshard(
        &[
            "config-diff",
            &path("r1.json"),
            &path("r1000.json"),
            "--docs",
            &path("bad.ndjson"),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("bad.ndjson line 2: not JSON"),
        "{}",
        text(&out.stderr)
    );
    let out = ravenshard(&["config-diff", &path("r1.json"), "/nonexistent.json"], "");
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_tx_reports_buckets_shards_and_invalid_ids() {
    let out = ravenshard(
        &[
            "check-tx",
            "--shards",
            "3",
            "orders/1-A$customers/1-A",
            "customers/1-A",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let check: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(check["verdict"], "one_bucket");
    assert_eq!(check["buckets"], serde_json::json!([982173]));

    let dir = files("check-tx", &[("on.json", &orders_config(1000, false))]);
    let on = dir.join("on.json");
    let out = ravenshard(
        &[
            "check-tx",
            "--config",
            on.to_str().unwrap(),
            "orders/1-A$@982326",
            "orders/2-A$",
            "orders/1-A",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let check: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(check["verdict"], "several_shards");
    assert_eq!(check["shards"], serde_json::json!([0, 2]));
    assert_eq!(check["invalid"][0]["id"], "orders/2-A$");
    let out = ravenshard(&["check-tx", "a"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--config FILE"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn route_prints_the_shards_the_reason_and_the_cost() {
    let dir = files("route", &[("on.json", &orders_config(1000, false))]);
    let on = dir.join("on.json");
    let route = |args: &[&str]| {
        let out = ravenshard(args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let line = text(&out.stdout);
        assert_eq!(line.lines().count(), 1, "{line}");
        serde_json::from_str::<serde_json::Value>(&line).unwrap()
    };
    // The chapter: equality on the rule's field goes to the content block's shard.
    let r = route(&[
        "route",
        "--config",
        on.to_str().unwrap(),
        "from Orders where Customer = 'customers/1-A'",
    ]);
    assert_eq!(r["shards"], serde_json::json!([2]));
    assert!(r["reason"].as_str().unwrap().contains("982000–982999"));
    assert_eq!(r["fetched"], serde_json::Value::Null);
    assert_eq!(r["warnings"], serde_json::json!([]));
    // Without ByContent: every shard, and the chapter's deep-paging cost.
    let r = route(&[
        "route",
        "--shards",
        "13",
        "from Orders where OrderedAt > $today limit 10 offset 5000",
    ]);
    assert_eq!(r["shards"].as_array().unwrap().len(), 13);
    assert_eq!(r["fetched"], 65130);
    assert!(r["warnings"][0]
        .as_str()
        .unwrap()
        .starts_with("Deep paging"));
    // A query that is not RQL: exit 2 with the parser's position.
    let out = ravenshard(&["route", "--shards", "3", "select * from Orders"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1, column 1"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
