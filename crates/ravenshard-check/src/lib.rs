//! # ravenshard-check
//!
//! Before a RavenDB database is sharded: what breaks, what gets slower and what to change.
//! [`check`] reads the database record as `GET /admin/databases?name=<db>` returns it
//! (sharded or not; unknown keys ignored, `null` and missing sections fine), optionally the
//! index definitions on their own, a workload of RQL queries (one a line), `LoadDocument`
//! relations (`Collection.Field`, one a line), an export with bodies and the intended
//! sharding, and applies RavenDB's sharding rules ([`rules::ALL`]; `docs/check.md`).
//!
//! Each [`Finding`] names the feature, where it is ([`Location`]: index and line of its
//! map, task, query and column, collection and field), a [`Severity`] (blocks, changes,
//! note, not checked), what to do instead and the RavenDB source of the rule. With an
//! export and a layout the data checks are exact: the share of the loads that land on
//! another shard, IDs RavenDB 7.x refuses, obese anchored groups, prefixes.
//!
//! # Examples
//!
//! ```
//! use ravenshard_check::{check, Inputs, Severity};
//!
//! let record = r#"{
//!     "DatabaseName": "Shop",
//!     "Indexes": {"Orders/ByCompany": {
//!         "Name": "Orders/ByCompany",
//!         "Maps": ["from o in docs.Orders select new { Company = LoadDocument<Company>(o.Company).Name }"],
//!         "DeploymentMode": "Rolling"
//!     }},
//!     "PeriodicBackups": [{"Name": "nightly", "BackupType": "Snapshot"}],
//!     "SomethingNewer": {"kept": "and ignored"}
//! }"#;
//! let report = check(&Inputs::record(record))?;
//! assert!(report.blocks());
//! let rules: Vec<&str> = report.findings.iter().filter(|f| f.severity == Severity::Blocks).map(|f| &*f.rule).collect();
//! assert_eq!(rules, ["index.rolling-deployment", "index.load-document", "task.snapshot-backup"]);
//! let load = report.of_rule("index.load-document").next().unwrap();
//! assert_eq!((load.location.map, load.location.line, load.location.column), (Some(1), Some(1), Some(46)));
//! assert_eq!(load.location.field.as_deref(), Some("Company"));
//!
//! let clean = check(&Inputs::record(r#"{"DatabaseName": "Shop", "Indexes": null}"#))?;
//! assert!(!clean.blocks());
//! # Ok::<(), ravenshard_check::CheckError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod data;
mod error;
mod export;
mod finding;
mod indexes;
mod layout;
mod licence;
mod map_text;
mod queries;
mod record;
pub mod rules;
mod tasks;

pub use error::CheckError;
pub use finding::{Finding, Location, Report, Severity};

use ravenshard::{Document, Topology};
use std::collections::BTreeSet;

/// What [`check`] reads. Only the record is required.
#[derive(Debug, Clone, Copy, Default)]
pub struct Inputs<'a> {
    /// The database record's JSON.
    pub record: &'a str,
    /// Index definitions on their own (`GET /databases/<db>/indexes`), checked besides
    /// the record's.
    pub indexes: Option<&'a str>,
    /// RQL queries, one a line; `stream:` or `delete:` before a query says how it is run.
    pub queries: Option<&'a str>,
    /// `LoadDocument` relations, `Collection.Field` one a line.
    pub loads: Option<&'a str>,
    /// An export with bodies (`.ravendbdump`, NDJSON or JSON).
    pub export: Option<&'a [u8]>,
    /// Documents already read (the studio's workspace), for the data checks when there is
    /// no export: the same checks on their IDs and on the fields their bodies hold. The
    /// advisor's candidates are scored on an export only.
    pub documents: Option<&'a [Document]>,
    /// The intended sharding; without it, the record's own `Sharding` if it has one.
    pub sharding: Option<&'a Topology>,
}

impl<'a> Inputs<'a> {
    /// A record and nothing else.
    pub fn record(record: &'a str) -> Inputs<'a> {
        Inputs {
            record,
            ..Inputs::default()
        }
    }
}

/// Checks a database record (and what else `inputs` holds) against RavenDB's sharding
/// rules: see the crate's documentation. Index definitions given on their own replace the
/// record's of the same name.
///
/// # Examples
///
/// ```
/// use ravenshard::Topology;
/// use ravenshard_check::{check, Inputs, Severity};
///
/// let record = r#"{"DatabaseName": "Shop", "Sorters": {"Rank": {"Name": "Rank"}}}"#;
/// let three = Topology::with_shards(3).unwrap();
/// let queries = "from Orders where id() = 'orders/1-A'\nfrom Orders order by score()";
/// let report = check(&Inputs { queries: Some(queries), sharding: Some(&three), ..Inputs::record(record) })?;
/// assert_eq!(report.count(Severity::Blocks), 2); // the sorter, and order by score()
/// let score = report.of_rule("query.order-by-score").next().unwrap();
/// assert_eq!((score.location.query, score.location.column), (Some(2), Some(22)));
/// // The second query goes to every shard; the first, by id(), to one.
/// assert_eq!(report.of_rule("query.all-shards").count(), 1);
/// # Ok::<(), ravenshard_check::CheckError>(())
/// ```
///
/// # Errors
///
/// Bad input ([`CheckError`]): a record that is not JSON or not a record, a section of the
/// wrong type, an index map whose brackets or strings do not close, a load that is not
/// `Collection.Field`, an export that cannot be read, a record whose `Sharding` is invalid.
pub fn check(inputs: &Inputs<'_>) -> Result<Report, CheckError> {
    let record = record::parse_record(inputs.record)?;
    let sharded = record
        .get("Sharding")
        .and_then(|s| s.get("Shards"))
        .is_some_and(|s| s.as_object().is_some_and(|o| !o.is_empty()));
    let own = match sharded {
        true => Some(
            Topology::from_json(inputs.record).map_err(|e| CheckError::Sharding(e.to_string()))?,
        ),
        false => None,
    };
    let layout = inputs.sharding.or(own.as_ref());
    let mut findings = Vec::new();
    let mut relations = Vec::new();
    let mut definitions = indexes::of_record(&record)?;
    if let Some(text) = inputs.indexes {
        // A definition given on its own replaces the record's of the same name.
        let given = indexes::of_definitions(text)?;
        definitions.retain(|d| !given.iter().any(|g| g.name.eq_ignore_ascii_case(&d.name)));
        definitions.extend(given);
    }
    indexes::check(&record, &definitions, &mut findings, &mut relations)?;
    tasks::check(&record, &mut findings, &mut relations)?;
    let map_reduce: BTreeSet<String> = definitions
        .iter()
        .filter(|d| d.map_reduce)
        .map(|d| d.name.to_lowercase())
        .collect();
    if let Some(text) = inputs.queries {
        let context = queries::Context {
            map_reduce: &map_reduce,
            topology: layout,
        };
        queries::check(text, &context, &mut findings, &mut relations);
    }
    if let Some(text) = inputs.loads {
        relations.extend(data::read_loads(text)?);
    }
    licence::check(&record, layout, &mut findings);
    let read = match (inputs.export, layout) {
        (Some(bytes), Some(_)) => Some(export::read(bytes, &data::fields(&relations))?),
        _ => None,
    };
    let documents = match (&read, layout) {
        (Some(read), _) => Some(read.as_slice()),
        (None, Some(_)) => inputs.documents,
        (None, None) => None,
    };
    if let (Some(own), Some(intended)) = (&own, inputs.sharding) {
        layout::check(own, intended, documents, &mut findings);
    }
    match (documents, layout) {
        (Some(documents), Some(layout)) => {
            let candidates = match (inputs.export, relations.is_empty()) {
                (Some(bytes), false) => {
                    export::candidates(bytes, layout, &data::loads_text(&relations))?
                }
                _ => Vec::new(),
            };
            let creating = own.is_none();
            let input = match inputs.export {
                Some(_) => "export",
                None => "documents",
            };
            data::check(
                input,
                documents,
                layout,
                creating,
                &relations,
                &candidates,
                &mut findings,
            )
        }
        (_, None)
            if inputs.queries.is_some()
                || inputs.export.is_some()
                || inputs.documents.is_some() =>
        {
            findings.push(rules::CROSS_SHARD_LOADS.finding(
                Severity::NotChecked,
                Location::new("sharding"),
                "no intended sharding and the record is not sharded: the data and routing \
                 checks need a layout (--shards N or --config FILE)",
            ))
        }
        _ => {}
    }
    let mut report = Report {
        database: record::text(&record, "DatabaseName").map(str::to_string),
        sharded,
        shards: layout.map(|t| t.shards().len() as u32),
        findings,
    };
    report.sort();
    Ok(report)
}
