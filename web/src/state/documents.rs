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

/// The CSV export's header line.
pub const CSV_HEADER: &str = "id,bucket,shard,collection,size\n";

/// The CSV of every document of `placement` (`id,bucket,shard,collection,size`, one line
/// each, in input order; empty cells for unknown values and for documents that are not
/// placed): [`CSV_HEADER`] and [`write_csv_rows`] of them all. The studio
/// writes a large workspace's a range at a time instead.
pub fn documents_csv(placement: &Placement) -> String {
    let mut out = String::from(CSV_HEADER);
    write_csv_rows(placement, 0..placement.len(), &mut out);
    out
}

/// Appends the CSV lines of documents `range` of `placement` to `out` (past the end:
/// none). A row is read without its group's rank, which the CSV does not show (the rank
/// would sort every anchored group first).
pub fn write_csv_rows(placement: &Placement, range: std::ops::Range<usize>, out: &mut String) {
    for index in range {
        let Some(row) = placement.row_unranked(index) else {
            continue;
        };
        csv_field(out, row.id);
        out.push(',');
        if let Some(bucket) = row.bucket {
            let _ = write!(out, "{bucket}");
        }
        out.push(',');
        if let Some(shard) = row.shard {
            let _ = write!(out, "{shard}");
        }
        out.push(',');
        csv_field(out, row.collection.unwrap_or_default());
        out.push(',');
        if let Some(size) = row.size {
            let _ = write!(out, "{size}");
        }
        out.push('\n');
    }
}
