//! Many IDs at once: newline-separated text in, one bucket (or shard) per line out.

use crate::{bucket_for, bucket_of_lower, check_id, IdError, Topology};
use std::fmt;

/// An invalid ID in newline-separated text, with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with the ID on that line.
    pub error: IdError,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for LineError {}

/// The IDs of newline-separated text: one per line, `\r\n` accepted, text after a tab on a
/// line (`id<TAB>size`) ignored, no entry for a final newline.
///
/// # Examples
///
/// ```
/// let ids: Vec<&str> = ravenshard::bulk::lines("a\r\nb\t120\nc\n").collect();
/// assert_eq!(ids, ["a", "b", "c"]);
/// ```
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        // Plain byte loops: IDs are short, and a `str` searcher costs more to set up.
        let (line, next) = match rest.bytes().position(|b| b == b'\n') {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => (rest, ""),
        };
        rest = next;
        let line = line.strip_suffix('\r').unwrap_or(line);
        Some(match line.bytes().position(|b| b == b'\t') {
            Some(tab) => &line[..tab],
            None => line,
        })
    })
}

/// The bucket of every line of `text` (with `topology`'s prefix offsets when given), or the
/// first invalid line.
///
/// # Examples
///
/// ```
/// use ravenshard::bulk::buckets_for_lines;
///
/// assert_eq!(buckets_for_lines("orders/1-A\ncustomers/1-A\n", None), Ok(vec![151326, 982173]));
/// let err = buckets_for_lines("orders/1-A\n\nx", None).unwrap_err();
/// assert_eq!(err.line, 2);
/// ```
pub fn buckets_for_lines(text: &str, topology: Option<&Topology>) -> Result<Vec<u32>, LineError> {
    // Lower-case all ASCII letters of the text in one vectorised pass; ASCII lines then need
    // only their anchor found and hashed. Byte offsets are the same in both texts.
    let lower_text = text.to_ascii_lowercase();
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    for (i, lower) in lines(&lower_text).enumerate() {
        let start = lower.as_ptr() as usize - lower_text.as_ptr() as usize;
        let bucket = if lower.is_ascii() {
            check_id(lower).map(|()| {
                let offset = topology.map_or(0, |t| {
                    t.prefix_of_lower(lower)
                        .map_or(0, |p| t.prefixes()[p].bucket_range_start)
                });
                bucket_of_lower(lower.as_bytes()) + offset
            })
        } else {
            let id = &text[start..start + lower.len()];
            match topology {
                Some(t) => t.bucket_for(id),
                None => bucket_for(id),
            }
        };
        out.push(bucket.map_err(|error| LineError { line: i + 1, error })?);
    }
    Ok(out)
}

/// The shard of every line of `text`, or the first invalid line.
///
/// # Examples
///
/// ```
/// use ravenshard::{bulk::shards_for_lines, Topology};
///
/// let t = Topology::with_shards(3).unwrap();
/// assert_eq!(shards_for_lines("orders/1-A\ncustomers/1-A", &t), Ok(vec![0, 2]));
/// ```
pub fn shards_for_lines(text: &str, topology: &Topology) -> Result<Vec<u32>, LineError> {
    map_lines(text, |id| topology.locate(id).map(|l| l.shard))
}

fn map_lines(
    text: &str,
    mut f: impl FnMut(&str) -> Result<u32, IdError>,
) -> Result<Vec<u32>, LineError> {
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    for (i, id) in lines(text).enumerate() {
        out.push(f(id).map_err(|error| LineError { line: i + 1, error })?);
    }
    Ok(out)
}
