//! The documents of the workspace as the editor's text, and back.

use ravenshard_model::workspace::Document;

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
