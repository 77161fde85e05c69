//! Known answers for every rule, from records and indexes in RavenDB's own JSON shapes.
//!
//! The shapes: `DatabaseRecord` (`src/Raven.Client/ServerWide/DatabaseRecord.cs`), its
//! `Indexes` values `IndexDefinition` (`src/Raven.Client/Documents/Indexes/IndexDefinition.cs`),
//! `PeriodicBackupConfiguration` (`src/Raven.Client/Documents/Operations/Backups/`), the ETL
//! classes' `Transforms[].Script` (`src/Raven.Client/Documents/Operations/ETL/EtlConfiguration.cs`,
//! `Transformation.cs`), `PullReplicationDefinition` and `PullReplicationAsSink`
//! (`src/Raven.Client/Documents/Operations/Replication/`), `QueueEtlConfiguration` and
//! `QueueSinkConfiguration`, `IntegrationConfigurations.PostgreSql`
//! (`src/Raven.Client/ServerWide/Operations/Integrations/`), all in `ravendb/ravendb`.

use ravenshard::Topology;
use ravenshard_check::{check, rules, CheckError, Finding, Inputs, Report, Severity};

const CLEAN: &str = include_str!("../fixtures/clean-record.json");
const EVERY: &str = include_str!("../fixtures/every-finding-record.json");
const INDEXES: &str = include_str!("../fixtures/indexes.json");
const QUERIES: &str = include_str!("../fixtures/queries.rql");
const LOADS: &str = include_str!("../fixtures/loads.txt");
const EXPORT: &str = include_str!("../fixtures/export.ndjson");
const SHARDING: &str = include_str!("../fixtures/sharding.json");
const SHARDED: &str = include_str!("../fixtures/sharded-record.json");

fn run(inputs: &Inputs<'_>) -> Report {
    check(inputs).unwrap_or_else(|e| panic!("{e}"))
}

/// The findings of `rule`, as (severity, location text, detail).
fn of(report: &Report, rule: &str) -> Vec<(Severity, String, String)> {
    report
        .of_rule(rule)
        .map(|f: &Finding| (f.severity, f.location.to_string(), f.detail.clone()))
        .collect()
}

/// A record with one section (RavenDB writes every section; a record may omit them).
fn record(section: &str) -> String {
    format!(r#"{{"DatabaseName": "Shop", {section}}}"#)
}

fn full() -> Report {
    let sharding = Topology::from_json(SHARDING).unwrap();
    run(&Inputs {
        record: EVERY,
        indexes: Some(INDEXES),
        queries: Some(QUERIES),
        loads: Some(LOADS),
        export: Some(EXPORT.as_bytes()),
        documents: None,
        sharding: Some(&sharding),
    })
}

/// The sharded fixture (4 shards, the prefix `us/`) against the intended sharding (3 shards,
/// the prefix `eu/`), with the export.
fn sharded_against_intended() -> Report {
    let sharding = Topology::from_json(SHARDING).unwrap();
    run(&Inputs {
        export: Some(EXPORT.as_bytes()),
        sharding: Some(&sharding),
        ..Inputs::record(SHARDED)
    })
}

#[test]
fn a_sharded_record_against_the_intended_layout() {
    let report = sharded_against_intended();
    assert!(report.sharded);
    assert_eq!(
        of(&report, "sharding.remove-shard-with-buckets"),
        [(
            Severity::Blocks,
            "sharding: at Shards".into(),
            "the intended sharding drops shard 3, which holds 262144 buckets in the record".into()
        )]
    );
    let prefixes: Vec<String> = of(&report, "sharding.prefix-change-with-documents")
        .into_iter()
        .map(|f| f.2)
        .collect();
    assert_eq!(
        prefixes,
        [
            "the intended sharding adds the prefix 'eu/', and 3 documents of the export start with it",
            "the intended sharding removes the prefix 'us/', and 2 documents of the export start with it"
        ]
    );
    // The database exists: its prefixes are not set at creation any more.
    assert_eq!(report.of_rule("data.prefix-at-creation").count(), 0);
    // Without an export, a prefix change is a change to look at, not a known refusal.
    let sharding = Topology::from_json(SHARDING).unwrap();
    let report = run(&Inputs {
        sharding: Some(&sharding),
        ..Inputs::record(SHARDED)
    });
    let severities: Vec<Severity> = report
        .of_rule("sharding.prefix-change-with-documents")
        .map(|f| f.severity)
        .collect();
    assert_eq!(severities, [Severity::Changes, Severity::Changes]);
}

#[test]
fn the_clean_record_blocks_nothing() {
    let report = run(&Inputs::record(CLEAN));
    assert_eq!(report.database.as_deref(), Some("Shop"));
    assert!(!report.sharded);
    assert!(!report.blocks());
    let rules: Vec<&str> = report.findings.iter().map(|f| &*f.rule).collect();
    assert_eq!(rules, ["features.client-side"]);
}

#[test]
fn every_blocking_feature_at_once() {
    let report = full();
    let mut blocking: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Blocks)
        .map(|f| &*f.rule)
        .collect();
    blocking.sort_unstable();
    blocking.dedup();
    let mut expected = vec![
        "index.rolling-deployment",
        "index.load-document",
        "index.output-reduce-to-collection",
        "index.custom-sorter",
        "query.load",
        "query.load-in-map-reduce-projection",
        "query.stream-include-load",
        "query.stream-map-reduce",
        "query.limit-in-patch-or-delete",
        "query.order-by-score",
        "query.order-by-distance-map-reduce",
        "query.custom-sort",
        "query.more-like-this",
        "query.highlight",
        "query.intersect",
        "task.snapshot-backup",
        "task.queue-etl",
        "task.queue-sink",
        "task.hub-sink-replication",
        "task.postgresql",
        "task.ai",
        "task.mentor-node",
        "task.etl-load",
        "data.cross-shard-loads",
        "data.control-character-id",
    ];
    expected.sort_unstable();
    assert_eq!(blocking, expected);
    // Most severe first.
    let severities: Vec<Severity> = report.findings.iter().map(|f| f.severity).collect();
    assert!(severities.windows(2).all(|w| w[0] <= w[1]));
    // Every kind of finding shows on the fixtures, and every rule is one of `rules::ALL`.
    for finding in &report.findings {
        assert!(
            rules::ALL.iter().any(|r| r.name == finding.rule),
            "{}",
            finding.rule
        );
    }
    let sharded = sharded_against_intended();
    let unseen: Vec<&str> = rules::ALL
        .iter()
        .map(|r| r.name)
        .filter(|name| {
            report.of_rule(name).next().is_none() && sharded.of_rule(name).next().is_none()
        })
        .collect();
    assert_eq!(unseen, Vec::<&str>::new());
}

#[test]
fn rolling_deployment_by_definition_and_by_setting() {
    let report = run(&Inputs::record(&record(
        r#""Settings": {"Indexing.Static.DeploymentMode": "Rolling"},
           "Indexes": {"A": {"Name": "A", "Maps": ["from o in docs.Orders select new { o.X }"], "DeploymentMode": null},
                       "B": {"Name": "B", "Maps": ["from o in docs.Orders select new { o.X }"], "DeploymentMode": "Rolling"}}"#,
    )));
    assert_eq!(
        of(&report, "index.rolling-deployment"),
        [
            (
                Severity::Blocks,
                "record: at Settings.Indexing.Static.DeploymentMode".into(),
                "the database deploys every static index without its own DeploymentMode rolling"
                    .into()
            ),
            (
                Severity::Blocks,
                "record: index B, at Indexes.B.DeploymentMode".into(),
                "DeploymentMode is Rolling".into()
            ),
        ]
    );
}

#[test]
fn loads_in_maps_with_line_and_column() {
    let report = run(&Inputs::record(EVERY));
    let loads = of(&report, "index.load-document");
    assert_eq!(loads.len(), 2);
    assert_eq!(
        loads[0].1,
        "record: index Orders/WithCompany, map 1, line 2, column 9, collection Orders, field Company, at Indexes.Orders/WithCompany.Maps[0]"
    );
    let not_checked = of(&report, "index.not-checked");
    assert_eq!(not_checked.len(), 1);
    assert_eq!(not_checked[0].0, Severity::NotChecked);
    assert!(
        not_checked[0]
            .2
            .contains("'\"companies/\"+e.CompanyNumber'"),
        "{}",
        not_checked[0].2
    );
}

#[test]
fn index_definitions_on_their_own() {
    let report = run(&Inputs {
        indexes: Some(INDEXES),
        ..Inputs::record(CLEAN)
    });
    assert_eq!(
        of(&report, "index.load-document")[0].1,
        "indexes: index Orders/ByEmployee/JS, map 1, line 2, column 13, collection Orders, field Employee, at Results[0].Maps[0]"
    );
    // A definition given on its own replaces the record's of the same name.
    let newer = r#"{"Results": [{"Name": "orders/withcompany", "Maps": ["from o in docs.Orders select new { o.X }"]}]}"#;
    let report = run(&Inputs {
        indexes: Some(newer),
        ..Inputs::record(EVERY)
    });
    assert_eq!(report.of_rule("index.load-document").count(), 1);
    assert_eq!(of(&report, "index.rolling-deployment").len(), 1);
    // An array of definitions, and one definition alone, read too.
    let one = r#"{"Name": "X", "Maps": ["from o in docs.Orders select new { C = LoadDocument(o.C, \"Cs\").N }"]}"#;
    for text in [one.to_string(), format!("[{one}]")] {
        let report = run(&Inputs {
            indexes: Some(&text),
            ..Inputs::record(CLEAN)
        });
        assert_eq!(of(&report, "index.load-document").len(), 1, "{text}");
    }
}

#[test]
fn output_to_collection_sorters_and_multi_map() {
    let report = run(&Inputs::record(EVERY));
    assert_eq!(
        of(&report, "index.output-reduce-to-collection"),
        [(
            Severity::Blocks,
            "record: index Orders/ByMonth, at Indexes.Orders/ByMonth.OutputReduceToCollection"
                .into(),
            "the reduce results are written to the collection MonthlyOrders".into()
        )]
    );
    assert_eq!(
        of(&report, "index.custom-sorter")[0].1,
        "record: at Sorters.ByVendorRank"
    );
    assert_eq!(of(&report, "index.multi-map")[0].0, Severity::Note);
}

#[test]
fn tasks() {
    let report = run(&Inputs::record(EVERY));
    let locations =
        |rule: &str| -> Vec<String> { of(&report, rule).into_iter().map(|f| f.1).collect() };
    assert_eq!(
        locations("task.snapshot-backup"),
        ["record: task snapshots, at PeriodicBackups[0]"]
    );
    assert_eq!(
        locations("task.queue-etl"),
        ["record: task to-kafka, at QueueEtls[0]"]
    );
    assert_eq!(
        locations("task.queue-sink"),
        ["record: task from-rabbit, at QueueSinks[0]"]
    );
    assert_eq!(
        locations("task.hub-sink-replication"),
        [
            "record: task stores, at HubPullReplications[0]",
            "record: task from-hq, at SinkPullReplications[0]"
        ]
    );
    assert_eq!(
        of(&report, "task.hub-sink-replication")[0].2,
        "a replication hub, with filtering"
    );
    assert_eq!(
        locations("task.postgresql"),
        ["record: at Integrations.PostgreSql"]
    );
    assert_eq!(locations("task.ai"), ["record: at GenAis"]);
    assert_eq!(
        locations("task.mentor-node"),
        ["record: task snapshots, at PeriodicBackups[0]"]
    );
    assert_eq!(
        locations("task.etl-load"),
        ["record: task to-warehouse, line 1, column 15, at RavenEtls[0].Transforms[0].Script"]
    );
    assert_eq!(
        locations("task.etl-resharding"),
        [
            "record: task to-warehouse, at RavenEtls[0]",
            "record: task to-sql, at SqlEtls[0]",
            "record: task to-kafka, at QueueEtls[0]"
        ]
    );
    assert_eq!(
        locations("task.revisions-subscriptions"),
        ["record: at Revisions"]
    );
    assert_eq!(
        locations("licence.replication-factor"),
        ["record: at Topology.Members"]
    );
}

#[test]
fn a_logical_backup_and_a_disabled_snapshot() {
    let report = run(&Inputs::record(&record(
        r#""PeriodicBackups": [{"Name": "a", "BackupType": "Backup"}, {"TaskId": 7, "BackupType": "Snapshot", "Disabled": true}, null]"#,
    )));
    assert_eq!(
        of(&report, "task.snapshot-backup"),
        [(
            Severity::Blocks,
            "record: task task 7, at PeriodicBackups[1]".into(),
            "BackupType is Snapshot (disabled now; it would fail once enabled); its snapshots cannot be restored into a sharded database either".into()
        )]
    );
}

#[test]
fn queries_by_number_and_column() {
    let sharding = Topology::from_json(SHARDING).unwrap();
    let report = run(&Inputs {
        queries: Some(QUERIES),
        sharding: Some(&sharding),
        ..Inputs::record(EVERY)
    });
    let at = |rule: &str| -> Vec<(Option<usize>, Option<usize>, Option<usize>)> {
        report
            .of_rule(rule)
            .map(|f| (f.location.query, f.location.line, f.location.column))
            .collect()
    };
    assert_eq!(
        at("query.load"),
        [(Some(1), Some(2), Some(18)), (Some(6), Some(7), Some(34))]
    );
    assert_eq!(
        at("query.load-in-map-reduce-projection"),
        [(Some(6), Some(7), Some(34))]
    );
    assert_eq!(
        at("query.stream-include-load"),
        [(Some(4), Some(5), Some(43))]
    );
    assert_eq!(at("query.stream-map-reduce"), [(Some(5), Some(6), Some(9))]);
    assert_eq!(
        at("query.limit-in-patch-or-delete"),
        [(Some(7), Some(8), Some(45)), (Some(8), Some(9), Some(37))]
    );
    assert_eq!(at("query.order-by-score"), [(Some(9), Some(10), Some(52))]);
    assert_eq!(at("query.custom-sort"), [(Some(10), Some(11), Some(25))]);
    assert_eq!(
        at("query.order-by-distance-map-reduce"),
        [(Some(11), Some(12), Some(38))]
    );
    assert_eq!(at("query.more-like-this"), [(Some(12), Some(13), Some(22))]);
    assert_eq!(at("query.highlight"), [(Some(13), Some(14), Some(51))]);
    assert_eq!(at("query.intersect"), [(Some(14), Some(15), Some(22))]);
    assert_eq!(at("query.not-checked"), [(Some(15), Some(16), Some(1))]);
    // Query 2 (by id()) reaches one shard; the others all three.
    let all: Vec<usize> = report
        .of_rule("query.all-shards")
        .filter_map(|f| f.location.query)
        .collect();
    assert_eq!(all, [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    assert_eq!(
        of(&report, "query.deep-paging")[0].2,
        "offset 5000, limit 10: each of the 3 shards returns 5010 rows, 15030 in all, for one page of 10"
    );
}

#[test]
fn no_layout_no_routing_but_a_not_checked() {
    let report = run(&Inputs {
        queries: Some("from Orders"),
        ..Inputs::record(CLEAN)
    });
    assert_eq!(report.of_rule("query.all-shards").count(), 0);
    assert_eq!(
        of(&report, "data.cross-shard-loads")[0].0,
        Severity::NotChecked
    );
}

#[test]
fn data_checks_are_exact_for_the_layout() {
    let report = full();
    let sharding = Topology::from_json(SHARDING).unwrap();
    // The share, counted here by the core's placement.
    let mut away = 0;
    for o in 1..=100 {
        let order = sharding.locate(&format!("orders/{o}-A")).unwrap().shard;
        let company = sharding
            .locate(&format!("companies/{}-A", o % 20 + 1))
            .unwrap()
            .shard;
        away += u32::from(order != company);
    }
    let company = report
        .of_rule("data.cross-shard-loads")
        .find(|f| f.location.field.as_deref() == Some("Company"))
        .unwrap();
    assert_eq!(company.severity, Severity::Blocks);
    assert_eq!(company.share, Some(f64::from(away) / 100.0));
    assert!(
        company.detail.starts_with(&format!("{away} of 100 loads")),
        "{}",
        company.detail
    );
    assert!(
        company.detail.contains("keeps 100.0% of them whole"),
        "{}",
        company.detail
    );
    // The ETL script's load of this.Company (Transforms[].Collections: Orders) carries it too.
    let etl = report.of_rule("task.etl-load").next().unwrap();
    assert_eq!(etl.share, company.share);
    // The index's and the query's loads of Orders.Company carry the share too.
    let index = report
        .of_rule("index.load-document")
        .find(|f| f.location.field.as_deref() == Some("Company"))
        .unwrap();
    assert_eq!(index.share, company.share);
    assert_eq!(
        of(&report, "data.control-character-id")[0].0,
        Severity::Blocks
    );
    assert!(of(&report, "data.empty-anchor-id")[0]
        .2
        .starts_with("2 IDs end in '$'"));
    let obese = of(&report, "data.obese-bucket");
    assert!(
        obese
            .iter()
            .any(|f| f.2.contains("12 of them anchored to 'carts/1-a'")),
        "{obese:?}"
    );
    assert_eq!(
        of(&report, "data.prefix-at-creation")[0].2,
        "prefix 'eu/' on shards [0], buckets from 1048576 (position 1 of 1 at creation): 3 documents of the export have it"
    );
    assert_eq!(
        of(&report, "licence.shards-on-one-node")[0].0,
        Severity::Note
    );
}

#[test]
fn anchored_loads_stay_local_and_say_so() {
    let mut export =
        String::from(r#"{"@metadata": {"@id": "companies/1-A", "@collection": "Companies"}}"#);
    for o in 1..=20 {
        export += &format!(
            "\n{{\"Company\": \"companies/1-A\", \"@metadata\": {{\"@id\": \"orders/{o}-A$companies/1-A\", \"@collection\": \"Orders\"}}}}"
        );
    }
    let record = record(
        r#""Indexes": {"I": {"Maps": ["from o in docs.Orders select new { N = LoadDocument<Company>(o.Company).Name }"]}}"#,
    );
    let three = Topology::with_shards(3).unwrap();
    let report = run(&Inputs {
        export: Some(export.as_bytes()),
        sharding: Some(&three),
        ..Inputs::record(&record)
    });
    let data = of(&report, "data.cross-shard-loads");
    assert_eq!(
        data,
        [(
            Severity::Note,
            "export: collection Orders, field Company".into(),
            "all 20 loads of Orders.Company stay on the loading document's shard (3 shards)".into()
        )]
    );
    assert_eq!(of(&report, "index.load-document")[0].0, Severity::Note);
    assert!(!report.blocks());
}

#[test]
fn a_sharded_record_uses_its_own_layout() {
    let record = r#"{"DatabaseName": "Shop", "Sharding": {"Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["A"]}}}}"#;
    let report = run(&Inputs {
        queries: Some("from Orders"),
        ..Inputs::record(record)
    });
    assert!(report.sharded);
    assert_eq!(report.shards, Some(2));
    assert_eq!(of(&report, "query.all-shards").len(), 1);
    assert_eq!(report.of_rule("licence.shards-on-one-node").count(), 0);
}

#[test]
fn bad_input_names_input_path_and_position() {
    let message = |inputs: Inputs<'_>| check(&inputs).unwrap_err().to_string();
    assert!(message(Inputs::record("{\"DatabaseName\": "))
        .starts_with("record: line 1, column 17: EOF while parsing a value."));
    assert!(message(Inputs::record("{\"Shards\": {}}"))
        .starts_with("record: an object with none of DatabaseName"));
    assert!(message(Inputs::record(&record(r#""Indexes": 5"#)))
        .starts_with("record: Indexes is a number, where RavenDB writes an object."));
    assert!(
        message(Inputs::record(&record(r#""PeriodicBackups": [1]"#)))
            .starts_with("record: PeriodicBackups[0] is a number")
    );
    let map =
        record(r#""Indexes": {"A": {"Maps": ["from o in docs.Orders\nselect new { X = (o.X }"]}}"#);
    assert_eq!(
        check(&Inputs::record(&map)).unwrap_err(),
        CheckError::Map {
            input: "record",
            path: "Indexes.A.Maps[0]".into(),
            line: 2,
            column: 23,
            message: "'}' closes the '(' opened at line 2, column 18".into()
        }
    );
    assert!(message(Inputs {
        loads: Some("Orders.Company\nOrders"),
        ..Inputs::record(CLEAN)
    })
    .starts_with("loads, line 2: 'Orders' is not Collection.Field."));
    let three = Topology::with_shards(3).unwrap();
    assert!(message(Inputs {
        export: Some(b"[1, "),
        sharding: Some(&three),
        ..Inputs::record(CLEAN)
    })
    .starts_with("export: "));
}

#[test]
fn unknown_fields_and_nulls_are_fine() {
    let report = run(&Inputs::record(&record(
        r#""Indexes": {"A": null, "B": {"Maps": null, "Name": null}}, "PeriodicBackups": null,
           "RavenEtls": [{"Name": "e", "Transforms": null}], "Future": {"Section": [1, 2]}, "Revisions": {"Default": null}"#,
    )));
    assert!(!report.blocks());
    assert_eq!(of(&report, "task.etl-resharding").len(), 1);
}

#[test]
fn documents_already_read_get_the_export_s_data_checks() {
    // The studio's documents: the export's, read once by the same reader the CLI uses.
    let documents = ravenshard_import::import(EXPORT.as_bytes(), ravenshard_import::Format::Ndjson)
        .unwrap()
        .documents;
    let sharding = Topology::from_json(SHARDING).unwrap();
    let given = run(&Inputs {
        documents: Some(&documents),
        sharding: Some(&sharding),
        ..Inputs::record(CLEAN)
    });
    let exported = run(&Inputs {
        export: Some(EXPORT.as_bytes()),
        sharding: Some(&sharding),
        ..Inputs::record(CLEAN)
    });
    fn data<'r>(r: &'r Report, input: &str) -> Vec<(&'r str, Severity, Option<f64>)> {
        r.findings
            .iter()
            .filter(|f| f.location.input == input)
            .map(|f| (&*f.rule, f.severity, f.share))
            .collect()
    }
    assert!(!data(&exported, "export").is_empty());
    assert_eq!(data(&given, "documents"), data(&exported, "export"));
    assert!(data(&given, "export").is_empty());
    // Without a layout, documents are not checked, and the report says so.
    let none = run(&Inputs {
        documents: Some(&documents),
        ..Inputs::record(CLEAN)
    });
    assert_eq!(none.count(Severity::NotChecked), 1);
}

#[test]
fn a_report_reads_back_from_its_json() {
    // The studio's worker sends the report to the page; the JS API and `--json` write it.
    let report = full();
    let json = serde_json::to_string(&report).unwrap();
    let read: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(read, report);
}
