//! Share links (`ravenshard_model::share::decode_fragment`, what the studio reads from its
//! URL's fragment), plain and compact (`z=`: base64url of raw DEFLATE).
//!
//! Properties: a link that decodes re-encodes, in either form, to a link that decodes to the
//! same workspace; its topology, if it reads, is the one the re-encoded link gives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard_model::share::{decode_fragment, encode_compact, encode_fragment, encode_plain};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(state) = decode_fragment(text) else {
        return;
    };
    let fragment = encode_fragment(&state);
    match decode_fragment(&fragment) {
        Ok(again) => assert_eq!(again, state, "encode_fragment: {fragment}"),
        Err(e) => panic!("{fragment:?} does not decode: {e}"),
    }
    let compact = encode_compact(&state);
    match decode_fragment(&compact) {
        Ok(again) => assert_eq!(again, state, "encode_compact: {compact}"),
        Err(e) => panic!("{compact:?} does not decode: {e}"),
    }
    if let Ok(plain) = encode_plain(&state) {
        match decode_fragment(&plain) {
            Ok(again) => assert_eq!(again, state, "encode_plain: {plain}"),
            Err(e) => panic!("{plain:?} does not decode: {e}"),
        }
    }
    if let Ok(Some(topology)) = state.topology() {
        assert!(topology.shards().len() > 0);
    }
});
