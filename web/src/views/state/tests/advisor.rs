//! The Advisor sub-state on its own (a run's life, late replies dropped, crashes), and the
//! studio's handling of what applying a candidate does to the workspace and the
//! configuration.

use super::reduce;
use crate::state::*;
use crate::views::advisor::state::*;
use crate::views::state::*;
use crate::workers::host::HostNews;
use crate::workers::{AdvisorReply, Crashed, Progress, Stage};
use ravenshard::Topology;
use ravenshard_advise::{advise, Strategy, Workload};
use ravenshard_import::Format;
use ravenshard_model::host::question::AdviceError;
use ravenshard_model::workspace::Document;
use std::rc::Rc;
use yew::Reducible;

fn advisor(state: AdvisorState, action: AdvisorAction) -> AdvisorState {
    Rc::unwrap_or_clone(Rc::new(state).reduce(action))
}

fn export() -> ExportFile {
    ExportFile {
        name: "Northwind.ndjson".into(),
        size: 1000,
        url: "blob:x".into(),
    }
}

/// 200 companies, 2,000 orders naming them, as NDJSON.
fn ndjson() -> String {
    let mut text = String::new();
    for c in 1..=200 {
        text += &format!(
            "{{\"@metadata\": {{\"@id\": \"companies/{c}-A\", \"@collection\": \"Companies\"}}}}\n"
        );
    }
    for o in 1..=2000 {
        text += &format!(
            "{{\"Company\": \"companies/{}-A\", \"@metadata\": {{\"@id\": \"orders/{o}-A\", \"@collection\": \"Orders\"}}}}\n",
            o % 200 + 1
        );
    }
    text
}

fn an_advice() -> Box<ravenshard_advise::Advice> {
    let topology = Topology::with_shards(3).unwrap();
    let advice = advise(
        ndjson().as_bytes(),
        Some(Format::Ndjson),
        &topology,
        &Workload::default(),
    );
    Box::new(advice.unwrap())
}

fn started(run: u64) -> AdvisorState {
    let state = advisor(
        AdvisorState::default(),
        AdvisorAction::ChooseExport(export()),
    );
    advisor(state, AdvisorAction::Started(run))
}

fn progress(run: u64, done: u64) -> AdvisorAction {
    AdvisorAction::Reply(AdvisorReply::Progress(Progress {
        run,
        stage: Stage::Reading,
        done,
        total: Some(1000),
        elapsed_ms: 200,
    }))
}

#[test]
fn a_run_needs_an_export_and_a_workload_that_reads() {
    let state = AdvisorState::default();
    assert!(!state.can_run());
    let state = advisor(state, AdvisorAction::ChooseExport(export()));
    assert!(state.can_run());
    let state = advisor(state, AdvisorAction::SetQueries("from where".into()));
    assert!(state.workload_problem().unwrap().contains("line 1"));
    assert!(!state.can_run());
    let state = advisor(state, AdvisorAction::SetQueries("from Orders".into()));
    let state = advisor(state, AdvisorAction::SetLoads("Orders".into()));
    assert!(state
        .workload_problem()
        .unwrap()
        .contains("Collection.Field"));
    let state = advisor(state, AdvisorAction::SetLoads("Orders.Company".into()));
    assert_eq!(state.workload_problem(), None);
    assert!(state.can_run());
}

#[test]
fn a_run_reports_progress_with_an_estimate_then_its_advice() {
    let state = started(1);
    assert!(state.running() && !state.can_run());
    assert_eq!(state.next_run(), 2);
    let state = advisor(state, progress(1, 250));
    assert!(matches!(state.run(), Run::Running { done: 250, .. }));
    assert_eq!(state.estimate_ms(), Some(600));
    let advice = an_advice();
    let state = advisor(
        state,
        AdvisorAction::Reply(AdvisorReply::Advice { run: 1, advice }),
    );
    let Run::Done(advice) = state.run() else {
        panic!("no advice: {:?}", state.run());
    };
    assert_eq!(advice.documents, 2200);
    let orders = advice
        .collections
        .iter()
        .find(|c| c.collection == "Orders")
        .unwrap();
    assert_eq!(orders.recommended.strategy, Strategy::Anchor);
    assert_eq!(state.advised_run(), Some(1));
    assert!(state.can_run());
}

#[test]
fn late_replies_of_a_cancelled_run_are_dropped() {
    let state = advisor(started(1), AdvisorAction::Cancel);
    assert_eq!(
        state.run(),
        &Run::Failed("Cancelled: the worker was stopped.".into())
    );
    let advice = an_advice();
    let late = advisor(
        state.clone(),
        AdvisorAction::Reply(AdvisorReply::Advice { run: 1, advice }),
    );
    assert_eq!(late, state);
    let state = advisor(state, AdvisorAction::Started(2));
    let state = advisor(state, progress(1, 999));
    assert!(matches!(state.run(), Run::Running { done: 0, .. }));
    let failed = AdvisorReply::Failed {
        run: 2,
        message: "Northwind.ndjson: line 3 is no JSON".into(),
    };
    let state = advisor(state, AdvisorAction::Reply(failed));
    assert_eq!(
        state.run(),
        &Run::Failed("Northwind.ndjson: line 3 is no JSON".into())
    );
    assert_eq!(advisor(state.clone(), AdvisorAction::Started(2)), state);
}

#[test]
fn a_crash_is_shown_until_dismissed_and_ends_the_run() {
    let crash = AdvisorReply::Crashed(Crashed {
        message: "panicked at run.rs".into(),
    });
    let state = advisor(started(1), AdvisorAction::Reply(crash));
    assert_eq!(state.crash(), Some("panicked at run.rs"));
    assert!(matches!(state.run(), Run::Failed(m) if m.contains("run it again")));
    assert_eq!(state.advised_run(), None);
    assert!(state.can_run());
    let state = advisor(state, AdvisorAction::DismissCrash);
    assert_eq!(state.crash(), None);
    let again = advisor(
        advisor(state, AdvisorAction::Started(2)),
        AdvisorAction::Reply(AdvisorReply::Crashed(Crashed {
            message: "x".into(),
        })),
    );
    assert!(advisor(again, AdvisorAction::Started(3)).crash().is_none());
}

fn last_notice(state: &State) -> &str {
    &state.notices().list().last().unwrap().text
}

fn studio_of(ids: &[&str]) -> State {
    State::with_documents(ids.iter().map(|id| Document::new(*id)).collect())
}

#[test]
fn applying_an_anchor_rewrites_the_workspaces_ids_and_every_view_follows() {
    let state = studio_of(&["companies/1-A", "orders/1-A", "Orders/2-A"]);
    let rewrites = AdvisorReply::Rewrites {
        run: 1,
        collection: "Orders".into(),
        field: "Company".into(),
        rewrites: vec![
            ("orders/1-A".into(), "orders/1-A$companies/1-A".into()),
            ("orders/2-A".into(), "orders/2-A$companies/1-A".into()),
            ("orders/3-A".into(), "orders/3-A$companies/1-A".into()),
        ],
    };
    let state = reduce(state, Action::Advisor(AdvisorAction::Reply(rewrites)));
    let documents = super::all(&state);
    let ids: Vec<&str> = documents.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "companies/1-A",
            "orders/1-A$companies/1-A",
            "orders/2-A$companies/1-A"
        ]
    );
    let p = state.placement();
    let bucket = |i: usize| p.place(i).unwrap().bucket;
    assert_eq!((bucket(1), bucket(2)), (bucket(0), bucket(0)));
    let notice = &state.notices().list().last().unwrap().text;
    assert!(
        notice.contains("Applied anchor on Company (Orders): 2 IDs rewritten."),
        "{notice}"
    );
    assert!(
        notice.contains("1 document of the export is not in the workspace"),
        "{notice}"
    );
}

#[test]
fn applying_an_anchor_to_a_workspace_without_the_export_changes_nothing_and_says_so() {
    let state = studio_of(&["users/1"]);
    let before = state.host().version;
    let rewrites = AdvisorReply::Rewrites {
        run: 1,
        collection: "Orders".into(),
        field: "Company".into(),
        rewrites: vec![("orders/1-A".into(), "orders/1-A$companies/1-A".into())],
    };
    let state = reduce(state, Action::Advisor(AdvisorAction::Reply(rewrites)));
    assert_eq!(state.host().version, before, "the host changed nothing");
    let notice = state.notices().list().last().unwrap();
    assert_eq!(notice.level, Level::Warning);
    assert!(notice.text.contains("no ID changed"), "{}", notice.text);
}

#[test]
fn applying_a_configuration_puts_it_in_force() {
    let state = studio_of(&["eu/orders/1-A", "us/orders/1-A"]);
    let json = r#"{"Prefixed": [{"Prefix": "eu/", "Shards": [1]}, {"Prefix": "us/", "Shards": [2]}], "Shards": {"0": {}, "1": {}, "2": {}}}"#;
    let action = Action::ApplyConfiguration {
        label: "prefix (Orders)".into(),
        json: json.into(),
    };
    let state = reduce(state, action);
    assert_eq!(state.config().problem(), None);
    let p = state.placement();
    assert_eq!(
        (p.place(0).unwrap().shard, p.place(1).unwrap().shard),
        (1, 2)
    );
    assert!(last_notice(&state).contains("Applied prefix (Orders)"));
}

#[test]
fn a_failure_outside_a_run_and_a_crash_are_noticed() {
    let failed = AdvisorReply::Failed {
        run: 1,
        message: "the worker no longer holds this export".into(),
    };
    let state = reduce(
        State::default(),
        Action::Advisor(AdvisorAction::Reply(failed)),
    );
    let notice = state.notices().list().last().unwrap();
    assert_eq!(notice.level, Level::Error);
    assert!(notice.text.contains("no longer holds"));
    let crash = AdvisorReply::Crashed(Crashed {
        message: "panicked".into(),
    });
    let state = reduce(state, Action::Advisor(AdvisorAction::Reply(crash)));
    assert_eq!(state.advisor().crash(), Some("panicked"));
    assert!(last_notice(&state).contains("worker stopped (panicked)"));
}

fn on_workspace(run: u64) -> AdvisorState {
    let action = AdvisorAction::AskedWorkspace {
        run,
        asked: 7,
        documents: 1000,
    };
    advisor(AdvisorState::default(), action)
}

fn host_progress(run: u64, done: u64, elapsed_ms: u64) -> AdvisorAction {
    AdvisorAction::WorkspaceProgress {
        run,
        done,
        total: 2000,
        elapsed_ms,
    }
}

#[test]
fn a_run_on_the_workspace_reads_then_scores_then_shows_its_advice() {
    let state = on_workspace(1);
    assert!(state.running() && !state.can_run_on_workspace());
    assert_eq!(
        (state.source(), state.asked()),
        (Source::Workspace, Some(7))
    );
    assert!(matches!(
        state.run(),
        Run::Running {
            stage: Stage::Reading,
            done: 0,
            total: Some(1000),
            ..
        }
    ));
    let state = advisor(state, host_progress(1, 400, 200));
    assert!(matches!(
        state.run(),
        Run::Running {
            stage: Stage::Reading,
            done: 400,
            ..
        }
    ));
    assert_eq!(state.estimate_ms(), Some(300));
    // Past half the job, it scores: its own stage, timed from its start.
    let state = advisor(state, host_progress(1, 1500, 1000));
    let state = advisor(state, host_progress(1, 1800, 1400));
    let Run::Running {
        stage,
        done,
        total,
        elapsed_ms,
    } = *state.run()
    else {
        panic!("not running: {:?}", state.run());
    };
    assert_eq!(
        (stage, done, total, elapsed_ms),
        (Stage::Scoring, 800, Some(1000), 400)
    );
    assert_eq!(state.estimate_ms(), Some(100));
    // Another run's progress is not this one's.
    assert_eq!(advisor(state.clone(), host_progress(2, 100, 5)), state);
    let answer = Rc::new(Ok(*an_advice()));
    let state = advisor(state, AdvisorAction::WorkspaceAdvice { run: 1, answer });
    let Run::Done(advice) = state.run() else {
        panic!("no advice: {:?}", state.run());
    };
    assert_eq!(advice.documents, 2200);
    assert_eq!((state.advised_run(), state.asked()), (Some(1), None));
    assert!(state.can_run_on_workspace());
    // The advisor's worker crashing does not take the host's advice away.
    let crash = AdvisorReply::Crashed(Crashed {
        message: "x".into(),
    });
    let state = advisor(state, AdvisorAction::Reply(crash));
    assert_eq!(state.advised_run(), Some(1));
    assert!(matches!(state.run(), Run::Done(_)));
}

#[test]
fn a_run_on_the_workspace_fails_when_refused_cancelled_or_its_host_stops() {
    let refused = Rc::new(Err(AdviceError::Workload("loads, line 1: no".into())));
    let state = advisor(
        on_workspace(1),
        AdvisorAction::WorkspaceAdvice {
            run: 1,
            answer: refused,
        },
    );
    assert_eq!(
        state.run(),
        &Run::Failed("The workspace's documents: loads, line 1: no.".into())
    );
    let cancelled = advisor(on_workspace(2), AdvisorAction::Cancel);
    assert!(matches!(cancelled.run(), Run::Failed(m) if m.contains("Cancelled")));
    assert_eq!(cancelled.asked(), None);
    let late = AdvisorAction::WorkspaceAdvice {
        run: 2,
        answer: Rc::new(Ok(*an_advice())),
    };
    assert_eq!(advisor(cancelled.clone(), late), cancelled);
    let stopped = advisor(on_workspace(3), AdvisorAction::HostStopped);
    assert!(matches!(stopped.run(), Run::Failed(m) if m.contains("host stopped")));
    // A run on the export goes on when the host stops.
    assert_eq!(advisor(started(1), AdvisorAction::HostStopped), started(1));
}

#[test]
fn the_studio_fails_a_run_on_the_workspace_when_its_host_crashes() {
    let state = reduce(
        State::default(),
        Action::Advisor(AdvisorAction::AskedWorkspace {
            run: 1,
            asked: 3,
            documents: 10,
        }),
    );
    assert!(state.advisor().running());
    let crashed = HostNews::Crashed {
        message: "out of memory".into(),
    };
    let state = reduce(state, Action::Host(crashed));
    assert!(matches!(state.advisor().run(), Run::Failed(m) if m.contains("host stopped")));
}
