//! Where a final ID lives, with or without the design: the core's path for plain IDs, the
//! design's for `$@<n>`.

use super::{pinned_bucket, ContentDesign, ContentError};
use ravenshard::{IdError, Location, Topology};
use std::fmt;

/// Why [`locate_id`] cannot place an ID: the core's reason for an ID it places, the design's
/// for a `$@<n>` ID. Both read as their own messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocateError {
    /// The ID is invalid ([`Topology::locate`]).
    Id(IdError),
    /// The design cannot place it (`$@` without a bucket number, an invalid pinned ID).
    Content(ContentError),
}

impl fmt::Display for LocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateError::Id(e) => e.fmt(f),
            LocateError::Content(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LocateError {}

impl From<IdError> for LocateError {
    fn from(e: IdError) -> LocateError {
        LocateError::Id(e)
    }
}

impl From<ContentError> for LocateError {
    fn from(e: ContentError) -> LocateError {
        LocateError::Content(e)
    }
}

/// Where a final ID lives: [`Topology::locate`], with the design's one change when `design`
/// is given (the configuration has `ByContent`): an ID whose last `$` is followed by `@` is
/// placed by [`ContentDesign::locate`], so `…$@<n>` is in bucket `n` exactly (no prefix
/// offset; `prefix` is `None`). Every other ID takes the topology's path, at the same cost
/// and with the same errors as without the design.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::{locate_id, ContentDesign};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(3).unwrap();
/// let design = ContentDesign::default();
/// let pinned = locate_id(&t, Some(&design), "orders/1-A$@982326").unwrap();
/// assert_eq!((pinned.bucket, pinned.shard, pinned.prefix), (982326, 2, None));
/// assert_ne!(locate_id(&t, None, "orders/1-A$@982326").unwrap().bucket, 982326);
/// assert_eq!(locate_id(&t, Some(&design), "customers/1-A"), Ok(t.locate("customers/1-A").unwrap()));
/// assert!(locate_id(&t, Some(&design), "orders/1-A$@x").unwrap_err().to_string().contains("'$@' must be followed"));
/// assert_eq!(locate_id(&t, Some(&design), "").unwrap_err().to_string(), t.locate("").unwrap_err().to_string());
/// ```
pub fn locate_id(
    topology: &Topology,
    design: Option<&ContentDesign>,
    id: &str,
) -> Result<Location, LocateError> {
    match design.filter(|_| pinned_bucket(id).is_some()) {
        Some(design) => {
            let (bucket, shard, _) = design.locate(topology, id)?;
            Ok(Location {
                bucket,
                shard,
                prefix: None,
            })
        }
        None => Ok(topology.locate(id)?),
    }
}
