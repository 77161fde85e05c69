//! What survives a reload: the workspace, the configuration and the tab shown.
//!
//! The studio keeps them in IndexedDB as records ([`Stored`]): the settings, a versioned
//! JSON [`Saved`] without documents, and the documents in parts, in the line format
//! ([`Document::write_line`]; 3x faster to write and 2x faster to read than JSON at 200,000
//! documents, and 40% smaller) or, when a document would not read back the same from its
//! line, as a JSON array. Studios saved before kept everything as one [`Saved`] in
//! `localStorage` under [`STORAGE_KEY`]; they are read once and moved.
//!
//! Reading never fails hard: a corrupt or foreign value is reported, and the caller sets it
//! aside (under [`SET_ASIDE_KEY`]) and starts from the sample.

use ravenshard::json::{self, null_as_default};
use ravenshard_model::workspace::{Document, Placement};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::ops::Range;

use super::PartRef;

/// The `localStorage` key of the saved studio.
pub const STORAGE_KEY: &str = "ravenshard-studio";

/// Where a saved studio that cannot be read is kept, so that nothing is lost.
pub const SET_ASIDE_KEY: &str = "ravenshard-studio.unreadable";

/// The version of [`Saved`] this build writes and reads.
pub const SAVED_VERSION: u32 = 1;

/// The studio as saved (read back with [`read_saved`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// [`SAVED_VERSION`] when written.
    pub version: u32,
    /// The database name.
    pub database: String,
    /// The nodes field.
    pub nodes: String,
    /// The replication factor field.
    pub replication_factor: String,
    /// The `ShardingConfiguration` JSON in force (with members).
    pub config: String,
    /// Whether the configuration was given as JSON (ranges or prefixes may be custom);
    /// `false` when missing.
    #[serde(default)]
    pub custom: bool,
    /// The documents (`null` reads as none).
    #[serde(deserialize_with = "null_as_default")]
    pub documents: Vec<Document>,
    /// The key of the tab shown ([`Tab::key`](crate::state::Tab::key)); studios saved before had
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
    /// What the import that made the documents kept of their bodies, so that a design
    /// turned on after a reload still says which fields it misses; studios saved before
    /// had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<crate::state::kept::SavedKept>,
    /// What was given to the Readiness view, so that a reload keeps what the user pasted;
    /// `None` (and not written) when nothing was, as in studios saved before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness: Option<SavedReadiness>,
}

/// The texts given to the Readiness view, as given (however bad: the check runs again on
/// them when asked). Every field is written, so that the settings cross to the save's
/// worker in its codec as they are; a missing one reads as empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedReadiness {
    /// The database record.
    #[serde(default)]
    pub record: String,
    /// The index definitions.
    #[serde(default)]
    pub indexes: String,
    /// The queries, one a line.
    #[serde(default)]
    pub queries: String,
    /// The `LoadDocument` relations, one a line.
    #[serde(default)]
    pub loads: String,
}

/// What IndexedDB holds: the settings ([`Saved`] as JSON, its documents empty, with the
/// [`Layout`] of the documents) and the documents in parts of at most [`PART_DOCUMENTS`]
/// documents and about [`PART_BYTES`] bytes ([`even_parts`]), each as [`write_documents`]
/// writes it: a part is written, stored and read back in a few milliseconds, so that a
/// million documents never hold the page in one task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The settings JSON.
    pub settings: String,
    /// The documents' parts, in order, as [`write_documents`] writes them.
    pub parts: Vec<String>,
}

/// The most documents in one part of the saved documents.
pub const PART_DOCUMENTS: usize = 16_384;
/// About the most bytes of one part of the saved documents (a longer document makes a
/// part of its own).
pub const PART_BYTES: usize = 1 << 20;

/// How the saved documents are kept, as the settings record says: in `document_parts`
/// parts (`None`: as one record, as studios saved before did) written by the save
/// `generation`, `document_count` in all,
/// with the bytes of their IDs and bodies, so that a restore reserves its tables once (a
/// table that outgrows its room is copied whole in one task; 0: not said, as studios saved
/// before wrote it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// How many parts (`None` in studios saved before: one record).
    #[serde(default)]
    pub document_parts: Option<usize>,
    /// The save that wrote the parts (a number its part keys carry, so that a save
    /// writes its parts beside the ones in force and swaps them in at its end); `None`:
    /// the parts are keyed by their index alone, as studios saved before wrote them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<u64>,
    /// How many documents in all (0 when not said).
    #[serde(default)]
    pub document_count: usize,
    /// The bytes of their IDs (0 when not said).
    #[serde(default)]
    pub id_bytes: usize,
    /// How many of them have a body (0 when not said).
    #[serde(default)]
    pub bodies: usize,
    /// The bytes of those bodies (0 when not said).
    #[serde(default)]
    pub body_bytes: usize,
    /// The parts in order, each under the key of the save that wrote it (a save after an
    /// edit keeps the parts it did not touch); `None` in studios saved before, whose parts
    /// are `generation`'s `0..document_parts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<PartRef>>,
}

impl Layout {
    /// The layout of `parts`, in order, written or kept by the save `generation`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::persist::{Layout, PartRef};
    ///
    /// let part = |generation, documents| PartRef { generation, documents, ..PartRef::default() };
    /// let layout = Layout::of_parts(7, vec![part(5, 100), part(7, 20)]);
    /// assert_eq!((layout.document_count, layout.document_parts), (120, Some(2)));
    /// assert_eq!(layout.part_keys(), Some(vec!["documents.5.0".to_string(), "documents.7.0".into()]));
    /// ```
    pub fn of_parts(generation: u64, parts: Vec<PartRef>) -> Layout {
        let sum = |f: fn(&PartRef) -> u64| parts.iter().map(f).sum::<u64>() as usize;
        Layout {
            document_parts: Some(parts.len()),
            generation: Some(generation),
            document_count: sum(|p| p.documents.into()),
            id_bytes: sum(|p| p.id_bytes),
            bodies: sum(|p| p.bodies.into()),
            body_bytes: sum(|p| p.body_bytes),
            parts: Some(parts),
        }
    }

    /// Where a restore of this layout that found the part `missing` not stored can read on
    /// in `newer`, the layout another save stored meanwhile: the index of that part, when
    /// `newer` names the same parts before it (a save keeps the parts an edit did not
    /// touch, and a part's key is never written twice; 0 when it names none of them: read
    /// `newer` whole). `None` when it cannot: `newer` still names `missing` (the part is
    /// lost, not replaced), or either layout is of a studio saved before parts had keys of
    /// their own.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::persist::{Layout, PartRef};
    ///
    /// let part = |generation, index| PartRef { generation, index, documents: 10, ..PartRef::default() };
    /// let old = Layout::of_parts(5, vec![part(5, 0), part(5, 1), part(5, 2)]);
    /// // Another save rewrote the last part only.
    /// let newer = Layout::of_parts(6, vec![part(5, 0), part(5, 1), part(6, 0)]);
    /// assert_eq!(old.read_on(&newer, "documents.5.2"), Some(2));
    /// // It rewrote them all: read it whole.
    /// let whole = Layout::of_parts(6, vec![part(6, 0), part(6, 1)]);
    /// assert_eq!(old.read_on(&whole, "documents.5.0"), Some(0));
    /// // It still names the part, or is of a studio saved before: no reading on.
    /// assert_eq!(old.read_on(&old, "documents.5.2"), None);
    /// assert_eq!(Layout::default().read_on(&newer, "documents"), None);
    /// ```
    pub fn read_on(&self, newer: &Layout, missing: &str) -> Option<usize> {
        let (old, new) = (self.parts.as_ref()?, newer.parts.as_ref()?);
        if new.iter().any(|p| p.key() == missing) {
            return None;
        }
        let at = old.iter().position(|p| p.key() == missing)?;
        (new.get(..at)? == old.get(..at)?).then_some(at)
    }

    /// The keys of the documents' records, in order; `None`: the one record
    /// [`DOCUMENTS_KEY`](crate::persist::records::DOCUMENTS_KEY) of studios saved before parts.
    pub fn part_keys(&self) -> Option<Vec<String>> {
        if let Some(parts) = &self.parts {
            return Some(parts.iter().map(PartRef::key).collect());
        }
        let count = self.document_parts?;
        Some(
            (0..count)
                .map(|i| crate::persist::records::layout_part_key(self.generation, i))
                .collect(),
        )
    }
}

/// The settings record of `settings` (its documents are not written), saying the
/// documents' `layout`.
pub fn settings_json(settings: &Saved, layout: &Layout) -> String {
    #[derive(Serialize)]
    struct Record<'a> {
        #[serde(flatten)]
        saved: &'a Saved,
        #[serde(flatten)]
        layout: &'a Layout,
    }
    let saved = Saved {
        documents: Vec::new(),
        ..settings.clone()
    };
    let record = Record {
        saved: &saved,
        layout,
    };
    // A struct of strings and numbers always serializes.
    serde_json::to_string(&record).unwrap_or_default()
}

/// The layout a settings record says (the default, one record, when it says none or
/// cannot be read: [`read_saved`] then says why).
pub fn read_layout(settings: &str) -> Layout {
    serde_json::from_str(settings).unwrap_or_default()
}

/// `documents` cut into parts of at most [`PART_DOCUMENTS`] documents and about
/// [`PART_BYTES`] bytes (a longer document makes a part of its own): as few parts as those
/// limits allow, cut where their bytes are even, so that no part is a sliver (a batch of
/// 16,385 documents makes two parts of about 8,192, not one of 16,384 and one of 1).
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::Document;
/// use ravenshard_studio::persist::{even_parts, PART_DOCUMENTS};
///
/// let small = vec![Document::new("orders/1-A"); 40_000];
/// assert_eq!(even_parts(&small), [0..13_334, 13_334..26_667, 26_667..40_000]);
/// assert_eq!(even_parts(&small[..10]), [0..10]);
/// let mut big = Document::new("big/1");
/// big.body = Some("x".repeat(3 << 20));
/// assert_eq!(even_parts(&[big.clone(), big]), [0..1, 1..2]);
/// assert!(even_parts(&[]).is_empty());
/// ```
pub fn even_parts(documents: &[Document]) -> Vec<Range<usize>> {
    let len = documents.len();
    let bytes: u64 = documents.iter().map(|d| line_bytes(d) as u64).sum();
    let count = len
        .div_ceil(PART_DOCUMENTS)
        .max(bytes.div_ceil(PART_BYTES as u64) as usize)
        .max(1) as u64;
    // The part a point falls in, were the documents, or their bytes, cut evenly into
    // `count` parts (whichever is further).
    let slot = |documents: usize, at: u64| {
        (documents as u64 * count / len.max(1) as u64).max(at * count / bytes.max(1))
    };
    let mut parts = Vec::with_capacity(count as usize);
    let (mut start, mut at, mut part_bytes, mut start_slot) = (0, 0, 0, 0);
    for (i, document) in documents.iter().enumerate() {
        let b = line_bytes(document) as u64;
        if i > start && (i - start >= PART_DOCUMENTS || part_bytes + b > PART_BYTES as u64) {
            parts.push(start..i);
            (start, part_bytes, start_slot) = (i, 0, slot(i, at));
        }
        (at, part_bytes) = (at + b, part_bytes + b);
        if slot(i + 1, at) > start_slot && i + 1 < len {
            parts.push(start..i + 1);
            (start, part_bytes, start_slot) = (i + 1, 0, slot(i + 1, at));
        }
    }
    if start < len {
        parts.push(start..len);
    }
    parts
}

impl Stored {
    /// The records of `settings` (its documents are not written) and `documents`.
    pub fn new(settings: &Saved, documents: &[Document]) -> Stored {
        let (written, parts): (Vec<PartRef>, Vec<String>) = even_parts(documents)
            .into_iter()
            .enumerate()
            .map(|(i, range)| PartRef::write(0, i as u32, &documents[range]))
            .unzip();
        // Keyed by index alone (`documents.0`, ...), as studios saved before keyed them.
        let layout = Layout {
            generation: None,
            parts: None,
            ..Layout::of_parts(0, written)
        };
        Stored {
            settings: settings_json(settings, &layout),
            parts,
        }
    }

    /// The bytes the records take (as UTF-8), for messages.
    pub fn len(&self) -> usize {
        self.settings.len() + self.parts.iter().map(String::len).sum::<usize>()
    }

    /// Whether both records are empty (never, for records made by [`Stored::new`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The studio the records describe, or why they cannot be used.
    pub fn read(&self) -> Result<Saved, String> {
        let mut saved = read_saved(&self.settings)?;
        for part in &self.parts {
            saved.documents.extend(read_documents(part)?);
        }
        Ok(saved)
    }
}

/// The first line of documents kept in the line format.
pub const LINES_HEADER: &str = "ravenshard documents lines 1\n";
/// The first line of documents kept as a JSON array.
const JSON_HEADER: &str = "ravenshard documents json 1\n";

/// The documents as one string: a header line, then one line per document
/// ([`Document::write_line`]) when every document reads back the same from its line
/// ([`Document::line_problem`]), else a JSON array ([`documents_json`]).
pub fn write_documents(documents: &[Document]) -> String {
    let mut text = String::with_capacity(lines_capacity(documents));
    text.push_str(LINES_HEADER);
    if write_lines(documents, &mut text) {
        text
    } else {
        documents_json(documents)
    }
}

/// About the bytes [`write_documents`] writes in the line format.
pub fn lines_capacity(documents: &[Document]) -> usize {
    LINES_HEADER.len() + documents.iter().map(line_bytes).sum::<usize>()
}

/// About the bytes [`write_documents`] writes for every document `placement` holds, read
/// from its tables (no document is made).
pub fn placement_lines_capacity(placement: &Placement) -> usize {
    let collections: usize = (0..placement.len())
        .map(|i| placement.collection(i).map_or(0, str::len))
        .sum();
    LINES_HEADER.len()
        + placement.id_bytes()
        + collections
        + placement.body_bytes()
        + LINE_BYTES * placement.len()
}

/// About the bytes of a line beyond its ID, collection and body (the size, the tabs, the
/// line break).
const LINE_BYTES: usize = 24;

/// About the bytes of `document`'s line.
fn line_bytes(document: &Document) -> usize {
    document.id.len()
        + document.collection.as_ref().map_or(0, String::len)
        + document.body.as_ref().map_or(0, String::len)
        + LINE_BYTES
}

/// Appends one line per document to `out`; `false` (and `out` partly written) as soon as a
/// document would not read back the same from its line: then keep [`documents_json`].
pub fn write_lines(documents: &[Document], out: &mut String) -> bool {
    for document in documents {
        if document.line_problem().is_some() {
            return false;
        }
        document.write_line(out);
        out.push('\n');
    }
    true
}

/// The documents as [`write_documents`] writes them when a line would not do: a header
/// line, then a JSON array.
pub fn documents_json(documents: &[Document]) -> String {
    // Documents always serialize (strings and numbers).
    let json = serde_json::to_string(documents).unwrap_or_default();
    format!("{JSON_HEADER}{json}")
}

/// Reads what [`write_documents`] wrote, or says why it cannot.
pub fn read_documents(text: &str) -> Result<Vec<Document>, String> {
    if let Some(lines) = text.strip_prefix(LINES_HEADER) {
        Document::parse_lines(lines)
            .map(|line| match line.bad_size {
                None => Ok(line.document),
                Some(bad) => Err(format!(
                    "the saved documents are damaged (line {}: size {bad:?} is not a whole \
                     number of bytes)",
                    line.line
                )),
            })
            .collect()
    } else if let Some(json) = text.strip_prefix(JSON_HEADER) {
        serde_json::from_str(json)
            .map_err(|e| format!("the saved documents are damaged (JSON: {e})"))
    } else {
        Err(
            "the saved documents are in a format this studio does not know (no \
             \"ravenshard documents\" header)"
                .into(),
        )
    }
}

/// The format version of a saved studio, read before the rest: a studio of another version
/// is named as such, not as damaged.
#[derive(Deserialize)]
#[serde(expecting = "struct Saved")]
struct Version {
    version: Option<u32>,
}

/// Reads a saved studio, or says why it cannot be used: not JSON, no or another format
/// version, or a value that is not what this version writes (the message names its path,
/// `documents[3].id`). Unknown keys are ignored.
pub fn read_saved(text: &str) -> Result<Saved, String> {
    let value = serde_json::from_str::<Value>(text)
        .map_err(|e| format!("the saved studio is not readable JSON ({e})"))?;
    let damaged = |e: json::Error| format!("the saved studio is damaged ({e})");
    let Version { version } = json::from_value(&value, "Saved").map_err(damaged)?;
    match version {
        Some(SAVED_VERSION) => json::from_value(value, "Saved").map_err(damaged),
        Some(v) => Err(format!(
            "the saved studio has format version {v}, this studio reads version \
             {SAVED_VERSION}"
        )),
        None => Err("the saved studio has no format version (an older studio wrote it)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAVED: &str = r#"{"version": 1, "database": "Orders", "nodes": "A, B", "replication_factor": "1", "config": "{}", "documents": [{"id": "a", "size": 3}]}"#;

    fn with(key: &str, value: Value) -> String {
        let mut saved: Value = serde_json::from_str(SAVED).unwrap();
        saved[key] = value;
        saved.to_string()
    }

    #[test]
    fn null_documents_are_none_and_numbers_are_checked() {
        let saved = read_saved(SAVED).unwrap();
        assert_eq!((saved.version, saved.documents.len()), (1, 1));
        let saved = read_saved(&with("documents", Value::Null)).unwrap();
        assert!(saved.documents.is_empty());
        let damaged = |key: &str, value: Value| read_saved(&with(key, value)).unwrap_err();
        assert_eq!(
            damaged("version", 1.0.into()),
            "the saved studio is damaged (version: invalid type: floating point `1.0`, \
             expected u32)"
        );
        assert_eq!(
            damaged("version", 4_294_967_297u64.into()),
            "the saved studio is damaged (version: invalid value: integer `4294967297`, \
             expected u32)"
        );
        assert_eq!(
            damaged("documents", serde_json::json!([{"id": "a", "size": 1.5}])),
            "the saved studio is damaged (documents[0].size: invalid type: floating point \
             `1.5`, expected u64)"
        );
        assert_eq!(
            read_saved("5").unwrap_err(),
            "the saved studio is damaged (invalid type: integer `5`, expected struct Saved)"
        );
    }

    /// A studio saved before the Readiness view's texts were kept reads without them, one
    /// without texts writes nothing new, and the texts (a record of several MB among them)
    /// read back as written.
    #[test]
    fn the_readiness_texts_are_optional_and_read_back() {
        let old = read_saved(SAVED).unwrap();
        assert_eq!(old.readiness, None);
        let written = settings_json(&old, &Layout::default());
        assert!(!written.contains("readiness"), "{written}");
        let record = format!(
            r#"{{"DatabaseName": "Shop", "Pad": "{}\n\"é\""}}"#,
            "x".repeat(3 << 20)
        );
        let saved = Saved {
            readiness: Some(SavedReadiness {
                record,
                queries: "from Orders\nstream: from Companies".into(),
                ..SavedReadiness::default()
            }),
            documents: Vec::new(),
            ..old
        };
        let back = read_saved(&settings_json(&saved, &Layout::default())).unwrap();
        assert_eq!(back, saved);
        // A texts object missing a field reads it as empty.
        let partial = with("readiness", serde_json::json!({"loads": "Orders.Company"}));
        let readiness = read_saved(&partial).unwrap().readiness.unwrap();
        assert_eq!(
            (readiness.loads.as_str(), readiness.record.as_str()),
            ("Orders.Company", "")
        );
    }

    fn document(
        id: &str,
        size: Option<u64>,
        collection: Option<&str>,
        body: Option<&str>,
    ) -> Document {
        Document {
            id: id.into(),
            size,
            collection: collection.map(Into::into),
            body: body.map(Into::into),
        }
    }

    #[test]
    fn documents_are_kept_as_lines_and_read_back_the_same() {
        let documents = vec![
            document(
                "orders/1-A",
                Some(120),
                Some("Orders"),
                Some(r#"{"Company":"companies/1-A"}"#),
            ),
            document("orders/2-A$companies/1-A", None, Some("Orders"), None),
            document(" users/4 ", Some(0), None, None),
            document("Ünïcode/1", None, None, Some("[1, 2]")),
        ];
        let text = write_documents(&documents);
        assert_eq!(
            text,
            "ravenshard documents lines 1\norders/1-A\t120\tOrders\t{\"Company\":\"companies/1-A\"}\n\
             orders/2-A$companies/1-A\t\tOrders\n users/4 \t0\nÜnïcode/1\t\t\t[1, 2]\n"
        );
        assert_eq!(read_documents(&text).unwrap(), documents);
        assert_eq!(read_documents(&write_documents(&[])).unwrap(), vec![]);
    }

    #[test]
    fn documents_a_line_would_change_are_kept_as_json() {
        let documents = vec![
            document("a\tb", None, None, None),
            document("c", Some(1), Some(" spaced "), Some("{\n  \"x\": 1\n}")),
        ];
        let text = write_documents(&documents);
        assert!(text.starts_with("ravenshard documents json 1\n["), "{text}");
        assert_eq!(read_documents(&text).unwrap(), documents);
    }

    #[test]
    fn many_documents_are_kept_in_parts_that_read_back_the_same() {
        let mut documents: Vec<Document> = (0..40_000)
            .map(|i| document(&format!("orders/{i}-A"), Some(i), Some("Orders"), None))
            .collect();
        // A document a line would change makes its part JSON; the others stay lines.
        documents[20_000].id = "tab\there".into();
        documents[39_000].body = Some("x".repeat(PART_BYTES));
        let saved = read_saved(SAVED).unwrap();
        let stored = Stored::new(&saved, &documents);
        let sizes: Vec<usize> = stored
            .parts
            .iter()
            .map(|p| read_documents(p).unwrap().len())
            .collect();
        assert_eq!(sizes, [13_334, 13_333, 12_333, 1, 999]);
        assert!(stored.parts[1].starts_with(JSON_HEADER));
        assert!(stored.parts[2].starts_with(LINES_HEADER));
        assert_eq!(stored.read().unwrap().documents, documents);
        assert_eq!(
            read_layout(&stored.settings),
            Layout {
                document_parts: Some(5),
                generation: None,
                document_count: 40_000,
                id_bytes: documents.iter().map(|d| d.id.len()).sum(),
                bodies: documents.iter().filter(|d| d.body.is_some()).count(),
                body_bytes: documents
                    .iter()
                    .filter_map(|d| d.body.as_ref())
                    .map(String::len)
                    .sum(),
                parts: None,
            }
        );
        // Settings without a layout (studios saved before) say one record.
        assert_eq!(read_layout(SAVED), Layout::default());
        let empty = Stored::new(&saved, &[]);
        assert!(empty.parts.is_empty());
        assert!(empty.read().unwrap().documents.is_empty());
    }

    #[test]
    fn damaged_documents_are_refused_with_the_reason() {
        assert_eq!(
            read_documents("[]").unwrap_err(),
            "the saved documents are in a format this studio does not know (no \
             \"ravenshard documents\" header)"
        );
        assert_eq!(
            read_documents("ravenshard documents lines 1\na\nb\tx1\n").unwrap_err(),
            "the saved documents are damaged (line 2: size \"x1\" is not a whole number of bytes)"
        );
        assert!(
            read_documents("ravenshard documents json 1\n[{\"size\": 1}]")
                .unwrap_err()
                .starts_with("the saved documents are damaged (JSON: missing field `id`")
        );
    }

    #[test]
    fn stored_records_keep_the_documents_apart_and_read_back() {
        let mut saved = read_saved(SAVED).unwrap();
        saved.tab = Some("nodes".into());
        let documents = vec![document("orders/1-A", Some(3), None, None)];
        let stored = Stored::new(&saved, &documents);
        assert!(
            !stored.settings.contains("orders/1-A"),
            "{}",
            stored.settings
        );
        assert_eq!(stored.len(), stored.settings.len() + stored.parts[0].len());
        assert_eq!(
            read_layout(&stored.settings),
            Layout {
                document_parts: Some(1),
                generation: None,
                document_count: 1,
                id_bytes: 10,
                bodies: 0,
                body_bytes: 0,
                parts: None,
            }
        );
        let back = stored.read().unwrap();
        assert_eq!(back.documents, documents);
        assert_eq!(back, Saved { documents, ..saved });
        // Settings without a tab (as studios saved before wrote them) read as none.
        assert_eq!(read_saved(SAVED).unwrap().tab, None);
    }
}
