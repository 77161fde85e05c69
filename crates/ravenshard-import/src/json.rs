//! JSON lists read as chunks arrive: a top-level array of IDs or documents, or an object
//! whose `Docs` array holds them (a RavenDB export).
//!
//! A small scanner finds where each element of the list starts and ends (tracking strings
//! and nesting only), and serde_json then reads just that element, so memory holds one
//! element at a time and documents appear while the file is still coming. Other keys of an
//! export (`BuildVersion`, `DatabaseRecord`, ...) are skimmed, not validated; everything after
//! the `Docs` array is ignored, which is also what makes exports readable at all: their
//! attachment and time-series sections contain raw binary data. Inside `Docs`, an attachment
//! header (`{"@metadata": {"@export-type": "Attachment"}, "Size": n, ...}`) is followed by
//! `n` raw bytes of attachment content, which are skipped.

use super::entry::{parse_entry, EntryError, Sink};
use super::{ImportError, Location};
use ravenshard::config::join_path;

const BOM: &[u8] = b"\xef\xbb\xbf";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// At the very start: skip a UTF-8 byte-order mark.
    Bom,
    /// Expecting `[` or `{`.
    Top,
    /// In the top-level object, expecting a key (or `}` when `first`).
    ObjectKey { first: bool },
    /// Scanning a key that starts at `start`.
    Key,
    /// After a key, expecting `:`.
    Colon { docs: bool },
    /// After `:`, expecting the value (`docs`: the value of `Docs`).
    Value { docs: bool },
    /// Scanning a value of the top-level object that is not `Docs`.
    Skip,
    /// After a value of the top-level object, expecting `,` or `}`.
    ObjectNext,
    /// After `[`, expecting an element or `]`.
    ListFirst,
    /// After `,` in the list, expecting an element.
    ListItem,
    /// Scanning an element that starts at `start`.
    Element,
    /// After an element, expecting `,` or `]`.
    ListNext,
    /// Skipping this many raw bytes of an attachment.
    Raw(u64),
    /// The list is closed; `strict`: only whitespace may follow (a top-level array).
    Done { strict: bool },
}

/// Finds where one JSON value ends, across chunks: strings and nesting are tracked;
/// a scalar ends at the first delimiter.
#[derive(Debug, Default, Clone, Copy)]
struct ValueScan {
    depth: u64,
    in_string: bool,
    escaped: bool,
}

impl ValueScan {
    /// Scans `buf[i..]` (the value starts at or before `i`); `Ok(end)` (exclusive) when the
    /// value ends, `Err(buf.len())` when it goes on.
    fn scan(&mut self, buf: &[u8], mut i: usize) -> Result<usize, usize> {
        while i < buf.len() {
            if self.in_string && !self.escaped {
                // Most bytes of a document are string contents: skip them in a tight loop.
                match buf[i..].iter().position(|&b| b == b'"' || b == b'\\') {
                    Some(k) => i += k,
                    None => return Err(buf.len()),
                }
            }
            let b = buf[i];
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    if self.depth == 0 {
                        return Ok(i + 1);
                    }
                }
            } else {
                match b {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' if self.depth == 0 => return Ok(i),
                    b'}' | b']' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            return Ok(i + 1);
                        }
                    }
                    b',' | b' ' | b'\t' | b'\n' | b'\r' if self.depth == 0 => return Ok(i),
                    _ => {}
                }
            }
            i += 1;
        }
        Err(i)
    }
}

/// Reads a JSON list (or an export's `Docs`) chunk by chunk.
#[derive(Debug)]
pub(super) struct JsonReader {
    /// Bytes not yet done with: from the start of the value being read, or from `pos`.
    buf: Vec<u8>,
    /// Next byte to look at.
    pos: usize,
    /// Start of the key or element being scanned.
    start: usize,
    /// 1-based line of `buf[0]`.
    line: usize,
    /// Bytes between the last newline and `buf[0]`.
    column: usize,
    state: State,
    scan: ValueScan,
    /// Read as a RavenDB export: a wrong start means "not an export".
    export: bool,
    /// The list is `Docs` (else the top-level array).
    in_docs: bool,
    /// Index of the next element.
    index: usize,
}

impl JsonReader {
    pub fn new(export: bool) -> JsonReader {
        JsonReader {
            buf: Vec::new(),
            pos: 0,
            start: 0,
            line: 1,
            column: 0,
            state: State::Bom,
            scan: ValueScan::default(),
            export,
            in_docs: false,
            index: 0,
        }
    }

    pub fn feed(&mut self, bytes: &[u8], sink: &mut Sink) -> Result<(), ImportError> {
        if matches!(self.state, State::Done { strict: false }) {
            return Ok(());
        }
        self.buf.extend_from_slice(bytes);
        self.run(sink, false)?;
        self.discard_done();
        Ok(())
    }

    pub fn finish(&mut self, sink: &mut Sink) -> Result<(), ImportError> {
        self.run(sink, true)?;
        match self.state {
            State::Done { .. } => Ok(()),
            State::Bom | State::Top => Err(self.error_at(
                self.buf.len(),
                "$".into(),
                "the input ends before any JSON value: expected a list of IDs or documents",
            )),
            State::Element | State::Raw(_) => Err(self.error_at(
                self.buf.len(),
                self.element_path(self.index),
                "the input ends inside this element: the file is incomplete",
            )),
            _ => Err(self.error_at(
                self.buf.len(),
                self.list_path().into(),
                "the input ends before the list is closed: the file is incomplete",
            )),
        }
    }

    fn list_path(&self) -> &'static str {
        if self.in_docs {
            "Docs"
        } else {
            "$"
        }
    }

    fn element_path(&self, index: usize) -> String {
        format!("{}[{index}]", self.list_path())
    }

    /// The next byte that is not whitespace, leaving `pos` on it.
    fn peek(&mut self) -> Option<u8> {
        while let Some(&b) = self.buf.get(self.pos) {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    fn run(&mut self, sink: &mut Sink, eof: bool) -> Result<(), ImportError> {
        loop {
            match self.state {
                State::Bom => {
                    let rest = &self.buf[self.pos..];
                    if rest.len() < BOM.len() && BOM.starts_with(rest) && !eof {
                        return Ok(());
                    }
                    if rest.starts_with(BOM) {
                        self.pos += BOM.len();
                    }
                    self.state = State::Top;
                }
                State::Top => {
                    let Some(b) = self.peek() else { return Ok(()) };
                    self.pos += 1;
                    self.state = match b {
                        b'[' => State::ListFirst,
                        b'{' => State::ObjectKey { first: true },
                        _ if self.export => return Err(ImportError::NotAnExport),
                        _ => {
                            return Err(self.error_at(
                                self.pos - 1,
                                "$".into(),
                                "expected '[' (a list of document IDs or documents) or '{' \
                                 (an object with a \"Docs\" array)",
                            ))
                        }
                    };
                }
                State::ObjectKey { first } => {
                    let Some(b) = self.peek() else { return Ok(()) };
                    match b {
                        b'"' => self.begin_scan(State::Key),
                        b'}' if first => return Err(ImportError::NoDocsArray),
                        _ => return Err(self.error_at(self.pos, "$".into(), "expected a key")),
                    }
                }
                State::Key => {
                    let Some(end) = self.resume_scan() else {
                        return Ok(());
                    };
                    let key: String =
                        serde_json::from_slice(&self.buf[self.start..end]).map_err(|e| {
                            self.entry_error(
                                self.start,
                                "$".into(),
                                EntryError::from_json(&e, String::new()),
                            )
                        })?;
                    self.pos = end;
                    self.state = State::Colon {
                        docs: key == "Docs",
                    };
                }
                State::Colon { docs } => {
                    let Some(b) = self.peek() else { return Ok(()) };
                    if b != b':' {
                        return Err(self.error_at(self.pos, "$".into(), "expected ':'"));
                    }
                    self.pos += 1;
                    self.state = State::Value { docs };
                }
                State::Value { docs: true } => {
                    let Some(b) = self.peek() else { return Ok(()) };
                    if b != b'[' {
                        return Err(self.error_at(
                            self.pos,
                            "Docs".into(),
                            "expected an array of documents",
                        ));
                    }
                    self.pos += 1;
                    self.in_docs = true;
                    self.state = State::ListFirst;
                }
                State::Value { docs: false } => {
                    if self.peek().is_none() {
                        return Ok(());
                    }
                    self.begin_scan(State::Skip);
                }
                State::Skip => {
                    let Some(end) = self.resume_scan() else {
                        return Ok(());
                    };
                    self.pos = end;
                    self.state = State::ObjectNext;
                }
                State::ObjectNext => {
                    let Some(b) = self.peek() else { return Ok(()) };
                    match b {
                        b',' => {
                            self.pos += 1;
                            self.state = State::ObjectKey { first: false };
                        }
                        b'}' => return Err(ImportError::NoDocsArray),
                        _ => {
                            return Err(self.error_at(self.pos, "$".into(), "expected ',' or '}'"))
                        }
                    }
                }
                State::ListFirst | State::ListItem => {
                    let Some(b) = self.peek() else { return Ok(()) };
                    if b == b']' && self.state == State::ListFirst {
                        self.pos += 1;
                        self.state = self.closed();
                    } else {
                        self.begin_scan(State::Element);
                    }
                }
                State::Element => {
                    let Some(end) = self.resume_scan() else {
                        return Ok(());
                    };
                    self.state = self.element(end, sink)?;
                    self.pos = end;
                }
                State::ListNext => {
                    let Some(b) = self.peek() else { return Ok(()) };
                    self.pos += 1;
                    match b {
                        b',' => self.state = State::ListItem,
                        b']' => self.state = self.closed(),
                        _ => {
                            return Err(self.error_at(
                                self.pos - 1,
                                self.list_path().into(),
                                "expected ',' or ']' after a list element",
                            ))
                        }
                    }
                }
                State::Raw(left) => {
                    let available = (self.buf.len() - self.pos) as u64;
                    if available < left {
                        self.pos = self.buf.len();
                        self.state = State::Raw(left - available);
                        return Ok(());
                    }
                    // `left <= available`, which is a usize.
                    self.pos += left as usize;
                    self.state = State::ListNext;
                }
                State::Done { strict: false } => {
                    self.pos = self.buf.len();
                    return Ok(());
                }
                State::Done { strict: true } => {
                    if self.peek().is_some() {
                        return Err(self.error_at(
                            self.pos,
                            "$".into(),
                            "unexpected text after the end of the list",
                        ));
                    }
                    return Ok(());
                }
            }
        }
    }

    fn closed(&self) -> State {
        State::Done {
            strict: !self.in_docs,
        }
    }

    fn begin_scan(&mut self, state: State) {
        self.start = self.pos;
        self.scan = ValueScan::default();
        self.state = state;
    }

    /// Continues the current scan: the end of the value, or `None` (and everything scanned)
    /// when it goes on past the bytes there are.
    fn resume_scan(&mut self) -> Option<usize> {
        match self.scan.scan(&self.buf, self.pos) {
            Ok(end) => Some(end),
            Err(scanned) => {
                self.pos = scanned;
                None
            }
        }
    }

    /// Reads the element `buf[start..end]` into `sink`; the state that follows it.
    fn element(&mut self, end: usize, sink: &mut Sink) -> Result<State, ImportError> {
        let index = self.index;
        self.index += 1;
        let start = self.start;
        let entry = parse_entry(&self.buf[start..end], sink.keeps_bodies())
            .map_err(|e| self.entry_error(start, self.element_path(index), e))?;
        let at = || Location::Element {
            path: self.element_path(index),
            line: self.line_column(start).0,
        };
        Ok(match sink.take(entry, at) {
            Some(size) => State::Raw(size),
            None => State::ListNext,
        })
    }

    /// 1-based line and column of `buf[p]`.
    fn line_column(&self, p: usize) -> (usize, usize) {
        let before = &self.buf[..p];
        match before.iter().rposition(|&b| b == b'\n') {
            None => (self.line, self.column + p + 1),
            Some(newline) => (
                self.line + before.iter().filter(|&&b| b == b'\n').count(),
                p - newline,
            ),
        }
    }

    fn error_at(&self, p: usize, path: String, message: &str) -> ImportError {
        let (line, column) = self.line_column(p);
        ImportError::Json {
            path,
            line,
            column,
            message: message.to_string(),
        }
    }

    /// An error inside the value that starts at `buf[start]`, with the value's path.
    fn entry_error(&self, start: usize, path: String, e: EntryError) -> ImportError {
        let (line, column) = self.line_column(start);
        ImportError::Json {
            path: join_path(&path, &e.path),
            line: line + e.line - 1,
            column: if e.line == 1 {
                column + e.column - 1
            } else {
                e.column
            },
            message: e.message,
        }
    }

    /// Drops the bytes that are done with, keeping line and column counts.
    fn discard_done(&mut self) {
        let keep_from = match self.state {
            State::Key | State::Element => self.start,
            _ => self.pos,
        };
        let done = &self.buf[..keep_from];
        match done.iter().rposition(|&b| b == b'\n') {
            None => self.column += done.len(),
            Some(newline) => {
                self.line += done.iter().filter(|&&b| b == b'\n').count();
                self.column = done.len() - newline - 1;
            }
        }
        self.buf.drain(..keep_from);
        self.pos -= keep_from;
        self.start = self.start.saturating_sub(keep_from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(chunks: &[&[u8]], export: bool) -> Result<Sink, ImportError> {
        let mut reader = JsonReader::new(export);
        let mut sink = Sink::default();
        for c in chunks {
            reader.feed(c, &mut sink)?;
        }
        reader.finish(&mut sink)?;
        Ok(sink)
    }

    fn ids(sink: &Sink) -> Vec<&str> {
        sink.documents.iter().map(|d| d.id.as_str()).collect()
    }

    #[test]
    fn value_scan_ends() {
        let end = |t: &[u8]| ValueScan::default().scan(t, 0);
        assert_eq!(end(br#""a\"]" x"#), Ok(6));
        assert_eq!(end(br#"{"a":["}"]} x"#), Ok(11));
        assert_eq!(end(b"123,"), Ok(3));
        assert_eq!(end(b"true]"), Ok(4));
        assert_eq!(end(b"{\"a\":"), Err(5));
    }

    #[test]
    fn lists_and_exports() {
        let s = read(
            &[br#" ["a", {"Id": "b"}, {"@metadata": {"@id": "c"}}] "#],
            false,
        )
        .unwrap();
        assert_eq!(ids(&s), ["a", "b", "c"]);
        let s = read(&[br#"{"BuildVersion": 60, "DatabaseRecord": {"x": [1, "]"]}, "Docs": [{"@metadata": {"@id": "d"}}], "Tail": garbage"#], true).unwrap();
        assert_eq!(ids(&s), ["d"]);
        assert_eq!(read(&[b"[]"], false).unwrap().documents.len(), 0);
    }

    #[test]
    fn attachment_streams_are_skipped() {
        let text = b"{\"Docs\":[{\"@metadata\":{\"@export-type\":\"Attachment\"},\"Hash\":\"h\",\"Size\":5,\"Tag\":\"t\"}\"[,{,,{\"@metadata\":{\"@id\":\"a\"}}]}";
        let s = read(&[text], true).unwrap();
        assert_eq!(ids(&s), ["a"]);
        let s = read(&text.chunks(1).collect::<Vec<_>>(), true).unwrap();
        assert_eq!(ids(&s), ["a"]);
    }

    #[test]
    fn errors_are_positioned() {
        let e = read(&[b"[\n  \"a\",\n  {\"Id\": 1,}\n]"], false).unwrap_err();
        assert_eq!(
            e,
            ImportError::Json {
                path: "$[1]".into(),
                line: 3,
                column: 12,
                message: "trailing comma".into()
            }
        );
        let e = read(&[b"[\"a\" \"b\"]"], false).unwrap_err();
        assert!(
            matches!(
                e,
                ImportError::Json {
                    line: 1,
                    column: 6,
                    ..
                }
            ),
            "{e}"
        );
        let e = read(&[b"[\"a\","], false).unwrap_err();
        assert!(
            matches!(e, ImportError::Json { ref message, .. } if message.contains("ends before")),
            "{e}"
        );
        assert_eq!(
            read(&[b"{\"a\": 1}"], false).unwrap_err(),
            ImportError::NoDocsArray
        );
        assert_eq!(read(&[b"PK"], true).unwrap_err(), ImportError::NotAnExport);
        let e = read(&[b"[1] 2"], false).unwrap_err();
        assert!(
            matches!(e, ImportError::Json { ref path, .. } if path == "$[0]"),
            "{e}"
        );
        let e = read(&[b"[\"a\"] 2"], false).unwrap_err();
        assert!(matches!(e, ImportError::Json { column: 7, .. }), "{e}");
        let e = read(&[b"{\"Docs\": 5}"], true).unwrap_err();
        assert!(
            matches!(e, ImportError::Json { ref path, .. } if path == "Docs"),
            "{e}"
        );
    }
}
