//! CSV: `id[,size[,collection]]` rows with RFC 4180 quoting, with or without a header row.
//!
//! Records are split into fields by `csv-core`, which takes the input in chunks as they
//! arrive. Fields may be quoted (`"a,b"`, `"say ""hi"""`) and quoted fields may span lines.
//! As `csv-core` (and Python's `csv`) read it, text after a closing quote is kept (`"a"b`
//! reads `ab`); a quote that is never closed is an error, since the rest of the file would
//! silently become one field.

use super::csv_export::{is_export_header, restore_cell};
use super::entry::Sink;
use super::{ImportError, ImportWarning, Location, MAX_LINE_BYTES};
use csv_core::{ReadRecordResult, Reader, ReaderBuilder, Terminator};
use ravenshard::lines::parse_size;
use std::fmt;

/// Which column holds what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Columns {
    id: usize,
    size: Option<usize>,
    collection: Option<usize>,
    /// Without a header only `id,size,collection` may be given; with one, more columns are
    /// ignored.
    header: bool,
    /// The header is ravenshard's own export's: its cells were neutralised for spreadsheets
    /// and are restored ([`csv_export`](crate::csv_export)).
    export: bool,
}

const POSITIONAL: Columns = Columns {
    id: 0,
    size: Some(1),
    collection: Some(2),
    header: false,
    export: false,
};

/// Reads CSV as chunks arrive; the first non-blank record decides whether there is a header.
pub(super) struct CsvReader {
    parser: Reader,
    record: Record,
    /// The first bytes, until they tell whether the file starts with a byte-order mark.
    head: Option<Vec<u8>>,
    columns: Option<Columns>,
}

/// The record being read.
struct Record {
    /// Its bytes as written, with the blank lines before it.
    raw: Vec<u8>,
    /// Its fields, unquoted, one after the other; `used` bytes of it hold them.
    fields: Vec<u8>,
    used: usize,
    /// Where each field ends in `fields`; `ended` of them are set.
    ends: Vec<usize>,
    ended: usize,
    /// 1-based line and byte offset of `raw[0]`.
    line: usize,
    offset: u64,
}

impl fmt::Debug for CsvReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CsvReader")
            .field("line", &self.record.line)
            .field("columns", &self.columns)
            .finish_non_exhaustive()
    }
}

const BOM: &[u8] = b"\xef\xbb\xbf";

impl CsvReader {
    pub fn new() -> CsvReader {
        CsvReader {
            // Records end at `\n` only, as lines do everywhere else; a `\r` before it is
            // taken off the last field.
            parser: ReaderBuilder::new()
                .terminator(Terminator::Any(b'\n'))
                .build(),
            record: Record {
                raw: Vec::new(),
                fields: vec![0; 1024],
                used: 0,
                ends: vec![0; 16],
                ended: 0,
                line: 1,
                offset: 0,
            },
            head: Some(Vec::new()),
            columns: None,
        }
    }

    pub fn feed(&mut self, bytes: &[u8], sink: &mut Sink) -> Result<(), ImportError> {
        match self.head.as_mut() {
            Some(head) if head.len() + bytes.len() < BOM.len() => {
                head.extend_from_slice(bytes);
                Ok(())
            }
            Some(_) => {
                let mut head = self.head.take().unwrap_or_default();
                head.extend_from_slice(bytes);
                self.start(&head, sink)
            }
            None => self.read(bytes, sink),
        }
    }

    /// Reads the first bytes, without a byte-order mark.
    fn start(&mut self, head: &[u8], sink: &mut Sink) -> Result<(), ImportError> {
        let text = match head.strip_prefix(BOM) {
            Some(text) => {
                self.record.offset = BOM.len() as u64;
                text
            }
            None => head,
        };
        self.read(text, sink)
    }

    pub fn finish(&mut self, sink: &mut Sink) -> Result<(), ImportError> {
        if let Some(head) = self.head.take() {
            self.start(&head, sink)?;
        }
        let raw = &self.record.raw;
        if raw.iter().any(|&b| b != b'\n') {
            let line = self.record.line + raw.iter().take_while(|&&b| b == b'\n').count();
            // End the last record as a line end would, unless a quote is open and takes it.
            self.read(b"\n", sink)?;
            if !self.record.raw.is_empty() {
                return Err(ImportError::CsvUnclosedQuote { line });
            }
        }
        Ok(())
    }

    /// Parses `input`, handing every record it completes to `sink`.
    fn read(&mut self, mut input: &[u8], sink: &mut Sink) -> Result<(), ImportError> {
        while !input.is_empty() {
            let r = &mut self.record;
            let (result, read, written, ends) = self.parser.read_record(
                input,
                r.fields.get_mut(r.used..).unwrap_or_default(),
                r.ends.get_mut(r.ended..).unwrap_or_default(),
            );
            r.raw
                .extend_from_slice(input.get(..read).unwrap_or_default());
            if r.raw.len() > MAX_LINE_BYTES {
                return Err(ImportError::LineTooLong {
                    line: r.line,
                    limit: MAX_LINE_BYTES,
                });
            }
            input = input.get(read..).unwrap_or_default();
            r.used += written;
            r.ended += ends;
            match result {
                ReadRecordResult::OutputFull => r.fields.resize(r.fields.len() * 2, 0),
                ReadRecordResult::OutputEndsFull => r.ends.resize(r.ends.len() * 2, 0),
                ReadRecordResult::Record => {
                    let result = self.take(sink);
                    self.record.next();
                    result?;
                }
                ReadRecordResult::InputEmpty | ReadRecordResult::End => {}
            }
        }
        Ok(())
    }

    /// Hands the record just read to `sink`, or takes it as the header.
    fn take(&mut self, sink: &mut Sink) -> Result<(), ImportError> {
        let (fields, line) = self.record.text()?;
        if let [only] = fields.as_slice() {
            if only.trim().is_empty() {
                return Ok(());
            }
        }
        let columns = match self.columns {
            Some(columns) => columns,
            None => {
                let columns = header_columns(&fields);
                self.columns = Some(columns.unwrap_or(POSITIONAL));
                if columns.is_some() {
                    return Ok(());
                }
                POSITIONAL
            }
        };
        if !columns.header && fields.len() > 3 {
            return Err(ImportError::CsvTooManyFields {
                line,
                fields: fields.len(),
            });
        }
        let size = match columns.size.and_then(|i| fields.get(i)) {
            Some(size) => {
                parse_size(size.trim()).map_err(|e| ImportError::BadSize { line, text: e.text })?
            }
            None => None,
        };
        let cell = |i: usize| {
            let text = fields.get(i).copied();
            text.map(|t| if columns.export { restore_cell(t) } else { t })
        };
        let collection = columns
            .collection
            .and_then(cell)
            .map(|c| c.trim())
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        match cell(columns.id) {
            Some(id) => sink.add(id.to_string(), size, collection, None, || {
                Location::Line(line)
            }),
            None => sink.skip(|| ImportWarning::MissingId {
                at: Location::Line(line),
            }),
        }
        Ok(())
    }
}

impl Record {
    /// The record just read: its fields as text, and the line where it starts.
    fn text(&self) -> Result<(Vec<&str>, usize), ImportError> {
        // csv-core skips blank lines before a record; they are in `raw`.
        let blank = self.raw.iter().take_while(|&&b| b == b'\n').count();
        let raw = self.raw.get(blank..).unwrap_or_default();
        let line = self.line + blank;
        std::str::from_utf8(raw).map_err(|e| {
            let before = raw.get(..e.valid_up_to()).unwrap_or_default();
            ImportError::InvalidUtf8 {
                line: line + before.iter().filter(|&&b| b == b'\n').count(),
                offset: self.offset + (blank + e.valid_up_to()) as u64,
            }
        })?;
        let mut fields = Vec::with_capacity(self.ended);
        let mut start = 0;
        for &end in self.ends.get(..self.ended).unwrap_or_default() {
            let bytes = self.fields.get(start..end).unwrap_or_default();
            // Valid: the record is, and csv-core only takes ASCII quotes and commas out.
            fields.push(std::str::from_utf8(bytes).unwrap_or_default());
            start = end;
        }
        if let Some(last) = fields.last_mut() {
            *last = last.strip_suffix('\r').unwrap_or(last);
        }
        Ok((fields, line))
    }

    /// Moves past the record just read.
    fn next(&mut self) {
        self.line += self.raw.iter().filter(|&&b| b == b'\n').count();
        self.offset += self.raw.len() as u64;
        self.raw.clear();
        (self.used, self.ended) = (0, 0);
    }
}

/// The columns a header row names, or `None` if the row is data: it is a header when its
/// first cell is `id`/`@id` or its second cell is neither empty nor a number. Named columns
/// (`Id`/`@id`/`DocumentId`, `Size`/`Bytes`, `Collection`/`@collection`, any case) are used;
/// a header that names none of them means the positions `id,size,collection`. The header of
/// ravenshard's own export marks its cells as neutralised.
fn header_columns(fields: &[&str]) -> Option<Columns> {
    let name = |i: usize| fields.get(i).map(|f| f.trim().to_ascii_lowercase());
    let first_is_id = matches!(name(0).as_deref(), Some("id" | "@id"));
    let is_number = |f: &str| {
        f.bytes().any(|b| b.is_ascii_digit())
            && f.parse::<f64>().ok().filter(|v| v.is_finite()).is_some()
    };
    let second_is_text = fields.get(1).is_some_and(|f| {
        let f = f.trim();
        !f.is_empty() && !is_number(f)
    });
    if !first_is_id && !second_is_text {
        return None;
    }
    let find = |names: &[&str]| {
        (0..fields.len()).find(|&i| name(i).is_some_and(|n| names.contains(&n.as_str())))
    };
    let id = find(&["id", "@id", "documentid", "document id", "document_id"]);
    let size = find(&["size", "bytes", "size_bytes", "sizeinbytes", "size (bytes)"]);
    let collection = find(&["collection", "@collection"]);
    Some(if id.is_none() && size.is_none() && collection.is_none() {
        Columns {
            header: true,
            ..POSITIONAL
        }
    } else {
        Columns {
            id: id.unwrap_or(0),
            size,
            collection,
            header: true,
            export: is_export_header(fields),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        let h = |t: &str| header_columns(&t.split(',').collect::<Vec<_>>());
        assert_eq!(h("orders/1-A,12"), None);
        assert_eq!(h("orders/1-A"), None);
        assert_eq!(h("orders/1-A,"), None);
        assert_eq!(h("orders/1-A,-5"), None);
        assert_eq!(h("orders/1-A,1.5"), None);
        assert_eq!(
            h("ID"),
            Some(Columns {
                id: 0,
                size: None,
                collection: None,
                header: true,
                export: false,
            })
        );
        assert_eq!(
            h("document,bytes"),
            Some(Columns {
                id: 0,
                size: Some(1),
                collection: None,
                header: true,
                export: false,
            })
        );
        assert_eq!(
            h("name,email"),
            Some(Columns {
                header: true,
                ..POSITIONAL
            })
        );
        assert_eq!(
            h("Collection,Name,@id,Size"),
            Some(Columns {
                id: 2,
                size: Some(3),
                collection: Some(0),
                header: true,
                export: false,
            })
        );
        assert_eq!(
            h("a,nan"),
            Some(Columns {
                header: true,
                ..POSITIONAL
            })
        );
        let export = h("id,bucket,shard,collection,size").unwrap();
        assert!(export.export);
        assert_eq!(
            (export.id, export.size, export.collection),
            (0, Some(4), Some(3))
        );
        assert!(!h("Id,bucket,shard,collection,size").unwrap().export);
        assert!(!h("id,bucket,shard,collection,size,x").unwrap().export);
        assert!(!h("id,bucket,shard,collection").unwrap().export);
    }
}
