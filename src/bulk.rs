//! Many IDs at once: newline-separated text in, one bucket (or shard) per line out.

use crate::content::{locate_id, pinned_bucket, ContentDesign, LocateError};
use crate::{bucket_for, bucket_of_lower, check_id, IdError, Topology};
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
    buckets(text, topology, |_| None)
}

/// [`buckets_for_lines`] under the draft chapter's design when `design` is given (a
/// configuration with `ByContent`): a line whose last `$` is followed by `@` is read by
/// [`ContentDesign::bucket`] (`…$@<n>` is in bucket `n`, no prefix offset; `$@` and anything
/// else is an error); every other line takes the same fast path, with the same errors.
///
/// # Examples
///
/// ```
/// use ravenshard::bulk::buckets_for_lines_under;
/// use ravenshard::content::ContentDesign;
///
/// let design = ContentDesign::default();
/// let text = "orders/1-A$@982326\ncustomers/1-A";
/// assert_eq!(buckets_for_lines_under(text, None, Some(&design)), Ok(vec![982326, 982173]));
/// assert_ne!(buckets_for_lines_under(text, None, None).unwrap()[0], 982326);
/// let err = buckets_for_lines_under("a\norders/1-A$@x", None, Some(&design)).unwrap_err();
/// assert_eq!(err.line, 2);
/// assert!(err.to_string().starts_with("line 2: 'orders/1-A$@x': '$@' must be followed"));
/// ```
pub fn buckets_for_lines_under(
    text: &str,
    topology: Option<&Topology>,
    design: Option<&ContentDesign>,
) -> Result<Vec<u32>, LineError<LocateError>> {
    match design {
        Some(design) => buckets(text, topology, |id| {
            pinned_bucket(id).map(|_| design.bucket(id).map_err(LocateError::from))
        }),
        None => buckets(text, topology, |_| None),
    }
}

/// The buckets of the lines of `text`; `pinned(id)` answers for the IDs it knows (the
/// design's `$@<n>`), the core's pipeline for the rest.
fn buckets<E: From<IdError>>(
    text: &str,
    topology: Option<&Topology>,
    pinned: impl Fn(&str) -> Option<Result<u32, E>>,
) -> Result<Vec<u32>, LineError<E>> {
    // Lower-case all ASCII letters of the text in one vectorised pass; ASCII lines then need
    // only their anchor found and hashed. Byte offsets are the same in both texts.
    let lower_text = text.to_ascii_lowercase();
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    for (i, lower) in lines(&lower_text).enumerate() {
        let start = lower.as_ptr() as usize - lower_text.as_ptr() as usize;
        let id = &text[start..start + lower.len()];
        let bucket = if let Some(bucket) = pinned(id) {
            bucket
        } else if lower.is_ascii() {
            check_id(lower)
                .map(|()| {
                    let offset = topology.map_or(0, |t| t.prefix_block_start(lower));
                    bucket_of_lower(lower.as_bytes()) + offset
                })
                .map_err(E::from)
        } else {
            match topology {
                Some(t) => t.bucket_for(id),
                None => bucket_for(id),
            }
            .map_err(E::from)
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

/// [`shards_for_lines`] under the draft chapter's design when `design` is given: each line
/// is placed by [`locate_id`], so `…$@<n>` is on the shard of bucket `n`.
///
/// # Examples
///
/// ```
/// use ravenshard::{bulk::shards_for_lines_under, content::ContentDesign, Topology};
///
/// let t = Topology::with_shards(3).unwrap();
/// let design = ContentDesign::default();
/// assert_eq!(shards_for_lines_under("orders/1-A$@5\ncustomers/1-A", &t, Some(&design)), Ok(vec![0, 2]));
/// ```
pub fn shards_for_lines_under(
    text: &str,
    topology: &Topology,
    design: Option<&ContentDesign>,
) -> Result<Vec<u32>, LineError<LocateError>> {
    map_lines(text, |id| locate_id(topology, design, id).map(|l| l.shard))
}

fn map_lines<E>(
    text: &str,
    mut f: impl FnMut(&str) -> Result<u32, E>,
) -> Result<Vec<u32>, LineError<E>> {
    let mut out = Vec::with_capacity(text.len() / 16 + 1);
    for (i, id) in lines(text).enumerate() {
        out.push(f(id).map_err(|error| LineError { line: i + 1, error })?);
    }
    Ok(out)
}
