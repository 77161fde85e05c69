//! From a plan to the cluster: the `POST /admin/resharding/start` calls that carry a plan
//! out, in a safe order, with what must be done before and after them.
//!
//! What RavenDB's server does, from its source:
//! - `ReshardingHandler.StartResharding`
//!   (`src/Raven.Server/Documents/Sharding/Handlers/ReshardingHandler.cs`) answers
//!   `POST /admin/resharding/start?database=<db>&fromBucket=<a>&toBucket=<b>&toShard=<s>`
//!   (Operator access; `fromBucket <= toBucket`, both from 0) with `{"OperationId",
//!   "OperationNodeTag"}`: a server-wide operation on the node that answered
//!   (`ServerStore.Operations.AddLocalOperation`). The operation migrates buckets a..=b
//!   one at a time, starting the next only when the database has no active migration.
//! - The operation's state is `GET /operations/state?id=<OperationId>` on that node
//!   (`OperationsServerHandler.State` in
//!   `src/Raven.Server/Web/Operations/OperationsServerHandler.cs`; the clients'
//!   `GetServerWideOperationStateCommand`), not the database's
//!   `/databases/<db>/operations/state`. Its `Status` is `InProgress`, `Completed`,
//!   `Faulted` or `Canceled`.
//! - A bucket whose source is already the destination is skipped
//!   (`StartBucketMigrationCommand.UpdateDatabaseRecord`: "nothing to do"), so a range
//!   left half done can be started again.
//! - A destination must be a shard of the database ("Destination shard N doesn't
//!   exist"), and for a bucket of a prefix's block (bucket ≥ 2^20) one of that prefix's
//!   `Shards`: the server finds the prefix from the bucket and faults the operation
//!   otherwise (`StartBucketMigrationCommand.AssertDestinationShardExists`; RavenDB's test
//!   `RavenDB_22731`). The call itself has no prefix parameter. So a shard is added to
//!   the database, and to a prefix's shards, before the calls, and removed after them.
//!
//! The calls: one per run of consecutive buckets with the same destination within one
//! block (a plan's moves from different sources merge; a run never crosses a block's
//! edge, since a block belongs to one prefix). The order: RavenDB moves the data of a
//! call from its sources to its destination, so a call fills its destination. Each next
//! call is the first remaining call (in bucket order) of the destination that holds the
//! least at that point: the emptiest shards fill first, and a full shard receives only
//! once the calls to emptier ones are done. [`Calls::shards`] reports what each shard
//! holds before, at its fullest during, and after the calls.

use super::estimate::{BucketCost, Estimate};
use super::load::{Amount, Measure};
use super::plan::{Move, Plan, Throughput};
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// Where the calls go and how they are estimated.
#[derive(Debug, Clone, PartialEq)]
pub struct CallsOptions {
    /// The database; `None` for the configuration's database name.
    pub database: Option<String>,
    /// The URL of one node of the cluster, such as `https://a.example.com:443`.
    pub url: String,
    /// The client certificate (PEM) for a secured cluster, for the script.
    pub cert: Option<String>,
    /// Its private key, when not in the certificate file.
    pub key: Option<String>,
    /// The certificate authority to trust, when the cluster's is not a public one.
    pub cacert: Option<String>,
    /// Seconds between two polls of an operation's state, in the script.
    pub poll_seconds: u32,
    /// For the data term of the estimates.
    pub throughput: Option<Throughput>,
    /// For the buckets term of the estimates.
    pub bucket_cost: BucketCost,
}

impl Default for CallsOptions {
    fn default() -> Self {
        CallsOptions {
            database: None,
            url: "http://127.0.0.1:8080".into(),
            cert: None,
            key: None,
            cacert: None,
            poll_seconds: 2,
            throughput: None,
            bucket_cost: BucketCost::DEFAULT,
        }
    }
}

/// One `resharding/start` call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReshardingCall {
    /// Its place in the order, from 1.
    pub call: usize,
    /// The first bucket.
    pub from_bucket: u32,
    /// The last bucket (inclusive).
    pub to_bucket: u32,
    /// The destination.
    pub to_shard: u32,
    /// The shards the buckets leave.
    pub from_shards: Vec<u32>,
    /// The prefix whose block the buckets are in; `null` for the default block.
    pub prefix: Option<String>,
    /// Buckets migrated: every bucket of the range, empty ones included.
    pub buckets: u64,
    /// Documents moved.
    pub docs: u64,
    /// Their bytes.
    pub bytes: u64,
    /// `POST`.
    pub method: &'static str,
    /// The path and query, to append to the node's URL.
    pub path: String,
    /// The time it takes.
    pub estimate: Estimate,
}

/// What a shard holds (by the plan's measure) before the calls, at its fullest during
/// them, and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ShardPeak {
    /// The shard.
    pub shard: u32,
    /// Before the first call.
    pub before: u64,
    /// At its fullest, after any call.
    pub peak: u64,
    /// After the last call.
    pub after: u64,
}

/// Something to do by hand before or after the calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Chore {
    /// Before: add the shard to the database (its destination must exist).
    AddShard {
        /// The shard.
        shard: u32,
    },
    /// Before: add the shard to the prefix's shards (a destination in a prefix's block
    /// must be one of them).
    AddPrefixShard {
        /// The prefix.
        prefix: String,
        /// The shard.
        shard: u32,
    },
    /// After: remove the shard from the prefix's shards.
    RemovePrefixShard {
        /// The prefix.
        prefix: String,
        /// The shard.
        shard: u32,
    },
    /// After: remove the shard, which owns no bucket any more.
    RemoveShard {
        /// The shard.
        shard: u32,
    },
}

impl fmt::Display for Chore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chore::AddShard { shard } => write!(f, "Add shard {shard} to the database."),
            Chore::AddPrefixShard { prefix, shard } => {
                write!(f, "Add shard {shard} to the shards of prefix '{prefix}'.")
            }
            Chore::RemovePrefixShard { prefix, shard } => {
                write!(
                    f,
                    "Remove shard {shard} from the shards of prefix '{prefix}'."
                )
            }
            Chore::RemoveShard { shard } => write!(f, "Remove shard {shard} from the database."),
        }
    }
}

/// The calls that carry out a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calls {
    /// The database.
    pub database: String,
    /// The node the calls go to.
    pub url: String,
    /// `/operations/state?id={OperationId}`, on the node that answered the call.
    pub state_endpoint: &'static str,
    /// How the calls are ordered, in a sentence.
    pub order: &'static str,
    /// What to do before the first call.
    pub before: Vec<Chore>,
    /// The calls, in the order to make them.
    pub calls: Vec<ReshardingCall>,
    /// What to do after the last call.
    pub after: Vec<Chore>,
    /// Every shard before, at its fullest during and after the calls.
    pub shards: Vec<ShardPeak>,
    /// What the shard figures count.
    pub measure: Measure,
    /// The time all the calls take.
    pub estimate: Estimate,
    /// Seconds between two polls of an operation's state, in the script.
    pub poll_seconds: u32,
    /// The client certificate the script passes to curl (`--cert`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cert: Option<String>,
    /// Its key (`--key`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The certificate authority to trust (`--cacert`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cacert: Option<String>,
}

/// Why the calls cannot be written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallsError {
    /// The database name is empty.
    NoDatabase,
    /// The URL is not `http://` or `https://`.
    BadUrl {
        /// The URL as given.
        url: String,
    },
    /// A run in a prefix's block goes to a shard that is not one of the prefix's shards
    /// in the target: RavenDB would fault the operation.
    NotPrefixShard {
        /// The prefix.
        prefix: String,
        /// The destination.
        shard: u32,
        /// The run's first bucket.
        from_bucket: u32,
        /// Its last bucket.
        to_bucket: u32,
    },
}

impl fmt::Display for CallsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallsError::NoDatabase => write!(
                f,
                "The database name is empty: give the database the calls are for."
            ),
            CallsError::BadUrl { url } => write!(
                f,
                "'{url}' is not a node's URL: write it as http://host:port or \
                 https://host:port, without a path."
            ),
            CallsError::NotPrefixShard {
                prefix,
                shard,
                from_bucket,
                to_bucket,
            } => write!(
                f,
                "Buckets {from_bucket}..{to_bucket} are in the block of prefix '{prefix}' and \
                 go to shard {shard}, which is not one of its shards: RavenDB would fault the \
                 migration. Add shard {shard} to the prefix's shards in the target."
            ),
        }
    }
}

impl std::error::Error for CallsError {}

/// How [`Calls::order`] explains the order.
const ORDER: &str = "Each call fills its destination, so the next call is always one to the \
                     shard that holds the least at that point (within a shard, in bucket \
                     order): no shard receives while an emptier one still waits.";

/// A merged run, before it is ordered.
struct Run {
    first: Move,
    to_bucket: u32,
    from: Vec<(u32, Amount)>,
}

/// The calls that carry out `plan`, made from `current` with the documents of `load`.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{calls, plan, BucketLoad, CallsOptions, PlanOptions};
/// use ravenshard::Topology;
///
/// let current = Topology::with_shards(2).unwrap();
/// let target = Topology::with_shards(1).unwrap();
/// let load = BucketLoad::default();
/// let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
/// let options = CallsOptions { database: Some("Orders".into()), ..Default::default() };
/// let c = calls(&current, &p, &options).unwrap();
/// assert_eq!(c.calls.len(), 1);
/// assert_eq!(c.calls[0].path,
///     "/admin/resharding/start?database=Orders&fromBucket=524288&toBucket=1048575&toShard=0");
/// assert_eq!(c.after[0].to_string(), "Remove shard 1 from the database.");
/// ```
pub fn calls(current: &Topology, plan: &Plan, options: &CallsOptions) -> Result<Calls, CallsError> {
    let database = options
        .database
        .clone()
        .unwrap_or_else(|| current.database().to_string());
    if database.trim().is_empty() {
        return Err(CallsError::NoDatabase);
    }
    let url = options.url.trim().trim_end_matches('/').to_string();
    let host = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    if host.is_none_or(|h| h.is_empty() || h.contains('/')) {
        return Err(CallsError::BadUrl {
            url: options.url.clone(),
        });
    }
    let runs = merge(&plan.moves);
    let (before, after) = chores(current, &plan.target, &runs)?;
    let (ordered, shards) = order(runs, plan);
    let encoded = encoded(&database);
    let total = Amount {
        docs: plan.docs,
        bytes: plan.bytes,
    };
    let estimate_of = |buckets: u64, moved: Amount| {
        Estimate::new(
            buckets,
            moved,
            total,
            options.throughput,
            options.bucket_cost,
        )
    };
    let calls: Vec<ReshardingCall> = ordered
        .iter()
        .enumerate()
        .map(|(i, run)| resharding_call(i + 1, run, &encoded, &plan.target, &estimate_of))
        .collect();
    Ok(Calls {
        database,
        url,
        state_endpoint: "/operations/state?id={OperationId}",
        order: ORDER,
        before,
        after,
        shards,
        measure: plan.measure,
        estimate: estimate_of(
            plan.buckets_moved,
            Amount {
                docs: plan.docs_moved,
                bytes: plan.bytes_moved,
            },
        ),
        calls,
        poll_seconds: options.poll_seconds,
        cert: options.cert.clone(),
        key: options.key.clone(),
        cacert: options.cacert.clone(),
    })
}

/// The calls' bucket runs in their order: `(from_bucket, to_bucket, to_shard)`.
pub(crate) fn call_runs(plan: &Plan) -> Vec<(u32, u32, u32)> {
    let (ordered, _) = order(merge(&plan.moves), plan);
    ordered
        .iter()
        .map(|r| (r.first.from_bucket, r.to_bucket, r.first.to_shard))
        .collect()
}

/// The call that carries out `run`, number `call`, for the database `encoded`, estimated
/// by `estimate(buckets, moved)`.
fn resharding_call(
    call: usize,
    run: &Run,
    encoded: &str,
    target: &Topology,
    estimate: &impl Fn(u64, Amount) -> Estimate,
) -> ReshardingCall {
    let held = run.from.iter().fold(Amount::default(), |a, (_, h)| Amount {
        docs: a.docs + h.docs,
        bytes: a.bytes + h.bytes,
    });
    let (from, to, shard) = (run.first.from_bucket, run.to_bucket, run.first.to_shard);
    let buckets = u64::from(to - from) + 1;
    ReshardingCall {
        call,
        from_bucket: from,
        to_bucket: to,
        to_shard: shard,
        from_shards: run.from.iter().map(|&(s, _)| s).collect(),
        prefix: prefix_of(target, from),
        buckets,
        docs: held.docs,
        bytes: held.bytes,
        method: "POST",
        path: format!(
            "/admin/resharding/start?database={encoded}&fromBucket={from}&toBucket={to}&toShard={shard}"
        ),
        estimate: estimate(buckets, held),
    }
}

/// A value for a query string, percent-encoded.
pub(crate) fn encoded(value: &str) -> String {
    percent_encoding::utf8_percent_encode(value, QUERY).to_string()
}

/// What a query value escapes: all but RFC 3986's unreserved characters.
const QUERY: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The plan's moves merged into runs of consecutive buckets with one destination, within
/// one block.
fn merge(moves: &[Move]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for m in moves {
        let held = Amount {
            docs: m.docs,
            bytes: m.bytes,
        };
        match runs.last_mut() {
            Some(run)
                if run.to_bucket + 1 == m.from_bucket
                    && run.first.to_shard == m.to_shard
                    && m.from_bucket % NUMBER_OF_BUCKETS != 0 =>
            {
                run.to_bucket = m.to_bucket;
                match run.from.iter_mut().find(|(s, _)| *s == m.from_shard) {
                    Some((_, a)) => {
                        a.docs += m.docs;
                        a.bytes += m.bytes;
                    }
                    None => run.from.push((m.from_shard, held)),
                }
            }
            _ => runs.push(Run {
                first: *m,
                to_bucket: m.to_bucket,
                from: vec![(m.from_shard, held)],
            }),
        }
    }
    runs
}

/// The prefix whose block holds `bucket`.
fn prefix_of(topology: &Topology, bucket: u32) -> Option<String> {
    let block = bucket / NUMBER_OF_BUCKETS;
    topology
        .prefixes()
        .iter()
        .find(|p| p.bucket_range_start / NUMBER_OF_BUCKETS == block && block > 0)
        .map(|p| p.prefix.clone())
}

/// What to do before and after the calls; an error when a run in a prefix's block goes
/// to a shard the prefix will not have.
fn chores(
    current: &Topology,
    target: &Topology,
    runs: &[Run],
) -> Result<(Vec<Chore>, Vec<Chore>), CallsError> {
    let mut before = Vec::new();
    for shard in target.shards().map(|s| s.number) {
        if current.shard(shard).is_none() {
            before.push(Chore::AddShard { shard });
        }
    }
    for run in runs {
        let (bucket, shard) = (run.first.from_bucket, run.first.to_shard);
        let block = bucket / NUMBER_OF_BUCKETS;
        if block == 0 {
            continue;
        }
        let in_block = |t: &Topology| {
            t.prefixes()
                .iter()
                .find(|p| p.bucket_range_start / NUMBER_OF_BUCKETS == block)
                .map(|p| (p.prefix.clone(), p.shards.contains(&shard)))
        };
        match (in_block(current), in_block(target)) {
            (_, Some((prefix, false))) | (Some((prefix, _)), None) => {
                return Err(CallsError::NotPrefixShard {
                    prefix,
                    shard,
                    from_bucket: bucket,
                    to_bucket: run.to_bucket,
                })
            }
            (Some((prefix, false)), Some(_)) => {
                let chore = Chore::AddPrefixShard { prefix, shard };
                if !before.contains(&chore) {
                    before.push(chore);
                }
            }
            _ => {}
        }
    }
    let mut after = Vec::new();
    for p in current.prefixes() {
        let same = |q: &&ravenshard::Prefix| {
            ravenshard::casing::ordinal_ignore_case(&q.prefix, &p.prefix)
                == std::cmp::Ordering::Equal
        };
        if let Some(q) = target.prefixes().iter().find(same) {
            for &shard in p.shards.iter().filter(|s| !q.shards.contains(s)) {
                after.push(Chore::RemovePrefixShard {
                    prefix: p.prefix.clone(),
                    shard,
                });
            }
        }
    }
    for shard in current.shards().map(|s| s.number) {
        if target.shard(shard).is_none() {
            after.push(Chore::RemoveShard { shard });
        }
    }
    Ok((before, after))
}

/// The runs in the order to call them (the destination that holds least first), with
/// every shard's load before, at its peak and after.
fn order(runs: Vec<Run>, plan: &Plan) -> (Vec<Run>, Vec<ShardPeak>) {
    let by = plan.measure;
    let mut loads: BTreeMap<u32, u64> = plan
        .per_shard
        .iter()
        .map(|c| (c.shard, c.held(false).by(by)))
        .collect();
    let mut peaks = loads.clone();
    let mut queues: BTreeMap<u32, std::collections::VecDeque<Run>> = BTreeMap::new();
    for run in runs {
        queues.entry(run.first.to_shard).or_default().push_back(run);
    }
    let mut ordered = Vec::new();
    while let Some(shard) = queues
        .iter()
        .filter(|(_, q)| !q.is_empty())
        .min_by_key(|&(&s, _)| (loads.get(&s).copied().unwrap_or(0), s))
        .map(|(&s, _)| s)
    {
        let Some(run) = queues.get_mut(&shard).and_then(|q| q.pop_front()) else {
            break;
        };
        for &(source, held) in &run.from {
            let load = loads.entry(source).or_default();
            *load = load.saturating_sub(held.by(by));
        }
        let received: u64 = run.from.iter().map(|(_, h)| h.by(by)).sum();
        let load = loads.entry(shard).or_default();
        *load += received;
        let peak = peaks.entry(shard).or_default();
        *peak = (*peak).max(*load);
        ordered.push(run);
    }
    let shards = plan
        .per_shard
        .iter()
        .map(|c| ShardPeak {
            shard: c.shard,
            before: c.held(false).by(by),
            peak: peaks.get(&c.shard).copied().unwrap_or(0),
            after: c.held(true).by(by),
        })
        .collect();
    (ordered, shards)
}
