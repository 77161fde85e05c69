use super::*;
use ravenshard_model::import::{import, Format};
use ravenshard_model::share::{decode_fragment, encode_fragment};

fn reduce(state: State, action: Action) -> State {
    Rc::unwrap_or_clone(Rc::new(state).reduce(action))
}

fn shard_of(state: &State, id: &str) -> Option<u32> {
    let p = state.placement();
    (0..p.len())
        .find(|&i| p.id(i) == Some(id))
        .and_then(|i| p.place(i))
        .map(|x| x.shard)
}

#[test]
fn opens_on_the_chapter_examples() {
    let state = State::default();
    assert_eq!(state.shards(), 3);
    assert_eq!(state.database(), "Orders");
    let p = state.placement();
    assert_eq!(p.len(), 12);
    assert_eq!(p.id(1), Some("customers/1-A"));
    let place = p.place(1).unwrap();
    assert_eq!((place.bucket, place.shard), (982173, 2));
    assert_eq!(p.shards()[2].fragment, "Orders$2");
    assert_eq!(
        shard_of(&state, "Users/70$Users/4"),
        shard_of(&state, "Users/4")
    );
    // Members assigned by RavenDB's algorithm on nodes A-D, replication factor 2.
    assert_eq!(state.topology().members(0), ["A", "B"]);
    assert_eq!(state.topology().members(1), ["C", "A"]);
    assert_eq!(p.matrix().rows.len(), 4);
    assert_eq!(state.rows().len(), 12);
    assert!(state
        .page()
        .text()
        .contains("customers/1-A\t760\tCustomers"));
    assert!(state.notices().is_empty());
    let e = state.explanation().unwrap();
    assert_eq!(e.as_ref().as_ref().unwrap().hashed, "customers/1-a");
}

#[test]
fn typing_ids_with_sizes_and_collections() {
    let state = reduce(
        State::default(),
        Action::SetIds("customers/1-A\t120\tCustomers\n\n  \r\nUsers/4\r\nbad\tx\n".into()),
    );
    let docs = state.documents();
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0].size, Some(120));
    assert_eq!(docs[0].collection.as_deref(), Some("Customers"));
    assert_eq!(docs[1].id, "Users/4");
    assert_eq!(docs[2].size, None);
    assert_eq!(state.parse_notes().len(), 1);
    assert!(state.parse_notes()[0].starts_with("Line 5"));
    assert_eq!(state.placement().totals().bytes, 120);
}

#[test]
fn unchanged_documents_keep_the_placement() {
    let state = State::default();
    let before = state.placement();
    let text = format!("{}\n\n", state.page().text());
    let state = reduce(state, Action::SetIds(text));
    let state = reduce(state, Action::SetShardCount("3".into()));
    let state = reduce(state, Action::SetShardCount("oops".into()));
    let state = reduce(state, Action::SetDatabase("Orders".into()));
    assert!(Rc::ptr_eq(&before, &state.placement()));
}

#[test]
fn shard_count_changes_shards() {
    let state = reduce(State::default(), Action::SetShardCount("1".into()));
    assert_eq!(state.shards(), 1);
    assert_eq!(state.placement().shards()[0].documents, 12);
    let state = reduce(state, Action::SetShardCount(" 1024 ".into()));
    assert_eq!(state.shards(), 1024);
    assert_eq!(shard_of(&state, "customers/1-A"), Some(959));
    for bad in ["", "0", "1025", "abc", "-1", "2.5", "99999999999999999999"] {
        let s = reduce(state.clone(), Action::SetShardCount(bad.into()));
        assert_eq!(s.shards(), 1024, "{bad:?} must not be applied");
        assert!(s.shard_error().is_some());
        assert_eq!(s.shard_input(), bad);
    }
}

#[test]
fn database_name_names_the_fragments() {
    let state = reduce(State::default(), Action::SetDatabase(" Shop ".into()));
    assert_eq!(state.placement().shards()[2].fragment, "Shop$2");
    for bad in ["", "  ", "a$b"] {
        let s = reduce(state.clone(), Action::SetDatabase(bad.into()));
        assert_eq!(s.database(), "Shop");
        assert!(s.database_error().is_some());
    }
}

#[test]
fn nodes_and_members() {
    let state = reduce(State::default(), Action::SetNodes("a b c".into()));
    assert_eq!(state.nodes_error(), None);
    assert_eq!(state.placement().matrix().rows.len(), 3);
    let state = reduce(state, Action::SetReplicationFactor("4".into()));
    assert!(state.rf_error().unwrap().contains("at most 3"));
    let state = reduce(state, Action::SetReplicationFactor("3".into()));
    assert_eq!(state.topology().members(0).len(), 3);
    let state = reduce(state, Action::SetNodes("A, A".into()));
    assert!(state.nodes_error().unwrap().contains("twice"));

    // Member edits do not place the documents again.
    let before = *state.placement().totals();
    let rows = state.rows();
    let state = reduce(
        state,
        Action::SetMembers {
            shard: 1,
            text: "C".into(),
        },
    );
    assert_eq!(state.topology().members(1), ["C"]);
    assert_eq!(state.placement().shards()[1].nodes, ["C"]);
    assert_eq!(*state.placement().totals(), before);
    assert!(Rc::ptr_eq(&rows, &state.rows()));
    let state = reduce(
        state,
        Action::SetMembers {
            shard: 1,
            text: "C, c".into(),
        },
    );
    assert!(state.member_error().is_some());
    assert_eq!(state.topology().members(1), ["C"]);
}

#[test]
fn config_json_applies_ranges_and_prefixes_or_reports_the_error() {
    let json = r#"{"Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}, "2": {"Members": ["A"]}},
                   "Prefixed": [{"Prefix": "users/", "Shards": [2]}]}"#;
    let state = reduce(State::default(), Action::SetConfigJson(json.into()));
    assert!(state.custom());
    assert_eq!(state.config_problem(), None);
    assert_eq!(state.topology().prefixes().len(), 1);
    assert_eq!(shard_of(&state, "Users/4"), Some(2));
    assert_eq!(state.topology().members(1), ["B"]);
    assert_eq!(state.nodes_input(), "A, B");
    assert_eq!(state.database(), "Orders");

    let before = state.topology();
    for bad in ["{", r#"{"Shards": {}}"#, r#"{"Shards": {"x": {}}}"#, "[]"] {
        let s = reduce(state.clone(), Action::SetConfigJson(bad.into()));
        let problem = s.config_problem().expect("reported");
        assert!(!problem.message.is_empty());
        assert!(
            Rc::ptr_eq(&before, &s.topology()),
            "{bad} must not be applied"
        );
    }
    let s = reduce(
        state.clone(),
        Action::SetConfigJson(r#"{"Shards": {"x": {}}}"#.into()),
    );
    assert_eq!(
        s.config_problem().unwrap().path.as_deref(),
        Some("Shards.x")
    );

    // The shard count field goes back to a default topology.
    let s = reduce(state, Action::SetShardCount("3".into()));
    assert!(!s.custom());
    assert!(s.topology().prefixes().is_empty());
}

#[test]
fn documents_view_filters_and_sorts() {
    let state = reduce(State::default(), Action::SetFilterText("users".into()));
    assert_eq!(state.rows().len(), 6);
    let state = reduce(state, Action::SetFilterText(String::new()));
    let state = reduce(state, Action::SetFilterShard(Some(2)));
    let on_two = state.placement().shards()[2].documents as usize;
    assert_eq!(state.rows().len(), on_two);
    let state = reduce(state, Action::SetFilterShard(Some(99)));
    assert_eq!(state.query().shard, None);
    let state = reduce(state, Action::SortBy(SortKey::Id));
    let state = reduce(state, Action::SortBy(SortKey::Id));
    assert!(state.query().descending);
    let first = state.rows().indices()[0] as usize;
    assert_eq!(state.placement().id(first), Some("Users/72$Users/4"));
}

#[test]
fn groups_select_and_show_documents() {
    let state = State::default();
    let groups = state.placement().groups().to_vec();
    assert_eq!(groups[0].anchor, "users/4");
    assert_eq!(groups[0].documents, 4);
    let state = reduce(state, Action::SelectGroup(Some(0)));
    assert_eq!(state.selected_group, Some(0));
    let state = reduce(state, Action::SelectGroup(Some(999)));
    assert_eq!(state.selected_group, None);
    let state = reduce(state, Action::ShowGroupDocuments(0));
    assert_eq!(state.tab(), Tab::Documents);
    assert_eq!(state.rows().len(), 4);
    // New documents reset the group filter.
    let state = reduce(state, Action::SetIds("orders/1-A".into()));
    assert_eq!((state.query().group, state.selected_group), (None, None));
    assert_eq!(state.rows().len(), 1);
}

#[test]
fn explain_an_id() {
    let state = reduce(State::default(), Action::ExplainDocument(7));
    assert_eq!(state.tab(), Tab::Explain);
    assert_eq!(state.explain_id(), "Users/70$Users/4");
    let e = state.explanation().unwrap();
    let e = e.as_ref().as_ref().unwrap();
    assert_eq!(e.hashed, "users/4");
    assert_eq!(e.nodes, state.topology().members(e.shard.unwrap()));
    let state = reduce(state, Action::SetExplainId(String::new()));
    assert!(state.explanation().is_none());
    let state = reduce(state, Action::SetExplainId("x".repeat(600)));
    assert!(state.explanation().unwrap().is_err());
}

#[test]
fn generator_and_samples() {
    let state = reduce(State::default(), Action::SetGeneratorCount("5000".into()));
    let state = reduce(state, Action::SetGeneratorShare("100".into()));
    let state = reduce(state, Action::Generate);
    assert_eq!(state.documents().len(), 5000);
    assert!(!state.placement().groups().is_empty());
    let state = reduce(state, Action::SetGeneratorShare("150".into()));
    assert!(state.generator_error().is_some());
    let state = reduce(state, Action::Generate);
    assert_eq!(state.documents().len(), 5000);
    let state = reduce(state, Action::SetGeneratorCount("9999999".into()));
    assert!(state.generator_error().is_some());
    let state = reduce(state, Action::ClearIds);
    assert!(state.documents().is_empty());
    assert_eq!(state.page().text().as_str(), "");
    let state = reduce(state, Action::LoadChapterSample);
    assert_eq!(state.documents().len(), 12);
}

#[test]
fn imports_replace_the_workspace_or_leave_it() {
    let imported = import(
        b"id,size,collection\norders/1-A,1200,Orders\n,5,\n",
        Format::Csv,
    )
    .unwrap();
    let state = reduce(
        State::default(),
        Action::ImportStarted {
            name: "a.csv".into(),
        },
    );
    assert!(state.import().is_some());
    let state = reduce(
        state,
        Action::ImportProgress {
            fraction: Some(0.5),
            documents: 1,
        },
    );
    assert_eq!(state.import().unwrap().documents, 1);
    let state = reduce(
        state,
        Action::ImportFinished {
            name: "a.csv".into(),
            imported,
        },
    );
    assert!(state.import().is_none());
    assert_eq!(state.documents().len(), 1);
    assert!(state.notices()[0].text.contains("1 entry was skipped"));

    let before = state.placement();
    let state = reduce(
        state,
        Action::ImportStarted {
            name: "b.json".into(),
        },
    );
    let state = reduce(
        state,
        Action::ImportFailed {
            name: "b.json".into(),
            message: "bad".into(),
        },
    );
    assert!(state.import_error().unwrap().contains("unchanged"));
    assert!(Rc::ptr_eq(&before, &state.placement()));
    let state = reduce(state, Action::ImportStarted { name: "c".into() });
    let state = reduce(state, Action::ImportCancelled);
    assert!(state.import().is_none());
    assert!(Rc::ptr_eq(&before, &state.placement()));
}

#[test]
fn share_links_round_trip() {
    let shared = decode_fragment("#shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4").unwrap();
    let state = State::from_shared(shared);
    assert_eq!(state.documents().len(), 2);
    assert_eq!(state.shards(), 3);
    assert_eq!(state.notices().len(), 1);
    let link = encode_fragment(&state.shared());
    let again = State::from_shared(decode_fragment(&link).unwrap());
    assert_eq!(again.documents(), state.documents());
    assert_eq!(again.topology().to_json(), state.topology().to_json());

    // A custom configuration travels as JSON.
    let state = reduce(
        State::default(),
        Action::SetConfigJson(
            r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "users/", "Shards": [1]}]}"#
                .into(),
        ),
    );
    let shared = state.shared();
    assert!(shared.config.is_some());
    let again = State::from_shared(decode_fragment(&encode_fragment(&shared)).unwrap());
    assert_eq!(again.topology().prefixes().len(), 1);

    // An invalid configuration in a link is reported; the documents still open.
    let shared = SharedState {
        config: Some("{".into()),
        documents: vec![Document::new("a")],
        ..Default::default()
    };
    let state = State::from_shared(shared);
    assert_eq!(state.documents().len(), 1);
    assert_eq!(state.notices()[0].level, Level::Error);
}

#[test]
fn saved_state_round_trips_and_bad_ones_are_refused() {
    let state = reduce(State::default(), Action::SetDatabase("Shop".into()));
    let state = reduce(
        state,
        Action::SetMembers {
            shard: 0,
            text: "D".into(),
        },
    );
    let json = serde_json::to_string(&state.saved()).unwrap();
    let back = State::from_saved(read_saved(&json).unwrap()).unwrap();
    assert_eq!(back.database(), "Shop");
    assert_eq!(back.topology().members(0), ["D"]);
    assert_eq!(back.documents(), state.documents());
    assert_eq!(back.placement().shards()[0].fragment, "Shop$0");

    let plain = State::from_saved(State::default().saved()).unwrap();
    assert_eq!(plain.placement().shards()[2].fragment, "Orders$2");
    assert_eq!(plain.topology().members(1), ["C", "A"]);

    assert!(read_saved("{not json")
        .unwrap_err()
        .contains("not readable"));
    assert!(read_saved(r#"{"ids": "x"}"#).unwrap_err().contains("older"));
    assert!(read_saved(r#"{"version": 99}"#)
        .unwrap_err()
        .contains("version 99"));
    assert!(read_saved(r#"{"version": 1, "database": 3}"#)
        .unwrap_err()
        .contains("damaged"));
    let mut saved = state.saved();
    saved.config = "{".into();
    assert!(State::from_saved(saved).is_err());
}

#[test]
fn a_damaged_saved_studio_is_named_by_its_path() {
    let mut value = serde_json::to_value(State::default().saved()).unwrap();
    let good = value.to_string();
    let plain = read_saved(&good).unwrap();
    assert!(!plain.custom);
    // `custom` may be missing; unknown keys are ignored.
    value.as_object_mut().unwrap().remove("custom");
    value["theme"] = "dark".into();
    assert_eq!(read_saved(&value.to_string()), Ok(plain));

    let damaged = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut value: serde_json::Value = serde_json::from_str(&good).unwrap();
        edit(&mut value);
        read_saved(&value.to_string()).unwrap_err()
    };
    assert_eq!(
        damaged(&|v| v["documents"][3]["id"] = 5.into()),
        "the saved studio is damaged (documents[3].id: invalid type: integer `5`, expected a \
         string)"
    );
    assert_eq!(
        damaged(&|v| v["documents"][0]["size"] = "12".into()),
        "the saved studio is damaged (documents[0].size: invalid type: string \"12\", expected \
         u64)"
    );
    assert_eq!(
        damaged(&|v| {
            v.as_object_mut().unwrap().remove("nodes");
        }),
        "the saved studio is damaged (missing field `nodes`)"
    );
    assert_eq!(
        damaged(&|v| v["documents"][1].as_object_mut().unwrap().clear()),
        "the saved studio is damaged (documents[1]: missing field `id`)"
    );
    assert_eq!(
        damaged(&|v| v["custom"] = "yes".into()),
        "the saved studio is damaged (custom: invalid type: string \"yes\", expected a boolean)"
    );
    assert_eq!(
        damaged(&|v| v["version"] = (-1).into()),
        "the saved studio is damaged (version: invalid value: integer `-1`, expected u32)"
    );
    assert_eq!(
        damaged(&|v| v["version"] = 0.into()),
        "the saved studio has format version 0, this studio reads version 1"
    );
    assert_eq!(
        damaged(&|v| v["version"] = serde_json::Value::Null),
        "the saved studio has no format version (an older studio wrote it)"
    );
    assert_eq!(
        read_saved("[1]").unwrap_err(),
        "the saved studio is damaged (invalid type: sequence, expected struct Saved)"
    );
}

#[test]
fn exports() {
    let state = State::default();
    let csv = state.csv();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("id,bucket,shard,collection,size"));
    assert!(csv.contains("customers/1-A,982173,2,Customers,760\n"));
    let state = reduce(state, Action::SetIds("a,\"b\"\n".into()));
    assert!(state.csv().contains("\"a,\"\"b\"\"\""));
    let report: serde_json::Value = serde_json::from_str(&state.report_json()).unwrap();
    assert_eq!(report["totals"]["documents"], 1);
    assert_eq!(report["shards"].as_array().unwrap().len(), 3);
}

#[test]
fn notices_are_capped_and_dismissed() {
    let mut state = State::default();
    for i in 0..10 {
        state = reduce(state, Action::Notify(Level::Info, format!("n{i}")));
    }
    assert_eq!(state.notices().len(), 4);
    assert_eq!(state.notices()[3].text, "n9");
    let state = reduce(state, Action::DismissNotice(3));
    let state = reduce(state, Action::DismissNotice(99));
    assert_eq!(state.notices().len(), 3);
}

#[test]
fn nothing_panics_on_odd_input() {
    let odd = [
        "$",
        "$$$",
        "a$",
        "é$ü",
        "\u{0}",
        "/",
        "|",
        "İstanbul$ΣΑΣ",
        "🦀$🦀",
        "\r",
        "\r\r\n",
        "\t\t\t",
        "a\t\t\t\t",
    ];
    for id in odd {
        let state = reduce(State::default(), Action::SetIds(id.to_string()));
        let p = state.placement();
        for i in 0..p.len() {
            let row = p.row(i).unwrap();
            if let Some([a, b]) = row.hashed_chars {
                let (before, hashed, after) = split_chars(row.id, [a as usize, b as usize]);
                assert_eq!(format!("{before}{hashed}{after}"), row.id);
            }
        }
        let _ = state.csv();
        let _ = state.report_json();
        let _ = reduce(state, Action::SetExplainId(id.to_string()));
    }
    let state = reduce(State::default(), Action::SetIds("é".repeat(100_000)));
    assert_eq!(state.placement().totals().invalid, 1);
    for bad in [
        "",
        "{}",
        "null",
        "[1]",
        "\"x\"",
        r#"{"Shards": {"0": {}}, "BucketRanges": [{"BucketRangeStart": 5, "ShardNumber": 0}]}"#,
    ] {
        let _ = reduce(State::default(), Action::SetConfigJson(bad.into()));
    }
    for tags in ["", ",,,", "A-B", "é", &"A ".repeat(100)] {
        let _ = reduce(State::default(), Action::SetNodes(tags.to_string()));
        let _ = reduce(
            State::default(),
            Action::SetMembers {
                shard: 0,
                text: tags.to_string(),
            },
        );
    }
}

#[test]
fn split_chars_clamps() {
    assert_eq!(split_chars("abc", [5, 9]), ("abc", "", ""));
    assert_eq!(split_chars("abc", [2, 1]), ("ab", "", "c"));
    assert_eq!(split_chars("", [0, 0]), ("", "", ""));
}

fn numbered(n: usize) -> Vec<Document> {
    (0..n)
        .map(|i| Document::new(format!("orders/{i}-A")))
        .collect()
}

#[test]
fn the_editor_shows_one_page_of_a_large_workspace() {
    let state = State::with_documents(numbered(2_500));
    let page = state.page();
    assert_eq!((page.start(), page.len()), (0, PAGE_LINES));
    assert!(page.text().starts_with("orders/0-A\norders/1-A\n"));
    assert_eq!(page.text().lines().count(), PAGE_LINES);

    let state = reduce(state, Action::MovePage(PageMove::Next));
    assert_eq!((state.page().start(), state.page().len()), (1_000, 1_000));
    let state = reduce(state, Action::MovePage(PageMove::Next));
    assert_eq!((state.page().start(), state.page().len()), (2_000, 500));
    // Next on the last page stays there; Previous goes back a page.
    let state = reduce(state, Action::MovePage(PageMove::Next));
    assert_eq!(state.page().start(), 2_000);
    let state = reduce(state, Action::MovePage(PageMove::Previous));
    assert_eq!(state.page().start(), 1_000);
    // A line goes to the page that holds it; past the end, the last page.
    let state = reduce(state, Action::MovePage(PageMove::Line(1_000)));
    assert_eq!(state.page().start(), 0);
    let state = reduce(state, Action::MovePage(PageMove::Line(2_001)));
    assert_eq!(state.page().start(), 2_000);
    let state = reduce(state, Action::MovePage(PageMove::Line(usize::MAX)));
    assert_eq!(state.page().start(), 2_000);
    let state = reduce(state, Action::MovePage(PageMove::Line(0)));
    assert_eq!(state.page().start(), 0);
}

#[test]
fn an_edit_of_a_page_replaces_only_its_documents() {
    let state = State::with_documents(numbered(2_500));
    let state = reduce(state, Action::MovePage(PageMove::Next));
    let before = state.placement();
    // Unchanged documents (a blank line added) keep the placement.
    let same = format!("{}\n\n", state.page().text());
    let state = reduce(state, Action::SetIds(same));
    assert!(Rc::ptr_eq(&before, &state.placement()));
    // Replace the page's 1,000 documents by two; the others stay, in order.
    let state = reduce(
        state,
        Action::SetIds("customers/1-A\nbad\tx\norders/new-A".into()),
    );
    let docs = state.documents();
    assert_eq!(docs.len(), 1_503);
    assert_eq!(docs[999].id, "orders/999-A");
    assert_eq!(docs[1_000].id, "customers/1-A");
    assert_eq!(docs[1_001].id, "bad");
    assert_eq!(docs[1_002].id, "orders/new-A");
    assert_eq!(docs[1_003].id, "orders/2000-A");
    assert_eq!((state.page().start(), state.page().len()), (1_000, 3));
    assert_eq!(state.placement().len(), 1_503);
    // Notes count the lines of the whole workspace.
    assert_eq!(state.parse_notes().len(), 1);
    assert!(state.parse_notes()[0].starts_with("Line 1002:"));
    // Moving pages starts over from the workspace's documents.
    let state = reduce(state, Action::MovePage(PageMove::Line(1_001)));
    assert_eq!(state.page().len(), 503);
    assert!(state
        .page()
        .text()
        .starts_with("customers/1-A\nbad\norders/new-A\n"));
    assert!(state.parse_notes().is_empty());
}

#[test]
fn a_huge_paste_is_cut_back_to_a_page() {
    let state = State::with_documents(numbered(10));
    let paste = documents_text(&numbered(MAX_PAGE_LINES + 1));
    let state = reduce(state, Action::SetIds(paste));
    assert_eq!(state.documents().len(), MAX_PAGE_LINES + 1);
    assert_eq!((state.page().start(), state.page().len()), (0, PAGE_LINES));
    assert_eq!(state.page().text().lines().count(), PAGE_LINES);
    assert!(state.notices()[0]
        .text
        .contains("shows 1000 lines at a time"));
    // Replacing the whole workspace opens its first page.
    let state = reduce(state, Action::MovePage(PageMove::Next));
    let state = reduce(state, Action::ClearIds);
    assert_eq!((state.page().start(), state.page().len()), (0, 0));
    assert!(state.page().is_whole(0));
}

const DESIGN: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#;

#[test]
fn the_chapters_design_places_routes_and_rejects() {
    let state = reduce(State::default(), Action::SetConfigJson(DESIGN.into()));
    assert!(state.config_problem().is_none());
    assert!(state.design().design().is_some());
    // The chapter's orders have Customer customers/1-A: orders/1-A (bucket 151326) is
    // outside its block, so the write is rejected; the anchored order is accepted.
    let p = state.placement();
    assert!(p
        .error(0)
        .unwrap()
        .message
        .starts_with("Rejected: 'orders/1-A'"));
    assert!(p.error(2).is_none());
    // A generated ID, typed with its body as the line's fourth field.
    let state = reduce(
        state,
        Action::SetIds("orders/9-A$\t\tOrders\t{\"Customer\":\"customers/1-A\"}".into()),
    );
    let own = ravenshard::bucket_for("orders/9-A").unwrap();
    let expected = format!("orders/9-A$@{}", 982_000 + own % 1000);
    assert_eq!(state.placement().generated()[0].1, expected);
    // The router follows the rule.
    let route = state.design().route();
    let route = route.as_ref().as_ref().unwrap();
    assert_eq!(
        (route.shards.clone(), route.buckets.clone()),
        (vec![2], vec![(982000, 983000)])
    );
    let state = reduce(
        state,
        Action::SetRouterQuery("from Orders where Total > 5".into()),
    );
    assert!(state.design().route().as_ref().as_ref().unwrap().all_shards);
    let state = reduce(state, Action::SetRouterQuery("select".into()));
    assert!(state.design().route().is_err());
    // A shard-count change installs a default configuration: the design is off again.
    let state = reduce(state, Action::SetShardCount("4".into()));
    assert!(state.design().design().is_none());
    assert!(state.placement().generated().is_empty());
}

#[test]
fn a_broken_rule_is_shown_and_not_applied() {
    let bad = DESIGN.replace("\"Range\": 1000", "\"Range\": 0");
    let state = reduce(State::default(), Action::SetConfigJson(bad));
    let problem = state.config_problem().unwrap();
    assert_eq!(problem.path.as_deref(), Some("ByContent.Orders.Range"));
    assert!(state.design().design().is_none());
    assert_eq!(state.shards(), 3);
}

#[test]
fn transaction_and_load_checks() {
    let state = State::default();
    // The chapter's anchored order and its customer share a bucket.
    let tx = state.design().transaction();
    assert_eq!(tx.buckets, vec![982173]);
    let state = reduce(
        state,
        Action::SetTransactionIds("orders/1-A\ncustomers/1-A\n\n".into()),
    );
    assert_eq!(state.design().transaction().shards, vec![0, 2]);
    // The documents the view shows: filter to Users/ and take them.
    let state = reduce(state, Action::SetFilterText("users/".into()));
    let state = reduce(state, Action::TransactionOfShownDocuments);
    assert_eq!(state.design().transaction_ids().lines().count(), 6);
    let load = state.design().load_check();
    assert!(!load.as_ref().as_ref().unwrap().same_bucket);
    let state = reduce(
        state,
        Action::SetLoadCheck {
            document: "Users/70$Users/4".into(),
            related: "Users/4".into(),
        },
    );
    assert!(
        state
            .design()
            .load_check()
            .as_ref()
            .as_ref()
            .unwrap()
            .same_bucket
    );
}

#[test]
fn a_routes_buckets_are_marked_on_the_map_within_a_cap() {
    use super::design::{marked_buckets, MAX_MARKED};
    let route = |buckets: Vec<(u32, u32)>| ravenshard_design::route::Route {
        shards: vec![0],
        all_shards: false,
        buckets,
        reason: String::new(),
        fetched: None,
        warnings: Vec::new(),
    };
    assert_eq!(
        marked_buckets(&route(vec![(5, 8), (20, 21)])),
        vec![5, 6, 7, 20]
    );
    let wide = marked_buckets(&route(vec![(0, 1 << 20)]));
    assert!(wide.len() <= MAX_MARKED + 1 && wide.len() > MAX_MARKED / 2);
    assert_eq!(wide[0], 0);
    assert!(marked_buckets(&route(Vec::new())).is_empty());
}
