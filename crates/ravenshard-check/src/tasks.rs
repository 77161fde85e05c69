//! The ongoing tasks and features of the record: backups, ETLs, queue sinks, pull
//! replication, integrations, AI tasks, mentor nodes, revisions. The field names are those
//! of RavenDB 7.x's `DatabaseRecord` and task classes (`PeriodicBackupConfiguration`,
//! `EtlConfiguration<T>` with `Transforms[].Script`, `PullReplicationDefinition`,
//! `PullReplicationAsSink`, `IntegrationConfigurations.PostgreSql`).

use crate::data::Relation;
use crate::error::CheckError;
use crate::finding::{Finding, Location, Severity};
use crate::map_text;
use crate::record::{flag, list, strings, task_name, text};
use crate::rules::{self, Rule};
use serde_json::{Map, Value};

/// The ETL lists: sent again after resharding; their scripts may load.
const ETLS: [(&str, &str); 5] = [
    ("RavenEtls", "RavenDB ETL"),
    ("SqlEtls", "SQL ETL"),
    ("OlapEtls", "OLAP ETL"),
    ("ElasticSearchEtls", "Elasticsearch ETL"),
    ("QueueEtls", "Queue ETL"),
];

/// Every list of ongoing tasks, for `MentorNode`.
const TASK_LISTS: [&str; 9] = [
    "PeriodicBackups",
    "ExternalReplications",
    "SinkPullReplications",
    "HubPullReplications",
    "RavenEtls",
    "SqlEtls",
    "OlapEtls",
    "ElasticSearchEtls",
    "QueueEtls",
];

fn task_location(key: &str, i: usize, task: &Map<String, Value>) -> Location {
    Location {
        task: Some(task_name(task, &format!("{key}[{i}]"))),
        ..Location::at_path("record", format!("{key}[{i}]"))
    }
}

fn disabled(task: &Map<String, Value>) -> &'static str {
    match flag(task, "Disabled") {
        true => " (disabled now; it would fail once enabled)",
        false => "",
    }
}

/// One blocking finding per task of the list `key`.
fn each_blocks(
    record: &Map<String, Value>,
    key: &str,
    rule: &Rule,
    what: &str,
    findings: &mut Vec<Finding>,
) -> Result<(), CheckError> {
    for (i, task) in list(record, key, "record", "")? {
        findings.push(rule.finding(
            Severity::Blocks,
            task_location(key, i, task),
            format!("{what}{}", disabled(task)),
        ));
    }
    Ok(())
}

/// Applies the task and feature rules.
pub(crate) fn check(
    record: &Map<String, Value>,
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) -> Result<(), CheckError> {
    for (i, backup) in list(record, "PeriodicBackups", "record", "")? {
        if text(backup, "BackupType") == Some("Snapshot") {
            findings.push(rules::SNAPSHOT_BACKUP.finding(
                Severity::Blocks,
                task_location("PeriodicBackups", i, backup),
                format!(
                    "BackupType is Snapshot{}; its snapshots cannot be restored into a sharded database either",
                    disabled(backup)
                ),
            ));
        }
    }
    each_blocks(
        record,
        "QueueEtls",
        &rules::QUEUE_ETL,
        "a queue ETL task",
        findings,
    )?;
    each_blocks(
        record,
        "QueueSinks",
        &rules::QUEUE_SINK,
        "a queue sink task",
        findings,
    )?;
    for (i, hub) in list(record, "HubPullReplications", "record", "")? {
        let filtering = match flag(hub, "WithFiltering") {
            true => ", with filtering",
            false => "",
        };
        findings.push(rules::PULL_REPLICATION.finding(
            Severity::Blocks,
            task_location("HubPullReplications", i, hub),
            format!("a replication hub{filtering}{}", disabled(hub)),
        ));
    }
    each_blocks(
        record,
        "SinkPullReplications",
        &rules::PULL_REPLICATION,
        "a replication sink",
        findings,
    )?;
    postgresql(record, findings);
    ai(record, findings);
    etls(record, findings, relations)?;
    mentors(record, findings)?;
    revisions(record, findings);
    findings.push(rules::CLIENT_FEATURES.finding(
        Severity::Note,
        Location::new("record"),
        "not in a database record, so not checked here; a sharded database refuses: moving or \
         copying attachments and getting several at once, copying time series, JSON patch, \
         concurrent subscriptions, subscriptions from a change vector (other than \
         LastDocument, BeginningOfTime, DoNotChange), imports from CSV, SQL, S3 or other \
         databases, migration from RavenDB or SQL, replication from RavenDB 3.x",
    ));
    Ok(())
}

fn postgresql(record: &Map<String, Value>, findings: &mut Vec<Finding>) {
    let section = record.get("Integrations").and_then(|i| i.get("PostgreSql"));
    if let Some(Value::Object(postgres)) = section {
        findings.push(rules::POSTGRESQL.finding(
            Severity::Blocks,
            Location::at_path("record", "Integrations.PostgreSql"),
            match postgres.get("Authentication") {
                Some(Value::Object(_)) => "the PostgreSQL integration is configured, with users",
                _ => "the PostgreSQL integration is configured",
            },
        ));
    }
}

/// AI tasks: RavenDB 7.1's record keys for them start with `Ai`, `GenAi` or
/// `EmbeddingsGeneration`; a non-empty list or dictionary under one is a task (connection
/// strings are not).
fn ai(record: &Map<String, Value>, findings: &mut Vec<Finding>) {
    for (key, value) in record {
        let ai = key.starts_with("Ai")
            || key.starts_with("GenAi")
            || key.starts_with("EmbeddingsGeneration");
        let tasks = match value {
            Value::Array(items) => items.len(),
            Value::Object(items) => items.len(),
            _ => 0,
        };
        if ai && tasks > 0 && !key.contains("ConnectionString") {
            findings.push(rules::AI_TASK.finding(
                Severity::Blocks,
                Location::at_path("record", key.clone()),
                format!("{tasks} AI task(s) under {key}"),
            ));
        }
    }
}

fn etls(
    record: &Map<String, Value>,
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) -> Result<(), CheckError> {
    for (key, kind) in ETLS {
        for (i, etl) in list(record, key, "record", "")? {
            let location = task_location(key, i, etl);
            findings.push(rules::ETL_RESEND.finding(
                Severity::Changes,
                location.clone(),
                format!("a {kind}: resharding may send a document to the destination again"),
            ));
            for (t, transform) in list(etl, "Transforms", "record", &format!("{key}[{i}]"))? {
                let Some(script) = text(transform, "Script") else {
                    continue;
                };
                let mut at = location.clone();
                at.path = Some(format!("{key}[{i}].Transforms[{t}].Script"));
                let path = format!("{key}[{i}].Transforms[{t}]");
                let collections = strings(transform, "Collections", "record", &path)?;
                let script = Script {
                    text: script,
                    collections: &collections,
                };
                etl_script(&script, at, findings, relations);
            }
        }
    }
    Ok(())
}

/// An ETL transform's script and the collections it transforms.
struct Script<'a> {
    text: &'a str,
    collections: &'a [&'a str],
}

/// The loads of a transform script; a load of `this.Field` is a relation of each of the
/// transform's collections, for the data checks.
fn etl_script(
    script: &Script<'_>,
    location: Location,
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) {
    match map_text::read(script.text) {
        Ok(mut read) => {
            read.alias = Some("this".into());
            for call in read.loads.iter().filter(|c| c.name == "load") {
                findings.push(rules::ETL_LOAD.finding(
                    Severity::Blocks,
                    map_text::place(&location, script.text, call.offset),
                    format!(
                        "{} in the transform script: it fails for a document on another shard",
                        call.written
                    ),
                ));
                let Some(field) = read.field_of(call) else {
                    continue;
                };
                for collection in script.collections {
                    relations.push(Relation {
                        collection: collection.to_string(),
                        field: field.clone(),
                        finding: findings.len() - 1,
                    });
                }
            }
        }
        Err(e) => {
            findings.push(rules::ETL_LOAD.finding(
                Severity::NotChecked,
                map_text::place(&location, script.text, e.offset),
                format!(
                    "the script could not be read ({}): its loads are not checked",
                    e.message
                ),
            ));
        }
    }
}

fn mentors(record: &Map<String, Value>, findings: &mut Vec<Finding>) -> Result<(), CheckError> {
    for key in TASK_LISTS {
        for (i, task) in list(record, key, "record", "")? {
            if let Some(node) = text(task, "MentorNode") {
                findings.push(rules::MENTOR_NODE.finding(
                    Severity::Blocks,
                    task_location(key, i, task),
                    format!("MentorNode is {node}"),
                ));
            }
        }
    }
    Ok(())
}

fn revisions(record: &Map<String, Value>, findings: &mut Vec<Finding>) {
    let Some(Value::Object(revisions)) = record.get("Revisions") else {
        return;
    };
    let enabled = |config: Option<&Value>| {
        config.is_some_and(|c| {
            c.get("Disabled").and_then(Value::as_bool) != Some(true) && c.is_object()
        })
    };
    let collections = match revisions.get("Collections") {
        Some(Value::Object(c)) => c.values().filter(|v| enabled(Some(v))).count(),
        _ => 0,
    };
    if enabled(revisions.get("Default")) || collections > 0 {
        findings.push(rules::REVISIONS_SUBSCRIPTIONS.finding(
            Severity::Note,
            Location::at_path("record", "Revisions"),
            "revisions are kept; a data subscription on revisions is refused once sharded \
             (subscriptions are not in the record: check them with GET /databases/<db>/subscriptions)",
        ));
    }
}
