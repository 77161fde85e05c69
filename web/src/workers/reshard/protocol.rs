//! What the page and the Resharding view's worker say to each other: plans, calls,
//! balances and drains, each over the load per bucket at a change of the workspace; and
//! what the worker and the workspace's host say to each other over their own channel
//! ([`peer`](crate::workers::peer)): the load asked ([`LoadAsk`]) and sent ([`LoadSent`]).

use crate::workers::reshard::plan::{CallsFile, CallsRequest, PlanRequest, Planned};
use crate::workers::transport::{crash_reply, Crashed};
use ravenshard_reshard::{Amount, BalanceOptions, BucketLoad, ObjectiveSummary, Obstacle};
use serde::{Deserialize, Serialize};

/// The Resharding view's worker asks the workspace's host for the load per bucket once
/// the host made the page's change `at` (the host answers when it has:
/// [`LoadSent`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadAsk {
    /// The page's number of the change ([`HostRequest::Change`](crate::workers::HostRequest::Change)).
    pub at: u64,
}

/// The workspace's host's load per bucket, sent to the Resharding view's worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadSent {
    /// The page's number of the last change the host made (or refused) before: at least
    /// the one asked.
    pub at: u64,
    /// The load.
    pub load: LoadData,
}

/// What each used bucket of the configuration in force holds, as flat arrays (one entry a
/// used bucket, or a range of buckets for bucket statistics): about 630,000 entries, 12 MB,
/// for 1,000,000 documents.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadData {
    /// Each entry's first bucket, ascending.
    pub first: Vec<u32>,
    /// Each entry's last bucket; empty when every entry is one bucket.
    pub last: Vec<u32>,
    /// Each entry's documents.
    pub docs: Vec<u64>,
    /// Each entry's bytes.
    pub bytes: Vec<u64>,
}

impl LoadData {
    /// The flat arrays of `load`. O(entries).
    pub fn of(load: &BucketLoad) -> LoadData {
        let n = load.buckets_used();
        let mut data = LoadData {
            first: Vec::with_capacity(n),
            docs: Vec::with_capacity(n),
            bytes: Vec::with_capacity(n),
            last: Vec::new(),
        };
        // The last buckets only when some entry is a range (a load of statistics).
        let ranges = load.ranges().next().is_some();
        if ranges {
            data.last.reserve_exact(n);
        }
        for (first, end, held) in load.spans() {
            data.first.push(first);
            if ranges {
                data.last.push(end);
            }
            data.docs.push(held.docs);
            data.bytes.push(held.bytes);
        }
        data
    }

    /// The load again (what a balance reads of it: the documents without a size are not
    /// counted).
    pub fn load(&self) -> BucketLoad {
        let last = |i: usize| self.last.get(i).copied().unwrap_or(self.first[i]);
        BucketLoad::from_ranges((0..self.first.len()).map(|i| {
            let held = Amount {
                docs: self.docs.get(i).copied().unwrap_or(0),
                bytes: self.bytes.get(i).copied().unwrap_or(0),
            };
            (self.first[i], last(i), held)
        }))
    }
}

/// What a balance is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalanceRequest {
    /// The run's number.
    pub run: u64,
    /// The change of the workspace whose load per bucket it runs over (the page's number
    /// of it): the worker asks the host for the load unless it holds one as new.
    pub load: u64,
    /// The target to balance, as JSON (`Topology::to_json`).
    pub target: String,
    /// How.
    #[serde(with = "super::wire::balance_options")]
    pub options: BalanceOptions,
}

/// What a drain of a shard is asked: the target with every bucket of the shard given to
/// the others, evenly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrainRequest {
    /// The run's number.
    pub run: u64,
    /// The change of the workspace whose load per bucket it runs over (the page's number
    /// of it): the worker asks the host for the load unless it holds one as new.
    pub load: u64,
    /// The target to drain the shard of, as JSON.
    pub target: String,
    /// The shard.
    pub shard: u32,
    /// What "evenly" counts.
    pub by: ravenshard_reshard::Measure,
}

/// A balanced target, what the Resharding view shows of the balance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balanced {
    /// The target, as JSON.
    pub target: String,
    /// What the balance had to say, as the view shows it.
    pub notes: Vec<String>,
    /// The buckets too big for a fair share.
    pub obstacles: Vec<Obstacle>,
    /// The balance's figures under its objective.
    pub summary: ObjectiveSummary,
}

/// What the Resharding view's worker is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ReshardRequest {
    /// Plan from the configuration in force to a target (and keep the load for the plans
    /// and balances to come); the reply is [`ReshardReply::Planned`].
    Plan(PlanRequest),
    /// The calls that carry out a plan, as a file; the reply is [`ReshardReply::Calls`].
    Calls(CallsRequest),
    /// Balance a target; the reply is [`ReshardReply::Balanced`], then
    /// [`ReshardReply::Compared`].
    Balance(BalanceRequest),
    /// Drain a shard of a target; the reply is [`ReshardReply::Drained`].
    Drain(DrainRequest),
}

impl ReshardRequest {
    /// The change of the workspace whose load the request runs over.
    pub fn load(&self) -> u64 {
        match self {
            ReshardRequest::Plan(plan) => plan.load,
            ReshardRequest::Calls(calls) => calls.plan.load,
            ReshardRequest::Balance(balance) => balance.load,
            ReshardRequest::Drain(drain) => drain.load,
        }
    }
}

/// What the Resharding view's worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ReshardReply {
    /// The plan of a [`ReshardRequest::Plan`].
    Planned {
        /// The run.
        run: u64,
        /// The plan and its step (boxed: the largest reply).
        planned: Box<Planned>,
    },
    /// The calls of a [`ReshardRequest::Calls`], as a file, or why there are none.
    Calls(Result<CallsFile, String>),
    /// The balanced target of a [`ReshardRequest::Balance`].
    Balanced {
        /// The run.
        run: u64,
        /// The balance.
        balanced: Balanced,
    },
    /// The drained target of a [`ReshardRequest::Drain`] (its JSON), or why there is none.
    Drained {
        /// The run.
        run: u64,
        /// The target.
        target: Result<String, String>,
    },
    /// After [`ReshardReply::Balanced`]: the same balance's figures under the other
    /// objective, for the comparison.
    Compared {
        /// The run.
        run: u64,
        /// The figures.
        summary: ObjectiveSummary,
    },
    /// A balance could not be made (options the core refuses); the message says why.
    BalanceFailed {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
    /// The worker stopped.
    Crashed(Crashed),
}

crash_reply!(ReshardReply);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::transport::round_trip;
    use ravenshard_reshard::{balance, BucketLoad, Measure, Objective, Throughput, MAX_OBSTACLES};

    /// Every balance message reads back as it was written, every option and figure set.
    #[test]
    fn balance_messages_survive_the_workers_codec() {
        let current = ravenshard::Topology::with_shards(2).unwrap();
        let load = BucketLoad::from_buckets(
            (0..300u32)
                .map(|i| (i * 1000, Some(u64::from(i))))
                .chain([(600_000, Some(9))]),
        );
        let options = BalanceOptions {
            by: Measure::Bytes,
            weights: [(0, 1.5), (1, 2.0)].into_iter().collect(),
            threshold: 2.5,
            max_buckets: Some(9),
            throughput: Some(Throughput::Bytes(2e7)),
            objective: Objective::FewestMigrations,
            ..BalanceOptions::default()
        };
        let request = ReshardRequest::Balance(BalanceRequest {
            run: 3,
            load: 4,
            target: current.to_json(),
            options: options.clone(),
        });
        assert_eq!(round_trip(&request), request);
        let ask = LoadAsk { at: 4 };
        assert_eq!(round_trip(&ask), ask);
        let sent = LoadSent {
            at: 5,
            load: LoadData::of(&load),
        };
        assert_eq!(round_trip(&sent), sent);
        assert_eq!(sent.load.load(), load);
        let b = balance(&current, &load, &options).unwrap();
        assert!(b.obstacles.len() <= MAX_OBSTACLES);
        let replies = [
            ReshardReply::Balanced {
                run: 3,
                balanced: Balanced {
                    target: b.plan.target.to_json(),
                    notes: vec!["a note".into()],
                    obstacles: b.obstacles.clone(),
                    summary: b.summary(),
                },
            },
            ReshardReply::Compared {
                run: 3,
                summary: b.objectives[0].clone(),
            },
            ReshardReply::BalanceFailed {
                run: 3,
                message: "why".into(),
            },
        ];
        for reply in replies {
            assert_eq!(round_trip(&reply), reply);
        }
    }

    /// A plan's request and its answer (a plan of more moves than are shown, its step, and
    /// the calls) read back as they were written.
    #[test]
    fn plan_messages_survive_the_workers_codec() {
        use crate::workers::{CallsRequest, Planner, StepAt, MOVES_SHOWN};
        use ravenshard_reshard::{BucketCost, PlanOptions};
        let current = ravenshard::Topology::with_shards(2).unwrap();
        // Every other bucket of the first 400 moves: 200 moves of one bucket.
        let ranges: Vec<String> = (0..=400u32)
            .map(|b| format!(r#"{{"BucketRangeStart": {b}, "ShardNumber": {}}}"#, b % 2))
            .collect();
        let target = format!(
            r#"{{"Shards": {{"0": {{}}, "1": {{}}}}, "BucketRanges": [{}, {{"BucketRangeStart": 524288, "ShardNumber": 1}}]}}"#,
            ranges.join(",")
        );
        let load = BucketLoad::from_buckets((0..400u32).map(|b| (b, Some(10))));
        let plan = PlanRequest {
            run: 5,
            load: 2,
            current: current.to_json(),
            target,
            database: "Orders".into(),
            options: PlanOptions {
                measure: Measure::Bytes,
                throughput: Some(Throughput::Docs(500.0)),
                bucket_cost: BucketCost::parse("10ms").unwrap(),
            },
            step: StepAt::NextWithDocuments(3),
        };
        let request = ReshardRequest::Plan(plan.clone());
        assert_eq!(round_trip(&request), request);
        let mut planner = Planner::default();
        let mut balancer = crate::workers::Balancer::default();
        balancer.keep(2, load);
        let planned = planner.plan(&balancer, &plan);
        let shown = planned.plan.as_ref().unwrap();
        assert_eq!(shown.move_count, 200);
        assert_eq!(shown.moves.len(), MOVES_SHOWN);
        assert_eq!(shown.steps(), 800);
        assert_eq!(planned.step, 4, "the next bucket holding documents");
        let step = planned.migration.as_ref().unwrap().as_ref().unwrap();
        assert_eq!((step.bucket, step.docs, step.bytes), (3, 1, 10));
        assert!(step.configuration.contains("\"BucketMigrations\""));
        let reply = ReshardReply::Planned {
            run: 5,
            planned: Box::new(planned),
        };
        assert_eq!(round_trip(&reply), reply);
        let calls = CallsRequest {
            plan,
            url: "https://a.example.com".into(),
            script: false,
        };
        assert_eq!(
            round_trip(&ReshardRequest::Calls(calls.clone())),
            ReshardRequest::Calls(calls.clone())
        );
        let file = planner.calls(&balancer, &calls);
        assert_eq!(file.as_ref().unwrap().name, "Orders-calls.json");
        let reply = ReshardReply::Calls(file);
        assert_eq!(round_trip(&reply), reply);
    }
}
