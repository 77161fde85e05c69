//! The Resharding sub-state, on its own: targets from operations, balancing (on this
//! thread, and as the page does it with the worker: each request naming the change whose
//! load the worker holds from the host, the replies of
//! the runs awaited taken, the others dropped; crashes and cancels), RavenDB's messages,
//! the plan and the walk-through, asked of the worker only while the view is shown. The
//! workspace's host answers the view's questions here as the page's worker does, and the
//! view's worker its plans ([`reduce`]).

use crate::state::*;
use crate::views::reshard::state::*;
use crate::workers::{
    BalanceRequest, Balancer, CallsFile, CallsRequest, Crashed, LoadData, PlanShown, Planner,
    ReshardReply,
};
use ravenshard_model::host::question::{CheckPrefixes, Histogram, Load};
use ravenshard_model::host::{Host, Question};
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::{Document, Placement};
use ravenshard_reshard::{Measure, Objective, Phase, PlanNote};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use yew::Reducible;

thread_local! {
    /// The workspace's host of each change of the tests' inputs ([`inputs`]).
    static HOSTS: RefCell<HashMap<u64, Host>> = RefCell::new(HashMap::new());
}

/// What the host of the inputs' change answers.
fn ask<Q: Question>(state: &ReshardState, question: &Q) -> Q::Answer {
    HOSTS.with(|h| {
        let mut hosts = h.borrow_mut();
        let host = hosts
            .get_mut(&state.inputs().changes)
            .expect("inputs() made it");
        host.answer(question)
    })
}

/// The calls the view's worker writes for `request`.
fn calls_file(request: &CallsRequest) -> Result<CallsFile, String> {
    Planner::default().calls(&holding(request.plan.load), request)
}

/// The host's load per bucket at the change `at` (as it sends it to the view's worker).
fn load_at(at: u64) -> ravenshard_reshard::BucketLoad {
    HOSTS.with(|h| {
        let mut hosts = h.borrow_mut();
        let host = hosts.get_mut(&at).expect("inputs() made it");
        host.answer(&Load)
    })
}

/// A worker holding the host's load at the change `at`, as the host sends it.
fn holding(at: u64) -> Balancer {
    let mut balancer = Balancer::default();
    balancer.keep(at, load_at(at));
    balancer
}

/// Balances on this thread ([`ReshardAction::Balance`]) from the load the view plans from.
fn balance_here(state: ReshardState) -> ReshardState {
    let at = state.load_at().expect("the documents rested");
    let action = ReshardAction::Balance(Rc::new(load_at(at)));
    reduce(state, action)
}

/// Sends what the view wants of its worker (a drain, a plan) to a worker holding the
/// host's load, as the page does, and takes the answers.
fn plan_in(mut state: Rc<ReshardState>) -> Rc<ReshardState> {
    for _ in 0..4 {
        let load = state.load_at().map(load_at).unwrap_or_default();
        let actions = crate::views::state::testing::worker_round_trip(&state, &load);
        if actions.is_empty() {
            break;
        }
        for action in actions {
            state = state.reduce(action);
        }
    }
    state
}

/// Reduces `action`, then answers what the view asks the host, as the page does: the load
/// while it is wanted, the prefixes of a target waiting for their check; then the plan it
/// wants, of a new worker.
fn reduce(state: ReshardState, action: ReshardAction) -> ReshardState {
    let mut state = Rc::new(state).reduce(action);
    if state.load_wanted() {
        let changes = state.inputs().changes;
        state = state.reduce(ReshardAction::Load { changes });
    }
    if let Some(target) = state.checking() {
        let configuration = target.to_json();
        let question = CheckPrefixes {
            configuration: configuration.clone(),
        };
        let problem = ask(&state, &question).expect("the target reads");
        let checked = ReshardAction::PrefixesChecked {
            configuration,
            problem,
        };
        state = state.reduce(checked);
    }
    Rc::unwrap_or_clone(plan_in(state))
}

/// The inputs of `documents` on the studio's default configuration, at `revision`: a change
/// of the workspace of its own, whose host holds them.
fn inputs(documents: Vec<Document>, revision: u64) -> Inputs {
    let config = ConfigState::default();
    let current = Rc::clone(config.topology());
    let placement = Placement::new(&documents, &current, &Default::default());
    let changes = HOSTS.with(|h| {
        let mut hosts = h.borrow_mut();
        let changes = hosts.len() as u64 + 1;
        hosts.insert(changes, Host::new(placement));
        changes
    });
    Inputs {
        current,
        revision,
        changes,
        nodes: config.nodes().value().clone(),
        replication_factor: *config.replication_factor().value(),
    }
}

fn generated_documents(count: usize) -> Vec<Document> {
    let generator = Generator {
        documents: count,
        anchored_share: 0.5,
        seed: 1,
    };
    generator.generate().unwrap()
}

/// 3,000 generated documents, the view shown.
fn generated() -> ReshardState {
    let state = ReshardState::new(inputs(generated_documents(3000), 0));
    reduce(state, ReshardAction::Show(true))
}

fn plan(state: &ReshardState) -> PlanShown {
    let view = state.view().expect("computed while shown");
    view.plan.clone().expect("a plan")
}

fn phase_at(state: &ReshardState) -> (u64, Phase) {
    let step = state.migration().unwrap();
    let step = step.as_ref().as_ref().unwrap();
    (step.step, step.phase)
}

#[test]
fn the_view_is_computed_only_when_shown() {
    let state = ReshardState::new(inputs(generated_documents(3000), 0));
    assert!(state.view().is_none());
    let state = reduce(state, ReshardAction::AddShard);
    assert!(state.view().is_none(), "a target, but the view is hidden");
    let state = reduce(state, ReshardAction::ResetTarget);
    let state = reduce(state, ReshardAction::Show(true));
    let p = plan(&state);
    assert!(p.moves.is_empty());
    assert_eq!(p.notes, vec![PlanNote::NothingMoves.to_string()]);
    assert_eq!(p.docs, 3000);
    assert!(!state.has_target());
    assert!(state.migration().is_none());
}

#[test]
fn adding_a_shard_then_balancing_and_walking_through() {
    let state = reduce(generated(), ReshardAction::AddShard);
    let target = Rc::clone(state.target());
    assert_eq!(target.shards().len(), 4);
    assert_eq!(
        target.members(3).len(),
        2,
        "members assigned for the new shard"
    );
    let p = plan(&state);
    assert!(p
        .notes
        .contains(&PlanNote::ShardAddedEmpty { shard: 3 }.to_string()));
    let state = reduce(state, ReshardAction::SetThreshold("0".into()));
    let state = balance_here(state);
    let p = plan(&state);
    assert!(p.skew_after < p.skew_before);
    let new = p.per_shard.iter().find(|c| c.shard == 3).unwrap();
    assert!((740..=760).contains(&new.docs_after), "{}", new.docs_after);
    // The map after draws the documents under the target.
    let after = after_map(&state, 0, 1 << 20, 256);
    let placed = Placement::new(
        &generated_documents(3000),
        state.target(),
        &Default::default(),
    );
    assert_eq!(after, placed.histogram(0, 1 << 20, 256));
    assert_eq!(placed.shards()[3].documents, new.docs_after);
    // The walk-through starts at the first moved bucket.
    assert_eq!(phase_at(&state), (0, Phase::Moving));
    let step = state.migration().unwrap();
    assert_eq!(
        step.as_ref().as_ref().unwrap().bucket,
        p.moves[0].from_bucket
    );
    let go = |state, to| reduce(state, ReshardAction::MoveStep(to));
    let state = go(state, StepMove::To(2));
    assert_eq!(phase_at(&state), (2, Phase::OwnershipTransferred));
    let step = state.migration().unwrap();
    assert_eq!(
        step.as_ref().as_ref().unwrap().writes.shard,
        p.moves[0].to_shard
    );
    // Next with documents skips the empty buckets.
    let state = go(state, StepMove::NextWithDocuments);
    let step = state.migration().unwrap();
    let step = step.as_ref().as_ref().unwrap();
    assert_eq!(step.phase, Phase::Moving);
    assert!(step.docs > 0);
    assert!(state.step() > 2);
    // Next bucket: the first phase of the bucket after.
    let at = state.step();
    let state = go(state, StepMove::Next);
    assert_eq!(state.step(), at + 1);
    let state = go(state, StepMove::NextBucket);
    assert_eq!(phase_at(&state), (at + 4, Phase::Moving));
    let state = go(state, StepMove::Previous);
    assert_eq!(state.step(), at + 3);
    // Last and First; a step past the end is clamped to the last.
    let last = p.buckets_moved * 4 - 1;
    let state = go(state, StepMove::Last);
    assert_eq!(phase_at(&state), (last, Phase::CleanedUp));
    let state = go(state, StepMove::NextBucket);
    assert_eq!(state.step(), last);
    let state = go(state, StepMove::First);
    assert_eq!(phase_at(&state), (0, Phase::Moving));
    let state = go(state, StepMove::Previous);
    assert_eq!(state.step(), 0);
    let state = go(state, StepMove::To(u64::MAX));
    assert_eq!(state.step(), last);
}

#[test]
fn removing_a_shard_needs_draining_first() {
    let state = reduce(generated(), ReshardAction::RemoveShard(1));
    let problem = state.problem().unwrap();
    assert!(
        problem
            .message
            .contains("first you need to migrate all its buckets"),
        "{}",
        problem.message
    );
    let state = reduce(state, ReshardAction::DrainShard(1));
    assert!(state.problem().is_none());
    assert_eq!(plan(&state).per_shard[1].docs_after, 0);
    let state = reduce(state, ReshardAction::RemoveShard(1));
    assert!(state.problem().is_none());
    assert_eq!(state.target().shards().len(), 2);
    assert!(plan(&state)
        .notes
        .contains(&PlanNote::ShardRemoved { shard: 1 }.to_string()));
    let state = reduce(state, ReshardAction::ResetTarget);
    assert!(!state.has_target());
}

/// The default three shards, and `prefix` on shard 1.
fn with_prefix(prefix: &str) -> String {
    format!(
        r#"{{"Shards": {{"0": {{}}, "1": {{}}, "2": {{}}}},
        "BucketRanges": [{{"BucketRangeStart": 0, "ShardNumber": 0}},
            {{"BucketRangeStart": 349525, "ShardNumber": 1}},
            {{"BucketRangeStart": 699050, "ShardNumber": 2}},
            {{"BucketRangeStart": 1048576, "ShardNumber": 1}}],
        "Prefixed": [{{"Prefix": "{prefix}", "Shards": [1], "BucketRangeStart": 1048576}}]}}"#
    )
}

#[test]
fn targets_from_json_are_checked() {
    let state = reduce(generated(), ReshardAction::SetTarget("{".into()));
    assert!(state.problem().is_some());
    assert!(!state.has_target());
    let state = reduce(state, ReshardAction::SetTarget(with_prefix("orders/")));
    let problem = state.problem().unwrap();
    assert!(
        problem.message.contains(
            "There are existing documents in database 'Orders' that start with 'orders/'"
        ),
        "{}",
        problem.message
    );
    let moved = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
        "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
            {"BucketRangeStart": 300000, "ShardNumber": 1},
            {"BucketRangeStart": 699050, "ShardNumber": 2}]}"#;
    let state = reduce(state, ReshardAction::SetTarget(moved.into()));
    assert!(state.problem().is_none());
    let p = plan(&state);
    assert_eq!(p.moves.len(), 1);
    assert_eq!(
        (p.moves[0].from_bucket, p.moves[0].to_bucket),
        (300000, 349524)
    );
}

#[test]
fn option_fields_are_checked() {
    let state = reduce(generated(), ReshardAction::SetWeights("0=x".into()));
    assert!(state
        .option_error()
        .unwrap()
        .contains("'0=x' is not a weight"));
    assert!(!state.weights().is_valid());
    let state = balance_here(state);
    assert!(
        !state.has_target(),
        "a balance with bad options is not made"
    );
    let state = reduce(state, ReshardAction::SetWeights("0=2".into()));
    assert!(state.option_error().is_none());
    let state = reduce(state, ReshardAction::SetThreshold("200".into()));
    assert!(state.option_error().unwrap().contains("Threshold"));
    let state = reduce(state, ReshardAction::SetThreshold("0".into()));
    let state = reduce(state, ReshardAction::SetMaxBuckets("many".into()));
    assert!(state.option_error().unwrap().contains("Max buckets"));
    let state = reduce(state, ReshardAction::SetMaxBuckets(String::new()));
    let state = reduce(state, ReshardAction::SetThroughput("fast".into()));
    assert!(state.option_error().unwrap().contains("Throughput"));
    assert_eq!(
        plan(&state).estimate.total_seconds,
        None,
        "no estimate from a refused throughput"
    );
    let state = reduce(state, ReshardAction::SetThroughput("1000docs/s".into()));
    assert_eq!(plan(&state).estimate.total_seconds, Some(0.0));
    let state = balance_here(state);
    let p = plan(&state);
    let share0 = p.per_shard[0].docs_after as f64 / p.docs as f64;
    assert!(
        (share0 - 0.5).abs() < 0.01,
        "weight 2 of 4 takes half: {share0}"
    );
    assert_eq!(p.estimate.data_seconds, Some(p.docs_moved as f64 / 1000.0));
    assert_eq!(
        p.estimate.total_seconds,
        Some(p.docs_moved as f64 / 1000.0 + p.buckets_moved as f64 * 0.04)
    );
    // Bytes without sizes: the core says so.
    let two = vec![Document::new("orders/1-A"), Document::new("orders/2-A")];
    let state = reduce(state, ReshardAction::Inputs(inputs(two, 0)));
    let state = reduce(state, ReshardAction::SetBy(Measure::Bytes));
    let state = balance_here(state);
    assert!(state
        .problem()
        .unwrap()
        .message
        .contains("No document has a size"));
}

#[test]
fn a_bucket_too_big_for_a_fair_share_is_an_obstacle() {
    // 300 orders anchored to one company (one bucket), 300 other documents: a fair share
    // of 3 shards is 200 documents, less than the one bucket holds.
    let mut documents: Vec<Document> = (0..300)
        .map(|i| Document::new(format!("orders/{i}-A$companies/1-A")))
        .collect();
    documents.extend((0..300).map(|i| Document::new(format!("employees/{i}-A"))));
    let state = ReshardState::new(inputs(documents, 0));
    let state = reduce(state, ReshardAction::Show(true));
    let state = reduce(state, ReshardAction::SetThreshold("0".into()));
    let state = balance_here(state);
    let obstacles = state.obstacles();
    assert_eq!(obstacles.len(), 1);
    let bucket = ravenshard::bucket_for("companies/1-A").unwrap();
    assert_eq!((obstacles[0].bucket, obstacles[0].docs), (bucket, 300));
    assert!(obstacles[0].fair_shares > 1.0);
}

#[test]
fn new_inputs_recompute_the_view_and_a_new_revision_drops_the_target() {
    let state = reduce(generated(), ReshardAction::AddShard);
    let state = reduce(state, ReshardAction::SetThreshold("1".into()));
    let view = Rc::clone(state.view().unwrap());
    // The same configuration, fewer documents: the target stays, the plan follows.
    let fewer = inputs(generated_documents(1000), 0);
    let state = reduce(state, ReshardAction::Inputs(fewer));
    assert!(state.has_target());
    assert!(!Rc::ptr_eq(&view, state.view().unwrap()));
    assert_eq!(plan(&state).docs, 1000);
    // Another configuration: the target shaped from the old one is dropped, the balance
    // form keeps its fields.
    let state = reduce(
        state,
        ReshardAction::Inputs(inputs(generated_documents(1000), 1)),
    );
    assert!(!state.has_target());
    assert_eq!(state.threshold().text().as_str(), "1");
    assert_eq!(plan(&state).per_shard.len(), 3);
}

#[test]
fn the_estimate_objective_and_calls_follow_the_fields() {
    let state = reduce(generated(), ReshardAction::AddShard);
    let state = reduce(state, ReshardAction::SetThreshold("0".into()));
    let state = reduce(state, ReshardAction::SetBucketCost("soon".into()));
    assert!(state.option_error().unwrap().contains("Cost per bucket"));
    let state = reduce(state, ReshardAction::SetBucketCost("1ms".into()));
    let state = reduce(
        state,
        ReshardAction::SetObjective(Objective::FewestMigrations),
    );
    let state = balance_here(state);
    let p = plan(&state);
    assert!(p.buckets_moved > 0);
    assert!((p.estimate.buckets_seconds - p.buckets_moved as f64 * 0.001).abs() < 1e-9);
    let compared = state.objectives();
    assert_eq!(compared.len(), 2);
    assert_eq!(compared[1].objective, Objective::FewestMigrations);
    assert_eq!(compared[1].migrations, p.buckets_moved);
    assert!(compared[1].migrations <= compared[0].migrations);
    let file = calls_file(&state.calls_request(false).unwrap()).unwrap();
    assert_eq!(file.name, "Orders-calls.json");
    let calls: serde_json::Value = serde_json::from_str(&file.text).unwrap();
    assert_eq!(calls["url"], "http://127.0.0.1:8080");
    let buckets = calls["calls"].as_array().unwrap().iter();
    let buckets: u64 = buckets.map(|c| c["buckets"].as_u64().unwrap()).sum();
    assert_eq!(buckets, p.buckets_moved);
    let script = calls_file(&state.calls_request(true).unwrap()).unwrap();
    assert_eq!(script.name, "Orders-calls.sh");
    assert!(script.text.starts_with("#!/bin/sh\n"));
    let state = reduce(state, ReshardAction::SetClusterUrl("nowhere".into()));
    let refused = calls_file(&state.calls_request(false).unwrap());
    assert!(refused.unwrap_err().contains("is not a node's URL"));
}

/// The worker of a test, holding the host's load at the request's change: the worker's own
/// code, run here.
fn answer(request: &BalanceRequest) -> (ReshardReply, Option<ReshardReply>) {
    let mut balancer = holding(request.load);
    let reply = balancer.balance(request);
    (reply, balancer.compare(request))
}

/// A shard added, threshold 0, the view shown.
fn grown() -> ReshardState {
    let state = reduce(generated(), ReshardAction::AddShard);
    reduce(state, ReshardAction::SetThreshold("0".into()))
}

#[test]
fn a_plan_names_the_change_of_its_load_then_a_balance_takes_the_balance_then_the_comparison() {
    let state = Rc::new(grown()).reduce(ReshardAction::SetBy(Measure::Bytes));
    assert!(state.planning());
    // The request names the change the documents rested at: the worker's load is the
    // host's then.
    let request = state.plan_request().unwrap();
    assert_eq!(Some(request.load), state.load_at());
    assert_eq!(request.load, state.inputs().changes);
    assert_eq!(load_at(request.load).total().docs, 3000);
    let state = Rc::unwrap_or_clone(plan_in(state));
    assert!(!state.planning());
    assert_eq!(plan(&state).measure, Measure::Bytes);
    assert!(state.plan_request().is_none(), "nothing more wanted");
    let request = state.balance_request().unwrap();
    assert_eq!(request.load, state.inputs().changes);
    assert_eq!(request.options.threshold, 0.0);
    let state = reduce(state, ReshardAction::BalanceSent { run: request.run });
    assert!(state.balancing());
    let (balanced, compared) = answer(&request);
    let state = reduce(state, ReshardAction::Reply(balanced));
    assert!(!state.balancing());
    assert!(state.comparing());
    assert_eq!(state.target().shards().len(), 4);
    assert_eq!(state.target().database(), state.inputs().current.database());
    assert_eq!(state.objectives().len(), 1);
    let p = plan(&state);
    assert!(p.skew_after < p.skew_before);
    let state = reduce(state, ReshardAction::Reply(compared.unwrap()));
    assert!(!state.comparing());
    let objectives: Vec<Objective> = state.objectives().iter().map(|o| o.objective).collect();
    assert_eq!(objectives, Objective::ALL);
    // The same as a balance on this thread.
    let here = reduce(grown(), ReshardAction::SetBy(Measure::Bytes));
    let here = balance_here(here);
    assert_eq!(plan(&here), p);
    assert_eq!(here.objectives(), state.objectives());
    assert_eq!(here.balance_notes(), state.balance_notes());
    // New documents: the next balance names their change.
    let state = reduce(
        state,
        ReshardAction::Inputs(inputs(generated_documents(1000), 0)),
    );
    let request = state.balance_request().unwrap();
    assert_eq!(request.load, state.inputs().changes);
    assert_eq!(load_at(request.load).total().docs, 1000);
}

#[test]
fn a_reply_of_an_older_run_or_of_a_changed_target_is_dropped() {
    let state = grown();
    let first = state.balance_request().unwrap();
    let sent = |state, run| reduce(state, ReshardAction::BalanceSent { run });
    let state = sent(state, first.run);
    let second = state.balance_request().unwrap();
    assert_eq!(second.run, first.run + 1);
    let state = sent(state, second.run);
    let (old, _) = answer(&first);
    let state = reduce(state, ReshardAction::Reply(old));
    assert!(state.balancing(), "the first run's answer is dropped");
    assert_eq!(state.target().ranges().len(), 3);
    // The target changes while the second runs: its answer is dropped too.
    let state = reduce(state, ReshardAction::AddShard);
    assert!(!state.balancing());
    let (late, _) = answer(&second);
    let state = reduce(state, ReshardAction::Reply(late));
    assert_eq!(state.target().shards().len(), 5);
    assert_eq!(state.target().ranges().len(), 3);
    assert!(state.objectives().is_empty());
}

#[test]
fn a_crash_or_a_cancel_says_so_and_the_next_balance_clears_it() {
    let state = grown();
    let run = |state: ReshardState| {
        let request = state.balance_request().unwrap();
        let sent = ReshardAction::BalanceSent { run: request.run };
        (reduce(state, sent), request)
    };
    let (state, _) = run(state);
    let crash = ReshardReply::Crashed(Crashed {
        message: "the worker was asked to panic".into(),
    });
    let state = reduce(state, ReshardAction::Reply(crash));
    assert!(!state.balancing());
    let message = state.balance_message().unwrap();
    assert!(
        message.contains("worker stopped during the balance"),
        "{message}"
    );
    assert!(message.contains("asked to panic"), "{message}");
    assert_eq!(state.target().shards().len(), 4, "the target stays");
    // A new worker: the next balance clears the message.
    let (state, request) = run(state);
    assert!(state.balance_message().is_none());
    let state = reduce(state, ReshardAction::CancelBalance);
    assert!(!state.balancing());
    assert!(state.balance_message().unwrap().contains("cancelled"));
    let (balanced, _) = answer(&request);
    let state = reduce(state, ReshardAction::Reply(balanced));
    assert!(
        state.objectives().is_empty(),
        "a cancelled run's answer is dropped"
    );
    let (state, _) = run(state);
    assert!(state.balancing(), "a new run after the cancel");
}

#[test]
fn the_load_goes_from_the_host_to_the_worker_unchanged() {
    let state = grown();
    let docs = plan(&state).docs;
    let at = state.calls_request(false).unwrap().plan.load;
    let data = LoadData::of(&load_at(at));
    assert!(data.last.is_empty(), "one bucket an entry");
    let back = data.load();
    assert_eq!(back.total().docs, docs);
    assert_eq!(back, load_at(at));
    assert_eq!(LoadData::of(&back), data);
    // Statistics: entries of many buckets.
    let ranges = ravenshard_reshard::BucketLoad::from_ranges([
        (0, 31, ravenshard_reshard::Amount { docs: 5, bytes: 50 }),
        (40, 40, ravenshard_reshard::Amount { docs: 1, bytes: 7 }),
    ]);
    let data = LoadData::of(&ranges);
    assert_eq!(data.last, [31, 40]);
    assert_eq!(data.load(), ranges);
}

/// The bins the host answers the map "After" with (the target's JSON).
fn after_map(
    state: &ReshardState,
    start: u32,
    end: u32,
    bins: u32,
) -> Vec<ravenshard_model::workspace::Bin> {
    let question = Histogram {
        configuration: Some(state.target().to_json()),
        start,
        end,
        bins,
    };
    ask(state, &question).expect("the target reads")
}

#[test]
fn the_map_after_is_the_documents_under_the_target() {
    let documents = generated_documents(3000);
    let state = ReshardState::new(inputs(documents.clone(), 0));
    let state = reduce(state, ReshardAction::Show(true));
    let drawn_as_placed = |state: &ReshardState| {
        let placed = Placement::new(&documents, state.target(), &Default::default());
        for (start, end, bins) in [(0, 1 << 20, 97), (300_000, 400_000, 1000), (0, 1 << 21, 64)] {
            assert_eq!(
                after_map(state, start, end, bins),
                placed.histogram(start, end, bins as usize)
            );
        }
    };
    // A shard added, a balance, a drain: every document stays in its bucket.
    let state = reduce(state, ReshardAction::AddShard);
    let state = reduce(state, ReshardAction::SetThreshold("0".into()));
    let state = balance_here(state);
    let state = reduce(state, ReshardAction::DrainShard(0));
    drawn_as_placed(&state);
    // A prefix no document starts with: the documents are moved by it.
    let state = reduce(state, ReshardAction::SetTarget(with_prefix("zzz/")));
    assert!(state.problem().is_none(), "{:?}", state.problem());
    assert_eq!(state.target().prefixes().len(), 1);
    drawn_as_placed(&state);
}

#[test]
fn a_target_that_changes_prefixes_waits_for_the_hosts_check() {
    let state = generated();
    let before = Rc::clone(state.target());
    let waiting = Rc::new(state).reduce(ReshardAction::SetTarget(with_prefix("zzz/")));
    assert!(waiting.checking().is_some());
    assert!(
        Rc::ptr_eq(waiting.target(), &before),
        "the target before stays until then"
    );
    // A check of another target is dropped.
    let other = ReshardAction::PrefixesChecked {
        configuration: with_prefix("yyy/"),
        problem: None,
    };
    let waiting = Rc::clone(&waiting).reduce(other);
    assert!(waiting.checking().is_some());
    // Another target shaped meanwhile replaces the one waiting.
    let added = Rc::clone(&waiting).reduce(ReshardAction::AddShard);
    assert!(added.checking().is_none());
    assert_eq!(added.target().shards().len(), 4);
    // The check refuses: why, and the target before stays.
    let configuration = waiting.checking().unwrap().to_json();
    let refused = Rc::clone(&waiting).reduce(ReshardAction::PrefixesChecked {
        configuration: configuration.clone(),
        problem: Some("There are existing documents".into()),
    });
    assert!(refused.checking().is_none());
    assert!(Rc::ptr_eq(refused.target(), &before));
    assert_eq!(
        refused.problem().unwrap().message,
        "There are existing documents"
    );
    // The check passes: the target is taken.
    let taken = waiting.reduce(ReshardAction::PrefixesChecked {
        configuration,
        problem: None,
    });
    assert_eq!(taken.target().prefixes()[0].prefix, "zzz/");
    assert!(taken.problem().is_none());
}

#[test]
fn a_load_of_another_change_is_dropped_and_the_plan_waits_for_the_first() {
    let state = ReshardState::new(inputs(generated_documents(300), 0));
    let state = Rc::new(state).reduce(ReshardAction::Show(true));
    assert!(
        state.load_wanted() && state.view().is_none(),
        "no plan before the load"
    );
    let changes = state.inputs().changes;
    let stale = ReshardAction::Load {
        changes: changes + 1,
    };
    let state = state.reduce(stale);
    assert!(state.load_wanted() && state.view().is_none());
    assert!(
        state.plan_request().is_none(),
        "no plan before the documents rest"
    );
    let state = state.reduce(ReshardAction::Load { changes });
    assert!(!state.load_wanted());
    assert!(state.planning() && state.plan_request().is_some());
    let state = plan_in(state);
    assert_eq!(plan(&state).docs, 300);
    // An edit (the same configuration): the plan of the last load stays until the next.
    let edited = ReshardAction::Inputs(inputs(generated_documents(400), 0));
    let state = state.reduce(edited);
    assert!(state.load_wanted());
    assert_eq!(plan(&state).docs, 300);
    assert_eq!(state.load_at(), Some(changes));
}

/// A worker's last plan, as the page's worker keeps it (its load is the host's).
type Worker = Planner;

/// The plan `state` wants sent to the worker `worker`: the state that sent it, and the
/// worker's answer, not taken yet.
fn sent(state: Rc<ReshardState>, worker: &mut Worker) -> (Rc<ReshardState>, ReshardReply) {
    let request = state.plan_request().expect("a plan is wanted");
    let planned = worker.plan(&holding(request.load), &request);
    let (run, wanted) = (request.run, state.worker_wanted());
    let state = state.reduce(ReshardAction::PlanSent { run, wanted });
    let planned = Box::new(planned);
    (state, ReshardReply::Planned { run, planned })
}

#[test]
fn the_plan_shown_stays_until_the_one_wanted_now_comes() {
    let mut worker = Worker::default();
    let state = Rc::new(reduce(generated(), ReshardAction::AddShard));
    let four = plan(&state);
    assert!(!state.planning() && state.plan_request().is_none());
    // Another target: the plan of four shards stays while the next is planned.
    let state = state.reduce(ReshardAction::AddShard);
    assert!(state.planning());
    assert_eq!(plan(&state), four);
    let (state, five) = sent(state, &mut worker);
    // Meanwhile a sixth shard: the answer for five is shown, the one for six still wanted.
    let state = state.reduce(ReshardAction::AddShard);
    let state = state.reduce(ReshardAction::Reply(five));
    assert_eq!(plan(&state).per_shard.len(), 5);
    assert!(state.planning(), "the plan of six shards is still wanted");
    let (state, six) = sent(state, &mut worker);
    let state = state.reduce(ReshardAction::Reply(six));
    assert_eq!(plan(&state).per_shard.len(), 6);
    assert!(!state.planning());
}

#[test]
fn a_step_is_asked_of_the_worker_and_a_late_step_is_not_taken_back() {
    let mut worker = Worker::default();
    let state = reduce(generated(), ReshardAction::AddShard);
    let state = reduce(state, ReshardAction::SetThreshold("0".into()));
    let state = Rc::new(balance_here(state));
    let wanted = state.worker_wanted();
    let state = state.reduce(ReshardAction::MoveStep(StepMove::Next));
    assert_eq!(state.step(), 1, "a step the page can count moves at once");
    assert_eq!(state.worker_wanted(), wanted + 1);
    assert!(state.planning());
    let (state, one) = sent(state, &mut worker);
    let state = state.reduce(ReshardAction::MoveStep(StepMove::Next));
    let state = state.reduce(ReshardAction::Reply(one));
    assert_eq!(
        state.step(),
        2,
        "the answer for step 1 does not move the step back"
    );
    let (state, two) = sent(state, &mut worker);
    let state = state.reduce(ReshardAction::Reply(two));
    assert_eq!(phase_at(&state), (2, Phase::OwnershipTransferred));
    assert!(!state.planning());
    // The next step with documents is the worker's to find.
    let state = state.reduce(ReshardAction::MoveStep(StepMove::NextWithDocuments));
    assert_eq!(state.step(), 2, "until the worker answers");
    let (state, found) = sent(state, &mut worker);
    let state = state.reduce(ReshardAction::Reply(found));
    assert!(state.step() > 2);
    let step = state.migration().unwrap();
    assert!(step.as_ref().as_ref().unwrap().docs > 0);
}

#[test]
fn a_worker_that_stops_while_planning_says_so_and_a_cancel_asks_again() {
    let mut worker = Worker::default();
    let state = Rc::new(reduce(generated(), ReshardAction::AddShard));
    let state = state.reduce(ReshardAction::AddShard);
    let (state, _) = sent(state, &mut worker);
    let crash = ReshardReply::Crashed(Crashed {
        message: "the worker was asked to panic".into(),
    });
    let wanted = state.worker_wanted();
    let state = state.reduce(ReshardAction::Reply(crash));
    let shown = state.view().unwrap().plan.as_ref().unwrap_err();
    assert!(shown.contains("stopped while planning"), "{shown}");
    assert!(shown.contains("asked to panic"), "{shown}");
    assert!(
        !state.planning(),
        "a plan that panics is not asked again by itself"
    );
    assert_eq!(state.worker_wanted(), wanted);
    // The next change asks a new worker.
    let state = state.reduce(ReshardAction::SetBy(Measure::Bytes));
    assert!(state.plan_request().is_some());
    // A cancel of a balance stops the worker: the plan it had is asked again.
    let (state, _) = sent(state, &mut worker);
    let wanted = state.worker_wanted();
    let state = state.reduce(ReshardAction::CancelBalance);
    assert_eq!(state.worker_wanted(), wanted + 1);
    assert!(state.plan_request().is_some());
    let state = plan_in(state);
    assert_eq!(plan(&state).per_shard.len(), 5);
    assert_eq!(plan(&state).measure, Measure::Bytes);
}

#[test]
fn a_worker_plans_from_a_load_as_new_as_asked_or_says_why_not() {
    let state = Rc::new(grown()).reduce(ReshardAction::SetBy(Measure::Bytes));
    let request = state.plan_request().unwrap();
    for worker in [Balancer::default(), {
        let mut older = Balancer::default();
        older.keep(request.load - 1, load_at(request.load));
        older
    }] {
        let planned = Planner::default().plan(&worker, &request);
        let lost = planned.plan.unwrap_err();
        assert!(lost.contains("does not hold"), "{lost}");
    }
    // A load of a later change serves a request of an earlier one.
    let mut newer = Balancer::default();
    newer.keep(request.load + 1, load_at(request.load));
    let planned = Planner::default().plan(&newer, &request);
    assert_eq!(planned.plan.unwrap().docs, 3000);
}

#[test]
fn a_drain_runs_in_the_worker_once_the_load_came() {
    let state = ReshardState::new(inputs(generated_documents(3000), 0));
    let state = Rc::new(state).reduce(ReshardAction::Show(true));
    let state = state.reduce(ReshardAction::DrainShard(1));
    assert!(state.drain_request().is_none(), "no load yet");
    let asked = state.worker_wanted();
    let changes = state.inputs().changes;
    let state = state.reduce(ReshardAction::Load { changes });
    assert!(state.worker_wanted() > asked, "the drain is asked now");
    let request = state.drain_request().unwrap();
    assert_eq!(request.shard, 1);
    assert_eq!(request.load, changes);
    let run = request.run;
    let state = state.reduce(ReshardAction::BalanceSent { run });
    assert!(state.drain_request().is_none(), "sent once");
    assert!(state.balancing());
    let mut worker = holding(request.load);
    let state = state.reduce(ReshardAction::Reply(worker.drain(&request)));
    assert!(!state.balancing());
    assert_eq!(state.target().shards().len(), 3);
    let state = plan_in(state);
    assert_eq!(plan(&state).per_shard[1].docs_after, 0);
    assert_eq!(plan(&state).per_shard[1].buckets_after, 0);
    // A shard the target does not have: the core says why.
    let state = plan_in(state.reduce(ReshardAction::DrainShard(7)));
    let problem = &state.problem().unwrap().message;
    assert!(problem.contains('7'), "{problem}");
    assert_eq!(plan(&state).per_shard[1].docs_after, 0, "the target stays");
}
