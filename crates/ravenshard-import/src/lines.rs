//! Line-based formats: splitting a stream of chunks into lines, and the plain-text (the line
//! format, read by [`ravenshard::lines`]) and NDJSON line readers.

use super::entry::{parse_entry, Sink};
use super::{ImportError, Location, MAX_LINE_BYTES};
use ravenshard::lines::Fields;

const BOM: &[u8] = b"\xef\xbb\xbf";

/// One complete line (without its `\n`), with where it starts.
pub(super) struct Record<'a> {
    /// The bytes; a final `\r` is still there.
    pub bytes: &'a [u8],
    /// 1-based line number of its first byte.
    pub line: usize,
    /// Byte offset of its first byte.
    pub offset: u64,
}

impl<'a> Record<'a> {
    /// The text of the line without a final `\r` (and without the BOM on the first line).
    pub fn text(&self) -> Result<&'a str, ImportError> {
        let mut bytes = self.bytes;
        let mut offset = self.offset;
        if offset == 0 && bytes.starts_with(BOM) {
            bytes = &bytes[BOM.len()..];
            offset = BOM.len() as u64;
        }
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        std::str::from_utf8(bytes).map_err(|e| ImportError::InvalidUtf8 {
            line: self.line,
            offset: offset + e.valid_up_to() as u64,
        })
    }
}

/// Splits chunks into lines at `\n`, keeping a partial last line until the rest of it
/// arrives.
#[derive(Debug)]
pub(super) struct Splitter {
    carry: Vec<u8>,
    line: usize,
    offset: u64,
}

impl Splitter {
    pub fn new() -> Splitter {
        Splitter {
            carry: Vec::new(),
            line: 1,
            offset: 0,
        }
    }

    /// The end (index of the `\n`) of the line that `bytes` continues, if it is there.
    fn find_end(&mut self, bytes: &[u8]) -> Option<usize> {
        bytes.iter().position(|&b| b == b'\n')
    }

    /// Splits `chunk`, calling `f` for every record it completes.
    pub fn feed(
        &mut self,
        mut chunk: &[u8],
        f: &mut dyn FnMut(Record) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        while let Some(end) = self.find_end(chunk) {
            if self.carry.is_empty() {
                self.emit(&chunk[..end], f)?;
            } else {
                let mut carry = std::mem::take(&mut self.carry);
                carry.extend_from_slice(&chunk[..end]);
                let result = self.emit(&carry, f);
                carry.clear();
                self.carry = carry;
                result?;
            }
            chunk = &chunk[end + 1..];
        }
        // One more byte for a `\r` that the `\n` may follow.
        if self.carry.len() + chunk.len() > MAX_LINE_BYTES + 1 {
            return Err(self.too_long());
        }
        self.carry.extend_from_slice(chunk);
        Ok(())
    }

    /// Hands over the last record when the input does not end with a newline.
    pub fn finish(
        &mut self,
        f: &mut dyn FnMut(Record) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        if self.carry.is_empty() {
            return Ok(());
        }
        let carry = std::mem::take(&mut self.carry);
        self.emit(&carry, f)
    }

    fn too_long(&self) -> ImportError {
        ImportError::LineTooLong {
            line: self.line,
            limit: MAX_LINE_BYTES,
        }
    }

    fn emit(
        &mut self,
        bytes: &[u8],
        f: &mut dyn FnMut(Record) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        // A `\r` before the `\n` is not part of the line.
        if bytes.strip_suffix(b"\r").unwrap_or(bytes).len() > MAX_LINE_BYTES {
            return Err(self.too_long());
        }
        let record = Record {
            bytes,
            line: self.line,
            offset: self.offset,
        };
        self.line += 1;
        self.offset += bytes.len() as u64 + 1;
        f(record)
    }
}

/// Plain text in the line format: `id[<TAB>size[<TAB>collection[<TAB>body]]]`; blank lines
/// are skipped.
pub(super) fn text_line(record: Record, sink: &mut Sink) -> Result<(), ImportError> {
    let Some(fields) = Fields::parse(record.text()?) else {
        return Ok(());
    };
    let size = fields.size().map_err(|e| ImportError::BadSize {
        line: record.line,
        text: e.text,
    })?;
    sink.add(
        fields.id.to_string(),
        size,
        fields.collection.map(str::to_string),
        fields.body.map(str::to_string),
        || Location::Line(record.line),
    );
    Ok(())
}

/// NDJSON: one ID (a JSON string) or document (a JSON object) per line; blank lines are
/// skipped.
pub(super) fn ndjson_line(record: Record, sink: &mut Sink) -> Result<(), ImportError> {
    let text = record.text()?;
    let trimmed = text.trim_start();
    let indent = text.len() - trimmed.len();
    let trimmed = trimmed.trim_end();
    if trimmed.is_empty() {
        return Ok(());
    }
    let line = record.line;
    let entry =
        parse_entry(trimmed.as_bytes(), sink.keeps_bodies()).map_err(|e| ImportError::Json {
            path: if e.path.is_empty() {
                "$".to_string()
            } else {
                e.path
            },
            line,
            column: e.column + if e.line == 1 { indent } else { 0 },
            message: e.message,
        })?;
    // An attachment header means nothing in NDJSON: no raw stream follows it.
    let _ = sink.take(entry, || Location::Line(line));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<(Vec<u8>, usize, u64)> {
        let mut s = Splitter::new();
        let mut out = Vec::new();
        let mut f = |r: Record| {
            out.push((r.bytes.to_vec(), r.line, r.offset));
            Ok(())
        };
        for c in chunks {
            s.feed(c, &mut f).unwrap();
        }
        s.finish(&mut f).unwrap();
        out
    }

    #[test]
    fn records_survive_chunk_boundaries() {
        let expected = vec![
            (b"ab".to_vec(), 1, 0),
            (b"".to_vec(), 2, 3),
            (b"cd\r".to_vec(), 3, 4),
            (b"e".to_vec(), 4, 8),
        ];
        assert_eq!(split(&[b"ab\n\ncd\r\ne"]), expected);
        assert_eq!(split(&[b"a", b"b\n", b"\nc", b"d\r", b"\ne"]), expected);
        assert_eq!(split(&[b"x\n"]), vec![(b"x".to_vec(), 1, 0)]);
    }

    #[test]
    fn utf8_errors_name_line_and_offset() {
        let r = Record {
            bytes: b"ab\xffc",
            line: 4,
            offset: 10,
        };
        assert_eq!(
            r.text(),
            Err(ImportError::InvalidUtf8 {
                line: 4,
                offset: 12
            })
        );
        let r = Record {
            bytes: b"\xef\xbb\xbfid\r",
            line: 1,
            offset: 0,
        };
        assert_eq!(r.text(), Ok("id"));
    }
}
