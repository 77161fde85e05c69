//! `ravenshard bucket --server-version` on the known answers that the differential suite
//! found against RavenDB's own server code (`vectors/ravendb-oracle.json`): each group's IDs
//! as a JSON array (blank IDs and tabs included), under each version the group names.

mod common;

use common::{ravenshard, write};
use serde_json::Value;

const ORACLE: &str = include_str!("../../../vectors/ravendb-oracle.json");

#[test]
fn bucket_answers_every_oracle_vector_under_each_version() {
    let doc: Value = serde_json::from_str(ORACLE).unwrap();
    for (g, group) in doc["groups"].as_array().unwrap().iter().enumerate() {
        let rows = group["ids"].as_array().unwrap();
        let ids: Vec<&str> = rows.iter().map(|r| r[0].as_str().unwrap()).collect();
        let file = write(
            "oracle",
            &format!("ids-{g}.json"),
            &serde_json::to_string(&ids).unwrap(),
        );
        let config = group["config"]
            .as_str()
            .map(|text| write("oracle", &format!("config-{g}.json"), text));
        for version in group["versions"].as_array().unwrap() {
            let mut args = vec!["bucket", "--format", "json", "--file", &file];
            args.extend(["--server-version", version.as_str().unwrap()]);
            match &config {
                Some(path) => args.extend(["--config", path.as_str()]),
                None => args.extend(["--shards", "3"]),
            }
            let out = ravenshard(&args, "");
            let stdout = String::from_utf8(out.stdout).unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            let mut answers = stdout.as_str();
            for row in rows {
                let id = row[0].as_str().unwrap();
                match row[1].as_u64() {
                    Some(bucket) => {
                        let line = format!("{id}\t{bucket}\t{}\n", row[2]);
                        assert!(answers.starts_with(&line), "{id:?}: {answers:?} {stderr}");
                        answers = &answers[line.len()..];
                    }
                    None => assert!(
                        stderr.contains(row[3].as_str().unwrap()),
                        "{id:?}: {stderr}"
                    ),
                }
            }
            assert_eq!(answers, "", "group {g}: every ID answered once");
        }
    }
}

#[test]
fn server_version_refuses_an_unknown_version() {
    let out = ravenshard(&["bucket", "--server-version", "6.0", "orders/1-A"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("give 6.2 (6.2.x) or 7 (7.x)"), "{stderr}");
}

#[test]
fn server_version_6_2_hashes_control_characters_of_non_ascii_ids_unescaped() {
    let seven = ravenshard(&["bucket", "--server-version", "7", "é\u{1}"], "");
    let six = ravenshard(&["bucket", "--server-version", "6.2", "é\u{1}"], "");
    let default = ravenshard(&["bucket", "é\u{1}"], "");
    assert_eq!(seven.stdout, default.stdout);
    assert_ne!(seven.stdout, six.stdout);
}
