//! Bucket statistics (`BucketStatistics::read`, RavenDB's `debug/sharding/buckets` answer as
//! the CLI's `reshard --statistics`, the JS API and the studio read it).
//!
//! Properties: the ranges read are disjoint, in bucket order, inside the bucket space of the
//! answer, and add up to the total; an answer read twice (as a drill-down of itself) gives
//! the same ranges. Laid beside itself over time (`growth`), the answer either fits its own
//! bins, with nothing gained and every document in one bin and one shard or the shared
//! figure, or is refused as unaligned.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard_reshard::{growth, BucketStatistics, GrowthError, Snapshot};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(statistics) = BucketStatistics::read([("answer.json", text)]) else {
        return;
    };
    let ranges = statistics.ranges();
    let mut docs = 0u64;
    for (i, range) in ranges.iter().enumerate() {
        assert!(range.from_bucket <= range.to_bucket, "{range:?}");
        assert!(range.resolution() >= 1);
        if let Some(next) = ranges.get(i + 1) {
            assert!(
                range.to_bucket < next.from_bucket,
                "{range:?} overlaps {next:?}"
            );
        }
        docs = docs.saturating_add(range.docs);
    }
    assert_eq!(statistics.total().docs, docs);
    assert!(statistics.coarse_ranges() <= ranges.len());
    if let Ok(twice) = BucketStatistics::read([("answer.json", text), ("again.json", text)]) {
        let bounds = |s: &BucketStatistics| {
            s.ranges()
                .iter()
                .map(|r| (r.from_bucket, r.to_bucket, r.docs, r.bytes))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            bounds(&twice),
            bounds(&statistics),
            "the answer merged with itself"
        );
    }
    let snapshot = |name: &str, time: &str| Snapshot {
        name: name.into(),
        taken: time.parse().ok(),
        statistics: statistics.clone(),
    };
    match growth(vec![
        snapshot("later", "2026-11-24T00:00:00Z"),
        snapshot("earlier", "2026-11-23T00:00:00Z"),
    ]) {
        Ok(g) => {
            assert_eq!(g.snapshots()[0].name, "earlier");
            for (i, s) in g.snapshots().iter().enumerate() {
                let in_bins = g.bins().iter().map(|b| b.amounts[i].docs);
                assert_eq!(in_bins.fold(0u64, u64::saturating_add), s.total.docs);
                let in_shards = s.shards.iter().map(|f| f.amount.docs);
                let in_shards = in_shards.fold(s.shared.docs, u64::saturating_add);
                assert_eq!(in_shards, s.total.docs);
            }
            assert!(g.bins().iter().all(|b| b.docs_change() == 0));
            assert!(g.growing(10, false).is_empty());
        }
        Err(GrowthError::Unaligned { .. }) => {}
        Err(e) => panic!("the answer beside itself: {e}"),
    }
});
