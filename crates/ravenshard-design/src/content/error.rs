//! Why the chapter's content-based design cannot place, store or check something.

use std::fmt;

/// A problem with the `ByContent`, `Indexes` or `IdConventions` sections of a
/// configuration, or with a document under them. Configuration problems carry the JSON path
/// of the offending value, relative to the sharding configuration (`ByContent.Orders.Range`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentError {
    /// A section of the configuration is malformed.
    Config {
        /// Where, for example `ByContent.Orders.Fields[1]`.
        path: String,
        /// What is wrong and what to write instead.
        message: String,
    },
    /// `$@` is followed by something other than a bucket number below 2^20.
    BadPinnedBucket {
        /// The document ID.
        id: String,
        /// The text after `$@`.
        text: String,
    },
    /// The ID ends with `$` (asks for a generated ID) but its collection has no rule.
    NoRuleForGeneratedId {
        /// The document ID.
        id: String,
        /// The document's collection.
        collection: String,
    },
    /// A rule needs the document's body (its fields), and there is none.
    NoBody {
        /// The document ID.
        id: String,
        /// The rule's name.
        rule: String,
    },
    /// A field a rule reads is missing, or has a type the rule cannot use.
    BadField {
        /// The document ID.
        id: String,
        /// The field's path (`Address.ZipCode`), as the rule names it.
        path: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The document ID itself cannot be stored (empty, too long...).
    BadId {
        /// The document ID.
        id: String,
        /// The core's message.
        message: String,
    },
    /// A write that an immutable rule (`Mutable: false`) rejects: the document's bucket is
    /// outside the block its content asks for.
    Rejected {
        /// The document ID.
        id: String,
        /// The rule's name (its collection).
        rule: String,
        /// The fields the rule reads, as configured.
        fields: String,
        /// Their values, as text.
        values: String,
        /// The bucket of those values (before `Range` is applied).
        content_bucket: u32,
        /// The bucket the document is in.
        bucket: u32,
        /// The rule's `Range`.
        range: u32,
    },
    /// An ID ending with `$` where a final ID is needed (a transaction, a `LoadDocument`):
    /// with `ByContent` on, the server picks its bucket from the document's fields when it
    /// is first stored.
    NotFinal {
        /// The document ID.
        id: String,
    },
    /// A document is to be stored by content, but the configuration has no `ByContent`
    /// section: the design is off.
    DesignOff,
    /// An ID convention names a field the document does not have (or not as text).
    BadConvention {
        /// The collection whose convention it is.
        collection: String,
        /// The template.
        template: String,
        /// What is wrong.
        problem: String,
    },
}

impl ContentError {
    /// The JSON path of a configuration problem.
    pub fn path(&self) -> Option<&str> {
        match self {
            ContentError::Config { path, .. } => Some(path),
            _ => None,
        }
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContentError::Config { path, message } => write!(f, "{path}: {message}"),
            ContentError::BadPinnedBucket { id, text } => write!(
                f,
                "'{id}': '$@' must be followed by a bucket number from 0 to 1048575, not \
                 '{text}'. Write the bucket in decimal ('orders/1-A$@982173'), or anchor to \
                 a document ID instead ('orders/1-A$customers/1-A')."
            ),
            ContentError::NoRuleForGeneratedId { id, collection } => write!(
                f,
                "'{id}': IDs ending with '$' need a ByContent rule for collection \
                 {collection}. Add a rule for {collection}, or give the document an ID that \
                 does not end with '$'."
            ),
            ContentError::NoBody { id, rule } => write!(
                f,
                "'{id}': the ByContent rule {rule} reads the document's fields, but the \
                 document has no body. Give it a JSON body with those fields."
            ),
            ContentError::BadField { id, path, problem } => {
                write!(f, "'{id}': field {path} {problem}")
            }
            ContentError::BadId { id, message } => write!(f, "'{id}': {message}"),
            ContentError::Rejected {
                id,
                rule,
                fields,
                values,
                content_bucket,
                bucket,
                range,
            } => {
                let low = content_bucket - content_bucket % range;
                let high = (u64::from(low) + u64::from(*range) - 1)
                    .min(u64::from(ravenshard::NUMBER_OF_BUCKETS) - 1);
                write!(
                    f,
                    "Rejected: '{id}' is in bucket {bucket}, but its {fields} {values} has \
                     bucket {content_bucket}, so the ByContent rule {rule} (Range {range}, not \
                     Mutable) needs a bucket from {low} to {high}. Keep a value whose bucket \
                     falls in the document's block, or set Mutable to true for {rule} first."
                )
            }
            ContentError::NotFinal { id } => write!(
                f,
                "'{id}' is not a final ID: it ends with '$', so the server picks its bucket from \
                 the document's fields when it is first stored ('{id}@<bucket>'). Store it first \
                 to learn its final ID, or name it on the client: anchor it ('{id}customers/1-A') \
                 or pin a bucket ('{id}@982173')."
            ),
            ContentError::DesignOff => f.write_str(
                "the configuration has no ByContent section, so the draft chapter's \
                 content-based design is off and there is nothing to store by content. Add one, \
                 for example \"ByContent\": {\"Orders\": {\"Fields\": [\"Customer\"]}}.",
            ),
            ContentError::BadConvention {
                collection,
                template,
                problem,
            } => write!(
                f,
                "The ID convention of {collection} ('{template}') cannot name this document: \
                 {problem}."
            ),
        }
    }
}

impl std::error::Error for ContentError {}
