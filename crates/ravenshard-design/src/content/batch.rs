//! NDJSON documents stored one line at a time: the answers `ravenshard store` prints and the
//! JS API's `storeMany` returns.

use super::{ContentDesign, JsonDocument, Stored};
use crate::locality::PlacedId;
use ravenshard::Topology;
use serde::Serialize;
use std::fmt::Display;

/// The answer for one line of NDJSON documents; as JSON, `{"id", "bucket", "shard"}` or
/// `{"id", "line", "error"}` (no `id` when the line holds no document).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum StoreAnswer {
    /// Stored: the final ID, its bucket and its shard.
    Stored(PlacedId),
    /// Refused: the design refuses the write, or the line is not a document.
    Refused {
        /// The ID as given, when the line is a document.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The 1-based line.
        line: u64,
        /// Why: the design's message, or `line <n>: …` for a line that is not a document.
        error: String,
    },
}

impl StoreAnswer {
    /// The answer for line `line`, which holds no document (`why`: it is not JSON, not UTF-8,
    /// has no `@metadata.@id`...).
    pub fn unreadable(line: u64, why: impl Display) -> StoreAnswer {
        StoreAnswer::Refused {
            id: None,
            line,
            error: format!("line {line}: {why}"),
        }
    }

    /// Whether the document was stored.
    pub fn is_stored(&self) -> bool {
        matches!(self, StoreAnswer::Stored(_))
    }
}

impl From<Stored> for PlacedId {
    fn from(stored: Stored) -> PlacedId {
        PlacedId {
            id: stored.id,
            bucket: stored.bucket,
            shard: stored.shard,
        }
    }
}

impl ContentDesign {
    /// Stores the document on line `line` (1-based) of NDJSON text: `text` is the line,
    /// without its line break.
    pub fn store_line(&self, topology: &Topology, line: u64, text: &str) -> StoreAnswer {
        let document = match JsonDocument::parse(text) {
            Ok(document) => document,
            Err(e) => return StoreAnswer::unreadable(line, e),
        };
        match self.store(topology, &document.as_content()) {
            Ok(stored) => StoreAnswer::Stored(stored.into()),
            Err(e) => StoreAnswer::Refused {
                id: Some(document.id),
                line,
                error: e.to_string(),
            },
        }
    }

    /// Stores every document of NDJSON text, one answer per line that is not blank (lines end
    /// with `\n` or `\r\n`; numbers count every line from 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::{ContentDesign, StoreAnswer};
    /// use ravenshard::Topology;
    ///
    /// let topology = Topology::from_json(r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    ///     "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#).unwrap();
    /// let design = ContentDesign::from_topology(&topology).unwrap().unwrap();
    /// let text = "{\"Customer\": \"customers/1-A\", \"@metadata\": {\"@id\": \"orders/1-A$\"}}\r\n\nnot json\n";
    /// let answers: Vec<String> = design.store_lines(&topology, text)
    ///     .map(|a| serde_json::to_string(&a).unwrap())
    ///     .collect();
    /// assert_eq!(answers[0], r#"{"id":"orders/1-A$@982326","bucket":982326,"shard":2}"#);
    /// assert!(answers[1].starts_with(r#"{"line":3,"error":"line 3: not JSON"#));
    /// ```
    pub fn store_lines<'a>(
        &'a self,
        topology: &'a Topology,
        text: &'a str,
    ) -> impl Iterator<Item = StoreAnswer> + 'a {
        text.lines()
            .zip(1..)
            .filter(|(line, _)| !line.bytes().all(|b| b.is_ascii_whitespace()))
            .map(|(line, number)| self.store_line(topology, number, line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_name_the_id_and_the_line() {
        let topology = Topology::from_json(
            r#"{"Shards": {"0": {}, "1": {}, "2": {}},
                "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#,
        )
        .unwrap();
        let design = ContentDesign::from_topology(&topology).unwrap().unwrap();
        let text = concat!(
            r#"{"Customer": "customers/2-B", "@metadata": {"@id": "orders/1-A$@982326"}}"#,
            "\n",
            r#"{"Customer": "customers/1-A", "@metadata": {}}"#,
            "\n",
            r#"{"Customer": "customers/741135-C", "@metadata": {"@id": "orders/1-A$@982326"}}"#,
        );
        let answers: Vec<StoreAnswer> = design.store_lines(&topology, text).collect();
        let StoreAnswer::Refused { id, line, error } = &answers[0] else {
            panic!("{:?}", answers[0]);
        };
        assert_eq!((id.as_deref(), *line), (Some("orders/1-A$@982326"), 1));
        assert!(error.starts_with("Rejected:"), "{error}");
        let StoreAnswer::Refused { id, line, error } = &answers[1] else {
            panic!("{:?}", answers[1]);
        };
        assert_eq!((id, *line), (&None, 2));
        assert!(
            error.starts_with("line 2: the document has no ID"),
            "{error}"
        );
        assert!(answers[2].is_stored() && !answers[0].is_stored());
        let json = serde_json::to_value(&answers[1]).unwrap();
        assert_eq!(json.get("id"), None);
        assert_eq!(json["line"], 2);
    }
}
