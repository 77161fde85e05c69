//! The workspace's changes reach its host in order ([`Outbox`]): a host fed the queue holds
//! what the page holds after any action, and the page tells when it does not.

use super::*;
use ravenshard_model::host::{Changed, Host};

/// Hands the changes queued to `host`, in order; what the last one did.
fn hosted(state: &State, host: &mut Host) -> Option<(u64, Changed)> {
    let mut last = None;
    for (seq, change) in state.workspace().outbox().take() {
        let changed = host
            .apply(change)
            .expect("the host makes every change the page made");
        last = Some((seq, changed));
    }
    last
}

/// After every kind of change of the documents or of the configuration, the host fed the
/// queue holds the page's documents, placed the same way.
#[test]
fn a_host_fed_the_queue_holds_what_the_page_holds() {
    let mut host = Host::default();
    let mut state = State::default();
    let statistics = r#"{"Bucket": 7, "Size": 900, "NumberOfDocuments": 9}"#;
    let rewrites = vec![Rewrite {
        from: "orders/1-a".into(),
        to: "orders/1-A$customers/1-A".into(),
    }];
    let design =
        r#"{"Shards": {"0": {}, "1": {}}, "ByContent": {"Orders": {"Fields": ["Customer"]}}}"#;
    let prefixed =
        r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "users/", "Shards": [1]}]}"#;
    let steps: Vec<(&str, Action)> = vec![
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
    ];
    for (label, action) in steps {
        state = reduce(state, action);
        hosted(&state, &mut host);
        assert_eq!(
            host.placement().summary(),
            **state.summary(),
            "after {label}"
        );
        let documents: Vec<Document> = host.placement().documents(0..usize::MAX).collect();
        assert_eq!(documents, all(state.workspace()), "after {label}");
        assert_eq!(state.workspace().outbox().queued(), 0);
    }
}

/// The host's summary once it made every change sent is checked against the page's: a
/// difference is told, once per change, and the page records the host's version.
#[test]
fn the_page_tells_when_the_host_holds_other_figures() {
    let mut host = Host::default();
    let state = workspace(State::default(), WorkspaceAction::SetText("a/1\n".into()));
    let (seq, changed) = hosted(&state, &mut host).unwrap();
    let news = HostNews::Changed {
        seq,
        changed: Rc::new(changed.clone()),
    };
    let state = reduce(state, Action::Host(news));
    assert!(
        state.notices().list().is_empty(),
        "{:?}",
        state.notices().list()
    );
    assert_eq!(
        (state.host().version, state.host().seq),
        (changed.version, seq)
    );
    let mut other = changed;
    other.summary.totals.placed += 1;
    let state = reduce(
        state,
        Action::Host(HostNews::Changed {
            seq,
            changed: Rc::new(other),
        }),
    );
    let list = state.notices().list();
    assert_eq!(list.len(), 1);
    assert!(
        list[0].text.contains("other figures than the page"),
        "{}",
        list[0].text
    );
}

/// A host that stopped is sent every document and the configuration again.
#[test]
fn a_host_that_stopped_is_given_the_documents_again() {
    let mut host = Host::default();
    let state = State::default();
    hosted(&state, &mut host);
    let state = reduce(
        state,
        Action::Host(HostNews::Crashed {
            message: "oom".into(),
        }),
    );
    let mut fresh = Host::default();
    hosted(&state, &mut fresh);
    assert_eq!(fresh.placement().summary(), **state.summary());
    assert_eq!(state.host().version, 0);
}
