//! Transactions and LoadDocument locality, with the chapter's and the docs' examples.

use proptest::prelude::*;
use ravenshard::{bucket_for, Topology};
use ravenshard_design::content::{ContentDesign, ContentError};
use ravenshard_design::locality::{check_load, check_transaction, TransactionVerdict};
use serde_json::json;

fn three() -> Topology {
    Topology::with_shards(3).unwrap()
}

fn orders_design(range: u32) -> ContentDesign {
    let keys = json!({"ByContent": {"Orders": {"Fields": ["Customer"], "Range": range}}});
    ContentDesign::from_configuration(keys.as_object().unwrap())
        .unwrap()
        .unwrap()
}

#[test]
fn anchored_documents_share_a_bucket() {
    let t = three();
    let check = check_transaction(&["orders/1-A$customers/1-A", "customers/1-A"], &t, None);
    assert_eq!(check.verdict, TransactionVerdict::OneBucket);
    assert_eq!(
        (check.buckets.clone(), check.shards.clone()),
        (vec![982173], vec![2])
    );
    assert!(check
        .message
        .contains("a local transaction is atomic and stays so"));
    // The docs: Users/70$Users/4, Users/71$Users/4 and Users/72$Users/4 with Users/4.
    let users = [
        "Users/70$Users/4",
        "Users/71$Users/4",
        "Users/72$Users/4",
        "Users/4",
    ];
    let check = check_transaction(&users, &t, None);
    assert_eq!(check.verdict, TransactionVerdict::OneBucket);
    assert_eq!(check.buckets, [bucket_for("Users/4").unwrap()]);
    assert_eq!(check.documents.len(), 4);
    // An arbitrary common suffix: Users/1$foo and Users/2$foo.
    let check = check_transaction(&["Users/1$foo", "Users/2$foo"], &t, None);
    assert_eq!(check.verdict, TransactionVerdict::OneBucket);
}

#[test]
fn one_shard_is_not_one_bucket() {
    // The chapter: customers/6-A (16312) and orders/1-A (151326) are both on shard 0.
    let check = check_transaction(&["customers/6-A", "orders/1-A"], &three(), None);
    assert_eq!(check.verdict, TransactionVerdict::OneShard);
    assert_eq!(check.buckets, [16312, 151326]);
    assert_eq!(check.shards, [0]);
    assert!(check
        .message
        .contains("atomic today, but not guaranteed after resharding moves a bucket"));
    let check = check_transaction(&["customers/1-A", "orders/1-A"], &three(), None);
    assert_eq!(check.verdict, TransactionVerdict::SeveralShards);
    assert_eq!(check.shards, [0, 2]);
    assert!(check.message.contains("needs a cluster-wide transaction"));
    assert_eq!(check.documents[0].shard, 2);
    assert_eq!(check.documents[1].bucket, 151326);
}

#[test]
fn the_design_pins_buckets_and_refuses_pending_ids() {
    let t = three();
    let d = orders_design(1);
    let ids = ["orders/1-A$@982173", "customers/1-A"];
    assert_eq!(
        check_transaction(&ids, &t, Some(&d)).verdict,
        TransactionVerdict::OneBucket
    );
    // Without the design, '@982173' is an ordinary anchor.
    assert_ne!(
        check_transaction(&ids, &t, None).verdict,
        TransactionVerdict::OneBucket
    );
    let check = check_transaction(
        &["orders/1-A$", "orders/2-A$@1048576", "", "customers/1-A"],
        &t,
        Some(&d),
    );
    assert_eq!(check.verdict, TransactionVerdict::OneBucket);
    assert_eq!(check.invalid.len(), 3);
    assert!(matches!(
        check.invalid[0].error,
        ContentError::NotFinal { .. }
    ));
    assert!(check.invalid[0]
        .error
        .to_string()
        .contains("anchor it ('orders/1-A$customers/1-A')"));
    assert!(matches!(
        check.invalid[1].error,
        ContentError::BadPinnedBucket { .. }
    ));
    assert!(check
        .message
        .ends_with("3 of the IDs cannot be placed and are left out (see invalid)."));
    let none = check_transaction(&[""], &t, Some(&d));
    assert_eq!(none.verdict, TransactionVerdict::NoDocuments);
    let empty: [&str; 0] = [];
    assert_eq!(
        check_transaction(&empty, &t, None).verdict,
        TransactionVerdict::NoDocuments
    );
    let json = serde_json::to_value(&check).unwrap();
    assert_eq!(json["verdict"], "one_bucket");
    assert!(json["invalid"][0]["error"]
        .as_str()
        .unwrap()
        .starts_with("'orders/1-A$' is not a final ID"));
}

#[test]
fn load_document_needs_the_same_bucket() {
    let t = three();
    let check = check_load("orders/1-A$customers/1-A", "customers/1-A", &t, None).unwrap();
    assert!(check.same_bucket && check.same_shard);
    assert_eq!(check.suggestion, None);
    // The docs' pairing example.
    let check = check_load("Users/70", "Users/4", &t, None).unwrap();
    assert!(!check.same_bucket);
    let s = check.suggestion.clone().unwrap();
    assert_eq!(s.id, "Users/70$Users/4");
    assert_eq!(s.bucket, bucket_for("Users/4").unwrap());
    assert!(check.message.ends_with(&format!(
        "Name the document 'Users/70$Users/4' instead: it is in bucket {} (shard {}).",
        s.bucket, s.shard
    )));
    // Same shard is not enough.
    let check = check_load("orders/1-A", "customers/6-A", &t, None).unwrap();
    assert!(check.same_shard && !check.same_bucket);
    assert!(check.message.contains("the same fragment is not enough"));
    // An anchored related document: anchor to what it is anchored to.
    let check = check_load("invoices/1-A", "orders/1-A$customers/1-A", &t, None).unwrap();
    assert_eq!(check.suggestion.unwrap().id, "invoices/1-A$customers/1-A");
}

#[test]
fn range_does_not_help_load_document() {
    let t = three();
    let d = orders_design(1000);
    // orders/1-A$@982326 (the chapter's Range 1000 answer) is in customers/1-A's block, not
    // its bucket.
    let check = check_load("orders/1-A$@982326", "customers/1-A", &t, Some(&d)).unwrap();
    assert!(!check.same_bucket && check.same_shard);
    assert_eq!(check.document.bucket, 982326);
    let s = check.suggestion.clone().unwrap();
    assert_eq!(
        (s.id.as_str(), s.bucket),
        ("orders/1-A$customers/1-A", 982173)
    );
    assert!(
        check.notes[0].contains("Range does not help LoadDocument"),
        "{:?}",
        check.notes
    );
    assert!(check.notes[1].contains("Orders has an immutable ByContent rule"));
    // A pinned related document: pin the same bucket.
    let check = check_load("invoices/1", "orders/1-A$@982326", &t, Some(&d)).unwrap();
    let s = check.suggestion.unwrap();
    assert_eq!((s.id.as_str(), s.bucket), ("invoices/1$@982326", 982326));
    // A related ID an anchor cannot reproduce: with the design, pin its bucket instead.
    let at = bucket_for("@5").unwrap();
    let check = check_load("invoices/1", "@5", &t, Some(&d)).unwrap();
    assert_eq!(check.suggestion.unwrap().id, format!("invoices/1$@{at}"));
    // A pending ID cannot be checked.
    assert!(matches!(
        check_load("orders/1-A$", "customers/1-A", &t, Some(&d)),
        Err(ContentError::NotFinal { .. })
    ));
    assert!(check_load("", "customers/1-A", &t, None).is_err());
}

#[test]
fn different_prefixes_cannot_share_a_bucket() {
    let t = Topology::from_json(
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#,
    )
    .unwrap();
    let check = check_load("eu/orders/1", "customers/1-A", &t, None).unwrap();
    assert_eq!(check.suggestion, None);
    assert!(
        check.notes[0].contains("different prefixes"),
        "{:?}",
        check.notes
    );
    let check = check_load("eu/orders/1", "eu/customers/1", &t, None).unwrap();
    assert_eq!(check.suggestion.unwrap().id, "eu/orders/1$eu/customers/1");
}

proptest! {
    /// Nothing panics; a suggestion always shares the related document's bucket.
    #[test]
    fn no_input_panics(ids in proptest::collection::vec(any::<String>(), 0..6), design_on in any::<bool>()) {
        let t = three();
        let d = orders_design(1000);
        let design = design_on.then_some(&d);
        let check = check_transaction(&ids, &t, design);
        prop_assert_eq!(check.documents.len() + check.invalid.len(), ids.len());
        for pair in ids.windows(2) {
            if let Ok(load) = check_load(&pair[0], &pair[1], &t, design) {
                if let Some(s) = &load.suggestion {
                    prop_assert_eq!(s.bucket, load.related.bucket);
                }
                prop_assert_eq!(load.same_bucket, load.suggestion.is_none() && load.notes.iter().all(|n| !n.starts_with("No ID")));
            }
        }
    }

    /// Plain and anchored IDs always get a suggestion that works.
    #[test]
    fn anchoring_always_works_without_prefixes(doc in "[a-z]{1,6}/[0-9]{1,4}(\\$[a-z]{1,4})?", rel in "[a-z]{1,6}/[0-9]{1,4}(\\$[a-z/0-9]{1,6})?") {
        let t = three();
        let load = check_load(&doc, &rel, &t, None).unwrap();
        prop_assert!(load.same_bucket || load.suggestion.is_some());
    }
}
