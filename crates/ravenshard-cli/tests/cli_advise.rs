//! `ravenshard advise`: the advisor's JSON on stdout, from a RavenDB export.

mod common;

use common::{ravenshard, ravenshard_bytes};
use flate2::write::GzEncoder;
use flate2::Compression;
use ravenshard::Topology;
use ravenshard_advise::{advise, Workload};
use serde_json::Value;
use std::io::Write;

/// A `.ravendbdump`: 300 companies, 3000 orders naming them in `Company`.
fn export() -> Vec<u8> {
    let mut docs = Vec::new();
    for c in 1..=300 {
        docs.push(format!(
            r#"{{"Name": "c{c}", "@metadata": {{"@id": "companies/{c}-A", "@collection": "Companies"}}}}"#
        ));
    }
    for o in 1..=3000 {
        docs.push(format!(
            r#"{{"Company": "companies/{}-A", "@metadata": {{"@id": "orders/{o}-A", "@collection": "Orders"}}}}"#,
            o % 300 + 1
        ));
    }
    let json = format!(
        r#"{{"BuildVersion": 62000, "Docs": [{}]}}"#,
        docs.join(",\n")
    );
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(json.as_bytes()).unwrap();
    gz.finish().unwrap()
}

fn folder(files: &[(&str, &[u8])]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ravenshard-advise-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, content) in files {
        std::fs::write(dir.join(name), content).unwrap();
    }
    dir
}

#[test]
fn advise_prints_the_libraries_answer_for_an_export() {
    let export = export();
    let queries =
        "from Orders where id() = 'orders/7-A'\nfrom Orders where Company = 'companies/1-A'\n";
    let dir = folder(&[
        ("export.ravendbdump", &export),
        ("queries.rql", queries.as_bytes()),
        ("loads.txt", b"Orders.Company\n"),
    ]);
    let path = |name: &str| dir.join(name).display().to_string();
    let (e, q, l) = (
        path("export.ravendbdump"),
        path("queries.rql"),
        path("loads.txt"),
    );
    let out = ravenshard(
        &[
            "advise",
            "--shards",
            "3",
            "--queries",
            &q,
            "--loads",
            &l,
            &e,
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let workload = Workload::parse(queries, "Orders.Company").unwrap();
    let topology = Topology::with_shards(3).unwrap();
    let expected = advise(&export, None, &topology, &workload).unwrap();
    let expected: Value =
        serde_json::from_str(&serde_json::to_string_pretty(&expected).unwrap()).unwrap();
    assert_eq!(printed, expected);
    assert_eq!(printed["shards"], 3);
    assert_eq!(printed["documents"], 3300);
    let orders = &printed["collections"][1];
    assert_eq!(orders["collection"], "Orders");
    assert_eq!(orders["references"][0]["field"], "Company");
    // The draft's content rule routes the query on Company to one shard; the anchor cannot.
    assert_eq!(orders["recommended"]["strategy"], "content");
    let reason = orders["recommended"]["reason"].as_str().unwrap();
    assert!(
        reason.contains("100.0% of the queries on one shard"),
        "{reason}"
    );
    assert!(
        reason.ends_with("(the draft chapter's design, not shipped RavenDB)."),
        "{reason}"
    );
    assert_eq!(orders["candidates"][0]["strategy"], "none");
    assert_eq!(orders["candidates"][0]["single_shard_queries"], 0.5);
    assert_eq!(orders["candidates"][1]["strategy"], "anchor");
    assert_eq!(orders["candidates"][1]["single_shard_queries"], 0.5);

    // The same export on stdin, without a workload: the shipped anchor.
    let piped = ravenshard_bytes(&["advise", "--shards", "3"], &export);
    assert!(piped.status.success());
    let piped: Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(piped["collections"][1]["recommended"]["strategy"], "anchor");
}

#[test]
fn advise_names_what_is_wrong() {
    let out = ravenshard(&["advise"], "");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("advise needs --shards N or --config FILE.")
    );

    let dir = folder(&[("bad.rql", b"from Orders\nfrom where\n")]);
    let q = dir.join("bad.rql").display().to_string();
    let out = ravenshard(&["advise", "--shards", "3", "--queries", &q], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("queries, line 2: "));

    let out = ravenshard(&["advise", "--shards", "3"], "{\"Id\": \"a\"}\n{\"Id\": ");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("stdin (read as"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
