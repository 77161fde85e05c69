//! Line-based formats: splitting a stream of chunks into lines (or CSV records), and the
//! plain-text (`id` or `id<TAB>size`) and NDJSON line readers.

use super::entry::{parse_entry, Sink};
use super::{ImportError, Location};

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
    /// The text of the record without a final `\r` (and without the BOM on the first line).
    pub fn text(&self) -> Result<&'a str, ImportError> {
        let mut bytes = self.bytes;
        let mut offset = self.offset;
        if offset == 0 && bytes.starts_with(BOM) {
            bytes = &bytes[BOM.len()..];
            offset = BOM.len() as u64;
        }
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        std::str::from_utf8(bytes).map_err(|e| {
            let before = &bytes[..e.valid_up_to()];
            ImportError::InvalidUtf8 {
                // A CSV record can span lines.
                line: self.line + before.iter().filter(|&&b| b == b'\n').count(),
                offset: offset + e.valid_up_to() as u64,
            }
        })
    }
}

/// Splits chunks into records at `\n`, keeping a partial last record until the rest of it
/// arrives. In CSV mode a `\n` inside double quotes does not end a record.
#[derive(Debug)]
pub(super) struct Splitter {
    carry: Vec<u8>,
    csv: bool,
    in_quotes: bool,
    line: usize,
    offset: u64,
}

impl Splitter {
    pub fn new(csv: bool) -> Splitter {
        Splitter {
            carry: Vec::new(),
            csv,
            in_quotes: false,
            line: 1,
            offset: 0,
        }
    }

    /// The end (index of the `\n`) of the record that `bytes` continues, if it is there.
    fn find_end(&mut self, bytes: &[u8]) -> Option<usize> {
        if !self.csv {
            return bytes.iter().position(|&b| b == b'\n');
        }
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'"' => self.in_quotes = !self.in_quotes,
                b'\n' if !self.in_quotes => return Some(i),
                _ => {}
            }
        }
        None
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

    fn emit(
        &mut self,
        bytes: &[u8],
        f: &mut dyn FnMut(Record) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let record = Record {
            bytes,
            line: self.line,
            offset: self.offset,
        };
        self.line += 1;
        if self.csv {
            self.line += bytes.iter().filter(|&&b| b == b'\n').count();
        }
        self.offset += bytes.len() as u64 + 1;
        f(record)
    }
}

/// Parses a size: a non-negative integer, spaces around it allowed; empty is no size.
pub(super) fn parse_size(text: &str, line: usize) -> Result<Option<u64>, ImportError> {
    let trimmed = text.trim_matches([' ', '\t']);
    if trimmed.is_empty() {
        return Ok(None);
    }
    if !trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad_size(text, line));
    }
    trimmed.parse().map(Some).map_err(|_| bad_size(text, line))
}

fn bad_size(text: &str, line: usize) -> ImportError {
    ImportError::BadSize {
        line,
        text: text.to_string(),
    }
}

/// Plain text: `id` or `id<TAB>size` per line; blank lines are skipped.
pub(super) fn text_line(record: Record, sink: &mut Sink) -> Result<(), ImportError> {
    let text = record.text()?;
    if text.trim().is_empty() {
        return Ok(());
    }
    let (id, size) = match text.split_once('\t') {
        Some((id, size)) => (id, parse_size(size, record.line)?),
        None => (text, None),
    };
    sink.add(id.to_string(), size, None, None, || {
        Location::Line(record.line)
    });
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
    let entry = parse_entry(trimmed.as_bytes()).map_err(|e| ImportError::Json {
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

    fn split(csv: bool, chunks: &[&[u8]]) -> Vec<(Vec<u8>, usize, u64)> {
        let mut s = Splitter::new(csv);
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
        assert_eq!(split(false, &[b"ab\n\ncd\r\ne"]), expected);
        assert_eq!(
            split(false, &[b"a", b"b\n", b"\nc", b"d\r", b"\ne"]),
            expected
        );
        assert_eq!(split(false, &[b"x\n"]), vec![(b"x".to_vec(), 1, 0)]);
    }

    #[test]
    fn csv_records_span_quoted_newlines() {
        let got = split(true, &[b"\"a\n", b"b\",1\nc"]);
        assert_eq!(
            got,
            vec![(b"\"a\nb\",1".to_vec(), 1, 0), (b"c".to_vec(), 3, 8)]
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size(" 12 ", 1), Ok(Some(12)));
        assert_eq!(parse_size("", 1), Ok(None));
        for bad in ["-1", "+1", "1.5", "12 KB", "99999999999999999999", "1 2"] {
            assert!(parse_size(bad, 3).is_err(), "{bad}");
        }
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
