//! The Readiness sub-state on its own: the texts kept whatever comes, a run's life (late
//! replies dropped, bad input named, crashes), the filters and the grouping, on reports the
//! check makes of the check crate's fixtures (the CLI's counts on the same files).

use super::state::*;
use crate::workers::{CheckReply, Checked, Crashed};
use ravenshard::{Document, Topology};
use ravenshard_check::{check, Inputs, Severity};
use std::rc::Rc;
use yew::Reducible;

const EVERY: &str =
    include_str!("../../../../crates/ravenshard-check/fixtures/every-finding-record.json");
const CLEAN: &str = include_str!("../../../../crates/ravenshard-check/fixtures/clean-record.json");
const QUERIES: &str = include_str!("../../../../crates/ravenshard-check/fixtures/queries.rql");
const SHARDING: &str = include_str!("../../../../crates/ravenshard-check/fixtures/sharding.json");

fn reduce(state: ReadinessState, action: ReadinessAction) -> ReadinessState {
    Rc::unwrap_or_clone(Rc::new(state).reduce(action))
}

fn reduce_all(state: ReadinessState, actions: Vec<ReadinessAction>) -> ReadinessState {
    actions.into_iter().fold(state, reduce)
}

/// The report the worker makes of `record` with the fixture's queries and `documents`,
/// under the fixture's sharding (3 shards on nodes A, B, C; the prefix `eu/`).
fn checked(record: &str, queries: Option<&str>, documents: &[Document]) -> Checked {
    let sharding = Topology::from_json(SHARDING).unwrap();
    let report = check(&Inputs {
        queries,
        documents: (!documents.is_empty()).then_some(documents),
        sharding: Some(&sharding),
        ..Inputs::record(record)
    })
    .unwrap();
    Checked {
        documents: documents.len() as u64,
        report,
    }
}

fn done(report: Checked) -> ReadinessState {
    reduce_all(
        ReadinessState::default(),
        vec![
            ReadinessAction::Set(Text::Record, EVERY.into()),
            ReadinessAction::Started { run: 1, total: 0 },
            ReadinessAction::Reply(CheckReply::Checked {
                run: 1,
                report: Box::new(report),
            }),
        ],
    )
}

#[test]
fn a_run_s_life_keeps_the_texts_and_drops_late_replies() {
    let state = ReadinessState::default();
    assert!(!state.can_run(), "no record");
    let state = reduce(
        state,
        ReadinessAction::Set(Text::Record, "{ not json".into()),
    );
    let state = reduce(
        state,
        ReadinessAction::Set(Text::Queries, "from Orders".into()),
    );
    assert!(state.can_run());
    let state = reduce(state, ReadinessAction::Started { run: 1, total: 200 });
    assert!(state.running() && !state.can_run());
    let state = reduce(state, ReadinessAction::Sent { run: 1, sent: 100 });
    assert_eq!(
        state.run(),
        &Run::Running {
            sent: 100,
            total: 200
        }
    );
    // The check refuses the record: the message is the record's, the text stays.
    let message = check(&Inputs::record("{ not json"))
        .unwrap_err()
        .to_string();
    assert!(message.starts_with("record: line 1, column 3"), "{message}");
    let failed = CheckReply::Failed {
        run: 1,
        input: "record".into(),
        message: message.clone(),
    };
    let state = reduce(state, ReadinessAction::Reply(failed));
    assert_eq!(state.problem(Text::Record), Some(message.as_str()));
    assert_eq!(state.problem(Text::Queries), None);
    assert_eq!(state.text(Text::Record), "{ not json");
    assert_eq!(state.text(Text::Queries), "from Orders");
    // A reply of run 1 after run 2 started is dropped; an older Started is ignored.
    let state = reduce(state, ReadinessAction::Started { run: 2, total: 0 });
    let late = CheckReply::Checked {
        run: 1,
        report: Box::default(),
    };
    let state = reduce(state, ReadinessAction::Reply(late));
    assert!(state.running());
    assert_eq!(
        reduce(state.clone(), ReadinessAction::Started { run: 2, total: 9 }),
        state
    );
    // The documents changed while sent: the run stops, saying so.
    let state = reduce(
        state,
        ReadinessAction::Stopped {
            run: 2,
            message: "changed".into(),
        },
    );
    assert_eq!(
        state.run(),
        &Run::Failed {
            input: "documents".into(),
            message: "changed".into()
        }
    );
    let state = reduce(state, ReadinessAction::Started { run: 3, total: 0 });
    let state = reduce(state, ReadinessAction::Cancel);
    assert!(matches!(state.run(), Run::Failed { message, .. } if message.starts_with("Cancelled")));
}

#[test]
fn a_crash_fails_the_run_until_the_next() {
    let state = reduce(
        ReadinessState::default(),
        ReadinessAction::Set(Text::Record, CLEAN.into()),
    );
    let state = reduce(state, ReadinessAction::Started { run: 1, total: 0 });
    let crash = CheckReply::Crashed(Crashed {
        message: "boom".into(),
    });
    let state = reduce(state, ReadinessAction::Reply(crash));
    assert_eq!(state.crash(), Some("boom"));
    assert!(!state.running() && state.can_run());
    assert_eq!(state.text(Text::Record), CLEAN);
    let state = reduce(state, ReadinessAction::DismissCrash);
    assert_eq!(state.crash(), None);
}

#[test]
fn findings_grouped_by_severity_with_the_cli_s_counts() {
    // `ravenshard check --config sharding.json --queries queries.rql every-finding-record.json`.
    let report = checked(EVERY, Some(QUERIES), &[]);
    let state = done(report.clone());
    let cli = check(&Inputs {
        queries: Some(QUERIES),
        sharding: Some(&Topology::from_json(SHARDING).unwrap()),
        ..Inputs::record(EVERY)
    })
    .unwrap();
    for severity in Severity::ALL {
        assert_eq!(state.count(severity), cli.count(severity), "{severity}");
    }
    // `ravenshard check --config sharding.json --queries queries.rql every-finding-record.json`
    // prints "28 blocks, 17 changes, 5 note, 2 not checked".
    assert_eq!(Severity::ALL.map(|s| state.count(s)), [28, 17, 5, 2]);
    assert!(state.count(Severity::Blocks) > 0);
    let groups = state.groups();
    let order: Vec<Severity> = groups.iter().map(|(s, _)| *s).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "most severe first");
    let shown: usize = groups.iter().map(|(_, f)| f.len()).sum();
    assert_eq!(shown, report.report.findings.len());
    assert!(groups
        .iter()
        .all(|(s, f)| f.iter().all(|x| x.severity == *s)));
}

#[test]
fn filters_by_severity_and_area() {
    let state = done(checked(EVERY, Some(QUERIES), &[]));
    let all = state.count(Severity::Blocks);
    let state = reduce(state, ReadinessAction::ToggleSeverity(Severity::Blocks));
    assert!(!state.shows(Severity::Blocks));
    assert!(state.groups().iter().all(|(s, _)| *s != Severity::Blocks));
    assert_eq!(
        state.count(Severity::Blocks),
        all,
        "counts ignore the filters"
    );
    let state = reduce(state, ReadinessAction::ToggleSeverity(Severity::Blocks));
    assert!(state.shows(Severity::Blocks));
    let areas = state.areas();
    assert!(
        areas.contains(&"index") && areas.contains(&"query") && areas.contains(&"task"),
        "{areas:?}"
    );
    let state = reduce(state, ReadinessAction::SetArea(Some("query".into())));
    let groups = state.groups();
    assert!(!groups.is_empty());
    assert!(groups
        .iter()
        .all(|(_, f)| f.iter().all(|x| x.rule.starts_with("query."))));
    let state = reduce(state, ReadinessAction::SetArea(Some("nothing".into())));
    assert!(state.groups().is_empty());
    let state = reduce(state, ReadinessAction::SetArea(None));
    assert_eq!(
        state.groups().iter().map(|(_, f)| f.len()).sum::<usize>(),
        state.report().unwrap().report.findings.len()
    );
}

#[test]
fn data_and_routing_findings_link_to_their_views() {
    let documents: Vec<Document> = ["carts/1-A$", "eu/orders/1-A", "orders/\u{1}x"]
        .into_iter()
        .map(Document::new)
        .chain((0..12).map(|i| Document::new(format!("carts/{i}-A$carts/1-A"))))
        .collect();
    let report = checked(CLEAN, Some("from Orders where Total > 10"), &documents);
    let state = done(report);
    let found = |rule: &str| {
        let report = state.report().unwrap();
        report
            .report
            .findings
            .iter()
            .find(|f| f.rule == rule)
            .cloned()
            .unwrap_or_else(|| panic!("{rule}: {:?}", report.report.findings))
    };
    let control = found("data.control-character-id");
    assert_eq!(control.location.input, "documents");
    assert_eq!(
        link_of(&control),
        Some(Link::Documents("orders/\u{1}x".into()))
    );
    assert_eq!(
        link_of(&found("data.prefix-at-creation")),
        Some(Link::Ranges)
    );
    assert_eq!(link_of(&found("query.all-shards")), Some(Link::Queries(1)));
    // The fixture's nodes: three shards on three nodes.
    assert_eq!(found("licence.shards-on-one-node").severity, Severity::Note);
    assert_eq!(state.report().unwrap().documents, documents.len() as u64);
}

#[test]
fn a_clean_record_blocks_nothing() {
    let state = done(checked(CLEAN, None, &[]));
    assert_eq!(state.count(Severity::Blocks), 0);
    assert!(state.groups().iter().all(|(s, _)| *s != Severity::Blocks));
}

/// A text changed counts as an edit (what the save follows); the same text again does not.
#[test]
fn a_changed_text_is_an_edit_to_save() {
    let set = |text, value: &str| ReadinessAction::Set(text, value.into());
    let state = reduce(ReadinessState::default(), set(Text::Queries, "from Orders"));
    assert_eq!(state.edits(), 1);
    let state = reduce(state, set(Text::Queries, "from Orders"));
    assert_eq!(state.edits(), 1);
    let state = reduce(state, ReadinessAction::ToggleSeverity(Severity::Note));
    assert_eq!(state.edits(), 1);
    let saved = state.saved().unwrap();
    assert_eq!(saved.queries, "from Orders");
    assert_eq!(
        ReadinessState::restored(saved).text(Text::Queries),
        "from Orders"
    );
}
