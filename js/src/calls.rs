//! A plan or a balance as the calls that carry it out on a cluster: `Workload.planCalls`
//! and `Workload.balanceCalls`, the JSON of `ravenshard plan --calls json` with the
//! script of `--calls sh`.

use crate::reshard::{balance_options, plan_options, Workload};
use crate::topology::Topology;
use crate::{js_error, read_options, to_js};
use ravenshard_reshard as reshard;
use ravenshard_reshard::{CallsOptions, Plan, Throughput};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Where the calls go; every key is optional. */
export interface CallsOptions {
    /** Default: the configuration's database name. */
    database?: string;
    /** A node's URL; default "http://127.0.0.1:8080". */
    url?: string;
    /** Client certificate (PEM), its key, and the authority to trust, for the script's curl. */
    cert?: string;
    key?: string;
    cacert?: string;
    /** Seconds between two polls of an operation's state, in the script; default 2. */
    poll?: number;
}
/** One `POST /admin/resharding/start`. */
export interface ReshardingCall {
    call: number;
    from_bucket: number;
    to_bucket: number;
    to_shard: number;
    from_shards: number[];
    /** The prefix whose block the buckets are in; null for the default block. */
    prefix: string | null;
    /** Every bucket of the range, empty ones included. */
    buckets: number;
    docs: number;
    bytes: number;
    method: "POST";
    /** Path and query, after the node's URL. */
    path: string;
    estimate: Estimate;
}
export type Chore =
    | { kind: "add_shard"; shard: number }
    | { kind: "add_prefix_shard"; prefix: string; shard: number }
    | { kind: "remove_prefix_shard"; prefix: string; shard: number }
    | { kind: "remove_shard"; shard: number };
/** The calls that carry out a plan, as `ravenshard plan --calls json` prints them. */
export interface Calls {
    database: string;
    url: string;
    /** "/operations/state?id={OperationId}", on the node that answered. */
    state_endpoint: string;
    order: string;
    before: Chore[];
    calls: ReshardingCall[];
    after: Chore[];
    /** What each shard holds before, at its fullest during, and after the calls. */
    shards: { shard: number; before: number; peak: number; after: number }[];
    measure: Measure;
    estimate: Estimate;
    poll_seconds: number;
    cert?: string;
    key?: string;
    cacert?: string;
}
/** From `planCalls` and `balanceCalls`: the calls, and the shell script that makes them. */
export interface CallsExport {
    calls: Calls;
    /** A POSIX shell script (curl): one call at a time, polled until it ends. */
    script: string;
}
"#;

/// The `calls` argument as JS passes it.
#[derive(Deserialize)]
struct JsCallsOptions {
    database: Option<String>,
    url: Option<String>,
    cert: Option<String>,
    key: Option<String>,
    cacert: Option<String>,
    poll: Option<u32>,
}

/// What the two methods return.
#[derive(Serialize)]
struct CallsExport<'a> {
    calls: &'a reshard::Calls,
    script: String,
}

/// The calls of `plan`, from `current`, with the options of `calls`.
fn export(
    current: &ravenshard::Topology,
    plan: &Plan,
    calls: JsValue,
    throughput: Option<Throughput>,
    bucket_cost: reshard::BucketCost,
) -> Result<JsValue, JsError> {
    let default = CallsOptions::default();
    let js = read_options::<JsCallsOptions>(calls, "database, url, cert, key, cacert and poll")?;
    let options = match js {
        None => default,
        Some(js) => CallsOptions {
            database: js.database,
            url: js.url.unwrap_or(default.url),
            cert: js.cert,
            key: js.key,
            cacert: js.cacert,
            poll_seconds: js.poll.unwrap_or(default.poll_seconds),
            ..default
        },
    };
    let options = CallsOptions {
        throughput,
        bucket_cost,
        ..options
    };
    let c = reshard::calls(current, plan, &options).map_err(js_error)?;
    to_js(&CallsExport {
        script: c.script(),
        calls: &c,
    })
}

#[wasm_bindgen]
impl Workload {
    /// The plan to `target` as the calls that carry it out: `{calls, script}`, `calls` as
    /// `ravenshard plan --calls json` prints it (one `POST /admin/resharding/start` per run
    /// of buckets with one destination, in a safe order, with what to do before and
    /// after), `script` a POSIX shell script that makes them one at a time with curl.
    /// `calls` may set `database`, `url`, `cert`, `key`, `cacert` and `poll`; `options`
    /// are `plan`'s.
    ///
    /// Throws an `Error` when the plan cannot be made, for a URL that is not
    /// `http(s)://host[:port]`, or a run in a prefix's block to a shard the prefix lacks.
    #[wasm_bindgen(js_name = planCalls, unchecked_return_type = "CallsExport")]
    pub fn plan_calls(
        &self,
        target: &Topology,
        #[wasm_bindgen(unchecked_optional_param_type = "CallsOptions")] calls: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PlanOptions")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let options = plan_options(options)?;
        let plan = self.plan_to(target, &options)?;
        export(
            self.current(),
            &plan,
            calls,
            options.throughput,
            options.bucket_cost,
        )
    }

    /// The balance as the calls that carry it out: `{calls, script}` as `planCalls`
    /// gives them; `options` are `balance`'s.
    ///
    /// Throws an `Error` as `balance` and `planCalls` do.
    #[wasm_bindgen(js_name = balanceCalls, unchecked_return_type = "CallsExport")]
    pub fn balance_calls(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CallsOptions")] calls: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "BalanceOptions")] options: JsValue,
    ) -> Result<JsValue, JsError> {
        let options = balance_options(options)?;
        let balanced = reshard::balance(self.current(), self.load(), &options).map_err(js_error)?;
        export(
            self.current(),
            &balanced.plan,
            calls,
            options.throughput,
            options.bucket_cost,
        )
    }
}
