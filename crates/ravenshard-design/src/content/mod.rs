//! Content-based sharding as the draft "Sharding" chapter designs it — **not** shipped
//! RavenDB 7.x behaviour.
//!
//! The design is on when a sharding configuration has a `ByContent` section:
//!
//! ```json
//! { "Shards": {"0": {}, "1": {}, "2": {}},
//!   "ByContent": { "Orders": { "Fields": ["Customer"], "Range": 1000, "Mutable": false } } }
//! ```
//!
//! Then, besides the core's rules:
//! - `orders/1-A$@982173` (`$@` and a bucket number) is in that bucket exactly
//!   ([`pinned_bucket`]);
//! - `orders/1-A$` asks for a generated ID: the rule of its collection reads the document's
//!   fields ([`content_value`]) and the final ID is `orders/1-A$@<bucket>`, where the bucket
//!   is in the content's block of `Range` buckets ([`ranged_bucket`]);
//! - a write to a collection with an immutable rule must keep the document in its content
//!   block ([`ContentDesign::check_write`]);
//! - a configuration change, old → new, is safe when every valid document stays valid
//!   ([`diff_designs`]).
//!
//! Documents come as NDJSON lines named by `@metadata.@id` ([`JsonDocument`],
//! [`ContentDesign::store_lines`]). [`locate_id`] places a final ID with or without the
//! design. Transactions
//! and `LoadDocument` locality, which honour `$@`, are in [`locality`](crate::locality).
//!
//! `Indexes` declares static indexes and their collections (for query routing) and
//! `IdConventions` names new documents from their fields ([`apply_convention`]).
//!
//! # Examples
//!
//! ```
//! use ravenshard_design::content::{ContentDesign, ContentDocument};
//! use ravenshard::Topology;
//! use serde_json::json;
//!
//! let topology = Topology::from_json(r#"{"Shards": {"0": {}, "1": {}, "2": {}},
//!     "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#).unwrap();
//! let design = ContentDesign::from_topology(&topology).unwrap().unwrap();
//! let body = json!({"Customer": "customers/1-A"});
//! let stored = design.store(&topology, &ContentDocument::new("orders/1-A$").with_body(&body)).unwrap();
//! assert_eq!((stored.id.as_str(), stored.bucket, stored.shard), ("orders/1-A$@982326", 982326, 2));
//! ```

mod batch;
pub mod bulk;
mod convention;
mod diff;
mod error;
mod json_document;
mod locate;
mod rule;
mod ticks;
mod value;

pub use batch::StoreAnswer;
pub use convention::apply_convention;
pub use diff::{
    diff_designs, ConfigDiff, DiffDocument, Invalidated, RuleChange, RuleSettings, RuleStatus,
    Verdict, MAX_DIFF_EXAMPLES,
};
pub use error::ContentError;
pub use json_document::{DocumentError, JsonDocument};
pub use locate::{locate_id, LocateError};
pub use rule::{ContentRule, Field, IdConvention, IndexDefinition};
pub use ticks::dotnet_ticks;
pub use value::{content_value, field_value, ranged_bucket, ContentValue};

use ravenshard::{check_id, Topology, NUMBER_OF_BUCKETS};
use serde_json::{Map, Value};

/// The chapter's design as one configuration holds it: rules, indexes and ID conventions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContentDesign {
    /// `ByContent`, in configuration order.
    pub rules: Vec<ContentRule>,
    /// `Indexes`.
    pub indexes: Vec<IndexDefinition>,
    /// `IdConventions`.
    pub conventions: Vec<IdConvention>,
}

/// A document as the design sees it: an ID, and when known its collection
/// (`@metadata.@collection`) and JSON body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContentDocument<'a> {
    /// The ID as given.
    pub id: &'a str,
    /// `@metadata.@collection`, when known.
    pub collection: Option<&'a str>,
    /// The document's JSON, when known.
    pub body: Option<&'a Value>,
}

impl<'a> ContentDocument<'a> {
    /// A document known by its ID only.
    pub fn new(id: &'a str) -> ContentDocument<'a> {
        ContentDocument {
            id,
            collection: None,
            body: None,
        }
    }

    /// The same document with a body.
    pub fn with_body(self, body: &'a Value) -> ContentDocument<'a> {
        ContentDocument {
            body: Some(body),
            ..self
        }
    }

    /// The same document with a collection.
    pub fn with_collection(self, collection: &'a str) -> ContentDocument<'a> {
        ContentDocument {
            collection: Some(collection),
            ..self
        }
    }

    /// Its collection: `@metadata.@collection`, else the ID's text before the first `/`
    /// (empty when the ID has none).
    pub fn collection(&self) -> &'a str {
        self.collection.unwrap_or_else(|| collection_of(self.id))
    }
}

/// The collection an ID implies: its text before the first `/` (`orders/1-A` → `orders`),
/// empty when there is no `/`. Rules match collections ignoring case.
pub fn collection_of(id: &str) -> &str {
    id.find('/').map_or("", |i| &id[..i])
}

/// How a document got its bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assignment {
    /// The ID ended with `$`: generated from the rule's fields.
    Generated {
        /// The rule's name.
        rule: String,
        /// What the fields say.
        content: ContentValue,
        /// The bucket of the ID without its `$`.
        own: u32,
        /// The rule's `Range`.
        range: u32,
    },
    /// `$@<n>` in the ID.
    Pinned,
    /// The core's rules: hash (of the anchor, if any), plus a prefix's block.
    Hashed,
}

/// Where the design stores a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The final ID (a generated one for `...$`, a convention's, or the given one).
    pub id: String,
    /// Its bucket.
    pub bucket: u32,
    /// Its shard.
    pub shard: u32,
    /// How the bucket was found.
    pub assignment: Assignment,
    /// The ID convention that named it, when one did.
    pub convention: Option<String>,
}

/// The bucket a `$@<n>` ID pins, `None` when the ID has no `$@` after its last `$`, or why
/// the number is not a bucket.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::pinned_bucket;
///
/// assert_eq!(pinned_bucket("orders/1-A$@982173"), Some(Ok(982173)));
/// assert_eq!(pinned_bucket("orders/1-A$customers/1-A"), None);
/// assert!(pinned_bucket("orders/1-A$@1048576").unwrap().is_err());
/// assert!(pinned_bucket("orders/1-A$@12a").unwrap().is_err());
/// ```
pub fn pinned_bucket(id: &str) -> Option<Result<u32, ContentError>> {
    // The last `$` after the first byte (as the core's anchor); a byte search, so an ID
    // that starts with a multi-byte character is read the same way.
    let dollar = id.as_bytes().iter().skip(1).rposition(|&b| b == b'$')? + 1;
    let text = id[dollar + 1..].strip_prefix('@')?;
    let bucket = (!text.is_empty() && text.len() <= 7 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse::<u32>().ok())
        .flatten()
        .filter(|&n| n < NUMBER_OF_BUCKETS);
    Some(bucket.ok_or_else(|| ContentError::BadPinnedBucket {
        id: id.to_string(),
        text: text.to_string(),
    }))
}

impl ContentDesign {
    /// Reads the design from a sharding configuration's keys: `None` when there is no
    /// `ByContent` section (the design is off).
    pub fn from_configuration(
        keys: &Map<String, Value>,
    ) -> Result<Option<ContentDesign>, ContentError> {
        let Some(by_content) = keys.get("ByContent").filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        let section = |name: &str| keys.get(name).filter(|v| !v.is_null());
        Ok(Some(ContentDesign {
            rules: rule::read_rules(by_content)?,
            indexes: section("Indexes").map_or(Ok(Vec::new()), rule::read_indexes)?,
            conventions: section("IdConventions").map_or(Ok(Vec::new()), rule::read_conventions)?,
        }))
    }

    /// The design of a topology's configuration (see
    /// [`from_configuration`](ContentDesign::from_configuration)).
    pub fn from_topology(topology: &Topology) -> Result<Option<ContentDesign>, ContentError> {
        ContentDesign::from_configuration(topology.extra_keys())
    }

    /// The rule named `name` (a collection or an index), ignoring case.
    pub fn rule(&self, name: &str) -> Option<&ContentRule> {
        self.rules
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
    }

    /// The index named `name` in `Indexes`, ignoring case.
    pub fn index(&self, name: &str) -> Option<&IndexDefinition> {
        self.indexes
            .iter()
            .find(|i| i.name.eq_ignore_ascii_case(name))
    }

    /// The ID convention of a collection, ignoring case.
    pub fn convention(&self, collection: &str) -> Option<&IdConvention> {
        self.conventions
            .iter()
            .find(|c| c.collection.eq_ignore_ascii_case(collection))
    }

    /// The bucket and shard of an ID under the design: `$@<n>` pins bucket `n`; anything
    /// else follows the core (anchor, prefix). An ID ending in `$` is not final: use
    /// [`store`](ContentDesign::store).
    pub fn locate(
        &self,
        topology: &Topology,
        id: &str,
    ) -> Result<(u32, u32, Assignment), ContentError> {
        if pinned_bucket(id).is_some() {
            let bucket = self.bucket(id)?;
            let shard = shard_of(topology, bucket, id)?;
            return Ok((bucket, shard, Assignment::Pinned));
        }
        let location = topology.locate(id).map_err(|e| ContentError::BadId {
            id: id.to_string(),
            message: e.to_string(),
        })?;
        Ok((location.bucket, location.shard, Assignment::Hashed))
    }

    /// Stores a document, new or updated: applies its collection's ID convention (to an ID
    /// without `$`), generates the final ID of an ID ending in `$`, locates it, and checks
    /// the write against an immutable rule.
    pub fn store(
        &self,
        topology: &Topology,
        document: &ContentDocument<'_>,
    ) -> Result<Stored, ContentError> {
        let collection = document.collection();
        let mut id = document.id.to_string();
        let mut convention = None;
        if let Some(c) = self.convention(collection).filter(|_| !id.contains('$')) {
            id = apply_convention(&c.template, &id, document.body).map_err(|problem| {
                ContentError::BadConvention {
                    collection: c.collection.clone(),
                    template: c.template.clone(),
                    problem,
                }
            })?;
            convention = Some(c.template.clone());
        }
        let (id, bucket, shard, placement) = if asks_for_generated_id(&id) {
            let document = ContentDocument {
                id: &id,
                collection: Some(collection),
                body: document.body,
            };
            let (final_id, bucket, placement) = self.generate(&document)?;
            let shard = shard_of(topology, bucket, &final_id)?;
            (final_id, bucket, shard, placement)
        } else {
            let (bucket, shard, placement) = self.locate(topology, &id)?;
            self.check_write(&id, bucket, collection, document.body)?;
            (id, bucket, shard, placement)
        };
        Ok(Stored {
            id,
            bucket,
            shard,
            assignment: placement,
            convention,
        })
    }

    /// The final ID and bucket of a new document whose ID ends with `$`, before any shard is
    /// chosen: its collection's rule reads the fields, and the bucket is
    /// [`ranged_bucket`] of the ID's own bucket and the content's. The final ID is the given
    /// one followed by `@<bucket>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::{ContentDesign, ContentDocument};
    /// use serde_json::json;
    ///
    /// let keys = json!({"ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}});
    /// let design = ContentDesign::from_configuration(keys.as_object().unwrap()).unwrap().unwrap();
    /// let body = json!({"Customer": "customers/1-A"});
    /// let (id, bucket, _) = design.generate(&ContentDocument::new("orders/1-A$").with_body(&body)).unwrap();
    /// assert_eq!((id.as_str(), bucket), ("orders/1-A$@982326", 982326));
    /// ```
    pub fn generate(
        &self,
        document: &ContentDocument<'_>,
    ) -> Result<(String, u32, Assignment), ContentError> {
        let id = document.id;
        if !asks_for_generated_id(id) {
            return Err(ContentError::BadId {
                id: id.to_string(),
                message: "only an ID ending with '$' asks for a generated ID".into(),
            });
        }
        let collection = document.collection();
        let rule = self
            .rule(collection)
            .ok_or_else(|| ContentError::NoRuleForGeneratedId {
                id: id.to_string(),
                collection: if collection.is_empty() {
                    "(none)"
                } else {
                    collection
                }
                .to_string(),
            })?;
        let content = content_value(rule, id, document.body)?;
        let own = value::own_bucket(id)?;
        let bucket = ranged_bucket(own, content.bucket, rule.range);
        let final_id = format!("{id}@{bucket}");
        check_id(&final_id).map_err(|e| ContentError::BadId {
            id: final_id.clone(),
            message: e.to_string(),
        })?;
        let assignment = Assignment::Generated {
            rule: rule.name.clone(),
            content,
            own,
            range: rule.range,
        };
        Ok((final_id, bucket, assignment))
    }

    /// The bucket of a final ID under the design, without a prefix's block offset: `$@<n>`
    /// pins bucket `n`, any other ID follows the core ([`bucket_for`](ravenshard::bucket_for)).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::ContentDesign;
    ///
    /// let design = ContentDesign::default();
    /// assert_eq!(design.bucket("orders/1-A$@982173"), Ok(982173));
    /// assert_eq!(design.bucket("orders/1-A$customers/1-A"), Ok(982173));
    /// assert!(design.bucket("orders/1-A$@x").is_err());
    /// ```
    pub fn bucket(&self, id: &str) -> Result<u32, ContentError> {
        let bad_id = |e: ravenshard::IdError| ContentError::BadId {
            id: id.to_string(),
            message: e.to_string(),
        };
        match pinned_bucket(id) {
            Some(pinned) => {
                let bucket = pinned?;
                check_id(id).map_err(bad_id)?;
                Ok(bucket)
            }
            None => ravenshard::bucket_for(id).map_err(bad_id),
        }
    }

    /// Checks a write of document `id` (in `bucket`) of `collection`: under an immutable
    /// rule its content must ask for the block it is in, `floor(bucket / R) == floor(content
    /// / R)` (a prefix's block offset does not count). Mutable rules, collections without a
    /// rule and documents without a body pass.
    pub fn check_write(
        &self,
        id: &str,
        bucket: u32,
        collection: &str,
        body: Option<&Value>,
    ) -> Result<(), ContentError> {
        let (Some(rule), Some(body)) = (self.rule(collection).filter(|r| !r.mutable), body) else {
            return Ok(());
        };
        let content = content_value(rule, id, Some(body))?;
        let within = bucket % NUMBER_OF_BUCKETS;
        if within / rule.range == content.bucket / rule.range {
            return Ok(());
        }
        Err(ContentError::Rejected {
            id: id.to_string(),
            rule: rule.name.clone(),
            fields: rule.fields_text(),
            values: content.text,
            content_bucket: content.bucket,
            bucket: within,
            range: rule.range,
        })
    }
}

/// Whether an ID asks for a generated ID: it ends with `$` and is longer than `$` itself (a
/// `$` at index 0 is an ordinary character).
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::asks_for_generated_id;
///
/// assert!(asks_for_generated_id("orders/1-A$"));
/// assert!(!asks_for_generated_id("$"));
/// assert!(!asks_for_generated_id("orders/1-A$@982173"));
/// ```
pub fn asks_for_generated_id(id: &str) -> bool {
    id.len() > 1 && id.ends_with('$')
}

fn shard_of(topology: &Topology, bucket: u32, id: &str) -> Result<u32, ContentError> {
    topology
        .shard_for_bucket(bucket)
        .ok_or_else(|| ContentError::BadId {
            id: id.to_string(),
            message: format!("no bucket range holds bucket {bucket}"),
        })
}
