//! `--threads`: the bulk commands print the same bytes whatever the number of threads, on
//! an input of many blocks that holds every kind of line (and the known-answer vectors).

mod common;

use common::ravenshard_bytes as run;
use std::path::PathBuf;
use std::process::Output;

const VECTORS: &str = include_str!("../../../vectors/buckets-3-shards.tsv");
const NON_ASCII_AND_CONTROL: &str =
    include_str!("../../../vectors/buckets-non-ascii-and-control.tsv");

/// The known-answer rows `id<TAB>bucket<TAB>shard` that fit on a line (`\xHH` unescaped).
fn vector_rows() -> Vec<String> {
    let rows = VECTORS.lines().chain(NON_ASCII_AND_CONTROL.lines());
    rows.filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(common::unescape)
        .filter(|row| !row.contains(['\n', '\r']))
        .collect()
}

/// About 8 MB of ID lines: the vectors, then ASCII, anchored, non-ASCII and control
/// character IDs, `\r\n` endings, sizes, blank lines and lines that are not UTF-8.
fn large_input() -> Vec<u8> {
    let mut text = Vec::new();
    for row in vector_rows() {
        let id = row.split('\t').next().unwrap_or_default();
        text.extend_from_slice(format!("{id}\n").as_bytes());
    }
    for i in 0..400_000u32 {
        let line = match i % 50 {
            0 => "\n".to_string(),
            1 => format!("Straße/{i}-É\r\n"),
            2 => format!("ȺK/{i}$Customers/{}\t120\n", i % 977),
            3 => format!("A\u{1}b/{i}\n"),
            4 if i % 1000 == 4 => format!("bad\u{1b}{i}\n"),
            5 => format!("customers/{}-A\n", i % 977),
            6..=8 => format!("orders/{i}-A$customers/{}-A\n", i % 977),
            _ => format!("orders/{i}-A\n"),
        };
        text.extend_from_slice(line.as_bytes());
        if i % 100_003 == 7 {
            text.extend_from_slice(b"not \xff UTF-8\n");
        }
    }
    text.extend_from_slice(b"last/1-A");
    text
}

/// The large input as a file, written once: the tests run at the same time, and one must
/// not read it while another writes it.
fn input_file() -> PathBuf {
    static WRITTEN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    WRITTEN
        .get_or_init(|| {
            let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("threads-input.txt");
            std::fs::write(&path, large_input()).expect("the test input is written");
            path
        })
        .clone()
}

/// The output of `args` on the large input (`FILE` replaced by its path), with 1, 2 and 3
/// threads: they must be the same bytes, stdout and stderr, and the same exit status.
fn same_whatever_the_threads(args: &[&str], path: &str, stdin: bool) -> Output {
    let mut outputs: Vec<Output> = Vec::new();
    for threads in ["1", "2", "3"] {
        let mut argv: Vec<&str> = args
            .iter()
            .map(|a| if *a == "FILE" { path } else { a })
            .collect();
        argv.extend(["--threads", threads]);
        let input = if stdin { large_input() } else { Vec::new() };
        outputs.push(run(&argv, &input));
    }
    for (i, other) in outputs.iter().enumerate().skip(1) {
        assert_eq!(outputs[0].status, other.status, "{args:?}, run {i}");
        assert!(
            outputs[0].stdout == other.stdout,
            "{args:?}: stdout differs, run {i}"
        );
        assert_eq!(outputs[0].stderr, other.stderr, "{args:?}, run {i}");
    }
    outputs.swap_remove(0)
}

#[test]
fn bucket_prints_the_same_bytes_and_the_vectors_whatever_the_threads() {
    let path = input_file();
    let path = path.to_str().expect("a UTF-8 temporary path");
    let out =
        same_whatever_the_threads(&["bucket", "--shards", "3", "--file", "FILE"], path, false);
    let text = String::from_utf8_lossy(&out.stdout);
    let rows = vector_rows();
    let first: Vec<&str> = text.lines().take(rows.len()).collect();
    assert_eq!(first, rows, "the known answers, on every path");
    let lines = text.lines().count();
    assert!(lines > 390_000, "{lines} answers");
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(errors.contains("not valid UTF-8"), "{errors}");
    assert!(errors.contains("cannot be empty"), "{errors}");
    same_whatever_the_threads(&["bucket"], path, true);
}

#[test]
fn report_prints_the_same_bytes_whatever_the_threads() {
    let path = input_file();
    let path = path.to_str().expect("a UTF-8 temporary path");
    let json =
        same_whatever_the_threads(&["report", "--shards", "3", "--json", "FILE"], path, false);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert!(report["documents"].as_u64() > Some(390_000));
    // `customers/…` and `customers/…-a` anchors, and those of the vectors.
    assert!(report["anchored_group_count"].as_u64() > Some(977 + 977));
    same_whatever_the_threads(&["report", "--top", "30", "FILE"], path, false);
    same_whatever_the_threads(&["report", "--json"], path, true);
}

/// The report's anchored groups on `text`, with 1, 2 and 3 threads: anchor and whether it
/// is a document.
fn anchor_documents(name: &str, text: &str) -> Vec<(String, bool)> {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("the input is written");
    let path = path.to_str().expect("a UTF-8 temporary path");
    let args = ["report", "--json", "--top", "3", "FILE"];
    let out = same_whatever_the_threads(&args, path, false);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let groups = report["anchored_groups"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    groups
        .iter()
        .map(|g| {
            let anchor = g["anchor"].as_str().unwrap_or_default().to_string();
            (anchor, g["anchor_is_document"] == true)
        })
        .collect()
}

/// About 6 MB of ID lines: `orders/…` and, at the start, the groups of `early/1` and
/// `never/1`.
fn groups_at_the_start() -> String {
    let mut text = String::new();
    for i in 0..400_000u32 {
        match i {
            0..=99 => text.push_str(&format!("e/{i}$Early/1\n")),
            100..=109 => text.push_str(&format!("n/{i}$never/1\n")),
            _ => text.push_str(&format!("orders/{i}-A\n")),
        }
    }
    text
}

/// The second pass finds the anchor documents of the listed groups wherever they are: an
/// anchor document long after its group, and long before it (a group that begins in the
/// last block), whatever the number of threads.
#[test]
fn report_finds_anchor_documents_before_and_after_their_groups() {
    let after = groups_at_the_start() + "EARLY/1\n";
    let found = anchor_documents("threads-anchors-after.txt", &after);
    let expected = [("early/1", true), ("never/1", false)];
    assert_eq!(found, expected.map(|(a, is)| (a.to_string(), is)));
    let mut before = String::from("late/1\n") + &groups_at_the_start();
    for i in 0..200 {
        before.push_str(&format!("l/{i}$Late/1\n"));
    }
    let found = anchor_documents("threads-anchors-before.txt", &before);
    let expected = [("late/1", true), ("early/1", false), ("never/1", false)];
    assert_eq!(found, expected.map(|(a, is)| (a.to_string(), is)));
}

/// About 9 MB of ID lines, nearly all anchored: 100,000 distinct anchors in other cases,
/// skewed, some non-ASCII, anchor documents before and after their groups, and groups tied
/// for the last places listed.
fn anchor_heavy() -> String {
    let mut text = String::new();
    for k in 0..3_000 {
        text.push_str(&format!("Customers/{k}-A\n"));
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..330_000u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let line = match i % 10 {
            0..=5 => format!(
                "orders/{i}-A$customers/{}-a\n",
                state % (state % 100_000 + 1)
            ),
            6 => format!("Lines/{i}$KUNDEN/{}-É\t120\r\n", state % 5_000),
            7 => format!("kunden/{}-é\n", state % 5_000),
            8 => format!("x/{i}$ties/{}\n", i / 10),
            _ => format!("orders/{i}-A\n"),
        };
        text.push_str(&line);
    }
    text
}

/// The report of a large anchor-heavy file is the same bytes whatever the threads, from the
/// file and from a pipe, and the library's report of the same IDs (which
/// `crates/ravenshard/tests/report_reference.rs` checks against a slow reference count).
#[test]
fn an_anchor_heavy_report_is_the_librarys_whatever_the_threads() {
    let text = anchor_heavy();
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("threads-anchor-heavy.txt");
    std::fs::write(&path, &text).expect("the input is written");
    let path = path.to_str().expect("a UTF-8 temporary path");
    for top in ["10", "40"] {
        let args = ["report", "--shards", "3", "--json", "--top", top, "FILE"];
        let out = same_whatever_the_threads(&args, path, false);
        let topology = ravenshard::Topology::with_shards(3).expect("three shards");
        let options = ravenshard::ReportOptions {
            top_buckets: top.parse().unwrap_or_default(),
            top_groups: top.parse().unwrap_or_default(),
            ..ravenshard::ReportOptions::default()
        };
        let ids = ravenshard::lines::ids(&text);
        let expected = ravenshard::report(ids, Some(&topology), &options);
        let expected = serde_json::to_string_pretty(&expected).expect("JSON") + "\n";
        assert!(out.stdout == expected.as_bytes(), "--top {top}");
        let piped = run(&args[..args.len() - 1], text.as_bytes());
        assert!(piped.stdout == out.stdout, "--top {top} from a pipe");
    }
}

/// A configuration file in the test's temporary directory.
fn config(name: &str, json: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, json).expect("the configuration is written");
    path.display().to_string()
}

#[test]
fn plan_and_balance_print_the_same_bytes_whatever_the_threads() {
    let path = input_file();
    let path = path.to_str().expect("a UTF-8 temporary path");
    let three = config(
        "threads-three.json",
        r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#,
    );
    // A target that adds a prefix: the plan checks it against every (lowered) ID.
    let target = config(
        "threads-target.json",
        r#"{"Shards": {"0": {}, "1": {}, "2": {}, "3": {}},
            "Prefixed": [{"Prefix": "zz/", "Shards": [3], "BucketRangeStart": 1048576}]}"#,
    );
    for by in ["docs", "bytes"] {
        let plan = ["plan", "--config", &three, "--target", &target, "--by", by];
        let out = same_whatever_the_threads(&[&plan[..], &["FILE"]].concat(), path, false);
        let p: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert!(!p["moves"].as_array().is_some_and(Vec::is_empty), "{p}");
        let errors = String::from_utf8_lossy(&out.stderr);
        assert!(errors.contains("not valid UTF-8"), "{errors}");
        assert!(errors.contains("(left out)"), "{errors}");
        let balance = [
            "balance",
            "--config",
            &three,
            "--threshold",
            "0",
            "--by",
            by,
        ];
        same_whatever_the_threads(&[&balance[..], &["FILE"]].concat(), path, false);
    }
    same_whatever_the_threads(
        &["plan", "--config", &three, "--target", &target],
        path,
        true,
    );
    same_whatever_the_threads(&["balance", "--config", &three], path, true);
}

/// The workload `plan` reads on several threads is the one it reads on one, and places the
/// known-answer vectors where they say: the documents per shard are the vectors' counts.
#[test]
fn plan_counts_the_vectors_on_every_thread_count() {
    let three = config(
        "threads-vectors.json",
        r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#,
    );
    let rows = vector_rows();
    let mut text = String::new();
    let mut per_shard = [0u64; 3];
    for _ in 0..2000 {
        for row in &rows {
            let mut fields = row.split('\t');
            let id = fields.next().unwrap_or_default();
            let shard: usize = fields.nth(1).and_then(|s| s.parse().ok()).unwrap_or(9);
            per_shard[shard] += 1;
            text.push_str(id);
            text.push('\n');
        }
    }
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("threads-vectors.txt");
    std::fs::write(&path, &text).expect("the vector input is written");
    let path = path.to_str().expect("a UTF-8 temporary path");
    let out = same_whatever_the_threads(
        &["plan", "--config", &three, "--target", &three, "FILE"],
        path,
        false,
    );
    let p: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let counted: Vec<u64> = (0..3)
        .map(|i| p["per_shard"][i]["docs_before"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(counted, per_shard);
}

/// `report` with stdin redirected from a file (`< ids.txt`) reads it again for its second
/// pass instead of spooling it: the same report as from a pipe or a file argument.
#[test]
fn report_reads_stdin_again_when_it_is_a_file() {
    let path = input_file();
    let args = ["report", "--json", "--threads", "2"];
    let redirected = std::process::Command::new(env!("CARGO_BIN_EXE_ravenshard"))
        .args(args)
        .stdin(std::fs::File::open(&path).expect("the input opens"))
        .output()
        .expect("ravenshard runs");
    let piped = run(&args, &large_input());
    let path = path.to_str().expect("a UTF-8 temporary path");
    let named = run(&[&args[..], &[path]].concat(), &[]);
    assert_eq!(redirected.stdout, piped.stdout);
    assert_eq!(redirected.stderr, piped.stderr);
    assert_eq!(redirected.status, piped.status);
    let report: serde_json::Value = serde_json::from_slice(&named.stdout).expect("JSON");
    let groups = report["anchored_groups"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        groups.iter().any(|g| g["anchor_is_document"] == true),
        "{groups:?}"
    );
    assert_eq!(redirected.stdout, named.stdout);
}
