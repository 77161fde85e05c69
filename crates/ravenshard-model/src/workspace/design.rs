//! The draft chapter's design applied to a workspace's documents: `$@` buckets, generated
//! IDs and writes an immutable rule rejects (see [`content`](ravenshard_design::content)).

use super::Document;
use ravenshard::Topology;
use ravenshard_design::content::{
    asks_for_generated_id, pinned_bucket, ContentDesign, ContentDocument, ContentError,
};
use serde_json::Value;

/// What the design says of one document whose ID passed the core's checks.
pub(super) enum DesignStep {
    /// Nothing: the core's bucket stands.
    Keep,
    /// The document is in this bucket (`$@` pinned, or generated with this final ID).
    Bucket {
        /// The bucket.
        bucket: u32,
        /// The generated ID, for an ID ending in `$`.
        generated: Option<String>,
    },
}

/// The document as the design sees it, without its body (parsed only when needed).
fn head(document: &Document) -> ContentDocument<'_> {
    ContentDocument {
        id: &document.id,
        collection: document.collection.as_deref(),
        body: None,
    }
}

/// Whether an ID convention names this document (its collection has one, its ID no `$`).
fn named_by_convention(design: &ContentDesign, document: &Document) -> bool {
    !document.id.contains('$') && design.convention(head(document).collection()).is_some()
}

/// Whether the design can change anything for this document: a `$@`, a trailing `$`, an ID
/// convention, or a collection with a rule (whose fields must then be checked).
fn concerns(design: &ContentDesign, document: &Document) -> bool {
    document.id.contains("$@")
        || asks_for_generated_id(&document.id)
        || named_by_convention(design, document)
        || (document.body.is_some()
            && design
                .rule(head(document).collection())
                .is_some_and(|r| !r.mutable))
}

/// Applies the design to a document the core put in `bucket`.
pub(super) fn step(
    design: &ContentDesign,
    topology: &Topology,
    document: &Document,
    bucket: u32,
) -> Result<DesignStep, ContentError> {
    if !concerns(design, document) {
        return Ok(DesignStep::Keep);
    }
    let body: Option<Value> = match document.body.as_deref() {
        Some(text) => Some(
            // from_slice, as the importers parse: one copy of serde_json's parser, not two.
            serde_json::from_slice(text.as_bytes()).map_err(|e| ContentError::BadField {
                id: document.id.clone(),
                path: "(body)".into(),
                problem: format!("is not JSON: {e}"),
            })?,
        ),
        None => None,
    };
    let doc = ContentDocument {
        body: body.as_ref(),
        ..head(document)
    };
    let id = &document.id;
    if asks_for_generated_id(id) || named_by_convention(design, document) {
        let stored = design.store(topology, &doc)?;
        return Ok(DesignStep::Bucket {
            bucket: stored.bucket,
            generated: Some(stored.id),
        });
    }
    let bucket = match pinned_bucket(id) {
        Some(pinned) => pinned?,
        None => bucket,
    };
    design.check_write(id, bucket, doc.collection(), doc.body)?;
    Ok(DesignStep::Bucket {
        bucket,
        generated: None,
    })
}
