//! Can an index over one document `LoadDocument` another? Only when both are in the same
//! bucket: the same shard (fragment) is not enough, and `Range` does not help.

use super::{place, PlacedId};
use crate::content::{ContentDesign, ContentDocument, ContentError};
use ravenshard::{lower_id_with, Topology, NUMBER_OF_BUCKETS};
use serde::Serialize;

/// The `LoadDocument` check of a document and the related document its index loads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoadCheck {
    /// The indexed document.
    pub document: PlacedId,
    /// The document it loads.
    pub related: PlacedId,
    /// Whether they share a bucket: the only case in which `LoadDocument` works.
    pub same_bucket: bool,
    /// Whether they are on the same shard (today).
    pub same_shard: bool,
    /// What that means, in words.
    pub message: String,
    /// When they do not share a bucket: an ID that puts the document in the related
    /// document's bucket, with where it would be (`None` when no ID can; see `notes`).
    pub suggestion: Option<PlacedId>,
    /// Caveats about the suggestion.
    pub notes: Vec<String>,
}

/// The byte index of an ID's anchor `$` (the last `$` after the first byte), if any.
fn anchor_dollar(id: &str) -> Option<usize> {
    id.as_bytes()
        .iter()
        .skip(1)
        .rposition(|&b| b == b'$')
        .map(|i| i + 1)
}

/// An ID without its anchor: `orders/1-A$customers/1-A` → `orders/1-A`.
fn without_anchor(id: &str) -> &str {
    anchor_dollar(id).map_or(id, |i| &id[..i])
}

/// The ID that anchors `document_id` to the bucket of `related_id`: the document's ID
/// without its anchor, `$`, and the related ID's hashed part (its text after its anchor
/// `$`, or all of it). A related `$@<n>` ID gives `…$@<n>`, which pins the same bucket.
///
/// # Examples
///
/// ```
/// use ravenshard_design::locality::anchored_to;
///
/// assert_eq!(anchored_to("Users/70", "Users/4"), "Users/70$Users/4");
/// assert_eq!(anchored_to("orders/1-A$customers/2-B", "customers/1-A"), "orders/1-A$customers/1-A");
/// assert_eq!(anchored_to("invoices/1", "orders/1-A$customers/1-A"), "invoices/1$customers/1-A");
/// assert_eq!(anchored_to("invoices/1", "orders/1-A$@982326"), "invoices/1$@982326");
/// ```
pub fn anchored_to(document_id: &str, related_id: &str) -> String {
    let base = without_anchor(document_id);
    let hashed = anchor_dollar(related_id).map_or(related_id, |i| &related_id[i + 1..]);
    format!("{base}${hashed}")
}

/// Checks whether an index over `document_id` can `LoadDocument(related_id)`: they must be
/// in the same bucket (an exact match; the chapter: neither the same fragment nor a `Range`
/// block is enough). When they are not, suggests the anchored ID ([`anchored_to`]) that
/// would put the document in the related document's bucket, and says where it would be.
/// With a design, `$@<n>` pins bucket `n`.
///
/// # Examples
///
/// ```
/// use ravenshard_design::locality::check_load;
/// use ravenshard::Topology;
///
/// let topology = Topology::with_shards(3).unwrap();
/// let check = check_load("employees/1-A", "employees/2-A", &topology, None).unwrap();
/// assert!(!check.same_bucket);
/// let suggestion = check.suggestion.unwrap();
/// assert_eq!(suggestion.id, "employees/1-A$employees/2-A");
/// assert_eq!(suggestion.bucket, check.related.bucket);
/// assert!(check_load("orders/1-A$customers/1-A", "customers/1-A", &topology, None).unwrap().same_bucket);
/// ```
pub fn check_load(
    document_id: &str,
    related_id: &str,
    topology: &Topology,
    design: Option<&ContentDesign>,
) -> Result<LoadCheck, ContentError> {
    let document = place(document_id, topology, design)?;
    let related = place(related_id, topology, design)?;
    let same_bucket = document.bucket == related.bucket;
    let same_shard = document.shard == related.shard;
    let (d, r) = (&document, &related);
    let mut notes = Vec::new();
    let mut message = if same_bucket {
        format!(
            "'{}' and '{}' are both in bucket {}: an index over the first can LoadDocument the \
             second, and can still after resharding.",
            d.id, r.id, d.bucket
        )
    } else if same_shard {
        format!(
            "'{}' is in bucket {} and '{}' in bucket {}: both on shard {} today, but \
             LoadDocument needs the same bucket exactly (the same fragment is not enough).",
            d.id, d.bucket, r.id, r.bucket, d.shard
        )
    } else {
        format!(
            "'{}' is in bucket {} (shard {}) and '{}' in bucket {} (shard {}): LoadDocument \
             needs both in the same bucket.",
            d.id, d.bucket, d.shard, r.id, r.bucket, r.shard
        )
    };
    let rule =
        design.and_then(|design| design.rule(ContentDocument::new(document_id).collection()));
    if let Some(rule) = rule.filter(|rule| !same_bucket && rule.range > 1) {
        let block = |b: u32| (b % NUMBER_OF_BUCKETS) / rule.range;
        if block(d.bucket) == block(r.bucket) {
            notes.push(format!(
                "Both are in the same block of {} buckets of the ByContent rule {}, but Range \
                 does not help LoadDocument: it needs an exact bucket match.",
                rule.range, rule.name
            ));
        }
    }
    let suggestion = if same_bucket {
        None
    } else {
        suggest(
            document_id,
            related_id,
            &related,
            topology,
            design,
            &mut notes,
        )
    };
    if let Some(s) = &suggestion {
        message.push_str(&format!(
            " Name the document '{}' instead: it is in bucket {} (shard {}).",
            s.id, s.bucket, s.shard
        ));
        if let Some(rule) = rule.filter(|rule| !rule.mutable) {
            notes.push(format!(
                "{} has an immutable ByContent rule: '{}' must also lie in the block its {} \
                 asks for.",
                rule.name,
                s.id,
                rule.fields_text()
            ));
        }
    }
    Ok(LoadCheck {
        document,
        related,
        same_bucket,
        same_shard,
        message,
        suggestion,
        notes,
    })
}

/// The ID that puts the document in the related document's bucket, and where it is: the
/// anchored ID ([`anchored_to`]), or with the design on, the bucket pinned (`…$@<n>`). When
/// neither works (different prefixes, a related ID that an anchor cannot reproduce), a note
/// says why and there is no suggestion.
fn suggest(
    document_id: &str,
    related_id: &str,
    related: &PlacedId,
    topology: &Topology,
    design: Option<&ContentDesign>,
    notes: &mut Vec<String>,
) -> Option<PlacedId> {
    let mut candidates = vec![anchored_to(document_id, related_id)];
    if design.is_some() && related.bucket < NUMBER_OF_BUCKETS {
        candidates.push(format!(
            "{}$@{}",
            without_anchor(document_id),
            related.bucket
        ));
    }
    let mut problem = String::new();
    for id in candidates {
        match place(&id, topology, design) {
            Ok(placed) if placed.bucket == related.bucket => return Some(placed),
            Ok(placed) => {
                problem = format!(
                    "'{}' would be in bucket {}, not {}",
                    placed.id, placed.bucket, related.bucket
                )
            }
            Err(error) => problem = error.to_string(),
        }
    }
    let prefix = |id: &str| topology.prefix_of_lower(&lower_id_with(id, topology.server_version()));
    if prefix(document_id) != prefix(related_id) {
        problem.push_str(
            " (the two IDs fall under different prefixes, whose blocks of buckets differ, so no \
             anchor can put them in one bucket)",
        );
    }
    notes.push(format!("No ID can be suggested: {problem}."));
    None
}
