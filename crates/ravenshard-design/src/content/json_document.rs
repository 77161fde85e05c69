//! A document as NDJSON holds it: one JSON object, named by its `@metadata.@id`.

use super::ContentDocument;
use serde_json::Value;
use std::fmt;

/// A document read from JSON: its `@metadata.@id`, its `@metadata.@collection` when it has
/// one, and the whole object as its body (metadata included; rules read other paths).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonDocument {
    /// `@metadata.@id`, as given.
    pub id: String,
    /// `@metadata.@collection`, when present.
    pub collection: Option<String>,
    /// The document's JSON.
    pub body: Value,
}

/// Why a line of NDJSON is not a document.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DocumentError {
    /// The text is not JSON.
    NotJson {
        /// What the JSON parser said.
        message: String,
        /// 1-based column of the problem.
        column: usize,
    },
    /// The JSON is not an object.
    NotAnObject {
        /// What it is instead: `an array`, `a string`...
        found: &'static str,
    },
    /// There is no string at `@metadata.@id`.
    NoId {
        /// What is there instead: `no @metadata`, `@metadata.@id is 5`...
        found: String,
    },
    /// `@metadata.@collection` is there but is not a string.
    BadCollection {
        /// The value found, as JSON.
        found: String,
    },
}

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHAPE: &str =
            "{\"@metadata\": {\"@id\": \"orders/1-A$\", \"@collection\": \"Orders\"}, \
                             \"Customer\": \"customers/1-A\"}";
        match self {
            DocumentError::NotJson { message, column } => write!(
                f,
                "not JSON at column {column} ({message}); write one document a line, as {SHAPE}"
            ),
            DocumentError::NotAnObject { found } => write!(
                f,
                "a document must be a JSON object, not {found}; write one a line, as {SHAPE}"
            ),
            DocumentError::NoId { found } => write!(
                f,
                "the document has no ID ({found}); put a string in @metadata.@id, as {SHAPE}"
            ),
            DocumentError::BadCollection { found } => write!(
                f,
                "@metadata.@collection must be a string, not {found}; name the collection, as \
                 {SHAPE}, or leave it out to use the ID's text before its first '/'"
            ),
        }
    }
}

impl std::error::Error for DocumentError {}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl JsonDocument {
    /// Reads one document from its JSON text.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::JsonDocument;
    ///
    /// let d = JsonDocument::parse(r#"{"Customer": "customers/1-A", "@metadata": {"@id": "orders/1-A$", "@collection": "Orders"}}"#).unwrap();
    /// assert_eq!((d.id.as_str(), d.collection.as_deref()), ("orders/1-A$", Some("Orders")));
    /// assert_eq!(d.body["Customer"], "customers/1-A");
    /// assert!(JsonDocument::parse(r#"{"Id": "orders/1-A"}"#).unwrap_err().to_string().contains("no @metadata"));
    /// assert!(JsonDocument::parse("orders/1-A").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<JsonDocument, DocumentError> {
        // from_slice, as the importers parse: one copy of serde_json's parser, not two.
        let body: Value =
            serde_json::from_slice(text.as_bytes()).map_err(|e| DocumentError::NotJson {
                message: ravenshard::json::message(&e),
                column: e.column(),
            })?;
        if !body.is_object() {
            return Err(DocumentError::NotAnObject { found: kind(&body) });
        }
        let metadata = body.get("@metadata");
        let id = match metadata.map(|m| (m, m.get("@id"))) {
            None => Err("no @metadata".to_string()),
            Some((m, _)) if !m.is_object() => Err(format!("@metadata is {}", kind(m))),
            Some((_, None)) => Err("no @metadata.@id".to_string()),
            Some((_, Some(Value::String(id)))) => Ok(id.clone()),
            Some((_, Some(other))) => Err(format!("@metadata.@id is {other}")),
        }
        .map_err(|found| DocumentError::NoId { found })?;
        let collection = match metadata.and_then(|m| m.get("@collection")) {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(other) => {
                return Err(DocumentError::BadCollection {
                    found: other.to_string(),
                })
            }
        };
        Ok(JsonDocument {
            id,
            collection,
            body,
        })
    }

    /// The document as the design reads it.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::JsonDocument;
    ///
    /// let d = JsonDocument::parse(r#"{"@metadata": {"@id": "orders/1-A$"}}"#).unwrap();
    /// assert_eq!(d.as_content().collection(), "orders");
    /// ```
    pub fn as_content(&self) -> ContentDocument<'_> {
        ContentDocument {
            id: &self.id,
            collection: self.collection.as_deref(),
            body: Some(&self.body),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_not_a_document() {
        let error = |text: &str| JsonDocument::parse(text).unwrap_err();
        assert!(matches!(
            error("{\"a\": "),
            DocumentError::NotJson { column: 6, .. }
        ));
        assert_eq!(
            error("[1]"),
            DocumentError::NotAnObject { found: "an array" }
        );
        for (text, found) in [
            ("{}", "no @metadata"),
            ("{\"@metadata\": 3}", "@metadata is a number"),
            ("{\"@metadata\": {}}", "no @metadata.@id"),
            ("{\"@metadata\": {\"@id\": 5}}", "@metadata.@id is 5"),
        ] {
            assert_eq!(
                error(text),
                DocumentError::NoId {
                    found: found.into()
                },
                "{text}"
            );
        }
        assert!(matches!(
            error("{\"@metadata\": {\"@id\": \"a\", \"@collection\": 1}}"),
            DocumentError::BadCollection { .. }
        ));
        let d = JsonDocument::parse("{\"@metadata\": {\"@id\": \"a\", \"@collection\": null}}")
            .unwrap();
        assert_eq!(d.collection, None);
        assert_eq!(d.as_content().collection(), "");
    }
}
