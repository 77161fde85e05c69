//! The index rules: rolling deployment, loads in maps, output to a collection, custom
//! sorters, multi-map indexes. Definitions come from the record's `Indexes` or from
//! `GET /databases/<db>/indexes` (`{"Results": [IndexDefinition, ...]}`); the field names
//! are `IndexDefinition`'s (`src/Raven.Client/Documents/Indexes/IndexDefinition.cs`).

use crate::data::Relation;
use crate::error::CheckError;
use crate::finding::{Finding, Location, Severity};
use crate::map_text::{self, MapText};
use crate::record::{self, entries, list, strings, text, Object};
use crate::rules;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// An index definition, as far as the rules read it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Definition {
    /// `Name` (or the record's key).
    pub name: String,
    /// Which input it came from.
    pub input: &'static str,
    /// Its JSON path there.
    pub path: String,
    /// `Maps`.
    pub maps: Vec<String>,
    /// Whether it reduces (`Reduce`, or a `Type` of `MapReduce`/`JavaScriptMapReduce`).
    pub map_reduce: bool,
    /// `OutputReduceToCollection`.
    pub output: Option<String>,
    /// `DeploymentMode`: `Parallel`, `Rolling` or none.
    pub deployment: Option<String>,
}

fn definition(
    name: &str,
    object: &Map<String, Value>,
    input: &'static str,
    path: String,
) -> Result<Definition, CheckError> {
    let maps = strings(object, "Maps", input, &path)?
        .into_iter()
        .map(str::to_string)
        .collect();
    let kind = text(object, "Type").unwrap_or_default();
    Ok(Definition {
        name: text(object, "Name").unwrap_or(name).to_string(),
        input,
        maps,
        map_reduce: text(object, "Reduce").is_some() || kind.ends_with("MapReduce"),
        output: text(object, "OutputReduceToCollection").map(str::to_string),
        deployment: text(object, "DeploymentMode").map(str::to_string),
        path,
    })
}

/// The record's `Indexes`.
pub(crate) fn of_record(record: &Map<String, Value>) -> Result<Vec<Definition>, CheckError> {
    entries(record, "Indexes", "record", "")?
        .into_iter()
        .map(|(name, object)| definition(name, object, "record", format!("Indexes.{name}")))
        .collect()
}

/// Index definitions on their own: `{"Results": [...]}` as RavenDB returns them, an array
/// of definitions, or one definition.
pub(crate) fn of_definitions(text_in: &str) -> Result<Vec<Definition>, CheckError> {
    let value = record::parse_json("indexes", text_in)?;
    let wrapped;
    let (items, base): (Vec<(usize, &Object)>, &str) = match &value {
        Value::Object(o) if o.contains_key("Results") => {
            (list(o, "Results", "indexes", "")?, "Results")
        }
        Value::Object(o) if o.contains_key("Maps") => (vec![(0, o)], ""),
        Value::Array(_) => {
            wrapped = Map::from_iter([("Results".to_string(), value.clone())]);
            (list(&wrapped, "Results", "indexes", "")?, "")
        }
        _ => {
            return Err(CheckError::NotARecord {
                input: "indexes",
                found: "JSON without Results or Maps".into(),
            })
        }
    };
    items
        .into_iter()
        .map(|(i, object)| {
            let path = match base {
                "" if matches!(value, Value::Object(_)) => String::new(),
                "" => format!("[{i}]"),
                _ => format!("Results[{i}]"),
            };
            definition(&format!("index {}", i + 1), object, "indexes", path)
        })
        .collect()
}

/// The setting `name` of the record's `Settings`, when it is a string.
fn setting<'a>(record: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    record
        .get("Settings")
        .and_then(|s| s.get(name))
        .and_then(Value::as_str)
}

/// Applies the index rules: findings, and the loads they find (for the data checks).
pub(crate) fn check(
    record: &Map<String, Value>,
    definitions: &[Definition],
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) -> Result<(), CheckError> {
    let static_rolling = setting(record, "Indexing.Static.DeploymentMode") == Some("Rolling");
    if static_rolling {
        findings.push(rules::ROLLING_DEPLOYMENT.finding(
            Severity::Blocks,
            Location::at_path("record", "Settings.Indexing.Static.DeploymentMode"),
            "the database deploys every static index without its own DeploymentMode rolling",
        ));
    }
    if setting(record, "Indexing.Auto.DeploymentMode") == Some("Rolling") {
        findings.push(rules::ROLLING_DEPLOYMENT.finding(
            Severity::Blocks,
            Location::at_path("record", "Settings.Indexing.Auto.DeploymentMode"),
            "the database deploys auto indexes rolling: creating one throws once sharded",
        ));
    }
    for definition in definitions {
        check_definition(definition, findings, relations)?;
    }
    for (name, _) in entries(record, "Sorters", "record", "")? {
        findings.push(rules::CUSTOM_SORTER.finding(
            Severity::Blocks,
            Location::at_path("record", format!("Sorters.{name}")),
            format!("custom sorter '{name}': a sharded database refuses to create it"),
        ));
    }
    Ok(())
}

fn index_location(definition: &Definition, path: String) -> Location {
    Location {
        index: Some(definition.name.clone()),
        ..Location::at_path(definition.input, path)
    }
}

fn check_definition(
    definition: &Definition,
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) -> Result<(), CheckError> {
    let at = |key: &str| index_location(definition, record::join(&definition.path, key));
    if definition.deployment.as_deref() == Some("Rolling") {
        findings.push(rules::ROLLING_DEPLOYMENT.finding(
            Severity::Blocks,
            at("DeploymentMode"),
            "DeploymentMode is Rolling",
        ));
    }
    if let Some(output) = &definition.output {
        findings.push(rules::OUTPUT_REDUCE.finding(
            Severity::Blocks,
            at("OutputReduceToCollection"),
            format!("the reduce results are written to the collection {output}"),
        ));
    }
    if definition.maps.len() > 1 {
        findings.push(rules::MULTI_MAP.finding(
            Severity::Note,
            at("Maps"),
            format!("a multi-map index of {} maps", definition.maps.len()),
        ));
    }
    for (k, map) in definition.maps.iter().enumerate() {
        let path = format!("{}[{k}]", record::join(&definition.path, "Maps"));
        let read = map_text::read(map).map_err(|e| {
            let p = map_text::position(map, e.offset);
            CheckError::Map {
                input: definition.input,
                path: path.clone(),
                line: p.line,
                column: p.column,
                message: e.message,
            }
        })?;
        check_loads(definition, k, &path, map, &read, findings, relations);
    }
    Ok(())
}

fn check_loads(
    definition: &Definition,
    k: usize,
    path: &str,
    map: &str,
    read: &MapText,
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) {
    let mut seen = BTreeMap::new();
    for call in &read.loads {
        let mut location = map_text::place(
            &index_location(definition, path.to_string()),
            map,
            call.offset,
        );
        location.map = Some(k + 1);
        location.collection = read.collection.clone();
        let field = read.field_of(call);
        location.field = field.clone();
        let loaded = call.collection.as_deref().unwrap_or("documents");
        let from = read.collection.as_deref().unwrap_or("the map's documents");
        findings.push(rules::INDEX_LOAD.finding(
            Severity::Blocks,
            location.clone(),
            format!(
                "{} loads {loaded} from {from}: when the loaded document is on another \
                 shard the load returns null and the index entry misses its values",
                call.written
            ),
        ));
        match (&read.collection, field) {
            (Some(collection), Some(field)) => {
                if seen.insert((collection.clone(), field.clone()), ()).is_none() {
                    relations.push(Relation {
                        collection: collection.clone(),
                        field,
                        finding: findings.len() - 1,
                    });
                }
            }
            _ => findings.push(rules::MAP_NOT_CHECKED.finding(
                Severity::NotChecked,
                location,
                format!(
                    "the loaded ID '{}' is not a field of the map's documents{}: ravenshard \
                     cannot tell from the data where the loaded documents are",
                    call.argument,
                    match read.collection {
                        None => " (and the map's collection is not docs.<Collection> or map('<Collection>', ...))",
                        Some(_) => "",
                    }
                ),
            )),
        }
    }
}
