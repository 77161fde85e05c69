//! RQL (`ravenshard_design::rql::parse`, what the CLI's `route`, the JS API's `route` and the
//! studio's query box read).
//!
//! Properties: a query that parses prints back (`to_rql`) to a query that parses to the same
//! tree, and prints the same again; routing it on a topology names shards the topology has.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard::Topology;
use ravenshard_design::route::route;
use ravenshard_design::rql::parse;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(query) = parse(text) else {
        return;
    };
    let printed = query.to_rql();
    match parse(&printed) {
        Ok(again) => {
            assert_eq!(again, query, "{text:?} printed as {printed:?}");
            assert_eq!(again.to_rql(), printed, "printing is not a fixed point");
        }
        Err(e) => panic!("{text:?} printed as {printed:?}, which does not parse: {e}"),
    }
    let topology = Topology::with_shards(3).expect("3 shards is a valid topology");
    let routed = route(&query, &topology, None);
    for shard in &routed.shards {
        assert!(topology.shard(*shard).is_some(), "routed to shard {shard}");
    }
    assert!(
        routed.shards.windows(2).all(|w| w[0] < w[1]),
        "{:?}",
        routed.shards
    );
    for (start, end) in &routed.buckets {
        assert!(start < end && u64::from(*end) <= topology.bucket_space());
    }
});
