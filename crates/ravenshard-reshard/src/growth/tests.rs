use super::*;
use proptest::prelude::*;

/// An answer of `debug/sharding/buckets` with ranges `(from, to, shards, docs, when)`.
fn answer(ranges: &[(u32, u32, &[u32], u64, &str)]) -> String {
    let ranges: Vec<String> = ranges
        .iter()
        .map(|(from, to, shards, docs, when)| {
            format!(
                r#""{from}": {{"ShardNumbers": {shards:?}, "FromBucket": {from}, "ToBucket": {to},
                    "NumberOfBuckets": 1, "RangeSize": {}, "DocumentsCount": {docs},
                    "LastModified": "{when}"}}"#,
                docs * 10
            )
        })
        .collect();
    format!(r#"{{"BucketRanges": {{{}}}}}"#, ranges.join(","))
}

fn snapshot(name: &str, answers: &[String]) -> Snapshot {
    let files: Vec<(String, &str)> = answers
        .iter()
        .enumerate()
        .map(|(i, a)| (format!("{name}/{i}.json"), a.as_str()))
        .collect();
    Snapshot {
        name: name.into(),
        taken: None,
        statistics: BucketStatistics::read(files.iter().map(|(f, t)| (f.as_str(), *t))).unwrap(),
    }
}

const MON: &str = "2026-11-23T08:00:00.1234567Z";
const TUE: &str = "2026-11-24T08:00:00.1234567Z";

#[test]
fn a_drill_down_is_summed_into_the_coarsest_bins() {
    let monday = snapshot(
        "monday",
        &[answer(&[
            (0, 32767, &[0], 10, MON),
            (32768, 65535, &[0, 1], 4, MON),
        ])],
    );
    // Tuesday's answer drills range 0 down to ranges of 1024.
    let tuesday = snapshot(
        "tuesday",
        &[answer(&[
            (0, 1023, &[0], 7, TUE),
            (2048, 3071, &[0], 9, TUE),
        ])],
    );
    let g = growth(vec![tuesday, monday]).unwrap();
    assert_eq!(g.width(), 32768);
    let names: Vec<&str> = g.snapshots().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["monday", "tuesday"]);
    assert_eq!(g.bins().len(), 2);
    assert_eq!(
        g.bins()[0]
            .amounts
            .iter()
            .map(|a| a.docs)
            .collect::<Vec<_>>(),
        [10, 16]
    );
    assert_eq!(g.bins()[0].docs_change(), 6);
    assert_eq!(g.bins()[1].docs_change(), -4);
    assert_eq!(g.bins()[1].shards, [0, 1]);
    // A range of two shards is counted as shared, not split.
    assert_eq!(g.snapshots()[0].shards[0].shard, 0);
    assert_eq!(g.snapshots()[0].shards[0].amount.docs, 10);
    assert_eq!(g.snapshots()[0].shared.docs, 4);
    assert_eq!(g.growing(5, false).len(), 1);
    assert_eq!(g.growing(5, true)[0].bytes_change, 60);
}

#[test]
fn bins_are_counted_from_each_blocks_start() {
    // 1048576 + 40000 is in the prefix block's second range of 32768.
    let b = 1_048_576;
    let a = snapshot("a", &[answer(&[(b + 32768, b + 65535, &[2], 1, MON)])]);
    let z = snapshot("z", &[answer(&[(b + 40000, b + 40000, &[2], 3, TUE)])]);
    let g = growth(vec![a, z]).unwrap();
    assert_eq!(g.bins().len(), 1);
    assert_eq!(
        (g.bins()[0].from_bucket, g.bins()[0].to_bucket),
        (b + 32768, b + 65535)
    );
    assert_eq!(g.bins()[0].docs_change(), 2);
}

#[test]
fn the_time_given_orders_before_last_modified() {
    let mut later = snapshot("later", &[answer(&[(0, 32767, &[0], 1, MON)])]);
    let earlier = snapshot("earlier", &[answer(&[(0, 32767, &[0], 5, TUE)])]);
    later.taken = Some("2026-12-01T00:00:00Z".parse().unwrap());
    let g = growth(vec![later, earlier]).unwrap();
    assert_eq!(g.snapshots()[0].name, "earlier");
    assert_eq!(g.bins()[0].docs_change(), -4);
}

#[test]
fn what_cannot_be_laid_side_by_side_says_why() {
    let one = snapshot("one", &[answer(&[(0, 32767, &[0], 1, MON)])]);
    assert_eq!(
        growth(vec![one.clone()]),
        Err(GrowthError::TooFew { count: 1 })
    );
    let timeless = snapshot("timeless", &[answer(&[(0, 32767, &[0], 1, "yesterday")])]);
    let e = growth(vec![one.clone(), timeless]).unwrap_err();
    assert_eq!(
        e,
        GrowthError::NoTime {
            snapshot: "timeless".into()
        }
    );
    assert!(e.to_string().contains("give the time"));
    // Ranges of 3 buckets do not fit the bins of 32768 when they straddle two.
    let odd = snapshot("odd", &[answer(&[(32766, 32768, &[0], 1, TUE)])]);
    let e = growth(vec![one, odd]).unwrap_err();
    assert!(
        matches!(e, GrowthError::Unaligned { width: 32768, .. }),
        "{e}"
    );
    assert!(
        e.to_string().contains("odd/0.json at BucketRanges.32766"),
        "{e}"
    );
}

proptest! {
    /// Every document of a snapshot is in one bin, and in one shard or the shared figure.
    #[test]
    fn bins_and_shards_add_up_to_each_snapshots_total(
        sets in prop::collection::vec(
            prop::collection::btree_map(0u32..32, (1u64..1000, 0usize..3), 1..12), 2..5)
    ) {
        let shard_sets: [&[u32]; 3] = [&[0], &[1], &[0, 1]];
        let snapshots: Vec<Snapshot> = sets.iter().enumerate().map(|(i, ranges)| {
            let when = format!("2026-11-{:02}T08:00:00Z", i + 1);
            let ranges: Vec<(u32, u32, &[u32], u64, &str)> = ranges.iter()
                .map(|(&r, &(docs, s))| (r * 1024, r * 1024 + 1023, shard_sets[s], docs, when.as_str()))
                .collect();
            snapshot(&format!("s{i}"), &[answer(&ranges)])
        }).collect();
        let g = growth(snapshots).unwrap();
        for (i, s) in g.snapshots().iter().enumerate() {
            let in_bins: u64 = g.bins().iter().map(|b| b.amounts[i].docs).sum();
            let in_shards: u64 = s.shards.iter().map(|f| f.amount.docs).sum::<u64>() + s.shared.docs;
            prop_assert_eq!(in_bins, s.total.docs);
            prop_assert_eq!(in_shards, s.total.docs);
        }
        prop_assert!(g.bins().windows(2).all(|w| w[0].to_bucket < w[1].from_bucket));
    }
}
