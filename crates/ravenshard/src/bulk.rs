//! Many IDs at once: newline-separated text in (read by [`lines`](crate::lines)'s
//! line-by-line mode), one bucket (or shard) per line out.

use crate::{bucket_for, IdError, Topology};
use std::fmt;

/// An invalid line of newline-separated text, with its 1-based line number: an invalid ID
/// (`E` is [`IdError`]), or what else the line's reader refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError<E = IdError> {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with that line.
    pub error: E,
}

impl<E: fmt::Display> fmt::Display for LineError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for LineError<E> {}

/// The IDs of newline-separated text, one per line, as the [`lines`](crate::lines) reader's
/// line-by-line mode reads them: `\r\n` accepted, text after a tab on a line
/// (`id<TAB>size`) ignored, a blank line an empty ID, no entry for a final newline.
///
/// # Examples
///
/// ```
/// let ids: Vec<&str> = ravenshard::bulk::lines("a\r\nb\t120\nc\n").collect();
/// assert_eq!(ids, ["a", "b", "c"]);
/// ```
pub fn lines(text: &str) -> impl Iterator<Item = &str> + Clone {
    crate::lines::ids(text)
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
    buckets_with(text, topology, |_| None)
}

/// The buckets of the lines of `text`; `pinned(id)` answers for the IDs it knows (such as
/// the draft design's `$@<n>`, see `ravenshard_design::content::bulk`), the core's pipeline
/// for the rest.
///
/// # Examples
///
/// ```
/// use ravenshard::{bulk::buckets_with, IdError};
///
/// let pinned = |id: &str| (id == "fixed").then_some(Ok::<u32, IdError>(7));
/// assert_eq!(buckets_with("fixed\norders/1-A", None, pinned), Ok(vec![7, 151326]));
/// ```
pub fn buckets_with<E: From<IdError>>(
    text: &str,
    topology: Option<&Topology>,
    pinned: impl Fn(&str) -> Option<Result<u32, E>>,
) -> Result<Vec<u32>, LineError<E>> {
    // Each ID takes the core's single-pass path: lower-cased eight bytes at a time into a
    // stack buffer with its anchor found in the same pass (`bucket_for`), which is faster
    // than lower-casing the whole text first and scanning each line again.
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    for (i, id) in lines(text).enumerate() {
        let bucket = match pinned(id) {
            Some(bucket) => bucket,
            None => match topology {
                Some(t) => t.bucket_for(id),
                None => bucket_for(id),
            }
            .map_err(E::from),
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

/// The `f(id)` of every line of `text`, or the first line `f` refuses, with its number.
///
/// # Examples
///
/// ```
/// use ravenshard::bulk::map_lines;
///
/// assert_eq!(map_lines("a\nbb", |id| Ok::<usize, ()>(id.len())), Ok(vec![1, 2]));
/// assert_eq!(map_lines("a\n", |_| Err::<usize, _>("no")).unwrap_err().line, 1);
/// ```
pub fn map_lines<E, T>(
    text: &str,
    mut f: impl FnMut(&str) -> Result<T, E>,
) -> Result<Vec<T>, LineError<E>> {
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    for (i, id) in lines(text).enumerate() {
        out.push(f(id).map_err(|error| LineError { line: i + 1, error })?);
    }
    Ok(out)
}
