//! Bucket statistics (`BucketStatistics::read`, RavenDB's `debug/sharding/buckets` answer as
//! the CLI's `reshard --statistics`, the JS API and the studio read it).
//!
//! Properties: the ranges read are disjoint, in bucket order, inside the bucket space of the
//! answer, and add up to the total; an answer read twice (as a drill-down of itself) gives
//! the same ranges.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard_reshard::BucketStatistics;

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
});
