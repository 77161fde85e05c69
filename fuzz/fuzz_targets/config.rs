//! Configurations and database records (`Topology::from_json`, what the CLI's `--config`,
//! the JS API's `Topology.fromJson` and the studio's configuration editor read).
//!
//! Property: a configuration that reads writes back (`to_json`) to JSON that reads to the
//! same topology, writes the same JSON again, and places every ID alike.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard::{ConfigWarning, Topology};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(topology) = Topology::from_json(text) else {
        return;
    };
    let json = topology.to_json();
    let mut again = match Topology::from_json(&json) {
        Ok(t) => t,
        Err(e) => panic!("the JSON written back does not read: {e}\n{json}"),
    };
    again.set_database(topology.database());
    assert_eq!(
        again.shards().collect::<Vec<_>>(),
        topology.shards().collect::<Vec<_>>()
    );
    assert_eq!(again.ranges(), topology.ranges());
    assert_eq!(again.prefixes(), topology.prefixes());
    assert_eq!(again.extra_keys(), topology.extra_keys());
    assert_eq!(again.to_json(), json, "writing is not a fixed point");
    for (i, range) in topology.ranges().iter().enumerate() {
        if range.start == range.end {
            // An empty range (the next one starts at the same bucket, as MoveBucket leaves
            // it) is read and said, and the later range owns its bucket, as RavenDB's
            // FindBucketShard answers.
            assert!(
                topology.warnings().iter().any(|w| matches!(
                    w,
                    ConfigWarning::EmptyRange { start, shard, .. }
                        if *start == range.start && *shard == range.shard
                )),
                "empty range {range:?} without its warning"
            );
            let later = topology.ranges()[i + 1..]
                .iter()
                .find(|r| r.start < r.end)
                .filter(|r| r.start == range.start)
                .map(|r| r.shard);
            assert_eq!(topology.shard_for_bucket(range.start), later, "{range:?}");
        } else {
            assert!(range.start < range.end, "range {range:?} ends before it starts");
            assert_eq!(topology.shard_for_bucket(range.start), Some(range.shard));
        }
    }
    for id in ["orders/1-A", "customers/1-A$x", "eu/1"]
        .into_iter()
        .chain(topology.prefixes().iter().map(|p| p.prefix.as_str()))
    {
        let here = topology.locate(id).map(|l| (l.bucket, l.shard, l.prefix));
        let there = again.locate(id).map(|l| (l.bucket, l.shard, l.prefix));
        assert_eq!(
            here, there,
            "{id} is placed differently after the round trip"
        );
        if let Ok((bucket, shard, _)) = here {
            assert!(u64::from(bucket) < topology.bucket_space());
            assert!(topology.shard(shard).is_some());
        }
    }
});
