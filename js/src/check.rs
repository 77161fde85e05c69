//! `check`: what of a database breaks or changes once sharded (see [`ravenshard_check`]).

use crate::{file_bytes, js_error, read_options, to_js, topology_of};
use serde::de::IgnoredAny;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** The options of `check`: the intended sharding and what else to check. */
export interface CheckOptions {
    /** The intended sharding: N shards with RavenDB's default bucket ranges. */
    shards?: number;
    /** The intended sharding: a ShardingConfiguration JSON (with prefixes), or a record with "Sharding". */
    config?: string;
    /** Index definitions on their own: the JSON of GET /databases/<db>/indexes. */
    indexes?: string;
    /** RQL queries, one a line; `stream:` or `delete:` before a query says how it runs. */
    queries?: string;
    /** LoadDocument relations, `Collection.Field` one a line. */
    loads?: string;
    /** An export with bodies (.ravendbdump, NDJSON or JSON): its bytes or its text. */
    export?: Uint8Array | string;
}
/** How a feature fares once sharded. */
export type CheckSeverity = "blocks" | "changes" | "note" | "not_checked";
/** Where a finding is; only the fields that apply are set, the rest are null. */
export interface CheckLocation {
    input: "record" | "indexes" | "queries" | "loads" | "export" | "sharding";
    /** The JSON path in the record or the index definitions. */
    path: string | null;
    index: string | null;
    /** 1-based, in the index's Maps. */
    map: number | null;
    /** 1-based line: in the map, the script, or the queries. */
    line: number | null;
    /** 1-based column, in characters. */
    column: number | null;
    task: string | null;
    /** 1-based number of the query among the queries. */
    query: number | null;
    collection: string | null;
    field: string | null;
    document: string | null;
}
/** One finding: a rule of docs/check.md at one place. */
export interface CheckFinding {
    /** The rule's stable name, e.g. "index.rolling-deployment". */
    rule: string;
    severity: CheckSeverity;
    feature: string;
    location: CheckLocation;
    detail: string;
    instead: string;
    /** The RavenDB documentation page or server source of the rule. */
    source: string;
    /** For data findings, the share (0..1) of the documents or loads concerned. */
    share: number | null;
}
/** What `check` found, most severe first. */
export interface CheckReport {
    database: string | null;
    sharded: boolean;
    /** The shard count of the layout the data and routing checks used. */
    shards: number | null;
    findings: CheckFinding[];
}
"#;

/// The options of [`check`] as JS passes them.
#[derive(Deserialize)]
struct JsCheckOptions {
    shards: Option<f64>,
    config: Option<String>,
    indexes: Option<String>,
    queries: Option<String>,
    loads: Option<String>,
    /// Read from the options object itself (its bytes stay a `Uint8Array`); named here so
    /// that it is a known key.
    #[serde(rename = "export")]
    _export: Option<IgnoredAny>,
}

/// What of a database breaks, gets slower or needs changing once sharded: `record` is the
/// JSON of `GET /admin/databases?name=<db>`; `options` optionally gives the intended
/// sharding (`shards` or `config`), `indexes`, `queries`, `loads` and an `export`. Bad
/// input throws an `Error` naming the input, the JSON path and the line and column.
#[wasm_bindgen(unchecked_return_type = "CheckReport")]
pub fn check(
    record: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "CheckOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    let keys = "shards, config, indexes, queries, loads and export";
    let export = match options.is_object() {
        true => js_sys::Reflect::get(&options, &JsValue::from_str("export"))
            .unwrap_or(JsValue::UNDEFINED),
        false => JsValue::UNDEFINED,
    };
    let js = read_options::<JsCheckOptions>(options, keys)?;
    let export = match export.is_undefined() || export.is_null() {
        true => None,
        false => Some(file_bytes("export", export)?),
    };
    let topology = match &js {
        Some(js) => topology_of(js.config.as_deref(), js.shards)?,
        None => None,
    };
    let inputs = ravenshard_check::Inputs {
        record,
        indexes: js.as_ref().and_then(|j| j.indexes.as_deref()),
        queries: js.as_ref().and_then(|j| j.queries.as_deref()),
        loads: js.as_ref().and_then(|j| j.loads.as_deref()),
        export: export.as_deref(),
        documents: None,
        sharding: topology.as_ref(),
    };
    to_js(&ravenshard_check::check(&inputs).map_err(js_error)?)
}
