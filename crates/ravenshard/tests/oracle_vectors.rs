//! The known answers of `vectors/ravendb-oracle.json`, found by the differential suite
//! against RavenDB's own server code (tests/ravendb): every row, under every server version
//! its group names.

use ravenshard::{ServerVersion, Topology};
use serde_json::Value;

const ORACLE: &str = include_str!("../../../vectors/ravendb-oracle.json");

/// One group of the file: why it is there, the versions it holds for, the configuration's
/// JSON (`None`: 3 default shards) and its `[id, bucket, shard]` rows.
type Group = (String, Vec<ServerVersion>, Option<String>, Vec<Value>);

fn groups() -> Vec<Group> {
    let doc: Value = serde_json::from_str(ORACLE).unwrap();
    doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let versions = g["versions"].as_array().unwrap();
            (
                g["why"].as_str().unwrap().to_string(),
                versions
                    .iter()
                    .map(|v| v.as_str().unwrap().parse().unwrap())
                    .collect(),
                g["config"].as_str().map(str::to_string),
                g["ids"].as_array().unwrap().clone(),
            )
        })
        .collect()
}

#[test]
fn every_oracle_vector_matches_under_each_version() {
    let groups = groups();
    assert!(groups.len() >= 8, "the file has its groups");
    for (why, versions, config, rows) in groups {
        for version in versions {
            let mut topology = match &config {
                Some(text) => Topology::from_json(text).unwrap(),
                None => Topology::with_shards(3).unwrap(),
            };
            topology.set_server_version(version);
            for row in &rows {
                let id = row[0].as_str().unwrap();
                let got = topology.locate(id);
                match row[1].as_u64() {
                    Some(bucket) => {
                        let l = got.unwrap_or_else(|e| panic!("{why}: {id:?}: {e}"));
                        assert_eq!(u64::from(l.bucket), bucket, "{why}: {id:?} bucket");
                        assert_eq!(Some(u64::from(l.shard)), row[2].as_u64(), "{why}: {id:?}");
                    }
                    None => {
                        let e = got.expect_err(id).to_string();
                        assert!(e.contains(row[3].as_str().unwrap()), "{why}: {id:?}: {e}");
                    }
                }
            }
        }
    }
}
