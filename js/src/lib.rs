//! # ravenshard-js
//!
//! The JavaScript API of [`ravenshard`]: which RavenDB 7.x bucket and shard a document ID
//! lands on, computed exactly. This crate only converts types; every answer is the core's.
//!
//! It ships as the npm package `ravenshard` (`scripts/js-package.sh`), for Node.js, browsers
//! and bundlers:
//!
//! ```js
//! import { bucketFor, bucketsFor, explain, Topology } from "ravenshard";
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
//! A configuration with `ByContent` turns on the draft "Sharding" chapter's design (not
//! shipped RavenDB 7.x): `store`, `storeMany`, `route`, `checkTransaction`, `checkLoad`,
//! `designOn` and `contentRules` on a [`Topology`], and [`configDiff`](config_diff).
//!
//! ```js
//! const t = new Topology('{"Shards": {"0": {}, "1": {}, "2": {}}, "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}');
//! t.store({Customer: "customers/1-A", "@metadata": {"@id": "orders/1-A$"}}); // {id: "orders/1-A$@982326", bucket: 982326, shard: 2}
//! t.route("from Orders where Customer = 'customers/1-A'").shards;             // [2]
//! ```
//!
//! Resharding reads the documents once into a [`Workload`] (`id` or `id<TAB>size` lines),
//! then plans, balances and walks through RavenDB's bucket migration; the operations with
//! RavenDB's rules give new topologies.
//!
//! ```js
//! const current = Topology.withShards(10);
//! const workload = new Workload(current, "orders/1-A\t1200\ncompanies/1-A\t800\n");
//! const grown = current.addShard(["D"]);                     // shard 10, no buckets yet
//! const balanced = workload.withTopology(grown).balance({ threshold: 0 });
//! balanced.moves;                                            // [{from_bucket, to_bucket, from_shard, to_shard, docs, bytes}]
//! const target = new Topology(JSON.stringify(balanced.target));
//! workload.withTopology(grown).migrationStep(target, 0).configuration.BucketMigrations;
//! ```
//!
//! Errors are thrown as JS `Error`s whose message is the core's (an invalid ID, a bad
//! configuration with the JSON path of the offending value). Structured results are plain
//! objects with the core's JSON field names (`snake_case`, as the CLI's JSON output); absent
//! values are `null`, and no 64-bit integer is ever a JS number (the hash is a hex string).
//!
//! IDs cross the boundary as JS strings; a lone UTF-16 surrogate, which no real ID has, is
//! read as U+FFFD. The bulk calls (`bucketsFor`, `shardsFor`, `new Workload`) also take a
//! `Uint8Array` of UTF-8 bytes, such as a file read with `fs.readFileSync`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod advise;
mod calls;
mod check;
mod design;
mod growth;
mod reshard;
mod topology;

pub use advise::advise;
pub use check::check;
pub use design::config_diff;
pub use growth::bucket_growth;
pub use reshard::Workload;
pub use topology::Topology;

use js_sys::{JsString, Uint32Array, Uint8Array};
use ravenshard::bulk::{self, LineError};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Display;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
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
    /**
     * For an ID ending with `/` or `|`: the ID the server stores instead (`users/<n>`,
     * `users/<n>-<node>$<BASE26>`) and how it is placed; the steps above are then those of
     * the text as given. `null` for an ordinary ID.
     */
    server_made: { kind: "sticky" | "identity"; final_id: string; placement: string } | null;
}
"#;

/// Turns any error into a JS `Error` whose message is the error's text. Every error this
/// API throws goes through here.
pub(crate) fn js_error(error: impl Display) -> JsError {
    JsError::new(&error.to_string())
}

/// The text of a serde-wasm-bindgen error: its JS `Error`'s message, without the
/// `Error: ` that its `Display` starts with.
fn serde_message(error: serde_wasm_bindgen::Error) -> String {
    let value = JsValue::from(error);
    match value.dyn_ref::<js_sys::Error>() {
        Some(error) => error.message().into(),
        None => format!("{value:?}"),
    }
}

/// Serializes a result as plain JS data: objects, arrays, `null` for absent values.
pub(crate) fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(serde_message(e)))
}

/// Reads a JS argument with serde; an error names the argument: `ids: invalid type: …`.
pub(crate) fn from_js<T: DeserializeOwned>(name: &str, value: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| js_error(format_args!("{name}: {}", serde_message(e))))
}

/// An `options` argument: the keys of `T` (camelCase, each optional), and any other key,
/// kept to be refused. serde-wasm-bindgen reads only the named keys of a struct, so
/// `deny_unknown_fields` would not catch a misspelt key; this does.
#[derive(Deserialize)]
struct Options<T> {
    #[serde(flatten)]
    known: T,
    #[serde(flatten)]
    unknown: BTreeMap<String, IgnoredAny>,
}

/// Reads an `options` argument: `undefined` or `null` (`None`), or an object with only the
/// keys of `T`, which `keys` lists for the error message.
pub(crate) fn read_options<T: DeserializeOwned>(
    options: JsValue,
    keys: &str,
) -> Result<Option<T>, JsError> {
    let Some(options) = from_js::<Option<Options<T>>>("options", options)? else {
        return Ok(None);
    };
    if let Some(key) = options.unknown.keys().next() {
        return Err(js_error(format_args!(
            "options: unknown key `{key}`; the keys are {keys}"
        )));
    }
    Ok(Some(options.known))
}

/// A JS number that must be a whole number from 0 to `max`, or an `Error` saying what
/// `what` must be.
pub(crate) fn whole_number(what: &str, value: f64, max: u64) -> Result<u64, JsError> {
    if value.fract() == 0.0 && (0.0..=max as f64).contains(&value) {
        Ok(value as u64)
    } else {
        Err(js_error(format_args!(
            "{what} must be a whole number from 0 to {max}, not {value}"
        )))
    }
}

/// The bytes of a file argument: a `Uint8Array` of the file's bytes, or its text.
pub(crate) fn file_bytes(what: &str, value: JsValue) -> Result<Vec<u8>, JsError> {
    if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        Ok(bytes.to_vec())
    } else if value.is_instance_of::<JsString>() || value.is_string() {
        Ok(from_js::<String>(what, value)?.into_bytes())
    } else {
        Err(js_error(format_args!(
            "{what}: give a Uint8Array of the file's bytes or its text"
        )))
    }
}

/// The topology of the options `config` (a configuration or a record with "Sharding") or
/// `shards` (N shards with RavenDB's default ranges); `None` with neither.
pub(crate) fn topology_of(
    config: Option<&str>,
    shards: Option<f64>,
) -> Result<Option<ravenshard::Topology>, JsError> {
    match (config, shards) {
        (Some(config), _) => Ok(Some(
            ravenshard::Topology::from_json(config).map_err(js_error)?,
        )),
        (None, Some(n)) => {
            let n = whole_number("shards", n, u64::from(u32::MAX))? as u32;
            Ok(Some(
                ravenshard::Topology::with_shards(n).map_err(js_error)?,
            ))
        }
        (None, None) => Ok(None),
    }
}

/// A bulk result as one `Uint32Array`, or the core's error (which names the line).
pub(crate) fn to_array<E: Display>(
    values: Result<Vec<u32>, LineError<E>>,
) -> Result<Uint32Array, JsError> {
    Ok(Uint32Array::from(values.map_err(js_error)?.as_slice()))
}

#[wasm_bindgen]
extern "C" {
    /// The platform's `TextEncoder` (browsers, Node.js, Deno, Bun).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    /// Writes `text` as UTF-8 straight into `buffer` (a view of wasm memory), as much as
    /// fits.
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, text: &JsString, buffer: &mut [u8]) -> EncodeIntoResult;

    /// What `encodeInto` did: UTF-16 units read, bytes written.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> usize;
}

/// A string as Rust text. Passing a large string as `&str` makes wasm-bindgen copy its
/// ASCII part one character at a time in JavaScript, which took longer than computing the
/// buckets; `TextEncoder.encodeInto` writes the bytes into wasm memory at once.
fn string_text(text: &JsString) -> Result<String, JsError> {
    let encoder = TextEncoder::new();
    let units = text.length();
    // Enough for ASCII text; the rest, if any, needs at most 3 bytes per UTF-16 unit.
    let mut bytes = vec![0u8; units as usize];
    let done = encoder.encode_into(text, &mut bytes);
    let (read, mut written) = (done.read(), done.written());
    if read < units {
        bytes.resize(written + (units - read) as usize * 3, 0);
        let rest = text.substring(read, units);
        written += encoder.encode_into(&rest, &mut bytes[written..]).written();
    }
    bytes.truncate(written);
    String::from_utf8(bytes).map_err(js_error)
}

/// UTF-8 bytes as Rust text, copied into wasm memory at once; an `Error` naming the line
/// and byte of the first byte that is not UTF-8.
fn utf8_text(bytes: &Uint8Array) -> Result<String, JsError> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let (valid, rest) = bytes.split_at(at.min(bytes.len()));
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        js_error(format_args!(
            "line {line}: byte 0x{:02X} at offset {at} is not UTF-8; give the text as UTF-8 bytes or as a string",
            rest.first().copied().unwrap_or_default()
        ))
    })
}

/// A bulk text argument as Rust text: a string, or a `Uint8Array` of UTF-8 bytes (such as
/// a file read with `fs.readFileSync`, never decoded to a JS string).
pub(crate) fn bulk_text(text: &JsValue) -> Result<String, JsError> {
    if let Some(text) = text.dyn_ref::<JsString>() {
        string_text(text)
    } else if let Some(bytes) = text.dyn_ref::<Uint8Array>() {
        utf8_text(bytes)
    } else {
        Err(js_error(
            "text: give a string or a Uint8Array of UTF-8 bytes, one ID a line",
        ))
    }
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
/// `text` is a string or a `Uint8Array` of UTF-8 bytes (a file read with `fs.readFileSync`
/// need not be decoded first).
///
/// Throws an `Error` at the first invalid line (an empty line is an empty ID), with the
/// message `line <n>: <why>`, `n` counted from 1; bytes that are not UTF-8 are such a line.
#[wasm_bindgen(js_name = bucketsFor)]
pub fn buckets_for(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: &JsValue,
) -> Result<Uint32Array, JsError> {
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
