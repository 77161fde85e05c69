//! Arbitrary records, indexes and queries never panic: `check` answers or says why not.

use proptest::prelude::*;
use ravenshard::Topology;
use ravenshard_check::{check, Inputs};
use serde_json::{json, Value};

/// JSON values, nested, with the record's own keys among the object keys.
fn value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("Indexes".to_string()),
        Just("Maps".to_string()),
        Just("Name".to_string()),
        Just("DeploymentMode".to_string()),
        Just("PeriodicBackups".to_string()),
        Just("BackupType".to_string()),
        Just("RavenEtls".to_string()),
        Just("Transforms".to_string()),
        Just("Script".to_string()),
        Just("Sorters".to_string()),
        Just("Integrations".to_string()),
        Just("PostgreSql".to_string()),
        Just("MentorNode".to_string()),
        Just("Revisions".to_string()),
        Just("Settings".to_string()),
        Just("Topology".to_string()),
        Just("Members".to_string()),
        "[A-Za-z]{1,8}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        prop_oneof![
            Just("Rolling".to_string()),
            Just("Snapshot".to_string()),
            Just("from o in docs.Orders select new { X = LoadDocument<C>(o.C) }".to_string()),
            Just("load(this.X)".to_string()),
            "[ -~]{0,40}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_records_never_panic(mut record in value(), queries in "[ -~\n]{0,80}", text in "[ -~\n]{0,60}") {
        if let Value::Object(o) = &mut record {
            o.insert("DatabaseName".into(), json!("X"));
        }
        let record = record.to_string();
        let three = Topology::with_shards(3).unwrap();
        let export = format!("{{\"@metadata\": {{\"@id\": \"a/1\"}}, \"F\": \"a/1\"}}\n{text}");
        let inputs = Inputs {
            record: &record,
            indexes: Some(&text),
            queries: Some(&queries),
            loads: Some("A.F"),
            export: Some(export.as_bytes()),
            documents: None,
            sharding: Some(&three),
        };
        let _ = check(&inputs);
        let _ = check(&Inputs { indexes: None, ..inputs });
        let _ = check(&Inputs::record(&text));
    }

    #[test]
    fn arbitrary_maps_never_panic(map in "[ -~\n\u{e9}\u{4e2d}]{0,120}") {
        let record = json!({"DatabaseName": "X", "Indexes": {"I": {"Maps": [map]}}}).to_string();
        let _ = check(&Inputs::record(&record));
    }
}
