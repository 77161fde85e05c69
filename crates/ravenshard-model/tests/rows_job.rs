//! The documents view's rows made a step at a time ([`RowsJob`]) equal the rows made at
//! once, whatever the step sizes, and both equal the rows a plain reading of the rules
//! gives: the documents with the value by it (IDs by their lowered form, then as given),
//! ties by index, the others last in input order; a filter keeps the documents on the
//! shard, in the group and whose lowered ID holds the text.

use proptest::prelude::*;
use ravenshard::{lower_id, ServerVersion, Topology};
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::{
    Document, Placement, PlacementChanged, PlacementOptions, RowQuery, RowView, RowsJob, SortKey,
};

const SORTS: [SortKey; 6] = SortKey::ALL;

/// The rows of `query` by a plain reading of the rules, from the placement's answers per
/// document.
fn reference(p: &Placement, query: &RowQuery) -> Vec<u32> {
    let shards: Vec<u32> = p.topology().shards().map(|s| s.number).collect();
    let n = p.len() as u32;
    let row = |i: u32| p.row(i as usize).expect("a document");
    // A sort key of the documents with the value (lowered ID, ID, index for IDs).
    let key = |i: u32| -> Option<(String, String, u64, u64)> {
        let r = row(i);
        let number = |v: u64| Some((String::new(), String::new(), v, 0));
        match query.sort {
            SortKey::Index => number(0),
            SortKey::Id => Some((p.lower_id(i as usize)?, r.id.to_string(), 0, 0)),
            SortKey::Bucket => number(u64::from(r.bucket?)),
            SortKey::Shard => {
                let position = shards.iter().position(|&s| Some(s) == r.shard)? as u64;
                Some((String::new(), String::new(), position, u64::from(r.bucket?)))
            }
            SortKey::Size => number(r.size?),
            SortKey::Collection => Some((r.collection?.to_string(), String::new(), 0, 0)),
        }
    };
    let mut present: Vec<u32> = (0..n).filter(|&i| key(i).is_some()).collect();
    present.sort_by_key(|&i| (key(i), i));
    if query.descending {
        present.reverse();
    }
    // Placed documents on no shard are in no order by shard.
    let without = (0..n).filter(|&i| {
        key(i).is_none() && !(query.sort == SortKey::Shard && row(i).bucket.is_some())
    });
    let all: Vec<u32> = present.into_iter().chain(without).collect();
    let needle = lower_id(&query.text);
    let group = query.group.map(|rank| p.group(rank).map(|g| g.anchor));
    all.into_iter()
        .filter(|&i| {
            let r = row(i);
            query.shard.is_none_or(|s| r.shard == Some(s))
                && group
                    .as_ref()
                    .is_none_or(|g| g.is_some() && r.group_anchor == g.as_deref())
                && p.lower_id(i as usize)
                    .unwrap_or_default()
                    .contains(needle.as_ref())
        })
        .collect()
}

/// The job's rows, stepped by the sizes in `steps` (the last one repeated).
fn stepped(p: &Placement, query: &RowQuery, steps: &[usize]) -> RowView {
    let mut job: RowsJob = p.rows_job(query);
    let mut sizes = steps
        .iter()
        .copied()
        .chain(std::iter::repeat(*steps.last().unwrap_or(&1)));
    let mut last = (0, 1);
    loop {
        let size = sizes.next().unwrap_or(1);
        if let Some(rows) = job.step(p, size).expect("the same placement") {
            return rows;
        }
        let progress = job.progress();
        assert!(progress.0 <= progress.1, "{progress:?}");
        assert!(
            progress >= last || progress.1 != last.1,
            "{progress:?} after {last:?}"
        );
        last = progress;
    }
}

fn documents() -> impl Strategy<Value = Vec<Document>> {
    let id = (
        prop::sample::select(vec!["", "eu/", "EU/", "Ü/", "us/"]),
        prop::sample::select(vec![
            "orders/1",
            "Orders/1",
            "ORDERS/1",
            "orders/2",
            "customers/1",
            "x",
            "\u{1}a",
        ]),
        prop::sample::select(vec!["", "$customers/1", "$Customers/1", "$", "$users/4"]),
    );
    let doc = (
        id,
        proptest::option::of(0u64..50),
        proptest::option::of(prop::sample::select(vec!["Orders", "Users", "orders"])),
    )
        .prop_map(|((p, base, anchor), size, collection)| Document {
            id: format!("{p}{base}{anchor}"),
            size,
            collection: collection.map(String::from),
            body: None,
        });
    proptest::collection::vec(doc, 0..60)
}

fn queries() -> impl Strategy<Value = RowQuery> {
    (
        prop::sample::select(vec!["", "", "o", "ORDERS/1", "1$", "ü", "\u{1}"]),
        proptest::option::of(0u32..5),
        proptest::option::of(0u32..4),
        prop::sample::select(SORTS.to_vec()),
        any::<bool>(),
    )
        .prop_map(|(text, shard, group, sort, descending)| RowQuery {
            text: text.to_string(),
            shard,
            group,
            sort,
            descending,
        })
}

/// `shards` shards, under RavenDB 6.2's lower-casing rule or 7.x's.
fn topology(shards: u32, v62: bool) -> Topology {
    let mut t = Topology::with_shards(shards).expect("a valid shard count");
    if v62 {
        t.set_server_version(ServerVersion::V6_2);
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rows_made_in_steps_equal_rows_made_at_once_and_the_rules(
        docs in documents(),
        shards in 1u32..4,
        v62 in any::<bool>(),
        query in queries(),
        steps in proptest::collection::vec(1usize..20, 1..5),
    ) {
        let t = topology(shards, v62);
        let p = Placement::new(&docs, &t, &PlacementOptions::default());
        let expected = reference(&p, &query);
        let fresh = Placement::new(&docs, &t, &PlacementOptions::default());
        prop_assert_eq!(stepped(&fresh, &query, &steps).indices(), expected.clone());
        // The order the job made is kept: the rows are at hand now when unfiltered.
        let unfiltered = RowQuery { sort: query.sort, descending: query.descending, ..Default::default() };
        prop_assert!(fresh.rows_at_hand(&unfiltered));
        prop_assert_eq!(p.rows(&query).indices(), expected);
    }
}

/// More documents than one sorted chunk holds (32,768), so that several are merged: every
/// key, stepped unevenly, equals the reference.
#[test]
fn a_sort_over_several_chunks_equals_the_reference() {
    let docs = Generator {
        documents: 80_000,
        anchored_share: 0.5,
        seed: 7,
    }
    .generate()
    .expect("a valid generator");
    let t = Topology::with_shards(3).expect("3 shards");
    for sort in SORTS {
        for (text, descending) in [("", false), ("companies/1", true)] {
            let query = RowQuery {
                sort,
                descending,
                text: text.into(),
                ..Default::default()
            };
            let p = Placement::new(&docs, &t, &PlacementOptions::default());
            let rows = stepped(&p, &query, &[7_001, 20_000]);
            assert_eq!(rows.indices(), reference(&p, &query), "{query:?}");
        }
    }
}

#[test]
fn a_job_given_another_placement_says_so() {
    let t = Topology::with_shards(3).expect("3 shards");
    let one = Placement::new(&[Document::new("a")], &t, &PlacementOptions::default());
    let two = Placement::new(
        &["a", "b"].map(Document::new),
        &t,
        &PlacementOptions::default(),
    );
    let query = RowQuery {
        sort: SortKey::Id,
        ..Default::default()
    };
    let mut job = one.rows_job(&query);
    assert_eq!(job.step(&two, 1).unwrap_err(), PlacementChanged);
    assert!(PlacementChanged
        .to_string()
        .contains("start the rows again"));
    assert_eq!(job.query(), &query);
}

#[test]
fn a_shard_or_group_that_does_not_exist_keeps_nothing() {
    let t = Topology::with_shards(3).expect("3 shards");
    let docs = ["a", "b$a", "c"].map(Document::new);
    let p = Placement::new(&docs, &t, &PlacementOptions::default());
    for query in [
        RowQuery {
            shard: Some(9),
            ..Default::default()
        },
        RowQuery {
            group: Some(5),
            ..Default::default()
        },
    ] {
        assert!(p.rows(&query).is_empty(), "{query:?}");
        assert!(stepped(&p, &query, &[1]).is_empty(), "{query:?}");
    }
    // Documents without a group are not "in" a group that does not exist.
    assert_eq!(
        p.rows(&RowQuery {
            group: Some(0),
            ..Default::default()
        })
        .indices(),
        [0, 1]
    );
}

/// An edit: documents `at..at + remove` (both taken modulo the documents) replaced by these.
fn edits() -> impl Strategy<Value = Vec<(usize, usize, Vec<Document>)>> {
    let edit = (
        0usize..64,
        0usize..4,
        documents().prop_map(|d| d.into_iter().take(3).collect()),
    );
    proptest::collection::vec(edit, 1..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A filtered view followed through edits equals the rows made again after each.
    #[test]
    fn filtered_rows_follow_edits(
        docs in documents(),
        shards in 1u32..4,
        query in queries(),
        changes in edits(),
    ) {
        let query = RowQuery { group: None, ..query };
        let t = topology(shards, false);
        let mut p = Placement::new(&docs, &t, &PlacementOptions::default());
        let mut rows = p.rows(&query);
        for (at, remove, insert) in changes {
            let at = at % (p.len() + 1);
            let remove = remove.min(p.len() - at);
            p.splice(at..at + remove, &insert).expect("an edit in range");
            let fresh = p.rows(&query);
            match p.rows_after_edit(&query, &rows, at, remove, insert.len()) {
                Some(followed) => prop_assert_eq!(followed.indices(), fresh.indices()),
                None => prop_assert!(
                    query.text.is_empty() && query.shard.is_none() || query.sort == SortKey::Shard,
                    "only an unfiltered view (or one by shard with a bucket on no shard) is made again"
                ),
            }
            rows = fresh;
        }
    }
}

#[test]
fn rows_after_an_edit_that_does_not_fit_are_made_again() {
    let t = Topology::with_shards(3).expect("3 shards");
    let p = Placement::new(
        &["a", "b"].map(Document::new),
        &t,
        &PlacementOptions::default(),
    );
    let query = RowQuery {
        text: "a".into(),
        ..Default::default()
    };
    let rows = p.rows(&query);
    // Five documents inserted into two (so the placement holds fewer than the edit
    // inserted), or a group filter: not followed.
    assert_eq!(p.rows_after_edit(&query, &rows, 0, 0, 5), None);
    let group = RowQuery {
        group: Some(0),
        ..query
    };
    assert_eq!(p.rows_after_edit(&group, &rows, 0, 1, 1), None);
}
