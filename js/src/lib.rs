//! # ravenshard-js
//!
//! The JavaScript API of [`ravenshard`]: which RavenDB 6.x bucket and shard a document ID
//! lands on, computed exactly. This crate only converts types; every answer is the core's.
//!
//! ```js
//! import init, { bucketFor, bucketsFor, explain, Topology } from "./pkg/ravenshard_js.js";
//! await init();
//!
//! bucketFor("orders/2-A$customers/1-A");          // 982173
//! bucketsFor("orders/1-A\ncustomers/1-A\n");      // Uint32Array [151326, 982173]
//! explain("Orders/1-A").hash;                     // 16 hex digits (a string, not a number)
//!
//! const topology = new Topology('{"Shards": {"0": {}, "1": {}, "2": {}}}');
//! topology.locate("customers/1-A");               // {bucket: 982173, shard: 2, prefix: null, fragment: "db$2", nodes: []}
//! Topology.withShards(3).shardsFor("orders/1-A"); // Uint32Array [0]
//! ```
//!
//! Errors are thrown as JS `Error`s whose message is the core's (an invalid ID, a bad
//! configuration with the JSON path of the offending value). Structured results are plain
//! objects with the core's JSON field names (`snake_case`, as the CLI's JSON output); absent
//! values are `null`, and no 64-bit integer is ever a JS number (the hash is a hex string).
//!
//! IDs cross the boundary as JS strings; a lone UTF-16 surrogate, which no real ID has, is
//! read as U+FFFD.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use js_sys::{JsString, Uint32Array};
use ravenshard::bulk::{self, LineError};
use ravenshard::{Notice, ReportOptions};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Display;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Where a document lives, from `Topology.locate`. */
export interface Location {
    bucket: number;
    shard: number;
    /** The prefix that matched, as configured, or null. */
    prefix: string | null;
    /** The fragment database, `<database>$<shard>`. */
    fragment: string;
    nodes: string[];
}
/** A warning: a stable `kind` (such as `shard_without_buckets`) and a message. */
export interface Notice {
    kind: string;
    message: string;
}
/** Buckets `start..end` belong to `shard`. */
export interface BucketRange {
    start: number;
    end: number;
    shard: number;
}
/** Every step from a document ID to its shard, from `explain`. */
export interface Explanation {
    id: string;
    lower_id: string;
    anchored: boolean;
    /** The part that is hashed: after the last `$`, or the whole lower-cased ID. */
    hashed: string;
    /** UTF-8 byte range `[start, end)` of `hashed` in `lower_id`. */
    hashed_range: [number, number];
    /** Character range `[start, end)` of `hashed`, the same in `id` and `lower_id`. */
    hashed_chars: [number, number];
    /** XXH64 (seed 0) of `hashed`, as 16 hex digits. */
    hash: string;
    raw_bucket: number;
    prefix: { prefix: string; bucket_range_start: number } | null;
    bucket: number;
    /** The rest is null (or empty) without a topology. */
    range: BucketRange | null;
    shard: number | null;
    fragment: string | null;
    nodes: string[];
    warnings: Notice[];
}
/** Documents in one bucket. */
export interface BucketStats {
    bucket: number;
    shard: number | null;
    documents: number;
}
/** Where a set of documents lands, from `Topology.report`. */
export interface Report {
    documents: number;
    invalid_count: number;
    /** `line` is the 1-based position of the ID in the input. */
    invalid: { line: number; id: string; error: string }[];
    shards: { shard: number; fragment: string; nodes: string[]; documents: number; share: number }[];
    /** Largest shard over mean shard; null without documents. */
    skew: number | null;
    buckets_used: number;
    top_buckets: BucketStats[];
    obese_threshold: number;
    /** How many buckets hold more documents than `obese_threshold`. */
    obese_bucket_count: number;
    /** The fullest of them (at most `topBuckets`). */
    obese_buckets: BucketStats[];
    anchored_group_count: number;
    anchored_groups: {
        anchor: string;
        count: number;
        members: string[];
        anchor_is_document: boolean;
        bucket: number;
        shard: number | null;
    }[];
}
/** Knobs of `Topology.report`; every key is optional. */
export interface ReportOptions {
    topBuckets?: number;
    topGroups?: number;
    membersPerGroup?: number;
    obeseThreshold?: number;
    maxInvalid?: number;
}
"#;

/// Turns any error into a JS `Error` whose message is the error's text. Every error this
/// API throws goes through here.
fn js_error(error: impl Display) -> JsError {
    JsError::new(&error.to_string())
}

/// Serializes a result as plain JS data: objects, arrays, `null` for absent values.
fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(js_error)
}

/// A bulk result as one `Uint32Array`, or the core's error (which names the line).
fn to_array(values: Result<Vec<u32>, LineError>) -> Result<Uint32Array, JsError> {
    Ok(Uint32Array::from(values.map_err(js_error)?.as_slice()))
}

#[wasm_bindgen(inline_js = "const encoder = new TextEncoder();
let read = 0;
export function encode_into(text, from, buffer) {
    const result = encoder.encodeInto(from === 0 ? text : text.substring(from), buffer);
    read = result.read;
    return result.written;
}
export function last_read() { return read; }")]
extern "C" {
    /// Writes `text` from UTF-16 unit `from` on as UTF-8 straight into `buffer` (a view of
    /// wasm memory), as much as fits; returns the bytes written.
    fn encode_into(text: &JsString, from: u32, buffer: &mut [u8]) -> usize;
    /// How many UTF-16 units the last `encode_into` read.
    fn last_read() -> u32;
}

/// A bulk text argument as Rust text. Passing a large string as `&str` makes wasm-bindgen
/// copy its ASCII part one character at a time in JavaScript, which took longer than
/// computing the buckets; `TextEncoder.encodeInto` writes the bytes into wasm memory at once.
fn bulk_text(text: &JsString) -> Result<String, JsError> {
    let units = text.length();
    // Enough for ASCII text; the rest, if any, needs at most 3 bytes per UTF-16 unit.
    let mut bytes = vec![0u8; units as usize];
    let mut written = encode_into(text, 0, &mut bytes);
    let read = last_read();
    if read < units {
        bytes.resize(written + (units - read) as usize * 3, 0);
        written += encode_into(text, read, &mut bytes[written..]);
    }
    bytes.truncate(written);
    String::from_utf8(bytes).map_err(js_error)
}

/// The bucket (0 to 2^20 - 1) of a document ID, before any prefix offset.
///
/// Throws an `Error` for an invalid ID (empty, or longer than 512 bytes in UTF-8).
#[wasm_bindgen(js_name = bucketFor)]
pub fn bucket_for(id: &str) -> Result<u32, JsError> {
    ravenshard::bucket_for(id).map_err(js_error)
}

/// The buckets of many IDs in one call: element `i` is the bucket of line `i + 1`, as
/// `bucketFor` gives it. Lines end with `\n` or `\r\n`; text after a tab on a line is
/// ignored (`id<TAB>size`); a final line ending adds no ID, so `""` gives an empty array.
///
/// Throws an `Error` at the first invalid line (an empty line is an empty ID), with the
/// message `line <n>: <why>`, `n` counted from 1.
#[wasm_bindgen(js_name = bucketsFor)]
pub fn buckets_for(text: &JsString) -> Result<Uint32Array, JsError> {
    to_array(bulk::buckets_for_lines(&bulk_text(text)?, None))
}

/// Every step from a document ID to its bucket, and to its shard when `configJson` (a
/// `ShardingConfiguration` or a database record, as for `new Topology`) is given: the
/// lower-cased ID, the hashed part, the XXH64 hash as 16 hex digits, the prefix, the bucket
/// range, the fragment database and its nodes, and warnings about the ID.
///
/// Throws an `Error` for an invalid ID or configuration.
#[wasm_bindgen(unchecked_return_type = "Explanation")]
pub fn explain(
    id: &str,
    #[wasm_bindgen(js_name = configJson)] config_json: Option<String>,
) -> Result<JsValue, JsError> {
    let topology = config_json
        .map(|json| ravenshard::Topology::from_json(&json))
        .transpose()
        .map_err(js_error)?;
    to_js(&ravenshard::explain(id, topology.as_ref()).map_err(js_error)?)
}

/// A validated RavenDB sharding topology: shards and their nodes, bucket ranges, prefixes.
#[wasm_bindgen]
#[derive(Debug, Clone)]
pub struct Topology {
    inner: ravenshard::Topology,
}

/// What [`Topology::locate`] returns.
#[derive(Serialize)]
struct Location<'a> {
    bucket: u32,
    shard: u32,
    prefix: Option<&'a str>,
    fragment: String,
    nodes: &'a [String],
}

/// [`ReportOptions`] as JS passes them: camelCase keys, each optional.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsReportOptions {
    top_buckets: Option<usize>,
    top_groups: Option<usize>,
    members_per_group: Option<usize>,
    obese_threshold: Option<u64>,
    max_invalid: Option<usize>,
    /// Every other key. serde-wasm-bindgen reads only the named keys of a struct, so
    /// `deny_unknown_fields` would not catch a misspelt key; this does.
    #[serde(flatten)]
    unknown: BTreeMap<String, IgnoredAny>,
}

/// Reads the `options` of [`Topology::report`]: `undefined`, `null` or a [`JsReportOptions`].
fn report_options(options: JsValue) -> Result<ReportOptions, JsError> {
    let options: Option<JsReportOptions> = serde_wasm_bindgen::from_value(options)
        .map_err(|e| js_error(format_args!("options: {e}")))?;
    let default = ReportOptions::default();
    let Some(js) = options else {
        return Ok(default);
    };
    if let Some(key) = js.unknown.keys().next() {
        return Err(js_error(format_args!(
            "options: unknown key `{key}`; the keys are topBuckets, topGroups, \
             membersPerGroup, obeseThreshold and maxInvalid"
        )));
    }
    Ok(ReportOptions {
        top_buckets: js.top_buckets.unwrap_or(default.top_buckets),
        top_groups: js.top_groups.unwrap_or(default.top_groups),
        members_per_group: js.members_per_group.unwrap_or(default.members_per_group),
        obese_threshold: js.obese_threshold.or(default.obese_threshold),
        max_invalid: js.max_invalid.unwrap_or(default.max_invalid),
    })
}

#[wasm_bindgen]
impl Topology {
    /// Reads a RavenDB `ShardingConfiguration` (an object with `"Shards"`) or a database
    /// record with a `"Sharding"` section. Without bucket ranges they are created as RavenDB
    /// does at database creation. `database` names the database (fragments are
    /// `<database>$<shard>`); by default it is the record's `DatabaseName`, else `"db"`.
    ///
    /// Throws an `Error` whose message starts with the JSON path of the offending value.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = configJson)] config_json: &str,
        database: Option<String>,
    ) -> Result<Topology, JsError> {
        let mut inner = ravenshard::Topology::from_json(config_json).map_err(js_error)?;
        if let Some(name) = database {
            inner.set_database(&name);
        }
        Ok(Topology { inner })
    }

    /// `count` shards numbered from 0 with RavenDB's default bucket ranges and no nodes.
    ///
    /// Throws an `Error` unless `count` is a whole number the core accepts (at least 1).
    #[wasm_bindgen(js_name = withShards)]
    pub fn with_shards(count: f64) -> Result<Topology, JsError> {
        if count.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&count) {
            return Err(js_error(format_args!(
                "the shard count must be a whole number from 1 to {}, not {count}",
                u32::MAX
            )));
        }
        let inner = ravenshard::Topology::with_shards(count as u32).map_err(js_error)?;
        Ok(Topology { inner })
    }

    /// The database name (fragments are `<database>$<shard>`).
    #[wasm_bindgen(getter)]
    pub fn database(&self) -> String {
        self.inner.database().to_string()
    }

    /// Where a document lives: `{bucket, shard, prefix, fragment, nodes}`, the bucket
    /// including the offset of the prefix the ID starts with (`prefix` is that prefix, or
    /// `null`).
    ///
    /// Throws an `Error` for an invalid ID.
    #[wasm_bindgen(unchecked_return_type = "Location")]
    pub fn locate(&self, id: &str) -> Result<JsValue, JsError> {
        let location = self.inner.locate(id).map_err(js_error)?;
        to_js(&Location {
            bucket: location.bucket,
            shard: location.shard,
            prefix: location
                .prefix
                .and_then(|i| self.inner.prefixes().get(i))
                .map(|p| p.prefix.as_str()),
            fragment: self.inner.fragment(location.shard),
            nodes: self.inner.members(location.shard),
        })
    }

    /// `explain(id, configJson)` with this topology.
    #[wasm_bindgen(unchecked_return_type = "Explanation")]
    pub fn explain(&self, id: &str) -> Result<JsValue, JsError> {
        to_js(&ravenshard::explain(id, Some(&self.inner)).map_err(js_error)?)
    }

    /// The buckets of many IDs, one per line, prefix offsets included: as the free
    /// `bucketsFor`, with the same line rules and errors.
    #[wasm_bindgen(js_name = bucketsFor)]
    pub fn buckets_for(&self, text: &JsString) -> Result<Uint32Array, JsError> {
        to_array(bulk::buckets_for_lines(
            &bulk_text(text)?,
            Some(&self.inner),
        ))
    }

    /// The shards of many IDs, one per line, with the same line rules and errors as
    /// `bucketsFor`.
    #[wasm_bindgen(js_name = shardsFor)]
    pub fn shards_for(&self, text: &JsString) -> Result<Uint32Array, JsError> {
        to_array(bulk::shards_for_lines(&bulk_text(text)?, &self.inner))
    }

    /// Where a set of documents lands: documents per shard, skew, the fullest and obese
    /// buckets, anchored groups. `ids` is an array of strings, or text read as `bucketsFor`
    /// reads it. Invalid IDs do not throw: they are counted and listed in the report with
    /// their 1-based position. `options` may set `topBuckets`, `topGroups`, `membersPerGroup`,
    /// `obeseThreshold` and `maxInvalid`.
    ///
    /// Throws an `Error` if `ids` is neither a string nor an array of strings, or `options`
    /// has an unknown key or a value of the wrong type.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn report(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[] | string")] ids: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReportOptions")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let options = report_options(options)?;
        let report = match ids.as_string() {
            Some(text) => ravenshard::report(bulk::lines(&text), Some(&self.inner), &options),
            None => {
                let ids: Vec<String> = serde_wasm_bindgen::from_value(ids)
                    .map_err(|e| js_error(format_args!("ids: {e}")))?;
                ravenshard::report(ids.iter().map(String::as_str), Some(&self.inner), &options)
            }
        };
        to_js(&report)
    }

    /// Things that are valid but probably unintended, such as a prefix that can never match
    /// or a shard with no buckets: `[{kind, message}]`.
    #[wasm_bindgen(unchecked_return_type = "Notice[]")]
    pub fn warnings(&self) -> Result<JsValue, JsError> {
        let notices: Vec<Notice> = self.inner.warnings().iter().map(Notice::from).collect();
        to_js(&notices)
    }

    /// The configuration as RavenDB's `ShardingConfiguration` JSON (pretty-printed), with
    /// the bucket ranges and prefix blocks spelled out and unknown keys kept.
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }
}
