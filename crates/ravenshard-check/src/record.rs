//! Reading the database record leniently: RavenDB's JSON as `GET /admin/databases?name=<db>`
//! returns it. Unknown keys are ignored, `null` and missing sections are empty; a section
//! of the wrong type is bad input, named by its path.

use crate::error::{kind_of, CheckError};
use serde_json::{Map, Value};

/// Keys of RavenDB 7.x's `DatabaseRecord` (`src/Raven.Client/ServerWide/DatabaseRecord.cs`):
/// an object with none of them is not a record.
const RECORD_KEYS: [&str; 12] = [
    "DatabaseName",
    "Indexes",
    "Settings",
    "Topology",
    "Sharding",
    "PeriodicBackups",
    "ExternalReplications",
    "RavenEtls",
    "Sorters",
    "Analyzers",
    "Revisions",
    "AutoIndexes",
];

/// A JSON object.
pub(crate) type Object = Map<String, Value>;

/// Parses `text` as JSON, naming `input` and the position of a syntax error.
pub(crate) fn parse_json(input: &'static str, text: &str) -> Result<Value, CheckError> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(i) => message.get(..i).unwrap_or_default().to_string(),
            None => message,
        };
        CheckError::Json {
            input,
            line: e.line(),
            column: e.column(),
            message,
        }
    })
}

/// The record's object, or why it is not a record.
pub(crate) fn parse_record(text: &str) -> Result<Map<String, Value>, CheckError> {
    match parse_json("record", text)? {
        Value::Object(object) if RECORD_KEYS.iter().any(|k| object.contains_key(*k)) => Ok(object),
        Value::Object(_) => Err(CheckError::NotARecord {
            input: "record",
            found: "an object with none of DatabaseName, Indexes, Settings, Topology, Sharding"
                .into(),
        }),
        other => Err(CheckError::NotARecord {
            input: "record",
            found: kind_of(&other).into(),
        }),
    }
}

/// A section that is a dictionary of objects (`Indexes`, `Sorters`): its entries in key
/// order. `null` or missing: none.
pub(crate) fn entries<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    input: &'static str,
    path: &str,
) -> Result<Vec<(&'a str, &'a Object)>, CheckError> {
    let section = match object.get(key) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(section)) => section,
        Some(other) => return Err(shape(input, join(path, key), "an object", other)),
    };
    let mut out = Vec::new();
    for (name, value) in section {
        match value {
            Value::Null => {}
            Value::Object(entry) => out.push((name.as_str(), entry)),
            other => {
                return Err(shape(
                    input,
                    join(&join(path, key), name),
                    "an object",
                    other,
                ))
            }
        }
    }
    Ok(out)
}

/// A section that is a list of objects (`PeriodicBackups`, `RavenEtls`), with each
/// entry's index. `null` or missing: none.
pub(crate) fn list<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    input: &'static str,
    path: &str,
) -> Result<Vec<(usize, &'a Object)>, CheckError> {
    let section = match object.get(key) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(section)) => section,
        Some(other) => return Err(shape(input, join(path, key), "an array", other)),
    };
    let mut out = Vec::new();
    for (i, value) in section.iter().enumerate() {
        match value {
            Value::Null => {}
            Value::Object(entry) => out.push((i, entry)),
            other => {
                return Err(shape(
                    input,
                    format!("{}[{i}]", join(path, key)),
                    "an object",
                    other,
                ))
            }
        }
    }
    Ok(out)
}

/// The strings of a list of strings (`Maps`); `null` or missing: none.
pub(crate) fn strings<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    input: &'static str,
    path: &str,
) -> Result<Vec<&'a str>, CheckError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_null())
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s.as_str()),
                other => Err(shape(
                    input,
                    format!("{}[{i}]", join(path, key)),
                    "a string",
                    other,
                )),
            })
            .collect(),
        Some(other) => Err(shape(input, join(path, key), "an array of strings", other)),
    }
}

/// A string value; anything else (missing, `null`, another type) is `None`.
pub(crate) fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// A boolean value; anything else is `false`.
pub(crate) fn flag(object: &Map<String, Value>, key: &str) -> bool {
    object.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// A task's name for a finding: `Name`, else `TaskId`, else its position.
pub(crate) fn task_name(object: &Map<String, Value>, fallback: &str) -> String {
    match (
        text(object, "Name"),
        object.get("TaskId").and_then(Value::as_u64),
    ) {
        (Some(name), _) => name.to_string(),
        (None, Some(id)) => format!("task {id}"),
        (None, None) => fallback.to_string(),
    }
}

/// `path.key`, or `key` at the top.
pub(crate) fn join(path: &str, key: &str) -> String {
    match path.is_empty() {
        true => key.to_string(),
        false => format!("{path}.{key}"),
    }
}

fn shape(input: &'static str, path: String, expected: &'static str, found: &Value) -> CheckError {
    CheckError::Shape {
        input,
        path,
        expected,
        found: kind_of(found),
    }
}
