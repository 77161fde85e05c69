//! The anchors a builder of earlier input knows, for the builders of later input: they find
//! the anchor documents of those groups in the first pass.

use super::HashIsKey;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

/// The anchors of the groups of a builder of earlier input, by the XXH64 of each
/// ([`ReportBuilder::earlier_anchors`](super::ReportBuilder::earlier_anchors)). A builder
/// of later input that is given them
/// ([`ReportBuilder::look_up_earlier_anchors`](super::ReportBuilder::look_up_earlier_anchors))
/// notes its IDs that may be the anchor of one of these groups, and merging it marks them:
/// when the anchors it was given are every anchor of the input
/// ([`groups`](Self::groups) equals the whole builder's
/// [`anchored_group_count`](super::ReportBuilder::anchored_group_count) at the end), its
/// part of the input needs no second pass.
///
/// # Examples
///
/// ```
/// use ravenshard::report::EarlierAnchors;
/// use ravenshard::{ReportBuilder, ReportOptions};
/// use std::sync::Arc;
///
/// let mut whole = ReportBuilder::two_pass(None, ReportOptions::default());
/// whole.add("orders/1$Users/4");
/// let earlier = Arc::new(whole.earlier_anchors(&EarlierAnchors::default()).unwrap());
/// assert_eq!(earlier.groups(), 1);
/// let mut later = ReportBuilder::two_pass(None, ReportOptions::default());
/// later.look_up_earlier_anchors(Arc::clone(&earlier));
/// later.add("users/4");
/// whole.merge(later);
/// // Every anchor was known to the later part: no second pass over it.
/// assert_eq!(whole.anchored_group_count(), earlier.groups());
/// assert!(whole.finish().anchored_groups[0].anchor_is_document);
/// ```
#[derive(Debug, Default)]
pub struct EarlierAnchors {
    pub(super) hashes: HashSet<u64, BuildHasherDefault<HashIsKey>>,
    /// How many groups (distinct anchors) the builder had.
    pub(super) groups: u64,
    /// How many lines it had read.
    pub(super) lines: u64,
}

impl EarlierAnchors {
    /// How many groups (distinct anchors) the earlier builder had.
    pub fn groups(&self) -> u64 {
        self.groups
    }

    /// Whether an anchor has the XXH64 `hash`.
    pub(super) fn may_have(&self, hash: u64) -> bool {
        self.hashes.contains(&hash)
    }
}
