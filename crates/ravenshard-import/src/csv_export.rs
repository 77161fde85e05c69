//! ravenshard's own CSV export (the studio's *Export CSV*): its header, how its cells are
//! written, and how this crate's CSV reader reads them back.
//!
//! **Cells are neutralised for spreadsheets.** A cell that begins with `=`, `+`, `-`, `@`,
//! a tab, a carriage return or a NUL is a formula (or becomes one) when Excel, LibreOffice
//! Calc or Google Sheets open the file (CSV or formula injection; OWASP ASVS 1.2.10). The
//! export writes such a cell with a `'` in front, which these tools show as text. A cell that
//! already begins with one or more `'` followed by one of those characters gets one more, so
//! that reading back is exact.
//!
//! **Reading back.** The header line [`EXPORT_HEADER`] marks a ravenshard export. In a file
//! that starts with exactly that header, the CSV reader takes one `'` off a cell that begins
//! with `'` followed by `'`s and one of those characters: write-then-read gives the IDs and
//! collections back unchanged. The header survives a spreadsheet's editing (an edited
//! export is read back the same way). In any other CSV a leading `'` is data and is kept: a
//! real ID may begin with `'` or `-`.
//!
//! # Examples
//!
//! ```
//! use ravenshard_import::csv_export::{write_cell, EXPORT_HEADER};
//! use ravenshard_import::{import, Format};
//!
//! let mut file = String::from(EXPORT_HEADER);
//! for id in ["-1", "=cmd|'/c calc'!A1", "orders/1-A"] {
//!     write_cell(&mut file, id);
//!     file.push_str(",1,0,,\n");
//! }
//! assert_eq!(file, "id,bucket,shard,collection,size\n'-1,1,0,,\n'=cmd|'/c calc'!A1,1,0,,\norders/1-A,1,0,,\n");
//! let ids: Vec<String> = import(file.as_bytes(), Format::Csv)?.documents.into_iter().map(|d| d.id).collect();
//! assert_eq!(ids, ["-1", "=cmd|'/c calc'!A1", "orders/1-A"]);
//!
//! // A foreign CSV keeps its leading `'`.
//! let foreign = import(b"id\n'-1\n", Format::Csv)?;
//! assert_eq!(foreign.documents[0].id, "'-1");
//! # Ok::<(), ravenshard_import::ImportError>(())
//! ```

/// The header line of ravenshard's CSV export, which marks its cells as neutralised.
pub const EXPORT_HEADER: &str = "id,bucket,shard,collection,size\n";

/// The characters that make a spreadsheet read a cell that begins with one as a formula.
pub const FORMULA_STARTS: [char; 7] = ['=', '+', '-', '@', '\t', '\r', '\0'];

/// Whether `cell`, after any leading `'`s, begins with one of [`FORMULA_STARTS`]: the cells
/// the export writes with one more `'`.
///
/// # Examples
///
/// ```
/// use ravenshard_import::csv_export::needs_quote_mark;
///
/// assert!(needs_quote_mark("-1"));
/// assert!(needs_quote_mark("''@x"));
/// assert!(!needs_quote_mark("'x"));
/// assert!(!needs_quote_mark("orders/1-A"));
/// ```
pub fn needs_quote_mark(cell: &str) -> bool {
    cell.trim_start_matches('\'').starts_with(FORMULA_STARTS)
}

/// Appends `cell` to `out` as the export writes it: neutralised (see the module's
/// documentation), then quoted as RFC 4180 says when it holds a comma, a quote or a line
/// break.
///
/// # Examples
///
/// ```
/// use ravenshard_import::csv_export::write_cell;
///
/// let mut out = String::new();
/// write_cell(&mut out, "@SUM(A1,A2)");
/// assert_eq!(out, "\"'@SUM(A1,A2)\"");
/// ```
pub fn write_cell(out: &mut String, cell: &str) {
    let mark = if needs_quote_mark(cell) { "'" } else { "" };
    if cell.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(mark);
        out.push_str(&cell.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(mark);
        out.push_str(cell);
    }
}

/// A cell of a ravenshard export as it was before [`write_cell`] neutralised it: one `'` taken
/// off when the rest [`needs_quote_mark`]; any other cell unchanged.
///
/// # Examples
///
/// ```
/// use ravenshard_import::csv_export::restore_cell;
///
/// assert_eq!(restore_cell("'-1"), "-1");
/// assert_eq!(restore_cell("'''=x"), "''=x");
/// assert_eq!(restore_cell("'x"), "'x");
/// assert_eq!(restore_cell("-1"), "-1");
/// ```
pub fn restore_cell(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if needs_quote_mark(rest) => rest,
        _ => cell,
    }
}

/// Whether a CSV file's header row is [`EXPORT_HEADER`]'s, cell for cell and exactly.
pub(crate) fn is_export_header(fields: &[&str]) -> bool {
    EXPORT_HEADER
        .trim_end()
        .split(',')
        .eq(fields.iter().copied())
}
