//! `bucketGrowth`: snapshots of a cluster's bucket statistics, saved at different times,
//! side by side (`ravenshard_reshard::growth`).

use crate::reshard::{read_statistics, By};
use crate::{from_js, js_error, read_options, to_js, whole_number};
use ravenshard_reshard as reshard;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** One snapshot of bucket statistics for `bucketGrowth`: its answers, taken together. */
export interface GrowthSnapshot {
    name: string;
    /** The JSON text of a `debug/sharding/buckets` answer, or several (per-shard answers, drill-downs). */
    answers: string | string[];
    /** The answers' names in messages (default `answer 1`, ...). */
    names?: string[];
    /** When it was taken (RFC 3339, such as a file's time); default: its latest `LastModified`. */
    taken?: string;
}
/** Documents and bytes. */
export interface Amount { docs: number; bytes: number }
/** A snapshot in the grid, oldest first. */
export interface GrowthSnapshotFigures {
    name: string;
    /** RFC 3339. */
    time: string;
    total: Amount;
    /** By shard, ascending: the ranges whose `ShardNumbers` name that shard alone. */
    shards: ({ shard: number } & Amount)[];
    /** The ranges naming several shards or none. */
    shared: Amount;
}
/** Buckets `from_bucket..=to_bucket` and their figures at each time. */
export interface GrowthBin { from_bucket: number; to_bucket: number; amounts: Amount[]; shards: number[] }
/** A bin that gained, with what it gained from the first time to the last. */
export interface GrowingBin {
    from_bucket: number;
    to_bucket: number;
    docs_change: number;
    bytes_change: number;
    shards: number[];
}
/** `bucketGrowth`'s answer: bins of `width` buckets × times. */
export interface Growth {
    width: number;
    snapshots: GrowthSnapshotFigures[];
    bins: GrowthBin[];
    /** The bins that gained most, most first (`top`, by `by`). */
    growing: GrowingBin[];
}
/** `bucketGrowth`'s options. */
export interface GrowthOptions {
    /** How many of the bins that gained most to list (default 10). */
    top?: number;
    /** Rank them by documents (default) or bytes gained. */
    by?: Measure;
}
"#;

#[derive(Deserialize)]
struct JsSnapshot {
    name: String,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    answers: JsValue,
    #[serde(default)]
    names: Vec<String>,
    taken: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsGrowthOptions {
    top: Option<f64>,
    by: Option<By>,
}

#[derive(Serialize)]
struct Answer<'a> {
    width: u32,
    snapshots: &'a [reshard::SnapshotFigures],
    bins: &'a [reshard::GrowthBin],
    growing: Vec<reshard::Gain>,
}

/// Lays snapshots of a cluster's bucket statistics, saved at different times, side by
/// side: bins of the coarsest range size given (no figure is split), oldest snapshot
/// first, each with its documents and bytes by shard, and the bins that gained most.
///
/// Throws an `Error` for fewer than two snapshots, a snapshot without a time (no
/// `LastModified` and no `taken`), an unreadable answer (named with its key), or range
/// sizes that do not divide one another.
#[wasm_bindgen(js_name = bucketGrowth, unchecked_return_type = "Growth")]
pub fn bucket_growth(
    #[wasm_bindgen(unchecked_param_type = "GrowthSnapshot[]")] snapshots: JsValue,
    #[wasm_bindgen(unchecked_param_type = "GrowthOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    let options = read_options::<JsGrowthOptions>(options, "top and by")?;
    let (top, by_bytes) = match options {
        None => (10, false),
        Some(o) => (
            o.top
                .map_or(Ok(10), |t| whole_number("options.top", t, u32::MAX.into()))?,
            matches!(o.by, Some(By::Bytes)),
        ),
    };
    let given: Vec<JsSnapshot> = from_js("snapshots", snapshots)?;
    let mut read = Vec::with_capacity(given.len());
    for (i, s) in given.into_iter().enumerate() {
        let taken = match s.taken.as_deref() {
            None => None,
            Some(text) => Some(text.parse().map_err(|e| {
                js_error(format_args!(
                    "snapshots[{i}].taken: {text:?} is not an RFC 3339 time: {e}"
                ))
            })?),
        };
        let statistics = read_statistics(&format!("snapshots[{i}].answers"), s.answers, s.names)?;
        read.push(reshard::Snapshot {
            name: s.name,
            taken,
            statistics,
        });
    }
    let g = reshard::growth(read).map_err(js_error)?;
    to_js(&Answer {
        width: g.width(),
        snapshots: g.snapshots(),
        bins: g.bins(),
        growing: g.growing(usize::try_from(top).unwrap_or(usize::MAX), by_bytes),
    })
}
