//! The options of `plan` and `balance` that turn a plan into the calls that carry it out
//! (`--calls json|sh`), and the estimate's cost per bucket (`--bucket-cost`).

use crate::Fatal;
use clap::Args;
use ravenshard::Topology;
use ravenshard_reshard::{calls, BucketCost, CallsOptions, Objective, Plan, Throughput};
use std::io::{self, Write};

/// How to print the calls.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum CallsFormat {
    /// The calls, in order, with what to do before and after them, as JSON.
    Json,
    /// A POSIX shell script that makes the calls one after the other with curl.
    Sh,
}

/// The calls' options, shared by `plan` and `balance`.
#[derive(Args)]
pub struct CallArgs {
    /// What migrating one bucket costs the cluster, empty or not (the estimate's buckets
    /// term): `40ms`, `0.1s`.
    #[arg(long, value_name = "DURATION", default_value = "40ms", value_parser = parse_cost)]
    pub bucket_cost: BucketCost,
    /// Print, instead of the plan, the `POST /admin/resharding/start` calls that carry it
    /// out: `json`, or `sh` for a script that runs them one after the other with curl.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub calls: Option<CallsFormat>,
    /// The database the calls are for [default: the configuration's].
    #[arg(long, value_name = "NAME", requires = "calls")]
    pub database: Option<String>,
    /// The URL of a node of the cluster, for the calls.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// The client certificate (PEM) the script gives curl, for a secured cluster.
    #[arg(long, value_name = "FILE", requires = "calls")]
    pub cert: Option<String>,
    /// The certificate's private key, when not in the certificate file.
    #[arg(long, value_name = "FILE", requires = "calls")]
    pub key: Option<String>,
    /// The certificate authority the script trusts, when not a public one.
    #[arg(long, value_name = "FILE", requires = "calls")]
    pub cacert: Option<String>,
    /// Seconds between two polls of an operation's state, in the script.
    #[arg(long, value_name = "SECONDS", default_value_t = 2)]
    pub poll: u32,
}

fn parse_cost(text: &str) -> Result<BucketCost, String> {
    BucketCost::parse(text).map_err(|e| e.to_string())
}

/// Reads `--objective`.
pub fn parse_objective(text: &str) -> Result<Objective, String> {
    Objective::parse(text).map_err(|e| e.to_string())
}

impl CallArgs {
    /// Prints the calls of `plan` when `--calls` was given, else `otherwise()`.
    pub fn print(
        &self,
        current: &Topology,
        plan: &Plan,
        throughput: Option<Throughput>,
        otherwise: impl FnOnce() -> Result<(), Fatal>,
    ) -> Result<(), Fatal> {
        let Some(format) = self.calls else {
            return otherwise();
        };
        let options = CallsOptions {
            database: self.database.clone(),
            url: self.url.clone(),
            cert: self.cert.clone(),
            key: self.key.clone(),
            cacert: self.cacert.clone(),
            poll_seconds: self.poll,
            throughput,
            bucket_cost: self.bucket_cost,
        };
        let c = calls(current, plan, &options).map_err(|e| Fatal::Usage(e.to_string()))?;
        let text = match format {
            CallsFormat::Json => serde_json::to_string_pretty(&c)
                .map_err(|e| Fatal::Io("stdout".into(), e.into()))?,
            CallsFormat::Sh => c.script(),
        };
        let mut out = io::stdout().lock();
        write!(out, "{}", text.trim_end())
            .and_then(|()| writeln!(out))
            .map_err(|e| Fatal::Io("stdout".into(), e))
    }
}
