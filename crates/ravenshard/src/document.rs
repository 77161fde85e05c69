//! One document of a workspace, and its line in the editor's, the share link's and the
//! CLI's text format: `id`, `id<TAB>size` or `id<TAB>size<TAB>collection`.

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// One document of a workspace: its ID and, when known, its size and collection.
///
/// As JSON (serde's derive): `id` is required, `size`, `collection` and `body` may be
/// missing or `null`, and other keys are ignored.
///
/// # Examples
///
/// ```
/// use ravenshard::json::from_value;
/// use ravenshard::Document;
/// use serde_json::json;
///
/// let d: Document = from_value(json!({"id": "a", "size": 12, "collection": null}), "Document").unwrap();
/// assert_eq!((d.id.as_str(), d.size, d.collection), ("a", Some(12), None));
/// let e = from_value::<Vec<Document>>(json!([{"id": "a", "size": "12"}]), "").unwrap_err();
/// assert_eq!(e.to_string(), "[0].size: invalid type: string \"12\", expected u64");
/// let e = from_value::<Document>(json!({"size": 1}), "Document").unwrap_err();
/// assert_eq!(e.to_string(), "missing field `id`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// The document ID as stored (`orders/1-A`, `orders/2-A$customers/1-A`).
    pub id: String,
    /// The document's size in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The document's collection (`@metadata.@collection`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collection: Option<String>,
    /// The document's JSON, when known (imported from JSON, NDJSON or an export, or typed
    /// as the line format's fourth field). The chapter's content rules read its fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

impl Document {
    /// A document known by its ID only.
    ///
    /// # Examples
    ///
    /// ```
    /// let d = ravenshard::Document::new("orders/1-A");
    /// assert_eq!((d.size, d.collection), (None, None));
    /// ```
    pub fn new(id: impl Into<String>) -> Document {
        Document {
            id: id.into(),
            size: None,
            collection: None,
            body: None,
        }
    }

    /// Appends the document as one line of text, without the line break: `id`, then
    /// `<TAB>size`, `<TAB>collection` and `<TAB>body` as far as they are known (an empty
    /// collection counts as unknown; the body is JSON on one line, see [`one_line`]). This is
    /// the editor's, the share link's and `ravenshard bucket`'s input format.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::Document;
    ///
    /// let mut text = String::new();
    /// Document::new("users/4").write_line(&mut text);
    /// text.push('\n');
    /// let order = Document {
    ///     id: "orders/1-A".into(),
    ///     size: None,
    ///     collection: Some("Orders".into()),
    ///     body: Some("{\n  \"Customer\": \"customers/1-A\"\n}".into()),
    /// };
    /// order.write_line(&mut text);
    /// assert_eq!(text, "users/4\norders/1-A\t\tOrders\t{\"Customer\":\"customers/1-A\"}");
    /// ```
    pub fn write_line(&self, out: &mut String) {
        out.push_str(&self.id);
        let collection = self.collection.as_deref().filter(|c| !c.is_empty());
        let body = self.body.as_deref().filter(|b| !b.trim().is_empty());
        if self.size.is_some() || collection.is_some() || body.is_some() {
            out.push('\t');
            if let Some(size) = self.size {
                // Into `out`, not through a String of its own.
                let _ = write!(out, "{size}");
            }
        }
        if collection.is_some() || body.is_some() {
            out.push('\t');
            out.push_str(collection.unwrap_or_default());
        }
        if let Some(body) = body {
            out.push('\t');
            out.push_str(&one_line(body));
        }
    }
}

/// A JSON body on one line without tabs: as it is when it has no tab or line break, else
/// re-written compactly (JSON whitespace is insignificant; a body that is not JSON has its
/// tabs and line breaks turned into spaces).
pub fn one_line(body: &str) -> std::borrow::Cow<'_, str> {
    if break_at(body).is_none() {
        return std::borrow::Cow::Borrowed(body);
    }
    // from_slice, as the importers parse: one copy of serde_json's parser, not two.
    match serde_json::from_slice::<serde_json::Value>(body.as_bytes()) {
        Ok(value) => std::borrow::Cow::Owned(value.to_string()),
        Err(_) => std::borrow::Cow::Owned(body.replace(['\t', '\n', '\r'], " ")),
    }
}

/// Where `text`'s first tab or line break is, if it has one: a byte search (`memchr3`),
/// not a `char` pattern's, which decodes every character (saving a million generated
/// documents checked each line for these three: 208 ms of 368 natively at the studio's
/// size-optimised build, for 80 MB).
fn break_at(text: &str) -> Option<usize> {
    memchr::memchr3(b'\t', b'\n', b'\r', text.as_bytes())
}

/// One line of the text format, read by [`Document::parse_lines`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLine {
    /// 1-based line number in the text.
    pub line: usize,
    /// The document. A size that could not be read is left unknown.
    pub document: Document,
    /// The size field, when it is not a whole number of bytes (digits only, at most
    /// `u64::MAX`). Each reader decides: the studio notes and ignores it, a share link is
    /// refused.
    pub bad_size: Option<String>,
}

impl Document {
    /// Why this document's [`write_line`](Document::write_line) would not read back as the
    /// same document with [`parse_lines`](Document::parse_lines), or `None` when it would:
    /// an empty or blank ID, a tab or line break in the ID or the collection, or a
    /// collection that is empty or has spaces around it.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::Document;
    ///
    /// assert_eq!(Document::new("orders/1-A").line_problem(), None);
    /// assert_eq!(Document::new("a\tb").line_problem().as_deref(), Some("the ID has a tab or line break at byte 1"));
    /// assert!(Document::new("  ").line_problem().is_some());
    /// ```
    pub fn line_problem(&self) -> Option<String> {
        if self.id.trim().is_empty() {
            return Some("the ID is empty or blank".into());
        }
        if let Some(at) = break_at(&self.id) {
            return Some(format!("the ID has a tab or line break at byte {at}"));
        }
        if let Some(body) = &self.body {
            if body.trim().is_empty() || body.trim() != body || break_at(body).is_some() {
                return Some(
                    "the body is blank, has spaces around it, or has a tab or line break".into(),
                );
            }
        }
        let collection = self.collection.as_deref()?;
        if let Some(at) = break_at(collection) {
            return Some(format!(
                "the collection has a tab or line break at byte {at}"
            ));
        }
        (collection.is_empty() || collection.trim() != collection)
            .then(|| "the collection is empty or has spaces around it".to_string())
    }

    /// Reads text in the line format with the [`lines`](crate::lines) reader: one document
    /// per line (`\n` or `\r\n`), blank lines skipped. The ID is taken as it is; the size,
    /// the collection and the body are trimmed, and an empty one is unknown. The inverse of
    /// [`write_line`](Document::write_line) for every document whose ID has no tab or line
    /// break.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::Document;
    ///
    /// let lines: Vec<_> = Document::parse_lines("orders/1-A\t120\tOrders\r\n\n users/4 \tabc").collect();
    /// assert_eq!(lines.len(), 2);
    /// assert_eq!(lines[0].document.size, Some(120));
    /// assert_eq!(lines[0].document.collection.as_deref(), Some("Orders"));
    /// assert_eq!((lines[1].line, lines[1].document.id.as_str()), (3, " users/4 "));
    /// assert_eq!(lines[1].bad_size.as_deref(), Some("abc"));
    /// ```
    pub fn parse_lines(text: &str) -> impl Iterator<Item = DocumentLine> + '_ {
        crate::lines::documents(text).map(|(line, fields)| {
            let (size, bad_size) = match fields.size() {
                Ok(size) => (size, None),
                Err(bad) => (None, Some(bad.text)),
            };
            DocumentLine {
                line,
                document: Document {
                    id: fields.id.to_string(),
                    size,
                    collection: fields.collection.map(str::to_string),
                    body: fields.body.map(str::to_string),
                },
                bad_size,
            }
        })
    }
}
