//! One entry of a list: an ID or a document object, turned into a [`Document`], and the
//! [`Sink`] that collects documents and skipped entries.

use super::{ImportWarning, Location, MAX_WARNINGS};
use crate::check_id;
use crate::workspace::Document;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Collects documents and skipped entries.
#[derive(Debug, Default)]
pub(super) struct Sink {
    pub documents: Vec<Document>,
    pub warnings: Vec<ImportWarning>,
    pub skipped: usize,
    /// Bytes of bodies kept so far.
    pub body_bytes: usize,
    /// Documents whose body was not kept (past [`MAX_BODY_BYTES`]).
    pub bodies_dropped: usize,
}

/// The most bytes of document bodies an import keeps; later documents keep their ID, size
/// and collection only.
pub const MAX_BODY_BYTES: usize = 32 << 20;

impl Sink {
    /// Adds a document, or a warning if its ID cannot be stored. `at` is only called for a
    /// warning that is kept.
    pub fn add(
        &mut self,
        id: String,
        size: Option<u64>,
        collection: Option<String>,
        body: Option<String>,
        at: impl FnOnce() -> Location,
    ) {
        match check_id(&id) {
            Ok(()) => {
                let mut document = Document::new(id);
                document.size = size;
                document.collection = collection;
                if let Some(body) = body {
                    if self.body_bytes + body.len() <= MAX_BODY_BYTES {
                        self.body_bytes += body.len();
                        document.body = Some(body);
                    } else {
                        self.bodies_dropped += 1;
                    }
                }
                self.documents.push(document);
            }
            Err(error) => self.skip(|| ImportWarning::InvalidId { at: at(), error }),
        }
    }

    /// Counts a skipped entry; keeps its warning while fewer than [`MAX_WARNINGS`] are kept.
    pub fn skip(&mut self, warning: impl FnOnce() -> ImportWarning) {
        self.skipped += 1;
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(warning());
        }
    }
}

/// What one JSON value of a list holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// A document (or a bare ID, with no size and collection).
    Document {
        id: String,
        size: Option<u64>,
        collection: Option<String>,
        /// The object's JSON on one line (`None` for a bare ID).
        body: Option<String>,
    },
    /// A document object without an ID.
    MissingId,
    /// An attachment stream header of a RavenDB export: `size` raw bytes follow it.
    Attachment { size: u64 },
}

/// A JSON value that is not an entry, with a position relative to the value's text.
#[derive(Debug)]
pub(super) struct EntryError {
    /// Path inside the value (`@metadata.@id`), empty for the value itself.
    pub path: String,
    /// 1-based line within the value's text.
    pub line: usize,
    /// 1-based column within the value's text.
    pub column: usize,
    /// What is wrong, without a position.
    pub message: String,
}

impl EntryError {
    pub fn from_json(e: &serde_json::Error, path: String) -> EntryError {
        EntryError {
            path,
            line: e.line().max(1),
            column: e.column().max(1),
            message: without_position(e),
        }
    }
}

/// serde_json's message without its trailing " at line L column C".
pub(super) fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Reads one JSON value of a list (its complete text, no surrounding whitespace): a string is
/// an ID; an object is a document whose ID is `@metadata.@id`, else `Id`, else `id`, whose
/// collection is `@metadata.@collection` and whose size is its [`compact_len`].
pub(super) fn parse_entry(text: &[u8]) -> Result<Entry, EntryError> {
    match text.first() {
        Some(b'"') => serde_json::from_slice::<String>(text)
            .map(|id| Entry::Document {
                id,
                size: None,
                collection: None,
                body: None,
            })
            .map_err(|e| EntryError::from_json(&e, String::new())),
        Some(b'{') => {
            let mut de = serde_json::Deserializer::from_slice(text);
            let head: Head = serde_path_to_error::deserialize(&mut de).map_err(|e| {
                let path = e.path().to_string();
                // `?` stands for a key serde_json had not read yet.
                let path = path.trim_end_matches('?').trim_end_matches('.').to_string();
                EntryError::from_json(e.inner(), path)
            })?;
            de.end()
                .map_err(|e| EntryError::from_json(&e, String::new()))?;
            let body = std::str::from_utf8(text)
                .ok()
                .map(|t| crate::workspace::one_line(t).into_owned());
            Ok(head.into_entry(compact_len(text), body))
        }
        other => {
            let found = match other {
                Some(b'[') => "an array",
                Some(b't' | b'f') => "a boolean",
                Some(b'n') => "null",
                Some(b'-' | b'0'..=b'9') => "a number",
                _ => "something else",
            };
            Err(EntryError {
                path: String::new(),
                line: 1,
                column: 1,
                message: format!(
                    "expected a document ID (a JSON string) or a document (a JSON object), \
                     found {found}"
                ),
            })
        }
    }
}

/// The length of JSON text without insignificant whitespace: the length of its compact
/// serialization (`serde_json::to_string`) for text that, like RavenDB's exports, uses no
/// unnecessary escapes (`\u00e9`, `\/`) or non-canonical numbers (`1.0e2`).
pub(super) fn compact_len(text: &[u8]) -> u64 {
    let mut whitespace = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut i = 0;
    while i < text.len() {
        if in_string && !escaped {
            // Skip string contents in a tight loop.
            match text[i..].iter().position(|&b| b == b'"' || b == b'\\') {
                Some(k) => i += k,
                None => break,
            }
        }
        let b = text[i];
        i += 1;
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            whitespace += 1;
        }
    }
    (text.len() - whitespace) as u64
}

/// The parts of a document object that matter; everything else is skipped unread.
#[derive(serde::Deserialize)]
struct Head {
    #[serde(rename = "@metadata", default)]
    metadata: Option<Metadata>,
    #[serde(rename = "Id", default)]
    id_pascal: Option<Loose>,
    #[serde(rename = "id", default)]
    id_lower: Option<Loose>,
    /// The stream length of an attachment header; any type in a document.
    #[serde(rename = "Size", default)]
    size: Option<Loose>,
}

#[derive(serde::Deserialize)]
struct Metadata {
    #[serde(rename = "@id", default)]
    id: Option<Loose>,
    #[serde(rename = "@collection", default)]
    collection: Option<Loose>,
    #[serde(rename = "@export-type", default)]
    export_type: Option<Loose>,
}

impl Head {
    fn into_entry(self, size: u64, body: Option<String>) -> Entry {
        let (meta_id, collection, export_type) = match self.metadata {
            Some(m) => (m.id, m.collection, m.export_type),
            None => (None, None, None),
        };
        if let Some(Loose::Str(kind)) = export_type {
            if kind == "Attachment" {
                if let Some(Loose::U64(size)) = self.size {
                    return Entry::Attachment { size };
                }
            }
        }
        let id = [meta_id, self.id_pascal, self.id_lower]
            .into_iter()
            .find_map(|v| match v {
                Some(Loose::Str(s)) => Some(s),
                _ => None,
            });
        match id {
            Some(id) => Entry::Document {
                id,
                size: Some(size),
                collection: match collection {
                    Some(Loose::Str(c)) => Some(c),
                    _ => None,
                },
                body,
            },
            None => Entry::MissingId,
        }
    }
}

/// Any JSON value, keeping only a string or an unsigned integer.
enum Loose {
    Str(String),
    U64(u64),
    Other,
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Loose, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Loose, E> {
        Ok(Loose::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Loose, E> {
        Ok(Loose::Str(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Loose, E> {
        Ok(Loose::U64(v))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Loose, E> {
        Ok(Loose::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Loose, E> {
        Ok(Loose::Other)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Loose, E> {
        Ok(Loose::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Loose, E> {
        Ok(Loose::Other)
    }
    fn visit_none<E: de::Error>(self) -> Result<Loose, E> {
        Ok(Loose::Other)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Loose, D::Error> {
        Loose::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Loose::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Loose::Other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &[u8], id: &str, collection: Option<&str>) -> Entry {
        Entry::Document {
            id: id.into(),
            size: Some(text.len() as u64),
            collection: collection.map(Into::into),
            body: Some(String::from_utf8(text.to_vec()).unwrap()),
        }
    }

    #[test]
    fn ids_come_from_metadata_then_id_fields() {
        let t = br#"{"Id":"b","@metadata":{"@id":"a","@collection":"Orders"}}"#;
        assert_eq!(parse_entry(t).unwrap(), doc(t, "a", Some("Orders")));
        let t = br#"{"id":"c","Id":"b"}"#;
        assert_eq!(parse_entry(t).unwrap(), doc(t, "b", None));
        let t = br#"{"id":"c","Id":5,"@metadata":{"@id":7}}"#;
        assert_eq!(parse_entry(t).unwrap(), doc(t, "c", None));
        assert_eq!(parse_entry(br#"{"name":"x"}"#).unwrap(), Entry::MissingId);
        assert_eq!(
            parse_entry(br#""orders/1-A""#).unwrap(),
            Entry::Document {
                id: "orders/1-A".into(),
                size: None,
                collection: None,
                body: None,
            }
        );
    }

    #[test]
    fn size_is_the_compact_length() {
        let pretty = b"{\n  \"Name\": \"a b\",\n  \"@metadata\": { \"@id\": \"x\" }\n}";
        let value: serde_json::Value = serde_json::from_slice(pretty).unwrap();
        let compact = serde_json::to_string(&value).unwrap();
        assert_eq!(compact_len(pretty), compact.len() as u64);
        assert_eq!(compact_len(br#"{"a":"q\" \\ "}"#), 15);
        assert_eq!(compact_len(b"[ 1 , \"a b\" ]"), 9);
    }

    #[test]
    fn attachment_headers_are_recognised() {
        let t = br#"{"@metadata":{"@export-type":"Attachment"},"Hash":"h","Size":3,"Tag":"t"}"#;
        assert_eq!(parse_entry(t).unwrap(), Entry::Attachment { size: 3 });
        // A document may have a "Size" of any type.
        let t = br#"{"Size":"XL","@metadata":{"@id":"shirts/1"}}"#;
        assert_eq!(parse_entry(t).unwrap(), doc(t, "shirts/1", None));
    }

    #[test]
    fn errors_have_paths_and_positions() {
        let e = parse_entry(b"{\"@metadata\": {\"@collection\": }}").unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.line, e.column),
            ("@metadata.@collection", 1, 31)
        );
        let e = parse_entry(b"12").unwrap_err();
        assert!(e.message.contains("found a number"), "{}", e.message);
        let e = parse_entry(b"{\"a\":1}x").unwrap_err();
        assert!(e.message.contains("trailing"), "{}", e.message);
    }
}
