//! The draft "Sharding" chapter's design (not shipped RavenDB 7.x): content-based storing,
//! query routing, transaction and `LoadDocument` checks, configuration diffs.

use crate::topology::Topology;
use crate::{bulk_text, from_js, js_error, to_js};
use js_sys::{Array, JsString, JSON};
use ravenshard_design::content::{
    diff_designs, ContentDesign, ContentError, DiffDocument, DocumentError, JsonDocument,
    StoreAnswer,
};
use ravenshard_design::locality::{check_load, check_transaction, PlacedId};
use ravenshard_design::route::route_text;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A document for `Topology.store`: named by `@metadata.@id`; its collection is
 * `@metadata.@collection`, else the ID's text before its first `/`. */
export interface StoreDocument {
    "@metadata": { "@id": string; "@collection"?: string | null; [key: string]: unknown };
    [field: string]: unknown;
}
/** A document ID with its bucket and shard. */
export interface PlacedId {
    id: string;
    bucket: number;
    shard: number;
}
/** One answer of `Topology.storeMany`: stored, or refused (`line` is 1-based; no `id`
 * when the line is not a document). */
export type StoreAnswer = PlacedId | { id?: string; line: number; error: string };
/** A `ByContent` rule, its fields as configured (`Customer`, `numeric(Zip)`, `id()`). */
export interface ContentRule {
    name: string;
    fields: string[];
    range: number;
    mutable: boolean;
}
/** Where a query goes, from `Topology.route`. */
export interface Route {
    /** Ascending. */
    shards: number[];
    all_shards: boolean;
    /** Bucket intervals `[start, end)` the query can match; empty when anywhere. */
    buckets: [number, number][];
    reason: string;
    /** Documents fetched for one page, shards × (offset + limit); null without a numeric limit. */
    fetched: number | null;
    warnings: string[];
}
export type TransactionVerdict = "one_bucket" | "one_shard" | "several_shards" | "no_documents";
/** From `Topology.checkTransaction`. */
export interface TransactionCheck {
    verdict: TransactionVerdict;
    message: string;
    documents: PlacedId[];
    invalid: { id: string; error: string }[];
    buckets: number[];
    shards: number[];
}
/** From `Topology.checkLoad`. */
export interface LoadCheck {
    document: PlacedId;
    related: PlacedId;
    same_bucket: boolean;
    same_shard: boolean;
    message: string;
    /** An ID that puts the document in the related document's bucket, when they differ. */
    suggestion: PlacedId | null;
    notes: string[];
}
/** A document for `configDiff`: `collection` defaults to the ID's text before its first
 * `/`; without `body` the rules' fields cannot be checked; `bucket` is where it is stored
 * under the old configuration (default: its ID's bucket there). */
export interface DiffDocument {
    id: string;
    collection?: string | null;
    body?: unknown;
    bucket?: number | null;
}
export interface RuleSettings {
    fields: string[];
    range: number;
    mutable: boolean;
}
export interface RuleChange {
    rule: string;
    status: "unchanged" | "safe" | "needs_mutable_first" | "mutable_turned_off";
    reason: string;
    /** The chapter's warning when `Mutable` goes from true to false. */
    warning?: string;
    old: RuleSettings | null;
    new: RuleSettings | null;
    documents: number;
    invalidated: number;
}
/** From `configDiff`. */
export interface ConfigDiff {
    verdict: "safe" | "needs_attention";
    rules: RuleChange[];
    notes: string[];
    documents: number;
    valid_before: number;
    invalidated: number;
    unchecked: number;
    /** The first 10 documents that become invalid. */
    examples: { id: string; message: string }[];
}
"#;

/// A JS value as JSON text, as `JSON.stringify` writes it (a `Date` becomes its ISO-8601
/// text, as a RavenDB client sends it); `None` for what JSON cannot hold (`undefined`, a
/// function).
fn stringify(value: &JsValue) -> Result<Option<String>, JsError> {
    let text = JSON::stringify(value).map_err(|thrown| {
        let message = thrown
            .dyn_ref::<js_sys::Error>()
            .map_or_else(|| format!("{thrown:?}"), |e| String::from(e.message()));
        js_error(message)
    })?;
    Ok(JsValue::from(text).as_string())
}

/// A document given to `store`: an object, or its JSON text.
fn json_document(document: &JsValue) -> Result<JsonDocument, JsError> {
    let text = match document.as_string() {
        Some(text) => text,
        None => stringify(document)?.ok_or_else(|| {
            js_error(DocumentError::NotAnObject {
                found: if document.is_undefined() {
                    "undefined"
                } else {
                    "a value JSON cannot hold"
                },
            })
        })?,
    };
    JsonDocument::parse(&text).map_err(js_error)
}

/// The documents of `configDiff`: `undefined`/`null` (none), NDJSON or `id<TAB>size` text,
/// or an array of `{id, collection?, body?, bucket?}`.
fn diff_documents(documents: &JsValue) -> Result<Vec<DiffDocument>, JsError> {
    if documents.is_undefined() || documents.is_null() {
        return Ok(Vec::new());
    }
    if let Some(text) = documents.dyn_ref::<JsString>() {
        return DiffDocument::read_all(&bulk_text(text)?)
            .map_err(|e| js_error(format_args!("documents: {e}")));
    }
    let Some(array) = documents.dyn_ref::<Array>() else {
        return Err(js_error(
            "documents: give an array of {id, collection?, body?} or NDJSON text",
        ));
    };
    array
        .iter()
        .enumerate()
        .map(|(i, element)| {
            let text = stringify(&element)?.unwrap_or_else(|| "null".into());
            serde_json::from_str(&text).map_err(|e| js_error(format_args!("documents[{i}]: {e}")))
        })
        .collect()
}

/// The design of a configuration given to `configDiff` (`None` without `ByContent`).
fn design_of(name: &str, config_json: &str) -> Result<Option<ContentDesign>, JsError> {
    let topology = ravenshard::Topology::from_json(config_json)
        .map_err(|e| js_error(format_args!("{name}: {e}")))?;
    ContentDesign::from_topology(&topology).map_err(|e| js_error(format_args!("{name}: {e}")))
}

/// Whether a `ByContent` change, old → new, keeps every document valid (the draft
/// chapter's design): `{verdict, rules, notes, documents, valid_before, invalidated,
/// unchecked, examples}`, as `ravenshard config-diff` prints it. `documents` (optional) is an
/// array of `{id, collection?, body?, bucket?}`, or NDJSON documents (as `storeMany` reads
/// them) or `id<TAB>size` lines.
///
/// Throws an `Error` for a bad configuration (`oldConfigJson: …` or `newConfigJson: …`) or a
/// document that cannot be read (`documents: line 2: …`, `documents[1]: …`).
#[wasm_bindgen(js_name = configDiff, unchecked_return_type = "ConfigDiff")]
pub fn config_diff(
    #[wasm_bindgen(js_name = oldConfigJson)] old_config_json: &str,
    #[wasm_bindgen(js_name = newConfigJson)] new_config_json: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "DiffDocument[] | string")] documents: JsValue,
) -> Result<JsValue, JsError> {
    let old = design_of("oldConfigJson", old_config_json)?;
    let new = design_of("newConfigJson", new_config_json)?;
    let documents = diff_documents(&documents)?;
    to_js(&diff_designs(old.as_ref(), new.as_ref(), &documents))
}

impl Topology {
    /// The design, or the core's error saying it is off.
    fn design_on(&self) -> Result<&ContentDesign, JsError> {
        self.design
            .as_ref()
            .ok_or_else(|| js_error(ContentError::DesignOff))
    }
}

#[wasm_bindgen]
impl Topology {
    /// Whether the configuration has a `ByContent` section, which turns the draft chapter's
    /// content-based design on (not shipped RavenDB 7.x): `$@<n>` IDs, generated IDs, write
    /// checks, routing by content.
    #[wasm_bindgen(getter, js_name = designOn)]
    pub fn design_is_on(&self) -> bool {
        self.design.is_some()
    }

    /// The `ByContent` rules, in configuration order: `[{name, fields, range, mutable}]`
    /// (empty when the design is off).
    #[wasm_bindgen(js_name = contentRules, unchecked_return_type = "ContentRule[]")]
    pub fn content_rules(&self) -> Result<JsValue, JsError> {
        to_js(&self.design.as_ref().map_or(&[][..], |d| &d.rules[..]))
    }

    /// Stores a document under the design, new or updated: `{id, bucket, shard}` with the
    /// final ID (`orders/1-A$` with `Customer: "customers/1-A"` and `Range` 1000 →
    /// `orders/1-A$@982326`). `document` is an object with `@metadata.@id` (and optionally
    /// `@metadata.@collection`), or its JSON text.
    ///
    /// Throws an `Error` with the core's message for a write the design refuses (`Rejected:
    /// …` for an immutable rule's block, `$` without a rule, a missing field), a value that
    /// is not a document, or a configuration without `ByContent`.
    #[wasm_bindgen(unchecked_return_type = "PlacedId")]
    pub fn store(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StoreDocument | string")] document: JsValue,
    ) -> Result<JsValue, JsError> {
        let design = self.design_on()?;
        let document = json_document(&document)?;
        let stored = design
            .store(&self.inner, &document.as_content())
            .map_err(js_error)?;
        to_js(&PlacedId::from(stored))
    }

    /// Stores NDJSON documents, one a line, as `ravenshard store` does: one answer per line
    /// that is not blank, `{id, bucket, shard}` or `{id?, line, error}` (`line` 1-based).
    /// Refused writes do not throw.
    ///
    /// Throws an `Error` only for a configuration without `ByContent`.
    #[wasm_bindgen(js_name = storeMany, unchecked_return_type = "StoreAnswer[]")]
    pub fn store_many(&self, ndjson: &JsString) -> Result<JsValue, JsError> {
        let design = self.design_on()?;
        let text = bulk_text(ndjson)?;
        let answers: Vec<StoreAnswer> = design.store_lines(&self.inner, &text).collect();
        to_js(&answers)
    }

    /// Which shards an RQL query goes to, and why: `{shards, all_shards, buckets, reason,
    /// fetched, warnings}`. `id()` narrows it in any configuration; with the design on,
    /// equality on every field of an immutable rule narrows it to the rule's block.
    ///
    /// Throws an `Error` for a query that cannot be read, naming its line and column.
    #[wasm_bindgen(unchecked_return_type = "Route")]
    pub fn route(&self, rql: &str) -> Result<JsValue, JsError> {
        to_js(&route_text(rql, &self.inner, self.design.as_ref()).map_err(js_error)?)
    }

    /// Whether one local transaction can write these documents atomically: `one_bucket`,
    /// `one_shard` (not guaranteed after resharding) or `several_shards`, with each ID's
    /// bucket and shard; IDs that cannot be placed are listed in `invalid`, not thrown.
    ///
    /// Throws an `Error` if `ids` is not an array of strings.
    #[wasm_bindgen(js_name = checkTransaction, unchecked_return_type = "TransactionCheck")]
    pub fn check_transaction(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] ids: JsValue,
    ) -> Result<JsValue, JsError> {
        let ids: Vec<String> = from_js("ids", ids)?;
        to_js(&check_transaction(&ids, &self.inner, self.design.as_ref()))
    }

    /// Whether an index over `documentId` can `LoadDocument(relatedId)`: only when both are
    /// in the same bucket. When they are not, `suggestion` is an ID that would make it so.
    ///
    /// Throws an `Error` for an ID that cannot be placed.
    #[wasm_bindgen(js_name = checkLoad, unchecked_return_type = "LoadCheck")]
    pub fn check_load(
        &self,
        #[wasm_bindgen(js_name = documentId)] document_id: &str,
        #[wasm_bindgen(js_name = relatedId)] related_id: &str,
    ) -> Result<JsValue, JsError> {
        let check = check_load(document_id, related_id, &self.inner, self.design.as_ref())
            .map_err(js_error)?;
        to_js(&check)
    }
}
