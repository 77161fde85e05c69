//! A placement kept up to date in place (a change of topology, an edit of documents)
//! answers exactly as one placed from scratch, after any sequence of changes (proptest).

use proptest::prelude::*;
use ravenshard::Topology;
use ravenshard_model::workspace::{
    Document, GroupSummary, Placement, PlacementOptions, Row, RowQuery, RowView, SortKey, Unplaced,
};

const SORTS: [SortKey; 6] = SortKey::ALL;

/// Every public answer of `kept` equals the one of a placement made from scratch.
fn assert_same(kept: &Placement, documents: &[Document], topology: &Topology) {
    assert_same_with(kept, documents, topology, &PlacementOptions::default());
}

/// [`assert_same`] with these options.
fn assert_same_with(
    kept: &Placement,
    documents: &[Document],
    topology: &Topology,
    options: &PlacementOptions,
) {
    let fresh = Placement::new(documents, topology, options);
    // A bucket's documents scanned (before anything makes the kept placement's bucket
    // index) equal the fresh index's; the first used bucket of a range is the first
    // document's there.
    let in_order = fresh.documents_in(0..u32::MAX);
    let bucket = |i: &u32| fresh.place(*i as usize).map(|p| p.bucket);
    let mut used: Vec<u32> = in_order.iter().filter_map(bucket).collect();
    used.dedup();
    for &b in used.iter().take(6) {
        assert_eq!(kept.documents_in_bucket(b), fresh.documents_in(b..b + 1));
        let from = b.saturating_sub(1000);
        let first = fresh.documents_in(from..b + 1).first().and_then(bucket);
        assert_eq!(kept.first_used_bucket(from..b + 1), first);
    }
    // One group at a time first (read from the kept order, before the list of every
    // group is made), then the whole list.
    let ranks = fresh.groups().len() as u32;
    for rank in 0..=ranks {
        let summary = fresh.groups().get(rank as usize).map(GroupSummary::from);
        assert_eq!(kept.group_summary(rank), summary);
        assert_eq!(kept.group(rank).as_ref(), fresh.groups().get(rank as usize));
    }
    let obese = fresh.groups().iter().filter(|g| g.obese).count();
    assert_eq!(kept.obese_group_count(), obese);
    assert_eq!(kept.group_count(), fresh.groups().len());
    assert_eq!(kept.topology(), fresh.topology());
    assert_eq!(kept.len(), fresh.len());
    assert_eq!(kept.totals(), fresh.totals());
    assert_eq!(kept.shards(), fresh.shards());
    assert_eq!(kept.document_balance(), fresh.document_balance());
    assert_eq!(kept.byte_balance(), fresh.byte_balance());
    assert_eq!(kept.matrix(), fresh.matrix());
    assert_eq!(kept.blocks(), fresh.blocks());
    assert_eq!(kept.groups(), fresh.groups());
    assert_eq!(kept.obese_threshold(), fresh.obese_threshold());
    assert_eq!(kept.obese_buckets(), fresh.obese_buckets());
    assert_eq!(kept.duplicates(), fresh.duplicates());
    assert_eq!(kept.invalid(), fresh.invalid());
    assert_eq!(kept.collections(), fresh.collections());
    assert_eq!(
        kept.documents_in(0..u32::MAX),
        fresh.documents_in(0..u32::MAX)
    );
    assert_eq!(kept.bucket_load(), fresh.bucket_load());
    assert_eq!(kept.generated(), fresh.generated());
    let end = u32::try_from(fresh.bucket_space()).unwrap_or(u32::MAX);
    for (start, stop, bins) in [(0, end, 97), (0, 1 << 20, 1000), (500_000, 1 << 21, 7)] {
        assert_eq!(
            kept.histogram(start, stop, bins),
            fresh.histogram(start, stop, bins)
        );
        assert_eq!(
            kept.documents_in(start..stop),
            fresh.documents_in(start..stop)
        );
    }
    for bucket in fresh
        .documents_in(0..u32::MAX)
        .iter()
        .filter_map(|&i| fresh.place(i as usize))
    {
        assert_eq!(
            kept.documents_in_bucket(bucket.bucket),
            fresh.documents_in_bucket(bucket.bucket)
        );
    }
    let filters = [
        RowQuery {
            text: "ORDERS".into(),
            ..Default::default()
        },
        RowQuery {
            shard: Some(1),
            sort: SortKey::Id,
            ..Default::default()
        },
        RowQuery {
            group: Some(0),
            sort: SortKey::Size,
            ..Default::default()
        },
    ];
    let groups = (0..=ranks).map(|group| RowQuery {
        group: Some(group),
        descending: group % 2 == 1,
        sort: SORTS[group as usize % SORTS.len()],
        ..Default::default()
    });
    for query in filters.into_iter().chain(groups) {
        assert_same_rows(&kept.rows(&query), &fresh.rows(&query), &query);
    }
    for i in 0..fresh.len() {
        assert_eq!(kept.place(i), fresh.place(i), "document {i}");
        assert_eq!(kept.row(i), fresh.row(i), "document {i}");
        let unranked = fresh.row(i).map(|row| Row { group: None, ..row });
        assert_eq!(kept.row_unranked(i), unranked, "document {i}");
    }
    for sort in SORTS {
        for descending in [false, true] {
            let query = RowQuery {
                sort,
                descending,
                ..Default::default()
            };
            assert_same_rows(&kept.rows(&query), &fresh.rows(&query), &query);
        }
    }
}

/// The two views list the same documents, read whole, row by row and by slices.
fn assert_same_rows(kept: &RowView, fresh: &RowView, query: &RowQuery) {
    let indices = fresh.indices();
    assert_eq!(kept.indices(), indices, "{query:?}");
    assert_eq!(kept.len(), indices.len(), "{query:?}");
    assert_eq!(kept, fresh, "{query:?}");
    for (row, &i) in indices.iter().enumerate() {
        assert_eq!(kept.get(row), Some(i), "{query:?} row {row}");
    }
    assert_eq!(kept.get(indices.len()), None);
    let (a, b) = (indices.len() / 3, indices.len() / 2 + 2);
    assert_eq!(
        kept.slice(a, b),
        indices[a.min(indices.len())..b.min(indices.len())]
    );
}

/// Whether a document has no shard.
fn has_unowned(p: &Placement) -> bool {
    p.invalid()
        .iter()
        .any(|d| matches!(d.reason, Unplaced::NoShard { .. }))
}

/// Warms every sort order, so a stale cached order would show.
fn warm(p: &Placement) {
    for sort in SORTS {
        p.rows(&RowQuery {
            sort,
            ..Default::default()
        });
    }
}

fn topology(json: &str) -> Topology {
    Topology::from_json(json).expect("a valid test topology")
}

#[test]
fn shard_count_change_keeps_answers() {
    let docs: Vec<Document> = [
        "orders/1-A",
        "customers/1-A",
        "orders/2-A$customers/1-A",
        "",
    ]
    .into_iter()
    .map(Document::new)
    .collect();
    let mut p = Placement::new(
        &docs,
        &topology(r#"{"Shards": {"0": {}}}"#),
        &Default::default(),
    );
    warm(&p);
    for count in [3, 7, 2] {
        let t = Topology::with_shards(count).expect("valid");
        p.set_topology(&t).expect("no design, no unowned bucket");
        assert_same(&p, &docs, &t);
    }
}

#[test]
fn prefix_change_moves_only_matching_ids() {
    let docs: Vec<Document> = ["eu/orders/1", "EU/a$eu/b", "us/1", "orders/1$eu/b", "eu/b"]
        .into_iter()
        .map(Document::new)
        .collect();
    let plain = topology(r#"{"Shards": {"0": {}, "1": {}}}"#);
    let mut p = Placement::new(&docs, &plain, &Default::default());
    warm(&p);
    let eu = topology(
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#,
    );
    p.set_topology(&eu).expect("in place");
    assert_same(&p, &docs, &eu);
    assert!(p.groups().iter().any(|g| g.split));
    p.set_topology(&plain).expect("in place");
    assert_same(&p, &docs, &plain);
}

#[test]
fn design_is_refused_and_nothing_changes() {
    let design = ravenshard_design::content::ContentDesign::default();
    let options = PlacementOptions {
        design: Some(design),
        ..Default::default()
    };
    let docs = [Document::new("orders/1-A")];
    let three = Topology::with_shards(3).expect("valid");
    let mut p = Placement::new(&docs, &three, &options);
    let before = p.shards().to_vec();
    assert!(p
        .set_topology(&Topology::with_shards(5).expect("valid"))
        .is_err());
    assert_eq!(p.shards(), before);
}

/// A topology: 1-4 shards, optional custom range starts, 0-3 prefixes in some order,
/// members on some shards.
fn topologies() -> impl Strategy<Value = Topology> {
    (
        1u32..5,
        proptest::collection::vec((1u32..(1 << 20), 0u32..4), 0..3),
        proptest::sample::subsequence(vec!["eu/", "us/", "eu/a/", "asia/"], 0..3),
        any::<bool>(),
        0u32..4,
    )
        .prop_map(|(count, extra, prefixes, reverse, members)| {
            let shards: Vec<String> = (0..count)
                .map(|s| {
                    let m = if s < members { r#"["A"]"# } else { "[]" };
                    format!(r#""{s}": {{"Members": {m}}}"#)
                })
                .collect();
            let mut starts: Vec<(u32, u32)> = vec![(0, 0)];
            starts.extend(extra.into_iter().map(|(s, k)| (s, k % count)));
            starts.sort_unstable();
            starts.dedup_by_key(|(s, _)| *s);
            let mut prefixes = prefixes;
            if reverse {
                prefixes.reverse();
            }
            // Prefix k owns block k + 1, held by one shard.
            starts.extend((1u32..).zip(&prefixes).map(|(k, _)| (k << 20, k % count)));
            let ranges: Vec<String> = starts
                .iter()
                .map(|(s, k)| format!(r#"{{"ShardNumber": {k}, "BucketRangeStart": {s}}}"#))
                .collect();
            let prefixed: Vec<String> = (1u32..)
                .zip(&prefixes)
                .map(|(k, p)| {
                    format!(
                        r#"{{"Prefix": "{p}", "Shards": [{}], "BucketRangeStart": {}}}"#,
                        k % count,
                        k << 20
                    )
                })
                .collect();
            let json = format!(
                r#"{{"Shards": {{{}}}, "BucketRanges": [{}], "Prefixed": [{}]}}"#,
                shards.join(","),
                ranges.join(","),
                prefixed.join(",")
            );
            topology(&json)
        })
}

fn documents() -> impl Strategy<Value = Vec<Document>> {
    let id = (
        prop::sample::select(vec!["", "eu/", "EU/", "us/", "eu/a/", "asia/"]),
        prop::sample::select(vec!["orders/1", "orders/2", "customers/1", "Users/4", "x"]),
        prop::sample::select(vec!["", "$customers/1", "$users/4", "$eu/x", "$"]),
    );
    let body = prop::sample::select(vec![
        None,
        None,
        Some(r#"{"Customer": "customers/1"}"#),
        Some(r#"{"Customer": 7}"#),
        Some("not JSON"),
    ]);
    let doc = (
        id,
        proptest::option::of(0u64..5000),
        proptest::option::of(prop::sample::select(vec!["Orders", "Users"])),
        body,
    )
        .prop_map(|((p, base, anchor), size, collection, body)| Document {
            id: format!("{p}{base}{anchor}"),
            size,
            collection: collection.map(String::from),
            body: body.map(String::from),
        });
    proptest::collection::vec(doc, 0..40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn topology_changes_match_a_fresh_placement(
        docs in documents(),
        first in topologies(),
        changes in proptest::collection::vec(topologies(), 1..5),
    ) {
        let mut p = Placement::new(&docs, &first, &PlacementOptions::default());
        for t in changes {
            warm(&p);
            let fresh = Placement::new(&docs, &t, &PlacementOptions::default());
            let owned = !has_unowned(&p) && !has_unowned(&fresh);
            match p.set_topology(&t) {
                Ok(()) => {}
                Err(e) => {
                    prop_assert!(!owned, "{e}");
                    p = fresh;
                }
            }
            assert_same(&p, &docs, &t);
        }
    }
}

/// One change of a workspace: an edit of its documents (lines `at..at + remove` replaced,
/// as the ID editor does), another topology, or an import of other documents.
#[derive(Debug, Clone)]
enum Change {
    Edit {
        at: usize,
        remove: usize,
        insert: Vec<Document>,
    },
    Topology(Topology),
    Import(Vec<Document>),
}

fn changes() -> impl Strategy<Value = Vec<Change>> {
    let edit = (
        0usize..50,
        0usize..4,
        documents().prop_map(|mut d| {
            d.truncate(4);
            d
        }),
    )
        .prop_map(|(at, remove, insert)| Change::Edit { at, remove, insert });
    // More documents than the kept orders take one at a time (they merge them instead).
    let large = (0usize..50, 0usize..40, documents())
        .prop_map(|(at, remove, insert)| Change::Edit { at, remove, insert });
    let change = prop_oneof![
        5 => edit,
        2 => large,
        2 => topologies().prop_map(Change::Topology),
        1 => documents().prop_map(Change::Import),
    ];
    proptest::collection::vec(change, 1..8)
}

/// Applies an edit or an import to both the placement and the list of documents; gives
/// back a change of topology, which the caller applies.
fn edit_both(p: &mut Placement, docs: &mut Vec<Document>, change: Change) -> Option<Topology> {
    match change {
        Change::Edit { at, remove, insert } => {
            let at = at % (docs.len() + 1);
            let remove = remove.min(docs.len() - at);
            p.splice(at..at + remove, &insert).expect("the edit fits");
            docs.splice(at..at + remove, insert);
        }
        Change::Topology(t) => return Some(t),
        Change::Import(new) => {
            p.splice(0..docs.len(), &new).expect("the import fits");
            *docs = new;
        }
    }
    None
}

/// Applies `changes` to a placement in place and to a list of documents, and checks after
/// each that the placement answers as one made from scratch.
fn follow(docs: Vec<Document>, first: Topology, changes: Vec<Change>, options: &PlacementOptions) {
    let mut docs = docs;
    let mut topology = first;
    let mut p = Placement::new(&docs, &topology, options);
    for change in changes {
        warm(&p);
        if let Some(t) = edit_both(&mut p, &mut docs, change) {
            if p.set_topology(&t).is_err() {
                p = Placement::new(&docs, &t, options);
            }
            topology = t;
        }
        assert_same_with(&p, &docs, &topology, options);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn edits_match_a_fresh_placement(
        docs in documents(),
        first in topologies(),
        changes in changes(),
    ) {
        follow(docs, first, changes, &PlacementOptions::default());
    }

    #[test]
    fn edits_under_a_design_or_a_threshold_match_a_fresh_placement(
        docs in documents(),
        first in topologies(),
        changes in changes(),
        threshold in proptest::option::of(0u64..4),
    ) {
        let options = PlacementOptions {
            obese_threshold: threshold,
            design: threshold.is_some().then(ravenshard_design::content::ContentDesign::default),
        };
        follow(docs, first, changes, &options);
    }
}

#[test]
fn an_edit_out_of_range_changes_nothing() {
    let docs = [Document::new("orders/1-A")];
    let t = Topology::with_shards(3).expect("valid");
    let mut p = Placement::new(&docs, &t, &PlacementOptions::default());
    let err = p.splice(1..3, &[]).expect_err("past the end");
    assert!(err.to_string().contains("there are 1"), "{err}");
    assert_same(&p, &docs, &t);
}

#[test]
fn the_test_topologies_parse() {
    let json = r#"{"Shards": {"0": {"Members": ["A"]},"1": {"Members": []}}, "BucketRanges": [{"ShardNumber": 0, "BucketRangeStart": 0},{"ShardNumber": 1, "BucketRangeStart": 7}], "Prefixed": [{"Prefix": "eu/", "Shards": [1], "BucketRangeStart": 1048576}]}"#;
    let t = topology(&json.replace(
        "7}]",
        "7}, {\"ShardNumber\": 1, \"BucketRangeStart\": 1048576}]",
    ));
    assert_eq!(t.ranges().len(), 3);
}

#[test]
fn a_large_placement_made_at_once_equals_one_made_in_small_edits() {
    let generator = ravenshard_model::sample::Generator {
        documents: 3000,
        anchored_share: 0.5,
        seed: 7,
    };
    let mut docs = generator.generate().expect("a valid generator");
    docs.extend(docs[..40].to_vec());
    docs.push(Document::new(""));
    let t = topology(
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "employees/", "Shards": [1]}]}"#,
    );
    let options = PlacementOptions::default();
    // Made at once (the aggregates built from the bucket order) ...
    let at_once = Placement::new(&docs, &t, &options);
    // ... and one edit of at most 500 documents at a time.
    let mut edited = Placement::new(&[], &t, &options);
    for chunk in docs.chunks(500) {
        let end = edited.len();
        edited.splice(end..end, chunk).expect("fits");
    }
    warm(&edited);
    assert_same(&edited, &docs, &t);
    assert_same(&at_once, &docs, &t);
    // A prefix that moves most documents (the aggregates built again at once), then back.
    let orders = topology(
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "employees/", "Shards": [1]}, {"Prefix": "orders/", "Shards": [0]}]}"#,
    );
    for t in [&orders, &t] {
        edited.set_topology(t).expect("in place");
        assert_same(&edited, &docs, t);
    }
    // An import over a placement replaces every document at once.
    let other: Vec<Document> = docs[1000..2500].to_vec();
    edited.splice(0..edited.len(), &other).expect("fits");
    assert_same(&edited, &other, &t);
}

/// Two different IDs whose whole-ID hashes share their high 32 bits (the duplicate table's
/// key): found by the birthday bound among a few hundred thousand IDs.
fn colliding_ids() -> (String, String) {
    let mut seen = std::collections::HashMap::new();
    for i in 0u32.. {
        let id = format!("c/{i}");
        let half = (ravenshard::hash_of_key(id.as_bytes()) >> 32) as u32;
        if let Some(other) = seen.insert(half, id.clone()) {
            return (other, id);
        }
    }
    unreachable!("a collision is found long before u32::MAX IDs")
}

#[test]
fn ids_whose_hashes_share_a_key_are_not_duplicates() {
    let (a, b) = colliding_ids();
    assert_ne!(a, b);
    let t = Topology::with_shards(3).expect("valid");
    let docs: Vec<Document> = [&a, &b, &a.to_uppercase(), &b]
        .into_iter()
        .map(|id| Document::new(id.as_str()))
        .collect();
    let mut p = Placement::new(&docs[..2], &t, &PlacementOptions::default());
    assert!(p.duplicates().is_empty());
    assert_eq!(p.totals().duplicates, 0);
    p.splice(2..2, &docs[2..]).expect("fits");
    assert_eq!(p.totals().duplicates, 2);
    let listed: Vec<(&str, &[u32])> = p
        .duplicates()
        .iter()
        .map(|d| (d.lower_id.as_str(), d.indices.as_slice()))
        .collect();
    assert_eq!(
        listed,
        [(a.as_str(), &[0, 2][..]), (b.as_str(), &[1, 3][..])]
    );
    assert_same(&p, &docs, &t);
    p.splice(0..1, &[]).expect("fits");
    assert_same(&p, &docs[1..], &t);
}

/// Documents in many anchored groups (`o/<n>$c/<k>`, and `c/<k>` itself as the anchor
/// document), so that one edit changes more groups, and more rows, than the kept orders
/// move one at a time.
fn grouped() -> impl Strategy<Value = Vec<Document>> {
    let doc = (0u32..6, 0u32..60, proptest::option::of(0u64..100)).prop_map(|(kind, k, size)| {
        let id = match kind {
            0 => format!("c/{k}"),
            1 => format!("O/{k}"),
            _ => format!("o/{kind}$C/{k}"),
        };
        Document {
            id,
            size,
            collection: (k % 3 != 0).then(|| format!("c{}", k % 4)),
            body: None,
        }
    });
    proptest::collection::vec(doc, 0..120)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The groups' ranks and the rows' orders kept across edits (only the orders a query
    /// asked for) equal those of a fresh placement.
    #[test]
    fn edits_of_many_groups_keep_ranks_and_orders(
        docs in grouped(),
        edits in proptest::collection::vec((0usize..150, 0usize..60, grouped()), 1..5),
        warmed in proptest::sample::subsequence(SORTS.to_vec(), 0..=SORTS.len()),
    ) {
        let t = Topology::with_shards(3).expect("valid");
        let mut docs = docs;
        let mut p = Placement::new(&docs, &t, &PlacementOptions::default());
        for (at, remove, insert) in edits {
            for &sort in &warmed {
                p.rows(&RowQuery { sort, ..Default::default() });
            }
            // The groups' order is made, then kept by the edit.
            p.group(0);
            let at = at % (docs.len() + 1);
            let remove = remove.min(docs.len() - at);
            p.splice(at..at + remove, &insert).expect("the edit fits");
            docs.splice(at..at + remove, insert);
            assert_same(&p, &docs, &t);
        }
    }
}

#[test]
fn an_edit_of_most_groups_sorts_them_again() {
    let docs: Vec<Document> = (0..1000)
        .map(|i| Document::new(format!("o/{i}$c/{}", i % 700)))
        .collect();
    let t = Topology::with_shards(3).expect("valid");
    let mut p = Placement::new(&docs, &t, &PlacementOptions::default());
    assert_eq!(p.group(0).map(|g| g.documents), Some(2));
    // 600 documents of 600 groups go: more than the kept order moves one at a time.
    p.splice(0..600, &[]).expect("fits");
    assert_same(&p, &docs[600..], &t);
    let back: Vec<Document> = docs[..600].to_vec();
    p.splice(0..0, &back).expect("fits");
    assert_same(&p, &docs, &t);
}

/// The chapter's design with a rule for `Orders` (its `Customer` field), so that bodies
/// matter: `on` says whether the design is on.
fn with_design(on: bool, threshold: Option<u64>) -> PlacementOptions {
    let keys =
        serde_json::json!({"ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}});
    let design = keys.as_object().and_then(|k| {
        ravenshard_design::content::ContentDesign::from_configuration(k)
            .ok()
            .flatten()
    });
    assert!(design.is_some(), "the test design reads");
    PlacementOptions {
        obese_threshold: threshold,
        design: design.filter(|_| on),
    }
}

/// Applies `changes` to a placement that is the only store of the documents: a change of
/// topology follows in place or places again from the placement's own tables, and after
/// each change the design is turned on or off (`designs`) the same way. After each, the
/// documents the placement gives back are the documents, and it answers as one made from
/// scratch.
fn follow_from_the_store(
    docs: Vec<Document>,
    first: Topology,
    changes: Vec<Change>,
    designs: Vec<bool>,
    threshold: Option<u64>,
) {
    let mut docs = docs;
    let mut topology = first;
    let mut options = with_design(false, threshold);
    let mut p = Placement::new(&docs, &topology, &options);
    let designs = designs.into_iter().chain(std::iter::repeat(false));
    for (change, design) in changes.into_iter().zip(designs) {
        warm(&p);
        if let Some(t) = edit_both(&mut p, &mut docs, change) {
            p.reconfigure(&t, &options).expect("documents always place");
            topology = t;
        }
        assert_eq!(p.documents(0..usize::MAX).collect::<Vec<_>>(), docs);
        assert_same_with(&p, &docs, &topology, &options);
        let wanted = with_design(design, threshold);
        if wanted != options {
            warm(&p);
            let in_place = p.reconfigure(&topology, &wanted).expect("documents place");
            assert!(!in_place, "other options are placed again");
            options = wanted;
            assert_same_with(&p, &docs, &topology, &options);
        }
        let again = p
            .placed_again(&topology, &options)
            .expect("documents place");
        assert_same_with(&again, &docs, &topology, &options);
        let bodies = docs.iter().filter(|d| d.body.is_some()).count();
        assert_eq!(again.bodies(), bodies);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_placement_placed_again_from_its_own_store_matches_a_fresh_one(
        docs in documents(),
        first in topologies(),
        changes in changes(),
        designs in proptest::collection::vec(any::<bool>(), 0..8),
        threshold in proptest::option::of(0u64..4),
    ) {
        follow_from_the_store(docs, first, changes, designs, threshold);
    }
}

#[test]
fn a_large_placement_placed_again_equals_a_fresh_one() {
    let generator = ravenshard_model::sample::Generator {
        documents: 10_000,
        anchored_share: 0.5,
        seed: 3,
    };
    let mut docs = generator.generate().expect("a valid generator");
    for (i, d) in docs.iter_mut().enumerate().step_by(7) {
        d.collection = Some("Orders".into());
        d.body = Some(format!(r#"{{"Customer": "customers/{}"}}"#, i % 13));
    }
    let three = Topology::with_shards(3).expect("valid");
    let p = Placement::new(&docs, &three, &PlacementOptions::default());
    assert_eq!(p.documents(0..docs.len()).collect::<Vec<_>>(), docs);
    let five = Topology::with_shards(5).expect("valid");
    for options in [with_design(true, None), with_design(false, Some(3))] {
        let again = p.placed_again(&five, &options).expect("documents place");
        assert_same_with(&again, &docs, &five, &options);
    }
}

#[test]
fn bodies_follow_their_documents_through_edits() {
    let body = |i: u32| Document {
        body: Some(format!("{{\"n\": {i}}}")),
        ..Document::new(format!("orders/{i}"))
    };
    let docs: Vec<Document> = (0..6)
        .map(|i| {
            if i % 2 == 0 {
                body(i)
            } else {
                Document::new(format!("x/{i}"))
            }
        })
        .collect();
    let t = Topology::with_shards(3).expect("valid");
    let mut p = Placement::new(&docs, &t, &PlacementOptions::default());
    assert_eq!(p.bodies(), 3);
    // Removes documents 1 and 2 (one body), inserts three (one body): the bodies after
    // move by one.
    p.splice(1..3, &[Document::new("a"), body(9), Document::new("b")])
        .expect("fits");
    let ids: Vec<(String, Option<String>)> = p.documents(0..10).map(|d| (d.id, d.body)).collect();
    let n = |i: u32| Some(format!("{{\"n\": {i}}}"));
    assert_eq!(
        ids.iter().map(|(_, b)| b.clone()).collect::<Vec<_>>(),
        [n(0), None, n(9), None, None, n(4), None]
    );
    assert_eq!(p.body(5), n(4).as_deref());
    assert!(p.heap_bytes() > 0);
}

#[test]
fn bodies_and_ids_replaced_many_times_read_back_after_compaction() {
    let doc = |i: usize, round: usize| Document {
        body: (i % 3 != 0).then(|| format!(r#"{{"Round": {round}, "Pad": "{}"}}"#, "x".repeat(90))),
        ..Document::new(format!("orders/{i}-{round}-{}", "y".repeat(40)))
    };
    let t = Topology::with_shards(3).expect("valid");
    let mut docs: Vec<Document> = (0..2_000).map(|i| doc(i, 0)).collect();
    let mut p = Placement::new(&docs, &t, &PlacementOptions::default());
    // Every document replaced, one at a time, four times: far more garbage than the 64 KiB
    // an arena keeps before it compacts.
    for round in 1..5 {
        for (i, slot) in docs.iter_mut().enumerate() {
            *slot = doc(i, round);
            p.splice(i..i + 1, std::slice::from_ref(slot))
                .expect("fits");
        }
    }
    assert_eq!(p.documents(0..usize::MAX).collect::<Vec<_>>(), docs);
    assert_same(&p, &docs, &t);
    let live: usize = docs
        .iter()
        .map(|d| d.id.len() + d.body.as_ref().map_or(0, String::len))
        .sum();
    assert!(
        p.heap_bytes() < 4 * live + 100 * docs.len(),
        "the garbage was compacted"
    );
}
