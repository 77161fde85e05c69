//! Content rules (`ContentDesign::from_topology` over a configuration's `ByContent`,
//! `Indexes` and `IdConventions`) and the documents they place (`JsonDocument::parse`),
//! as the CLI's `content`, the JS API's `ContentDesign` and the studio's design view read
//! them. The input is a configuration, a NUL byte, then a document's JSON.
//!
//! Properties: a design that reads reads the same from the configuration written back; a
//! stored document's final ID is located where the store put it, in a bucket and on a
//! shard the topology has; an ID without `$` is placed as the core places it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard::Topology;
use ravenshard_design::content::{ContentDesign, ContentDocument, JsonDocument};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (config, document) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(topology) = Topology::from_json(config) else {
        return;
    };
    let Ok(Some(design)) = ContentDesign::from_topology(&topology) else {
        return;
    };
    let again = Topology::from_json(&topology.to_json()).expect("a topology writes back");
    assert_eq!(
        ContentDesign::from_topology(&again),
        Ok(Some(design.clone()))
    );
    let parsed = JsonDocument::parse(document).ok();
    let plain = ContentDocument::new("orders/1-A");
    let documents = parsed.iter().map(JsonDocument::as_content).chain([plain]);
    for document in documents {
        let Ok(stored) = design.store(&topology, &document) else {
            continue;
        };
        assert!(
            u64::from(stored.bucket) < topology.bucket_space(),
            "{stored:?}"
        );
        assert!(topology.shard(stored.shard).is_some(), "{stored:?}");
        match design.locate(&topology, &stored.id) {
            Ok((bucket, shard, _)) => {
                assert_eq!((bucket, shard), (stored.bucket, stored.shard), "{stored:?}")
            }
            Err(e) => panic!("stored as {:?}, which does not locate: {e}", stored.id),
        }
        if !stored.id.contains('$') {
            let core = topology.locate(&stored.id).expect("stored IDs are valid");
            assert_eq!((core.bucket, core.shard), (stored.bucket, stored.shard));
        }
    }
});
