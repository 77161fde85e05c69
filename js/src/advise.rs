//! `advise`: the sharding advisor over an export with bodies (see
//! [`ravenshard_advise`]).

use crate::{file_bytes, js_error, read_options, to_js, topology_of};
use ravenshard_advise as advise;
use ravenshard_advise::Workload;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** The options of `advise`: a shard count or a configuration, and a workload. */
export interface AdviseOptions {
    /** N shards with RavenDB's default bucket ranges (when `config` is not given). */
    shards?: number;
    /** A ShardingConfiguration JSON, or a database record with "Sharding". */
    config?: string;
    /** RQL queries, one a line. */
    queries?: string;
    /** LoadDocument relations, `Collection.Field` one a line. */
    loads?: string;
}
/** How a candidate places a collection's documents. */
export type AdviseStrategy = "none" | "anchor" | "prefix" | "content";
/** The documents placed together: an anchor, a prefix's block, a content value or one ID. */
export interface AdviseGroup { anchor: string; documents: number; bytes: number; share: number; }
/** One candidate placement, scored exactly. Shares are fractions from 0 to 1. */
export interface AdviseCandidate {
    strategy: AdviseStrategy;
    field: string | null;
    skew: number;
    byte_skew: number;
    shard_documents: number[];
    largest_group: AdviseGroup | null;
    obese_groups: number;
    obese_threshold: number;
    colocated: number | null;
    cardinality: number;
    frequency: number;
    single_shard_queries: number | null;
    queries: { query: string; shards: number[] }[];
    unplaced: number;
    id_example: string | null;
    configuration: ShardingConfiguration | null;
}
/** The advice for one collection. */
export interface CollectionAdvice {
    collection: string;
    documents: number;
    bytes: number;
    references: { field: string; collection: string; coverage: number; loaded: boolean }[];
    candidates: AdviseCandidate[];
    recommended: { strategy: AdviseStrategy; field: string | null; reason: string };
}
/** What `advise` answers. */
export interface Advice {
    shards: number;
    documents: number;
    skipped: number;
    bodies_dropped: number;
    collections: CollectionAdvice[];
}
"#;

/// The options of [`advise`] as JS passes them.
#[derive(Deserialize)]
struct JsAdviseOptions {
    shards: Option<f64>,
    config: Option<String>,
    queries: Option<String>,
    loads: Option<String>,
}

/// How each collection's IDs should be shaped: references, candidate placements (`none`,
/// `anchor`, `prefix`, the draft's `content`) scored exactly, and a recommendation.
///
/// `export` is a `.ravendbdump` (plain or gzip-compressed), NDJSON or JSON: a `Uint8Array`
/// of the file's bytes, or its text. `options` gives `shards` or `config`, and optionally
/// `queries` and `loads`.
#[wasm_bindgen(unchecked_return_type = "Advice")]
pub fn advise(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] export: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AdviseOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    let Some(js) = read_options::<JsAdviseOptions>(options, "shards, config, queries and loads")?
    else {
        return Err(js_error("options: give shards or config"));
    };
    let topology = topology_of(js.config.as_deref(), js.shards)?
        .ok_or_else(|| js_error("options: give shards or config"))?;
    let workload = Workload::parse(
        js.queries.as_deref().unwrap_or(""),
        js.loads.as_deref().unwrap_or(""),
    )
    .map_err(js_error)?;
    let bytes = file_bytes("export", export)?;
    to_js(&advise::advise(&bytes, None, &topology, &workload).map_err(js_error)?)
}
