//! The Advisor view: an export (file picker or drag and drop), a workload, a run in the
//! studio's worker with progress and cancel, and the advice ([`AdviceView`]).

mod advice;
pub mod state;

pub use advice::{candidate_label, AdviceView, AdviceViewProps};

use crate::views::reshard::duration;
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::{bytes, count, drag_handlers, on_value, ByPtr};
use crate::workers::{
    client, AdviseRequest, Advisor, AdvisorReply, AdvisorRequest, Channel, Stage,
};
use ravenshard_advise::Strategy;
use ravenshard_import::ACCEPT;
use state::{AdvisorAction, AdvisorState, ExportFile, Run};
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
    html! {
        <AdvisorView advisor={ByPtr(state.advisor().clone())}
            configuration={AttrValue::from(topology.to_json())} shards={topology.shards().len()}
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

fn progress(advisor: &AdvisorState, on_cancel: Callback<MouseEvent>) -> Html {
    let Run::Running {
        stage, done, total, ..
    } = advisor.run()
    else {
        return html! {};
    };
    let (what, amount) = match stage {
        Stage::Reading => (
            "Reading the export",
            format!("{} of {}", bytes(*done), total.map_or("?".into(), bytes)),
        ),
        Stage::Scoring => (
            "Scoring the candidates",
            format!(
                "{} of {} documents",
                count(*done),
                total.map_or("?".into(), count)
            ),
        ),
    };
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

/// Starts a run in the worker, under `configuration`.
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

/// Applies candidate `i` of collection `c`: an anchor asks the worker for its rewrites
/// (they come back as a reply), a configuration goes to `on_config`.
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
                let request = AdvisorRequest::Rewrites {
                    run,
                    collection: collection.collection.clone(),
                    field: field.clone(),
                };
                client::send::<Advisor>(request, replies.clone());
            }
        }
        (_, Some(configuration), _) => on_config.emit((label, configuration.to_string())),
        _ => {}
    }
}

/// The Advisor view.
#[function_component(AdvisorView)]
pub fn advisor_view(props: &AdvisorViewProps) -> Html {
    let advisor = &props.advisor;
    let on = &props.on_action;
    let dragging = use_state(|| false);
    let replies = on.reform(AdvisorAction::Reply);
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
    let (on_drag_over, on_drag_leave) = drag_handlers(&dragging);
    let on_run = {
        let (advisor, on, replies) = (advisor.clone(), on.clone(), replies.clone());
        let configuration = props.configuration.clone();
        Callback::from(move |_: MouseEvent| run(&advisor, &configuration, &on, &replies))
    };
    let on_cancel = {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| {
            client::stop(Channel::Advisor);
            on.emit(AdvisorAction::Cancel);
        })
    };
    let on_panic = {
        let replies = replies.clone();
        Callback::from(move |_: MouseEvent| client::panic::<Advisor>(replies.clone()))
    };
    let on_apply = {
        let advisor = advisor.clone();
        let (replies, on_config) = (replies.clone(), props.on_apply_configuration.clone());
        Callback::from(move |(c, i): (usize, usize)| apply(&advisor, c, i, &replies, &on_config))
    };
    let export = advisor.export();
    html! {
        <section class={classes!("view", "advisor", dragging.then_some("dragging"))} aria-label="Advisor"
            ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
            <p class="muted">{ "How should each collection's IDs be shaped? The advisor reads an export with bodies, finds the references between documents and scores each placement exactly, under the configuration in force. It runs in the studio's worker: the page stays responsive." }</p>
            <div class="advisor-inputs">
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
                        { format!("Advise on {} shard{}", props.shards, if props.shards == 1 { "" } else { "s" }) }</button>
                    <button type="button" id="advisor-debug-panic" hidden=true onclick={on_panic}>{ "Make the worker panic" }</button>
                </div>
            </div>
            { progress(advisor, on_cancel) }
            if let Some(crash) = advisor.crash() {
                <div class="error advisor-crash" role="alert">
                    { format!("The studio's worker stopped: {crash}. The page and the workspace are unaffected; run the advisor again to start a new worker.") }
                    <button type="button" class="dismiss" onclick={on.reform(|_: MouseEvent| AdvisorAction::DismissCrash)}>{ "Dismiss" }</button>
                </div>
            }
            { match advisor.run() {
                Run::Failed(message) => html! { <p class="error advisor-failed">{ message }</p> },
                Run::Done(advice) => html! {
                    <AdviceView advice={ByPtr(advice.clone())} can_anchor={advisor.advised_run().is_some()} {on_apply} />
                },
                _ => html! {},
            } }
        </section>
    }
}
