//! Many IDs at once: newline-separated text in, one bucket (or shard) per line out.

use crate::{bucket_for, IdError, Topology};
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
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .filter(move |_| !text.is_empty())
        .map(|line| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            line.split('\t').next().unwrap_or(line)
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
    map_lines(text, |id| match topology {
        Some(t) => t.bucket_for(id),
        None => bucket_for(id),
    })
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
