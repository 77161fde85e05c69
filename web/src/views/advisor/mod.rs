//! The Advisor view: the workspace's documents with bodies (advised on by the host's
//! worker, where they are) or an export (file picker or drag and drop), a workload, a run
//! in a worker with progress and cancel, and the advice ([`AdviceView`]), the same for both.

mod advice;
pub mod state;

pub use advice::{candidate_label, AdviceView, AdviceViewProps};

use crate::views::reshard::duration;
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::{bytes, count, drag_handlers, on_value, ByPtr};
use crate::workers::host::{self, Answered};
use crate::workers::{
    client, AdviseRequest, Advisor, AdvisorReply, AdvisorRequest, Channel, Stage,
};
use ravenshard_advise::{Advice, Rewrite, Strategy};
use ravenshard_import::ACCEPT;
use ravenshard_model::host::question::{AdviceError, Advise, AnchorRewrites};
use state::{AdvisorAction, AdvisorState, ExportFile, Run, Source};
use web_sys::{DragEvent, FileList, HtmlInputElement};
use yew::prelude::*;

/// The Advisor tab ([`Tab::Advisor`](crate::state::Tab::Advisor)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::Unaffected,
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    let topology = state.config().topology();
    let summary = state.summary();
    html! {
        <AdvisorView advisor={ByPtr(state.advisor().clone())}
            configuration={AttrValue::from(topology.to_json())} shards={topology.shards().len()}
            documents={summary.documents} bodies={summary.bodies}
            on_action={on.advisor.clone()} on_apply_configuration={on.apply_configuration.clone()} />
    }
}

/// Properties of [`AdvisorView`].
#[derive(Properties, PartialEq)]
pub struct AdvisorViewProps {
    /// The view's state.
    pub advisor: ByPtr<AdvisorState>,
    /// The configuration in force, as JSON: the advisor scores under it.
    pub configuration: AttrValue,
    /// Its shard count.
    pub shards: usize,
    /// The workspace's documents.
    pub documents: usize,
    /// How many of them have a body: the view offers to advise on them when there are some.
    pub bodies: usize,
    /// Where the view's actions (and the worker's replies) go.
    pub on_action: Callback<AdvisorAction>,
    /// Applies a candidate's configuration: `(label, JSON)`.
    pub on_apply_configuration: Callback<(String, String)>,
}

/// The export chosen: the first file of a list, by a blob URL (the previous one revoked).
fn choose(files: Option<FileList>, previous: Option<&ExportFile>, on: &Callback<AdvisorAction>) {
    let Some(file) = files.and_then(|f| f.get(0)) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&file) else {
        return;
    };
    if let Some(previous) = previous {
        let _ = web_sys::Url::revoke_object_url(&previous.url);
    }
    on.emit(AdvisorAction::ChooseExport(ExportFile {
        name: file.name(),
        size: file.size() as u64,
        url,
    }));
}

/// What the run in progress is doing, in words: `(stage, amount)`.
fn stage_text(
    source: Source,
    stage: Stage,
    done: u64,
    total: Option<u64>,
) -> (&'static str, String) {
    let documents = || {
        format!(
            "{} of {} documents",
            count(done),
            total.map_or("?".into(), count)
        )
    };
    match (source, stage) {
        (Source::Export, Stage::Reading) => (
            "Reading the export",
            format!("{} of {}", bytes(done), total.map_or("?".into(), bytes)),
        ),
        (Source::Workspace, Stage::Reading) => ("Reading the workspace's documents", documents()),
        (_, Stage::Scoring) => ("Scoring the candidates", documents()),
    }
}

fn progress(advisor: &AdvisorState, on_cancel: Callback<MouseEvent>) -> Html {
    let Run::Running {
        stage, done, total, ..
    } = advisor.run()
    else {
        return html! {};
    };
    let (what, amount) = stage_text(advisor.source(), *stage, *done, *total);
    let left = advisor
        .estimate_ms()
        .map(|ms| format!(", about {} left", duration(ms as f64 / 1000.0)))
        .unwrap_or_default();
    let value = total.map(|t| (*done as f64 / t.max(1) as f64).to_string());
    html! {
        <div class="advisor-progress" role="status">
            <progress max="1" value={value}></progress>
            <span class="advisor-progress-text">{ format!("{what}: {amount}{left}") }</span>
            <button type="button" id="advisor-cancel" onclick={on_cancel}>{ "Cancel" }</button>
        </div>
    }
}

/// Starts a run on the export in the advisor's worker, under `configuration`.
fn run(
    advisor: &AdvisorState,
    configuration: &str,
    on: &Callback<AdvisorAction>,
    replies: &Callback<AdvisorReply>,
) {
    let Some(export) = advisor.export() else {
        return;
    };
    let run = advisor.next_run();
    on.emit(AdvisorAction::Started(run));
    let request = AdviseRequest {
        run,
        url: export.url.clone(),
        name: export.name.clone(),
        size: export.size,
        configuration: configuration.to_string(),
        queries: advisor.queries().to_string(),
        loads: advisor.loads().to_string(),
    };
    client::send::<Advisor>(AdvisorRequest::Advise(request), replies.clone());
}

/// Starts a run on the workspace's `documents`: one question to the host, which reads
/// them where they are, under the configuration in force.
fn run_on_workspace(advisor: &AdvisorState, documents: usize, on: &Callback<AdvisorAction>) {
    let run = advisor.next_run();
    let began = js_sys::Date::now();
    let question = Advise {
        queries: advisor.queries().to_string(),
        loads: advisor.loads().to_string(),
    };
    let on_answer =
        on.reform(
            move |a: Answered<Result<Advice, AdviceError>>| AdvisorAction::WorkspaceAdvice {
                run,
                answer: a.answer,
            },
        );
    let on_progress = on.reform(move |(done, total)| AdvisorAction::WorkspaceProgress {
        run,
        done,
        total,
        elapsed_ms: (js_sys::Date::now() - began).max(0.0) as u64,
    });
    let asked = host::ask_with_progress(question, on_answer, Some(on_progress));
    let documents = documents as u64;
    on.emit(AdvisorAction::AskedWorkspace {
        run,
        asked,
        documents,
    });
}

/// Asks for the rewrites of the anchor on `field` of `collection` (advised in `run`):
/// of the advisor's worker, which holds the export, or of the host, which holds the
/// workspace's documents; they come back as the worker's reply.
fn ask_rewrites(
    advisor: &AdvisorState,
    run: u64,
    (collection, field): (String, String),
    replies: &Callback<AdvisorReply>,
) {
    match advisor.source() {
        Source::Export => {
            let request = AdvisorRequest::Rewrites {
                run,
                collection,
                field,
            };
            client::send::<Advisor>(request, replies.clone());
        }
        Source::Workspace => {
            let question = AnchorRewrites {
                collection: collection.clone(),
                field: field.clone(),
            };
            let on_answer = replies.reform(move |a: Answered<Vec<Rewrite>>| {
                let rewrites = a.answer.iter().map(|r| (r.from.clone(), r.to.clone()));
                AdvisorReply::Rewrites {
                    run,
                    collection: collection.clone(),
                    field: field.clone(),
                    rewrites: rewrites.collect(),
                }
            });
            host::ask(question, on_answer);
        }
    }
}

/// Applies candidate `i` of collection `c`: an anchor asks for its rewrites (they come
/// back as a reply), a configuration goes to `on_config`.
fn apply(
    advisor: &AdvisorState,
    c: usize,
    i: usize,
    replies: &Callback<AdvisorReply>,
    on_config: &Callback<(String, String)>,
) {
    let Run::Done(advice) = advisor.run() else {
        return;
    };
    let Some(collection) = advice.collections.get(c) else {
        return;
    };
    let Some(candidate) = collection.candidates.get(i) else {
        return;
    };
    let label = candidate_label(candidate.strategy, candidate.field.as_deref());
    let label = format!("{label} ({})", collection.collection);
    match (
        candidate.strategy,
        &candidate.configuration,
        &candidate.field,
    ) {
        (Strategy::Anchor, _, Some(field)) => {
            if let Some(run) = advisor.advised_run() {
                let anchor = (collection.collection.clone(), field.clone());
                ask_rewrites(advisor, run, anchor, replies);
            }
        }
        (_, Some(configuration), _) => on_config.emit((label, configuration.to_string())),
        _ => {}
    }
}

/// The handlers of the export's file picker and drop zone: `(on_file, on_drop)`.
fn export_handlers(
    advisor: &AdvisorState,
    on: &Callback<AdvisorAction>,
    dragging: &UseStateHandle<bool>,
) -> (Callback<Event>, Callback<DragEvent>) {
    let on_file = {
        let (on, previous) = (on.clone(), advisor.export().cloned());
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                choose(input.files(), previous.as_ref(), &on);
                input.set_value("");
            }
        })
    };
    let on_drop = {
        let (on, previous, dragging) = (on.clone(), advisor.export().cloned(), dragging.clone());
        let running = advisor.running();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if running {
                return; // the run reads the file chosen: Cancel first
            }
            choose(
                e.data_transfer().and_then(|d| d.files()),
                previous.as_ref(),
                &on,
            );
        })
    };
    (on_file, on_drop)
}

/// The handlers of the run buttons: `(on_run, on_run_workspace, on_cancel)`.
fn run_handlers(
    props: &AdvisorViewProps,
    replies: &Callback<AdvisorReply>,
) -> (
    Callback<MouseEvent>,
    Callback<MouseEvent>,
    Callback<MouseEvent>,
) {
    let (advisor, on) = (&props.advisor, &props.on_action);
    let on_run = {
        let (advisor, on, replies) = (advisor.clone(), on.clone(), replies.clone());
        let configuration = props.configuration.clone();
        Callback::from(move |_: MouseEvent| run(&advisor, &configuration, &on, &replies))
    };
    let on_run_workspace = {
        let (advisor, on, documents) = (advisor.clone(), on.clone(), props.documents);
        Callback::from(move |_: MouseEvent| run_on_workspace(&advisor, documents, &on))
    };
    let on_cancel = {
        let (on, source, asked) = (on.clone(), advisor.source(), advisor.asked());
        Callback::from(move |_: MouseEvent| {
            match (source, asked) {
                (Source::Workspace, Some(asked)) => host::forget(asked),
                _ => client::stop(Channel::Advisor),
            }
            on.emit(AdvisorAction::Cancel);
        })
    };
    (on_run, on_run_workspace, on_cancel)
}

/// "Advise on the workspace's 1,000 documents with bodies".
fn workspace_label(bodies: usize) -> String {
    match bodies {
        1 => "Advise on the workspace's document with a body".into(),
        n => format!(
            "Advise on the workspace's {} documents with bodies",
            count(n as u64)
        ),
    }
}

/// The inputs: the workspace's documents (when some have bodies) or an export, the
/// workload, the run buttons.
fn inputs(
    props: &AdvisorViewProps,
    on_file: Callback<Event>,
    on_run: Callback<MouseEvent>,
    on_run_workspace: Callback<MouseEvent>,
) -> Html {
    let (advisor, on) = (&props.advisor, &props.on_action);
    let export = advisor.export();
    let on_panic = {
        let replies = on.reform(AdvisorAction::Reply);
        Callback::from(move |_: MouseEvent| client::panic::<Advisor>(replies.clone()))
    };
    let shards = format!(
        "{} shard{}",
        props.shards,
        if props.shards == 1 { "" } else { "s" }
    );
    html! {
        <div class="advisor-inputs">
            if props.bodies > 0 {
                <div class="advisor-workspace">
                    <button type="button" id="advisor-run-workspace" disabled={!advisor.can_run_on_workspace()}
                        title={format!("The host reads them where they are and scores each placement on {shards}")}
                        onclick={on_run_workspace}>{ workspace_label(props.bodies) }</button>
                    <span class="muted">{ " or an export:" }</span>
                </div>
            }
            <div class="advisor-export">
                <label class="import-button" title={format!("A RavenDB export, NDJSON or JSON ({ACCEPT})")}>
                    { "Choose export…" }
                    <input id="advisor-file" type="file" accept={ACCEPT} onchange={on_file} disabled={advisor.running()} />
                </label>
                <span class="advisor-file-name">{
                    export.map_or("or drop a file here".into(), |e| format!("{} ({})", e.name, bytes(e.size)))
                }</span>
            </div>
            <label>{ "Queries (RQL, one a line)" }
                <textarea id="advisor-queries" rows="3" placeholder="from Orders where Company = 'companies/1-A'"
                    value={advisor.queries().to_string()} oninput={on_value(on, AdvisorAction::SetQueries)} /></label>
            <label>{ "LoadDocument relations (Collection.Field, one a line)" }
                <textarea id="advisor-loads" rows="3" placeholder="Orders.Company"
                    value={advisor.loads().to_string()} oninput={on_value(on, AdvisorAction::SetLoads)} /></label>
            if let Some(problem) = advisor.workload_problem() {
                <p class="error advisor-workload-problem">{ problem }</p>
            }
            <div class="advisor-run-row">
                <button type="button" id="advisor-run" disabled={!advisor.can_run()} onclick={on_run}>
                    { format!("Advise on {shards}") }</button>
                <button type="button" id="advisor-debug-panic" hidden=true onclick={on_panic}>{ "Make the worker panic" }</button>
            </div>
        </div>
    }
}

/// The run's outcome: why it failed, or the advice.
fn outcome(advisor: &AdvisorState, on_apply: Callback<(usize, usize)>) -> Html {
    match advisor.run() {
        Run::Failed(message) => html! { <p class="error advisor-failed">{ message }</p> },
        Run::Done(advice) => html! {
            <AdviceView advice={ByPtr(advice.clone())} can_anchor={advisor.advised_run().is_some()} {on_apply} />
        },
        _ => html! {},
    }
}

/// The Advisor view.
#[function_component(AdvisorView)]
pub fn advisor_view(props: &AdvisorViewProps) -> Html {
    let (advisor, on) = (&props.advisor, &props.on_action);
    let dragging = use_state(|| false);
    let replies = on.reform(AdvisorAction::Reply);
    let (on_file, on_drop) = export_handlers(advisor, on, &dragging);
    let (on_drag_over, on_drag_leave) = drag_handlers(&dragging);
    let (on_run, on_run_workspace, on_cancel) = run_handlers(props, &replies);
    let on_apply = {
        let advisor = advisor.clone();
        let on_config = props.on_apply_configuration.clone();
        Callback::from(move |(c, i): (usize, usize)| apply(&advisor, c, i, &replies, &on_config))
    };
    html! {
        <section class={classes!("view", "advisor", dragging.then_some("dragging"))} aria-label="Advisor"
            ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
            <p class="muted">{ "How should each collection's IDs be shaped? The advisor reads the workspace's documents with bodies, or an export with bodies, finds the references between documents and scores each placement exactly, under the configuration in force. It runs in a worker (the workspace's host reads its documents where they are): the page stays responsive." }</p>
            { inputs(props, on_file, on_run, on_run_workspace) }
            { progress(advisor, on_cancel) }
            if let Some(crash) = advisor.crash() {
                <div class="error advisor-crash" role="alert">
                    { format!("The studio's worker stopped: {crash}. The page and the workspace are unaffected; run the advisor again to start a new worker.") }
                    <button type="button" class="dismiss" onclick={on.reform(|_: MouseEvent| AdvisorAction::DismissCrash)}>{ "Dismiss" }</button>
                </div>
            }
            { outcome(advisor, on_apply) }
        </section>
    }
}
