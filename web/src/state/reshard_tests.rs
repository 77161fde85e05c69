//! The Resharding view's state, natively: targets from operations, balancing, RavenDB's
//! messages, the plan and the walk-through, computed only while the view is shown.

use super::*;
use ravenshard_design::reshard::{Phase, PlanNote};

fn reduce(state: State, action: Action) -> State {
    Rc::unwrap_or_clone(Rc::new(state).reduce(action))
}

fn reshard(state: State, action: ReshardAction) -> State {
    reduce(state, Action::Reshard(action))
}

/// 3,000 generated documents, on the Resharding tab.
fn generated() -> State {
    let state = reduce(State::default(), Action::SetGeneratorCount("3000".into()));
    let state = reduce(state, Action::Generate);
    reduce(state, Action::SelectTab(Tab::Reshard))
}

fn plan(state: &State) -> Plan {
    let view = state
        .reshard()
        .view()
        .expect("computed on the Resharding tab");
    view.plan.clone().expect("a plan")
}

use ravenshard_design::reshard::Plan;

#[test]
fn the_view_is_computed_only_when_shown() {
    let state = reduce(State::default(), Action::SetGeneratorCount("3000".into()));
    let state = reduce(state, Action::Generate);
    assert!(state.reshard().view().is_none());
    let state = reduce(state, Action::SelectTab(Tab::Reshard));
    let p = plan(&state);
    assert!(p.moves.is_empty());
    assert_eq!(p.notes, vec![PlanNote::NothingMoves]);
    assert_eq!(p.docs, 3000);
    assert!(!state.reshard().has_target());
}

#[test]
fn adding_a_shard_then_balancing() {
    let state = reshard(generated(), ReshardAction::AddShard);
    let target = Rc::clone(state.reshard().target(&state.topology()));
    assert_eq!(target.shards().len(), 4);
    assert_eq!(
        target.members(3).len(),
        2,
        "members assigned for the new shard"
    );
    let p = plan(&state);
    assert!(p.notes.contains(&PlanNote::ShardAddedEmpty { shard: 3 }));
    let state = reshard(state, ReshardAction::SetThreshold("0".into()));
    let state = reshard(state, ReshardAction::Balance);
    let p = plan(&state);
    assert!(p.skew_after < p.skew_before);
    let new = p.per_shard.iter().find(|c| c.shard == 3).unwrap();
    assert!((740..=760).contains(&new.docs_after), "{}", new.docs_after);
    // The after placement is the documents placed by the target.
    let view = state.reshard().view().unwrap();
    assert_eq!(view.after.shards().len(), 4);
    assert_eq!(view.after.shards()[3].documents, new.docs_after);
    // The walk-through starts at the first moved bucket.
    let step = state.reshard().migration().unwrap();
    let step = step.as_ref().as_ref().unwrap();
    assert_eq!((step.step, step.phase), (0, Phase::Moving));
    assert_eq!(step.bucket, p.moves[0].from_bucket);
    let state = reshard(state, ReshardAction::SetStep(2));
    let step = state.reshard().migration().unwrap();
    let step = step.as_ref().as_ref().unwrap();
    assert_eq!(step.phase, Phase::OwnershipTransferred);
    assert_eq!(step.writes.shard, p.moves[0].to_shard);
    // Next with documents skips the empty buckets.
    let state = reshard(state, ReshardAction::NextStepWithDocuments);
    let step = state.reshard().migration().unwrap();
    let step = step.as_ref().as_ref().unwrap();
    assert_eq!(step.phase, Phase::Moving);
    assert!(step.docs > 0);
    assert!(state.reshard().step() > 2);
    // A step past the end is clamped to the last.
    let state = reshard(state, ReshardAction::SetStep(u64::MAX));
    assert_eq!(state.reshard().step(), p.buckets_moved * 4 - 1);
    // Using the target makes it the configuration in force.
    let state = reshard(state, ReshardAction::ApplyTarget);
    assert_eq!(state.shards(), 4);
    assert!(!state.reshard().has_target());
    assert!(plan(&state).moves.is_empty());
}

#[test]
fn removing_a_shard_needs_draining_first() {
    let state = reshard(generated(), ReshardAction::RemoveShard(1));
    let problem = state.reshard().problem().unwrap();
    assert!(
        problem
            .message
            .contains("first you need to migrate all its buckets"),
        "{}",
        problem.message
    );
    let state = reshard(state, ReshardAction::DrainShard(1));
    assert!(state.reshard().problem().is_none());
    let p = plan(&state);
    assert_eq!(p.per_shard[1].docs_after, 0);
    let state = reshard(state, ReshardAction::RemoveShard(1));
    assert!(state.reshard().problem().is_none());
    assert_eq!(state.reshard().target(&state.topology()).shards().len(), 2);
    assert!(plan(&state)
        .notes
        .contains(&PlanNote::ShardRemoved { shard: 1 }));
    let state = reshard(state, ReshardAction::ResetTarget);
    assert!(!state.reshard().has_target());
}

#[test]
fn targets_from_json_are_checked() {
    let state = reshard(generated(), ReshardAction::SetTarget("{".into()));
    assert!(state.reshard().problem().is_some());
    assert!(!state.reshard().has_target());
    let with_prefix = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
        "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
            {"BucketRangeStart": 349525, "ShardNumber": 1},
            {"BucketRangeStart": 699050, "ShardNumber": 2},
            {"BucketRangeStart": 1048576, "ShardNumber": 1}],
        "Prefixed": [{"Prefix": "orders/", "Shards": [1], "BucketRangeStart": 1048576}]}"#;
    let state = reshard(state, ReshardAction::SetTarget(with_prefix.into()));
    let problem = state.reshard().problem().unwrap();
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
    let state = reshard(state, ReshardAction::SetTarget(moved.into()));
    assert!(state.reshard().problem().is_none());
    let p = plan(&state);
    assert_eq!(p.moves.len(), 1);
    assert_eq!(
        (p.moves[0].from_bucket, p.moves[0].to_bucket),
        (300000, 349524)
    );
}

#[test]
fn option_fields_are_checked() {
    let state = reshard(generated(), ReshardAction::SetWeights("0=x".into()));
    assert!(state
        .reshard()
        .option_error()
        .unwrap()
        .contains("'0=x' is not a weight"));
    let state = reshard(state, ReshardAction::Balance);
    assert!(
        !state.reshard().has_target(),
        "a balance with bad options is not made"
    );
    let state = reshard(state, ReshardAction::SetWeights("0=2".into()));
    assert!(state.reshard().option_error().is_none());
    let state = reshard(state, ReshardAction::SetThreshold("200".into()));
    assert!(state
        .reshard()
        .option_error()
        .unwrap()
        .contains("Threshold"));
    let state = reshard(state, ReshardAction::SetThreshold("0".into()));
    let state = reshard(state, ReshardAction::SetMaxBuckets("many".into()));
    assert!(state
        .reshard()
        .option_error()
        .unwrap()
        .contains("Max buckets"));
    let state = reshard(state, ReshardAction::SetMaxBuckets(String::new()));
    let state = reshard(state, ReshardAction::SetThroughput("fast".into()));
    assert!(state
        .reshard()
        .option_error()
        .unwrap()
        .contains("Throughput"));
    assert_eq!(plan(&state).estimate_seconds, None);
    let state = reshard(state, ReshardAction::SetThroughput("1000docs/s".into()));
    assert_eq!(plan(&state).estimate_seconds, Some(0.0));
    let state = reshard(state, ReshardAction::Balance);
    let p = plan(&state);
    let share0 = p.per_shard[0].docs_after as f64 / p.docs as f64;
    assert!(
        (share0 - 0.5).abs() < 0.01,
        "weight 2 of 4 takes half: {share0}"
    );
    assert_eq!(p.estimate_seconds, Some(p.docs_moved as f64 / 1000.0));
    // Bytes without sizes: the core says so.
    let state = reduce(state, Action::ClearIds);
    let state = reduce(state, Action::SetIds("orders/1-A\norders/2-A".into()));
    let state = reshard(
        state,
        ReshardAction::SetBy(ravenshard_design::reshard::Measure::Bytes),
    );
    let state = reshard(state, ReshardAction::Balance);
    assert!(state
        .reshard()
        .problem()
        .unwrap()
        .message
        .contains("No document has a size"));
}

#[test]
fn changing_the_configuration_drops_the_target() {
    let state = reshard(generated(), ReshardAction::AddShard);
    assert!(state.reshard().has_target());
    let state = reduce(state, Action::SetShardCount("5".into()));
    assert!(!state.reshard().has_target());
    assert_eq!(plan(&state).per_shard.len(), 5);
}
