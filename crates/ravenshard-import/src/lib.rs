//! # ravenshard-import
//!
//! Reading document lists from files: plain text, CSV, JSON, NDJSON and RavenDB exports.
//!
//! | [`Format`] | What it holds |
//! |---|---|
//! | [`Text`](Format::Text) | the line format (the editor's): `id[<TAB>size[<TAB>collection[<TAB>body]]]`, read by [`ravenshard::lines`] |
//! | [`Csv`](Format::Csv) | `id[,size[,collection]]` rows, RFC 4180 quoting, optional header |
//! | [`Json`](Format::Json) | an array of IDs or of documents (or an object with `Docs`) |
//! | [`Ndjson`](Format::Ndjson) | one ID (JSON string) or document (JSON object) per line |
//! | [`RavenDump`](Format::RavenDump) | a `.ravendbdump`: gzip of `{"BuildVersion": .., "Docs": [..], ..}` |
//!
//! A RavenDB bucket statistics answer (`debug/sharding/buckets`) is not a document list:
//! [`is_bucket_statistics`] tells it by its first bytes, so that it is read as statistics.
//!
//! Any format may be gzip-compressed; compression is recognised by its magic bytes and
//! undone by flate2 (multi-member files included).
//! Line formats accept `\r\n` and a UTF-8 byte-order mark and skip blank lines.
//!
//! A document object's ID is `@metadata.@id`, else `Id`, else `id`; its collection is
//! `@metadata.@collection`; its size is the length in bytes of its JSON text without
//! insignificant whitespace, which is the length of `serde_json::to_string` of it for text
//! written as RavenDB writes exports. This approximates the stored size: RavenDB stores
//! documents as blittable JSON, usually somewhat smaller than the text.
//!
//! **Errors and warnings.** A file that cannot be read (bad syntax, a bad size, corrupt
//! compression, invalid UTF-8) is an [`ImportError`] that says what is wrong, where (line,
//! byte offset or JSON path with line and column) and what to do; nothing is imported. An
//! entry whose ID RavenDB would refuse (empty, or over 512 bytes) or a document object with
//! no ID is skipped and counted with an [`ImportWarning`]: one bad entry in a big file need
//! not stop the rest.
//!
//! **Incremental.** [`Importer`] takes the input in chunks, so a page can read a big file
//! without freezing: feed it chunks of [`Importer::next_chunk_len`] bytes from a file
//! reader, yield to the event loop between them, and show [`Importer::progress`]. All formats parse as chunks
//! arrive (JSON lists element by element), and gzip inflates as they arrive; memory holds
//! the documents plus the element or line in progress, or only the latter for a reader that
//! [takes](Importer::take_documents) the documents as they come. To cancel, drop the
//! `Importer`.
//! [`import`] does it all in one call.
//!
//! # Examples
//!
//! ```
//! use ravenshard_import::{Format, Importer};
//!
//! let file = b"id,size,collection\norders/1-A,1200,Orders\n\"x,y\",12,\n";
//! let mut importer = Importer::new(Format::Csv, Some(file.len() as u64));
//! for chunk in file.chunks(16) {
//!     importer.push(chunk)?;
//!     let progress = importer.progress();
//!     assert!(progress.fraction().unwrap() <= 1.0);
//! }
//! let imported = importer.finish()?;
//! assert_eq!(imported.documents.len(), 2);
//! assert_eq!(imported.documents[0].collection.as_deref(), Some("Orders"));
//! assert_eq!(imported.documents[1].id, "x,y");
//! # Ok::<(), ravenshard_import::ImportError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod csv;
pub mod csv_export;
mod decode;
mod entry;
mod error;
mod fields;
mod format;
mod gzip;
mod json;
mod lines;
mod statistics;
mod trail;

pub use error::{ImportError, ImportWarning, Location};
pub use fields::FieldPaths;
pub use format::{Format, UnknownFormat, ACCEPT, DETECT_BYTES};
pub use statistics::is_bucket_statistics;

use decode::Decoder;
pub use entry::{BodiesDropped, MAX_BODY_BYTES};
use entry::{Keep, Sink};
use lines::Splitter;
use ravenshard::document::Document;

/// At most this many [`ImportWarning`]s are kept; [`Imported::skipped`] counts them all.
pub const MAX_WARNINGS: usize = 100;

/// The largest file an import reads: 4 GiB of text, counted after decompression (so a
/// small gzip file cannot inflate without end). A larger one is refused with
/// [`ImportError::FileTooLarge`], which says to split it. A workspace holds at most 4 GiB of
/// IDs anyway, and a page's wasm at most 4 GiB of memory.
pub const MAX_FILE_BYTES: u64 = 4 << 30;

/// The longest line of a line format (text, NDJSON) or record of a CSV file: 64 MiB,
/// refused with [`ImportError::LineTooLong`]. A line holds one document; a file without
/// line breaks (a JSON list read as lines, a binary file) would otherwise be held whole.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// What an import produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Imported {
    /// The documents, in file order (duplicates kept).
    pub documents: Vec<Document>,
    /// Why entries were skipped: the first [`MAX_WARNINGS`] of them.
    pub warnings: Vec<ImportWarning>,
    /// How many entries were skipped in all (at least `warnings.len()`).
    pub skipped: usize,
    /// The documents that kept no body: an import holds at most [`MAX_BODY_BYTES`] of
    /// bodies at once. Say it to the user ([`BodiesDropped`]'s `Display`).
    pub bodies_dropped: BodiesDropped,
}

/// How far an import is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Bytes pushed so far (compressed bytes for a compressed file).
    pub bytes_read: u64,
    /// The file's length, when the caller gave it.
    pub total: Option<u64>,
}

impl Progress {
    /// `bytes_read / total` between 0 and 1, when the total is known.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::Progress;
    ///
    /// assert_eq!(Progress { bytes_read: 5, total: Some(20) }.fraction(), Some(0.25));
    /// assert_eq!(Progress { bytes_read: 5, total: Some(0) }.fraction(), Some(1.0));
    /// assert_eq!(Progress { bytes_read: 5, total: None }.fraction(), None);
    /// ```
    pub fn fraction(self) -> Option<f64> {
        self.total.map(|total| match total {
            0 => 1.0,
            t => (self.bytes_read as f64 / t as f64).min(1.0),
        })
    }
}

/// The reader of one format, fed decoded bytes.
#[derive(Debug)]
enum Reader {
    Text(Splitter),
    Csv(Box<csv::CsvReader>),
    Ndjson(Splitter),
    Json(json::JsonReader),
}

impl Reader {
    fn new(format: Format) -> Reader {
        match format {
            Format::Text => Reader::Text(Splitter::new()),
            Format::Csv => Reader::Csv(Box::new(csv::CsvReader::new())),
            Format::Ndjson => Reader::Ndjson(Splitter::new()),
            Format::Json => Reader::Json(json::JsonReader::new(false)),
            Format::RavenDump => Reader::Json(json::JsonReader::new(true)),
        }
    }

    fn feed(&mut self, bytes: &[u8], sink: &mut Sink) -> Result<(), ImportError> {
        match self {
            Reader::Text(split) => split.feed(bytes, &mut |r| lines::text_line(r, sink)),
            Reader::Ndjson(split) => split.feed(bytes, &mut |r| lines::ndjson_line(r, sink)),
            Reader::Csv(csv) => csv.feed(bytes, sink),
            Reader::Json(json) => json.feed(bytes, sink),
        }
    }

    /// [`feed`](Reader::feed), adding the bytes to `decoded` and refusing them past
    /// [`MAX_FILE_BYTES`].
    fn feed_counted(
        &mut self,
        bytes: &[u8],
        sink: &mut Sink,
        decoded: &mut u64,
    ) -> Result<(), ImportError> {
        *decoded += bytes.len() as u64;
        if *decoded > MAX_FILE_BYTES {
            return Err(ImportError::FileTooLarge {
                limit: MAX_FILE_BYTES,
            });
        }
        self.feed(bytes, sink)
    }

    fn finish(&mut self, sink: &mut Sink) -> Result<(), ImportError> {
        match self {
            Reader::Text(split) => split.finish(&mut |r| lines::text_line(r, sink)),
            Reader::Ndjson(split) => split.finish(&mut |r| lines::ndjson_line(r, sink)),
            Reader::Csv(csv) => csv.finish(sink),
            Reader::Json(json) => json.finish(sink),
        }
    }
}

/// Reads a document list chunk by chunk: [`push`](Importer::push) the file's bytes in any
/// pieces, then [`finish`](Importer::finish). Each push does work in proportion to its
/// chunk (times the compression ratio), so small chunks keep a page responsive.
///
/// To cancel, drop the importer: nothing else holds on to its work. After an error, every
/// further call returns that error.
///
/// # Examples
///
/// ```
/// use ravenshard_import::{Format, ImportError, Importer};
///
/// let mut importer = Importer::new(Format::Text, None);
/// importer.push(b"orders/1-A\t1200\r\norders/2")?;
/// assert_eq!(importer.documents_so_far(), 1);
/// importer.push(b"-A\n")?;
/// assert_eq!(importer.documents_so_far(), 2);
/// assert_eq!(importer.progress().bytes_read, 28);
/// let imported = importer.finish()?;
/// assert_eq!(imported.documents[0].size, Some(1200));
/// assert_eq!(imported.documents[1].id, "orders/2-A");
///
/// let mut importer = Importer::new(Format::Text, None);
/// let err = importer.push(b"a\n\nb\tlarge\n").unwrap_err();
/// assert_eq!(err, ImportError::BadSize { line: 3, text: "large".into() });
/// assert_eq!(
///     err.to_string(),
///     "line 3: the size 'large' is not a whole number of bytes. Write sizes as non-negative \
///      integers (e.g. 1024), or leave the size out."
/// );
/// # Ok::<(), ImportError>(())
/// ```
#[derive(Debug)]
pub struct Importer {
    format: Format,
    total: Option<u64>,
    bytes_read: u64,
    decoder: Decoder,
    reader: Reader,
    sink: Sink,
    /// Documents handed out by [`take_documents`](Importer::take_documents).
    taken: usize,
    /// Bytes decoded so far (after decompression), at most [`MAX_FILE_BYTES`].
    decoded: u64,
    failed: Option<ImportError>,
}

impl Importer {
    /// An importer for `format`; `total_len` is the file's length in bytes, if known, for
    /// [`progress`](Importer::progress).
    pub fn new(format: Format, total_len: Option<u64>) -> Importer {
        Importer {
            format,
            total: total_len,
            bytes_read: 0,
            decoder: Decoder::new(),
            reader: Reader::new(format),
            sink: Sink::default(),
            taken: 0,
            decoded: 0,
            failed: None,
        }
    }

    /// The same importer, keeping no document bodies: for readers that need IDs, sizes and
    /// collections only (the CLI), so memory holds no document text.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::{Format, Importer};
    ///
    /// let mut importer = Importer::new(Format::Ndjson, None).without_bodies();
    /// importer.push(br#"{"Id": "a", "Name": "x"}"#)?;
    /// let imported = importer.finish()?;
    /// assert_eq!((imported.documents[0].size, imported.documents[0].body.as_deref()), (Some(21), None));
    /// assert!(imported.bodies_dropped.is_empty());
    /// # Ok::<(), ravenshard_import::ImportError>(())
    /// ```
    pub fn without_bodies(mut self) -> Importer {
        self.sink.keep = Keep::Nothing;
        self
    }

    /// The same importer, keeping of each document object only the values at `fields`
    /// (as a JSON object holding just them, [`FieldPaths::prune`]), never its whole body:
    /// what a design's placement reads ([`FieldPaths::of_design`]). No fields: no bodies,
    /// as [`without_bodies`](Importer::without_bodies).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::{FieldPaths, Format, Importer};
    ///
    /// let fields = FieldPaths::new(["Customer"]);
    /// let mut importer = Importer::new(Format::Ndjson, None).keeping_fields(fields);
    /// importer.push(br#"{"Id": "orders/1", "Customer": "customers/1", "Lines": [1, 2, 3]}"#)?;
    /// let imported = importer.finish()?;
    /// let document = &imported.documents[0];
    /// assert_eq!(document.body.as_deref(), Some(r#"{"Customer":"customers/1"}"#));
    /// assert_eq!(document.size, Some(58)); // the whole document's
    /// # Ok::<(), ravenshard_import::ImportError>(())
    /// ```
    pub fn keeping_fields(mut self, fields: FieldPaths) -> Importer {
        self.sink.keep = match fields.is_empty() {
            true => Keep::Nothing,
            false => Keep::Fields(fields),
        };
        self
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Reads the next chunk of the file.
    ///
    /// # Errors
    ///
    /// The first problem in the file: see [`ImportError`]. Syntax errors in JSON lists and
    /// unclosed CSV quotes may only be detected by [`finish`](Importer::finish).
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.bytes_read += chunk.len() as u64;
        let Importer {
            decoder,
            reader,
            sink,
            decoded,
            ..
        } = self;
        let result = decoder.push(chunk, &mut |bytes| {
            reader.feed_counted(bytes, sink, decoded)
        });
        self.fail_on(result)
    }

    fn fail_on(&mut self, result: Result<(), ImportError>) -> Result<(), ImportError> {
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    /// How many bytes have been pushed, out of how many.
    pub fn progress(&self) -> Progress {
        Progress {
            bytes_read: self.bytes_read,
            total: self.total,
        }
    }

    /// How many bytes to push next to keep each [`push`](Importer::push) short (a few
    /// milliseconds natively, well under the 200 ms a page may block): 1 MiB of plain
    /// input, 64 KiB once the input turned out to be compressed (inflating multiplies the
    /// work by the compression ratio, 5 to 30 for exports), 64 KiB before the first push.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::{Format, Importer};
    ///
    /// let mut importer = Importer::new(Format::Text, None);
    /// assert_eq!(importer.next_chunk_len(), 64 << 10);
    /// importer.push(b"orders/1-A\n").unwrap();
    /// assert_eq!(importer.next_chunk_len(), 1 << 20);
    /// ```
    pub fn next_chunk_len(&self) -> usize {
        match self.decoder {
            Decoder::Plain => 1 << 20,
            Decoder::Sniffing(_) | Decoder::Gzip(_) => 64 << 10,
        }
    }

    /// How many documents have been read so far (taken ones included).
    pub fn documents_so_far(&self) -> usize {
        self.taken + self.sink.documents.len()
    }

    /// The documents read since the last call, in file order, handed over: a reader that
    /// uses each document once (the CLI) takes them after every push, so memory holds only
    /// the documents of a chunk. [`finish`](Importer::finish) returns the rest. Bodies taken
    /// no longer count towards [`MAX_BODY_BYTES`], which limits the bodies held at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_import::{Format, Importer};
    ///
    /// let mut importer = Importer::new(Format::Text, None);
    /// importer.push(b"a\nb\nc")?;
    /// let first: Vec<String> = importer.take_documents().into_iter().map(|d| d.id).collect();
    /// assert_eq!(first, ["a", "b"]);
    /// assert_eq!(importer.documents_so_far(), 2);
    /// assert_eq!(importer.finish()?.documents[0].id, "c");
    /// # Ok::<(), ravenshard_import::ImportError>(())
    /// ```
    pub fn take_documents(&mut self) -> Vec<Document> {
        let documents = std::mem::take(&mut self.sink.documents);
        self.taken += documents.len();
        // Bodies handed over are no longer held: the limit is on what memory holds at once.
        let handed: usize = documents
            .iter()
            .filter_map(|d| d.body.as_ref())
            .map(String::len)
            .sum();
        self.sink.body_bytes -= handed;
        documents
    }

    /// How many entries have been skipped so far.
    pub fn skipped_so_far(&self) -> usize {
        self.sink.skipped
    }

    /// Reads what is left (a last line without a newline) and checks that the file is
    /// complete.
    ///
    /// # Errors
    ///
    /// An error from an earlier [`push`](Importer::push), or one at the end of the file: a
    /// truncated gzip stream, a JSON list that is not closed, an unclosed CSV quote.
    pub fn finish(mut self) -> Result<Imported, ImportError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let Importer {
            decoder,
            reader,
            sink,
            decoded,
            ..
        } = &mut self;
        decoder.finish(&mut |bytes| reader.feed_counted(bytes, sink, decoded))?;
        reader.finish(sink)?;
        let Sink {
            documents,
            warnings,
            skipped,
            bodies_dropped,
            ..
        } = self.sink;
        Ok(Imported {
            documents,
            warnings,
            skipped,
            bodies_dropped,
        })
    }
}

/// Reads a whole document list at once.
///
/// # Errors
///
/// The first problem in the file: see [`ImportError`].
///
/// # Examples
///
/// ```
/// use ravenshard_import::{import, Format, ImportError, ImportWarning, Location};
///
/// let json = br#"[{"Name": "x", "@metadata": {"@id": "orders/1-A", "@collection": "Orders"}}, ""]"#;
/// let imported = import(json, Format::Json)?;
/// assert_eq!(imported.documents[0].id, "orders/1-A");
/// assert_eq!(imported.documents[0].size, Some(68)); // its compact JSON length
/// assert_eq!(imported.skipped, 1);
/// assert!(matches!(&imported.warnings[0], ImportWarning::InvalidId { at: Location::Element { path, line: 1 }, .. } if path == "$[1]"));
///
/// let err = import(b"[\"a\",\n 7]", Format::Json).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "$[1]: invalid JSON at line 2, column 2: expected a document ID (a JSON string) or a \
///      document (a JSON object), found a number. Fix the JSON there."
/// );
/// # Ok::<(), ImportError>(())
/// ```
pub fn import(bytes: &[u8], format: Format) -> Result<Imported, ImportError> {
    let mut importer = Importer::new(format, Some(bytes.len() as u64));
    importer.push(bytes)?;
    importer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_the_limit_is_refused_once_decoded() {
        // As if 4 GiB less two bytes had been read already: the next three bytes are one too
        // many, in any format and compressed or not.
        for format in [Format::Text, Format::Json] {
            let mut importer = Importer::new(format, None);
            importer.decoded = MAX_FILE_BYTES - 2;
            let limit = MAX_FILE_BYTES;
            assert_eq!(
                importer.push(b"abc"),
                Err(ImportError::FileTooLarge { limit })
            );
            assert_eq!(
                importer.finish().unwrap_err(),
                ImportError::FileTooLarge { limit }
            );
        }
        let mut importer = Importer::new(Format::Text, None);
        importer.decoded = MAX_FILE_BYTES - 2;
        assert!(importer.push(b"ab").is_ok());
        let message = ImportError::FileTooLarge {
            limit: MAX_FILE_BYTES,
        }
        .to_string();
        assert_eq!(
            message,
            "the file holds more than 4096 MiB (4294967296 bytes) of text once decompressed, \
             the most an import reads. Split it into smaller files (one export per \
             collection, or a line format cut with `split -l`) and import them one at a time."
        );
    }
}
