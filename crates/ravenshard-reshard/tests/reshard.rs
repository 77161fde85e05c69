//! Resharding: plans, balancing, operations and the migration walk-through. Known answers,
//! RavenDB's messages, and invariants over random topologies and loads (proptest):
//! conservation, a plan applied gives its target, no bucket is split, prefix buckets stay
//! on their shards, balancing never raises the skew, and the same inputs give the same plan.

mod common;

use common::topology;
use proptest::prelude::*;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use ravenshard_reshard::{
    add_prefix, add_shard, balance, balance_without_comparison, calls, check_prefix_changes,
    drain_shard, migration_step, migration_steps, move_bucket, objective_summary, plan,
    remove_prefix, remove_shard, set_prefix_shards, BalanceOptions, BucketLoad, CallsOptions,
    Measure, Objective, Phase, Plan, PlanNote, PlanOptions, ReshardError, Throughput, Workload,
    MAX_INVALID,
};
use std::collections::BTreeMap;

const B: u32 = NUMBER_OF_BUCKETS;

fn load_of(t: &Topology, ids: impl IntoIterator<Item = String>) -> BucketLoad {
    BucketLoad::from_buckets(ids.into_iter().map(|id| {
        let size = id.len() as u64 * 10;
        (t.bucket_for(&id).expect("valid id"), Some(size))
    }))
}

fn orders(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("orders/{i}-A")).collect()
}

/// Whether the plan's target is not the one asked for because its calls move bucket
/// 2^20 - 1 past prefix ranges: MoveBucket appends a range after the blocks, or changes
/// nothing.
fn trailing(p: &Plan) -> bool {
    let moves_last = p.moves.iter().any(|m| m.to_bucket == B - 1);
    p.notes.iter().any(|n| match n {
        PlanNote::MoveBucketLeaves {
            warning: ravenshard::ConfigWarning::TrailingRange { .. },
        } => true,
        PlanNote::MoveBucketIgnores { .. } => moves_last,
        _ => false,
    })
}

/// Whether a range starts past the default block: RavenDB's MoveBucket then never moves
/// bucket 2^20 - 1 (it looks at the list's last range for it).
fn has_prefix_ranges(t: &Topology) -> bool {
    t.to_configuration()
        .bucket_ranges
        .iter()
        .any(|r| r.bucket_range_start >= B)
}

/// The shard of every bucket boundary of either topology (and the bucket before it).
fn probes(a: &Topology, b: &Topology) -> Vec<u32> {
    let mut out: Vec<u32> = a
        .ranges()
        .iter()
        .chain(b.ranges())
        .flat_map(|r| [r.start, r.end - 1, r.start.saturating_sub(1)])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether the plan's moves are exactly the buckets whose owner differs.
///
/// A plan that moves bucket 2^20 - 1 in a database with prefixes has for target the record
/// RavenDB's MoveBucket leaves, which routes otherwise (a range appended after the blocks,
/// `ConfigWarning::TrailingRange`) and says so in a note; the property tests check its
/// moves against the target asked for instead.
fn check_moves(current: &Topology, p: &Plan) {
    if trailing(p) {
        assert!(p.moves.iter().any(|m| m.to_bucket == B - 1));
        return;
    }
    let target = &p.target;
    for m in &p.moves {
        for bucket in [m.from_bucket, m.to_bucket] {
            assert_eq!(current.shard_for_bucket(bucket), Some(m.from_shard));
            assert_eq!(target.shard_for_bucket(bucket), Some(m.to_shard));
        }
    }
    for bucket in probes(current, target) {
        let (now, then) = (
            current.shard_for_bucket(bucket),
            target.shard_for_bucket(bucket),
        );
        let moved = p
            .moves
            .iter()
            .any(|m| (m.from_bucket..=m.to_bucket).contains(&bucket));
        if now.is_some() && then.is_some() {
            assert_eq!(moved, now != then, "bucket {bucket}: {now:?} -> {then:?}");
        }
    }
}

/// A balance to the fair share (threshold 0).
fn balanced(t: &Topology, load: &BucketLoad) -> ravenshard_reshard::BalancePlan {
    let options = BalanceOptions {
        threshold: 0.0,
        ..Default::default()
    };
    balance(t, load, &options).expect("a valid balance")
}

/// The ranges after the walk-through's last step, as a topology.
fn applied(current: &Topology, p: &Plan, load: &BucketLoad) -> Topology {
    let last = migration_steps(p) - 1;
    let step = migration_step(current, p, load, last).expect("last step");
    Topology::from_configuration(step.configuration, current.database(), "").expect("valid")
}

#[test]
fn a_boundary_moved_by_hand_is_one_move() {
    let current = topology(&[(0, 0), (B / 2, 1)], 2, &[]);
    let target = topology(&[(0, 0), (B / 2 + 1000, 1)], 2, &[]);
    let ids = orders(20_000);
    let load = load_of(&current, ids.clone());
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    assert_eq!(p.moves.len(), 1);
    let m = p.moves[0];
    assert_eq!(
        (m.from_bucket, m.to_bucket, m.from_shard, m.to_shard),
        (B / 2, B / 2 + 999, 1, 0)
    );
    let expected = ids
        .iter()
        .filter(|id| (B / 2..B / 2 + 1000).contains(&current.bucket_for(id).unwrap()))
        .count() as u64;
    assert_eq!(m.docs, expected);
    assert_eq!(p.docs_moved, expected);
    assert_eq!(p.buckets_moved, 1000);
    assert_eq!(
        p.per_shard[0].docs_after,
        p.per_shard[0].docs_before + expected
    );
    check_moves(&current, &p);
}

#[test]
fn totals_share_and_estimate() {
    let current = topology(&[(0, 0), (B / 2, 1)], 2, &[]);
    let target = topology(&[(0, 1)], 2, &[]);
    let load = BucketLoad::from_buckets([(10, Some(1_000_000)), (B / 2 + 5, Some(3_000_000))]);
    let options = PlanOptions {
        measure: Measure::Bytes,
        throughput: Some(Throughput::parse("0.5MB/s").unwrap()),
        ..Default::default()
    };
    let p = plan(&current, &target, &load, &options).unwrap();
    assert_eq!(p.bytes_moved, 1_000_000);
    assert_eq!(p.share_moved, 0.25);
    assert_eq!(p.estimate.data_seconds, Some(2.0));
    // Plus 524,288 bucket migrations at 40 ms each.
    assert_eq!(p.estimate_seconds, Some(2.0 + 524_288.0 * 0.04));
    assert_eq!(p.skew_before, Some(1.5));
    assert_eq!(p.skew_after, Some(2.0));
    let json = serde_json::to_value(&p).unwrap();
    for key in [
        "moves",
        "buckets_moved",
        "docs_moved",
        "bytes_moved",
        "share_moved",
        "per_shard",
        "skew_before",
        "skew_after",
        "target",
    ] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
    assert_eq!(json["target"]["BucketRanges"][0]["ShardNumber"], 1);
    assert_eq!(json["per_shard"][1]["bytes_after"], 4_000_000);
    let no_sizes = BucketLoad::from_buckets([(10, None)]);
    let p = plan(&current, &target, &no_sizes, &options).unwrap();
    assert_eq!(p.estimate_seconds, None);
    assert!(p.notes.contains(&PlanNote::NoSizesForEstimate));
}

#[test]
fn adding_a_shard_moves_nothing_and_says_so() {
    let current = Topology::with_shards(3).unwrap();
    let (target, shard) = add_shard(&current, vec!["D".into()]).unwrap();
    let load = load_of(&current, orders(3000));
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    assert!(p.moves.is_empty());
    assert!(p.notes.contains(&PlanNote::ShardAddedEmpty { shard }));
    assert!(p.notes.contains(&PlanNote::NothingMoves));
    assert!(
        p.skew_after > p.skew_before,
        "an empty shard raises the skew"
    );
    // Balancing gives the new shard about a quarter, moving about a quarter.
    let b = balanced(&target, &load);
    assert!(
        (b.plan.share_moved - 0.25).abs() < 0.01,
        "{}",
        b.plan.share_moved
    );
    assert!(b.plan.skew_after.unwrap() < 1.01, "{:?}", b.plan.skew_after);
    let new = b.plan.per_shard.iter().find(|c| c.shard == shard).unwrap();
    assert!((749..=751).contains(&new.docs_after), "{}", new.docs_after);
}

#[test]
fn removing_a_shard_follows_ravendb() {
    let current = Topology::with_shards(3).unwrap();
    let err = remove_shard(&current, 1).unwrap_err();
    assert!(matches!(
        err,
        ReshardError::ShardOwnsBuckets {
            shard: 1,
            buckets: 349525,
            ..
        }
    ));
    assert!(
        err.to_string()
            .contains("first you need to migrate all its buckets to another shard"),
        "{err}"
    );
    assert!(matches!(
        remove_shard(&current, 9),
        Err(ReshardError::UnknownShard { shard: 9 })
    ));
    let one = Topology::with_shards(1).unwrap();
    assert!(matches!(
        remove_shard(&one, 0),
        Err(ReshardError::LastShard { shard: 0 })
    ));
    let load = load_of(&current, orders(5000));
    let drained = drain_shard(&current, 1, &load, Measure::Docs).unwrap();
    assert!(drained.ranges().iter().all(|r| r.shard != 1));
    let p = plan(&current, &drained, &load, &PlanOptions::default()).unwrap();
    let shard1 = p.per_shard.iter().find(|c| c.shard == 1).unwrap();
    assert_eq!((shard1.docs_after, shard1.buckets_after), (0, 0));
    for c in p.per_shard.iter().filter(|c| c.shard != 1) {
        assert!((2450..=2550).contains(&c.docs_after), "{c:?}");
    }
    let removed = remove_shard(&drained, 1).unwrap();
    assert_eq!(removed.shards().len(), 2);
    let with_prefix = topology(&[(0, 0), (B / 2, 1), (B, 1)], 2, &[("eu/", &[1], B)]);
    let err = remove_shard(&with_prefix, 1).unwrap_err();
    assert!(
        err.to_string()
            .contains("remove shard 1 from all prefixes settings"),
        "{err}"
    );
}

#[test]
fn prefixes_follow_ravendb() {
    let current = Topology::with_shards(2).unwrap();
    let ids = ["orders/1", "eu/orders/7"];
    let err = add_prefix(&current, "EU/", &[1], ids).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Cannot add prefix 'EU/' to ShardingConfiguration.Prefixed. There are existing documents \
         in database 'db' that start with 'EU/'. In order to define sharding by prefix, you \
         cannot have any documents in the database that starts with this prefix. (1 in the \
         workspace, the first is 'eu/orders/7'.)"
    );
    let with_asia = add_prefix(&current, "asia/", &[1], ids).unwrap();
    assert_eq!(with_asia.prefixes()[0].bucket_range_start, B);
    assert_eq!(with_asia.ranges().last().unwrap().start, B);
    let load = BucketLoad::from_buckets([(5, None)]);
    let p = plan(&current, &with_asia, &load, &PlanOptions::default()).unwrap();
    assert!(p.moves.is_empty());
    assert!(matches!(p.notes[0], PlanNote::PrefixAdded { block_start, .. } if block_start == B));
    let err = remove_prefix(&with_asia, "asia/", ["asia/1"]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Cannot remove prefix 'asia/' from"),
        "{err}"
    );
    assert_eq!(
        remove_prefix(&with_asia, "ASIA/", ids)
            .unwrap()
            .prefixes()
            .len(),
        0
    );
    assert!(check_prefix_changes(&with_asia, &with_asia, ["asia/1"]).is_ok());
    // A removed block that still holds documents cannot be planned.
    let held = BucketLoad::from_buckets([(B + 3, None)]);
    assert!(matches!(
        plan(&with_asia, &current, &held, &PlanOptions::default()),
        Err(ReshardError::PrefixHasDocuments {
            adding: false,
            documents: 1,
            ..
        })
    ));
    // A prefix never changes block.
    let moved = topology(&[(0, 0), (2 * B, 1)], 2, &[("asia/", &[1], 2 * B)]);
    assert!(matches!(
        plan(&with_asia, &moved, &load, &PlanOptions::default()),
        Err(ReshardError::PrefixBlockMoved { from, to, .. }) if from == B && to == 2 * B
    ));
}

#[test]
fn changing_a_prefixs_shards_moves_its_buckets() {
    let current = topology(
        &[(0, 0), (B / 2, 1), (B, 0), (B + B / 2, 1)],
        3,
        &[("eu/", &[0, 1], B)],
    );
    let ids: Vec<String> = (0..2000).map(|i| format!("eu/orders/{i}")).collect();
    let load = load_of(&current, ids);
    let target = set_prefix_shards(&current, "eu/", &[1, 2], &load).unwrap();
    assert_eq!(target.prefixes()[0].shards, vec![1, 2]);
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    assert!(p
        .moves
        .iter()
        .all(|m| m.from_shard == 0 && m.from_bucket >= B));
    assert_eq!(p.per_shard[0].docs_after, 0);
    check_moves(&current, &p);
    // Balancing keeps the prefix's buckets on its shards.
    let b = balanced(&target, &load);
    for r in b.plan.target.ranges().iter().filter(|r| r.start >= B) {
        assert!([1, 2].contains(&r.shard), "{r:?}");
    }
    assert!(matches!(
        set_prefix_shards(&current, "us/", &[1], &load),
        Err(ReshardError::UnknownPrefix { .. })
    ));
}

#[test]
fn balance_options_are_checked() {
    let t = Topology::with_shards(2).unwrap();
    let load = BucketLoad::from_buckets([(1, None)]);
    let with = |f: &dyn Fn(&mut BalanceOptions)| {
        let mut o = BalanceOptions::default();
        f(&mut o);
        balance(&t, &load, &o)
    };
    assert!(matches!(
        with(&|o| o.threshold = 120.0),
        Err(ReshardError::BadThreshold { .. })
    ));
    assert!(matches!(
        with(&|o| {
            o.weights.insert(5, 1.0);
        }),
        Err(ReshardError::WeightForUnknownShard { shard: 5 })
    ));
    assert!(matches!(
        with(&|o| {
            o.weights.insert(0, -1.0);
        }),
        Err(ReshardError::BadWeight { shard: Some(0), .. })
    ));
    assert!(matches!(
        with(&|o| o.weights = [(0, 0.0), (1, 0.0)].into_iter().collect()),
        Err(ReshardError::BadWeight { shard: None, .. })
    ));
    assert!(matches!(
        with(&|o| o.by = Measure::Bytes),
        Err(ReshardError::NoSizes)
    ));
}

#[test]
fn weights_threshold_cap_and_obstacles() {
    let t = Topology::with_shards(2).unwrap();
    let load = load_of(&t, orders(6000));
    let weighted = BalanceOptions {
        weights: [(1, 2.0)].into_iter().collect(),
        threshold: 0.0,
        ..Default::default()
    };
    let b = balance(&t, &load, &weighted).unwrap();
    let after: Vec<u64> = b.plan.per_shard.iter().map(|c| c.docs_after).collect();
    assert!((1990..=2010).contains(&after[0]), "{after:?}");
    assert!(b.plan.skew_after.unwrap() < 1.01);
    // Within a generous threshold nothing moves.
    let lax = balance(
        &t,
        &load,
        &BalanceOptions {
            threshold: 50.0,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(lax.plan.moves.is_empty());
    assert!(matches!(
        lax.plan.notes.last(),
        Some(PlanNote::WithinThreshold { .. })
    ));
    // The cap stops early.
    let capped = balance(
        &t,
        &load,
        &BalanceOptions {
            max_buckets: Some(10),
            ..weighted.clone()
        },
    )
    .unwrap();
    assert!(capped.plan.buckets_moved <= 10);
    assert!(capped
        .plan
        .notes
        .iter()
        .any(|n| matches!(n, PlanNote::Capped { max_buckets: 10 })));
    // One bucket holding most documents is the obstacle.
    let obese =
        BucketLoad::from_buckets((0..100).map(|i| (if i < 90 { 42 } else { 600_000 + i }, None)));
    let b = balanced(&t, &obese);
    assert_eq!(b.obstacles.len(), 1);
    assert_eq!((b.obstacles[0].bucket, b.obstacles[0].docs), (42, 90));
    assert!(b.plan.skew_after <= b.plan.skew_before);
}

#[test]
fn migration_walk_through() {
    let current = topology(&[(0, 0), (100, 1)], 2, &[]);
    let target = topology(&[(0, 0), (102, 1)], 2, &[]);
    let mut current = current;
    current.set_members(0, vec!["A".into(), "B".into()]);
    current.set_members(1, vec!["C".into()]);
    let mut target = target;
    target.set_members(0, vec!["A".into(), "B".into()]);
    target.set_members(1, vec!["C".into()]);
    let load = BucketLoad::from_buckets([(100, Some(10)), (100, Some(5)), (101, None)]);
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    assert_eq!(migration_steps(&p), 8);
    let phases: Vec<(u32, Phase, u32)> = (0..8)
        .map(|s| {
            let step = migration_step(&current, &p, &load, s).unwrap();
            (step.bucket, step.phase, step.writes.shard)
        })
        .collect();
    assert_eq!(
        phases,
        vec![
            (100, Phase::Moving, 1),
            (100, Phase::Moved, 1),
            (100, Phase::OwnershipTransferred, 0),
            (100, Phase::CleanedUp, 0),
            (101, Phase::Moving, 1),
            (101, Phase::Moved, 1),
            (101, Phase::OwnershipTransferred, 0),
            (101, Phase::CleanedUp, 0),
        ]
    );
    let moving = migration_step(&current, &p, &load, 0).unwrap();
    assert_eq!((moving.docs, moving.bytes), (2, 15));
    assert_eq!(moving.reads.fragment, "Orders$1");
    assert_eq!(moving.reads.nodes, vec!["C"]);
    let json = serde_json::to_value(&moving.configuration).unwrap();
    assert_eq!(json["BucketMigrations"]["100"]["Status"], "Moving");
    assert_eq!(json["BucketMigrations"]["100"]["SourceShard"], 1);
    assert_eq!(json["BucketRanges"][1]["BucketRangeStart"], 100);
    let transferred = serde_json::to_value(
        migration_step(&current, &p, &load, 2)
            .unwrap()
            .configuration,
    )
    .unwrap();
    assert_eq!(
        transferred["BucketMigrations"]["100"]["ConfirmedDestinations"],
        serde_json::json!(["A", "B"])
    );
    assert_eq!(transferred["BucketRanges"][1]["BucketRangeStart"], 101);
    let cleaned = serde_json::to_value(
        migration_step(&current, &p, &load, 3)
            .unwrap()
            .configuration,
    )
    .unwrap();
    assert_eq!(cleaned["BucketMigrations"], serde_json::json!({}));
    let err = migration_step(&current, &p, &load, 8).unwrap_err();
    assert_eq!(
        err.to_string(),
        "There is no step 8: the walk-through has steps 0 to 7."
    );
}

#[test]
fn a_workload_reads_text_as_the_cli_does() {
    let current = topology(&[(0, 0), (B / 2, 1), (B, 1)], 2, &[("eu/", &[1], B)]);
    let ids = [
        "orders/1-A",
        "EU/Orders/2",
        "Straße/É-1",
        "users/70$Users/4",
    ];
    let text = format!(
        "{}\t10\r\n\n   \n{}\n{}\t 30 \textra\n{}\t20\nbad\t1e3\n\t5\n{}",
        ids[0],
        ids[1],
        ids[2],
        ids[3],
        "x".repeat(513)
    );
    let w = Workload::read(&text, &current, None);
    let expected = BucketLoad::from_buckets(
        ids.iter()
            .zip([Some(10), None, Some(30), Some(20)])
            .map(|(id, size)| (current.bucket_for(id).unwrap(), size)),
    );
    assert_eq!(w.load, expected);
    assert!(
        w.load.in_range(B, u64::from(2 * B)).docs == 1,
        "eu/ is in its block"
    );
    assert_eq!(
        w.lower_ids().collect::<Vec<_>>(),
        [
            "orders/1-a",
            "eu/orders/2",
            "straße/é-1",
            "users/70$users/4"
        ]
    );
    let lines: Vec<(u64, &str)> = w
        .invalid
        .iter()
        .map(|i| (i.line, i.error.as_str()))
        .collect();
    assert_eq!(
        lines[0],
        (7, "the size '1e3' is not a whole number of bytes")
    );
    let empty = ravenshard::IdError::Empty.to_string();
    assert_eq!(lines[1], (8, empty.as_str()));
    assert_eq!(lines[2].0, 9);
    assert_eq!(w.invalid_count, 3);
    // The prefix check uses the IDs: removing eu/ is refused, with the first such ID.
    let without = topology(&[(0, 0), (B / 2, 1)], 2, &[]);
    let err = w
        .plan(&current, &without, &PlanOptions::default())
        .unwrap_err();
    assert!(
        err.to_string().contains("the first is 'eu/orders/2'"),
        "{err}"
    );
    // Only the first MAX_INVALID lines are listed; all are counted.
    let bad = "\t1\n".repeat(MAX_INVALID + 5);
    let w = Workload::read(&bad, &current, None);
    assert_eq!(
        (w.invalid.len(), w.invalid_count),
        (MAX_INVALID, MAX_INVALID as u64 + 5)
    );
    // Under the draft design, `…$@<n>` is in bucket n.
    let design = ravenshard_design::content::ContentDesign::default();
    let pinned = Workload::read("orders/1$@77\norders/2$@x\n", &current, Some(&design));
    assert_eq!(
        (pinned.load.in_range(77, 78).docs, pinned.invalid_count),
        (1, 1)
    );
}

#[test]
fn throughput_and_weights_are_read() {
    assert_eq!(Throughput::parse("1.5 GB/s"), Ok(Throughput::Bytes(1.5e9)));
    assert_eq!(Throughput::parse("800kb"), Ok(Throughput::Bytes(800e3)));
    assert!(Throughput::parse("0MB/s").is_err());
    assert!(Throughput::parse("-5MB/s").is_err());
    assert!(Throughput::parse("").is_err());
    assert_eq!(BalanceOptions::parse_weights("").unwrap(), BTreeMap::new());
    let err = BalanceOptions::parse_weights("0=1,x=2").unwrap_err();
    assert!(err.to_string().contains("'x=2'"));
}

/// A random topology: up to 6 shards, block 0 split into up to 8 ranges, and maybe a
/// prefix block owned by a subset of the shards.
fn arb_topology() -> impl Strategy<Value = Topology> {
    (
        1u32..=6,
        prop::collection::btree_set(1u32..B, 0..8),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(shards, cuts, seed, with_prefix)| {
            let mut rng = seed;
            let mut next = |n: u32| {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((rng >> 33) % u64::from(n)) as u32
            };
            let mut ranges: Vec<(u32, u32)> = std::iter::once(0)
                .chain(cuts)
                .map(|start| (start, next(shards)))
                .collect();
            let mut prefixes: Vec<(&str, &[u32], u32)> = Vec::new();
            let prefix_shards: Vec<u32> = (0..shards).filter(|s| s % 2 == 0).collect();
            let leaked: &'static [u32] = Box::leak(prefix_shards.into_boxed_slice());
            if with_prefix {
                prefixes.push(("eu/", leaked, B));
                ranges.push((B, leaked[0]));
                if leaked.len() > 1 {
                    ranges.push((B + B / 3, leaked[1]));
                }
            }
            topology(&ranges, shards, &prefixes)
        })
}

fn arb_ids() -> impl Strategy<Value = Vec<(String, Option<u64>)>> {
    prop::collection::vec(
        (
            prop::sample::select(vec!["orders/", "eu/orders/", "customers/", "eu/"]),
            0u32..5000,
            prop::option::of(1u64..5000),
        )
            .prop_map(|(p, n, size)| (format!("{p}{n}"), size)),
        0..400,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn plans_conserve_and_apply(current in arb_topology(), target in arb_topology(), ids in arb_ids()) {
        // Only targets that keep the current prefixes are plannable; others must error.
        let load = BucketLoad::from_buckets(ids.iter().map(|(id, s)| (current.bucket_for(id).unwrap(), *s)));
        let p = match plan(&current, &target, &load, &PlanOptions::default()) {
            Ok(p) => p,
            Err(e) => {
                prop_assert!(current.prefixes().len() != target.prefixes().len(), "{e}");
                return Ok(());
            }
        };
        let total = load.total();
        let before: u64 = p.per_shard.iter().map(|c| c.docs_before).sum();
        let after: u64 = p.per_shard.iter().map(|c| c.docs_after).sum();
        prop_assert_eq!(before, total.docs);
        prop_assert_eq!(after, total.docs);
        prop_assert_eq!(p.per_shard.iter().map(|c| c.bytes_after).sum::<u64>(), total.bytes);
        // No bucket is split: the documents moved are exactly those whose shard changes.
        let changed = ids.iter().filter(|(id, _)| {
            let b = current.bucket_for(id).unwrap();
            current.shard_for_bucket(b) != target.shard_for_bucket(b)
        }).count() as u64;
        prop_assert_eq!(p.docs_moved, changed);
        check_moves(&current, &p);
        if !p.moves.is_empty() {
            let done = applied(&current, &p, &load);
            for bucket in probes(&current, &target).into_iter().filter(|&b| current.shard_for_bucket(b).is_some() && target.shard_for_bucket(b).is_some()) {
                prop_assert_eq!(done.shard_for_bucket(bucket), target.shard_for_bucket(bucket));
            }
        }
        // The same inputs give the same plan.
        prop_assert_eq!(plan(&current, &target, &load, &PlanOptions::default()).unwrap(), p);
    }

    #[test]
    fn move_bucket_never_moves_the_last_bucket_past_prefix_ranges(current in arb_topology(), to in 0u32..6) {
        prop_assume!(has_prefix_ranges(&current) && current.shard(to).is_some());
        let mut config = current.to_configuration();
        let owner = current.shard_for_bucket(B - 1);
        if move_bucket(&mut config.bucket_ranges, B - 1, to).is_ok() {
            let after = Topology::from_configuration(config, current.database(), "").unwrap();
            prop_assert_eq!(after.shard_for_bucket(B - 1), owner);
        }
    }

    #[test]
    fn balancing_never_raises_skew(current in arb_topology(), ids in arb_ids(), threshold in 0.0f64..30.0, bytes in any::<bool>(), fewest in any::<bool>()) {
        let load = BucketLoad::from_buckets(ids.iter().map(|(id, s)| (current.bucket_for(id).unwrap(), *s)));
        let by = if bytes && load.total().bytes > 0 { Measure::Bytes } else { Measure::Docs };
        let objective = if fewest { Objective::FewestMigrations } else { Objective::Contiguous };
        let options = BalanceOptions { by, threshold, objective, ..Default::default() };
        let b = balance(&current, &load, &options).unwrap();
        if let (Some(before), Some(after)) = (b.plan.skew_before, b.plan.skew_after) {
            prop_assert!(after <= before + 1e-9, "{} -> {}", before, after);
        }
        // Prefix buckets stay on the prefix's shards (unless MoveBucket's record after the
        // calls sends the last block's last range elsewhere, which a note says).
        for p in b.plan.target.prefixes().iter().filter(|_| !trailing(&b.plan)) {
            for r in b.plan.target.ranges().iter().filter(|r| r.start / B == p.bucket_range_start / B) {
                prop_assert!(p.shards.contains(&r.shard));
            }
        }
        check_moves(&current, &b.plan);
        // With prefix ranges, bucket 2^20 - 1 stays where it is, as RavenDB must leave it.
        if has_prefix_ranges(&current) {
            prop_assert!(!trailing(&b.plan), "{:?}", b.plan.notes);
            prop_assert!(b.plan.moves.iter().all(|m| m.to_bucket < B - 1 || m.from_bucket > B - 1));
            prop_assert_eq!(b.plan.target.shard_for_bucket(B - 1), current.shard_for_bucket(B - 1));
        }
        // The calls move exactly the plan's buckets and documents, each within one block.
        let c = calls(&current, &b.plan, &CallsOptions::default()).unwrap();
        prop_assert_eq!(c.calls.iter().map(|c| c.buckets).sum::<u64>(), b.plan.buckets_moved);
        prop_assert_eq!(c.calls.iter().map(|c| c.docs).sum::<u64>(), b.plan.docs_moved);
        for call in c.calls.iter().filter(|_| !trailing(&b.plan)) {
            prop_assert_eq!(call.from_bucket / B, call.to_bucket / B);
            prop_assert_eq!(b.plan.target.shard_for_bucket(call.from_bucket), Some(call.to_shard));
            prop_assert_eq!(b.plan.target.shard_for_bucket(call.to_bucket), Some(call.to_shard));
        }
        // The balance alone, then the other objective's figures, are the balance.
        let alone = balance_without_comparison(&current, &load, &options).unwrap();
        prop_assert_eq!(&alone.plan, &b.plan);
        prop_assert_eq!(&alone.objectives, &vec![alone.summary()]);
        let other = options.with_objective(if fewest { Objective::Contiguous } else { Objective::FewestMigrations });
        let mut rows = vec![alone.summary(), objective_summary(&current, &load, &other).unwrap()];
        rows.sort_by_key(|r| r.objective);
        prop_assert_eq!(&rows, &b.objectives);
        prop_assert_eq!(balance(&current, &load, &options).unwrap(), b);
    }
}

/// The plan's target is RavenDB's record after the calls, range list by range list: moving
/// buckets 982,173 to 1,048,575 from shard 2 to a new shard 3 one at a time with the
/// server's MoveBucket (7.1.5 and 6.2.4) leaves an empty range at the last bucket.
#[test]
fn a_plans_target_is_the_record_move_bucket_leaves() {
    let empty = |current: &Topology, target: &Topology| {
        plan(
            current,
            target,
            &BucketLoad::default(),
            &PlanOptions::default(),
        )
        .unwrap()
    };
    let current = Topology::with_shards(3).unwrap();
    let target = topology(&[(0, 0), (349525, 1), (699050, 2), (982173, 3)], 4, &[]);
    let p = empty(&current, &target);
    let ranges: Vec<(u32, u32)> = p
        .target
        .to_configuration()
        .bucket_ranges
        .iter()
        .map(|r| (r.bucket_range_start, r.shard_number))
        .collect();
    assert_eq!(
        ranges,
        [
            (0, 0),
            (349525, 1),
            (699050, 2),
            (982173, 3),
            (1048575, 2),
            (1048575, 3)
        ]
    );
    assert!(!trailing(&p));
    // With a prefix, the last bucket's range is appended after the prefix's block, and the
    // note says where RavenDB's routing then differs from the target asked for.
    let eu: &[u32] = &[0, 1];
    let current = topology(
        &[(0, 0), (524288, 1), (B, 0), (B + B / 2, 1)],
        3,
        &[("eu/", eu, B)],
    );
    let target = topology(
        &[(0, 0), (524288, 1), (B - 1, 2), (B, 0), (B + B / 2, 1)],
        3,
        &[("eu/", eu, B)],
    );
    let p = empty(&current, &target);
    assert!(trailing(&p), "{:?}", p.notes);
    assert_eq!(p.target.shard_for_bucket(B - 1), Some(1));
    assert_eq!(p.target.shard_for_bucket(2 * B - 1), Some(2));
}

/// With a prefix block last in the list and already on the shard bucket 2^20 - 1 goes to,
/// RavenDB's MoveBucket appends nothing and the bucket stays: the plan's target is that
/// record, and a note says so (found by `balancing_never_raises_skew`).
#[test]
fn moving_the_last_bucket_to_the_last_blocks_shard_leaves_it_where_it_is() {
    let current = topology(&[(0, 1), (B, 0)], 2, &[("eu/", &[0], B)]);
    let target = topology(&[(0, 1), (948_705, 0), (B, 0)], 2, &[("eu/", &[0], B)]);
    let load = load_of(&current, orders(2_000));
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    assert!(
        p.notes.contains(&PlanNote::MoveBucketIgnores {
            bucket: B - 1,
            stays_on: 1
        }),
        "{:?}",
        p.notes
    );
    assert_eq!(p.target.shard_for_bucket(B - 2), Some(0));
    assert_eq!(p.target.shard_for_bucket(B - 1), Some(1));
    check_moves(&current, &p);
}

/// With prefix ranges RavenDB's MoveBucket never moves bucket 2^20 - 1 (the differential
/// suite asks 7.1.5 and 6.2.4 for every shard), so a balance keeps it on its shard and says
/// so: the main block's tail goes to shard 0 without it, and no call holds it.
#[test]
fn a_balance_keeps_the_last_bucket_where_ravendb_must_leave_it() {
    let current = topology(&[(0, 1), (B, 0)], 2, &[("eu/", &[0], B)]);
    let load = load_of(&current, orders(2_000));
    let b = balanced(&current, &load);
    assert!(
        b.plan.notes.contains(&PlanNote::MoveBucketIgnores {
            bucket: B - 1,
            stays_on: 1
        }),
        "{:?}",
        b.plan.notes
    );
    assert_eq!(b.plan.target.shard_for_bucket(B - 2), Some(0));
    assert_eq!(b.plan.target.shard_for_bucket(B - 1), Some(1));
    assert!(!trailing(&b.plan));
    check_moves(&current, &b.plan);
    let c = calls(&current, &b.plan, &CallsOptions::default()).unwrap();
    assert!(c.calls.iter().all(|c| c.to_bucket < B - 1));
    assert!(b.plan.skew_after < b.plan.skew_before);
}
