//! The workspace placement: known answers, agreement with `locate` and `report`, and
//! invariants that hold for every input (proptest).

use proptest::prelude::*;
use ravenshard::{lower_id, report, ReportOptions, Topology, NUMBER_OF_BUCKETS};
use ravenshard_model::workspace::{
    assign_members, BalanceVerdict, Document, Placement, PlacementOptions, RowQuery, SortKey,
};
use std::collections::{BTreeMap, BTreeSet};

fn docs(ids: &[&str]) -> Vec<Document> {
    ids.iter().map(|id| Document::new(*id)).collect()
}

fn three_shards() -> Topology {
    Topology::with_shards(3).expect("3 shards are valid")
}

/// The chapter's cluster: 4 nodes, 3 shards, replication factor 2, members as the server
/// assigns them.
fn chapter_cluster() -> Topology {
    let mut t = three_shards();
    let nodes = ["A", "B", "C", "D"].map(String::from);
    let members = assign_members(3, &nodes, 2).expect("4 nodes take RF 2");
    for (shard, m) in (0u32..).zip(members) {
        assert!(t.set_members(shard, m));
    }
    t
}

#[test]
fn chapter_ids_land_where_the_chapter_says() {
    let d = docs(&["customers/1-A", "orders/1-A", "orders/2-A$customers/1-A"]);
    let p = Placement::new(&d, &three_shards(), &PlacementOptions::default());
    let c = p.place(0).unwrap();
    assert_eq!((c.bucket, c.shard), (982173, 2));
    let o = p.place(1).unwrap();
    assert_eq!((o.bucket, o.shard), (151326, 0));
    assert_eq!(p.place(2).unwrap().bucket, 982173);
    assert_eq!(p.place(2).unwrap().hashed_chars, [11, 24]);
    assert_eq!(p.place(0).unwrap().hashed_chars, [0, 13]);
    let starts: Vec<Vec<u32>> = p
        .shards()
        .iter()
        .map(|s| s.ranges.iter().map(|r| r.start).collect())
        .collect();
    assert_eq!(starts, [[0], [349525], [699050]]);
    assert_eq!(p.shards()[2].fragment, "db$2");
    assert_eq!(p.shards()[0].buckets, 349525);
    assert_eq!(p.shards()[2].buckets, u64::from(NUMBER_OF_BUCKETS) - 699050);
    assert_eq!(p.documents_in_bucket(982173), [0, 2]);
}

#[test]
fn anchored_group_users_4() {
    let d = docs(&[
        "users/4",
        "Users/70$Users/4",
        "orders/1-A",
        "Users/71$Users/4",
        "USERS/72$users/4",
        "a$b",
    ]);
    let p = Placement::new(&d, &three_shards(), &PlacementOptions::default());
    assert_eq!(p.groups().len(), 2);
    let g = &p.groups()[0];
    assert_eq!(g.anchor, "users/4");
    assert_eq!(g.members, [1, 3, 4]);
    assert_eq!(g.anchor_document, Some(0));
    assert!(g.anchor_is_document());
    assert_eq!(g.documents, 4);
    assert_eq!((g.bucket, g.shard), (690258, 1));
    assert!(!g.split);
    for i in [0, 1, 3, 4] {
        assert_eq!(p.place(i).unwrap().group, Some(0));
    }
    assert_eq!(p.place(2).unwrap().group, None);
    let b = &p.groups()[1];
    assert_eq!(
        (b.anchor.as_str(), b.anchor_document, b.documents),
        ("b", None, 1)
    );
    assert_eq!(p.place(5).unwrap().group, Some(1));
    // 6 documents: the default threshold is 0, so every group is obese, with advice.
    assert_eq!(p.obese_threshold(), 0);
    assert!(g.obese && g.advice[0].contains("share anchor 'users/4'"));
    let filtered = p.rows(&RowQuery {
        group: Some(0),
        ..Default::default()
    });
    assert_eq!(filtered.indices(), [0, 1, 3, 4]);
}

#[test]
fn obese_threshold_is_configurable() {
    let mut ids = vec!["users/4".to_string()];
    ids.extend((0..30).map(|i| format!("orders/{i}$users/4")));
    ids.extend((0..70).map(|i| format!("products/{i}")));
    let d: Vec<Document> = ids.into_iter().map(Document::new).collect();
    let t = three_shards();
    let p = Placement::new(&d, &t, &PlacementOptions::default());
    assert_eq!(p.obese_threshold(), 1);
    assert_eq!(p.obese_buckets()[0].bucket, 690258);
    assert_eq!(p.obese_buckets()[0].documents, 31);
    let relaxed = PlacementOptions {
        obese_threshold: Some(31),
        ..Default::default()
    };
    let p = Placement::new(&d, &t, &relaxed);
    assert!(!p.groups()[0].obese && p.groups()[0].advice.is_empty());
    assert!(p.obese_buckets().is_empty());
}

#[test]
fn prefix_splits_an_anchored_group() {
    let json = r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#;
    let t = Topology::from_json(json).unwrap();
    let d = docs(&[
        "customers/1-A",
        "orders/1$customers/1-A",
        "eu/orders/2$customers/1-A",
    ]);
    let p = Placement::new(
        &d,
        &t,
        &PlacementOptions {
            obese_threshold: Some(10),
            ..Default::default()
        },
    );
    let g = &p.groups()[0];
    assert_eq!(g.bucket, 982173);
    assert!(g.split);
    assert!(g.advice[0].contains("sharding prefix"));
    assert_eq!(p.place(2).unwrap().bucket, 982173 + NUMBER_OF_BUCKETS);
    assert_eq!(p.blocks().len(), 2);
    assert_eq!(p.blocks()[1].prefix.as_deref(), Some("eu/"));
    assert_eq!((p.blocks()[0].documents, p.blocks()[1].documents), (2, 1));
}

#[test]
fn invalid_and_duplicate_ids_are_reported_not_lost() {
    let long = "x".repeat(513);
    let d = docs(&["orders/1-A", "", "Orders/1-a", &long, "ORDERS/1-A", "b"]);
    let p = Placement::new(&d, &three_shards(), &PlacementOptions::default());
    let t = p.totals();
    assert_eq!(
        (t.documents, t.placed, t.invalid, t.duplicates),
        (6, 4, 2, 2)
    );
    let invalid: Vec<u32> = p.invalid().iter().map(|e| e.index).collect();
    assert_eq!(invalid, [1, 3]);
    assert!(p.invalid()[0]
        .message
        .starts_with("Document ID cannot be empty"));
    assert!(p.invalid()[1].message.contains("513 bytes"));
    assert_eq!(p.place(1), None);
    assert_eq!(p.error(3).unwrap().index, 3);
    assert_eq!(p.duplicates().len(), 1);
    assert_eq!(p.duplicates()[0].lower_id, "orders/1-a");
    assert_eq!(p.duplicates()[0].indices, [0, 2, 4]);
    let row = p.row(1).unwrap();
    assert_eq!((row.bucket, row.error.is_some()), (None, true));
}

#[test]
fn bytes_shares_and_balance() {
    let mut d = docs(&["orders/1-A", "customers/1-A", "customers/2-B", "users/4"]);
    d[0].size = Some(100);
    d[1].size = Some(300);
    d[2].size = None;
    d[3].size = Some(600);
    d[1].collection = Some("Customers".into());
    let p = Placement::new(&d, &three_shards(), &PlacementOptions::default());
    let t = p.totals();
    assert_eq!((t.bytes, t.without_size), (1000, 1));
    let docs: Vec<u64> = p.shards().iter().map(|s| s.documents).collect();
    let bytes: Vec<u64> = p.shards().iter().map(|s| s.bytes).collect();
    // customers/2-B is in bucket 2423: shard 0.
    assert_eq!(docs, [2, 1, 1]);
    assert_eq!(bytes, [100, 600, 300]);
    assert_eq!(p.shards()[0].without_size, 1);
    assert!((p.shards()[1].byte_share - 0.6).abs() < 1e-12);
    assert!((p.shards()[0].document_share - 0.5).abs() < 1e-12);
    assert_eq!(p.document_balance().skew, Some(1.5));
    assert_eq!(p.document_balance().verdict, Some(BalanceVerdict::Uneven));
    assert_eq!(p.byte_balance().verdict, Some(BalanceVerdict::Lopsided));
    assert_eq!(p.collection(1), Some("Customers"));
    assert_eq!(p.collections(), ["Customers"]);
}

#[test]
fn hundred_users_on_four_nodes_and_three_shards() {
    let d: Vec<Document> = (1..=100)
        .map(|i| Document::new(format!("users/{i}")))
        .collect();
    let t = chapter_cluster();
    let p = Placement::new(&d, &t, &PlacementOptions::default());
    let m = p.matrix();
    assert_eq!(m.nodes(), ["A", "B", "C", "D"]);
    assert_eq!(m.shards, [0, 1, 2]);
    let per_shard: Vec<u64> = p.shards().iter().map(|s| s.documents).collect();
    assert_eq!(per_shard, [27, 38, 35]);
    // Members: $0 A,B; $1 C,A; $2 B,D.
    let cells: Vec<Vec<u64>> = m.rows.iter().map(|r| r.documents.clone()).collect();
    assert_eq!(cells, [[27, 38, 0], [27, 0, 35], [0, 38, 0], [0, 0, 35]]);
    let totals: Vec<u64> = m.rows.iter().map(|r| r.total_documents).collect();
    assert_eq!(totals, [65, 62, 38, 35]);
    // Every document is on exactly replication-factor nodes.
    assert_eq!(totals.iter().sum::<u64>(), 200);
    assert!(m.unheld.is_empty());
}

#[test]
fn agrees_with_report() {
    let mut ids: Vec<String> = (0..3000).map(|i| format!("orders/{i}-A")).collect();
    ids.extend((0..400).map(|i| format!("lines/{i}$customers/{}-A", i % 7)));
    ids.extend((0..7).map(|i| format!("Customers/{i}-A")));
    ids.push(String::new());
    let d: Vec<Document> = ids.iter().cloned().map(Document::new).collect();
    let t = three_shards();
    let p = Placement::new(&d, &t, &PlacementOptions::default());
    let r = report(
        ids.iter().map(String::as_str),
        Some(&t),
        &ReportOptions::default(),
    );
    assert_eq!(p.totals().placed, r.documents);
    assert_eq!(p.totals().invalid, r.invalid_count);
    assert_eq!(p.totals().buckets_used, r.buckets_used);
    let ours: Vec<u64> = p.shards().iter().map(|s| s.documents).collect();
    let theirs: Vec<u64> = r.shards.iter().map(|s| s.documents).collect();
    assert_eq!(ours, theirs);
    assert_eq!(p.document_balance().skew, r.skew);
    assert_eq!(p.obese_threshold(), r.obese_threshold);
    assert_eq!(p.obese_buckets().len() as u64, r.obese_bucket_count);
    assert_eq!(p.groups().len() as u64, r.anchored_group_count);
    for g in p.groups() {
        let theirs = r
            .anchored_groups
            .iter()
            .find(|x| x.anchor == g.anchor)
            .unwrap();
        assert_eq!(g.members.len() as u64, theirs.count);
        assert_eq!(g.anchor_is_document(), theirs.anchor_is_document);
        assert_eq!(g.bucket, theirs.bucket);
    }
}

#[test]
fn rows_sort_and_filter() {
    let mut d = docs(&["b/2", "A/1", "c/3$a/1", "", "B/10"]);
    d[0].size = Some(5);
    d[1].size = Some(50);
    d[4].size = Some(1);
    d[0].collection = Some("Bs".into());
    d[4].collection = Some("Bs".into());
    d[1].collection = Some("As".into());
    let p = Placement::new(&d, &three_shards(), &PlacementOptions::default());
    let q = |sort, descending| {
        p.rows(&RowQuery {
            sort,
            descending,
            ..Default::default()
        })
        .indices()
        .to_vec()
    };
    assert_eq!(q(SortKey::Index, false), [0, 1, 2, 3, 4]);
    assert_eq!(q(SortKey::Index, true), [4, 3, 2, 1, 0]);
    assert_eq!(q(SortKey::Id, false), [3, 1, 4, 0, 2]);
    assert_eq!(q(SortKey::Size, false), [4, 0, 1, 2, 3]);
    assert_eq!(q(SortKey::Size, true), [1, 0, 4, 2, 3]);
    assert_eq!(q(SortKey::Collection, false), [1, 0, 4, 2, 3]);
    assert_eq!(q(SortKey::Collection, true), [4, 0, 1, 2, 3]);
    // Not placed: last either way.
    assert_eq!(q(SortKey::Bucket, false).last(), Some(&3));
    assert_eq!(q(SortKey::Shard, true).last(), Some(&3));
    let text = |t: &str| {
        p.rows(&RowQuery {
            text: t.into(),
            ..Default::default()
        })
        .indices()
        .to_vec()
    };
    assert_eq!(text("a/1"), [1, 2]);
    assert_eq!(text("/1"), [1, 2, 4]);
    // A match may not run from one ID into the next ("A/1" + "c/3...").
    assert_eq!(text("1c"), Vec::<u32>::new());
    assert_eq!(text("B/"), [0, 4]);
    let shard = p.place(1).unwrap().shard;
    let on_shard = p.rows(&RowQuery {
        shard: Some(shard),
        ..Default::default()
    });
    assert!(on_shard.indices().contains(&1) && on_shard.indices().contains(&2));
    let none = p.rows(&RowQuery {
        shard: Some(99),
        ..Default::default()
    });
    assert!(none.is_empty());
    let view = p.rows(&RowQuery::default());
    assert_eq!(view.slice(3, 99), [3, 4]);
    assert_eq!(view.slice(9, 2), Vec::<u32>::new());
}

#[test]
fn histogram_zooms_to_single_buckets() {
    let d = docs(&["customers/1-A", "orders/2-A$customers/1-A", "orders/1-A"]);
    let p = Placement::new(&d, &three_shards(), &PlacementOptions::default());
    let single = p.histogram(982170, 982180, 100);
    assert_eq!(single.len(), 10);
    assert!(single
        .iter()
        .all(|b| b.end == b.start + 1 && b.shard == Some(2)));
    assert_eq!(single[3].documents, 2);
    // Shard 1's range starts at 349525, inside the second bin.
    let around = p.histogram(349020, 350020, 2);
    assert_eq!((around[0].start, around[1].start), (349020, 349520));
    assert_eq!((around[0].mixed, around[1].mixed), (false, true));
    assert_eq!((around[0].shard, around[1].shard), (Some(0), Some(0)));
    let edge = p.histogram(349000, 350050, 2);
    assert_eq!((edge[0].mixed, edge[1].mixed), (false, false));
    assert_eq!(edge[1].shard, Some(1));
    assert!(p.histogram(5, 5, 10).is_empty());
    assert!(p.histogram(0, 10, 0).is_empty());
    // Past the last block: nobody's buckets.
    let past = p.histogram(NUMBER_OF_BUCKETS, NUMBER_OF_BUCKETS + 10, 1);
    assert_eq!((past[0].shard, past[0].documents), (None, 0));
}

#[test]
fn explain_one_document() {
    let d = docs(&["Orders/2-A$Customers/1-A"]);
    let p = Placement::new(&d, &three_shards(), &PlacementOptions::default());
    let e = p.explain(0).unwrap().unwrap();
    assert_eq!((e.bucket, e.shard), (982173, Some(2)));
    assert!(p.explain(1).is_none());
}

#[test]
fn empty_workspace() {
    let p = Placement::new(&[], &three_shards(), &PlacementOptions::default());
    assert!(p.is_empty());
    assert_eq!(p.document_balance().skew, None);
    assert_eq!(p.histogram(0, NUMBER_OF_BUCKETS, 4).len(), 4);
    assert!(p.rows(&RowQuery::default()).is_empty());
    assert!(p.groups().is_empty() && p.obese_buckets().is_empty());
}

// ---- properties ----

/// IDs from a small alphabet, so that anchors, duplicates in other casing, prefixes and
/// empty IDs all occur.
fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => "(eu/|ASIA/|)[aAbB/$0-2éÉẞ]{0,6}",
        1 => Just("x".repeat(513)),
    ]
}

fn document() -> impl Strategy<Value = Document> {
    (
        id(),
        proptest::option::of(0u64..10_000),
        proptest::option::of("[AB]"),
    )
        .prop_map(|(id, size, collection)| Document {
            id,
            size,
            collection,
            body: None,
        })
}

/// 1-5 shards, sometimes with prefixes, every shard held by node "ALL" and a few others.
fn topology() -> impl Strategy<Value = Topology> {
    (1u32..=5, 0usize..=2, any::<u64>()).prop_map(|(shards, prefixes, seed)| {
        let shard_json: Vec<String> = (0..shards)
            .map(|s| {
                let other = ["A", "B", "C"][((seed >> s) % 3) as usize];
                format!("\"{s}\": {{\"Members\": [\"ALL\", \"{other}\"]}}")
            })
            .collect();
        let prefix_json: Vec<String> = ["eu/", "asia/"][..prefixes]
            .iter()
            .enumerate()
            .map(|(k, p)| {
                format!(
                    "{{\"Prefix\": \"{p}\", \"Shards\": [{}]}}",
                    k as u32 % shards
                )
            })
            .collect();
        let json = format!(
            "{{\"Shards\": {{{}}}, \"Prefixed\": [{}]}}",
            shard_json.join(","),
            prefix_json.join(",")
        );
        Topology::from_json(&json).expect("generated topology is valid")
    })
}

fn sort_key() -> impl Strategy<Value = SortKey> {
    prop_oneof![
        Just(SortKey::Index),
        Just(SortKey::Id),
        Just(SortKey::Bucket),
        Just(SortKey::Shard),
        Just(SortKey::Size),
        Just(SortKey::Collection),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_document_is_counted_once(d in prop::collection::vec(document(), 0..80), t in topology()) {
        let p = Placement::new(&d, &t, &PlacementOptions::default());
        let totals = *p.totals();
        prop_assert_eq!(totals.documents, d.len() as u64);
        prop_assert_eq!(totals.placed + totals.invalid, totals.documents);
        let on_shards: u64 = p.shards().iter().map(|s| s.documents).sum();
        prop_assert_eq!(on_shards, totals.placed);
        let bytes: u64 = p.shards().iter().map(|s| s.bytes).sum();
        prop_assert_eq!(bytes, totals.bytes);
        let placed_bytes: u64 = (0..d.len())
            .filter(|&i| p.place(i).is_some())
            .filter_map(|i| d[i].size)
            .sum();
        prop_assert_eq!(totals.bytes, placed_bytes);
        let without: u64 = p.shards().iter().map(|s| s.without_size).sum();
        prop_assert_eq!(without, totals.without_size);
        let blocks: u64 = p.blocks().iter().map(|b| b.documents).sum();
        prop_assert_eq!(blocks, totals.placed);
        // Node "ALL" holds every shard, so it holds every placed document.
        let all = p.matrix().rows.iter().find(|r| r.node == "ALL").unwrap();
        prop_assert_eq!(all.total_documents, totals.placed);
        prop_assert_eq!(all.total_bytes, totals.bytes);
        let shares: f64 = p.shards().iter().map(|s| s.document_share).sum();
        prop_assert!(totals.placed == 0 || (shares - 1.0).abs() < 1e-9);
    }

    #[test]
    fn histogram_sums_to_the_documents(
        d in prop::collection::vec(document(), 0..80),
        t in topology(),
        bins in 1usize..3000,
    ) {
        let p = Placement::new(&d, &t, &PlacementOptions::default());
        let space = u32::try_from(p.bucket_space()).unwrap();
        let h = p.histogram(0, space, bins);
        prop_assert_eq!(h.len(), bins);
        prop_assert_eq!(h[0].start, 0);
        prop_assert_eq!(h[h.len() - 1].end, space);
        prop_assert!(h.windows(2).all(|w| w[0].end == w[1].start && w[0].start < w[0].end));
        prop_assert_eq!(h.iter().map(|b| b.documents).sum::<u64>(), p.totals().placed);
        prop_assert_eq!(h.iter().map(|b| b.bytes).sum::<u64>(), p.totals().bytes);
        for b in &h {
            prop_assert_eq!(b.documents, p.documents_in(b.start..b.end).len() as u64);
        }
    }

    #[test]
    fn rows_without_filter_are_a_permutation(
        d in prop::collection::vec(document(), 0..80),
        t in topology(),
        sort in sort_key(),
        descending in any::<bool>(),
    ) {
        let p = Placement::new(&d, &t, &PlacementOptions::default());
        let view = p.rows(&RowQuery { sort, descending, ..Default::default() });
        let mut seen = view.indices().to_vec();
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..d.len() as u32).collect::<Vec<_>>());
        // Sorted by the key, missing values last.
        let key = |i: u32| -> Option<u64> {
            let i = i as usize;
            match sort {
                SortKey::Bucket => p.place(i).map(|x| u64::from(x.bucket)),
                SortKey::Size => p.size(i),
                SortKey::Shard => p.place(i).map(|x| u64::from(x.shard)),
                _ => Some(0),
            }
        };
        let keys: Vec<Option<u64>> = view.indices().iter().map(|&i| key(i)).collect();
        let present = keys.iter().take_while(|k| k.is_some()).count();
        prop_assert!(keys[present..].iter().all(Option::is_none));
        let values: Vec<u64> = keys[..present].iter().flatten().copied().collect();
        let mut expected = values.clone();
        expected.sort_unstable();
        if descending { expected.reverse(); }
        prop_assert_eq!(values, expected);
        if sort == SortKey::Id {
            let ids: Vec<String> = view.indices().iter()
                .map(|&i| lower_id(&d[i as usize].id).into_owned()).collect();
            let mut sorted = ids.clone();
            sorted.sort();
            if descending { sorted.reverse(); }
            prop_assert_eq!(ids, sorted);
        }
    }

    #[test]
    fn filters_match_a_naive_filter(
        d in prop::collection::vec(document(), 0..80),
        t in topology(),
        text in "[aAbB/$0-2éÉ]{0,3}",
        shard in proptest::option::of(0u32..5),
        sort in sort_key(),
    ) {
        let p = Placement::new(&d, &t, &PlacementOptions::default());
        let view = p.rows(&RowQuery { text: text.clone(), shard, sort, ..Default::default() });
        let needle = lower_id(&text).into_owned();
        let expected: BTreeSet<u32> = (0..d.len() as u32)
            .filter(|&i| lower_id(&d[i as usize].id).contains(needle.as_str()))
            .filter(|&i| shard.is_none_or(|s| p.place(i as usize).is_some_and(|x| x.shard == s)))
            .collect();
        let got: BTreeSet<u32> = view.indices().iter().copied().collect();
        prop_assert_eq!(got.len(), view.len());
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn documents_in_bucket_agrees_with_locate(
        d in prop::collection::vec(document(), 0..80),
        t in topology(),
    ) {
        let p = Placement::new(&d, &t, &PlacementOptions::default());
        let mut by_bucket: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for (i, doc) in d.iter().enumerate() {
            match t.locate(&doc.id) {
                Ok(l) => {
                    let place = p.place(i).unwrap();
                    prop_assert_eq!((place.bucket, place.shard), (l.bucket, l.shard));
                    by_bucket.entry(l.bucket).or_default().push(i as u32);
                }
                Err(e) => {
                    prop_assert!(p.place(i).is_none());
                    prop_assert_eq!(&p.error(i).unwrap().message, &e.to_string());
                }
            }
        }
        for (bucket, indices) in &by_bucket {
            prop_assert_eq!(p.documents_in_bucket(*bucket), indices.as_slice());
        }
        prop_assert_eq!(p.totals().buckets_used, by_bucket.len() as u64);
    }

    #[test]
    fn groups_and_duplicates_match_a_naive_count(
        d in prop::collection::vec(document(), 0..80),
        t in topology(),
    ) {
        let p = Placement::new(&d, &t, &PlacementOptions::default());
        let lower: Vec<Option<String>> = (0..d.len())
            .map(|i| p.place(i).map(|_| lower_id(&d[i].id).into_owned()))
            .collect();
        let mut by_id: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        let mut anchors: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for (i, l) in lower.iter().enumerate() {
            let Some(l) = l else { continue };
            by_id.entry(l).or_default().push(i as u32);
            let start = ravenshard::anchor_start(l.as_bytes());
            if start > 0 {
                anchors.entry(&l[start..]).or_default().push(i as u32);
            }
        }
        let dups: Vec<Vec<u32>> = by_id.values().filter(|v| v.len() > 1).cloned().collect();
        let mut ours: Vec<Vec<u32>> = p.duplicates().iter().map(|x| x.indices.clone()).collect();
        ours.sort();
        let mut dups_sorted = dups;
        dups_sorted.sort();
        prop_assert_eq!(ours, dups_sorted);
        prop_assert_eq!(p.groups().len(), anchors.len());
        for (rank, g) in p.groups().iter().enumerate() {
            prop_assert_eq!(&g.members, &anchors[g.anchor.as_str()]);
            let anchor_docs = by_id.get(g.anchor.as_str()).cloned().unwrap_or_default();
            prop_assert_eq!(g.anchor_document, anchor_docs.first().copied());
            prop_assert_eq!(g.documents, (g.members.len() + anchor_docs.len()) as u64);
            for &i in g.members.iter().chain(&anchor_docs) {
                prop_assert_eq!(p.place(i as usize).unwrap().group, Some(rank as u32));
            }
        }
        prop_assert!(p.groups().windows(2).all(|w| w[0].documents >= w[1].documents));
        let grouped = (0..d.len()).filter(|&i| p.place(i).is_some_and(|x| x.group.is_some())).count();
        prop_assert_eq!(grouped as u64, p.groups().iter().map(|g| g.documents).sum::<u64>());
    }
}

#[test]
fn the_chapters_design_places_pinned_generated_and_rejected_documents() {
    use ravenshard_design::content::ContentDesign;
    let topology = Topology::from_json(
        r#"{"Shards": {"0": {}, "1": {}, "2": {}},
            "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#,
    )
    .unwrap();
    let design = ContentDesign::from_topology(&topology).unwrap();
    let order = |id: &str, customer: &str| Document {
        id: id.into(),
        size: None,
        collection: Some("Orders".into()),
        body: Some(format!(r#"{{"Customer":"{customer}"}}"#)),
    };
    let documents = [
        order("orders/1-A$", "customers/1-A"),
        order("orders/2-A$customers/1-A", "customers/1-A"),
        order("orders/3-A", "customers/1-A"),
        Document::new("x$@5"),
        Document::new("y$@1048576"),
        Document::new("invoices/1$"),
        order("orders/4-A$@982000", "customers/2-B"),
    ];
    let options = PlacementOptions {
        design,
        ..Default::default()
    };
    let p = Placement::new(&documents, &topology, &options);
    assert_eq!(p.generated(), [(0, "orders/1-A$@982326".to_string())]);
    assert_eq!(p.row(0).unwrap().generated, Some("orders/1-A$@982326"));
    assert_eq!(p.place(0).unwrap().bucket, 982326);
    assert_eq!(p.place(1).unwrap().bucket, 982173);
    // orders/3-A is outside customers/1-A's block: the write is rejected.
    let own = ravenshard::bucket_for("orders/3-A").unwrap();
    let message = &p.error(2).unwrap().message;
    assert!(message.starts_with(&format!("Rejected: 'orders/3-A' is in bucket {own}")));
    assert_eq!(p.place(3).unwrap().bucket, 5);
    assert!(p.error(4).unwrap().message.contains("from 0 to 1048575"));
    assert!(p
        .error(5)
        .unwrap()
        .message
        .contains("need a ByContent rule for collection invoices"));
    assert!(p.error(6).unwrap().message.contains("has bucket 2423"));
    assert_eq!(p.totals().placed, 3);
    // Without the design, the same documents follow RavenDB 7.x.
    let plain = Placement::new(&documents, &topology, &PlacementOptions::default());
    assert_eq!(plain.place(2).unwrap().bucket, own);
    assert!(plain.generated().is_empty());
}

#[test]
fn id_conventions_name_the_workspaces_documents() {
    use ravenshard_design::content::ContentDesign;
    let topology = Topology::from_json(
        r#"{"Shards": {"0": {}, "1": {}, "2": {}}, "ByContent": {},
            "IdConventions": {"Invoices": "{Id}${OrderId}"}}"#,
    )
    .unwrap();
    let invoice = Document {
        id: "invoices/1-A".into(),
        size: None,
        collection: Some("Invoices".into()),
        body: Some(r#"{"OrderId":"orders/1-A"}"#.into()),
    };
    let options = PlacementOptions {
        design: ContentDesign::from_topology(&topology).unwrap(),
        ..Default::default()
    };
    let p = Placement::new(
        &[invoice, Document::new("invoices/2-A")],
        &topology,
        &options,
    );
    assert_eq!(p.generated_id(0), Some("invoices/1-A$orders/1-A"));
    assert_eq!(p.place(0).unwrap().bucket, 151326);
    assert!(p.error(1).unwrap().message.contains("has no field OrderId"));
}
