//! The chapter's content-based design: known answers from the draft, and invariants.

use proptest::prelude::*;
use ravenshard::{bucket_for, Topology, NUMBER_OF_BUCKETS};
use ravenshard_design::content::{
    content_value, pinned_bucket, ranged_bucket, Assignment, ContentDesign, ContentDocument,
    ContentError, Field,
};
use serde_json::{json, Value};

fn topology(by_content: Value) -> Topology {
    let config = json!({"Shards": {"0": {}, "1": {}, "2": {}}, "ByContent": by_content});
    Topology::from_json(&config.to_string()).unwrap()
}

fn design(topology: &Topology) -> ContentDesign {
    ContentDesign::from_topology(topology).unwrap().unwrap()
}

fn orders(range: u32, mutable: bool) -> Topology {
    topology(json!({"Orders": {"Fields": ["Customer"], "Range": range, "Mutable": mutable}}))
}

#[test]
fn the_chapters_numbers() {
    assert_eq!(bucket_for("customers/1-A"), Ok(982173));
    assert_eq!(bucket_for("orders/1-A"), Ok(151326));
    assert_eq!(bucket_for("customers/2-B"), Ok(2423));
    assert_eq!(bucket_for("customers/741135-C"), Ok(982173));
}

#[test]
fn generated_ids_follow_the_customer() {
    let body = json!({"Customer": "customers/1-A"});
    for (range, bucket) in [(1, 982173), (1000, 982326), (10000, 981326)] {
        let t = orders(range, false);
        let stored = design(&t)
            .store(&t, &ContentDocument::new("orders/1-A$").with_body(&body))
            .unwrap();
        assert_eq!(stored.bucket, bucket, "Range {range}");
        assert_eq!(stored.id, format!("orders/1-A$@{bucket}"));
        assert_eq!(stored.shard, 2);
        assert!(matches!(
            stored.assignment,
            Assignment::Generated { own: 151326, .. }
        ));
    }
}

#[test]
fn pinned_ids_are_in_their_bucket_exactly() {
    let t = orders(1, false);
    let d = design(&t);
    let (bucket, shard, how) = d.locate(&t, "orders/1-A$@982173").unwrap();
    assert_eq!((bucket, shard, how), (982173, 2, Assignment::Pinned));
    assert_eq!(d.locate(&t, "x$@0").unwrap().0, 0);
    assert_eq!(d.locate(&t, "x$@1048575").unwrap().0, 1_048_575);
    for bad in [
        "x$@1048576",
        "x$@",
        "x$@-1",
        "x$@1e3",
        "x$@ 5",
        "x$@99999999999",
    ] {
        let e = d.locate(&t, bad).unwrap_err();
        assert!(
            matches!(e, ContentError::BadPinnedBucket { .. }),
            "{bad}: {e}"
        );
        assert!(e.to_string().contains("from 0 to 1048575"), "{e}");
    }
    // `$@` before the last `$` does not pin.
    assert_eq!(pinned_bucket("a$@5$customers/1-A"), None);
    // A leading `$@` is not an anchor (the core's rule: the last `$` after the first char).
    assert_eq!(pinned_bucket("$@5"), None);
    // An ID that starts with a multi-byte character is read the same way.
    assert_eq!(pinned_bucket("é$@5"), Some(Ok(5)));
}

#[test]
fn a_dollar_id_needs_a_rule() {
    let t = orders(1, false);
    let e = design(&t)
        .store(&t, &ContentDocument::new("invoices/1-A$"))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "'invoices/1-A$': IDs ending with '$' need a ByContent rule for collection invoices. \
         Add a rule for invoices, or give the document an ID that does not end with '$'."
    );
    // Rules match collections ignoring case, and @collection wins over the ID.
    let body = json!({"Customer": "customers/1-A"});
    let doc = ContentDocument::new("x/1$")
        .with_body(&body)
        .with_collection("ORDERS");
    assert_eq!(design(&t).store(&t, &doc).unwrap().bucket, 982173);
    let missing = design(&t)
        .store(&t, &ContentDocument::new("orders/2-A$"))
        .unwrap_err();
    assert!(matches!(missing, ContentError::NoBody { .. }));
}

#[test]
fn immutable_rules_reject_a_move_out_of_the_block() {
    let t = orders(1, false);
    let d = design(&t);
    for id in ["orders/1-A$@982173", "orders/1-A$customers/1-A"] {
        let moved = json!({"Customer": "customers/2-B"});
        let e = d
            .store(&t, &ContentDocument::new(id).with_body(&moved))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "Rejected: '{id}' is in bucket 982173, but its Customer 'customers/2-B' has \
                 bucket 2423, so the ByContent rule Orders (Range 1, not Mutable) needs a bucket \
                 from 2423 to 2423. Keep a value whose bucket falls in the document's block, or \
                 set Mutable to true for Orders first."
            )
        );
        let same_bucket = json!({"Customer": "customers/741135-C"});
        assert!(d
            .store(&t, &ContentDocument::new(id).with_body(&same_bucket))
            .is_ok());
    }
    // Mutable: accepted.
    let t = orders(1, true);
    let moved = json!({"Customer": "customers/2-B"});
    let doc = ContentDocument::new("orders/1-A$@982173").with_body(&moved);
    assert_eq!(design(&t).store(&t, &doc).unwrap().bucket, 982173);
}

#[test]
fn a_range_accepts_the_whole_block() {
    let t = orders(1000, false);
    let d = design(&t);
    let body = json!({"Customer": "customers/1-A"});
    assert!(d
        .store(
            &t,
            &ContentDocument::new("orders/9$@982000").with_body(&body)
        )
        .is_ok());
    assert!(d
        .store(
            &t,
            &ContentDocument::new("orders/9$@982999").with_body(&body)
        )
        .is_ok());
    let e = d
        .store(
            &t,
            &ContentDocument::new("orders/9$@983000").with_body(&body),
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("needs a bucket from 982000 to 982999"),
        "{e}"
    );
}

#[test]
fn field_functions() {
    let rule = |fields: &[&str]| ravenshard_design::content::ContentRule {
        name: "C".into(),
        fields: fields.iter().map(|f| Field::parse(f).unwrap()).collect(),
        range: 1,
        mutable: false,
    };
    let body = json!({"Address": {"ZipCode": "98052", "State": "WA", "City": "Seattle"},
        "Zip": 1048577, "OrderedAt": "2024-03-01T12:30:00Z", "Flag": true, "Lines": [1]});
    let bucket = |fields: &[&str]| content_value(&rule(fields), "customers/1-A", Some(&body));
    assert_eq!(bucket(&["numeric(Address.ZipCode)"]).unwrap().bucket, 98052);
    assert_eq!(bucket(&["numeric(Zip)"]).unwrap().bucket, 1);
    // 638448930000000000 ticks mod 2^20.
    assert_eq!(
        bucket(&["ticks(OrderedAt)"]).unwrap().bucket,
        (638_448_930_000_000_000u64 % 1_048_576) as u32
    );
    assert_eq!(bucket(&["id()"]).unwrap().bucket, 982173);
    assert_eq!(
        bucket(&["Address.ZipCode"]).unwrap().bucket,
        bucket_for("98052").unwrap()
    );
    // Several fields: concatenated, lower-cased, hashed without the anchor step.
    let two = bucket(&["Address.State", "Address.City"]).unwrap();
    let expected = xxhash_rust::xxh64::xxh64(b"waseattle", 0) % 1_048_576;
    assert_eq!(u64::from(two.bucket), expected);
    assert_eq!(two.text, "'WA' + 'Seattle'");
    for (fields, problem) in [
        (&["Missing"][..], "field Missing is missing"),
        (&["Flag"][..], "field Flag is a boolean"),
        (&["Lines"][..], "field Lines is an array"),
        (
            &["numeric(Address.City)"][..],
            "is \"Seattle\", not an integer",
        ),
        (&["ticks(Zip)"][..], "not an ISO-8601 date-time string"),
    ] {
        let e = bucket(fields).unwrap_err().to_string();
        assert!(e.contains(problem), "{fields:?}: {e}");
    }
}

#[test]
fn configuration_errors_name_their_path() {
    for (by_content, path) in [
        (json!({"Orders": {"Fields": []}}), "ByContent.Orders.Fields"),
        (
            json!({"Orders": {"Fields": ["Lines[].Product"]}}),
            "ByContent.Orders.Fields[0]",
        ),
        (
            json!({"Orders": {"Fields": ["A"], "Range": 0}}),
            "ByContent.Orders.Range",
        ),
        (
            json!({"Orders": {"Fields": ["A"], "Range": 1048577}}),
            "ByContent.Orders.Range",
        ),
        (
            json!({"Orders": {"Fields": ["A"], "Mutable": "no"}}),
            "ByContent.Orders.Mutable",
        ),
        (
            json!({"Orders": {"Feilds": ["A"]}}),
            "ByContent.Orders.Feilds",
        ),
        (
            json!({"Orders": {"Fields": ["A"]}, "orders": {"Fields": ["B"]}}),
            "ByContent.orders",
        ),
        (json!(["Orders"]), "ByContent"),
    ] {
        let t = topology(by_content.clone());
        let e = ContentDesign::from_topology(&t).unwrap_err();
        assert_eq!(e.path(), Some(path), "{by_content}: {e}");
    }
    let t = Topology::with_shards(2).unwrap();
    assert_eq!(ContentDesign::from_topology(&t), Ok(None));
}

#[test]
fn id_conventions_name_new_documents() {
    let config = json!({"Shards": {"0": {}, "1": {}}, "ByContent": {},
        "IdConventions": {"Invoices": "{Id}${OrderId}"}});
    let t = Topology::from_json(&config.to_string()).unwrap();
    let d = design(&t);
    let body = json!({"OrderId": "orders/1-A"});
    let stored = d
        .store(&t, &ContentDocument::new("invoices/1-A").with_body(&body))
        .unwrap();
    assert_eq!(stored.id, "invoices/1-A$orders/1-A");
    assert_eq!(stored.bucket, bucket_for("orders/1-A").unwrap());
    assert_eq!(stored.convention.as_deref(), Some("{Id}${OrderId}"));
    let e = d
        .store(&t, &ContentDocument::new("invoices/2-A"))
        .unwrap_err();
    assert!(e.to_string().contains("has no field OrderId"), "{e}");
}

proptest! {
    /// A generated ID's bucket lies in its content block, and is accepted by the write check.
    #[test]
    fn generated_ids_lie_in_their_content_block(
        n in 0u32..1_000_000, customer in "[a-z]{1,8}/[0-9]{1,6}-[A-C]", range in 1u32..=NUMBER_OF_BUCKETS,
    ) {
        let t = orders(range, false);
        let d = design(&t);
        let body = json!({"Customer": customer});
        let stored = d.store(&t, &ContentDocument::new(&format!("orders/{n}$")).with_body(&body)).unwrap();
        let content = bucket_for(&customer).unwrap();
        prop_assert_eq!(stored.bucket / range, content / range);
        prop_assert!(stored.bucket < NUMBER_OF_BUCKETS);
        prop_assert_eq!(pinned_bucket(&stored.id), Some(Ok(stored.bucket)));
        // Storing it again (an update with the same content) is accepted.
        prop_assert!(d.store(&t, &ContentDocument::new(&stored.id).with_body(&body)).is_ok());
    }

    #[test]
    fn ranged_bucket_stays_in_the_block(own in 0u32..NUMBER_OF_BUCKETS, content in 0u32..NUMBER_OF_BUCKETS, range in 1u32..=NUMBER_OF_BUCKETS) {
        let b = ranged_bucket(own, content, range);
        prop_assert!(b < NUMBER_OF_BUCKETS);
        prop_assert_eq!(b / range, content / range);
    }

    #[test]
    fn no_id_panics(id in any::<String>(), body in any::<u8>()) {
        let t = orders(1000, false);
        let d = design(&t);
        let body = json!({"Customer": id.clone(), "N": body});
        let _ = d.store(&t, &ContentDocument::new(&id).with_body(&body));
        let _ = d.locate(&t, &id);
    }

    /// Any line, JSON or not, is a document or a DocumentError; storing it never panics.
    #[test]
    fn no_json_line_panics(line in any::<String>(), id in any::<String>(), customer in any::<String>()) {
        let t = orders(1000, false);
        let d = design(&t);
        let _ = ravenshard_design::content::JsonDocument::parse(&line);
        let text = json!({"Customer": customer, "@metadata": {"@id": id}}).to_string();
        let document = ravenshard_design::content::JsonDocument::parse(&text).unwrap();
        prop_assert_eq!(&document.id, &id);
        let _ = d.store(&t, &document.as_content());
    }
}
