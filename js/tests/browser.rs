//! The JS API in headless Chromium: `cargo test --target wasm32-unknown-unknown` (from js/).
//!
//! Results are read back as JS sees them (`Reflect.get`, `JSON.stringify`, `instanceof Error`).
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, JsString, Reflect, Uint32Array, JSON};
use ravenshard_js::{advise, bucket_for, buckets_for, config_diff, explain, Topology, Workload};
use std::fmt::Debug;
use wasm_bindgen::{JsCast, JsError, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// id, bucket, shard (3 shards, default ranges), from the core's test vectors.
const VECTORS: &str = include_str!("../../vectors/buckets-3-shards.tsv");

/// id, bucket, shard of non-ASCII and control-character IDs (RavenDB 7.x), IDs written with
/// `\xHH` escapes.
const NON_ASCII_AND_CONTROL: &str = include_str!("../../vectors/buckets-non-ascii-and-control.tsv");

/// The known answers the differential suite found against RavenDB's own server code
/// (tests/ravendb): groups of `[id, bucket, shard]` rows, or `[id, null, null, part of the
/// error]`, under a configuration (`null`: 3 shards) and the server versions they hold for.
const ORACLE: &str = include_str!("../../vectors/ravendb-oracle.json");

const PREFIXED: &str = r#"{"Shards":{"0":{},"1":{},"2":{}},"Prefixed":[{"Prefix":"eu/","Shards":[0]},{"Prefix":"asia/","Shards":[1,2]}]}"#;

fn vectors() -> Vec<(&'static str, u32, u32)> {
    VECTORS
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (
                fields[0],
                fields[1].parse().unwrap(),
                fields[2].parse().unwrap(),
            )
        })
        .collect()
}

/// The rows of [`NON_ASCII_AND_CONTROL`], IDs unescaped (`\xHH` is one ASCII byte).
fn non_ascii_and_control() -> Vec<(String, u32, u32)> {
    NON_ASCII_AND_CONTROL
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let mut id = String::new();
            let mut rest = fields[0];
            while let Some(at) = rest.find("\\x") {
                id.push_str(&rest[..at]);
                id.push(char::from(
                    u8::from_str_radix(&rest[at + 2..at + 4], 16).unwrap(),
                ));
                rest = &rest[at + 4..];
            }
            id.push_str(rest);
            (id, fields[1].parse().unwrap(), fields[2].parse().unwrap())
        })
        .collect()
}

/// The message of the JS `Error` a call threw (failing if it is not an `Error`).
/// A bulk-text argument as the JS string a caller passes.
fn js(text: &str) -> JsString {
    JsString::from(text)
}

fn thrown<T: Debug>(result: Result<T, JsError>) -> String {
    let value = JsValue::from(result.unwrap_err());
    let error: js_sys::Error = value.dyn_into().expect("an instance of Error");
    error.message().into()
}

fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap()
}

fn number(object: &JsValue, key: &str) -> f64 {
    get(object, key)
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number"))
}

fn string(object: &JsValue, key: &str) -> String {
    get(object, key)
        .as_string()
        .unwrap_or_else(|| panic!("{key} is not a string"))
}

fn json(value: &JsValue) -> String {
    JSON::stringify(value).unwrap().into()
}

/// `Object.keys(object).join(",")`.
fn keys(object: &JsValue) -> String {
    let object: &js_sys::Object = object.unchecked_ref();
    js_sys::Object::keys(object).join(",").into()
}

#[wasm_bindgen_test]
fn known_buckets() {
    assert_eq!(bucket_for("orders/1-A").unwrap(), 151326);
    assert_eq!(bucket_for("customers/1-A").unwrap(), 982173);
    assert_eq!(bucket_for("orders/2-A$customers/1-A").unwrap(), 982173);
    assert_eq!(bucket_for("Users/70$Users/4").unwrap(), 690258);
}

#[wasm_bindgen_test]
fn vector_file_single_and_bulk() {
    let vectors = vectors();
    assert!(vectors.len() > 50);
    let buckets: Vec<u32> = vectors.iter().map(|v| v.1).collect();
    let shards: Vec<u32> = vectors.iter().map(|v| v.2).collect();
    for (id, bucket, _) in &vectors {
        assert_eq!(bucket_for(id).unwrap(), *bucket, "{id}");
    }
    let ids: Vec<&str> = vectors.iter().map(|v| v.0).collect();
    let three = Topology::with_shards(3.0).unwrap();
    for text in [
        ids.join("\n"),
        ids.join("\n") + "\n",
        ids.join("\r\n") + "\r\n",
    ] {
        assert_eq!(buckets_for(&js(&text)).unwrap().to_vec(), buckets);
        assert_eq!(three.buckets_for(&js(&text)).unwrap().to_vec(), buckets);
        assert_eq!(three.shards_for(&js(&text)).unwrap().to_vec(), shards);
    }
}

#[wasm_bindgen_test]
fn non_ascii_and_control_vectors_single_and_bulk() {
    let vectors = non_ascii_and_control();
    assert!(vectors.len() >= 30);
    let three = Topology::with_shards(3.0).unwrap();
    for (id, bucket, shard) in &vectors {
        assert_eq!(bucket_for(id).unwrap(), *bucket, "{id:?}");
        let location = three.locate(id).unwrap();
        assert_eq!(number(&location, "bucket"), f64::from(*bucket), "{id:?}");
        assert_eq!(number(&location, "shard"), f64::from(*shard), "{id:?}");
    }
    // Bulk text is one ID a line: rows whose ID holds `\n` or `\r` (none today) are
    // covered by the single calls above only.
    let lines: Vec<&(String, u32, u32)> = vectors
        .iter()
        .filter(|v| !v.0.contains(['\n', '\r']))
        .collect();
    let text = lines
        .iter()
        .map(|v| v.0.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let buckets: Vec<u32> = lines.iter().map(|v| v.1).collect();
    let shards: Vec<u32> = lines.iter().map(|v| v.2).collect();
    assert_eq!(buckets_for(&js(&text)).unwrap().to_vec(), buckets);
    assert_eq!(three.shards_for(&js(&text)).unwrap().to_vec(), shards);
}

/// Every row of [`ORACLE`] through `locate` under each version its group names, read by
/// `JSON.parse` as a page reads the file.
#[wasm_bindgen_test]
fn every_oracle_vector_under_each_version() {
    let doc = JSON::parse(ORACLE).unwrap();
    let groups: Array = get(&doc, "groups").unchecked_into();
    assert!(groups.length() >= 8, "the file has its groups");
    for group in groups.iter() {
        let why = string(&group, "why");
        let config = get(&group, "config").as_string();
        let rows: Array = get(&group, "ids").unchecked_into();
        let versions: Array = get(&group, "versions").unchecked_into();
        for version in versions.iter() {
            let mut topology = match &config {
                Some(text) => Topology::new(text, None).unwrap(),
                None => Topology::with_shards(3.0).unwrap(),
            };
            let version = version.as_string().unwrap();
            topology.set_server_version(&version).unwrap();
            assert_eq!(topology.server_version(), version);
            for row in rows.iter() {
                let row: Array = row.unchecked_into();
                let id = row.get(0).as_string().unwrap();
                match row.get(1).as_f64() {
                    Some(bucket) => {
                        let l = topology
                            .locate(&id)
                            .unwrap_or_else(|e| panic!("{why}: {id:?}: {:?}", JsValue::from(e)));
                        assert_eq!(number(&l, "bucket"), bucket, "{why}: {id:?}");
                        assert_eq!(
                            get(&l, "shard").as_f64(),
                            row.get(2).as_f64(),
                            "{why}: {id:?}"
                        );
                    }
                    None => {
                        let message = thrown(topology.locate(&id));
                        let part = row.get(3).as_string().unwrap();
                        assert!(message.contains(&part), "{why}: {id:?}: {message}");
                    }
                }
            }
        }
    }
}

#[wasm_bindgen_test]
fn bulk_returns_a_uint32_array_equal_to_single_calls() {
    let text = "orders/1-A\r\ncustomers/1-A\nUsers/70$Users/4\n";
    let array: JsValue = buckets_for(&js(text)).unwrap().into();
    let array: Uint32Array = array.dyn_into().expect("a Uint32Array");
    let single: Vec<u32> = text.lines().map(|id| bucket_for(id).unwrap()).collect();
    assert_eq!(array.to_vec(), single);
    assert_eq!(buckets_for(&js("")).unwrap().length(), 0);
    assert_eq!(thrown(buckets_for(&js("\n"))), empty_message(1));
}

fn empty_message(line: usize) -> String {
    format!("line {line}: {}", ravenshard::IdError::Empty)
}

#[wasm_bindgen_test]
fn bulk_names_the_first_invalid_line() {
    assert_eq!(
        thrown(buckets_for(&js("orders/1-A\n\ncustomers/1-A"))),
        empty_message(2)
    );
    let long = format!("a\r\nb\r\n{}\r\n", "x".repeat(513));
    let message = thrown(Topology::with_shards(3.0).unwrap().shards_for(&js(&long)));
    assert!(
        message
            .starts_with("line 3: Document ID cannot exceed 512 bytes, but the ID was 513 bytes"),
        "{message}"
    );
}

#[wasm_bindgen_test]
fn invalid_ids_throw_the_core_message() {
    assert_eq!(
        thrown(bucket_for("")),
        ravenshard::IdError::Empty.to_string()
    );
    let message = thrown(bucket_for(&"x".repeat(513)));
    assert!(
        message.starts_with("Document ID cannot exceed 512 bytes, but the ID was 513 bytes"),
        "{message}"
    );
    assert!(bucket_for(&"x".repeat(512)).is_ok());
    assert_eq!(
        thrown(explain("", None)),
        ravenshard::IdError::Empty.to_string()
    );
    assert_eq!(
        thrown(Topology::with_shards(3.0).unwrap().locate("")),
        ravenshard::IdError::Empty.to_string()
    );
}

#[wasm_bindgen_test]
fn locate_with_default_ranges() {
    let topology = Topology::with_shards(3.0).unwrap();
    assert_eq!(topology.database(), "db");
    let location = topology.locate("orders/1-A").unwrap();
    assert_eq!(number(&location, "bucket"), 151326.0);
    assert_eq!(number(&location, "shard"), 0.0);
    assert!(get(&location, "prefix").is_null());
    assert_eq!(string(&location, "fragment"), "db$0");
    assert_eq!(json(&get(&location, "nodes")), "[]");
    let location = topology.locate("customers/1-A").unwrap();
    assert_eq!(number(&location, "shard"), 2.0);
}

#[wasm_bindgen_test]
fn locate_with_prefixes() {
    let topology = Topology::new(PREFIXED, None).unwrap();
    for (id, bucket, shard, prefix) in [
        ("eu/0", 1906271, 0, "eu/"),
        ("asia/1", 2429030, 1, "asia/"),
        ("asia/2", 2831086, 2, "asia/"),
    ] {
        let location = topology.locate(id).unwrap();
        assert_eq!(number(&location, "bucket"), f64::from(bucket), "{id}");
        assert_eq!(number(&location, "shard"), f64::from(shard), "{id}");
        assert_eq!(string(&location, "prefix"), prefix, "{id}");
    }
    assert_eq!(
        topology
            .buckets_for(&js("eu/0\nasia/1\nasia/2"))
            .unwrap()
            .to_vec(),
        [1906271, 2429030, 2831086]
    );
    assert_eq!(
        topology
            .shards_for(&js("eu/0\nasia/1\nasia/2"))
            .unwrap()
            .to_vec(),
        [0, 1, 2]
    );
}

#[wasm_bindgen_test]
fn database_name_and_nodes() {
    let record =
        r#"{"DatabaseName": "Orders", "Sharding": {"Shards": {"0": {"Members": ["A", "B"]}}}}"#;
    let topology = Topology::new(record, None).unwrap();
    assert_eq!(topology.database(), "Orders");
    let location = topology.locate("orders/1-A").unwrap();
    assert_eq!(string(&location, "fragment"), "Orders$0");
    assert_eq!(json(&get(&location, "nodes")), r#"["A","B"]"#);
    let renamed = Topology::new(record, Some("Sales".into())).unwrap();
    assert_eq!(renamed.database(), "Sales");
    assert_eq!(string(&renamed.locate("x").unwrap(), "fragment"), "Sales$0");
}

#[wasm_bindgen_test]
fn bad_configurations_throw_with_the_json_path() {
    let cases = [
        r#"{"Shards":{"0":{}},"Prefixed":[{"Prefix":"eu","Shards":[0]}]}"#,
        r#"{"Shards":{"0":{}},"Prefixed":[{"Prefix":"eu/","Shards":[7]}]}"#,
        r#"{"Shards":{"0":{}},"BucketRanges":[{"BucketRangeStart":-1,"ShardNumber":0}]}"#,
        r#"{"Shards": {"0": {}"#,
        "[]",
    ];
    for json in cases {
        let core = ravenshard::Topology::from_json(json).unwrap_err();
        let message = thrown(Topology::new(json, None));
        assert_eq!(message, core.to_string());
        if let Some(path) = core.path() {
            assert!(message.contains(path), "{message}");
        }
        assert_eq!(thrown(explain("orders/1-A", Some(json.into()))), message);
    }
    let message = thrown(Topology::new(cases[1], None));
    assert!(message.contains("Prefixed[0].Shards[0]"), "{message}");
}

#[wasm_bindgen_test]
fn with_shards_rejects_what_is_not_a_count() {
    for count in [-1.0, 1.5, f64::NAN, f64::INFINITY, 4294967296.0] {
        let message = thrown(Topology::with_shards(count));
        assert!(
            message.contains("shard count must be a whole number"),
            "{message}"
        );
    }
    let core = ravenshard::Topology::with_shards(0)
        .unwrap_err()
        .to_string();
    assert_eq!(thrown(Topology::with_shards(0.0)), core);
}

#[wasm_bindgen_test]
fn explain_is_plain_data() {
    let e = explain("Orders/2-A$Customers/1-A", None).unwrap();
    // The keys of the `Explanation` interface in the .d.ts (src/lib.rs): keep them in step.
    assert_eq!(
        keys(&e),
        "id,lower_id,anchored,hashed,hashed_range,hashed_chars,hash,raw_bucket,prefix,bucket,\
         range,shard,fragment,nodes,warnings,server_made"
    );
    assert_eq!(string(&e, "lower_id"), "orders/2-a$customers/1-a");
    assert_eq!(string(&e, "hashed"), "customers/1-a");
    assert_eq!(get(&e, "anchored"), JsValue::TRUE);
    assert_eq!(json(&get(&e, "hashed_range")), "[11,24]");
    let hash = string(&e, "hash");
    assert!(
        hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{hash}"
    );
    assert_eq!(number(&e, "raw_bucket"), 982173.0);
    assert_eq!(number(&e, "bucket"), 982173.0);
    for key in ["prefix", "range", "shard", "fragment"] {
        assert!(get(&e, key).is_null(), "{key}");
    }
    let three = r#"{"Shards":{"0":{},"1":{},"2":{"Members":["C"]}}}"#;
    let e = explain("Orders/2-A$Customers/1-A", Some(three.into())).unwrap();
    assert_eq!(number(&e, "shard"), 2.0);
    assert_eq!(string(&e, "fragment"), "db$2");
    assert_eq!(json(&get(&e, "nodes")), r#"["C"]"#);
    assert_eq!(
        json(&get(&e, "range")),
        r#"{"start":699050,"end":1048576,"shard":2}"#
    );
    let e = Topology::new(PREFIXED, None)
        .unwrap()
        .explain("asia/1")
        .unwrap();
    assert_eq!(
        json(&get(&e, "prefix")),
        r#"{"prefix":"asia/","bucket_range_start":2097152}"#
    );
    assert_eq!(number(&e, "bucket"), 2429030.0);
    let e = explain("orders/1-A$", None).unwrap();
    assert_eq!(
        string(&Reflect::get_u32(&get(&e, "warnings"), 0).unwrap(), "kind"),
        "empty_anchor"
    );
}

#[wasm_bindgen_test]
fn report_from_an_array_or_text() {
    let topology = Topology::with_shards(3.0).unwrap();
    let ids = [
        "users/4",
        "Users/70$Users/4",
        "Users/71$Users/4",
        "orders/1-A",
        "",
    ];
    let array: Array = ids.iter().map(|id| JsValue::from_str(id)).collect();
    let from_array = topology
        .report(array.clone().into(), JsValue::UNDEFINED)
        .unwrap();
    // The keys of the `Report` interface in the .d.ts (src/lib.rs): keep them in step.
    assert_eq!(
        keys(&from_array),
        "documents,invalid_count,invalid,shards,skew,buckets_used,top_buckets,obese_threshold,\
         obese_bucket_count,obese_buckets,anchored_group_count,anchored_groups"
    );
    assert_eq!(number(&from_array, "documents"), 4.0);
    assert_eq!(number(&from_array, "invalid_count"), 1.0);
    let invalid = Reflect::get_u32(&get(&from_array, "invalid"), 0).unwrap();
    assert_eq!(number(&invalid, "line"), 5.0);
    let shard1 = Reflect::get_u32(&get(&from_array, "shards"), 1).unwrap();
    assert_eq!(number(&shard1, "documents"), 3.0);
    let group = Reflect::get_u32(&get(&from_array, "anchored_groups"), 0).unwrap();
    assert_eq!(string(&group, "anchor"), "users/4");
    assert_eq!(get(&group, "anchor_is_document"), JsValue::TRUE);
    let text = ids.join("\n") + "\n";
    let from_text = topology.report(text.into(), JsValue::NULL).unwrap();
    assert_eq!(json(&from_text), json(&from_array));

    let options = JSON::parse(r#"{"topBuckets": 1, "membersPerGroup": 1}"#).unwrap();
    let small = topology.report(array.into(), options).unwrap();
    assert_eq!(Array::from(&get(&small, "top_buckets")).length(), 1);
    let group = Reflect::get_u32(&get(&small, "anchored_groups"), 0).unwrap();
    assert_eq!(Array::from(&get(&group, "members")).length(), 1);
    assert_eq!(number(&group, "count"), 2.0);
}

#[wasm_bindgen_test]
fn report_rejects_bad_arguments() {
    let topology = Topology::with_shards(3.0).unwrap();
    let message = thrown(topology.report(JsValue::from_f64(3.0), JsValue::UNDEFINED));
    assert!(message.starts_with("ids: "), "{message}");
    let mixed: Array = [JsValue::from_str("a"), JsValue::from_f64(1.0)]
        .into_iter()
        .collect();
    assert!(thrown(topology.report(mixed.into(), JsValue::UNDEFINED)).starts_with("ids: "));
    let typo = JSON::parse(r#"{"topBucket": 1}"#).unwrap();
    let message = thrown(topology.report("a".into(), typo));
    assert!(
        message.starts_with("options: ") && message.contains("topBucket"),
        "{message}"
    );
    let wrong = JSON::parse(r#"{"maxInvalid": "ten"}"#).unwrap();
    assert!(thrown(topology.report("a".into(), wrong)).starts_with("options: "));
}

#[wasm_bindgen_test]
fn to_json_round_trips() {
    let topology = Topology::new(PREFIXED, None).unwrap();
    let json = topology.to_json();
    assert!(json.contains("\"BucketRanges\""), "{json}");
    let again = Topology::new(&json, None).unwrap();
    assert_eq!(again.to_json(), json);
    assert_eq!(
        number(&again.locate("asia/2").unwrap(), "bucket"),
        2831086.0
    );
}

#[wasm_bindgen_test]
fn warnings_are_kind_and_message() {
    let quiet = Topology::with_shards(3.0).unwrap().warnings().unwrap();
    assert_eq!(json(&quiet), "[]");
    let json =
        r#"{"Shards":{"0":{},"1":{}},"BucketRanges":[{"BucketRangeStart":0,"ShardNumber":0}]}"#;
    let warnings = Topology::new(json, None).unwrap().warnings().unwrap();
    let first = Reflect::get_u32(&warnings, 0).unwrap();
    assert_eq!(string(&first, "kind"), "shard_without_buckets");
    assert!(string(&first, "message").starts_with("Shards.1: "));
}

/// The chapter's configuration: 3 shards, `Orders` placed by `Customer` with `Range` R.
fn chapter(range: u32, mutable: bool) -> String {
    format!(
        r#"{{"Shards": {{"0": {{}}, "1": {{}}, "2": {{}}}},
            "ByContent": {{"Orders": {{"Fields": ["Customer"], "Range": {range}, "Mutable": {mutable}}}}}}}"#
    )
}

/// A JS object from its JSON.
fn object(json: &str) -> JsValue {
    JSON::parse(json).unwrap()
}

fn order(id: &str, customer: &str) -> JsValue {
    object(&format!(
        r#"{{"Customer": "{customer}", "@metadata": {{"@id": "{id}", "@collection": "Orders"}}}}"#
    ))
}

#[wasm_bindgen_test]
fn the_design_is_off_without_by_content() {
    let plain = Topology::with_shards(3.0).unwrap();
    assert!(!plain.design_is_on());
    assert_eq!(json(&plain.content_rules().unwrap()), "[]");
    let message = thrown(plain.store(order("orders/1-A$", "customers/1-A")));
    assert!(
        message.starts_with("the configuration has no ByContent section"),
        "{message}"
    );
    assert!(thrown(plain.store_many(&js(""))).contains("no ByContent section"));
    // Without the design, '$@' is an ordinary anchor.
    let location = plain.locate("orders/1-A$@982326").unwrap();
    assert_ne!(number(&location, "bucket"), 982326.0);

    let on = Topology::new(&chapter(1000, false), None).unwrap();
    assert!(on.design_is_on());
    assert_eq!(
        json(&on.content_rules().unwrap()),
        r#"[{"name":"Orders","fields":["Customer"],"range":1000,"mutable":false}]"#
    );
    let bad =
        r#"{"Shards": {"0": {}}, "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 0}}}"#;
    let message = thrown(Topology::new(bad, None));
    assert!(message.starts_with("ByContent.Orders.Range"), "{message}");
}

#[wasm_bindgen_test]
fn store_gives_the_chapters_generated_ids() {
    for (range, id, bucket) in [
        (1000, "orders/1-A$@982326", 982326.0),
        (10000, "orders/1-A$@981326", 981326.0),
        (1, "orders/1-A$@982173", 982173.0),
    ] {
        let topology = Topology::new(&chapter(range, false), None).unwrap();
        let stored = topology
            .store(order("orders/1-A$", "customers/1-A"))
            .unwrap();
        // The keys of the `PlacedId` interface in the .d.ts (src/design.rs).
        assert_eq!(keys(&stored), "id,bucket,shard");
        assert_eq!(string(&stored, "id"), id, "Range {range}");
        assert_eq!(number(&stored, "bucket"), bucket, "Range {range}");
        assert_eq!(number(&stored, "shard"), 2.0);
    }
    // JSON text works as well as an object, and the collection defaults to the ID's prefix.
    let topology = Topology::new(&chapter(1000, false), None).unwrap();
    let text = r#"{"Customer": "customers/1-A", "@metadata": {"@id": "orders/1-A$"}}"#;
    let stored = topology.store(JsValue::from_str(text)).unwrap();
    assert_eq!(string(&stored, "id"), "orders/1-A$@982326");
}

#[wasm_bindgen_test]
fn store_throws_the_cores_message_for_refused_writes() {
    let topology = Topology::new(&chapter(1, false), None).unwrap();
    // The chapter: customers/2-B (bucket 2423) is rejected, customers/741135-C (982173) not.
    let message = thrown(topology.store(order("orders/1-A$@982173", "customers/2-B")));
    assert!(message.starts_with("Rejected:"), "{message}");
    assert!(message.contains("2423"), "{message}");
    let accepted = topology
        .store(order("orders/1-A$@982173", "customers/741135-C"))
        .unwrap();
    assert_eq!(number(&accepted, "bucket"), 982173.0);
    let anchored = topology.store(order("orders/1-A$customers/1-A", "customers/2-B"));
    assert!(thrown(anchored).starts_with("Rejected:"));

    let invoice = object(r#"{"@metadata": {"@id": "invoices/1-A$"}}"#);
    let message = thrown(topology.store(invoice));
    assert!(
        message.contains("IDs ending with '$' need a ByContent rule for collection invoices"),
        "{message}"
    );
    let message = thrown(topology.store(object(r#"{"Customer": "customers/1-A"}"#)));
    assert!(message.starts_with("the document has no ID"), "{message}");
    let message = thrown(topology.store(JsValue::UNDEFINED));
    assert!(message.contains("not undefined"), "{message}");
    let message = thrown(topology.store(JsValue::from_str("{oops")));
    assert!(message.starts_with("not JSON at column 2"), "{message}");
}

#[wasm_bindgen_test]
fn store_sends_dates_as_json_does() {
    let config = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
        "ByContent": {"Orders": {"Fields": ["ticks(OrderedAt)"], "Range": 1}}}"#;
    let topology = Topology::new(config, None).unwrap();
    let text = r#"{"OrderedAt": "2024-01-02T03:04:05.000Z", "@metadata": {"@id": "orders/1-A$"}}"#;
    let from_text = topology.store(JsValue::from_str(text)).unwrap();
    let document = object(r#"{"@metadata": {"@id": "orders/1-A$"}}"#);
    let date = js_sys::Date::new(&JsValue::from_str("2024-01-02T03:04:05Z"));
    Reflect::set(&document, &"OrderedAt".into(), &date).unwrap();
    let from_date = topology.store(document).unwrap();
    assert_eq!(json(&from_date), json(&from_text));
}

#[wasm_bindgen_test]
fn store_many_answers_like_the_cli() {
    let topology = Topology::new(&chapter(1000, false), None).unwrap();
    let text = concat!(
        r#"{"Customer": "customers/1-A", "@metadata": {"@id": "orders/1-A$", "@collection": "Orders"}}"#,
        "\n\n",
        "not json\n",
        r#"{"Customer": "customers/2-B", "@metadata": {"@id": "orders/1-A$@982326"}}"#,
        "\r\n",
    );
    let answers = topology.store_many(&js(text)).unwrap();
    assert_eq!(Array::from(&answers).length(), 3);
    let first = Reflect::get_u32(&answers, 0).unwrap();
    assert_eq!(
        json(&first),
        r#"{"id":"orders/1-A$@982326","bucket":982326,"shard":2}"#
    );
    let second = Reflect::get_u32(&answers, 1).unwrap();
    assert_eq!(keys(&second), "line,error");
    assert_eq!(number(&second, "line"), 3.0);
    assert!(string(&second, "error").starts_with("line 3: not JSON"));
    let third = Reflect::get_u32(&answers, 2).unwrap();
    assert_eq!(keys(&third), "id,line,error");
    assert_eq!(string(&third, "id"), "orders/1-A$@982326");
    assert!(string(&third, "error").starts_with("Rejected:"));
}

#[wasm_bindgen_test]
fn route_follows_the_content_rule() {
    let topology = Topology::new(&chapter(1000, false), None).unwrap();
    let route = topology
        .route("from Orders where Customer = 'customers/1-A'")
        .unwrap();
    // The keys of the `Route` interface in the .d.ts (src/design.rs).
    assert_eq!(
        keys(&route),
        "shards,all_shards,buckets,reason,fetched,warnings"
    );
    assert_eq!(json(&get(&route, "shards")), "[2]");
    assert_eq!(get(&route, "all_shards"), JsValue::FALSE);
    assert_eq!(json(&get(&route, "buckets")), "[[982000,983000]]");
    assert!(get(&route, "fetched").is_null());

    let paged = topology
        .route("from Orders where Total > 100 limit 10 offset 5000")
        .unwrap();
    assert_eq!(json(&get(&paged, "shards")), "[0,1,2]");
    assert_eq!(get(&paged, "all_shards"), JsValue::TRUE);
    assert_eq!(number(&paged, "fetched"), 15030.0);
    let warning = Reflect::get_u32(&get(&paged, "warnings"), 0).unwrap();
    assert!(warning.as_string().unwrap().starts_with("Deep paging"));

    // Without the design only id() narrows a query.
    let plain = Topology::with_shards(3.0).unwrap();
    let route = plain
        .route("from Orders where id() = 'customers/1-A'")
        .unwrap();
    assert_eq!(json(&get(&route, "shards")), "[2]");
    let route = plain
        .route("from Orders where Customer = 'customers/1-A'")
        .unwrap();
    assert!(string(&route, "reason").contains("no ByContent section"));
}

#[wasm_bindgen_test]
fn route_throws_the_parsers_message_with_its_position() {
    let topology = Topology::new(&chapter(1000, false), None).unwrap();
    for rql in [
        "from Orders where",
        "from Orders\nwhere Customer = 'customers/1-A",
        "select * from Orders",
    ] {
        let message = thrown(topology.route(rql));
        let core = ravenshard_design::rql::parse(rql).unwrap_err().to_string();
        assert_eq!(message, core);
        assert!(message.contains("line "), "{message}");
        assert!(message.contains("column "), "{message}");
    }
    assert!(thrown(topology.route("from Orders\nwhere Customer = 'x")).contains("line 2"));
}

#[wasm_bindgen_test]
fn check_transaction_verdicts() {
    let topology = Topology::new(&chapter(1000, false), None).unwrap();
    let check = |ids: &[&str]| {
        let array: Array = ids.iter().map(|id| JsValue::from_str(id)).collect();
        topology.check_transaction(array.into()).unwrap()
    };
    let one_bucket = check(&["customers/1-A", "orders/1-A$customers/1-A"]);
    // The keys of the `TransactionCheck` interface in the .d.ts (src/design.rs).
    assert_eq!(
        keys(&one_bucket),
        "verdict,message,documents,invalid,buckets,shards"
    );
    assert_eq!(string(&one_bucket, "verdict"), "one_bucket");
    assert_eq!(json(&get(&one_bucket, "buckets")), "[982173]");
    assert_eq!(
        string(&check(&["customers/6-A", "orders/1-A"]), "verdict"),
        "one_shard"
    );
    assert_eq!(
        string(&check(&["customers/1-A", "orders/1-A"]), "verdict"),
        "several_shards"
    );
    // '$@' pins the bucket when the design is on; an ID still ending in '$' has none yet.
    let pinned = check(&["customers/1-A", "orders/1-A$@982173", "orders/2-A$"]);
    assert_eq!(string(&pinned, "verdict"), "one_bucket");
    let invalid = Reflect::get_u32(&get(&pinned, "invalid"), 0).unwrap();
    assert_eq!(string(&invalid, "id"), "orders/2-A$");
    assert!(string(&invalid, "error").contains("is not a final ID"));
    assert_eq!(string(&check(&[]), "verdict"), "no_documents");
    let message = thrown(topology.check_transaction(JsValue::from_str("customers/1-A")));
    assert!(message.starts_with("ids: "), "{message}");
}

#[wasm_bindgen_test]
fn check_load_suggests_an_anchor() {
    let topology = Topology::with_shards(3.0).unwrap();
    let check = topology
        .check_load("employees/1-A", "employees/2-A")
        .unwrap();
    // The keys of the `LoadCheck` interface in the .d.ts (src/design.rs).
    assert_eq!(
        keys(&check),
        "document,related,same_bucket,same_shard,message,suggestion,notes"
    );
    assert_eq!(get(&check, "same_bucket"), JsValue::FALSE);
    let suggestion = get(&check, "suggestion");
    assert_eq!(string(&suggestion, "id"), "employees/1-A$employees/2-A");
    assert_eq!(
        number(&suggestion, "bucket"),
        number(&get(&check, "related"), "bucket")
    );
    let same = topology
        .check_load("orders/1-A$customers/1-A", "customers/1-A")
        .unwrap();
    assert_eq!(get(&same, "same_bucket"), JsValue::TRUE);
    assert!(get(&same, "suggestion").is_null());
    assert_eq!(
        thrown(topology.check_load("", "customers/1-A")),
        format!("'': {}", ravenshard::IdError::Empty)
    );
}

#[wasm_bindgen_test]
fn pinned_ids_locate_only_with_the_design() {
    let topology = Topology::new(&chapter(1000, false), None).unwrap();
    let location = topology.locate("orders/1-A$@982326").unwrap();
    assert_eq!(
        json(&location),
        r#"{"bucket":982326,"shard":2,"prefix":null,"fragment":"db$2","nodes":[]}"#
    );
    let message = thrown(topology.locate("orders/1-A$@1048576"));
    assert!(
        message.contains("'$@' must be followed by a bucket number"),
        "{message}"
    );
    // Plain IDs keep the core's answers and messages.
    assert_eq!(
        number(&topology.locate("customers/1-A").unwrap(), "bucket"),
        982173.0
    );
    assert_eq!(
        thrown(topology.locate("")),
        ravenshard::IdError::Empty.to_string()
    );
    let text = js("orders/1-A$@5\ncustomers/1-A\norders/1-A$@982326\n");
    assert_eq!(
        topology.buckets_for(&text).unwrap().to_vec(),
        [5, 982173, 982326]
    );
    assert_eq!(topology.shards_for(&text).unwrap().to_vec(), [0, 2, 2]);
    let message = thrown(topology.buckets_for(&js("a\norders/1-A$@x")));
    assert!(
        message.starts_with("line 2: 'orders/1-A$@x': '$@'"),
        "{message}"
    );
    assert!(
        thrown(topology.shards_for(&js("\n"))).starts_with("line 1: Document ID cannot be empty")
    );
}

#[wasm_bindgen_test]
fn config_diff_safe_and_needs_attention() {
    let (r1, r1000, r1500) = (
        chapter(1, false),
        chapter(1000, false),
        chapter(1500, false),
    );
    let ids = JsValue::from_str("orders/1-A$@982173\t120\tOrders\norders/2-A$customers/1-A\n");
    let safe = config_diff(&r1, &r1000, ids).unwrap();
    // The keys of the `ConfigDiff` interface in the .d.ts (src/design.rs).
    assert_eq!(
        keys(&safe),
        "verdict,rules,notes,documents,valid_before,invalidated,unchecked,examples"
    );
    assert_eq!(string(&safe, "verdict"), "safe");
    let rule = Reflect::get_u32(&get(&safe, "rules"), 0).unwrap();
    assert_eq!(string(&rule, "status"), "safe");
    assert_eq!(number(&safe, "documents"), 2.0);

    let ndjson = JsValue::from_str(
        "\n{\"Customer\": \"customers/1-A\", \"@metadata\": {\"@id\": \"orders/9$@982999\"}}\n",
    );
    let attention = config_diff(&r1000, &r1500, ndjson).unwrap();
    assert_eq!(string(&attention, "verdict"), "needs_attention");
    let rule = Reflect::get_u32(&get(&attention, "rules"), 0).unwrap();
    assert_eq!(string(&rule, "status"), "needs_mutable_first");
    assert_eq!(number(&attention, "invalidated"), 1.0);
    let example = Reflect::get_u32(&get(&attention, "examples"), 0).unwrap();
    assert_eq!(string(&example, "id"), "orders/9$@982999");

    // The same document as an object gives the same answer.
    let array = object(
        r#"[{"id": "orders/9$@982999", "collection": "Orders", "body": {"Customer": "customers/1-A"}}]"#,
    );
    let from_array = config_diff(&r1000, &r1500, array).unwrap();
    assert_eq!(json(&from_array), json(&attention));

    let turned_off = config_diff(&chapter(1000, true), &r1000, JsValue::UNDEFINED).unwrap();
    let rule = Reflect::get_u32(&get(&turned_off, "rules"), 0).unwrap();
    assert_eq!(string(&rule, "status"), "mutable_turned_off");
    assert!(string(&rule, "warning").contains("the operator must have migrated them first"));
    // No warning, no key.
    let unchanged = config_diff(&r1000, &r1000, JsValue::NULL).unwrap();
    let rule = Reflect::get_u32(&get(&unchanged, "rules"), 0).unwrap();
    assert!(get(&rule, "warning").is_undefined());
}

#[wasm_bindgen_test]
fn config_diff_names_what_it_cannot_read() {
    let r1 = chapter(1, false);
    let message = thrown(config_diff(&r1, r#"{"Shards": "#, JsValue::UNDEFINED));
    assert!(message.starts_with("newConfigJson: "), "{message}");
    let bad_rule = r#"{"Shards": {"0": {}}, "ByContent": {"Orders": {"Fields": []}}}"#;
    let message = thrown(config_diff(bad_rule, &r1, JsValue::UNDEFINED));
    assert!(
        message.starts_with("oldConfigJson: ByContent.Orders.Fields"),
        "{message}"
    );
    let bad_line = JsValue::from_str("{\"@metadata\": {\"@id\": \"a\"}}\n{oops\n");
    let message = thrown(config_diff(&r1, &r1, bad_line));
    assert!(
        message.starts_with("documents: line 2: not JSON"),
        "{message}"
    );
    let typo = object(r#"[{"id": "a"}, {"id": "b", "Body": {}}]"#);
    let message = thrown(config_diff(&r1, &r1, typo));
    assert!(
        message.starts_with("documents[1]: unknown field `Body`"),
        "{message}"
    );
    let message = thrown(config_diff(&r1, &r1, JsValue::from_f64(3.0)));
    assert!(message.starts_with("documents: "), "{message}");
}

/// Buckets per block: a prefix's block starts at a multiple of it.
const B: u32 = ravenshard::NUMBER_OF_BUCKETS;

/// `count` documents `orders/<i>-A`, each with a size of 100 + i % 50 bytes.
fn orders_text(count: usize) -> String {
    (0..count)
        .map(|i| format!("orders/{i}-A\t{}\n", 100 + i % 50))
        .collect()
}

/// Shards 0 to `shards - 1` with these `(BucketRangeStart, ShardNumber)` ranges.
fn ranges(shards: u32, ranges: &[(u32, u32)]) -> Topology {
    let shards: Vec<String> = (0..shards).map(|s| format!(r#""{s}": {{}}"#)).collect();
    let ranges: Vec<String> = ranges
        .iter()
        .map(|(start, shard)| format!(r#"{{"BucketRangeStart": {start}, "ShardNumber": {shard}}}"#))
        .collect();
    let json = format!(
        r#"{{"Shards": {{{}}}, "BucketRanges": [{}]}}"#,
        shards.join(", "),
        ranges.join(", ")
    );
    Topology::new(&json, None).unwrap()
}

/// Element `i` of a JS array.
fn at(array: &JsValue, i: u32) -> JsValue {
    Reflect::get_u32(array, i).unwrap()
}

/// The `shard` entry of a plan's `per_shard`.
fn shard_change(plan: &JsValue, shard: u32) -> JsValue {
    Array::from(&get(plan, "per_shard"))
        .iter()
        .find(|c| number(c, "shard") == f64::from(shard))
        .unwrap_or_else(|| panic!("no shard {shard} in per_shard"))
}

/// The `kind` of every note of a plan.
fn note_kinds(plan: &JsValue) -> Vec<String> {
    Array::from(&get(plan, "notes"))
        .iter()
        .map(|n| string(&n, "kind"))
        .collect()
}

#[wasm_bindgen_test]
fn a_boundary_moved_is_one_move_with_its_documents() {
    let current = ranges(2, &[(0, 0), (B / 2, 1)]);
    let target = ranges(2, &[(0, 0), (B / 2 + 1000, 1)]);
    let text = orders_text(20_000);
    let workload = Workload::new(&current, text.clone().into()).unwrap();
    let moved: Vec<u64> = ravenshard::bulk::lines(&text)
        .filter(|id| (B / 2..B / 2 + 1000).contains(&ravenshard::bucket_for(id).unwrap()))
        .map(|id| 100 + id[7..id.len() - 2].parse::<u64>().unwrap() % 50)
        .collect();
    assert!(!moved.is_empty());
    let options = object(r#"{"by": "bytes", "throughput": "0.001MB/s"}"#);
    let plan = workload.plan(&target, options).unwrap();
    // The keys of the `Plan` interface in the .d.ts (src/reshard.rs): keep them in step.
    assert_eq!(
        keys(&plan),
        "moves,buckets_moved,docs_moved,bytes_moved,share_moved,measure,per_shard,\
         skew_before,skew_after,docs,bytes,estimate_seconds,estimate,notes,target"
    );
    assert_eq!(Array::from(&get(&plan, "moves")).length(), 1);
    let bytes: u64 = moved.iter().sum();
    let docs = moved.len();
    assert_eq!(
        json(&at(&get(&plan, "moves"), 0)),
        format!(
            r#"{{"from_bucket":{},"to_bucket":{},"from_shard":1,"to_shard":0,"docs":{docs},"bytes":{bytes}}}"#,
            B / 2,
            B / 2 + 999
        )
    );
    assert_eq!(number(&plan, "buckets_moved"), 1000.0);
    assert_eq!(number(&plan, "docs_moved"), docs as f64);
    assert_eq!(string(&plan, "measure"), "bytes");
    // The data at 1,000 B/s plus 1,000 bucket migrations at 40 ms.
    let estimate = get(&plan, "estimate");
    assert_eq!(number(&estimate, "data_seconds"), bytes as f64 / 1000.0);
    assert_eq!(number(&estimate, "buckets"), 1000.0);
    assert_eq!(number(&estimate, "bucket_cost_seconds"), 0.04);
    assert_eq!(
        number(&plan, "estimate_seconds"),
        bytes as f64 / 1000.0 + number(&estimate, "buckets_seconds")
    );
    let shard0 = shard_change(&plan, 0);
    assert_eq!(
        number(&shard0, "docs_after"),
        number(&shard0, "docs_before") + docs as f64
    );
    assert_eq!(
        number(&shard0, "bytes_after"),
        number(&shard0, "bytes_before") + bytes as f64
    );
    let share = number(&plan, "share_moved");
    assert!((share - bytes as f64 / number(&plan, "bytes")).abs() < 1e-12);
    let target_json = get(&plan, "target");
    assert_eq!(
        number(
            &at(&get(&target_json, "BucketRanges"), 1),
            "BucketRangeStart"
        ),
        f64::from(B / 2 + 1000)
    );
    // The same target again: nothing moves.
    let same = workload.plan(&current, JsValue::UNDEFINED).unwrap();
    assert_eq!(note_kinds(&same), ["nothing_moves"]);
    assert!(get(&same, "estimate_seconds").is_null());
}

#[wasm_bindgen_test]
fn a_workload_counts_its_documents_and_lists_the_lines_left_out() {
    let topology = Topology::with_shards(3.0).unwrap();
    let long = "x".repeat(513);
    let text = format!("orders/1-A\t120\r\n\n  \nbad\tten\n{long}\ncustomers/1-A\n");
    let summary = Workload::new(&topology, text.into())
        .unwrap()
        .summary()
        .unwrap();
    assert_eq!(
        keys(&summary),
        "documents,bytes,without_size,buckets_used,invalid_count,invalid,per_range,statistics_notes"
    );
    // A workload of documents has no figures per range and no statistics notes.
    assert_eq!(number(&summary, "per_range"), 0.0);
    assert_eq!(number(&summary, "documents"), 2.0);
    assert_eq!(number(&summary, "bytes"), 120.0);
    assert_eq!(number(&summary, "without_size"), 1.0);
    assert_eq!(number(&summary, "buckets_used"), 2.0);
    assert_eq!(number(&summary, "invalid_count"), 2.0);
    let invalid = get(&summary, "invalid");
    assert_eq!(
        json(&at(&invalid, 0)),
        r#"{"line":4,"id":"bad","error":"the size 'ten' is not a whole number of bytes"}"#
    );
    assert_eq!(number(&at(&invalid, 1), "line"), 5.0);
    assert!(string(&at(&invalid, 1), "error").starts_with("Document ID cannot exceed 512 bytes"));
    let empty = Workload::new(&topology, "".into())
        .unwrap()
        .summary()
        .unwrap();
    assert_eq!(number(&empty, "documents"), 0.0);
}

#[wasm_bindgen_test]
fn adding_a_shard_then_balancing_gives_it_a_quarter() {
    let current = Topology::with_shards(3.0).unwrap();
    let grown = current.add_shard(object(r#"["D"]"#)).unwrap();
    assert_eq!(
        json(&get(&get(&object(&grown.to_json()), "Shards"), "3")),
        r#"{"Members":["D"]}"#
    );
    assert_eq!(number(&grown.locate("orders/1-A").unwrap(), "shard"), 0.0);
    let workload = Workload::new(&current, orders_text(3000).into()).unwrap();
    let plan = workload.plan(&grown, JsValue::UNDEFINED).unwrap();
    assert_eq!(Array::from(&get(&plan, "moves")).length(), 0);
    assert_eq!(note_kinds(&plan), ["shard_added_empty", "nothing_moves"]);
    assert!(number(&plan, "skew_after") > number(&plan, "skew_before"));

    let on_grown = workload.with_topology(&grown).unwrap();
    let balanced = on_grown.balance(object(r#"{"threshold": 0}"#)).unwrap();
    // The keys of the `BalancePlan` interface in the .d.ts (src/reshard.rs).
    assert_eq!(
        keys(&balanced),
        "moves,buckets_moved,docs_moved,bytes_moved,share_moved,measure,per_shard,\
         skew_before,skew_after,docs,bytes,estimate_seconds,estimate,notes,target,obstacles,\
         options,ranges_added,migrations,objectives"
    );
    let share = number(&balanced, "share_moved");
    assert!((share - 0.25).abs() < 0.01, "{share}");
    assert!(number(&balanced, "skew_after") < 1.01);
    let new_shard = number(&shard_change(&balanced, 3), "docs_after");
    assert!((749.0..=751.0).contains(&new_shard), "{new_shard}");
    assert_eq!(
        json(&get(&balanced, "options")),
        r#"{"by":"docs","weights":{},"threshold":0,"max_buckets":null,"throughput":null,"bucket_cost":0.04,"objective":"contiguous"}"#
    );
    // The balanced target, read back, plans to the same moves.
    let target = Topology::new(&json(&get(&balanced, "target")), None).unwrap();
    let again = on_grown.plan(&target, JsValue::UNDEFINED).unwrap();
    assert_eq!(json(&get(&again, "moves")), json(&get(&balanced, "moves")));
    // Weights as an object or as the CLI's text give the same balance.
    let object_weights = on_grown
        .balance(object(
            r#"{"weights": {"3": 2}, "threshold": 0, "maxBuckets": 1000000}"#,
        ))
        .unwrap();
    let text_weights = on_grown
        .balance(object(
            r#"{"weights": "3=2", "threshold": 0, "maxBuckets": 1000000}"#,
        ))
        .unwrap();
    assert_eq!(json(&object_weights), json(&text_weights));
    let weighted = number(&shard_change(&object_weights, 3), "docs_after");
    assert!((1180.0..=1220.0).contains(&weighted), "{weighted}");
    assert_eq!(
        json(&get(&get(&object_weights, "options"), "weights")),
        r#"{"3":2}"#
    );
}

#[wasm_bindgen_test]
fn shard_operations_follow_ravendb() {
    let current = Topology::with_shards(3.0).unwrap();
    let message = thrown(current.remove_shard(1.0));
    assert_eq!(
        message,
        "Database db cannot be deleted because it is the last copy of shard 1 and it still \
         contains buckets (349525). Before removing shard 1, first you need to migrate all its \
         buckets to another shard: drain it and apply the plan."
    );
    assert_eq!(
        thrown(current.remove_shard(9.0)),
        "There is no shard 9 in the topology. Pick one of the configured shards."
    );
    let workload = Workload::new(&current, orders_text(5000).into()).unwrap();
    let drained = workload.drain_shard(1.0, JsValue::UNDEFINED).unwrap();
    let plan = workload.plan(&drained, JsValue::UNDEFINED).unwrap();
    let shard1 = shard_change(&plan, 1);
    assert_eq!(number(&shard1, "docs_after"), 0.0);
    assert_eq!(number(&shard1, "buckets_after"), 0.0);
    let removed = drained.remove_shard(1.0).unwrap();
    assert!(
        !removed.to_json().contains(r#""1":"#),
        "{}",
        removed.to_json()
    );
    let by_bytes = workload.drain_shard(1.0, "bytes".into()).unwrap();
    assert!(by_bytes.remove_shard(1.0).is_ok());
    let added = current.add_shard(JsValue::UNDEFINED).unwrap();
    assert!(
        added.remove_shard(3.0).is_ok(),
        "an added shard owns no buckets"
    );
}

#[wasm_bindgen_test]
fn prefix_operations_follow_ravendb() {
    let current = Topology::with_shards(2.0).unwrap();
    let workload = Workload::new(&current, "orders/1\neu/orders/7\t300\n".into()).unwrap();
    let ravendb = "Cannot add prefix 'EU/' to ShardingConfiguration.Prefixed. There are existing \
                   documents in database 'db' that start with 'EU/'. In order to define sharding \
                   by prefix, you cannot have any documents in the database that starts with \
                   this prefix. (1 in the workspace, the first is 'eu/orders/7'.)";
    assert_eq!(thrown(workload.add_prefix("EU/", object("[1]"))), ravendb);
    // A target made by hand is checked against the documents the same way.
    let by_hand = Topology::new(
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "EU/", "Shards": [1]}]}"#,
        None,
    )
    .unwrap();
    assert_eq!(thrown(workload.plan(&by_hand, JsValue::UNDEFINED)), ravendb);
    assert_eq!(thrown(workload.migration_steps(&by_hand)), ravendb);
    assert_eq!(thrown(workload.with_topology(&by_hand)), ravendb);

    let with_asia = workload.add_prefix("asia/", object("[1]")).unwrap();
    assert_eq!(
        number(&with_asia.locate("asia/1").unwrap(), "shard"),
        1.0,
        "the new prefix's block is on its shard"
    );
    let plan = workload.plan(&with_asia, JsValue::UNDEFINED).unwrap();
    assert_eq!(note_kinds(&plan), ["prefix_added", "nothing_moves"]);
    // The documents keep their buckets under the new prefix: the workload can move to it.
    let on_asia = workload.with_topology(&with_asia).unwrap();
    let wider = on_asia
        .set_prefix_shards("ASIA/", object("[0, 1]"))
        .unwrap();
    let prefixed = get(&object(&wider.to_json()), "Prefixed");
    assert_eq!(json(&get(&at(&prefixed, 0), "Shards")), "[0,1]");
    assert_eq!(
        thrown(on_asia.set_prefix_shards("us/", object("[0]"))),
        "There is no prefix 'us/' in ShardingConfiguration.Prefixed. Check its spelling."
    );
    let without = on_asia.remove_prefix("ASIA/").unwrap();
    assert!(!without.to_json().contains("asia/"));
    let asia_documents = Workload::new(&with_asia, "asia/1\n".into()).unwrap();
    let message = thrown(asia_documents.remove_prefix("asia/"));
    assert!(
        message.starts_with(
            "Cannot remove prefix 'asia/' from ShardingConfiguration.Prefixed. There are \
             existing documents in database 'db' that start with 'asia/'."
        ),
        "{message}"
    );
    let message = thrown(workload.add_prefix("asia", object("[1]")));
    assert!(message.contains("must end with '/' or '-'"), "{message}");
}

#[wasm_bindgen_test]
fn a_migration_step_is_ravendbs_bucket_migrations() {
    // orders/1-A is in bucket 151326: moving the boundary two buckets up moves it.
    let config = |start: u32| {
        format!(
            r#"{{"DatabaseName": "Orders", "Sharding": {{"Shards": {{"0": {{"Members": ["A", "B"]}}, "1": {{"Members": ["C"]}}}},
                "BucketRanges": [{{"BucketRangeStart": 0, "ShardNumber": 0}}, {{"BucketRangeStart": {start}, "ShardNumber": 1}}]}}}}"#
        )
    };
    let current = Topology::new(&config(151326), None).unwrap();
    let target = Topology::new(&config(151328), None).unwrap();
    let workload = Workload::new(&current, "orders/1-A\t120\ncustomers/1-A\n".into()).unwrap();
    assert_eq!(workload.migration_steps(&target).unwrap(), 8.0);
    let moving = workload.migration_step(&target, 0.0).unwrap();
    assert_eq!(
        keys(&moving),
        "step,steps,buckets_done,bucket,phase,description,source_shard,destination_shard,docs,\
         bytes,reads,writes,configuration"
    );
    assert_eq!(number(&moving, "bucket"), 151326.0);
    assert_eq!(string(&moving, "phase"), "Moving");
    assert_eq!(
        (number(&moving, "docs"), number(&moving, "bytes")),
        (1.0, 120.0)
    );
    assert_eq!(
        json(&get(&moving, "writes")),
        r#"{"shard":1,"fragment":"Orders$1","nodes":["C"]}"#
    );
    let configuration = get(&moving, "configuration");
    assert_eq!(
        json(&get(&configuration, "BucketMigrations")),
        r#"{"151326":{"Bucket":151326,"ConfirmedDestinations":[],"ConfirmedSourceCleanup":[],"DestinationShard":0,"SourceShard":1,"Status":"Moving"}}"#
    );
    assert_eq!(
        json(&get(&configuration, "BucketRanges")),
        r#"[{"BucketRangeStart":0,"ShardNumber":0},{"BucketRangeStart":151326,"ShardNumber":1}]"#
    );
    let transferred = workload.migration_step(&target, 2.0).unwrap();
    assert_eq!(string(&transferred, "phase"), "OwnershipTransferred");
    assert_eq!(number(&get(&transferred, "writes"), "shard"), 0.0);
    let configuration = get(&transferred, "configuration");
    assert_eq!(
        json(&get(
            &get(&get(&configuration, "BucketMigrations"), "151326"),
            "ConfirmedDestinations"
        )),
        r#"["A","B"]"#
    );
    assert_eq!(
        number(
            &at(&get(&configuration, "BucketRanges"), 1),
            "BucketRangeStart"
        ),
        151327.0
    );
    let cleaned = workload.migration_step(&target, 3.0).unwrap();
    assert_eq!(
        json(&get(&get(&cleaned, "configuration"), "BucketMigrations")),
        "{}"
    );
    let last = workload.migration_step(&target, 7.0).unwrap();
    assert_eq!(
        (number(&last, "bucket"), number(&last, "buckets_done")),
        (151327.0, 2.0)
    );
    assert_eq!(
        thrown(workload.migration_step(&target, 8.0)),
        "There is no step 8: the walk-through has steps 0 to 7."
    );
    for bad in [-1.0, 0.5, f64::NAN, f64::INFINITY] {
        let message = thrown(workload.migration_step(&target, bad));
        assert!(
            message.starts_with("the step must be a whole number"),
            "{message}"
        );
    }
    assert_eq!(
        thrown(workload.migration_step(&current, 0.0)),
        "There is no step 0: the plan moves no bucket, so there is nothing to walk through."
    );
}

#[wasm_bindgen_test]
fn bad_reshard_input_is_a_clear_error() {
    let current = Topology::with_shards(2.0).unwrap();
    let workload = Workload::new(&current, orders_text(100).into()).unwrap();
    let plan = |options: &str| thrown(workload.plan(&current, object(options)));
    let balance = |options: &str| thrown(workload.balance(object(options)));
    assert_eq!(
        plan(r#"{"by": "pages"}"#),
        "options: unknown variant `pages`, expected `docs` or `bytes`"
    );
    assert_eq!(
        plan(r#"{"throughput": "fast"}"#),
        "options: 'fast' is not a throughput. Write a positive number with a unit: 50MB/s, \
         800KB/s, 1GB/s or 20000docs/s."
    );
    assert!(plan(r#"{"throughput": 50}"#).starts_with("options: invalid type"));
    assert_eq!(
        plan(r#"{"maxBuckets": 3}"#),
        "options: unknown key `maxBuckets`; the keys are by, throughput and bucketCost"
    );
    assert_eq!(
        balance(r#"{"thresold": 5}"#),
        "options: unknown key `thresold`; the keys are by, weights, threshold, maxBuckets, \
         throughput, bucketCost and objective"
    );
    assert!(balance(r#"{"threshold": 120}"#).starts_with("The threshold is 120%"));
    assert!(balance(r#"{"threshold": "5"}"#).starts_with("options: invalid type"));
    assert!(balance(r#"{"maxBuckets": -1}"#).starts_with("options: "));
    assert!(balance(r#"{"maxBuckets": 1.5}"#).starts_with("options: "));
    assert_eq!(
        balance(r#"{"weights": "1:2"}"#),
        "options: '1:2' is not a weight: write shard=weight pairs separated by commas, such as \
         0=1,1=2."
    );
    assert_eq!(
        balance(r#"{"weights": {"x": 1}}"#),
        "options: weights: 'x' is not a shard number; the keys are shard numbers"
    );
    assert!(balance(r#"{"weights": {"0": "2"}}"#).starts_with("options: invalid type"));
    assert!(balance(r#"{"weights": [1, 2]}"#).starts_with("options: invalid type"));
    assert_eq!(
        balance(r#"{"weights": {"7": 1}}"#),
        "A weight is given for shard 7, which the topology does not have. Weight only \
         configured shards."
    );
    assert!(balance(r#"{"weights": {"0": -1}}"#).starts_with("The weight of shard 0 is -1"));
    let no_sizes = Workload::new(&current, "a\nb\n".into()).unwrap();
    assert!(thrown(no_sizes.balance(object(r#"{"by": "bytes"}"#)))
        .starts_with("No document has a size"));
    assert!(thrown(workload.balance(JsValue::from_str("docs"))).starts_with("options: "));
    assert!(thrown(workload.plan(&current, JsValue::from_f64(1.0))).starts_with("options: "));

    assert_eq!(
        thrown(workload.drain_shard(7.0, JsValue::UNDEFINED)),
        "There is no shard 7 in the topology. Pick one of the configured shards."
    );
    assert!(thrown(workload.drain_shard(0.0, "pages".into())).starts_with("by: unknown variant"));
    for bad in [-1.0, 1.5, f64::NAN, 4294967296.0] {
        let message = thrown(current.remove_shard(bad));
        assert!(
            message.starts_with("a shard must be a whole number"),
            "{message}"
        );
        assert!(thrown(workload.drain_shard(bad, JsValue::UNDEFINED)).starts_with("a shard must"));
    }
    assert!(thrown(workload.add_prefix("eu/", "0".into())).starts_with("shards: "));
    assert!(thrown(workload.add_prefix("eu/", object("[-1]"))).starts_with("shards: "));
    assert!(thrown(workload.add_prefix("eu/", object("[9]"))).contains("there's no shard '9'"));
    assert!(thrown(workload.add_prefix("eu/", object("[]"))).contains("Shards cannot be empty"));
    assert!(thrown(current.add_shard(object(r#"["A", 1]"#))).starts_with("members: "));
    assert!(thrown(current.add_shard("A".into())).starts_with("members: "));
    let message = thrown(Workload::new(&current, JsValue::from_f64(3.0)));
    assert!(message.starts_with("documents: "), "{message}");
    let message = thrown(Workload::new(&current, object(r#"["orders/1"]"#)));
    assert!(message.starts_with("documents: "), "{message}");
    // A prefix never changes block, and the design must be on for both or neither.
    let eu = |start: u32| {
        Topology::new(
            &format!(
                r#"{{"Shards": {{"0": {{}}, "1": {{}}}},
                    "BucketRanges": [{{"BucketRangeStart": 0, "ShardNumber": 0}}, {{"BucketRangeStart": {start}, "ShardNumber": 1}}],
                    "Prefixed": [{{"Prefix": "eu/", "Shards": [1], "BucketRangeStart": {start}}}]}}"#
            ),
            None,
        )
        .unwrap()
    };
    let on_eu = Workload::new(&eu(B), "eu/1\n".into()).unwrap();
    let message = thrown(on_eu.plan(&eu(2 * B), JsValue::UNDEFINED));
    assert!(
        message.starts_with("Prefix 'eu/' starts at bucket 1048576 now"),
        "{message}"
    );
    assert_eq!(thrown(on_eu.with_topology(&eu(2 * B))), message);
    let designed = Topology::new(&chapter(1000, false), None).unwrap();
    let message = thrown(
        Workload::new(&Topology::with_shards(3.0).unwrap(), "".into())
            .unwrap()
            .with_topology(&designed),
    );
    assert!(message.contains("ByContent"), "{message}");
}

#[wasm_bindgen_test]
fn a_workload_under_the_design_places_pinned_ids() {
    let designed = Topology::new(&chapter(1000, false), None).unwrap();
    let workload =
        Workload::new(&designed, "orders/1-A$@982326\t10\norders/2-A$@x\n".into()).unwrap();
    let summary = workload.summary().unwrap();
    assert_eq!(number(&summary, "documents"), 1.0);
    assert_eq!(number(&summary, "invalid_count"), 1.0);
    let plan = workload.plan(&designed, JsValue::UNDEFINED).unwrap();
    assert_eq!(
        number(&shard_change(&plan, 2), "docs_before"),
        1.0,
        "bucket 982326 is on shard 2"
    );
    let grown = designed.add_shard(JsValue::UNDEFINED).unwrap();
    assert!(
        grown.design_is_on(),
        "the topology with a shard added keeps ByContent"
    );
    assert!(workload.topology().design_is_on());
    let on_grown = workload.with_topology(&grown).unwrap();
    assert_eq!(number(&on_grown.summary().unwrap(), "documents"), 1.0);
}

/// An NDJSON export: 300 companies, 3000 orders naming them in `Company`.
fn advise_export() -> String {
    let mut text = String::new();
    for c in 1..=300 {
        text += &format!(
            "{{\"@metadata\": {{\"@id\": \"companies/{c}-A\", \"@collection\": \"Companies\"}}}}\n"
        );
    }
    for o in 1..=3000 {
        text += &format!(
            "{{\"Company\": \"companies/{}-A\", \"@metadata\": {{\"@id\": \"orders/{o}-A\", \"@collection\": \"Orders\"}}}}\n",
            o % 300 + 1
        );
    }
    text
}

#[wasm_bindgen_test]
fn advise_answers_the_libraries_object_from_text_or_bytes() {
    let text = advise_export();
    let options = object(r#"{"shards": 3, "loads": "Orders.Company"}"#);
    let from_text = advise(text.as_str().into(), options.clone()).unwrap();
    let bytes = js_sys::Uint8Array::from(text.as_bytes());
    let from_bytes = advise(bytes.into(), options).unwrap();
    assert_eq!(json(&from_text), json(&from_bytes));
    assert_eq!(number(&from_text, "documents"), 3300.0);
    let orders = Array::from(&get(&from_text, "collections")).get(1);
    assert_eq!(string(&orders, "collection"), "Orders");
    let recommended = get(&orders, "recommended");
    assert_eq!(string(&recommended, "strategy"), "anchor");
    assert_eq!(string(&recommended, "field"), "Company");
    // The library's own answer, key for key.
    let topology = ravenshard::Topology::with_shards(3).unwrap();
    let workload = ravenshard_advise::Workload::parse("", "Orders.Company").unwrap();
    let expected = ravenshard_advise::advise(text.as_bytes(), None, &topology, &workload).unwrap();
    let expected = JSON::parse(&serde_json::to_string(&expected).unwrap()).unwrap();
    assert_eq!(json(&from_text), json(&expected));
}

#[wasm_bindgen_test]
fn advise_routes_the_workload_and_refuses_bad_options() {
    let text = advise_export();
    let options = object(
        r#"{"config": "{\"Shards\": {\"0\": {}, \"1\": {}, \"2\": {}}}", "queries": "from Orders where Company = 'companies/1-A'"}"#,
    );
    let advice = advise(text.as_str().into(), options).unwrap();
    let orders = Array::from(&get(&advice, "collections")).get(1);
    let candidates = Array::from(&get(&orders, "candidates"));
    assert_eq!(number(&candidates.get(0), "single_shard_queries"), 0.0);
    let content = candidates.get(2);
    assert_eq!(string(&content, "strategy"), "content");
    assert_eq!(number(&content, "single_shard_queries"), 1.0);
    assert_eq!(
        thrown(advise("".into(), JsValue::UNDEFINED)),
        "options: give shards or config"
    );
    assert!(thrown(advise("".into(), object(r#"{"shard": 3}"#)))
        .starts_with("options: unknown key `shard`"));
    assert!(thrown(advise(
        "".into(),
        object(r#"{"shards": 3, "loads": "Orders"}"#)
    ))
    .starts_with("loads, line 1: "));
    assert!(
        thrown(advise(JsValue::from_f64(1.0), object(r#"{"shards": 3}"#))).starts_with("export: ")
    );
}

#[wasm_bindgen_test]
fn a_plan_and_a_balance_give_their_calls_and_script() {
    let current = ranges(2, &[(0, 0), (B / 2, 1)]);
    let target = ranges(2, &[(0, 0), (B / 2 + 1000, 1)]);
    let workload = Workload::new(&current, orders_text(2_000).into()).unwrap();
    let out = workload
        .plan_calls(
            &target,
            object(
                r#"{"database": "Orders", "url": "https://a.example.com", "cert": "admin.pem"}"#,
            ),
            object(r#"{"bucketCost": "10ms"}"#),
        )
        .unwrap();
    assert_eq!(keys(&out), "calls,script");
    let calls = get(&out, "calls");
    let first = at(&get(&calls, "calls"), 0);
    assert_eq!(
        string(&first, "path"),
        format!(
            "/admin/resharding/start?database=Orders&fromBucket={}&toBucket={}&toShard=0",
            B / 2,
            B / 2 + 999
        )
    );
    assert_eq!(
        string(&calls, "state_endpoint"),
        "/operations/state?id={OperationId}"
    );
    let estimate = get(&calls, "estimate");
    assert!((number(&estimate, "buckets_seconds") - 10.0).abs() < 1e-9);
    let script = get(&out, "script").as_string().unwrap();
    assert!(script.starts_with("#!/bin/sh\n"));
    assert!(script.contains("CERT='admin.pem'"));
    let bad = workload.plan_calls(
        &target,
        object(r#"{"url": "a.example.com"}"#),
        JsValue::UNDEFINED,
    );
    assert!(bad.is_err());
    let unknown = workload.plan_calls(&target, object(r#"{"host": "a"}"#), JsValue::UNDEFINED);
    assert!(unknown.is_err());
    // A balance, by either objective, with both objectives reported.
    let balanced = workload
        .balance(object(
            r#"{"threshold": 0, "objective": "fewest-migrations"}"#,
        ))
        .unwrap();
    assert_eq!(
        string(&get(&balanced, "options"), "objective"),
        "fewest-migrations"
    );
    let objectives = get(&balanced, "objectives");
    assert_eq!(Array::from(&objectives).length(), 2);
    assert_eq!(string(&at(&objectives, 0), "objective"), "contiguous");
    assert!(number(&at(&objectives, 1), "migrations") <= number(&at(&objectives, 0), "migrations"));
    let out = workload
        .balance_calls(JsValue::UNDEFINED, object(r#"{"threshold": 0}"#))
        .unwrap();
    assert_eq!(string(&get(&out, "calls"), "url"), "http://127.0.0.1:8080");
    assert!(workload
        .balance(object(r#"{"objective": "fast"}"#))
        .is_err());
}
