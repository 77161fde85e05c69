//! The studio's state as a whole: how the sub-states follow each other (placement, design,
//! views, Resharding), share links, saved studios and exports. Each sub-state's own reducer
//! is tested in its file.

mod advisor;
mod config;
mod design;
mod host;
mod in_place;
mod reshard;
mod statistics;
mod views;
mod workspace;

use super::*;
use crate::persist::*;
use crate::views::reshard::state::*;
use ravenshard_model::share::{decode_fragment, encode_fragment};

/// Every document of the workspace, read from its host.
pub(super) fn all(state: &State) -> Vec<Document> {
    state.placement().documents(0..usize::MAX).collect()
}

/// Reduces `action`, then answers what the Resharding view asks the workspace's host, as the
/// page's worker does (from the page's placement, which holds what the host holds).
fn reduce(state: State, action: Action) -> State {
    let mut state = Rc::new(state).reduce(action);
    if state.reshard().load_wanted() {
        let changes = state.changes();
        state = state.reduce(Action::Reshard(ReshardAction::Load { changes }));
    }
    if let Some(target) = state.reshard().checking() {
        let configuration = target.to_json();
        let mut host = ravenshard_model::host::Host::new(state.placement());
        let question = ravenshard_model::host::question::CheckPrefixes {
            configuration: configuration.clone(),
        };
        let problem = host.answer(&question).expect("the target reads");
        let checked = ReshardAction::PrefixesChecked {
            configuration,
            problem,
        };
        state = state.reduce(Action::Reshard(checked));
    }
    for _ in 0..4 {
        let load = state.placement().bucket_load();
        let actions = super::testing::worker_round_trip(state.reshard(), &load);
        if actions.is_empty() {
            break;
        }
        for action in actions {
            state = state.reduce(Action::Reshard(action));
        }
    }
    Rc::unwrap_or_clone(state)
}

/// What the workspace's host does for the ID editor: gives it the page it asked for (read
/// here from the page's placement, which holds what the host holds).
pub(super) fn paged(state: State) -> State {
    let Some(wanted) = state.workspace().page_wanted() else {
        return state;
    };
    let documents = {
        let p = state.placement();
        let end = wanted.start.saturating_add(PAGE_LINES);
        p.documents(wanted.start..end).collect()
    };
    let loaded = WorkspaceAction::PageLoaded {
        token: wanted.token,
        start: wanted.start,
        documents: Rc::new(documents),
    };
    reduce(state, Action::Workspace(loaded))
}

fn config(state: State, action: ConfigAction) -> State {
    reduce(state, Action::Config(action))
}

fn workspace(state: State, action: WorkspaceAction) -> State {
    reduce(state, Action::Workspace(action))
}

fn view(state: State, action: ViewAction) -> State {
    reduce(state, Action::View(action))
}

fn reshard(state: State, action: ReshardAction) -> State {
    reduce(state, Action::Reshard(action))
}

/// Balances the Resharding view's target on this thread ([`ReshardAction::Balance`]), from
/// the host's load.
fn balance(state: State) -> State {
    let load = Rc::new(state.placement().bucket_load());
    reshard(state, ReshardAction::Balance(load))
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
    let p = state.placement();
    assert_eq!(p.len(), 12);
    assert_eq!(p.id(1), Some("customers/1-A"));
    let place = p.place(1).unwrap();
    assert_eq!((place.bucket, place.shard), (982173, 2));
    assert_eq!(p.shards()[2].fragment, "Orders$2");
    assert_eq!(p.shards()[0].nodes, ["A", "B"]);
    assert_eq!(
        shard_of(&state, "Users/70$Users/4"),
        shard_of(&state, "Users/4")
    );
    assert_eq!(p.matrix().rows.len(), 4);
    assert_eq!(state.placement().rows(state.views().query()).len(), 12);
    assert!(state
        .workspace()
        .page()
        .text()
        .contains("customers/1-A\t760\tCustomers"));
    assert!(state.notices().list().is_empty());
    assert_eq!(state.views().topology().as_ref(), p.topology());
    assert_eq!(state.reshard().inputs().changes, state.changes());
}

#[test]
fn typed_documents_are_placed_and_shown() {
    let text = "customers/1-A\t120\tCustomers\nUsers/4\nbad\tx\n";
    let state = workspace(State::default(), WorkspaceAction::SetText(text.into()));
    assert_eq!(state.placement().len(), 3);
    assert_eq!(state.placement().totals().bytes, 120);
    assert_eq!(state.placement().rows(state.views().query()).len(), 3);
    assert_eq!(
        state.views().topology().as_ref(),
        state.placement().topology()
    );
}

#[test]
fn unchanged_inputs_keep_the_placement() {
    let state = State::default();
    let before = state.host().version;
    let text = format!("{}\n\n", state.workspace().page().text());
    let state = workspace(state, WorkspaceAction::SetText(text));
    let state = config(state, ConfigAction::SetShardCount("3".into()));
    let state = config(state, ConfigAction::SetShardCount("oops".into()));
    let state = config(state, ConfigAction::SetDatabase("Orders".into()));
    let state = view(state, ViewAction::SelectTab(Tab::Map));
    assert_eq!(before, state.host().version, "nothing placed again");
}

#[test]
fn the_configuration_places_the_documents_again() {
    let state = config(State::default(), ConfigAction::SetShardCount("1".into()));
    assert_eq!(state.placement().shards()[0].documents, 12);
    let state = config(state, ConfigAction::SetShardCount("1024".into()));
    assert_eq!(shard_of(&state, "customers/1-A"), Some(959));
    let state = config(state, ConfigAction::SetDatabase(" Shop ".into()));
    assert_eq!(state.placement().shards()[2].fragment, "Shop$2");
    let json = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
                   "Prefixed": [{"Prefix": "users/", "Shards": [2]}]}"#;
    let state = config(state, ConfigAction::SetJson(json.into()));
    assert_eq!(shard_of(&state, "Users/4"), Some(2));
    assert_eq!(state.placement().shards()[0].fragment, "Shop$0");
}

/// Every view's answer of the state's placement equals a placement made from scratch of
/// its documents by its configuration.
pub(super) fn assert_placed_as_fresh(state: &State) {
    let p = state.placement();
    let options = PlacementOptions {
        design: state.design().design().map(|d| ContentDesign::clone(d)),
        ..PlacementOptions::default()
    };
    let fresh = ravenshard_model::workspace::Placement::new(
        &all(state),
        state.config().topology(),
        &options,
    );
    assert_eq!(p.topology(), fresh.topology());
    assert_eq!(p.totals(), fresh.totals());
    assert_eq!(p.shards(), fresh.shards());
    assert_eq!(p.groups(), fresh.groups());
    assert_eq!(p.blocks(), fresh.blocks());
    assert_eq!(p.bucket_load(), fresh.bucket_load());
    for i in 0..fresh.len() {
        assert_eq!(p.row(i), fresh.row(i));
    }
}

#[test]
fn a_new_configuration_is_followed_in_place_as_if_placed_again() {
    let mut state = State::default();
    let changes = [
        ConfigAction::SetShardCount("5".into()),
        ConfigAction::SetJson(
            r#"{"Shards": {"0": {}, "1": {}, "2": {}},
                "Prefixed": [{"Prefix": "users/", "Shards": [2]}]}"#
                .into(),
        ),
        ConfigAction::SetShardCount("2".into()),
        ConfigAction::SetJson(DESIGN.into()),
        ConfigAction::SetShardCount("4".into()),
    ];
    for change in changes {
        state = config(state, change);
        assert_placed_as_fresh(&state);
    }
}

#[test]
fn edits_of_the_id_editor_are_followed_in_place_as_if_placed_again() {
    let mut state = State::default();
    let text = state.workspace().page().text().to_string();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut edits = Vec::new();
    lines[3].push('x');
    edits.push(lines.join("\n"));
    lines.insert(5, "orders/9-A$customers/1-A".into());
    edits.push(lines.join("\n"));
    lines.drain(1..3);
    edits.push(lines.join("\n"));
    lines.push("Users/4".into());
    lines.push("".into());
    edits.push(lines.join("\n"));
    for (k, edit) in edits.into_iter().enumerate() {
        let before = state.changes();
        state = workspace(state, WorkspaceAction::SetText(edit));
        assert_ne!(before, state.changes(), "edit {k}");
        assert_placed_as_fresh(&state);
        if k == 1 {
            state = config(state, ConfigAction::SetJson(DESIGN.into()));
            assert_placed_as_fresh(&state);
        }
    }
}

#[test]
fn member_edits_do_not_place_the_documents_again() {
    let state = view(State::default(), ViewAction::SetFilterText("users".into()));
    let before = *state.placement().totals();
    let query = state.views().query().clone();
    let edit = ConfigAction::SetMembers {
        shard: 1,
        text: "C".into(),
    };
    let state = config(state, edit);
    assert_eq!(state.placement().shards()[1].nodes, ["C"]);
    assert_eq!(state.placement().topology().members(1), ["C"]);
    assert_eq!(*state.placement().totals(), before);
    assert_eq!(state.views().query(), &query);
    assert_eq!(
        state.views().topology().as_ref(),
        state.placement().topology()
    );
    assert_eq!(state.reshard().inputs().current.members(1), ["C"]);
    let state = config(state, ConfigAction::SetNodes("a b c".into()));
    assert_eq!(state.placement().matrix().rows.len(), 3);
}

#[test]
fn new_documents_reset_the_group_filter() {
    let state = view(State::default(), ViewAction::ShowGroupDocuments(0));
    assert_eq!(state.placement().rows(state.views().query()).len(), 4);
    let state = workspace(state, WorkspaceAction::SetText("orders/1-A".into()));
    let views = state.views();
    assert_eq!((views.query().group, views.selected_group()), (None, None));
    assert_eq!(state.placement().rows(views.query()).len(), 1);
}

#[test]
fn the_explanation_follows_the_configuration() {
    let state = view(
        State::default(),
        ViewAction::ExplainDocument("Users/70$Users/4".into()),
    );
    let shard = |state: &State| {
        let e = state.views().explanation().unwrap();
        e.as_ref().as_ref().unwrap().shard
    };
    assert_eq!(shard(&state), Some(1));
    let state = config(state, ConfigAction::SetShardCount("1".into()));
    assert_eq!(shard(&state), Some(0));
}

#[test]
fn workspace_notices_are_shown_once() {
    let stopped = WorkspaceAction::WorkStopped("Cancelled; the workspace is unchanged.".into());
    let state = workspace(State::default(), stopped);
    assert_eq!(state.notices().list().len(), 1);
    let state = workspace(state, WorkspaceAction::MovePage(PageMove::Next));
    assert_eq!(state.notices().list().len(), 1);
    assert!(state.notices().list()[0]
        .text
        .contains("Cancelled; the workspace is unchanged."));
    let state = reduce(state, Action::Notice(NoticeAction::Dismiss(0)));
    assert!(state.notices().list().is_empty());
}

const DESIGN: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#;

#[test]
fn the_chapters_design_places_routes_and_rejects() {
    let state = config(State::default(), ConfigAction::SetJson(DESIGN.into()));
    assert!(state.config().problem().is_none());
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
    let line = "orders/9-A$\t\tOrders\t{\"Customer\":\"customers/1-A\"}";
    let state = workspace(state, WorkspaceAction::SetText(line.into()));
    let own = ravenshard::bucket_for("orders/9-A").unwrap();
    let expected = format!("orders/9-A$@{}", 982_000 + own % 1000);
    assert_eq!(state.placement().generated()[0].1, expected);
    // The router follows the rule.
    let route = state.design().route();
    assert_eq!(route.as_ref().as_ref().unwrap().shards, vec![2]);
    // A shard-count change installs a default configuration: the design is off again.
    let state = config(state, ConfigAction::SetShardCount("4".into()));
    assert!(state.design().design().is_none());
    assert!(state.placement().generated().is_empty());
}

/// 3,000 generated documents, on the Resharding tab.
pub(super) fn generated() -> State {
    let state = workspace(
        State::default(),
        WorkspaceAction::SetGeneratorCount("3000".into()),
    );
    let state = workspace(state, WorkspaceAction::Generate);
    view(state, ViewAction::SelectTab(Tab::Reshard))
}

#[test]
fn the_resharding_view_is_computed_only_on_its_tab() {
    let state = workspace(
        State::default(),
        WorkspaceAction::SetGeneratorCount("3000".into()),
    );
    let state = workspace(state, WorkspaceAction::Generate);
    assert!(state.reshard().view().is_none());
    let state = view(state, ViewAction::SelectTab(Tab::Reshard));
    let plan = &state.reshard().view().unwrap().plan;
    assert_eq!(plan.as_ref().unwrap().docs, 3000);
}

#[test]
fn using_the_target_makes_it_the_configuration() {
    let state = reshard(generated(), ReshardAction::AddShard);
    let state = balance(state);
    assert!(state.reshard().has_target());
    let state = reduce(state, Action::UseReshardTarget);
    assert_eq!(state.placement().shards().len(), 4);
    assert!(state.config().custom());
    assert!(!state.reshard().has_target());
    let plan = &state.reshard().view().unwrap().plan;
    assert!(plan.as_ref().unwrap().moves.is_empty());
    assert!(state.notices().list()[0]
        .text
        .contains("configuration in force"));
    // Without a target, nothing happens.
    let version = state.host().version;
    let again = reduce(state, Action::UseReshardTarget);
    assert_eq!(again.host().version, version);
}

#[test]
fn changing_the_configuration_drops_the_target() {
    let state = reshard(generated(), ReshardAction::AddShard);
    assert!(state.reshard().has_target());
    let state = config(state, ConfigAction::SetShardCount("5".into()));
    assert!(!state.reshard().has_target());
    let plan = &state.reshard().view().unwrap().plan;
    assert_eq!(plan.as_ref().unwrap().per_shard.len(), 5);
    // New documents keep the target.
    let state = reshard(state, ReshardAction::AddShard);
    let state = workspace(state, WorkspaceAction::LoadChapterSample);
    assert!(state.reshard().has_target());
    assert_eq!(
        state.reshard().view().unwrap().plan.as_ref().unwrap().docs,
        12
    );
}

#[test]
fn a_workspace_over_the_link_limit_is_refused_before_any_link_is_made() {
    let at = |documents: usize| {
        State::from_shared(SharedState {
            documents: (0..documents)
                .map(|i| Document::new(format!("orders/{i}-A")))
                .collect(),
            ..SharedState::default()
        })
    };
    let limit = ravenshard_model::share::MAX_LINK_DOCUMENTS;
    assert_eq!(at(limit).share_refusal(), None);
    let refusal = at(limit + 1).share_refusal().expect("refused");
    assert_eq!(
        refusal,
        "The workspace is too big for a share link (20,001 documents; a link holds at most \
         20,000): export it as a file with Export CSV."
    );
}

#[test]
fn share_links_round_trip() {
    let shared = decode_fragment("#shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4").unwrap();
    let state = State::from_shared(shared);
    assert_eq!(all(&state).len(), 2);
    assert_eq!(state.placement().shards().len(), 3);
    assert_eq!(state.notices().list().len(), 1);
    let link = encode_fragment(&state.shared());
    let again = State::from_shared(decode_fragment(&link).unwrap());
    assert_eq!(all(&again), all(&state));
    assert_eq!(
        again.config().topology().to_json(),
        state.config().topology().to_json()
    );

    // A custom configuration travels as JSON.
    let json =
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "users/", "Shards": [1]}]}"#;
    let state = config(State::default(), ConfigAction::SetJson(json.into()));
    let shared = state.shared();
    assert!(shared.config.is_some());
    let again = State::from_shared(decode_fragment(&encode_fragment(&shared)).unwrap());
    assert_eq!(again.config().topology().prefixes().len(), 1);

    // An invalid configuration in a link is reported; the documents still open.
    let shared = SharedState {
        config: Some("{".into()),
        documents: vec![Document::new("a")],
        ..Default::default()
    };
    let state = State::from_shared(shared);
    assert_eq!(all(&state).len(), 1);
    assert_eq!(state.notices().list()[0].level, Level::Error);
    assert!(
        state.config().problem().is_none(),
        "reported once, as a notice"
    );
    // So is a shard count out of range.
    let shared = SharedState {
        shards: Some(5000),
        ..Default::default()
    };
    let state = State::from_shared(shared);
    assert!(state.notices().list()[0]
        .text
        .starts_with("The link's shard count"));
}

#[test]
fn saved_state_round_trips_and_bad_ones_are_refused() {
    let state = config(State::default(), ConfigAction::SetDatabase("Shop".into()));
    let edit = ConfigAction::SetMembers {
        shard: 0,
        text: "D".into(),
    };
    let state = config(state, edit);
    let json = serde_json::to_string(&state.saved()).unwrap();
    let back = State::from_saved(read_saved(&json).unwrap()).unwrap();
    assert_eq!(back.config().database().value(), "Shop");
    assert_eq!(back.config().topology().members(0), ["D"]);
    assert_eq!(all(&back), all(&state));
    assert_eq!(back.placement().shards()[0].fragment, "Shop$0");

    let plain = State::from_saved(State::default().saved()).unwrap();
    assert_eq!(plain.placement().shards()[2].fragment, "Orders$2");
    assert_eq!(plain.config().topology().members(1), ["C", "A"]);

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

/// What was pasted in the Readiness view is saved with the studio and restored with it;
/// a studio where nothing was writes no texts.
#[test]
fn the_readiness_texts_are_saved_and_restored() {
    use crate::views::readiness::state::{ReadinessAction, Text};
    assert_eq!(State::default().settings().readiness, None);
    let set = |text, value: &str| Action::Readiness(ReadinessAction::Set(text, value.into()));
    let state = reduce(
        State::default(),
        set(Text::Record, r#"{"DatabaseName": "Shop"}"#),
    );
    let state = reduce(state, set(Text::Loads, "Orders.Company"));
    assert_eq!(state.readiness().edits(), 2);
    let json = serde_json::to_string(&state.saved()).unwrap();
    let back = State::from_saved(read_saved(&json).unwrap()).unwrap();
    assert_eq!(
        back.readiness().text(Text::Record),
        r#"{"DatabaseName": "Shop"}"#
    );
    assert_eq!(back.readiness().text(Text::Loads), "Orders.Company");
    assert_eq!(back.readiness().text(Text::Queries), "");
    assert_eq!(back.settings().readiness, state.settings().readiness);
    // Emptied again: nothing written.
    let state = reduce(state, set(Text::Record, ""));
    let state = reduce(state, set(Text::Loads, ""));
    assert_eq!(state.settings().readiness, None);
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
    let state = workspace(state, WorkspaceAction::SetText("a,\"b\"\n".into()));
    assert!(state.csv().contains("\"a,\"\"b\"\"\""));
    let report: serde_json::Value = serde_json::from_str(&state.report_json()).unwrap();
    assert_eq!(report["database"], "Orders");
    assert_eq!(report["totals"]["documents"], 1);
    assert_eq!(report["shards"].as_array().unwrap().len(), 3);
    assert_eq!(report["configuration"]["Shards"]["0"]["Members"][0], "A");
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
        let state = workspace(State::default(), WorkspaceAction::SetText(id.to_string()));
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
        let _ = view(state, ViewAction::SetExplainId(id.to_string()));
    }
    let state = workspace(
        State::default(),
        WorkspaceAction::SetText("é".repeat(100_000)),
    );
    assert_eq!(state.placement().totals().invalid, 1);
    for bad in [
        "",
        "{}",
        "null",
        "[1]",
        "\"x\"",
        r#"{"Shards": {"0": {}}, "BucketRanges": [{"BucketRangeStart": 5, "ShardNumber": 0}]}"#,
    ] {
        let _ = config(State::default(), ConfigAction::SetJson(bad.into()));
    }
}

#[test]
fn split_chars_clamps() {
    assert_eq!(split_chars("abc", [5, 9]), ("abc", "", ""));
    assert_eq!(split_chars("abc", [2, 1]), ("ab", "", "c"));
    assert_eq!(split_chars("", [0, 0]), ("", "", ""));
}

/// An import that could not keep some documents' bodies (over the import's limit) says
/// so when its documents become the workspace's: how many, why and what to do; one that
/// kept every body says nothing of it.
#[test]
fn bodies_an_import_did_not_keep_are_told() {
    use ravenshard_import::{BodiesDropped, FieldPaths};
    let loaded = |state: &State, dropped: BodiesDropped| {
        let kept = KeptFields::new("orders.json".into(), FieldPaths::new(["Customer"]));
        let loaded = state.loaded(&[Document::new("orders/1-A")], state.placer());
        Action::Loaded(Rc::new(Loaded {
            kept: Some(kept.with_dropped(dropped)),
            ..loaded
        }))
    };
    let state = State::with_documents(Vec::new());
    let action = loaded(&state, BodiesDropped::default());
    let state = reduce(state, action);
    assert!(state.notices().list().is_empty());
    let dropped = BodiesDropped {
        documents: 3,
        largest: 40 << 20,
        fields: true,
    };
    let action = loaded(&state, dropped);
    let state = reduce(state, action);
    let told: Vec<_> = state.notices().list().iter().collect();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].level, Level::Warning);
    assert_eq!(
        told[0].text,
        format!("The import of orders.json: {dropped}")
    );
    assert!(told[0].text.contains("3 documents' bodies were not kept"));
}

/// The topology the Resharding state works from is the placement's own (they cannot
/// disagree), and its `Rc`, compared by pointer to decide what to compute again, changes
/// only when its value does: not on an edit or an action that changes nothing, but on a
/// new shard count, new members or a design. The inputs follow each change of the
/// workspace.
#[test]
fn the_placed_topology_follows_the_placement() {
    let same = |a: &State, b: &State| {
        let (a, b) = (a.reshard().inputs(), b.reshard().inputs());
        (Rc::ptr_eq(&a.current, &b.current), a.same_as(b))
    };
    let agrees = |s: &State| {
        let (inputs, placement) = (s.reshard().inputs(), s.placement());
        *inputs.current == *placement.topology() && inputs.changes == s.changes()
    };
    let start = State::default();
    assert!(agrees(&start));
    // Nothing changes: the same handles, nothing computed again.
    let text = format!("{}\n\n", start.workspace().page().text());
    let mut state = workspace(start.clone(), WorkspaceAction::SetText(text));
    state = config(state, ConfigAction::SetShardCount("3".into()));
    state = config(state, ConfigAction::SetDatabase("Orders".into()));
    state = view(state, ViewAction::SelectTab(Tab::Map));
    assert_eq!(same(&start, &state), (true, true));
    assert_eq!(state.changes(), start.changes());
    // An edit: a new placement, the same topology and options.
    let text = format!("{}\nusers/9", start.workspace().page().text());
    let edited = workspace(state.clone(), WorkspaceAction::SetText(text));
    assert_eq!(same(&state, &edited), (true, false));
    assert!(agrees(&edited));
    // A shard count: a new topology.
    let four = config(edited.clone(), ConfigAction::SetShardCount("4".into()));
    assert_eq!(same(&edited, &four), (false, false));
    assert_eq!(four.reshard().inputs().current.shards().len(), 4);
    assert!(agrees(&four));
    // New members of a shard: a new topology, the documents where they were.
    let members = ConfigAction::SetNodes("A, B, C".into());
    let moved = config(four.clone(), members);
    assert!(!same(&four, &moved).0);
    assert!(agrees(&moved));
    // A design: new options.
    let json =
        r#"{"Shards": {"0": {}, "1": {}}, "ByContent": {"Orders": {"Fields": ["Customer"]}}}"#;
    let designed = config(moved.clone(), ConfigAction::SetJson(json.into()));
    assert!(!same(&moved, &designed).0);
    assert!(designed.placement().options().design.is_some());
    assert!(agrees(&designed));
}
