//! The Readiness view: before a database is sharded, what of it breaks, changes or needs
//! changing (`ravenshard check`, [`ravenshard_check`]). The user pastes or drops the
//! database record, index definitions, queries and `LoadDocument` relations
//! ([`TextInput`]); the check runs in its worker ([`crate::workers::check`]) over the
//! studio's documents, with the configuration in force (shards, prefixes, nodes) as the
//! intended sharding; the findings are listed by severity with filters
//! ([`FindingsView`]), the data findings linked to the views that show them.

mod findings;
mod inputs;
pub mod state;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

pub use findings::{FindingsView, FindingsViewProps};
pub use inputs::{TextInput, TextInputProps};

use crate::jobs::check::{check, CheckNews};
use crate::state::{Tab, ViewAction};
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::{count, plural, ByPtr};
use crate::workers::{client, Channel, Check, CheckInputs};
use state::{Link, ReadinessAction, ReadinessState, Run, Text};
use std::cell::Cell;
use std::rc::Rc;
use yew::prelude::*;

/// The Readiness tab ([`Tab::Readiness`]).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::NeedsIds("the data checks"),
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    let topology = state.config().topology();
    let nodes: std::collections::BTreeSet<&String> = topology
        .shards()
        .flat_map(|s| topology.members(s.number))
        .collect();
    html! {
        <ReadinessView readiness={ByPtr(state.readiness().clone())}
            configuration={AttrValue::from(topology.to_json())} shards={topology.shards().len()}
            prefixes={topology.prefixes().len()} nodes={nodes.len()}
            documents={state.workspace().len() as u64}
            on_action={on.readiness.clone()} on_view={on.view.clone()} />
    }
}

/// Properties of [`ReadinessView`].
#[derive(Properties, PartialEq)]
pub struct ReadinessViewProps {
    /// The view's state.
    pub readiness: ByPtr<ReadinessState>,
    /// The configuration in force, as JSON (with its members): the intended sharding.
    pub configuration: AttrValue,
    /// Its shard count.
    pub shards: usize,
    /// Its prefixes.
    pub prefixes: usize,
    /// The nodes its shards are on.
    pub nodes: usize,
    /// The studio's documents, for the data checks.
    pub documents: u64,
    /// Where the view's actions (and the worker's replies) go.
    pub on_action: Callback<ReadinessAction>,
    /// Where a link to another view goes.
    pub on_view: Callback<ViewAction>,
}

/// Starts a check over `documents` documents under `configuration`: the documents are
/// sent to the worker first ([`check`]). Returns the flag that stops it.
fn run(
    readiness: &ReadinessState,
    configuration: &str,
    documents: u64,
    on: &Callback<ReadinessAction>,
) -> Option<Rc<Cell<bool>>> {
    let record = readiness.given(Text::Record)?;
    let run = readiness.next_run();
    on.emit(ReadinessAction::Started {
        run,
        total: documents,
    });
    let inputs = CheckInputs {
        run,
        record,
        indexes: readiness.given(Text::Indexes),
        queries: readiness.given(Text::Queries),
        loads: readiness.given(Text::Loads),
        configuration: configuration.to_string(),
        documents,
    };
    let news = CheckNews {
        sent: on.reform(move |sent| ReadinessAction::Sent { run, sent }),
        stopped: on.reform(move |message| ReadinessAction::Stopped { run, message }),
        replies: on.reform(ReadinessAction::Reply),
    };
    Some(check(inputs, news))
}

/// Follows a finding's link: the view that shows it.
fn follow(link: Link, on_view: &Callback<ViewAction>) {
    let tab = match link {
        Link::Documents(text) => {
            on_view.emit(ViewAction::SetFilterShard(None));
            on_view.emit(ViewAction::SetFilterGroup(None));
            on_view.emit(ViewAction::SetFilterText(text));
            Tab::Documents
        }
        Link::Groups => Tab::Groups,
        Link::Queries(_) => Tab::Queries,
        Link::Ranges => Tab::Ranges,
    };
    on_view.emit(ViewAction::SelectTab(tab));
}

/// What the check is run against, in words.
fn against(props: &ReadinessViewProps) -> String {
    let (shards, prefixes, nodes) = (
        props.shards as u64,
        props.prefixes as u64,
        props.nodes as u64,
    );
    let mut parts = vec![format!("{} shard{}", count(shards), plural(shards))];
    if prefixes > 0 {
        let es = if prefixes == 1 { "" } else { "es" };
        parts.push(format!("{} prefix{es}", count(prefixes)));
    }
    if nodes > 0 {
        parts.push(format!("on {} node{}", count(nodes), plural(nodes)));
    }
    format!(
        "Checked against the configuration in force ({}) and the studio's {} documents.",
        parts.join(", "),
        count(props.documents)
    )
}

fn progress(readiness: &ReadinessState) -> Html {
    match readiness.run() {
        Run::Running { sent, total } => html! {
            <div class="readiness-progress" role="status">
                <progress max={total.max(&1).to_string()} value={sent.to_string()}></progress>
                <span>{ format!("Sending the documents to the check: {} of {}", count(*sent), count(*total)) }</span>
            </div>
        },
        Run::Failed { input, message } if !Text::ALL.iter().any(|t| t.name() == input.as_str()) => {
            html! {
                <p class="error readiness-failed" role="alert">{ message }</p>
            }
        }
        _ => html! {},
    }
}

/// The Readiness view.
#[function_component(ReadinessView)]
pub fn readiness_view(props: &ReadinessViewProps) -> Html {
    let readiness = &props.readiness;
    let on = &props.on_action;
    let stop = use_mut_ref(|| None::<Rc<Cell<bool>>>);
    let on_run = {
        let (readiness, on, stop) = (readiness.clone(), on.clone(), stop.clone());
        let (configuration, documents) = (props.configuration.clone(), props.documents);
        Callback::from(move |_: MouseEvent| {
            *stop.borrow_mut() = run(&readiness, &configuration, documents, &on);
        })
    };
    let on_panic = {
        let replies = on.reform(ReadinessAction::Reply);
        Callback::from(move |_: MouseEvent| client::panic::<Check>(replies.clone()))
    };
    let on_cancel = {
        let (on, stop) = (on.clone(), stop.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(stop) = stop.borrow_mut().take() {
                stop.set(true);
            }
            client::stop(Channel::Check);
            on.emit(ReadinessAction::Cancel);
        })
    };
    let on_link = {
        let on_view = props.on_view.clone();
        Callback::from(move |link: Link| follow(link, &on_view))
    };
    let input = |text: Text| {
        html! {
            <TextInput {text} value={AttrValue::from(readiness.text(text).to_string())}
                problem={readiness.problem(text).map(|p| AttrValue::from(p.to_string()))}
                disabled={readiness.running()} on_action={on.clone()} />
        }
    };
    html! {
        <section class="view readiness" aria-label="Readiness">
            <p class="muted">{ "Before you shard: what of a database stops working, works differently or needs changing once it is sharded, from its record, indexes and queries and the studio's documents, by RavenDB's own rules (ravenshard check). It runs in the studio's worker." }</p>
            <div class="readiness-inputs">
                { for Text::ALL.into_iter().map(input) }
            </div>
            <div class="readiness-run-row">
                <button type="button" id="readiness-run" disabled={!readiness.can_run()} onclick={on_run}>{ "Check" }</button>
                if readiness.running() {
                    <button type="button" id="readiness-cancel" onclick={on_cancel}>{ "Cancel" }</button>
                }
                <button type="button" id="readiness-debug-panic" hidden=true onclick={on_panic}>{ "Make the worker panic" }</button>
                <span class="muted readiness-against">{ against(props) }</span>
            </div>
            { progress(readiness) }
            if let Some(crash) = readiness.crash() {
                <div class="error readiness-crash" role="alert">
                    { format!("The check's worker stopped: {crash}. The page and the workspace are unaffected; check again to start a new worker.") }
                    <button type="button" class="dismiss" onclick={on.reform(|_: MouseEvent| ReadinessAction::DismissCrash)}>{ "Dismiss" }</button>
                </div>
            }
            if readiness.report().is_some() {
                <FindingsView readiness={readiness.clone()} on_action={on.clone()} {on_link} />
            }
        </section>
    }
}
