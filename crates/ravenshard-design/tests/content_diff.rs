//! Configuration changes, old → new (the chapter's "Changing the fields", "Going from mutable
//! to immutable" and "Increasing the Range property is a Safe operation").

use proptest::prelude::*;
use ravenshard::NUMBER_OF_BUCKETS;
use ravenshard_design::content::{
    diff_designs, ConfigDiff, ContentDesign, ContentDocument, DiffDocument, RuleStatus, Verdict,
    MAX_DIFF_EXAMPLES,
};
use serde_json::{json, Value};

fn design(by_content: Value) -> ContentDesign {
    let keys = json!({ "ByContent": by_content });
    ContentDesign::from_configuration(keys.as_object().unwrap())
        .unwrap()
        .unwrap()
}

fn orders(fields: &[&str], range: u32, mutable: bool) -> ContentDesign {
    design(json!({"Orders": {"Fields": fields, "Range": range, "Mutable": mutable}}))
}

/// The diff of the Orders-by-Customer rule, (Range, Mutable) old → new.
fn by_customer(old: (u32, bool), new: (u32, bool), docs: &[DiffDocument]) -> ConfigDiff {
    let rule = |(range, mutable)| orders(&["Customer"], range, mutable);
    diff_designs(Some(&rule(old)), Some(&rule(new)), docs)
}

fn order(id: &str, customer: &str) -> DiffDocument {
    DiffDocument {
        body: Some(json!({"Customer": customer, "Company": "companies/1-A"})),
        ..DiffDocument::new(id)
    }
}

#[test]
fn raising_range_to_a_multiple_is_safe() {
    let docs = [
        order("orders/1-A$@982173", "customers/1-A"),
        order("orders/2-A$customers/1-A", "customers/1-A"),
        order("orders/3-A$", "customers/2-B"),
        order("orders/4-A", "customers/2-B"),
    ];
    let diff = by_customer((1, false), (1000, false), &docs);
    assert_eq!(diff.verdict, Verdict::Safe);
    assert_eq!(diff.rules.len(), 1);
    assert_eq!(diff.rules[0].status, RuleStatus::Safe);
    assert!(
        diff.rules[0]
            .reason
            .starts_with("Range 1 → 1000: a multiple"),
        "{}",
        diff.rules[0].reason
    );
    // orders/4-A (bucket 151326, content 2423) was never valid; the other three were.
    assert_eq!(
        (diff.documents, diff.valid_before, diff.invalidated),
        (4, 3, 0)
    );
    assert_eq!(diff.rules[0].documents, 4);
}

#[test]
fn a_range_that_is_not_a_multiple_needs_mutable_first() {
    // Under Range 1000, customers/1-A (982173) allows 982000..=982999; under 1500 its block
    // is 981000..=982499, so 982999 falls out.
    let docs = [
        order("orders/9$@982999", "customers/1-A"),
        order("orders/8$@982000", "customers/1-A"),
    ];
    let diff = by_customer((1000, false), (1500, false), &docs);
    assert_eq!(diff.verdict, Verdict::NeedsAttention);
    assert_eq!(diff.rules[0].status, RuleStatus::NeedsMutableFirst);
    assert!(diff.rules[0].reason.contains("not a multiple"));
    assert_eq!((diff.valid_before, diff.invalidated), (2, 1));
    assert_eq!(diff.rules[0].invalidated, 1);
    assert_eq!(diff.examples[0].id, "orders/9$@982999");
    assert!(
        diff.examples[0]
            .message
            .contains("needs a bucket from 981000 to 982499"),
        "{}",
        diff.examples[0].message
    );
    // Lowering the Range is not safe either, even with no document to show it.
    let diff = by_customer((1000, false), (100, false), &[]);
    assert_eq!(diff.rules[0].status, RuleStatus::NeedsMutableFirst);
    assert!(diff.rules[0].reason.contains("smaller Range"));
    assert!(!diff.is_safe());
}

#[test]
fn changing_fields_needs_mutable_first() {
    let docs = [order("orders/2-A$customers/1-A", "customers/1-A")];
    let diff = diff_designs(
        Some(&orders(&["Customer"], 1, false)),
        Some(&orders(&["Company"], 1, false)),
        &docs,
    );
    assert_eq!(diff.rules[0].status, RuleStatus::NeedsMutableFirst);
    assert!(diff.rules[0]
        .reason
        .starts_with("Fields Customer → Company: documents placed by Customer"));
    assert_eq!(diff.invalidated, 1);
    // With Mutable already true (the chapter's procedure), changing the fields is safe.
    let diff = diff_designs(
        Some(&orders(&["Customer"], 1, true)),
        Some(&orders(&["Company"], 1, true)),
        &docs,
    );
    assert_eq!(diff.rules[0].status, RuleStatus::Safe);
    assert!(diff.is_safe());
}

#[test]
fn mutable_on_and_rule_removal_are_safe() {
    let docs = [order("orders/1-A$@982173", "customers/1-A")];
    let immutable = orders(&["Customer"], 1, false);
    let diff = diff_designs(
        Some(&immutable),
        Some(&orders(&["Customer"], 1, true)),
        &docs,
    );
    assert_eq!(diff.rules[0].status, RuleStatus::Safe);
    assert!(diff.rules[0].reason.starts_with("Mutable false → true"));
    assert!(diff.is_safe());
    let diff = diff_designs(Some(&immutable), Some(&design(json!({}))), &docs);
    assert_eq!(diff.rules[0].status, RuleStatus::Safe);
    assert!(diff.rules[0].new.is_none());
    assert!(diff.is_safe());
    let same = diff_designs(Some(&immutable), Some(&immutable), &docs);
    assert_eq!(same.rules[0].status, RuleStatus::Unchanged);
    assert!(same.is_safe());
}

#[test]
fn mutable_back_to_false_warns_and_counts_unmigrated_documents() {
    let docs = [
        // Moved to customers/2-B while the rule was Mutable: not migrated.
        order("orders/1-A$@982173", "customers/2-B"),
        order("orders/2-A$@982173", "customers/741135-C"),
    ];
    let diff = by_customer((1, true), (1, false), &docs);
    let rule = &diff.rules[0];
    assert_eq!(rule.status, RuleStatus::MutableTurnedOff);
    let warning = rule.warning.as_deref().unwrap();
    assert!(
        warning.contains(
            "RavenDB does not validate that existing documents match; the operator must have \
             migrated them first"
        ),
        "{warning}"
    );
    assert_eq!((diff.valid_before, diff.invalidated), (2, 1));
    assert_eq!(diff.examples[0].id, "orders/1-A$@982173");
    assert!(diff.examples[0].message.starts_with("Rejected:"));
    assert_eq!(diff.verdict, Verdict::NeedsAttention);
    // Even when every document of the workspace matches, the warning stands.
    let diff = by_customer((1, true), (1, false), &docs[1..]);
    assert_eq!(diff.invalidated, 0);
    assert!(!diff.is_safe());
}

#[test]
fn a_new_immutable_rule_counts_the_documents_it_rejects() {
    let docs = [
        order("orders/1-A", "customers/1-A"),
        order("orders/2-A$customers/1-A", "customers/1-A"),
        order("orders/3-A", "customers/2-B"),
        DiffDocument::new("orders/4-A"),
        DiffDocument::new("companies/1-A"),
    ];
    let diff = diff_designs(
        Some(&design(json!({}))),
        Some(&orders(&["Customer"], 1, false)),
        &docs,
    );
    let rule = &diff.rules[0];
    assert_eq!(rule.status, RuleStatus::NeedsMutableFirst);
    assert_eq!(rule.documents, 4);
    assert!(rule
        .reason
        .contains("which has 4 documents in the workspace"));
    assert_eq!((diff.valid_before, diff.invalidated), (5, 2));
    assert_eq!(rule.invalidated, 2);
    assert_eq!(diff.unchecked, 1);
    let ids: Vec<&str> = diff.examples.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["orders/1-A", "orders/3-A"]);
    // A new Mutable rule, or an immutable one on a collection without documents, is safe.
    let diff = diff_designs(None, Some(&orders(&["Customer"], 1, true)), &docs[..3]);
    assert_eq!(diff.rules[0].status, RuleStatus::Safe);
    let diff = diff_designs(None, Some(&orders(&["Customer"], 1, false)), &docs[4..]);
    assert_eq!(diff.rules[0].status, RuleStatus::Safe);
}

#[test]
fn turning_the_design_on_or_off_moves_pinned_ids() {
    let on = orders(&["Customer"], 1, true);
    let docs = [
        DiffDocument::new("orders/1-A$@5"),
        DiffDocument::new("orders/2-A"),
    ];
    let diff = diff_designs(None, Some(&on), &docs);
    assert_eq!(diff.invalidated, 1);
    assert!(diff.notes[0].starts_with("ByContent is added"));
    assert!(
        diff.examples[0]
            .message
            .contains("looks it up in bucket 5 ('$@' pins a bucket when ByContent is on)"),
        "{}",
        diff.examples[0].message
    );
    let diff = diff_designs(Some(&on), None, &docs);
    assert_eq!(diff.invalidated, 1);
    assert!(diff.examples[0]
        .message
        .starts_with("'orders/1-A$@5' is stored in bucket 5"));
    // A document whose bucket is given is checked where it is.
    let stored = DiffDocument {
        bucket: Some(5),
        ..DiffDocument::new("orders/1-A$@5")
    };
    assert_eq!(diff_designs(None, Some(&on), &[stored]).invalidated, 0);
}

#[test]
fn pending_writes_fail_when_their_rule_goes() {
    let docs = [order("orders/1-A$", "customers/1-A")];
    let diff = diff_designs(
        Some(&orders(&["Customer"], 1, false)),
        Some(&design(json!({}))),
        &docs,
    );
    assert_eq!(diff.invalidated, 1);
    assert!(diff.examples[0]
        .message
        .contains("IDs ending with '$' need a ByContent rule for collection orders"));
    assert_eq!(diff.verdict, Verdict::NeedsAttention);
}

#[test]
fn examples_are_capped_and_all_are_counted() {
    let docs: Vec<DiffDocument> = (0..25)
        .map(|i| order(&format!("orders/{i}-A$@{i}"), "customers/1-A"))
        .collect();
    let diff = diff_designs(None, Some(&orders(&["Customer"], 1, false)), &docs);
    assert_eq!(diff.invalidated, 25);
    assert_eq!(diff.examples.len(), MAX_DIFF_EXAMPLES);
}

#[derive(Debug, Clone)]
enum Kind {
    Pinned(u32),
    Anchored(u32),
    Generated,
    Pending,
    Plain,
    NoBody,
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        (0..NUMBER_OF_BUCKETS).prop_map(Kind::Pinned),
        (0u32..50).prop_map(Kind::Anchored),
        Just(Kind::Generated),
        Just(Kind::Pending),
        Just(Kind::Plain),
        Just(Kind::NoBody),
    ]
}

proptest! {
    /// The chapter: "Any document that was valid under Listing XYZ.1 is also valid under
    /// Listing XYZ.4." Raising Range to a multiple never invalidates a document.
    #[test]
    fn raising_range_to_a_multiple_invalidates_nothing(
        range in prop_oneof![Just(1u32), 1u32..5000],
        multiple in any::<u32>(),
        docs in proptest::collection::vec((0u32..100_000, 0u32..50, kind()), 1..40),
    ) {
        // A multiple from 2 to as many as fit in 2^20 buckets.
        let new_range = range * (2 + multiple % (NUMBER_OF_BUCKETS / range - 1));
        let old = orders(&["Customer"], range, false);
        let new = orders(&["Customer"], new_range, false);
        let mut generated = 0;
        let documents: Vec<DiffDocument> = docs.iter().map(|(n, m, kind)| {
            let body = json!({"Customer": format!("customers/{m}")});
            let with_body = |id: String| DiffDocument { body: Some(body.clone()), ..DiffDocument::new(id) };
            match kind {
                Kind::Pinned(b) => with_body(format!("orders/{n}$@{b}")),
                Kind::Anchored(a) => with_body(format!("orders/{n}$customers/{a}")),
                Kind::Generated => {
                    generated += 1;
                    let pending = format!("orders/{n}$");
                    let (id, _, _) = old.generate(&ContentDocument::new(&pending).with_body(&body)).unwrap();
                    with_body(id)
                }
                Kind::Pending => with_body(format!("orders/{n}$")),
                Kind::Plain => with_body(format!("orders/{n}")),
                Kind::NoBody => DiffDocument::new(format!("orders/{n}$@{m}")),
            }
        }).collect();
        let diff = diff_designs(Some(&old), Some(&new), &documents);
        prop_assert_eq!(diff.invalidated, 0, "{:?}", diff.examples);
        prop_assert_eq!(diff.verdict, Verdict::Safe);
        prop_assert_eq!(diff.rules[0].status, RuleStatus::Safe);
        prop_assert!(diff.valid_before >= generated);
    }

    /// Nothing panics, whatever the IDs, bodies and settings.
    #[test]
    fn no_input_panics(
        ids in proptest::collection::vec(any::<String>(), 0..8),
        values in proptest::collection::vec(any::<String>(), 0..8),
        old_range in 1u32..=NUMBER_OF_BUCKETS,
        new_range in 1u32..=NUMBER_OF_BUCKETS,
        flags in any::<(bool, bool, bool, Option<u32>)>(),
    ) {
        let (old_mutable, new_mutable, off, bucket) = flags;
        let old = orders(&["Customer"], old_range, old_mutable);
        let new = orders(&["Customer", "numeric(N)"], new_range, new_mutable);
        let documents: Vec<DiffDocument> = ids.iter().zip(values.iter().cycle()).map(|(id, v)| DiffDocument {
            body: Some(json!({"Customer": v, "N": v})),
            collection: Some("orders".into()),
            bucket,
            ..DiffDocument::new(id.clone())
        }).collect();
        let diff = diff_designs(Some(&old), (!off).then_some(&new), &documents);
        prop_assert!(diff.invalidated <= diff.valid_before);
        prop_assert!(diff.valid_before <= diff.documents);
    }
}
