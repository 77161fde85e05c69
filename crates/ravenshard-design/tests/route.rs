//! Query routing: the chapter's examples, and the promise that no shard holding a matching
//! document is left out.

use proptest::prelude::*;
use ravenshard::{bucket_for, Topology};
use ravenshard_design::content::{ContentDesign, ContentDocument};
use ravenshard_design::route::route_text;
use serde_json::{json, Value};

fn with(config: Value) -> (Topology, Option<ContentDesign>) {
    let t = Topology::from_json(&config.to_string()).unwrap();
    let d = ContentDesign::from_topology(&t).unwrap();
    (t, d)
}

fn three(by_content: Value) -> (Topology, Option<ContentDesign>) {
    with(json!({"Shards": {"0": {}, "1": {}, "2": {}}, "ByContent": by_content}))
}

fn orders(range: u32, mutable: bool) -> (Topology, Option<ContentDesign>) {
    three(json!({"Orders": {"Fields": ["Customer"], "Range": range, "Mutable": mutable}}))
}

#[test]
fn id_queries_go_to_the_ids_shards() {
    // Shipped RavenDB: no ByContent.
    let t = Topology::with_shards(3).unwrap();
    let r = route_text("from Orders where id() = 'orders/1-A'", &t, None).unwrap();
    assert_eq!(
        (r.shards.clone(), r.buckets.clone()),
        (vec![0], vec![(151326, 151327)])
    );
    assert!(
        r.reason.contains("'orders/1-A' is in bucket 151326"),
        "{}",
        r.reason
    );
    let r = route_text(
        "from Orders where id() in ('orders/1-A', 'customers/1-A')",
        &t,
        None,
    )
    .unwrap();
    assert_eq!(r.shards, vec![0, 2]);
    // Without the design, content does not narrow.
    let r = route_text("from Orders where Customer = 'customers/1-A'", &t, None).unwrap();
    assert!(r.all_shards);
    assert!(r.reason.contains("no ByContent section"), "{}", r.reason);
    // With it, $@ IDs are pinned.
    let (t, d) = orders(1, false);
    let r = route_text("from Orders where id() = 'orders/1-A$@5'", &t, d.as_ref()).unwrap();
    assert_eq!(r.buckets, vec![(5, 6)]);
}

#[test]
fn content_equality_goes_to_the_blocks_shards() {
    let q = "from Orders where Customer = 'customers/1-A'";
    let (t, d) = orders(1, false);
    let r = route_text(q, &t, d.as_ref()).unwrap();
    assert_eq!(
        (r.shards.clone(), r.buckets.clone()),
        (vec![2], vec![(982173, 982174)])
    );
    let (t, d) = orders(1000, false);
    let r = route_text(q, &t, d.as_ref()).unwrap();
    assert_eq!(
        (r.shards.clone(), r.buckets.clone()),
        (vec![2], vec![(982000, 983000)])
    );
    assert!(r.reason.contains("block 982000–982999"), "{}", r.reason);
    // A block across a range boundary (699050 with 3 shards) goes to both shards.
    let customer = (0..)
        .map(|n| format!("customers/{n}-A"))
        .find(|c| (690_000..700_000).contains(&bucket_for(c).unwrap()))
        .unwrap();
    let (t, d) = orders(10_000, false);
    let r = route_text(
        &format!("from Orders where Customer = '{customer}'"),
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert_eq!(r.shards, vec![1, 2]);
    // Mutable: routing by content is off.
    let (t, d) = orders(1, true);
    let r = route_text(q, &t, d.as_ref()).unwrap();
    assert!(r.all_shards);
    assert!(r.reason.contains("Mutable"), "{}", r.reason);
}

#[test]
fn several_fields_need_them_all() {
    let (t, d) = three(json!({"Customers": {"Fields": ["Address.State", "Address.City"]}}));
    let one = route_text("from Customers where Address.State = 'WA'", &t, d.as_ref()).unwrap();
    assert!(one.all_shards);
    assert!(
        one.reason.contains("does not give Address.City"),
        "{}",
        one.reason
    );
    let both = route_text(
        "from Customers where Address.City = 'Seattle' and Address.State = 'WA'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    let expected = (xxhash_rust::xxh64::xxh64(b"waseattle", 0) % 1_048_576) as u32;
    assert_eq!(both.buckets, vec![(expected, expected + 1)]);
    assert_eq!(both.shards.len(), 1);
    // `in` lists multiply; `or` unites.
    let many = route_text(
        "from Customers where Address.State in ('WA', 'OR') and Address.City = 'Portland'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert_eq!(many.buckets.len(), 2);
    let either = route_text(
        "from Customers where (Address.State = 'WA' and Address.City = 'Seattle') or id() = 'customers/1-A'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert_eq!(either.buckets.len(), 2);
    let anywhere = route_text(
        "from Customers where Address.State = 'WA' or Name = 'x'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert!(anywhere.all_shards);
}

#[test]
fn indexes_use_their_rule_or_their_collections() {
    let (t, d) = with(json!({"Shards": {"0": {}, "1": {}, "2": {}},
        "ByContent": {"Orders": {"Fields": ["Customer"]}, "Orders/Totals": {"Fields": ["CustomerId"]}},
        "Indexes": {"Orders/ByCustomer": ["Orders"], "Orders/Mixed": ["Orders", "Invoices"],
                    "Orders/Stats": {"Collections": ["Orders"], "Type": "MapReduce"}}}));
    let own = route_text(
        "from index 'Orders/Totals' where CustomerId = 'customers/1-A'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert_eq!(own.shards, vec![2]);
    let inherited = route_text(
        "from index 'Orders/ByCustomer' where Customer = 'customers/1-A'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert_eq!(inherited.shards, vec![2]);
    let mixed = route_text(
        "from index 'Orders/Mixed' where Customer = 'customers/1-A'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert!(mixed.all_shards);
    assert!(
        mixed.reason.contains("several collections"),
        "{}",
        mixed.reason
    );
    let unknown = route_text(
        "from index 'Nope' where Customer = 'customers/1-A'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert!(
        unknown.reason.contains("not declared in Indexes"),
        "{}",
        unknown.reason
    );
    // Filters on map-reduce results run once per fragment.
    let stats = route_text(
        "from index 'Orders/Stats' where Count < 10 limit 2",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert!(
        stats
            .warnings
            .iter()
            .any(|w| w.contains("map-reduce index: filters run once")),
        "{:?}",
        stats.warnings
    );
}

#[test]
fn paging_cost_and_the_deep_paging_warning() {
    // The chapter: 13 fragments, limit 10 offset 5000: 65,130 results fetched.
    let shards: serde_json::Map<String, Value> =
        (0..13).map(|n| (n.to_string(), json!({}))).collect();
    let (t, d) = with(json!({"Shards": shards}));
    let r = route_text(
        "from Orders where OrderedAt > $today limit 10 offset 5000",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert_eq!(r.shards.len(), 13);
    assert_eq!(r.fetched, Some(65_130));
    assert!(
        r.warnings
            .iter()
            .any(|w| w.starts_with("Deep paging") && w.contains("65130")),
        "{:?}",
        r.warnings
    );
    let single = route_text(
        "from Orders where id() = 'orders/1-A' limit 10 offset 5000",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert_eq!(single.fetched, Some(5010));
    assert!(single.warnings.is_empty());
}

#[test]
fn contradictions_and_bad_queries() {
    let (t, d) = orders(1, false);
    let none = route_text(
        "from Orders where id() = 'orders/1-A' and Customer = 'customers/1-A'",
        &t,
        d.as_ref(),
    )
    .unwrap();
    assert!(none.shards.is_empty());
    assert!(
        none.reason.contains("no bucket satisfies every condition"),
        "{}",
        none.reason
    );
    assert!(route_text("select * from Orders", &t, d.as_ref()).is_err());
    let param = route_text("from Orders where Customer = $c", &t, d.as_ref()).unwrap();
    assert!(param.all_shards);
    assert!(
        param.warnings.iter().any(|w| w.contains("parameter")),
        "{:?}",
        param.warnings
    );
}

/// The documents of a small workspace: orders generated under the rule, pinned and plain.
fn workspace(t: &Topology, d: &ContentDesign, customers: &[String]) -> Vec<(String, String, u32)> {
    let mut docs = Vec::new();
    for (n, customer) in customers.iter().enumerate() {
        let body = json!({"Customer": customer});
        let stored = d
            .store(
                t,
                &ContentDocument::new(&format!("orders/{n}$")).with_body(&body),
            )
            .unwrap();
        docs.push((stored.id, customer.clone(), stored.shard));
    }
    docs
}

proptest! {
    /// Routing never leaves out a shard that holds a document the query matches.
    #[test]
    fn routing_never_omits_a_matching_shard(
        customers in proptest::collection::vec("customers/[0-9]{1,3}-[AB]", 1..40),
        range in prop_oneof![Just(1u32), Just(1000), Just(10_000), 1u32..300_000],
        picks in proptest::collection::vec(0usize..40, 1..4),
        with_or in any::<bool>(),
    ) {
        let (t, d) = orders(range, false);
        let d = d.unwrap();
        let docs = workspace(&t, &d, &customers);
        let mut asked: Vec<&String> = picks.iter().map(|&i| &customers[i % customers.len()]).collect();
        if with_or {
            asked.truncate(1);
        }
        let list: Vec<String> = asked.iter().map(|c| format!("'{c}'")).collect();
        let query = if with_or {
            format!("from Orders where Customer = {} or id() = '{}'", list[0], docs[0].0)
        } else {
            format!("from Orders where Customer in ({})", list.join(", "))
        };
        let route = route_text(&query, &t, Some(&d)).unwrap();
        for (id, customer, shard) in &docs {
            let matches = asked.contains(&customer) || (with_or && *id == docs[0].0);
            if matches {
                prop_assert!(route.shards.contains(shard), "{} on shard {} missing from {:?} for {}", id, shard, route.shards, query);
            }
        }
    }

    #[test]
    fn any_query_text_routes_or_errs(text in any::<String>()) {
        let (t, d) = orders(1000, false);
        let _ = route_text(&text, &t, d.as_ref());
        let _ = route_text(&format!("from Orders where {text}"), &t, d.as_ref());
    }
}
