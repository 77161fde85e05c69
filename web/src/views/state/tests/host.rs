//! The workspace's changes reach its host in order ([`Outbox`]), and its news come back: after
//! any action the page shows the host's summary, and the host's documents are placed as a
//! placement made from scratch of them would be. A host that refuses a change or stops is
//! told, and a stopped one is given the last saved studio.

use super::*;

/// After every kind of change of the documents or of the configuration, the page shows the
/// host's summary, of documents placed as from scratch.
#[test]
fn the_page_shows_what_the_host_holds_after_every_change() {
    let mut state = State::default();
    for (label, action) in every_kind_of_change() {
        state = reduce(state, action);
        assert_eq!(
            state.placement().summary(),
            **state.summary(),
            "after {label}"
        );
        if state.workspace().statistics().is_none() {
            assert_placed_as_fresh(&state);
        }
        assert_eq!(state.workspace().outbox().queued(), 0);
        assert_eq!(
            state.workspace().len(),
            state.summary().documents,
            "after {label}"
        );
    }
}

/// One action of every kind that changes the documents or the configuration, each with a
/// label for the test's messages.
fn every_kind_of_change() -> Vec<(&'static str, Action)> {
    let statistics = r#"{"Bucket": 7, "Size": 900, "NumberOfDocuments": 9}"#;
    let rewrites = vec![Rewrite {
        from: "orders/1-a".into(),
        to: "orders/1-A$customers/1-A".into(),
    }];
    let design =
        r#"{"Shards": {"0": {}, "1": {}}, "ByContent": {"Orders": {"Fields": ["Customer"]}}}"#;
    let prefixed =
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "users/", "Shards": [1]}]}"#;
    vec![
        ("opened", Action::View(ViewAction::SelectTab(Tab::Shards))),
        (
            "edit",
            Action::Workspace(WorkspaceAction::SetText(
                "orders/1-A\t10\tOrders\nusers/4\n".into(),
            )),
        ),
        (
            "shard count",
            Action::Config(ConfigAction::SetShardCount("5".into())),
        ),
        (
            "members",
            Action::Config(ConfigAction::SetMembers {
                shard: 1,
                text: "C".into(),
            }),
        ),
        (
            "nodes",
            Action::Config(ConfigAction::SetNodes("a b c".into())),
        ),
        (
            "prefixes",
            Action::Config(ConfigAction::SetJson(prefixed.into())),
        ),
        (
            "rewrite",
            Action::Workspace(WorkspaceAction::RewriteIds {
                label: "x".into(),
                rewrites: Rc::new(rewrites),
            }),
        ),
        (
            "design",
            Action::Config(ConfigAction::SetJson(design.into())),
        ),
        ("generated", Action::Workspace(WorkspaceAction::Generate)),
        (
            "statistics",
            Action::Workspace(WorkspaceAction::StatisticsImported {
                names: vec!["b.json".into()],
                texts: vec![statistics.into()],
            }),
        ),
        (
            "shard count again",
            Action::Config(ConfigAction::SetShardCount("3".into())),
        ),
        (
            "typed over statistics",
            Action::Workspace(WorkspaceAction::SetText("a/1\n".into())),
        ),
        (
            "chapter",
            Action::Workspace(WorkspaceAction::LoadChapterSample),
        ),
        ("cleared", Action::Workspace(WorkspaceAction::Clear)),
    ]
}

/// A change the host refuses is told, and the editor shows the host's page again.
#[test]
fn a_refused_change_is_told_and_the_page_asked_again() {
    let state = State::default();
    let seq = state.changes();
    let refused = HostNews::Refused {
        seq,
        error: ravenshard_model::host::ChangeError::Edit("too many documents".into()),
    };
    let state = reduce(state, Action::Host(refused));
    let list = state.notices().list();
    assert!(
        list[0].text.contains("too many documents"),
        "{}",
        list[0].text
    );
    assert!(state.workspace().page_wanted().is_some());
}

/// A host that stopped is told, and the last saved studio is to be restored into a new
/// one; after [`HOST_RESTARTS`] the page asks for a reload instead.
#[test]
fn a_host_that_stopped_is_given_the_last_saved_studio() {
    let crashed = || {
        Action::Host(HostNews::Crashed {
            message: "oom".into(),
        })
    };
    let state = reduce(State::default(), crashed());
    assert!(state.restore_wanted());
    assert!(state.notices().list()[0]
        .text
        .contains("last saved studio is restored"));
    assert_eq!(state.host().version, 0);
    let mut state = reduce(state, Action::RestoreStarted);
    assert!(!state.restore_wanted());
    for _ in 0..HOST_RESTARTS {
        state = reduce(state, crashed());
    }
    let list = state.notices().list();
    assert!(
        list.last().unwrap().text.contains("reload the page"),
        "{list:?}"
    );
}
