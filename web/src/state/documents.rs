//! The documents of the workspace as the editor's text, and back; the CSV export.

use ravenshard_model::workspace::{Document, Placement};
use std::fmt::Write as _;

/// The editor's text read as documents: one per non-blank line, `id`, `id<TAB>size` or
/// `id<TAB>size<TAB>collection`. A size that is not a whole number is ignored and reported.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// The documents, in line order.
    pub documents: Vec<Document>,
    /// Problems found (at most [`MAX_PARSE_NOTES`]).
    pub notes: Vec<String>,
}

/// The most editor problems listed.
pub const MAX_PARSE_NOTES: usize = 5;

/// Reads the editor's text. Lines may end with `\n` or `\r\n`; blank lines are skipped.
pub fn parse_documents(text: &str) -> Parsed {
    parse_documents_at(text, 0)
}

/// Reads a part of the editor's text that begins after `lines_before` lines (the line
/// numbers in the notes count them).
pub fn parse_documents_at(text: &str, lines_before: usize) -> Parsed {
    let mut parsed = Parsed::default();
    for line in Document::parse_lines(text) {
        if let Some(size) = &line.bad_size {
            if parsed.notes.len() < MAX_PARSE_NOTES {
                parsed.notes.push(format!(
                    "Line {}: the size '{}' is not a whole number of bytes; it is ignored.",
                    lines_before + line.line,
                    super::inputs::preview(size)
                ));
            }
        }
        parsed.documents.push(line.document);
    }
    parsed
}

/// The documents as the editor's text: `id`, then `<TAB>size` and `<TAB>collection` when
/// known.
pub fn documents_text(documents: &[Document]) -> String {
    let mut text = String::with_capacity(documents.iter().map(|d| d.id.len() + 12).sum());
    for document in documents {
        document.write_line(&mut text);
        text.push('\n');
    }
    text
}

/// One CSV field, quoted when needed (RFC 4180).
fn csv_field(out: &mut String, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

/// Every document as CSV: `id,bucket,shard,collection,size` (empty cells for unknown
/// values and for documents that are not placed).
pub fn documents_csv(placement: &Placement) -> String {
    let mut out = String::from("id,bucket,shard,collection,size\n");
    for index in 0..placement.len() {
        let Some(row) = placement.row(index) else {
            continue;
        };
        csv_field(&mut out, row.id);
        out.push(',');
        if let Some(bucket) = row.bucket {
            let _ = write!(out, "{bucket}");
        }
        out.push(',');
        if let Some(shard) = row.shard {
            let _ = write!(out, "{shard}");
        }
        out.push(',');
        csv_field(&mut out, row.collection.unwrap_or_default());
        out.push(',');
        if let Some(size) = row.size {
            let _ = write!(out, "{size}");
        }
        out.push('\n');
    }
    out
}
