//! A finding: what sharding does to one feature at one place, how bad it is, what to do
//! instead and where the rule comes from.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// How a feature fares once the database is sharded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Refused or broken when sharded: RavenDB throws, or returns wrong results (a load of
    /// a document on another shard returns `null`).
    Blocks,
    /// Works, with different results or a different cost (a query sent to every shard,
    /// deep paging, an ETL that sends a resharded document again).
    Changes,
    /// Worth knowing; nothing to change.
    Note,
    /// ravenshard could not read the thing well enough to check it (a map it cannot
    /// follow, a query it does not parse): it is not passed, it is unknown.
    NotChecked,
}

impl Severity {
    /// The severity as the report's headings name it.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ravenshard_check::Severity::NotChecked.as_str(), "not checked");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Blocks => "blocks",
            Severity::Changes => "changes",
            Severity::Note => "note",
            Severity::NotChecked => "not checked",
        }
    }

    /// Every severity, the most severe first (the report's order).
    pub const ALL: [Severity; 4] = [
        Severity::Blocks,
        Severity::Changes,
        Severity::Note,
        Severity::NotChecked,
    ];
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a finding is. Only the fields that apply are set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// The input it is in: `record`, `indexes`, `queries`, `loads`, `export`, `documents`
    /// (documents given already read), `sharding`.
    pub input: Cow<'static, str>,
    /// The JSON path in the record or the index definitions (`PeriodicBackups[0]`).
    pub path: Option<String>,
    /// The index's name.
    pub index: Option<String>,
    /// The map, 1-based, in the index's `Maps`.
    pub map: Option<usize>,
    /// The line, 1-based: in the map, or in the queries or loads file.
    pub line: Option<usize>,
    /// The column, 1-based (characters), on that line.
    pub column: Option<usize>,
    /// The ongoing task's name.
    pub task: Option<String>,
    /// The query's number, 1-based, among the queries given.
    pub query: Option<usize>,
    /// The collection.
    pub collection: Option<String>,
    /// The field (a dotted path).
    pub field: Option<String>,
    /// A document's ID.
    pub document: Option<String>,
}

impl Location {
    /// A location in `input`.
    pub fn new(input: &'static str) -> Location {
        Location {
            input: Cow::Borrowed(input),
            ..Location::default()
        }
    }

    /// A place in the record or the index definitions, by JSON path.
    pub fn at_path(input: &'static str, path: impl Into<String>) -> Location {
        Location {
            path: Some(path.into()),
            ..Location::new(input)
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        let mut add = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                parts.push(format!("{name} {value}"));
            }
        };
        add("index", self.index.clone());
        add("map", self.map.map(|m| m.to_string()));
        add("task", self.task.clone());
        add("query", self.query.map(|q| q.to_string()));
        add("line", self.line.map(|l| l.to_string()));
        add("column", self.column.map(|c| c.to_string()));
        add("collection", self.collection.clone());
        add("field", self.field.clone());
        add("document", self.document.clone());
        add("at", self.path.clone());
        match parts.is_empty() {
            true => f.write_str(&self.input),
            false => write!(f, "{}: {}", self.input, parts.join(", ")),
        }
    }
}

/// One finding. Its names are `'static` when `check` makes it, owned when read back
/// (`Deserialize`: a report sent between threads or processes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The rule's stable name (`index.rolling-deployment`); `docs/check.md` lists them.
    pub rule: Cow<'static, str>,
    /// How bad it is.
    pub severity: Severity,
    /// The feature, as RavenDB's documentation names it.
    pub feature: Cow<'static, str>,
    /// Where.
    pub location: Location,
    /// What exactly, at that place.
    pub detail: String,
    /// What to do instead.
    pub instead: String,
    /// The RavenDB documentation page or server source the rule comes from.
    pub source: Cow<'static, str>,
    /// For data findings: the share (0..=1) of the documents concerned.
    pub share: Option<f64>,
}

/// What `check` found, most severe first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The database's name (`DatabaseName`), when the record has one.
    pub database: Option<String>,
    /// Whether the record is already sharded (it has `Sharding` with shards).
    pub sharded: bool,
    /// The shard count of the layout the data checks used, if any.
    pub shards: Option<u32>,
    /// The findings, by severity, then in the order they were found.
    pub findings: Vec<Finding>,
}

impl Report {
    /// Whether any finding blocks: the CLI's exit status 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_check::{check, Inputs, Severity};
    ///
    /// let record = r#"{"DatabaseName": "Shop", "QueueSinks": [{"Name": "in"}]}"#;
    /// let report = check(&Inputs::record(record))?;
    /// assert!(report.blocks());
    /// assert_eq!(report.count(Severity::Blocks), 1);
    /// assert_eq!(report.of_rule("task.queue-sink").next().unwrap().location.to_string(), "record: task in, at QueueSinks[0]");
    /// # Ok::<(), ravenshard_check::CheckError>(())
    /// ```
    pub fn blocks(&self) -> bool {
        self.count(Severity::Blocks) > 0
    }

    /// How many findings have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// The findings of one rule.
    pub fn of_rule<'a>(&'a self, rule: &'a str) -> impl Iterator<Item = &'a Finding> + 'a {
        self.findings.iter().filter(move |f| f.rule == rule)
    }

    /// Orders the findings by severity, keeping the order within one severity.
    pub(crate) fn sort(&mut self) {
        self.findings.sort_by_key(|f| f.severity);
    }
}
