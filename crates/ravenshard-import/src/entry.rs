//! One entry of a list: an ID or a document object, turned into a [`Document`], and the
//! [`Sink`] that collects documents and skipped entries.

use super::fields::FieldPaths;
use super::trail::{Segment, Trail};
use super::{ImportWarning, Location, MAX_WARNINGS};
use ravenshard::check_id;
use ravenshard::document::Document;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// Collects documents and skipped entries.
#[derive(Debug, Default)]
pub(super) struct Sink {
    /// What of each document's body is kept.
    pub keep: Keep,
    pub documents: Vec<Document>,
    pub warnings: Vec<ImportWarning>,
    pub skipped: usize,
    /// Bytes of bodies kept so far.
    pub body_bytes: usize,
    /// Documents whose body was not kept (past [`MAX_BODY_BYTES`]).
    pub bodies_dropped: BodiesDropped,
}

/// What an import keeps of each document's body.
#[derive(Debug, Default)]
pub(super) enum Keep {
    /// The whole body (up to [`MAX_BODY_BYTES`] in all).
    #[default]
    Whole,
    /// No body (none is counted as dropped).
    Nothing,
    /// A body of these fields only.
    Fields(FieldPaths),
}

/// The most bytes of document bodies an import holds at once (bodies
/// [taken](super::Importer::take_documents) no longer count): a body that does not fit,
/// one over this size by itself included, is not kept ([`BodiesDropped`]); its document
/// keeps its ID, size and collection.
pub const MAX_BODY_BYTES: usize = 32 << 20;

/// The documents whose body an import did not keep ([`MAX_BODY_BYTES`]), so that the
/// reader can say so: [`Display`](fmt::Display) says how many, why and what to do.
///
/// # Examples
///
/// ```
/// use ravenshard_import::{import, Format, MAX_BODY_BYTES};
///
/// let big = format!(r#"{{"Id": "orders/1", "Notes": "{}"}}"#, "x".repeat(MAX_BODY_BYTES));
/// let imported = import(format!("{big}\n{{\"Id\": \"orders/2\"}}").as_bytes(), Format::Ndjson)?;
/// assert_eq!(imported.documents[0].body, None);
/// assert!(imported.documents[1].body.is_some());
/// let dropped = imported.bodies_dropped;
/// assert_eq!((dropped.documents, dropped.largest), (1, big.len()));
/// assert!(dropped.to_string().starts_with("1 document's body was not kept"));
/// # Ok::<(), ravenshard_import::ImportError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BodiesDropped {
    /// How many documents kept no body.
    pub documents: usize,
    /// The largest of those bodies, in bytes (of the kept fields, when the import keeps
    /// only a design's fields).
    pub largest: usize,
    /// Whether the import kept only a design's fields
    /// ([`keeping_fields`](super::Importer::keeping_fields)).
    pub fields: bool,
}

impl BodiesDropped {
    /// Whether every body was kept.
    pub fn is_empty(&self) -> bool {
        self.documents == 0
    }

    fn count(&mut self, bytes: usize, fields: bool) {
        self.documents += 1;
        self.largest = self.largest.max(bytes);
        self.fields |= fields;
    }
}

impl fmt::Display for BodiesDropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = MAX_BODY_BYTES >> 20;
        let (without, what) = match self.fields {
            true => ("the fields the design reads", "the fields the design reads"),
            false => ("a body", "the body"),
        };
        let (kept, alone) = (
            if self.fields { " of those fields" } else { "" },
            self.largest > MAX_BODY_BYTES,
        );
        match self.documents {
            1 => f.write_str("1 document's body was not kept")?,
            n => write!(f, "{n} documents' bodies were not kept")?,
        }
        write!(
            f,
            " (the largest {} bytes{kept}): an import holds at most {limit} MiB of bodies at once",
            self.largest
        )?;
        if alone {
            f.write_str(", and such a body alone is more")?;
        }
        match self.documents {
            1 => write!(f, ". It keeps its ID, size and collection and is placed by its ID alone, as a document without {without}. ")?,
            _ => write!(f, ". They keep their ID, size and collection and are placed by their ID alone, as documents without {without}. ")?,
        }
        match alone {
            true => write!(f, "To have them read, make {what} of each such document smaller than {limit} MiB and import the file again."),
            false => f.write_str("To have them read, import the file in smaller parts, or take the documents as they are read (Importer::take_documents)."),
        }
    }
}

impl Sink {
    /// Whether entries' bodies are read at all.
    pub fn keeps_bodies(&self) -> bool {
        !matches!(self.keep, Keep::Nothing)
    }

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
                let (body, fields) = match &self.keep {
                    Keep::Whole => (body, false),
                    Keep::Nothing => (None, false),
                    Keep::Fields(fields) => (body.map(|b| fields.prune(&b).unwrap_or(b)), true),
                };
                if let Some(body) = body {
                    if self.body_bytes + body.len() <= MAX_BODY_BYTES {
                        self.body_bytes += body.len();
                        document.body = Some(body);
                    } else {
                        self.bodies_dropped.count(body.len(), fields);
                    }
                }
                self.documents.push(document);
            }
            Err(error) => self.skip(|| ImportWarning::InvalidId { at: at(), error }),
        }
    }

    /// Takes one entry of a list: a document is added, a document without an ID is skipped
    /// with a warning at `at`; an attachment header gives the byte count of the raw stream
    /// that follows it (which the caller skips).
    pub fn take(&mut self, entry: Entry, at: impl Fn() -> Location) -> Option<u64> {
        match entry {
            Entry::Document {
                id,
                size,
                collection,
                body,
            } => self.add(id, size, collection, body, at),
            Entry::MissingId => self.skip(|| ImportWarning::MissingId { at: at() }),
            Entry::Attachment { size } => return Some(size),
        }
        None
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
            message: ravenshard::json::message(e),
        }
    }
}

/// Reads one JSON value of a list (its complete text, no surrounding whitespace): a string is
/// an ID; an object is a document whose ID is `@metadata.@id`, else `Id`, else `id`, whose
/// collection is `@metadata.@collection`, whose size is its [`compact_len`] and whose body
/// is its text on one line when `keep_body`.
pub(super) fn parse_entry(text: &[u8], keep_body: bool) -> Result<Entry, EntryError> {
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
            if let Some(at) = ravenshard::json::depth_past(text) {
                let before = text.get(..at).unwrap_or_default();
                let line_start = before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                return Err(EntryError {
                    path: String::new(),
                    line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
                    column: 1 + at - line_start,
                    message: ravenshard::json::too_deep(),
                });
            }
            let mut de = serde_json::Deserializer::from_slice(text);
            let trail = Trail::default();
            let head = de
                .deserialize_struct("Head", HEAD_FIELDS, HeadVisitor(&trail))
                .map_err(|e| EntryError::from_json(&e, trail.path()))?;
            de.end()
                .map_err(|e| EntryError::from_json(&e, String::new()))?;
            let body = std::str::from_utf8(text)
                .ok()
                .filter(|_| keep_body)
                .map(|t| ravenshard::document::one_line(t).into_owned());
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

/// The parts of a document object that matter; everything else is skipped unread. Each is
/// `Some` when its key is present (`null` included), so that a key given twice is an error,
/// as it is to serde's derive.
#[derive(Default)]
struct Head {
    /// `@metadata`: `Some(None)` when it is `null`.
    metadata: Option<Option<Metadata>>,
    /// `Id`.
    id_pascal: Option<Loose>,
    /// `id`.
    id_lower: Option<Loose>,
    /// `Size`: the stream length of an attachment header; any type in a document.
    size: Option<Loose>,
}

const HEAD_FIELDS: &[&str] = &["@metadata", "Id", "id", "Size"];

/// `@metadata`'s parts that matter.
#[derive(Default)]
struct Metadata {
    /// `@id`.
    id: Option<Loose>,
    /// `@collection`.
    collection: Option<Loose>,
    /// `@export-type`.
    export_type: Option<Loose>,
}

impl Head {
    fn into_entry(self, size: u64, body: Option<String>) -> Entry {
        let (meta_id, collection, export_type) = match self.metadata.flatten() {
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

/// Reads a document object into a [`Head`], keeping the path of each value on the trail.
struct HeadVisitor<'t>(&'t Trail);

impl<'de> Visitor<'de> for HeadVisitor<'_> {
    type Value = Head;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct Head")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Head, A::Error> {
        let trail = self.0;
        let mut head = Head::default();
        while let Some(Key(key)) = map.next_key()? {
            if key == "@metadata" {
                let seed = trail.at(Segment::Key(&key), MetadataVisitor(trail));
                once(&mut map, &mut head.metadata, "@metadata", seed)?;
            } else {
                let fields = [
                    ("Id", &mut head.id_pascal),
                    ("id", &mut head.id_lower),
                    ("Size", &mut head.size),
                ];
                loose_field(&mut map, trail, &key, fields)?;
            }
        }
        Ok(head)
    }
}

/// Reads `@metadata`: `null` or an object.
struct MetadataVisitor<'t>(&'t Trail);

impl<'de> DeserializeSeed<'de> for MetadataVisitor<'_> {
    type Value = Option<Metadata>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Metadata>, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for MetadataVisitor<'_> {
    type Value = Option<Metadata>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct Metadata")
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<Metadata>, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Metadata>, D::Error> {
        d.deserialize_struct("Metadata", &["@id", "@collection", "@export-type"], self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Metadata>, A::Error> {
        let mut metadata = Metadata::default();
        while let Some(Key(key)) = map.next_key()? {
            let fields = [
                ("@id", &mut metadata.id),
                ("@collection", &mut metadata.collection),
                ("@export-type", &mut metadata.export_type),
            ];
            loose_field(&mut map, self.0, &key, fields)?;
        }
        Ok(Some(metadata))
    }
}

/// Reads the value of `key` into its slot among `fields` if it names one, else skips it.
fn loose_field<'de, A: MapAccess<'de>, const N: usize>(
    map: &mut A,
    trail: &Trail,
    key: &str,
    fields: [(&'static str, &mut Option<Loose>); N],
) -> Result<(), A::Error> {
    match fields.into_iter().find(|(name, _)| *name == key) {
        Some((name, slot)) => once(
            map,
            slot,
            name,
            trail.at(Segment::Key(key), LooseVisitor(trail)),
        ),
        None => map
            .next_value_seed(trail.at(Segment::Key(key), PhantomData::<IgnoredAny>))
            .map(drop),
    }
}

/// Reads the value of `field` into `slot`, or fails as serde's derive does if the key came
/// before.
fn once<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    map: &mut A,
    slot: &mut Option<S::Value>,
    field: &'static str,
    seed: S,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(field));
    }
    *slot = Some(map.next_value_seed(seed)?);
    Ok(())
}

/// An object key, borrowed from the text unless it has escapes.
pub(super) struct Key<'de>(pub Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key<'de>, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(v.to_string())))
    }
}

/// Any JSON value, keeping only a string or an unsigned integer.
enum Loose {
    Str(String),
    U64(u64),
    Other,
}

/// Reads any value into a [`Loose`], keeping the path inside an array or object on the trail.
struct LooseVisitor<'t>(&'t Trail);

impl<'de> DeserializeSeed<'de> for LooseVisitor<'_> {
    type Value = Loose;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Loose, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LooseVisitor<'_> {
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
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        let mut index = 0;
        while seq
            .next_element_seed(self.0.at(Segment::Index(index), PhantomData::<IgnoredAny>))?
            .is_some()
        {
            index += 1;
        }
        Ok(Loose::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
        while let Some(Key(key)) = map.next_key()? {
            map.next_value_seed(self.0.at(Segment::Key(&key), PhantomData::<IgnoredAny>))?;
        }
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
        assert_eq!(parse_entry(t, true).unwrap(), doc(t, "a", Some("Orders")));
        let t = br#"{"id":"c","Id":"b"}"#;
        assert_eq!(parse_entry(t, true).unwrap(), doc(t, "b", None));
        let t = br#"{"id":"c","Id":5,"@metadata":{"@id":7}}"#;
        assert_eq!(parse_entry(t, true).unwrap(), doc(t, "c", None));
        assert_eq!(
            parse_entry(br#"{"name":"x"}"#, true).unwrap(),
            Entry::MissingId
        );
        assert_eq!(
            parse_entry(br#""orders/1-A""#, true).unwrap(),
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
        assert_eq!(parse_entry(t, true).unwrap(), Entry::Attachment { size: 3 });
        // A document may have a "Size" of any type.
        let t = br#"{"Size":"XL","@metadata":{"@id":"shirts/1"}}"#;
        assert_eq!(parse_entry(t, true).unwrap(), doc(t, "shirts/1", None));
    }

    #[test]
    fn errors_have_paths_and_positions() {
        let e = parse_entry(b"{\"@metadata\": {\"@collection\": }}", true).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.line, e.column),
            ("@metadata.@collection", 1, 31)
        );
        let e = parse_entry(b"12", true).unwrap_err();
        assert!(e.message.contains("found a number"), "{}", e.message);
        let e = parse_entry(b"{\"a\":1}x", true).unwrap_err();
        assert!(e.message.contains("trailing"), "{}", e.message);
    }

    #[test]
    fn an_error_names_the_value_it_is_in() {
        let cases: [(&[u8], &str, usize, &str); 9] = [
            // Inside a value that is read: down to the element or key.
            (br#"{"Id": [1, tru]}"#, "Id[1]", 15, "expected ident"),
            (
                br#"{"Id": {"a": {"b": tru}}}"#,
                "Id.a",
                23,
                "expected ident",
            ),
            (
                br#"{"@metadata": {"@collection": ["a", {"k": nul}]}}"#,
                "@metadata.@collection[1]",
                46,
                "expected ident",
            ),
            // Between values: their container.
            (br#"{"Id": [1}"#, "Id", 10, "expected `,` or `]`"),
            (
                br#"{"@metadata": {"@id" "x"}}"#,
                "@metadata",
                22,
                "expected `:`",
            ),
            // A skipped value is skipped whole: the key it belongs to.
            (br#"{"Lines": [{"a": tru}]}"#, "Lines", 21, "expected ident"),
            // A key given twice, as serde's derive says it; an escaped key is the same key.
            (
                br#"{"I\u0064": "a", "Id": "b"}"#,
                "",
                21,
                "duplicate field `Id`",
            ),
            (
                br#"{"@metadata": {"@id": "x", "@id": null}}"#,
                "@metadata",
                32,
                "duplicate field `@id`",
            ),
            (
                br#"{"@metadata": ["x", "Orders"]}"#,
                "@metadata",
                15,
                "invalid type: sequence, expected struct Metadata",
            ),
        ];
        for (text, path, column, message) in cases {
            let e = parse_entry(text, true).unwrap_err();
            assert_eq!(
                (e.path.as_str(), e.line, e.column, e.message.as_str()),
                (path, 1, column, message),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        let t = br#"{"@metadata": null, "Id": "a"}"#;
        let Entry::Document { id, size, .. } = parse_entry(t, true).unwrap() else {
            panic!("a document was expected");
        };
        assert_eq!((id.as_str(), size), ("a", Some(compact_len(t))));
    }
}
