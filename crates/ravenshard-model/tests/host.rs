//! A [`Host`] fed any sequence of changes holds what a placement made from scratch holds,
//! says how the documents moved, and its messages cross the studio worker's codec.

use proptest::prelude::*;
use ravenshard::Topology;
use ravenshard_advise::Rewrite;
use ravenshard_model::host::question::{
    BucketDocuments, CheckPrefixes, Content, Csv, Designed, Documents, FirstUsedBucket,
    GeneratedId, Groups, Histogram, Ids, ListedDocument, Load, Page, RankedGroups, Rejected,
    Report, Rows,
};
use ravenshard_model::host::{options_of, AnyQuestion, Change, ChangeError, Host, Question, What};
use ravenshard_model::workspace::{Document, Placement, RowQuery, SortKey, Unplaced};
use ravenshard_reshard::check_prefix_changes;

/// The configurations a change may apply: other shard counts, other members only,
/// prefixes, and the draft chapter's design.
const CONFIGURATIONS: [&str; 5] = [
    r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#,
    r#"{"Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}, "2": {"Members": ["A", "B"]}}}"#,
    r#"{"Shards": {"0": {}, "1": {}, "2": {}, "3": {}, "4": {}}}"#,
    r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#,
    r#"{"Shards": {"0": {}, "1": {}, "2": {}}, "ByContent": {"Orders": {"Fields": ["Customer"]}}}"#,
];

/// A document: plain, anchored, prefixed, sized, in a collection, with a body the design
/// reads, or invalid.
fn document() -> impl Strategy<Value = Document> {
    let id = prop_oneof![
        "(orders|users)/[1-6]",
        "orders/[1-6]\\$users/[1-3]",
        "eu/[1-4]",
        "EU/[1-4]\\$users/[1-3]",
        "orders/[1-3]\\$",
        Just(String::new()),
    ];
    (id, proptest::option::of(1u64..5000), any::<bool>()).prop_map(|(id, size, order)| {
        let mut document = Document::new(id);
        document.size = size;
        if order {
            document.collection = Some("Orders".into());
            document.body = Some(r#"{"Customer": "users/2"}"#.into());
        }
        document
    })
}

/// A change, with indices drawn as fractions of the workspace's length.
#[derive(Debug, Clone)]
enum Step {
    Replace(Vec<Document>),
    Splice(f64, usize, Vec<Document>),
    Configure(usize),
    Rewrite(Vec<(String, String)>),
    OutOfRange,
}

fn step() -> impl Strategy<Value = Step> {
    let documents = || proptest::collection::vec(document(), 0..8);
    prop_oneof![
        documents().prop_map(Step::Replace),
        (
            0.0..1.0f64,
            0usize..4,
            proptest::collection::vec(document(), 0..4)
        )
            .prop_map(|(at, remove, insert)| Step::Splice(at, remove, insert)),
        (0..CONFIGURATIONS.len()).prop_map(Step::Configure),
        proptest::collection::vec(
            ("(orders|users)/[1-6]", "(orders|users)/[1-6]\\$users/[1-3]"),
            1..3
        )
        .prop_map(Step::Rewrite),
    ]
    .boxed()
    .prop_union(Just(Step::OutOfRange).boxed())
}

/// Encodes and decodes as `gloo-worker`'s codec does.
fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
    bincode::deserialize(&bincode::serialize(value).expect("encodes")).expect("decodes")
}

/// Asks `question` as the studio's worker reads it and answers it: through its codec,
/// and out of the one answer message.
fn ask<Q: Question>(host: &mut Host, question: Q) -> Q::Answer {
    let asked: AnyQuestion = question.clone().into();
    let asked = round_trip(&asked);
    let answer = round_trip(&asked.answer(host));
    let typed = host.answer(&question);
    assert_eq!(Q::answer_of(answer), Some(typed.clone()), "{question:?}");
    typed
}

/// What the host answers equals what a placement made from scratch answers.
fn assert_answers_as(host: &mut Host, fresh: &Placement) {
    let all = ask(
        host,
        Documents {
            start: 0,
            end: u64::MAX,
        },
    );
    assert_eq!(all, fresh.documents(0..fresh.len()).collect::<Vec<_>>());
    let histogram = Histogram {
        configuration: None,
        start: 0,
        end: 1 << 21,
        bins: 64,
    };
    assert_eq!(ask(host, histogram), Ok(fresh.histogram(0, 1 << 21, 64)));
    let first = ask(
        host,
        FirstUsedBucket {
            start: 0,
            end: 1 << 21,
        },
    );
    assert_eq!(first, fresh.first_used_bucket(0..1 << 21));
    if let Some(bucket) = first {
        let inside = fresh.documents_in_bucket(bucket);
        let listed = inside.iter().take(2).map(|&index| ListedDocument {
            index,
            id: fresh.id(index as usize).unwrap().to_string(),
        });
        let total = inside.len() as u64;
        let page = Page {
            total,
            items: listed.collect(),
        };
        assert_eq!(ask(host, BucketDocuments { bucket, most: 2 }), page);
    }
    let groups = (0..)
        .map_while(|g| fresh.group_summary(g))
        .take(100)
        .collect();
    let obese = fresh.obese_group_count() as u64;
    assert_eq!(
        ask(
            host,
            Groups {
                from: 0,
                count: 100
            }
        ),
        RankedGroups { obese, groups }
    );
    let ids = [0, 2]
        .iter()
        .map(|&i| fresh.id(i).map(str::to_string))
        .chain([None]);
    assert_eq!(
        ask(
            host,
            Ids {
                indices: vec![0, 2, 1 << 40]
            }
        ),
        ids.collect::<Vec<_>>()
    );
    assert_eq!(ask(host, Content { most: 2 }), designed(fresh, 2));
    let mut text = String::new();
    ravenshard_model::export::write_csv_rows(fresh, 1..3, &mut text);
    assert_eq!(ask(host, Csv { start: 1, end: 3 }), text);
    assert_eq!(
        ask(host, Report),
        ravenshard_model::export::report_json(fresh)
    );
    assert_eq!(ask(host, Load), fresh.bucket_load());
    // A target that adds a prefix (or keeps the workspace's): the documents as it places them.
    let target = Topology::from_json(CONFIGURATIONS[3]).unwrap();
    let documents: Vec<Document> = fresh.documents(0..fresh.len()).collect();
    let after = Placement::new(&documents, &target, fresh.options());
    let configuration = Some(CONFIGURATIONS[3].into());
    let histogram = Histogram {
        configuration,
        start: 0,
        end: 1 << 20,
        bins: 64,
    };
    assert_eq!(
        ask(host, histogram),
        Ok(after.histogram_by(&target, 0, 1 << 20, 64))
    );
    let ids = (0..fresh.len()).filter_map(|i| fresh.lower_id(i));
    let checked = check_prefix_changes(fresh.topology(), &target, ids);
    let check = CheckPrefixes {
        configuration: CONFIGURATIONS[3].into(),
    };
    assert_eq!(ask(host, check), Ok(checked.err().map(|e| e.to_string())));
    for query in [
        RowQuery::default(),
        RowQuery {
            sort: SortKey::Id,
            descending: true,
            ..Default::default()
        },
        RowQuery {
            text: "USERS".into(),
            shard: Some(1),
            ..Default::default()
        },
    ] {
        let view = fresh.rows(&query);
        let rows = ask(
            host,
            Rows {
                query,
                from: 1,
                count: 3,
            },
        );
        assert_eq!(rows.total, view.len() as u64);
        let indices: Vec<u32> = rows.items.iter().map(|r| r.index).collect();
        assert_eq!(indices, view.slice(1, 4));
        for row in rows.items {
            assert_eq!(
                Some(row.clone()),
                fresh.row(row.index as usize).map(Into::into)
            );
        }
    }
}

/// What a placement made from scratch says the design does: the first `most` of each.
fn designed(fresh: &Placement, most: usize) -> Designed {
    let rejected: Vec<_> = fresh
        .invalid()
        .iter()
        .filter(|d| matches!(d.reason, Unplaced::Content(_)))
        .collect();
    let generated = fresh
        .generated()
        .iter()
        .take(most)
        .map(|(i, id)| GeneratedId {
            index: *i,
            given: fresh.id(*i as usize).unwrap().to_string(),
            id: id.clone(),
            bucket: fresh.place(*i as usize).map(|x| x.bucket),
            shard: fresh.place(*i as usize).map(|x| x.shard),
        });
    let listed = rejected.iter().take(most).map(|d| Rejected {
        index: d.index,
        message: d.message.clone(),
    });
    Designed {
        generated: Page {
            total: fresh.generated().len() as u64,
            items: generated.collect(),
        },
        rejected: Page {
            total: rejected.len() as u64,
            items: listed.collect(),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_host_holds_what_a_placement_made_from_scratch_holds(steps in proptest::collection::vec(step(), 1..10)) {
        let mut host = Host::default();
        let mut documents: Vec<Document> = Vec::new();
        let mut configuration = Topology::with_shards(3).unwrap().to_json();
        for step in steps {
            let before = host.version();
            let places: Vec<_> = (0..documents.len()).map(|i| host.placement().place(i)).collect();
            let out_of_range = matches!(step, Step::OutOfRange);
            let change = match step {
                Step::Replace(new) => {
                    documents = new.clone();
                    Change::Replace { documents: new }
                }
                Step::Splice(at, remove, insert) => {
                    let at = ((documents.len() as f64) * at) as usize;
                    let remove = remove.min(documents.len() - at);
                    documents.splice(at..at + remove, insert.iter().cloned());
                    Change::Splice { at: at as u64, remove: remove as u64, insert }
                }
                Step::Configure(c) => {
                    configuration = CONFIGURATIONS[c].to_string();
                    Change::Configure { configuration: configuration.clone(), database: "db".into() }
                }
                Step::Rewrite(pairs) => {
                    let rewrites: Vec<Rewrite> = pairs.into_iter().map(|(from, to)| Rewrite { from, to }).collect();
                    ravenshard_advise::rewrite_ids(&mut documents, &rewrites);
                    Change::Rewrite { rewrites }
                }
                Step::OutOfRange => Change::Splice { at: documents.len() as u64, remove: 1, insert: Vec::new() },
            };
            let result = host.apply(round_trip(&change));
            if out_of_range {
                prop_assert!(matches!(result, Err(ChangeError::Edit(_))), "{result:?}");
                prop_assert_eq!(host.version(), before);
                continue;
            }
            let changed = round_trip(&result.expect("applied"));
            let moved = changed.what != What::Nothing;
            prop_assert_eq!(changed.version, before + u64::from(moved));
            if changed.what == What::Members {
                let after: Vec<_> = (0..documents.len()).map(|i| host.placement().place(i)).collect();
                prop_assert_eq!(after, places);
            }
            let topology = Topology::from_json(&configuration).unwrap();
            let fresh = Placement::new(&documents, &topology, &options_of(&topology));
            prop_assert_eq!(&changed.summary, &fresh.summary());
            prop_assert_eq!(host.placement().topology(), &topology);
            assert_answers_as(&mut host, &fresh);
        }
    }
}

/// An edit says which documents it replaced; the same configuration again changes nothing;
/// other members only are told apart from a new placement.
#[test]
fn a_change_says_how_the_documents_moved() {
    let mut host = Host::default();
    let documents = ["a/1", "b/2", "c/3"].map(Document::new).to_vec();
    host.apply(Change::Replace { documents }).unwrap();
    let edit = Change::Splice {
        at: 1,
        remove: 1,
        insert: vec![Document::new("x"), Document::new("y")],
    };
    let changed = host.apply(edit).unwrap();
    assert_eq!(
        changed.what,
        What::Edited {
            at: 1,
            removed: 1,
            inserted: 2
        }
    );
    assert_eq!(changed.summary.documents, 4);
    let same = Topology::with_shards(3).unwrap().to_json();
    assert_eq!(
        host.apply(Change::Configure {
            configuration: same,
            database: "db".into(),
        })
        .unwrap()
        .what,
        What::Nothing
    );
    let members = Change::Configure {
        configuration: CONFIGURATIONS[1].into(),
        database: "db".into(),
    };
    let changed = host.apply(members).unwrap();
    assert_eq!(changed.what, What::Members);
    assert_eq!(changed.summary.matrix.rows.len(), 2);
    let five = Change::Configure {
        configuration: CONFIGURATIONS[2].into(),
        database: "db".into(),
    };
    assert_eq!(host.apply(five).unwrap().what, What::Placed);
    assert_eq!(host.version(), 4);
}

/// A configuration that is not valid, or statistics that cannot be read, change nothing
/// and say what to fix.
#[test]
fn a_refused_change_leaves_the_workspace_as_it_was() {
    let mut host = Host::default();
    host.apply(Change::Replace {
        documents: vec![Document::new("a/1")],
    })
    .unwrap();
    let bad = host.apply(Change::Configure {
        configuration: r#"{"Shards": 3}"#.into(),
        database: "db".into(),
    });
    let Err(e @ ChangeError::Configuration(_)) = bad else {
        panic!("{bad:?}")
    };
    assert!(e.to_string().ends_with("Fix it in Configuration"), "{e}");
    let bad = host.apply(Change::Statistics {
        names: vec!["b.json".into()],
        texts: vec!["{".into()],
    });
    assert!(matches!(bad, Err(ChangeError::Statistics(_))), "{bad:?}");
    assert_eq!((host.version(), host.placement().len()), (1, 1));
}

/// Bucket statistics replace the documents; a typed document replaces the statistics.
#[test]
fn statistics_replace_the_documents_until_a_document_is_typed() {
    let mut host = Host::default();
    let text = r#"{"Bucket": 7, "Size": 900, "NumberOfDocuments": 9}"#;
    let read = Change::Statistics {
        names: vec!["b.json".into()],
        texts: vec![text.into()],
    };
    let changed = host.apply(read).unwrap();
    assert_eq!(
        (changed.summary.documents, changed.summary.totals.placed),
        (0, 9)
    );
    let four = Topology::with_shards(4).unwrap().to_json();
    let changed = host
        .apply(Change::Configure {
            configuration: four,
            database: "db".into(),
        })
        .unwrap();
    assert_eq!(changed.summary.shards.len(), 4);
    assert_eq!(changed.summary.totals.placed, 9);
    let typed = Change::Splice {
        at: 0,
        remove: 0,
        insert: vec![Document::new("a/1")],
    };
    let changed = host.apply(typed).unwrap();
    assert_eq!(
        (changed.what, changed.summary.totals.placed),
        (What::Placed, 1)
    );
}

/// Rows made by a job a step at a time are the rows made at once, and kept: a filter's
/// rows follow an edit (at hand after it, and equal to rows made anew), a change of members
/// keeps them, a new placement drops them.
#[test]
fn rows_made_in_steps_are_kept_and_follow_edits() {
    let mut host = Host::default();
    let documents = ["orders/1", "users/1", "orders/2", "users/2$orders/1"].map(Document::new);
    let replace = Change::Replace {
        documents: documents.to_vec(),
    };
    host.apply(replace).unwrap();
    let query = RowQuery {
        text: "orders".into(),
        sort: SortKey::Id,
        ..Default::default()
    };
    assert!(!host.rows_at_hand(&query));
    let mut job = host.rows_job(&query);
    while !host.step_rows(&mut job, 1).unwrap() {}
    assert!(host.rows_at_hand(&query));
    let rows = |host: &mut Host| {
        let question = Rows {
            query: query.clone(),
            from: 0,
            count: 10,
        };
        let rows = host.answer(&question).items;
        rows.iter().map(|r| r.index).collect::<Vec<_>>()
    };
    assert_eq!(rows(&mut host), [0, 2, 3]);
    let edit = Change::Splice {
        at: 1,
        remove: 1,
        insert: vec![Document::new("orders/0")],
    };
    host.apply(edit).unwrap();
    assert!(host.rows_at_hand(&query), "followed");
    let fresh = host.placement().rows(&query).indices();
    assert_eq!(rows(&mut host), fresh);
    assert_eq!(fresh, [1, 0, 2, 3]);
    let members = Change::Configure {
        configuration: CONFIGURATIONS[1].into(),
        database: "db".into(),
    };
    assert_eq!(host.apply(members).unwrap().what, What::Members);
    assert!(host.rows_at_hand(&query), "kept");
    let five = Change::Configure {
        configuration: CONFIGURATIONS[2].into(),
        database: "db".into(),
    };
    host.apply(five).unwrap();
    assert!(!host.rows_at_hand(&query), "dropped");
}

/// Many anchored groups are ranked by a job a step at a time, and the groups answered
/// after are the ones a fresh placement sorts; few groups need no job; an edit ends a job.
#[test]
fn many_groups_are_ranked_in_steps() {
    use ravenshard_model::host::RANKED_IN_STEPS_FROM;
    let n = RANKED_IN_STEPS_FROM + 500;
    let documents: Vec<Document> = (0..n)
        .map(|i| Document::new(format!("orders/{i}-A$companies/{}-A", n - i)))
        .collect();
    let mut host = Host::default();
    host.apply(Change::Replace {
        documents: documents.clone(),
    })
    .unwrap();
    let mut job = host.rank_groups().expect("a job for 20,500 groups");
    let mut steps = 0;
    while !host.step_ranking(&mut job, 4_096) {
        steps += 1;
    }
    assert!(steps > 1, "in steps");
    assert!(host.placement().groups_ranked());
    assert!(host.rank_groups().is_none(), "ranked");
    let fresh = Placement::new(&documents, host.placement().topology(), &Default::default());
    let first = (0..3)
        .map(|g| fresh.group_summary(g))
        .collect::<Option<Vec<_>>>()
        .unwrap();
    assert_eq!(
        host.answer(&Groups { from: 0, count: 3 }),
        RankedGroups {
            obese: fresh.obese_group_count() as u64,
            groups: first
        }
    );
    // Few groups: sorted when first read, no job.
    host.apply(Change::Replace {
        documents: documents[..100].to_vec(),
    })
    .unwrap();
    assert!(host.rank_groups().is_none());
    // An edit ends a job: it stops without ranking the edited documents' groups.
    host.apply(Change::Replace { documents }).unwrap();
    let mut job = host.rank_groups().unwrap();
    let edit = Change::Splice {
        at: 0,
        remove: 1,
        insert: Vec::new(),
    };
    host.apply(edit).unwrap();
    assert!(host.step_ranking(&mut job, 4_096), "ended");
}

/// A job's documents staged batch by batch, then adopted, are what a placement made from
/// scratch of them holds, under the configuration in force when adopted (another than the
/// job placed by); an adoption that does not match what was staged is refused and changes
/// nothing.
#[test]
fn staged_documents_are_adopted_whole_or_not_at_all() {
    use ravenshard_model::batch::DocumentBatch;
    use ravenshard_model::host::Staging;
    let documents = ravenshard_model::sample::Generator {
        documents: 3_000,
        anchored_share: 0.4,
        seed: 5,
    }
    .generate()
    .unwrap();
    let start = |configuration: &str| Staging {
        configuration: configuration.into(),
        database: "db".into(),
        documents: 3_000,
        id_bytes: 60_000,
        bodies: 0,
        body_bytes: 0,
    };
    let stage_all = |host: &mut Host, job: u64| {
        for (number, chunk) in documents.chunks(700).enumerate() {
            let first = (number == 0).then(|| start(CONFIGURATIONS[0]));
            let batch = DocumentBatch::of(number as u64, chunk, Default::default());
            host.stage(job, first, round_trip(&batch));
        }
    };
    let mut host = Host::default();
    stage_all(&mut host, 1);
    // The configuration in force changes while the job runs.
    let five = Change::Configure {
        configuration: CONFIGURATIONS[2].into(),
        database: "db".into(),
    };
    host.apply(five).unwrap();
    assert_eq!(host.placement().len(), 0, "staged apart from the workspace");
    let refused = host.apply(Change::Adopt {
        job: 1,
        documents: 2_999,
    });
    assert!(
        matches!(refused, Err(ChangeError::Staged(_))),
        "{refused:?}"
    );
    stage_all(&mut host, 2);
    let version = host.version();
    let changed = host
        .apply(Change::Adopt {
            job: 2,
            documents: 3_000,
        })
        .unwrap();
    assert_eq!((changed.what, changed.version), (What::Placed, version + 1));
    let five = Topology::from_json(CONFIGURATIONS[2]).unwrap();
    let fresh = Placement::new(&documents, &five, &options_of(&five));
    assert_eq!(host.placement().summary(), fresh.summary());
    assert_answers_as(&mut host, &fresh);
    // Adopted once: nothing is staged any more.
    let again = host.apply(Change::Adopt {
        job: 2,
        documents: 3_000,
    });
    assert!(matches!(again, Err(ChangeError::Staged(_))));
    // A batch without its job's start, or a job dropped, cannot be adopted.
    let batch = DocumentBatch::of(0, &documents[..10], Default::default());
    host.stage(3, None, batch.clone());
    assert!(host
        .apply(Change::Adopt {
            job: 3,
            documents: 10
        })
        .is_err());
    host.stage(4, Some(start(CONFIGURATIONS[0])), batch);
    host.unstage(4);
    assert!(host
        .apply(Change::Adopt {
            job: 4,
            documents: 10
        })
        .is_err());
    assert_eq!(host.placement().len(), 3_000, "refusals change nothing");
}
