//! The `Topology` class: a validated configuration, and where IDs land in it.

use crate::{bulk_text, from_js, js_error, read_options, to_array, to_js};
use js_sys::Uint32Array;
use ravenshard::bulk;
use ravenshard::{Notice, ReportOptions};
use ravenshard_design::content::{locate_id, ContentDesign};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Where a document lives, from `Topology.locate`. */
export interface Location {
    bucket: number;
    shard: number;
    /** The prefix that matched, as configured, or null (also for a `$@<n>` ID). */
    prefix: string | null;
    /** The fragment database, `<database>$<shard>`. */
    fragment: string;
    nodes: string[];
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

/// A validated RavenDB sharding topology: shards and their nodes, bucket ranges, prefixes.
#[wasm_bindgen]
#[derive(Debug, Clone)]
pub struct Topology {
    pub(crate) inner: ravenshard::Topology,
    /// The draft chapter's design, when the configuration has `ByContent`.
    pub(crate) design: Option<ContentDesign>,
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
}

/// Reads the `options` of [`Topology::report`]: `undefined`, `null` or a [`JsReportOptions`].
fn report_options(options: JsValue) -> Result<ReportOptions, JsError> {
    let default = ReportOptions::default();
    let Some(js) = read_options::<JsReportOptions>(
        options,
        "topBuckets, topGroups, membersPerGroup, obeseThreshold and maxInvalid",
    )?
    else {
        return Ok(default);
    };
    Ok(ReportOptions {
        top_buckets: js.top_buckets.unwrap_or(default.top_buckets),
        top_groups: js.top_groups.unwrap_or(default.top_groups),
        members_per_group: js.members_per_group.unwrap_or(default.members_per_group),
        obese_threshold: js.obese_threshold.or(default.obese_threshold),
        max_invalid: js.max_invalid.unwrap_or(default.max_invalid),
    })
}

impl Topology {
    /// A core topology as a JS one, with its design when it has `ByContent`.
    pub(crate) fn wrap(inner: ravenshard::Topology) -> Result<Topology, JsError> {
        let design = ContentDesign::from_topology(&inner).map_err(js_error)?;
        Ok(Topology { inner, design })
    }
}

#[wasm_bindgen]
impl Topology {
    /// Reads a RavenDB `ShardingConfiguration` (an object with `"Shards"`) or a database
    /// record with a `"Sharding"` section. Without bucket ranges they are created as RavenDB
    /// does at database creation. `database` names the database (fragments are
    /// `<database>$<shard>`); by default it is the record's `DatabaseName`, else `"db"`.
    /// A `ByContent` section turns the draft chapter's design on (see `designOn`).
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
        Topology::wrap(inner)
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
        Ok(Topology {
            inner,
            design: None,
        })
    }

    /// The database name (fragments are `<database>$<shard>`).
    #[wasm_bindgen(getter)]
    pub fn database(&self) -> String {
        self.inner.database().to_string()
    }

    /// The RavenDB server whose rules this topology follows: `"7"` (7.x, the default) or
    /// `"6.2"` (6.2.x, which hashes the control characters of an ID with non-ASCII
    /// characters unescaped). `locate`, `explain`, `bucketsFor`, `shardsFor` and `report`
    /// follow it.
    #[wasm_bindgen(getter, js_name = serverVersion, unchecked_return_type = "\"7\" | \"6.2\"")]
    pub fn server_version(&self) -> String {
        self.inner.server_version().name().to_string()
    }

    /// Sets the server version: `"7"` or `"6.2"` (also `"7.1.5"`, `"6.2.4"`: a version is
    /// read as its line).
    ///
    /// Throws an `Error` naming the two versions for anything else.
    #[wasm_bindgen(setter, js_name = serverVersion)]
    pub fn set_server_version(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "\"7\" | \"6.2\" | string")] version: &str,
    ) -> Result<(), JsError> {
        let version: ravenshard::ServerVersion = version.parse().map_err(js_error)?;
        self.inner.set_server_version(version);
        Ok(())
    }

    /// Where a document lives: `{bucket, shard, prefix, fragment, nodes}`, the bucket
    /// including the offset of the prefix the ID starts with (`prefix` is that prefix, or
    /// `null`). With the design on, `…$@<n>` is in bucket `n` exactly (no prefix offset).
    ///
    /// Throws an `Error` for an invalid ID, or with the design on, for `$@` followed by
    /// anything but a bucket number below 2^20.
    #[wasm_bindgen(unchecked_return_type = "Location")]
    pub fn locate(&self, id: &str) -> Result<JsValue, JsError> {
        let location = locate_id(&self.inner, self.design.as_ref(), id).map_err(js_error)?;
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
    /// `bucketsFor`, with the same line rules, text (a string or UTF-8 bytes) and errors. With the design on, a line
    /// `…$@<n>` is bucket `n`, as `locate` says.
    #[wasm_bindgen(js_name = bucketsFor)]
    pub fn buckets_for(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: &JsValue,
    ) -> Result<Uint32Array, JsError> {
        to_array(ravenshard_design::content::bulk::buckets_for_lines_under(
            &bulk_text(text)?,
            Some(&self.inner),
            self.design.as_ref(),
        ))
    }

    /// The shards of many IDs, one per line, with the same line rules and errors as
    /// `bucketsFor`.
    #[wasm_bindgen(js_name = shardsFor)]
    pub fn shards_for(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: &JsValue,
    ) -> Result<Uint32Array, JsError> {
        to_array(ravenshard_design::content::bulk::shards_for_lines_under(
            &bulk_text(text)?,
            &self.inner,
            self.design.as_ref(),
        ))
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
                let ids: Vec<String> = from_js("ids", ids)?;
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
