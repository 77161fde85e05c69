//! Share links: the plain and compact fragment forms.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use proptest::prelude::*;
use ravenshard_model::share::{
    decode_fragment, encode_compact, encode_fragment, encode_plain, ShareError, SharedState,
    MAX_INFLATED_BYTES, PLAIN_LIMIT,
};
use ravenshard_model::workspace::Document;
use std::io::Write;

fn ids(state: &SharedState) -> Vec<&str> {
    state.documents.iter().map(|d| d.id.as_str()).collect()
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn compact_of(bytes: &[u8]) -> String {
    format!("z={}", URL_SAFE_NO_PAD.encode(deflate(bytes)))
}

#[test]
fn the_issues_example_decodes() {
    let state = decode_fragment("#shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4").unwrap();
    assert_eq!(state.shards, Some(3));
    assert_eq!(ids(&state), ["orders/1-A", "Users/70$Users/4"]);
    assert_eq!(state.database, None);
    assert_eq!(state.config, None);
    assert!(state
        .documents
        .iter()
        .all(|d| d.size.is_none() && d.collection.is_none()));
    // Without the '#' too.
    assert_eq!(
        decode_fragment("shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4").unwrap(),
        state
    );
}

#[test]
fn empty_fragments_are_the_empty_state() {
    for fragment in ["", "#", "&&", "#&"] {
        assert_eq!(decode_fragment(fragment).unwrap(), SharedState::default());
    }
    assert_eq!(encode_fragment(&SharedState::default()), "");
}

#[test]
fn plus_is_not_a_space() {
    let state = decode_fragment("ids=a+b%20c").unwrap();
    assert_eq!(ids(&state), ["a+b c"]);
    let again = encode_plain(&state).unwrap();
    assert_eq!(again, "ids=a%2Bb%20c");
}

#[test]
fn lines_sizes_and_collections() {
    let state =
        decode_fragment("ids=a%0D%0Ab%09120%0A%0Ac%09%09Orders%0Ad%09%2012%20%09Users%09future%0A")
            .unwrap();
    let expected = vec![
        Document::new("a"),
        Document {
            id: "b".into(),
            size: Some(120),
            collection: None,
            body: None,
        },
        Document {
            id: "c".into(),
            size: None,
            collection: Some("Orders".into()),
            body: None,
        },
        Document {
            id: "d".into(),
            size: Some(12),
            collection: Some("Users".into()),
            // The fourth field is the document's body.
            body: Some("future".into()),
        },
    ];
    assert_eq!(state.documents, expected);
}

#[test]
fn database_and_config() {
    let config = r#"{"Shards":{"0":{"Members":["A"]},"1":{"Members":["B"]}}}"#;
    let fragment = format!(
        "database=shop&config={}",
        config
            .replace('{', "%7B")
            .replace('}', "%7D")
            .replace('"', "%22")
            .replace('[', "%5B")
            .replace(']', "%5D")
    );
    let state = decode_fragment(&fragment).unwrap();
    assert_eq!(state.database.as_deref(), Some("shop"));
    assert_eq!(state.config.as_deref(), Some(config));
    let topology = state.topology().unwrap().unwrap();
    assert_eq!(topology.shards().len(), 2);
    assert_eq!(topology.fragment(1), "shop$1");
    assert_eq!(topology.members(1), ["B"]);

    let bad = decode_fragment("config=%7B%7D").unwrap();
    assert!(bad.topology().is_err());
}

#[test]
fn empty_values_mean_absent() {
    let state = decode_fragment("db=&config=&ids=").unwrap();
    assert_eq!(state, SharedState::default());
}

#[test]
fn keys_are_case_insensitive_and_unknown_keys_are_ignored() {
    let state = decode_fragment("Shards=2&view=buckets&%ZZ=1&theme=dark&IDS=x").unwrap();
    assert_eq!(state.shards, Some(2));
    assert_eq!(ids(&state), ["x"]);
}

#[test]
fn repeated_keys_are_errors() {
    assert_eq!(
        decode_fragment("shards=2&shards=3"),
        Err(ShareError::DuplicateKey {
            key: "shards".into()
        })
    );
    let error = decode_fragment("db=a&database=b").unwrap_err();
    assert_eq!(error.key(), "database");
    assert!(error.to_string().contains("given twice"), "{error}");
}

#[test]
fn bad_percent_escapes_name_the_key() {
    for (fragment, key, offset) in [
        ("ids=abc%", "ids", 3),
        ("ids=abc%4", "ids", 3),
        ("db=%G1", "db", 0),
        ("shards=3&config=%7B%7x", "config", 3),
    ] {
        let error = decode_fragment(fragment).unwrap_err();
        assert_eq!(
            error,
            ShareError::BadEscape {
                key: key.into(),
                offset
            },
            "{fragment}"
        );
        let message = error.to_string();
        assert!(message.contains(&format!("'{key}'")), "{message}");
        assert!(message.contains("%25"), "{message}");
    }
}

#[test]
fn invalid_utf8_names_the_key() {
    let error = decode_fragment("ids=ab%FF").unwrap_err();
    assert_eq!(
        error,
        ShareError::NotUtf8 {
            key: "ids".into(),
            offset: 2
        }
    );
    assert!(error.to_string().contains("'ids'"));
    // A truncated multi-byte sequence.
    assert!(matches!(
        decode_fragment("db=%C3"),
        Err(ShareError::NotUtf8 { .. })
    ));
}

#[test]
fn bad_shard_counts() {
    for value in ["three", "", "-1", "0", "1048577", "99999999999", "3.5"] {
        let error = decode_fragment(&format!("shards={value}")).unwrap_err();
        assert!(matches!(error, ShareError::BadShards { .. }), "{value}");
        assert_eq!(error.key(), "shards");
        assert!(error.to_string().contains("'shards'"), "{error}");
    }
    assert_eq!(
        decode_fragment("shards=1048576").unwrap().shards,
        Some(1 << 20)
    );
    assert_eq!(decode_fragment("shards=%203").unwrap().shards, Some(3));
}

#[test]
fn bad_sizes_name_the_line() {
    let error = decode_fragment("ids=a%0Ab%09big").unwrap_err();
    assert_eq!(
        error,
        ShareError::BadSize {
            line: 2,
            value: "big".into()
        }
    );
    assert!(error.to_string().contains("'ids' line 2"), "{error}");
    assert!(matches!(
        decode_fragment("ids=a%0999999999999999999999999"),
        Err(ShareError::BadSize { line: 1, .. })
    ));
}

#[test]
fn plain_form_refuses_what_it_cannot_carry() {
    for (id, collection) in [
        ("a\tb", None),
        ("a\nb", None),
        ("a\r", None),
        ("", None),
        ("ok", Some("Or\nders")),
    ] {
        let state = SharedState {
            documents: vec![
                Document::new("first"),
                Document {
                    id: id.into(),
                    size: None,
                    collection: collection.map(String::from),
                    body: None,
                },
            ],
            ..Default::default()
        };
        let error = encode_plain(&state).unwrap_err();
        assert!(
            matches!(error, ShareError::NotPlain { index: 1, .. }),
            "{id:?}"
        );
        assert!(error.to_string().contains("compact"), "{error}");
        // encode_fragment falls back to the compact form, which carries it.
        let fragment = encode_fragment(&state);
        assert!(fragment.starts_with("z="), "{fragment}");
        assert_eq!(decode_fragment(&fragment).unwrap(), state);
    }
}

#[test]
fn encode_fragment_picks_the_form_by_length() {
    let small = SharedState {
        shards: Some(3),
        documents: (1..=20)
            .map(|n| Document::new(format!("orders/{n}-A")))
            .collect(),
        ..Default::default()
    };
    let fragment = encode_fragment(&small);
    assert!(
        fragment.starts_with("shards=3&ids=orders/1-A%0A"),
        "{fragment}"
    );
    assert!(fragment.len() <= PLAIN_LIMIT);

    let large = SharedState {
        documents: (1..=5000)
            .map(|n| Document {
                id: format!("orders/{n}-A$companies/{}-A", n % 97),
                size: Some(1000 + n),
                collection: Some("Orders".into()),
                body: None,
            })
            .collect(),
        ..small
    };
    let plain = encode_plain(&large).unwrap();
    let fragment = encode_fragment(&large);
    assert!(fragment.starts_with("z="));
    assert!(
        fragment.len() * 3 < plain.len(),
        "{} vs {}",
        fragment.len(),
        plain.len()
    );
    assert_eq!(decode_fragment(&fragment).unwrap(), large);
    assert_eq!(decode_fragment(&plain).unwrap(), large);
}

#[test]
fn compact_cannot_be_mixed_with_plain_keys() {
    let compact = encode_compact(&SharedState {
        shards: Some(2),
        ..Default::default()
    });
    let error = decode_fragment(&format!("{compact}&ids=a")).unwrap_err();
    assert_eq!(error, ShareError::MixedForms { key: "ids".into() });
    // Unknown keys alongside are fine.
    let state = decode_fragment(&format!("#{compact}&view=chart")).unwrap();
    assert_eq!(state.shards, Some(2));
}

#[test]
fn compact_tolerates_padding() {
    let json = br#"{"shards":4,"documents":[{"id":"a"}]}"#;
    let padded = format!(
        "z={}",
        base64::engine::general_purpose::URL_SAFE.encode(deflate(json))
    );
    let state = decode_fragment(&padded).unwrap();
    assert_eq!(state.shards, Some(4));
    assert_eq!(ids(&state), ["a"]);
}

#[test]
fn corrupt_base64() {
    for data in ["z=abc$def", "z=a", "z=ab+/"] {
        let error = decode_fragment(data).unwrap_err();
        assert!(
            matches!(error, ShareError::BadBase64 { .. }),
            "{data}: {error:?}"
        );
        assert_eq!(error.key(), "z");
        assert!(error.to_string().contains("copy the whole link"), "{error}");
    }
}

#[test]
fn corrupt_deflate() {
    let good = deflate(br#"{"shards":3,"documents":[{"id":"orders/1-A"}]}"#);
    // Cut short.
    let truncated = format!("z={}", URL_SAFE_NO_PAD.encode(&good[..good.len() / 2]));
    // Not deflate at all: block type 3 is reserved.
    let garbage = format!("z={}", URL_SAFE_NO_PAD.encode([0xFFu8; 16]));
    let empty = "z=".to_string();
    for fragment in [truncated, garbage, empty] {
        let error = decode_fragment(&fragment).unwrap_err();
        assert!(
            matches!(error, ShareError::BadDeflate { .. }),
            "{fragment}: {error:?}"
        );
    }
}

#[test]
fn compact_json_must_be_a_state() {
    for json in [&b"not json"[..], br#"{"shards":"x"}"#, br#"[1,2]"#] {
        let error = decode_fragment(&compact_of(json)).unwrap_err();
        assert!(matches!(error, ShareError::BadJson { .. }), "{error:?}");
    }
    let error = decode_fragment(&compact_of(br#"{"shards":0}"#)).unwrap_err();
    assert!(matches!(error, ShareError::BadShards { .. }), "{error:?}");
    // Unknown fields are ignored, empty strings mean absent.
    let state = decode_fragment(&compact_of(
        br#"{"shards":2,"database":"","theme":"dark","documents":[{"id":"a","collection":""}]}"#,
    ))
    .unwrap();
    assert_eq!(
        state,
        SharedState {
            shards: Some(2),
            documents: vec![Document::new("a")],
            ..Default::default()
        }
    );
}

#[test]
fn compact_json_errors_name_the_path() {
    let cases: [(&[u8], &str); 9] = [
        (
            br#"{"shards":"x"}"#,
            "shards: invalid type: string \"x\", expected u32",
        ),
        (
            br#"{"shards":-1}"#,
            "shards: invalid value: integer `-1`, expected u32",
        ),
        (
            br#"{"shards":2.0}"#,
            "shards: invalid type: floating point `2.0`, expected u32",
        ),
        (
            br#"{"shards":4294967296}"#,
            "shards: invalid value: integer `4294967296`, expected u32",
        ),
        (
            br#"[1,2]"#,
            "invalid type: sequence, expected struct SharedState",
        ),
        (
            br#"{"documents":[{"id":"a"},{"id":"b","size":-3}]}"#,
            "documents[1].size: invalid value: integer `-3`, expected u64",
        ),
        (
            br#"{"documents":[{"id":"a"},{"size":3}]}"#,
            "documents[1]: missing field `id`",
        ),
        (
            br#"{"documents":{"id":"a"}}"#,
            "documents: invalid type: map, expected a sequence",
        ),
        (
            br#"{"database":"x","config":["{}"]}"#,
            "config: invalid type: sequence, expected a string",
        ),
    ];
    for (json, message) in cases {
        match decode_fragment(&compact_of(json)) {
            Err(ShareError::BadJson { message: got }) => assert_eq!(got, message),
            other => panic!("{}: {other:?}", String::from_utf8_lossy(json)),
        }
    }
    // Missing and null fields are the defaults; the derived `Deserialize` reads alike.
    let json = r#"{"database":null,"shards":null,"config":null,"documents":[{"id":"a","size":null,"body":"{}"}]}"#;
    let state: SharedState = serde_json::from_str(json).unwrap();
    assert_eq!(state.documents[0].body.as_deref(), Some("{}"));
    assert_eq!(
        decode_fragment(&compact_of(json.as_bytes())).unwrap(),
        state
    );
    let e = serde_json::from_str::<SharedState>(r#"{"documents":[{"id":1}]}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid type: integer `1`, expected a string at line 1 column 21"
    );
    let state: SharedState = serde_json::from_str(r#"{"documents":null}"#).unwrap();
    assert_eq!(state, SharedState::default());
}

#[test]
fn compact_links_are_the_deflate_of_the_json_at_the_best_level() {
    // Written by another DEFLATE implementation at its best level (flate2, which the core
    // used before): the links the core writes have not changed.
    let documents = (1..=500)
        .map(|n| Document {
            id: format!("orders/{n}-A"),
            size: Some(n * 37),
            collection: Some("Orders".into()),
            body: None,
        })
        .collect();
    let states = [
        SharedState::default(),
        SharedState {
            database: Some("shop".into()),
            shards: Some(3),
            config: Some(r#"{"Orchestrator":{}}"#.into()),
            documents: vec![Document::new("a\tb")],
        },
        SharedState {
            documents,
            ..Default::default()
        },
    ];
    for state in states {
        let json = serde_json::to_vec(&state).unwrap();
        assert_eq!(encode_compact(&state), compact_of(&json));
    }
}

#[test]
fn oversize_inflate_is_refused() {
    // A deflate bomb: 65 MiB of spaces compresses to about 65 KiB.
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..65 {
        encoder.write_all(&chunk).unwrap();
    }
    let bomb = encoder.finish().unwrap();
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    let error = decode_fragment(&format!("z={}", URL_SAFE_NO_PAD.encode(&bomb))).unwrap_err();
    assert_eq!(
        error,
        ShareError::TooLarge {
            limit: MAX_INFLATED_BYTES
        }
    );
    assert!(error.to_string().contains("64 MiB"), "{error}");
}

#[test]
fn inflating_exactly_to_the_limit_is_allowed() {
    // JSON padded with whitespace to exactly the limit.
    let mut json = br#"{"shards":5}"#.to_vec();
    json.resize(MAX_INFLATED_BYTES, b' ');
    let state = decode_fragment(&compact_of(&json)).unwrap();
    assert_eq!(state.shards, Some(5));
}

/// Text with the characters that matter to the plain form: delimiters, escapes, spaces,
/// non-ASCII, and `$` anchors.
fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!(
        "[A-Za-z0-9/\\-$%&=#+ ?;,.~!*'()@:\\\\éΩß日本𐐀]{{1,{max}}}"
    ))
    .unwrap()
}

fn document() -> impl Strategy<Value = Document> {
    (
        text(40),
        proptest::option::of(any::<u64>()),
        proptest::option::of(text(12)),
        proptest::option::of(r#"\{"[A-Za-z]{1,8}":"[a-z0-9/ $-]{0,12}"\}"#),
    )
        .prop_map(|(id, size, collection, body)| Document {
            id,
            size,
            collection,
            body,
        })
}

fn state() -> impl Strategy<Value = SharedState> {
    (
        proptest::option::of(text(20)),
        proptest::option::of(1u32..=1 << 20),
        proptest::option::of(text(60)),
        proptest::collection::vec(document(), 0..30),
    )
        .prop_map(|(database, shards, config, documents)| SharedState {
            database,
            shards,
            config,
            documents,
        })
}

/// Any document, tabs and line breaks included, for the compact form.
fn any_document() -> impl Strategy<Value = Document> {
    (
        any::<String>(),
        proptest::option::of(any::<u64>()),
        proptest::option::of(any::<String>().prop_filter("non-empty", |s| !s.is_empty())),
        proptest::option::of(any::<String>()),
    )
        .prop_map(|(id, size, collection, body)| Document {
            id,
            size,
            collection,
            body,
        })
}

proptest! {
    #[test]
    fn plain_round_trips(state in state()) {
        // A document the line format cannot carry (spaces around its collection, a blank
        // ID) is refused, and the link falls back to the compact form.
        let plain = match encode_plain(&state) {
            Ok(plain) => plain,
            Err(ShareError::NotPlain { index, .. }) => {
                prop_assert!(state.documents[index].line_problem().is_some());
                prop_assert_eq!(decode_fragment(&encode_fragment(&state)).unwrap(), state);
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        prop_assert!(!plain.contains(['#', ' ', '+', '\t', '\n']), "{}", plain);
        prop_assert_eq!(decode_fragment(&plain).unwrap(), state.clone());
        prop_assert_eq!(decode_fragment(&format!("#{plain}")).unwrap(), state);
    }

    #[test]
    fn compact_round_trips(state in state()) {
        let compact = encode_compact(&state);
        prop_assert!(compact
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_=z".contains(&b)));
        prop_assert_eq!(decode_fragment(&compact).unwrap(), state);
    }

    #[test]
    fn compact_carries_any_document(
        documents in proptest::collection::vec(any_document(), 0..10),
        database in proptest::option::of(any::<String>().prop_filter("non-empty", |s| !s.is_empty())),
    ) {
        let state = SharedState { database, documents, ..Default::default() };
        prop_assert_eq!(decode_fragment(&encode_compact(&state)).unwrap(), state.clone());
        prop_assert_eq!(decode_fragment(&encode_fragment(&state)).unwrap(), state);
    }

    #[test]
    fn encode_fragment_round_trips(state in state()) {
        prop_assert_eq!(decode_fragment(&encode_fragment(&state)).unwrap(), state);
    }

    #[test]
    fn decoding_never_panics(fragment in any::<String>()) {
        let _ = decode_fragment(&fragment);
    }

    #[test]
    fn decoding_arbitrary_compact_data_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode_fragment(&format!("z={}", URL_SAFE_NO_PAD.encode(&bytes)));
        let _ = decode_fragment(&compact_of(&bytes));
    }
}

/// Links written, and errors given, before the `base64` and `percent-encoding` crates took
/// over from hand-written code: the same links still open to the same state, and are
/// written the same.
#[test]
fn links_of_the_hand_written_encoders_are_unchanged() {
    let state = SharedState {
        database: Some("shop".into()),
        shards: Some(3),
        config: None,
        documents: vec![
            Document {
                id: "orders/1-A".into(),
                size: Some(120),
                collection: Some("Orders".into()),
                body: None,
            },
            Document::new("users/é+ü$x\ty"),
        ],
    };
    let compact = "z=LctNCsIwEMXxuzzcGdHqrjtP4AHURcwEDNSOZFLoBzlQ79BdL9Zp6erx4PcfQDbZjxWPEvLlP4yOjSQobwbErvn5Oul7DgikiCP5KOfidF9p6DUsrhcDx1XlXQpcK3psCNnsUSNrM4_HeTq0r9Qhv_MC";
    assert_eq!(encode_compact(&state), compact);
    assert_eq!(decode_fragment(compact), Ok(state.clone()));

    let plain = SharedState {
        documents: vec![Document::new("users/é+ü&%x y#z")],
        ..state
    };
    let fragment = "db=shop&shards=3&ids=users/%C3%A9%2B%C3%BC%26%25x%20y%23z";
    assert_eq!(encode_plain(&plain).as_deref(), Ok(fragment));
    assert_eq!(decode_fragment(fragment), Ok(plain));
    let lower = decode_fragment("db=%e2%82%ac&ids=%2f").unwrap();
    assert_eq!(
        (lower.database.as_deref(), ids(&lower)),
        (Some("€"), vec!["/"])
    );

    let base64 = |message: &str| {
        Err(ShareError::BadBase64 {
            message: message.into(),
        })
    };
    let cases = [
        ("z=abc$def", base64("Invalid symbol 36, offset 3.")),
        ("z=a", base64("Invalid input length: 1")),
        ("z=ab+/", base64("Invalid symbol 43, offset 2.")),
        ("z=AB", base64("Invalid last symbol 66, offset 1.")),
        ("z=YWJjZB", base64("Invalid last symbol 66, offset 5.")),
        ("z=AA=A", base64("Invalid symbol 61, offset 2.")),
        (
            "z=YQ=\n",
            Err(ShareError::BadDeflate {
                message: "Truncated input stream".into(),
            }),
        ),
        (
            "ids=%zz",
            Err(ShareError::BadEscape {
                key: "ids".into(),
                offset: 0,
            }),
        ),
        (
            "ids=a%C3",
            Err(ShareError::NotUtf8 {
                key: "ids".into(),
                offset: 1,
            }),
        ),
    ];
    for (fragment, expected) in cases {
        assert_eq!(decode_fragment(fragment), expected, "{fragment:?}");
    }
}
