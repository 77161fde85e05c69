//! What can go wrong reading a document list: errors (the file cannot be read) and warnings
//! (an entry was skipped).

use ravenshard::{IdError, Notice};
use std::fmt;

/// Why a document list cannot be read. Nothing was imported: the caller keeps what it had.
///
/// Line numbers are 1-based; byte offsets and columns count bytes of the (decompressed) text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportError {
    /// A line (or CSV record) is not valid UTF-8.
    InvalidUtf8 {
        /// 1-based line of the bad byte.
        line: usize,
        /// Byte offset of the first bad byte from the start of the text.
        offset: u64,
    },
    /// A size is not a non-negative whole number.
    BadSize {
        /// 1-based line of the size.
        line: usize,
        /// The size as written.
        text: String,
    },
    /// A CSV row without a header has more than the three columns `id,size,collection`.
    CsvTooManyFields {
        /// 1-based line where the row starts.
        line: usize,
        /// How many fields the row has.
        fields: usize,
    },
    /// A quoted CSV field is never closed.
    CsvUnclosedQuote {
        /// 1-based line where the row starts.
        line: usize,
    },
    /// The JSON is malformed, ends early, or has a value of the wrong type.
    Json {
        /// Where the problem is: `$[3]`, `Docs[17].@metadata.@id`, or `$` for NDJSON lines.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in bytes).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A JSON object without a `Docs` array: neither a list nor a RavenDB export.
    NoDocsArray,
    /// The file is not a RavenDB export (neither gzip nor a JSON object).
    NotAnExport,
    /// The export is compressed with Zstandard, which cannot be read here.
    Zstd,
    /// The gzip data is corrupt.
    Gzip {
        /// Roughly where (in compressed bytes from the start of the file) it went wrong.
        offset: u64,
        /// What is wrong.
        message: String,
    },
    /// The gzip data ends inside a member (its header, compressed data or trailer): the file
    /// is incomplete.
    GzipTruncated {
        /// Compressed bytes read.
        offset: u64,
    },
    /// The file holds more than [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES) of text (counted
    /// after decompression).
    FileTooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// A line (or CSV record) is longer than [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES).
    LineTooLong {
        /// 1-based line where it starts.
        line: usize,
        /// The limit, in bytes.
        limit: usize,
    },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ImportError::*;
        match self {
            InvalidUtf8 { line, offset } => write!(
                f,
                "line {line}: invalid UTF-8 at byte {offset}. Save the file as UTF-8 and import \
                 it again."
            ),
            BadSize { line, text } => write!(
                f,
                "line {line}: the size '{text}' is not a whole number of bytes. Write sizes as \
                 non-negative integers (e.g. 1024), or leave the size out."
            ),
            CsvTooManyFields { line, fields } => write!(
                f,
                "line {line}: {fields} fields, but a CSV without a header has at most three \
                 (id,size,collection). Remove the extra columns, or add a header row naming \
                 the columns (Id, Size, Collection) so the others are ignored."
            ),
            CsvUnclosedQuote { line } => write!(
                f,
                "line {line}: a quoted field is never closed, so the rest of the file would \
                 be part of it. Add the closing quote."
            ),
            Json {
                path,
                line,
                column,
                message,
            } => write!(
                f,
                "{path}: invalid JSON at line {line}, column {column}: {message}. Fix the JSON \
                 there."
            ),
            NoDocsArray => write!(
                f,
                "$: a JSON object without a \"Docs\" array. Give an array of document IDs or \
                 documents, or a RavenDB export (which has \"Docs\")."
            ),
            NotAnExport => write!(
                f,
                "this is not a RavenDB export (.ravendbdump): an export is a gzip-compressed \
                 JSON object with a \"Docs\" array. Encrypted exports cannot be read: export \
                 again without an encryption key, or choose the file's real format."
            ),
            Zstd => write!(
                f,
                "this export is compressed with Zstandard (the RavenDB 6 default), which cannot \
                 be read here. Export again with Gzip compression (setting \
                 Export.Compression.Algorithm = Gzip), or decompress it first (zstd -d) and \
                 import the JSON."
            ),
            Gzip { offset, message } => write!(
                f,
                "not a valid gzip file (.ravendbdump): corrupt data near compressed byte \
                 {offset} ({message}). The file is damaged or incomplete: download or \
                 export it again."
            ),
            GzipTruncated { offset } => write!(
                f,
                "the gzip file (.ravendbdump) ends after {offset} bytes, before its compressed \
                 data does: the file is incomplete. Download or export it again."
            ),
            FileTooLarge { limit } => write!(
                f,
                "the file holds more than {} MiB ({limit} bytes) of text once decompressed, the \
                 most an import reads. Split it into smaller files (one export per collection, \
                 or a line format cut with `split -l`) and import them one at a time.",
                limit >> 20
            ),
            LineTooLong { line, limit } => write!(
                f,
                "line {line}: longer than {} MiB ({limit} bytes), the most a line of a line \
                 format or CSV holds. A line holds one document: check that the file's lines \
                 end with line breaks, or import the documents as a JSON list, whose elements \
                 are not limited this way.",
                limit >> 20
            ),
        }
    }
}

impl std::error::Error for ImportError {}

/// Where a skipped entry is in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A line of a line-based format (1-based; for CSV, where the row starts).
    Line(usize),
    /// An element of a JSON list.
    Element {
        /// Its path, such as `Docs[17]` or `$[3]`.
        path: String,
        /// The 1-based line where it starts.
        line: usize,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(line) => write!(f, "line {line}"),
            Location::Element { path, line } => write!(f, "{path} (line {line})"),
        }
    }
}

/// An entry that was skipped: the rest of the file was imported.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportWarning {
    /// The ID cannot be stored in RavenDB (empty, or longer than 512 bytes).
    InvalidId {
        /// Where the entry is.
        at: Location,
        /// What is wrong with its ID.
        error: IdError,
    },
    /// A document object with no string ID in `@metadata.@id`, `Id` or `id`.
    MissingId {
        /// Where the document is.
        at: Location,
    },
}

impl ImportWarning {
    /// Where the skipped entry is.
    pub fn location(&self) -> &Location {
        match self {
            ImportWarning::InvalidId { at, .. } | ImportWarning::MissingId { at } => at,
        }
    }
}

impl fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportWarning::InvalidId { at, error } => write!(f, "{at}: skipped: {error}"),
            ImportWarning::MissingId { at } => write!(
                f,
                "{at}: skipped: the document has no ID (a string in @metadata.@id, Id or id). \
                 Give it an ID."
            ),
        }
    }
}

impl From<&ImportWarning> for Notice {
    fn from(w: &ImportWarning) -> Notice {
        let kind = match w {
            ImportWarning::InvalidId { .. } => "invalid_id",
            ImportWarning::MissingId { .. } => "missing_id",
        };
        Notice {
            kind,
            message: w.to_string(),
        }
    }
}
