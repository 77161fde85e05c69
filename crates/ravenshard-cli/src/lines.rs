//! Reading IDs one per line, in constant memory, from files of any size.

use std::fmt;
use std::io::{self, BufRead};

/// Why a line holds no usable ID text.
#[derive(Debug)]
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

/// Where a run over lines stopped.
#[derive(Debug)]
pub enum Stop {
    /// Reading the input failed.
    Read(io::Error),
    /// The callback failed (writing the output).
    Sink(io::Error),
}

/// Calls `f(line_number, id)` for every line of `input` (1-based). A line is `id` or
/// `id<TAB>size...`; `\r\n` endings are accepted. The line buffer is reused, so memory stays
/// flat whatever the input's size.
pub fn for_each_id<R, F>(input: R, mut f: F) -> Result<(), Stop>
where
    R: BufRead,
    F: FnMut(u64, Result<&str, NotUtf8>) -> io::Result<()>,
{
    for_each_line(input, |line, text| {
        let id = match text.iter().position(|&b| b == b'\t') {
            Some(tab) => &text[..tab],
            None => text,
        };
        f(line, utf8(id))
    })
}

/// A line's bytes as text, or where they stop being UTF-8.
pub fn utf8(bytes: &[u8]) -> Result<&str, NotUtf8> {
    std::str::from_utf8(bytes).map_err(|e| NotUtf8 {
        offset: e.valid_up_to(),
    })
}

/// Calls `f(line_number, bytes)` for every line of `input` (1-based), without its `\n` or
/// `\r\n`. The line buffer is reused, so memory holds one line at a time.
pub fn for_each_line<R, F>(mut input: R, mut f: F) -> Result<(), Stop>
where
    R: BufRead,
    F: FnMut(u64, &[u8]) -> io::Result<()>,
{
    let mut buffer = Vec::with_capacity(1024);
    let mut line = 0u64;
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer).map_err(Stop::Read)? == 0 {
            return Ok(());
        }
        line += 1;
        let mut text: &[u8] = &buffer;
        if let Some(rest) = text.strip_suffix(b"\n") {
            text = rest;
        }
        if let Some(rest) = text.strip_suffix(b"\r") {
            text = rest;
        }
        f(line, text).map_err(Stop::Sink)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8]) -> Vec<(u64, String)> {
        let mut seen = Vec::new();
        for_each_id(input, |line, id| {
            seen.push((
                line,
                id.map_or_else(|e| format!("!{}", e.offset), str::to_string),
            ));
            Ok(())
        })
        .map_err(|_| ())
        .expect("reading from a slice cannot fail");
        seen
    }

    #[test]
    fn splits_lines_sizes_and_crlf() {
        let seen = collect(b"a\r\nb\t120\n\nc");
        let expected = [(1, "a"), (2, "b"), (3, ""), (4, "c")];
        assert_eq!(seen, expected.map(|(l, s)| (l, s.to_string())).to_vec());
    }

    #[test]
    fn reports_invalid_utf8_with_offset() {
        assert_eq!(collect(b"ab\xffc\n"), vec![(1, "!2".to_string())]);
    }
}
