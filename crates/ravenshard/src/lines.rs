//! The line format: one document a line, as the studio's ID editor, share links, file
//! import, the JS API, resharding workloads and the CLI read and write it. This module is
//! its only reader.
//!
//! A line is `id`, `id<TAB>size`, `id<TAB>size<TAB>collection` or
//! `id<TAB>size<TAB>collection<TAB>body`:
//!
//! * Lines end with `\n` or `\r\n`; a final line ending adds no line ([`split`]).
//! * The ID is everything before the first tab, as written (spaces are kept).
//! * The size, the collection and the body are trimmed, and an empty one is unknown. The body
//!   is the rest of the line (JSON on one line; a tab inside it is JSON white space).
//! * A size is a whole number of bytes: digits only, at most `u64::MAX`
//!   ([`Fields::size`], [`BadSize`] otherwise). What to do with a bad size is each reader's
//!   choice: the editor notes and ignores it, file import and share links refuse the file, a
//!   resharding workload leaves the line out.
//! * A **blank** line (empty, or white space only) holds no document in a document list:
//!   readers of lists skip it ([`documents`], [`Fields::parse`]). Readers that answer line
//!   by line ([`ids`], [`id_field`]: `bucketsFor`, `ravenshard bucket`) read every line, so
//!   that answer `i` stays the answer for line `i + 1`: an empty line is an empty ID (an
//!   error), a line of white space is that blank ID, which RavenDB stores and hashes as any
//!   other ([`Warning::BlankId`](crate::Warning::BlankId)).
//!
//! [`for_each_line`] reads the lines of a stream (a file, stdin) in constant memory.
//!
//! # Examples
//!
//! ```
//! use ravenshard::lines::{documents, ids, Fields};
//!
//! let text = "orders/1-A\t1200\tOrders\r\n\n users/4 \n";
//! let read: Vec<(usize, Fields)> = documents(text).collect();
//! assert_eq!(read.len(), 2);
//! assert_eq!(read[0].1.size(), Ok(Some(1200)));
//! assert_eq!(read[0].1.collection, Some("Orders"));
//! assert_eq!((read[1].0, read[1].1.id), (3, " users/4 "));
//! assert_eq!(ids(text).collect::<Vec<_>>(), ["orders/1-A", "", " users/4 "]);
//! ```

use std::fmt;
use std::io::{self, BufRead, Read};

/// The lines of `text` with their 1-based numbers, without their `\n` or `\r\n`; a final
/// line ending adds no line, so `""` has none.
///
/// # Examples
///
/// ```
/// let lines: Vec<_> = ravenshard::lines::split("a\r\n\nb\tc\n").collect();
/// assert_eq!(lines, [(1, "a"), (2, ""), (3, "b\tc")]);
/// ```
pub fn split(text: &str) -> impl Iterator<Item = (usize, &str)> + Clone {
    let mut rest = text;
    let mut number = 0;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        // A plain byte loop: lines are short, and a `str` searcher costs more to set up.
        let (line, next) = match rest.bytes().position(|b| b == b'\n') {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => (rest, ""),
        };
        rest = next;
        number += 1;
        Some((number, line.strip_suffix('\r').unwrap_or(line)))
    })
}

/// Whether a line holds no document: empty, or white space only.
///
/// # Examples
///
/// ```
/// use ravenshard::lines::is_blank;
///
/// assert!(is_blank("") && is_blank(" \t\u{3000}"));
/// assert!(!is_blank(" a"));
/// ```
pub fn is_blank(line: &str) -> bool {
    line.trim_start().is_empty()
}

/// The ID of a line, for readers that need only IDs and answer line by line: the text before
/// the first tab, as written (a line of white space is a blank ID, see the
/// [module](self)). The result is a part of `line`.
///
/// # Examples
///
/// ```
/// use ravenshard::lines::id_field;
///
/// assert_eq!(id_field("orders/1-A\t120\tOrders"), "orders/1-A");
/// assert_eq!(id_field(" a "), " a ");
/// assert_eq!(id_field("\t5"), "");
/// assert_eq!(id_field("  "), "  ");
/// ```
pub fn id_field(line: &str) -> &str {
    id_before(line, memchr::memchr(b'\t', line.as_bytes()))
}

/// [`id_field`] of a line whose first tab (if any) is known.
fn id_before(line: &str, tab: Option<usize>) -> &str {
    match tab.and_then(|tab| line.get(..tab)) {
        Some(id) => id,
        None => line,
    }
}

/// The ID of every line of `text`, blank lines included (as empty IDs): what the readers
/// that answer line by line read.
///
/// # Examples
///
/// ```
/// let ids: Vec<&str> = ravenshard::lines::ids("a\r\nb\t120\n\nc\n").collect();
/// assert_eq!(ids, ["a", "b", "", "c"]);
/// ```
pub fn ids(text: &str) -> impl Iterator<Item = &str> + Clone {
    // The line ends and the tabs are found in one pass over the text (`memchr2`, eight or
    // sixteen bytes at a time, with wasm SIMD too), rather than a byte loop per line and a
    // search for its tab: `bucketsFor`'s hot loop.
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut ends = memchr::memchr2_iter(b'\n', b'\t', body.as_bytes()).chain([body.len()]);
    let (mut start, mut done) = (0, text.is_empty());
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let mut tab = None;
        for at in ends.by_ref() {
            if body.as_bytes().get(at) == Some(&b'\t') {
                tab = tab.or(Some(at - start));
                continue;
            }
            // `start` and `at` are at `\n` bytes or the ends, so char boundaries.
            let line = body.get(start..at).unwrap_or_default();
            let line = line.strip_suffix('\r').unwrap_or(line);
            start = at + 1;
            done = at == body.len();
            return Some(id_before(line, tab));
        }
        None
    })
}

/// The documents of `text`: every line that is not blank, with its 1-based number.
pub fn documents(text: &str) -> impl Iterator<Item = (usize, Fields<'_>)> {
    split(text).filter_map(|(number, line)| Fields::parse(line).map(|f| (number, f)))
}

/// The fields of one line that holds a document, borrowed from the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fields<'a> {
    /// The ID, as written.
    pub id: &'a str,
    /// The size field, trimmed; empty when there is none. Read it with
    /// [`size`](Fields::size).
    pub size_text: &'a str,
    /// The collection, trimmed, when not empty.
    pub collection: Option<&'a str>,
    /// The body (the rest of the line), trimmed, when not empty.
    pub body: Option<&'a str>,
}

impl<'a> Fields<'a> {
    /// Splits one line (without its `\n`; a final `\r` is dropped) into its fields, or
    /// `None` for a blank line.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::lines::Fields;
    ///
    /// let f = Fields::parse("orders/1-A\t 12 \t\t{\"a\":\t1}\r").unwrap();
    /// assert_eq!((f.id, f.size_text, f.collection, f.body), ("orders/1-A", "12", None, Some("{\"a\":\t1}")));
    /// assert_eq!(Fields::parse(" \t "), None);
    /// assert_eq!(Fields::parse("\t5").unwrap().id, "");
    /// ```
    pub fn parse(line: &'a str) -> Option<Fields<'a>> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if is_blank(line) {
            return None;
        }
        let Some((id, rest)) = line.split_once('\t') else {
            return Some(Fields {
                id: line,
                size_text: "",
                collection: None,
                body: None,
            });
        };
        let mut fields = rest.splitn(3, '\t');
        let mut optional = || fields.next().map(str::trim).filter(|f| !f.is_empty());
        Some(Fields {
            id,
            size_text: optional().unwrap_or_default(),
            collection: optional(),
            body: optional(),
        })
    }

    /// The size in bytes: `None` when there is no size field.
    ///
    /// # Errors
    ///
    /// [`BadSize`] when the field is not a whole number of bytes (digits only, at most
    /// `u64::MAX`).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::lines::Fields;
    ///
    /// let size = |line| Fields::parse(line).unwrap().size();
    /// assert_eq!(size("a\t1200"), Ok(Some(1200)));
    /// assert_eq!(size("a\t\tOrders"), Ok(None));
    /// assert_eq!(
    ///     size("a\t1.5").unwrap_err().to_string(),
    ///     "the size '1.5' is not a whole number of bytes"
    /// );
    /// ```
    pub fn size(&self) -> Result<Option<u64>, BadSize> {
        parse_size(self.size_text)
    }
}

/// Reads a size field (already trimmed): `None` when empty.
///
/// # Errors
///
/// [`BadSize`] when it is not a whole number of bytes (digits only, at most `u64::MAX`).
///
/// # Examples
///
/// ```
/// use ravenshard::lines::parse_size;
///
/// assert_eq!(parse_size("0"), Ok(Some(0)));
/// assert_eq!(parse_size(""), Ok(None));
/// assert!(parse_size("+1").is_err());
/// ```
pub fn parse_size(text: &str) -> Result<Option<u64>, BadSize> {
    if text.is_empty() {
        return Ok(None);
    }
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
        .map(Some)
        .ok_or_else(|| BadSize {
            text: text.to_string(),
        })
}

/// A size field that is not a whole number of bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSize {
    /// The field as written (trimmed).
    pub text: String,
}

impl fmt::Display for BadSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each reader says what happens to the line, so what to do is theirs to add.
        write!(f, "the size '{}' is not a whole number of bytes", self.text)
    }
}

impl std::error::Error for BadSize {}

/// A line that is not valid UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotUtf8 {
    /// Byte offset of the first invalid byte in the line.
    pub offset: usize,
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not valid UTF-8 at byte {}; save the file as UTF-8",
            self.offset
        )
    }
}

impl std::error::Error for NotUtf8 {}

/// Why [`for_each_line`] stopped early.
#[derive(Debug)]
pub enum Stop<E> {
    /// Reading the input failed.
    Read(io::Error),
    /// The callback said to stop.
    By(E),
}

/// Calls `f(number, line)` for every line of a stream, with its 1-based number and its text
/// without `\n` or `\r\n` (or where it stops being UTF-8), in constant memory: lines are
/// read where the input's buffer holds them, checked as UTF-8 a buffer at a time, and
/// copied only when one spans two buffers. A final line ending adds no line.
///
/// # Errors
///
/// [`Stop::Read`] when reading fails, [`Stop::By`] with `f`'s error when it returns one.
///
/// # Examples
///
/// ```
/// use ravenshard::lines::{for_each_line, id_field, NotUtf8, Stop};
///
/// let mut seen = Vec::new();
/// for_each_line(&b"a\t12\r\n\nb\xff\n"[..], |number, line| {
///     seen.push((number, line.map(|l| id_field(l).to_string())));
///     Ok::<(), ()>(())
/// })
/// .map_err(|_| "reading a slice cannot fail")?;
/// let ok = |id: &str| Ok(id.to_string());
/// assert_eq!(seen, [(1, ok("a")), (2, ok("")), (3, Err(NotUtf8 { offset: 1 }))]);
/// # Ok::<(), &str>(())
/// ```
pub fn for_each_line<R: BufRead, E>(
    mut input: R,
    mut f: impl FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>,
) -> Result<(), Stop<E>> {
    // The start of a line that the input's buffer ended in the middle of.
    let mut carry = Vec::new();
    let mut number = 0;
    loop {
        let buffer = input.fill_buf().map_err(Stop::Read)?;
        if buffer.is_empty() {
            break;
        }
        let used = buffer.len();
        match buffer.iter().rposition(|&b| b == b'\n') {
            None => carry.extend_from_slice(buffer),
            Some(last) => {
                let (mut complete, rest) = buffer.split_at(last);
                if !carry.is_empty() {
                    let end = complete.iter().position(|&b| b == b'\n');
                    let (head, tail) = complete.split_at(end.unwrap_or(complete.len()));
                    carry.extend_from_slice(head);
                    number += 1;
                    f(number, checked(&carry)).map_err(Stop::By)?;
                    carry.clear();
                    if end.is_none() {
                        carry.extend_from_slice(rest.get(1..).unwrap_or_default());
                        input.consume(used);
                        continue;
                    }
                    complete = tail.get(1..).unwrap_or_default();
                }
                each_line(complete, &mut number, &mut f).map_err(Stop::By)?;
                carry.extend_from_slice(rest.get(1..).unwrap_or_default());
            }
        }
        input.consume(used);
    }
    if !carry.is_empty() {
        f(number + 1, checked(&carry)).map_err(Stop::By)?;
    }
    Ok(())
}

/// Calls `f(number, line)` for every line of a block of whole lines (as
/// [`for_each_block`] hands them out), numbered from 1 within the block, exactly as
/// [`for_each_line`] reads the same bytes; the number of lines.
///
/// # Errors
///
/// `f`'s error, when it returns one.
///
/// # Examples
///
/// ```
/// use ravenshard::lines::for_each_line_in;
///
/// let mut seen = Vec::new();
/// let n = for_each_line_in(b"a\r\n\nb\xff\n", |number, line| {
///     seen.push((number, line.is_ok()));
///     Ok::<(), ()>(())
/// });
/// assert_eq!(n, Ok(3));
/// assert_eq!(seen, [(1, true), (2, true), (3, false)]);
/// ```
pub fn for_each_line_in<E>(
    block: &[u8],
    mut f: impl FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>,
) -> Result<u64, E> {
    block_lines(block, &mut f, &mut lines_of_valid)
}

/// [`for_each_line_in`] with each line's [`id_field`] (lines that are not UTF-8 as they are):
/// the line ends and the tabs found in one pass (`memchr2`), for `bucket`'s hot loop.
///
/// # Errors
///
/// `f`'s error, when it returns one.
///
/// # Examples
///
/// ```
/// use ravenshard::lines::for_each_id_in;
///
/// let mut seen = Vec::new();
/// let n = for_each_id_in(b"a\t5\r\n \t\nb\xff\n", |number, id| {
///     seen.push((number, id.ok().map(str::to_string)));
///     Ok::<(), ()>(())
/// });
/// assert_eq!(n, Ok(3));
/// assert_eq!(seen, [(1, Some("a".into())), (2, Some(" ".into())), (3, None)]);
/// ```
pub fn for_each_id_in<E>(
    block: &[u8],
    mut f: impl FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>,
) -> Result<u64, E> {
    block_lines(block, &mut f, &mut ids_of_valid)
}

/// The lines of a block of whole lines: the valid stretches to `valid_lines`, the lines
/// that are not UTF-8 to `f`; the number of lines.
fn block_lines<E, F: FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>>(
    block: &[u8],
    f: &mut F,
    valid_lines: &mut impl FnMut(&str, &mut u64, &mut F) -> Result<(), E>,
) -> Result<u64, E> {
    if block.is_empty() {
        return Ok(0);
    }
    let mut number = 0;
    let body = block.strip_suffix(b"\n").unwrap_or(block);
    each_line_with(body, &mut number, f, valid_lines)?;
    Ok(number)
}

/// The IDs of the lines of valid text, numbered on from `number`.
fn ids_of_valid<E>(
    valid: &str,
    number: &mut u64,
    f: &mut impl FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>,
) -> Result<(), E> {
    let bytes = valid.as_bytes();
    let (mut start, mut tab) = (0, None);
    for at in memchr::memchr2_iter(b'\n', b'\t', bytes).chain([bytes.len()]) {
        if bytes.get(at) == Some(&b'\t') {
            tab = tab.or(Some(at - start));
            continue;
        }
        // `start` and `at` are at `\n` bytes or the ends, so char boundaries.
        let line = valid.get(start..at).unwrap_or_default();
        let line = line.strip_suffix('\r').unwrap_or(line);
        *number += 1;
        f(*number, Ok(id_before(line, tab.take())))?;
        start = at + 1;
    }
    Ok(())
}

/// The lines of a block of whole lines as bytes, not checked as UTF-8, without their `\n` or
/// `\r\n`: the same lines as [`for_each_line_in`] reads, for a reader that looks at their
/// first bytes before it reads them as text.
///
/// # Examples
///
/// ```
/// use ravenshard::lines::byte_lines;
///
/// let lines: Vec<&[u8]> = byte_lines(b"a\r\n\nb\xff\n").collect();
/// assert_eq!(lines, [&b"a"[..], b"", b"b\xff"]);
/// assert_eq!(byte_lines(b"").count(), 0);
/// ```
pub fn byte_lines(block: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = block.strip_suffix(b"\n").unwrap_or(block);
    let ends = memchr::memchr_iter(b'\n', body).chain([body.len()]);
    let ends = ends.take(if block.is_empty() { 0 } else { usize::MAX });
    let mut start = 0;
    ends.map(move |end| {
        let line = body.get(start..end).unwrap_or_default();
        start = end + 1;
        line.strip_suffix(b"\r").unwrap_or(line)
    })
}

/// Reads a stream in blocks of whole lines of about `block_len` bytes (a longer line makes
/// a longer block), each ending with `\n` except perhaps the last, for readers that work on
/// many lines at once (on several threads, say); [`for_each_line_in`] reads a block's lines.
/// Blocks that come back through `recycle` are reused, so memory stays flat.
///
/// # Errors
///
/// [`Stop::Read`] when reading fails, [`Stop::By`] with `f`'s error when it returns one.
///
/// # Examples
///
/// ```
/// use ravenshard::lines::{for_each_block, for_each_line_in};
///
/// let mut lines = 0;
/// for_each_block(&b"a\nb\nc"[..], 2, |block| {
///     lines += for_each_line_in(&block, |_, _| Ok::<(), ()>(()))?;
///     Ok::<Option<Vec<u8>>, ()>(Some(block))
/// })
/// .map_err(|_| "reading a slice cannot fail")?;
/// assert_eq!(lines, 3);
/// # Ok::<(), &str>(())
/// ```
pub fn for_each_block<R: io::Read, E>(
    mut input: R,
    block_len: usize,
    mut f: impl FnMut(Vec<u8>) -> Result<Option<Vec<u8>>, E>,
) -> Result<(), Stop<E>> {
    let mut carry: Vec<u8> = Vec::new();
    let mut spare: Option<Vec<u8>> = None;
    loop {
        let mut block = spare.take().unwrap_or_default();
        block.clear();
        block.append(&mut carry);
        let end = loop {
            let want = block_len.saturating_sub(block.len()).max(1 << 12) as u64;
            let read = (&mut input).take(want).read_to_end(&mut block);
            if read.map_err(Stop::Read)? == 0 {
                break None;
            }
            if block.len() >= block_len {
                if let Some(last) = block.iter().rposition(|&b| b == b'\n') {
                    break Some(last + 1);
                }
            }
        };
        if let Some(end) = end {
            carry.extend_from_slice(block.get(end..).unwrap_or_default());
            block.truncate(end);
        }
        if block.is_empty() {
            return Ok(());
        }
        spare = f(block).map_err(Stop::By)?;
        if end.is_none() {
            return Ok(());
        }
    }
}

/// Calls `f` for the lines of `bytes` (lines without their final `\n`, which is not there),
/// checking UTF-8 once for all of them.
fn each_line<E>(
    bytes: &[u8],
    number: &mut u64,
    f: &mut impl FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>,
) -> Result<(), E> {
    each_line_with(bytes, number, f, &mut lines_of_valid)
}

/// The lines of valid text, numbered on from `number`.
fn lines_of_valid<E>(
    valid: &str,
    number: &mut u64,
    f: &mut impl FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>,
) -> Result<(), E> {
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', valid.as_bytes()).chain([valid.len()]) {
        // `start` and `end` are at `\n` bytes or the ends, so char boundaries.
        let line = valid.get(start..end).unwrap_or_default();
        start = end + 1;
        *number += 1;
        f(*number, Ok(line.strip_suffix('\r').unwrap_or(line)))?;
    }
    Ok(())
}

/// The valid stretches of `bytes` go to `valid` (which numbers their lines), each line that
/// is not UTF-8 to `f`.
fn each_line_with<E, F: FnMut(u64, Result<&str, NotUtf8>) -> Result<(), E>>(
    mut bytes: &[u8],
    number: &mut u64,
    f: &mut F,
    valid_lines: &mut impl FnMut(&str, &mut u64, &mut F) -> Result<(), E>,
) -> Result<(), E> {
    loop {
        let (valid, bad) = match std::str::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(e) => {
                // The lines before the one with the bad byte are valid.
                let start = bytes[..e.valid_up_to()]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |nl| nl + 1);
                let valid = std::str::from_utf8(&bytes[..start.saturating_sub(1)]);
                (valid.unwrap_or_default(), Some(start))
            }
        };
        if bad != Some(0) {
            valid_lines(valid, number, f)?;
        }
        let Some(start) = bad else {
            return Ok(());
        };
        let line_end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |end| start + end);
        *number += 1;
        f(*number, checked(&bytes[start..line_end]))?;
        if line_end == bytes.len() {
            return Ok(());
        }
        bytes = &bytes[line_end + 1..];
    }
}

/// One line (without its `\n`) as text, without a final `\r`.
fn checked(line: &[u8]) -> Result<&str, NotUtf8> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    std::str::from_utf8(line).map_err(|e| NotUtf8 {
        offset: e.valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_documents_agree_on_every_line_that_holds_a_document() {
        let text = "a\r\n\n  \n\t5\n b \t7\tC\tbody\t x\n\u{3000}\nlast";
        let ids: Vec<&str> = ids(text).collect();
        assert_eq!(ids, ["a", "", "  ", "", " b ", "\u{3000}", "last"]);
        let documents: Vec<(usize, &str)> = documents(text).map(|(n, f)| (n, f.id)).collect();
        assert_eq!(documents, [(1, "a"), (4, ""), (5, " b "), (7, "last")]);
        for (number, fields) in super::documents(text) {
            assert_eq!(ids[number - 1], fields.id);
        }
        let b = Fields::parse(" b \t7\tC\tbody\t x").unwrap();
        assert_eq!(
            (b.size(), b.collection, b.body),
            (Ok(Some(7)), Some("C"), Some("body\t x"))
        );
    }

    #[test]
    fn blocks_read_the_lines_for_each_line_reads() {
        let mut text = Vec::new();
        for i in 0..3000 {
            match i % 7 {
                0 => text.extend_from_slice(b"\r\n"),
                1 => text.extend_from_slice(b"bad\xff\xfe\n"),
                2 => text.extend_from_slice("Straße/É\t12\n".as_bytes()),
                _ => text.extend_from_slice(format!("orders/{i}-A\n").as_bytes()),
            }
        }
        text.extend_from_slice(b"last");
        let mut whole = Vec::new();
        for_each_line(&text[..], |n, line| {
            whole.push((n, line.map(str::to_string)));
            Ok::<(), ()>(())
        })
        .unwrap();
        for block_len in [1, 7, 100, 4096, 1 << 20] {
            let mut blocks = Vec::new();
            for_each_block(&text[..], block_len, |block| {
                let first = blocks.len() as u64;
                for_each_line_in(&block, |n, line| {
                    blocks.push((first + n, line.map(str::to_string)));
                    Ok::<(), ()>(())
                })?;
                Ok::<_, ()>(Some(block))
            })
            .unwrap();
            assert_eq!(blocks, whole, "blocks of {block_len}");
            let mut raw = Vec::new();
            for_each_block(&text[..], block_len, |block| {
                raw.extend(byte_lines(&block).map(<[u8]>::to_vec));
                Ok::<_, ()>(Some(block))
            })
            .unwrap();
            let checked: Vec<Result<String, NotUtf8>> =
                raw.iter().map(|l| checked(l).map(str::to_string)).collect();
            let expected: Vec<Result<String, NotUtf8>> =
                whole.iter().map(|(_, l)| l.clone()).collect();
            assert_eq!(checked, expected, "byte lines, blocks of {block_len}");
        }
    }

    #[test]
    fn id_field_is_a_part_of_the_line() {
        for line in ["  ", "a\tb", "", "\u{a0}x"] {
            let id = id_field(line);
            let start = id.as_ptr() as usize - line.as_ptr() as usize;
            assert!(start + id.len() <= line.len(), "{line:?}");
        }
        assert_eq!(id_field("\u{a0}x"), "\u{a0}x");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("18446744073709551615"), Ok(Some(u64::MAX)));
        for bad in [
            "-1",
            "+1",
            "1.5",
            "12 KB",
            "18446744073709551616",
            "1 2",
            "١",
        ] {
            assert_eq!(parse_size(bad), Err(BadSize { text: bad.into() }), "{bad}");
        }
        assert_eq!(
            Fields::parse("a\t 12 ").map(|f| f.size()),
            Some(Ok(Some(12)))
        );
    }

    /// The lines [`for_each_line`] gives for `input` read through a buffer of `capacity`.
    fn stream(input: &[u8], capacity: usize) -> Vec<(u64, Result<String, NotUtf8>)> {
        let mut seen = Vec::new();
        let reader = io::BufReader::with_capacity(capacity, input);
        let read = for_each_line(reader, |n, line| {
            seen.push((n, line.map(str::to_string)));
            Ok::<(), ()>(())
        });
        assert!(read.is_ok());
        seen
    }

    #[test]
    fn streamed_lines_do_not_depend_on_the_buffer() {
        let input = b"x\n\r\n\nyy\r\nab\xffc\nok\n\xe9\n\nlong line here\r\n\xff\nz";
        let expected = stream(input, 1 << 16);
        let numbers: Vec<u64> = expected.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, (1..=11).collect::<Vec<_>>());
        assert_eq!(expected[0].1, Ok("x".into()));
        assert_eq!(expected[1].1, Ok("".into()));
        assert_eq!(expected[3].1, Ok("yy".into()));
        assert_eq!(expected[4].1, Err(NotUtf8 { offset: 2 }));
        assert_eq!(expected[6].1, Err(NotUtf8 { offset: 0 }));
        assert_eq!(expected[8].1, Ok("long line here".into()));
        assert_eq!(expected[10].1, Ok("z".into()));
        for capacity in 1..input.len() + 2 {
            assert_eq!(stream(input, capacity), expected, "buffer of {capacity}");
        }
        assert_eq!(stream(b"", 8), []);
        assert_eq!(stream(b"\n", 8), [(1, Ok(String::new()))]);
        assert_eq!(stream(b"a\n", 8), [(1, Ok("a".into()))]);
    }

    #[test]
    fn streamed_lines_are_the_lines_of_the_text() {
        let text = "a\r\n\n  \n\t5\n b \t7\tC\n\u{3000}\nlast";
        let from_text: Vec<(u64, Result<String, NotUtf8>)> = split(text)
            .map(|(n, line)| (n as u64, Ok(line.to_string())))
            .collect();
        assert_eq!(stream(text.as_bytes(), 3), from_text);
    }

    #[test]
    fn a_callback_error_stops_the_reading() {
        let mut calls = 0;
        let read = for_each_line(&b"a\nb\nc\n"[..], |n, _| {
            calls += 1;
            if n == 2 {
                Err("stop")
            } else {
                Ok(())
            }
        });
        assert!(matches!(read, Err(Stop::By("stop"))));
        assert_eq!(calls, 2);
    }

    proptest::proptest! {
        /// The one-pass IDs are the lines' `id_field`s, line numbers and bad lines included.
        #[test]
        fn ids_in_one_pass_are_the_lines_id_fields(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![&b"a"[..], b"\t", b"\n", b"\r", b" ", b"\xc3\xa9", b"\xff", b"5"]),
                0..40,
            )
        ) {
            let block = parts.concat();
            let mut lines = Vec::new();
            let n = for_each_line_in(&block, |number, line| {
                lines.push((number, line.map(|l| id_field(l).to_string())));
                Ok::<(), ()>(())
            });
            let mut ids = Vec::new();
            let m = for_each_id_in(&block, |number, id| {
                ids.push((number, id.map(str::to_string)));
                Ok::<(), ()>(())
            });
            proptest::prop_assert_eq!(n, m);
            proptest::prop_assert_eq!(lines, ids);
        }

        /// [`ids`] (one pass over the text) gives each line's [`id_field`], as [`split`]
        /// splits the text.
        #[test]
        fn ids_are_the_split_lines_id_fields(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["a", "\t", "\n", "\r", " ", "é", "5"]),
                0..40,
            )
        ) {
            let text = parts.concat();
            let expected: Vec<&str> = split(&text).map(|(_, line)| id_field(line)).collect();
            proptest::prop_assert_eq!(ids(&text).collect::<Vec<_>>(), expected);
        }
    }
}
