//! ID lines: the bulk bucket reader (`ravenshard::bulk::buckets_for_lines`, the JS API's
//! `bucketsForLines` and the CLI's `buckets`) and the editor's line format
//! (`Document::parse_lines`).
//!
//! Properties: every accepted ID's bucket equals the straightforward model
//! (`ravenshard_fuzz::model_bucket`), by `bucket_for`, by a topology and by the bulk
//! reader; a refused ID is refused by all; a document line that writes back reads back as
//! the same document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard::{bucket_for, bulk, Document, Topology};
use ravenshard_fuzz::model_bucket;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let topology = Topology::with_shards(3).expect("3 shards is a valid topology");
    let mut expected = Vec::new();
    let mut refused = false;
    for id in bulk::lines(text) {
        let model = model_bucket(id);
        assert_eq!(bucket_for(id).ok(), model, "bucket_for({id:?})");
        assert_eq!(
            topology.locate(id).ok().map(|l| l.bucket),
            model,
            "locate({id:?})"
        );
        match model {
            Some(bucket) => expected.push(bucket),
            None => refused = true,
        }
    }
    match bulk::buckets_for_lines(text, None) {
        Ok(buckets) => assert_eq!(buckets, expected),
        Err(e) => assert!(refused, "buckets_for_lines refused valid lines: {e}"),
    }
    for line in Document::parse_lines(text) {
        let document = line.document;
        if document.line_problem().is_some() {
            continue;
        }
        let mut written = String::new();
        document.write_line(&mut written);
        let back: Vec<Document> = Document::parse_lines(&written)
            .map(|l| l.document)
            .collect();
        assert_eq!(back, std::slice::from_ref(&document), "line {written:?}");
    }
});
