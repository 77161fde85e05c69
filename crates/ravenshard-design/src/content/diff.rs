//! A configuration change, old → new: does every document that was valid stay valid?
//!
//! The chapter: raising `Range` to a multiple of the old one is safe, and so are setting
//! `Mutable` to true and removing a rule; other changes to an immutable rule's fields or
//! `Range` need `Mutable` set to true first; setting `Mutable` back to false is allowed but
//! not validated, so the operator must have migrated the documents first.

use super::{
    asks_for_generated_id, pinned_bucket, ContentDesign, ContentDocument, ContentError,
    ContentRule, DocumentError, JsonDocument,
};
use ravenshard::bulk::LineError;
use ravenshard::Document;
use ravenshard::{bucket_for, NUMBER_OF_BUCKETS};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// At most this many documents that become invalid are listed in a [`ConfigDiff`]; all are
/// counted.
pub const MAX_DIFF_EXAMPLES: usize = 10;

/// A document of the workspace, as a configuration diff checks it. As JSON it is
/// `{"id", "collection"?, "body"?, "bucket"?}` (no other keys).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffDocument {
    /// Its ID.
    pub id: String,
    /// `@metadata.@collection`, when known (else the ID's text before its first `/`).
    pub collection: Option<String>,
    /// Its JSON, when known; without it, rules' fields cannot be checked.
    pub body: Option<Value>,
    /// The bucket it is stored in under the old configuration, when known; otherwise the
    /// old configuration's bucket of its ID. A prefix's block offset is ignored.
    pub bucket: Option<u32>,
}

impl DiffDocument {
    /// A document known by its ID only; its bucket is the old configuration's for its ID.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::DiffDocument;
    /// use serde_json::json;
    ///
    /// let plain = DiffDocument::new("orders/1-A$@982173");
    /// assert_eq!((plain.body, plain.bucket), (None, None));
    /// let full = DiffDocument { body: Some(json!({"Customer": "customers/1-A"})), bucket: Some(982173), ..DiffDocument::new("orders/1-A") };
    /// assert_eq!(full.collection, None);
    /// ```
    pub fn new(id: impl Into<String>) -> DiffDocument {
        DiffDocument {
            id: id.into(),
            ..DiffDocument::default()
        }
    }

    /// Reads the documents of a configuration diff from text: NDJSON documents (as
    /// [`JsonDocument::parse`] reads them) when the first non-blank character is `{`, else
    /// `id[<TAB>size[<TAB>collection]]` lines (sizes are not needed and not checked). Blank
    /// lines are skipped; a leading byte-order mark is ignored.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_design::content::DiffDocument;
    ///
    /// let ids = DiffDocument::read_all("orders/1-A$@982173\t120\tOrders\n\nusers/4\n").unwrap();
    /// assert_eq!((ids.len(), ids[0].collection.as_deref()), (2, Some("Orders")));
    /// let ndjson = DiffDocument::read_all("\n{\"Customer\": \"customers/1-A\", \"@metadata\": {\"@id\": \"orders/1-A\"}}").unwrap();
    /// assert_eq!(ndjson[0].body.as_ref().unwrap()["Customer"], "customers/1-A");
    /// let bad = DiffDocument::read_all("{\"@metadata\": {\"@id\": \"a\"}}\n{oops").unwrap_err();
    /// assert!(bad.to_string().starts_with("line 2: not JSON"));
    /// ```
    pub fn read_all(text: &str) -> Result<Vec<DiffDocument>, LineError<DocumentError>> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if !text.trim_start().starts_with('{') {
            return Ok(Document::parse_lines(text)
                .map(|line| DiffDocument::from(line.document))
                .collect());
        }
        text.lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(index, line)| {
                JsonDocument::parse(line)
                    .map(DiffDocument::from)
                    .map_err(|error| LineError {
                        line: index + 1,
                        error,
                    })
            })
            .collect()
    }

    fn content(&self) -> ContentDocument<'_> {
        ContentDocument {
            id: &self.id,
            collection: self.collection.as_deref(),
            body: self.body.as_ref(),
        }
    }
}

impl From<JsonDocument> for DiffDocument {
    fn from(d: JsonDocument) -> DiffDocument {
        DiffDocument {
            id: d.id,
            collection: d.collection,
            body: Some(d.body),
            bucket: None,
        }
    }
}

impl From<Document> for DiffDocument {
    fn from(d: Document) -> DiffDocument {
        DiffDocument {
            id: d.id,
            collection: d.collection,
            body: None,
            bucket: None,
        }
    }
}

/// Whether a configuration change can be made as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every rule change is safe and no document of the workspace becomes invalid.
    Safe,
    /// Some rule change needs `Mutable` first or a migration, or documents become invalid.
    NeedsAttention,
}

/// What a change does to one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleStatus {
    /// The rule is the same.
    Unchanged,
    /// Every document valid under the old rule is valid under the new one.
    Safe,
    /// Documents valid under the old rule may be invalid under the new one: set `Mutable`
    /// to true first, migrate, then set it back.
    NeedsMutableFirst,
    /// `Mutable` goes from true to false: allowed, but nothing checks that the documents
    /// were migrated.
    MutableTurnedOff,
}

/// A rule's settings, for the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSettings {
    /// The fields, as configured.
    pub fields: Vec<String>,
    /// `Range`.
    pub range: u32,
    /// `Mutable`.
    pub mutable: bool,
}

impl From<&ContentRule> for RuleSettings {
    fn from(rule: &ContentRule) -> RuleSettings {
        RuleSettings {
            fields: rule.fields.iter().map(ToString::to_string).collect(),
            range: rule.range,
            mutable: rule.mutable,
        }
    }
}

/// What a change does to one rule (rules are matched by name, ignoring case).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleChange {
    /// The rule's name (the new configuration's spelling when it has the rule).
    pub rule: String,
    /// The verdict for this rule.
    pub status: RuleStatus,
    /// Why, in words.
    pub reason: String,
    /// The chapter's warning when `Mutable` goes from true to false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// The old settings, `None` for a new rule.
    pub old: Option<RuleSettings>,
    /// The new settings, `None` for a removed rule.
    pub new: Option<RuleSettings>,
    /// The workspace's documents of this collection.
    pub documents: usize,
    /// How many of them were valid before and are not after.
    pub invalidated: usize,
}

/// A document that was valid under the old configuration and is not under the new one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Invalidated {
    /// Its ID.
    pub id: String,
    /// Why the new configuration refuses it.
    pub message: String,
}

/// The report of a configuration change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigDiff {
    /// Safe, or needs attention.
    pub verdict: Verdict,
    /// One entry per rule of either configuration: the old's order, then new rules.
    pub rules: Vec<RuleChange>,
    /// What the change does beyond single rules (the design turned on or off).
    pub notes: Vec<String>,
    /// The documents checked.
    pub documents: usize,
    /// How many were valid under the old configuration (passed its write check, or had no
    /// rule).
    pub valid_before: usize,
    /// How many of those are invalid under the new one.
    pub invalidated: usize,
    /// Documents under an immutable new rule that have no body, so their fields could not
    /// be checked.
    pub unchecked: usize,
    /// The first [`MAX_DIFF_EXAMPLES`] invalidated documents.
    pub examples: Vec<Invalidated>,
}

impl ConfigDiff {
    /// Whether the change is safe as it is.
    pub fn is_safe(&self) -> bool {
        self.verdict == Verdict::Safe
    }
}

/// Compares two configurations' designs (`None`: no `ByContent`, the design is off) and
/// checks the workspace's documents against both.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::{diff_designs, ContentDesign, DiffDocument, RuleStatus};
/// use serde_json::json;
///
/// let design = |range: u32| {
///     let keys = json!({"ByContent": {"Orders": {"Fields": ["Customer"], "Range": range}}});
///     ContentDesign::from_configuration(keys.as_object().unwrap()).unwrap().unwrap()
/// };
/// let order = DiffDocument { body: Some(json!({"Customer": "customers/1-A"})), ..DiffDocument::new("orders/1-A$@982173") };
/// let diff = diff_designs(Some(&design(1)), Some(&design(1000)), &[order.clone()]);
/// assert!(diff.is_safe());
/// assert_eq!(diff.rules[0].status, RuleStatus::Safe);
/// let diff = diff_designs(Some(&design(1000)), Some(&design(1500)), &[order]);
/// assert_eq!(diff.rules[0].status, RuleStatus::NeedsMutableFirst);
/// assert!(!diff.is_safe());
/// ```
pub fn diff_designs(
    old: Option<&ContentDesign>,
    new: Option<&ContentDesign>,
    documents: &[DiffDocument],
) -> ConfigDiff {
    let old_rules = old.map_or(&[][..], |d| &d.rules[..]);
    let new_rules = new.map_or(&[][..], |d| &d.rules[..]);
    let count = |name: &str| {
        documents
            .iter()
            .filter(|d| d.content().collection().eq_ignore_ascii_case(name))
            .count()
    };
    let mut rules: Vec<RuleChange> = old_rules
        .iter()
        .map(|o| compare(Some(o), find(new_rules, &o.name), count(&o.name)))
        .collect();
    rules.extend(
        new_rules
            .iter()
            .filter(|n| find(old_rules, &n.name).is_none())
            .map(|n| compare(None, Some(n), count(&n.name))),
    );

    let mut diff = ConfigDiff {
        verdict: Verdict::Safe,
        rules,
        notes: notes(old, new),
        documents: documents.len(),
        valid_before: 0,
        invalidated: 0,
        unchecked: 0,
        examples: Vec::new(),
    };
    for document in documents {
        let content = document.content();
        let immutable_after = new
            .and_then(|d| d.rule(content.collection()))
            .is_some_and(|r| !r.mutable);
        if immutable_after && document.body.is_none() && !asks_for_generated_id(&document.id) {
            diff.unchecked += 1;
        }
        let Some(stored) = stored_bucket(old, document) else {
            continue;
        };
        if check(old, document, stored).is_err() {
            continue;
        }
        diff.valid_before += 1;
        let Err(message) = check(new, document, stored) else {
            continue;
        };
        diff.invalidated += 1;
        if let Some(rule) = diff
            .rules
            .iter_mut()
            .find(|r| r.rule.eq_ignore_ascii_case(content.collection()))
        {
            rule.invalidated += 1;
        }
        if diff.examples.len() < MAX_DIFF_EXAMPLES {
            diff.examples.push(Invalidated {
                id: document.id.clone(),
                message,
            });
        }
    }
    let rules_safe = diff
        .rules
        .iter()
        .all(|r| matches!(r.status, RuleStatus::Unchanged | RuleStatus::Safe));
    if !rules_safe || diff.invalidated > 0 {
        diff.verdict = Verdict::NeedsAttention;
    }
    diff
}

fn find<'a>(rules: &'a [ContentRule], name: &str) -> Option<&'a ContentRule> {
    rules.iter().find(|r| r.name.eq_ignore_ascii_case(name))
}

/// What turning the whole design on or off does.
fn notes(old: Option<&ContentDesign>, new: Option<&ContentDesign>) -> Vec<String> {
    match (old.is_some(), new.is_some()) {
        (false, true) => vec![
            "ByContent is added: the chapter's design is on, so '$@<n>' at the end of an ID \
             now pins bucket n (it was an ordinary anchor, hashed), and IDs ending with '$' \
             need a rule for their collection."
                .into(),
        ],
        (true, false) => vec![
            "ByContent is removed: the design is off, so '$@<n>' IDs are ordinary anchors \
             again (their '@n' is hashed) and IDs ending with '$' are anchored to the empty \
             string; documents stored in a pinned bucket are no longer found there."
                .into(),
        ],
        _ => Vec::new(),
    }
}

/// The bucket a document is stored in under the old configuration (without a prefix's
/// offset): given, generated for an ID ending with `$`, or its ID's bucket.
fn stored_bucket(old: Option<&ContentDesign>, document: &DiffDocument) -> Option<u32> {
    if asks_for_generated_id(&document.id) {
        let (_, bucket, _) = old?.generate(&document.content()).ok()?;
        return Some(bucket);
    }
    match document.bucket {
        Some(bucket) => Some(bucket % NUMBER_OF_BUCKETS),
        None => lookup(old, &document.id).ok(),
    }
}

/// The bucket a configuration looks a final ID up in.
fn lookup(design: Option<&ContentDesign>, id: &str) -> Result<u32, ContentError> {
    match design {
        Some(design) => design.bucket(id),
        None => bucket_for(id).map_err(|e| ContentError::BadId {
            id: id.to_string(),
            message: e.to_string(),
        }),
    }
}

/// Whether a configuration accepts a document stored in `stored`: it finds it there and,
/// under an immutable rule, its content asks for that block. An ID ending with `$` is a
/// write still to be made: the configuration must be able to generate its ID.
fn check(
    design: Option<&ContentDesign>,
    document: &DiffDocument,
    stored: u32,
) -> Result<(), String> {
    let content = document.content();
    let id = document.id.as_str();
    if asks_for_generated_id(id) {
        let Some(design) = design else {
            return Err(ContentError::NoRuleForGeneratedId {
                id: id.to_string(),
                collection: content.collection().to_string(),
            }
            .to_string());
        };
        return design
            .generate(&content)
            .map(drop)
            .map_err(|e| e.to_string());
    }
    let found = lookup(design, id).map_err(|e| e.to_string())?;
    if found != stored {
        let why = match (pinned_bucket(id).is_some(), design.is_some()) {
            (true, true) => " ('$@' pins a bucket when ByContent is on)",
            (true, false) => " ('$@' is an ordinary anchor when ByContent is off)",
            _ => "",
        };
        return Err(format!(
            "'{id}' is stored in bucket {stored}, but this configuration looks it up in bucket \
             {found}{why}. Store it again under its new ID, or keep the old configuration."
        ));
    }
    match design {
        Some(design) => design
            .check_write(id, stored, content.collection(), content.body)
            .map_err(|e| e.to_string()),
        None => Ok(()),
    }
}

/// The verdict for one rule, old → new.
fn compare(old: Option<&ContentRule>, new: Option<&ContentRule>, documents: usize) -> RuleChange {
    let (status, reason, warning) = match (old, new) {
        (Some(o), Some(n)) => both(o, n),
        (Some(o), None) => (
            RuleStatus::Safe,
            format!(
                "The rule is removed: {} is no longer validated or routed by content (its \
                 documents stay where they are); new IDs ending with '$' in it become errors.",
                o.name
            ),
            None,
        ),
        (None, Some(n)) => added(n, documents),
        (None, None) => (RuleStatus::Unchanged, String::new(), None),
    };
    let rule = new.or(old).map_or_else(String::new, |r| r.name.clone());
    RuleChange {
        rule,
        status,
        reason,
        warning,
        old: old.map(RuleSettings::from),
        new: new.map(RuleSettings::from),
        documents,
        invalidated: 0,
    }
}

type Verdict3 = (RuleStatus, String, Option<String>);

fn added(rule: &ContentRule, documents: usize) -> Verdict3 {
    let name = &rule.name;
    if rule.mutable {
        let reason = format!(
            "A new Mutable rule: it names new IDs ending with '$' in {name} and validates nothing."
        );
        return (RuleStatus::Safe, reason, None);
    }
    if documents == 0 {
        let reason = format!(
            "A new immutable rule; the workspace has no documents of {name}. If the database \
             has some, add the rule with Mutable true first."
        );
        return (RuleStatus::Safe, reason, None);
    }
    let reason = format!(
        "A new immutable rule on {name}, which has {documents} documents in the workspace \
         placed without it: add the rule with Mutable true, migrate the documents that do not \
         match, then set Mutable to false."
    );
    (RuleStatus::NeedsMutableFirst, reason, None)
}

/// What changed in a rule, in words: `Fields Customer → Company`, `Range 1 → 1000`.
fn changes(old: &ContentRule, new: &ContentRule) -> Vec<String> {
    let mut out = Vec::new();
    if old.fields != new.fields {
        out.push(format!(
            "Fields {} → {}",
            old.fields_text(),
            new.fields_text()
        ));
    }
    if old.range != new.range {
        out.push(format!("Range {} → {}", old.range, new.range));
    }
    if old.mutable != new.mutable {
        out.push(format!("Mutable {} → {}", old.mutable, new.mutable));
    }
    out
}

fn both(old: &ContentRule, new: &ContentRule) -> Verdict3 {
    let changed = changes(old, new);
    if changed.is_empty() {
        return (RuleStatus::Unchanged, "No change.".into(), None);
    }
    let what = changed.join(", ");
    let name = &new.name;
    if new.mutable {
        let reason = if old.mutable {
            format!(
                "{what}: the rule is Mutable, so existing documents are neither validated nor \
                 routed by content; the change applies to new IDs ending with '$' only."
            )
        } else {
            format!(
                "{what}: with Mutable true RavenDB stops validating {name} and stops routing \
                 its queries by content, so no document becomes invalid."
            )
        };
        return (RuleStatus::Safe, reason, None);
    }
    if old.mutable {
        let warning = format!(
            "Mutable goes from true to false: RavenDB does not validate that existing documents \
             match; the operator must have migrated them first (every document of {name} in the \
             block its {} asks for). If in doubt, avoid setting Mutable to false.",
            new.fields_text()
        );
        let reason = format!(
            "{what}: queries on {name} will be routed by content again, which finds only the \
             documents in the block their content asks for."
        );
        return (RuleStatus::MutableTurnedOff, reason, Some(warning));
    }
    if old.fields != new.fields {
        let reason = format!(
            "{what}: documents placed by {} need not match {}. Set Mutable to true first, \
             migrate the documents, then set it back to false.",
            old.fields_text(),
            new.fields_text()
        );
        return (RuleStatus::NeedsMutableFirst, reason, None);
    }
    let (from, to) = (old.range, new.range);
    if to > from && to % from == 0 {
        let reason = format!(
            "{what}: a multiple of the old Range, so every block of {from} buckets lies inside \
             a block of {to}, and every valid document stays valid (the chapter: raising Range \
             is safe)."
        );
        return (RuleStatus::Safe, reason, None);
    }
    let why = if to < from {
        "a smaller Range makes smaller blocks, so a document anywhere in its old block may lie \
         outside its new one"
    } else {
        "not a multiple of the old Range, so the new blocks cut across the old ones and a \
         document near an old block's edge may lie outside its new one"
    };
    let reason = format!(
        "{what}: {why}. Set Mutable to true first, migrate, then set it back to false \
         (or raise Range to a multiple of {from})."
    );
    (RuleStatus::NeedsMutableFirst, reason, None)
}
