//! The studio's importers in the CLI: `report`, `bucket`, `plan` and `balance` read RavenDB
//! exports, JSON, NDJSON and CSV as they read ID lines, told apart by content or chosen with
//! `--format`, and give the same answers for the same documents.

mod common;

use common::{ravenshard, ravenshard_bytes};
use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::Output;

const VECTORS: &str = include_str!("../../../vectors/buckets-3-shards.tsv");

/// The IDs of the vector file, and anchored IDs on top (so the report has groups).
fn ids() -> Vec<String> {
    let mut ids: Vec<String> = VECTORS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|row| row.split('\t').next().unwrap().to_string())
        .collect();
    ids.extend((1..=5).map(|i| format!("Users/{i}$Users/4")));
    ids.push("users/4".into());
    ids
}

fn id_lines() -> String {
    ids().iter().map(|id| format!("{id}\n")).collect()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A document as RavenDB exports it.
fn document(id: &str, i: usize) -> String {
    let id = serde_json::to_string(id).unwrap();
    format!(
        r#"{{"Name":"doc {i}","Lines":[{{"Qty":{i}}}],"@metadata":{{"@collection":"Things","@id":{id},"@change-vector":"A:{i}"}}}}"#
    )
}

/// An uncompressed export as RavenDB writes it (as in the model's import tests): a database
/// record, the documents with an attachment stream among them (raw bytes inside the JSON),
/// then sections that hold raw bytes too.
fn export_json() -> Vec<u8> {
    let mut out = br#"{"BuildVersion":60025,"DatabaseRecord":{"DatabaseName":"Shop","Settings":{"x":"]}"}},"Docs":["#.to_vec();
    for (i, id) in ids().iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(document(id, i).as_bytes());
        if i == 3 {
            out.extend_from_slice(
                br#",{"@metadata":{"@export-type":"Attachment"},"Hash":"abc=","Size":6,"Tag":"t"}"#,
            );
            out.extend_from_slice(b"\x00\"]}\xff{");
        }
    }
    out.extend_from_slice(br#"],"TimeSeries":[{"@metadata":{}}"#);
    out.extend_from_slice(b"\x01\x02\xff raw ]]}}");
    out.extend_from_slice(br#"],"Identities":[]}"#);
    out
}

/// A fresh folder with these files, for one test.
fn files(test: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ravenshard-import-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, content) in files {
        std::fs::write(dir.join(name), content).unwrap();
    }
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "status {:?}: {}",
        out.status,
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn report_on_an_export_counts_as_on_its_ids() {
    let export = gzip(&export_json());
    let dir = files(
        "report",
        &[
            ("export.ravendbdump", &export),
            ("ids.txt", id_lines().as_bytes()),
            // No extension: only the content tells it is an export.
            ("download", &export),
        ],
    );
    let path = |name: &str| dir.join(name).display().to_string();
    let report = |file: &str, json: bool| {
        let mut args = vec!["report", "--shards", "3", file];
        if json {
            args.push("--json");
        }
        ok(ravenshard(&args, ""))
    };
    let from_ids = report(&path("ids.txt"), false);
    assert!(from_ids.contains("documents      70"), "{from_ids}");
    assert_eq!(report(&path("export.ravendbdump"), false), from_ids);
    assert_eq!(report(&path("download"), false), from_ids);
    let per_shard = |text: String| -> Vec<Value> {
        let r: Value = serde_json::from_str(&text).unwrap();
        r["shards"].as_array().unwrap().clone()
    };
    let shards = per_shard(report(&path("export.ravendbdump"), true));
    assert_eq!(shards, per_shard(report(&path("ids.txt"), true)));
    let total: u64 = shards
        .iter()
        .map(|s| s["documents"].as_u64().unwrap())
        .sum();
    assert_eq!(total, ids().len() as u64);
    // From stdin too.
    let out = ravenshard_bytes(&["report", "--shards", "3"], &export);
    assert_eq!(ok(out), from_ids);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bucket_reads_every_format_by_content() {
    let expected = ok(ravenshard(&["bucket", "--shards", "3"], &id_lines()));
    assert_eq!(expected.lines().count(), ids().len());
    let json_ids = serde_json::to_string(&ids()).unwrap();
    let documents: Vec<String> = ids()
        .iter()
        .enumerate()
        .map(|(i, id)| document(id, i))
        .collect();
    let csv: String = std::iter::once("Id,Size,Collection\n".to_string())
        .chain(ids().iter().map(|id| format!("\"{id}\",12,Things\n")))
        .collect();
    let inputs: [(&str, Vec<u8>); 7] = [
        ("export", gzip(&export_json())),
        ("uncompressed export", export_json()),
        ("JSON IDs", json_ids.clone().into_bytes()),
        (
            "JSON documents",
            format!("[\n{}\n]", documents.join(",\n")).into_bytes(),
        ),
        ("NDJSON", documents.join("\n").into_bytes()),
        ("CSV", csv.into_bytes()),
        ("gzip ID lines", gzip(id_lines().as_bytes())),
    ];
    for (what, input) in inputs {
        let out = ravenshard_bytes(&["bucket", "--shards", "3"], &input);
        assert_eq!(ok(out), expected, "{what}");
    }
    // --file reads the same as stdin.
    let dir = files("bucket", &[("ids.json", json_ids.as_bytes())]);
    let file = dir.join("ids.json").display().to_string();
    let out = ravenshard(&["bucket", "--shards", "3", "--file", &file], "");
    assert_eq!(ok(out), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn format_chooses_the_reader() {
    // A CSV row read as an ID line is one ID, commas and all.
    let out = ravenshard(&["bucket", "--format", "lines"], "a,1\n");
    assert!(ok(out).starts_with("a,1\t"));
    let out = ravenshard(&["bucket", "--format", "csv"], "a,1\n");
    assert!(ok(out).starts_with("a\t"));
    // ID lines read as JSON: the error names the input, the position and the way out.
    let out = ravenshard(&["bucket", "--format", "json"], "orders/1-A\n");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: stdin (read as JSON; --format chooses another): $: invalid JSON at line 1, column 1"),
        "{stderr}"
    );
    let out = ravenshard(&["bucket", "--format", "xml"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("ravendbdump"));
}

#[test]
fn damaged_exports_are_errors_that_name_the_file() {
    let export = gzip(&export_json());
    let mut corrupt = export.clone();
    let n = corrupt.len();
    corrupt[n - 6] ^= 0x40; // the CRC-32
    let dir = files(
        "damaged",
        &[
            ("cut.ravendbdump", &export[..export.len() / 2]),
            ("crc.ravendbdump", &corrupt),
        ],
    );
    for (name, says) in [
        ("cut.ravendbdump", "the file is incomplete"),
        ("crc.ravendbdump", "checksum"),
    ] {
        let path = dir.join(name).display().to_string();
        let out = ravenshard(&["report", "--shards", "3", &path], "");
        assert_eq!(out.status.code(), Some(2), "{name}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(&path), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(stderr.contains("export it again"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    // Damaged gzip ID lines say so too.
    let lines = gzip(id_lines().as_bytes());
    let out = ravenshard_bytes(&["bucket", "--format", "lines"], &lines[..lines.len() / 2]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("stdin: not a valid gzip file"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn skipped_documents_are_warnings_and_the_rest_is_counted() {
    let json = br#"[{"Id": "orders/1-A"}, {"Name": "no id"}, "", "customers/1-A"]"#;
    let out = ravenshard_bytes(&["report", "--shards", "3", "--json"], json);
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["documents"], 2);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning: stdin: $[1] (line 1): skipped: the document has no ID"),
        "{stderr}"
    );
    assert!(
        stderr.contains("$[2] (line 1): skipped: Document ID cannot be empty"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning").count(), 2, "said once: {stderr}");
    let out = ravenshard_bytes(&["bucket"], json);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout).lines().count(), 2);
}

#[test]
fn plan_and_balance_read_exports() {
    let config = r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#;
    let export = gzip(&export_json());
    // A document's size in an export is the length of its JSON.
    let sized: String = ids()
        .iter()
        .enumerate()
        .map(|(i, id)| format!("{id}\t{}\n", document(id, i).len()))
        .collect();
    let dir = files(
        "reshard",
        &[
            ("current.json", config.as_bytes()),
            ("export.ravendbdump", &export),
            ("ids.txt", sized.as_bytes()),
        ],
    );
    let path = |name: &str| dir.join(name).display().to_string();
    let balance = |file: &str, by: &str| -> Value {
        let out = ravenshard(
            &[
                "balance",
                "--config",
                &path("current.json"),
                "--by",
                by,
                file,
            ],
            "",
        );
        serde_json::from_str(&ok(out)).unwrap()
    };
    for by in ["docs", "bytes"] {
        let from_export = balance(&path("export.ravendbdump"), by);
        assert_eq!(from_export, balance(&path("ids.txt"), by), "--by {by}");
        assert!(from_export["bytes_moved"].as_u64().unwrap() > 0);
    }
    let out = ravenshard(
        &[
            "plan",
            "--config",
            &path("current.json"),
            "--target",
            &path("current.json"),
            &path("export.ravendbdump"),
        ],
        "",
    );
    let plan: Value = serde_json::from_str(&ok(out)).unwrap();
    assert_eq!(plan["moves"], serde_json::json!([]));
    std::fs::remove_dir_all(&dir).unwrap();
}
