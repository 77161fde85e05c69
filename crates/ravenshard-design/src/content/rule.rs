//! The chapter's `ByContent` rules, `Indexes` and `IdConventions`, read from a sharding
//! configuration.

use super::ContentError;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

/// What a rule reads from a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// A field by path (`Customer`, `Address.ZipCode`): a string value goes through the ID
    /// pipeline, so a reference lands with the document it names.
    Path(String),
    /// `numeric(path)`: an integer (JSON number or numeric string) modulo 2^20.
    Numeric(String),
    /// `ticks(path)`: an ISO-8601 date-time as .NET ticks, modulo 2^20.
    Ticks(String),
    /// `id()`: the bucket of the document's own ID, as if there were no rule.
    Id,
}

impl Field {
    /// Reads one entry of `Fields`: `Customer`, `Address.ZipCode`, `numeric(Zip)`,
    /// `ticks(OrderedAt)` or `id()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::Field;
    ///
    /// assert_eq!(Field::parse("numeric(Address.ZipCode)"), Ok(Field::Numeric("Address.ZipCode".into())));
    /// assert_eq!(Field::parse(" id( ) "), Ok(Field::Id));
    /// assert!(Field::parse("Lines[].Product").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Field, String> {
        let text = text.trim();
        let call = |name: &str| {
            let rest = text.get(..name.len())?;
            if !rest.eq_ignore_ascii_case(name) {
                return None;
            }
            let inner = text[name.len()..].trim_start().strip_prefix('(')?;
            inner.trim_end().strip_suffix(')').map(str::trim)
        };
        if let Some(inner) = call("id") {
            return if inner.is_empty() {
                Ok(Field::Id)
            } else {
                Err(format!("id() takes no argument, not '{inner}'"))
            };
        }
        if let Some(inner) = call("numeric") {
            return check_path(inner).map(|p| Field::Numeric(p.to_string()));
        }
        if let Some(inner) = call("ticks") {
            return check_path(inner).map(|p| Field::Ticks(p.to_string()));
        }
        check_path(text).map(|p| Field::Path(p.to_string()))
    }

    /// The field's path, unless it is `id()`.
    pub fn path(&self) -> Option<&str> {
        match self {
            Field::Path(p) | Field::Numeric(p) | Field::Ticks(p) => Some(p),
            Field::Id => None,
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Path(p) => f.write_str(p),
            Field::Numeric(p) => write!(f, "numeric({p})"),
            Field::Ticks(p) => write!(f, "ticks({p})"),
            Field::Id => f.write_str("id()"),
        }
    }
}

/// A field serializes as it is configured: `"Customer"`, `"numeric(Zip)"`, `"id()"`.
impl Serialize for Field {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A path of property names separated by dots; no arrays, no empty names.
fn check_path(path: &str) -> Result<&str, String> {
    if path.is_empty() {
        return Err("a field path is empty; name a property such as Customer".into());
    }
    for name in path.split('.') {
        if name.is_empty() {
            return Err(format!("'{path}' has an empty property name"));
        }
        if let Some(c) = name.chars().find(|c| "[](){}'\"$ ,".contains(*c)) {
            return Err(format!(
                "'{path}' has '{c}': a content field is a path of property names such as \
                 Address.ZipCode (arrays cannot be sharded on)"
            ));
        }
    }
    Ok(path)
}

/// One `ByContent` rule: a collection's (or an index's) documents are placed by these fields.
///
/// It serializes with its fields as configured:
///
/// ```
/// use ravenshard_design::content::{ContentRule, Field};
///
/// let rule = ContentRule { name: "Orders".into(), fields: vec![Field::Path("Customer".into()), Field::Id], range: 1000, mutable: false };
/// assert_eq!(serde_json::to_string(&rule).unwrap(),
///     r#"{"name":"Orders","fields":["Customer","id()"],"range":1000,"mutable":false}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContentRule {
    /// The collection or index name, as configured (matched ignoring case).
    pub name: String,
    /// What the rule reads, in order.
    pub fields: Vec<Field>,
    /// `Range` (1 to 2^20): the document's bucket must be in the content's block of this
    /// many buckets.
    pub range: u32,
    /// `Mutable`: updates may change the fields; queries are not routed by content.
    pub mutable: bool,
}

impl ContentRule {
    /// The fields as configured, joined for messages: `Customer`, `Address.State +
    /// Address.City`.
    pub fn fields_text(&self) -> String {
        let names: Vec<String> = self.fields.iter().map(Field::to_string).collect();
        names.join(" + ")
    }
}

/// A static index the configuration declares in `Indexes`, with the collections it maps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexDefinition {
    /// The index name (`Orders/Totals`).
    pub name: String,
    /// Its source collections.
    pub collections: Vec<String>,
    /// Whether it is a map-reduce index (`"Type": "MapReduce"`).
    pub map_reduce: bool,
}

/// An `IdConventions` entry: new documents of a collection are named by a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdConvention {
    /// The collection.
    pub collection: String,
    /// The template: `{Id}` is the document's given ID, `{Path}` a field's value
    /// (`"{Id}${OrderId}"`).
    pub template: String,
}

fn config_error(path: String, message: impl Into<String>) -> ContentError {
    ContentError::Config {
        path,
        message: message.into(),
    }
}

fn object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>, ContentError> {
    value
        .as_object()
        .ok_or_else(|| config_error(path.to_string(), "must be a JSON object"))
}

/// Reads `ByContent`: `{ "<Collection or index>": { "Fields": [...], "Range": n, "Mutable": b } }`.
pub(super) fn read_rules(section: &Value) -> Result<Vec<ContentRule>, ContentError> {
    let mut rules: Vec<ContentRule> = Vec::new();
    for (name, body) in object(section, "ByContent")? {
        let at = |key: &str| format!("ByContent.{name}{key}");
        if name.trim().is_empty() {
            return Err(config_error(
                at(""),
                "a rule needs a collection or index name",
            ));
        }
        if let Some(other) = rules.iter().find(|r| r.name.eq_ignore_ascii_case(name)) {
            return Err(config_error(
                at(""),
                format!(
                    "repeats the rule {} (names are matched ignoring case)",
                    other.name
                ),
            ));
        }
        let body = object(body, &at(""))?;
        let mut fields = Vec::new();
        let mut range = 1;
        let mut mutable = false;
        for (key, value) in body {
            match key.as_str() {
                "Fields" => {
                    let list = value.as_array().ok_or_else(|| {
                        config_error(at(".Fields"), "must be an array of field names")
                    })?;
                    for (i, field) in list.iter().enumerate() {
                        let path = at(&format!(".Fields[{i}]"));
                        let text = field
                            .as_str()
                            .ok_or_else(|| config_error(path.clone(), "must be a string"))?;
                        fields.push(Field::parse(text).map_err(|m| config_error(path, m))?);
                    }
                }
                "Range" => {
                    range = value
                        .as_u64()
                        .filter(|r| (1..=u64::from(ravenshard::NUMBER_OF_BUCKETS)).contains(r))
                        .ok_or_else(|| {
                            config_error(
                                at(".Range"),
                                format!("must be a whole number from 1 to 1048576, not {value}"),
                            )
                        })? as u32;
                }
                "Mutable" => {
                    mutable = value.as_bool().ok_or_else(|| {
                        config_error(
                            at(".Mutable"),
                            format!("must be true or false, not {value}"),
                        )
                    })?;
                }
                other => {
                    return Err(config_error(
                        at(&format!(".{other}")),
                        "is not a rule setting; a rule has Fields, Range and Mutable",
                    ))
                }
            }
        }
        if fields.is_empty() {
            return Err(config_error(
                at(".Fields"),
                "a rule needs at least one field, for example [\"Customer\"]",
            ));
        }
        rules.push(ContentRule {
            name: name.clone(),
            fields,
            range,
            mutable,
        });
    }
    Ok(rules)
}

/// Reads `Indexes`: `{ "<Index>": ["Orders"] }` or `{ "<Index>": { "Collections": [...],
/// "Type": "Map" | "MapReduce" } }`.
pub(super) fn read_indexes(section: &Value) -> Result<Vec<IndexDefinition>, ContentError> {
    let mut indexes = Vec::new();
    for (name, body) in object(section, "Indexes")? {
        let at = |key: &str| format!("Indexes.{name}{key}");
        let (list, list_path, map_reduce) =
            match body {
                Value::Array(list) => (list, at(""), false),
                Value::Object(map) => {
                    let map_reduce = match map.get("Type") {
                        None | Some(Value::Null) => false,
                        Some(Value::String(t)) if t.eq_ignore_ascii_case("map") => false,
                        Some(Value::String(t)) if t.eq_ignore_ascii_case("mapreduce") => true,
                        Some(t) => {
                            return Err(config_error(
                                at(".Type"),
                                format!("must be \"Map\" or \"MapReduce\", not {t}"),
                            ))
                        }
                    };
                    let list = map
                        .get("Collections")
                        .and_then(Value::as_array)
                        .ok_or_else(|| {
                            config_error(
                                at(".Collections"),
                                "must be an array of the collections the index maps",
                            )
                        })?;
                    (list, at(".Collections"), map_reduce)
                }
                _ => return Err(config_error(
                    at(""),
                    "must be an array of collections or {\"Collections\": [...], \"Type\": ...}",
                )),
            };
        let mut collections = Vec::new();
        for (i, c) in list.iter().enumerate() {
            match c.as_str().filter(|c| !c.trim().is_empty()) {
                Some(c) => collections.push(c.to_string()),
                None => {
                    return Err(config_error(
                        format!("{list_path}[{i}]"),
                        "must be a collection name",
                    ))
                }
            }
        }
        indexes.push(IndexDefinition {
            name: name.clone(),
            collections,
            map_reduce,
        });
    }
    Ok(indexes)
}

/// Reads `IdConventions`: `{ "<Collection>": "<template>" }`.
pub(super) fn read_conventions(section: &Value) -> Result<Vec<IdConvention>, ContentError> {
    let mut conventions = Vec::new();
    for (collection, template) in object(section, "IdConventions")? {
        let path = format!("IdConventions.{collection}");
        let template = template.as_str().ok_or_else(|| {
            config_error(
                path.clone(),
                "must be a template string such as \"{Id}${OrderId}\"",
            )
        })?;
        super::convention::check_template(template).map_err(|m| config_error(path, m))?;
        conventions.push(IdConvention {
            collection: collection.clone(),
            template: template.to_string(),
        });
    }
    Ok(conventions)
}
