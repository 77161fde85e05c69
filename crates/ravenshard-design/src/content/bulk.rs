//! Many IDs at once under the draft chapter's design: [`ravenshard::bulk`]'s line readers,
//! with `…$@<n>` IDs in bucket `n`.

use super::{locate_id, pinned_bucket, ContentDesign, LocateError};
use ravenshard::bulk::{buckets_with, map_lines, LineError};
use ravenshard::Topology;

/// [`buckets_for_lines`](ravenshard::bulk::buckets_for_lines) under the draft chapter's design when `design` is given (a
/// configuration with `ByContent`): a line whose last `$` is followed by `@` is read by
/// [`ContentDesign::bucket`] (`…$@<n>` is in bucket `n`, no prefix offset; `$@` and anything
/// else is an error); every other line takes the same fast path, with the same errors.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::bulk::buckets_for_lines_under;
/// use ravenshard_design::content::ContentDesign;
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
        Some(design) => buckets_with(text, topology, |id| {
            pinned_bucket(id).map(|_| design.bucket(id).map_err(LocateError::from))
        }),
        None => buckets_with(text, topology, |_| None),
    }
}

/// [`shards_for_lines`](ravenshard::bulk::shards_for_lines) under the draft chapter's design when `design` is given: each line
/// is placed by [`locate_id`], so `…$@<n>` is on the shard of bucket `n`.
///
/// # Examples
///
/// ```
/// use ravenshard::Topology;
/// use ravenshard_design::content::bulk::shards_for_lines_under;
/// use ravenshard_design::content::ContentDesign;
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
