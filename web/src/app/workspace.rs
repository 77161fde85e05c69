//! The workspace panel: the documents editor, sample data and import.

use crate::jobs::bulk::{self, Job, CHUNKED_FROM};
use crate::jobs::import::{import_files, CancelToken};
use crate::state::{
    Loaded, Page, PageMove, PageWanted, Placer, WorkspaceAction, WorkspaceState, PAGE_LINES,
};
use crate::widgets::{count, drag_handlers, on_value, plural, ByPtr};
use crate::workers::host::{self, Answered};
use ravenshard_import::ACCEPT;
use ravenshard_model::host::question::Documents;
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::Document;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, FileList, HtmlInputElement};
use yew::prelude::*;

/// Properties of [`WorkspacePanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct WorkspacePanelProps {
    /// The documents, the editor's page, the generator and the import.
    pub workspace: ByPtr<WorkspaceState>,
    /// Cancels imports.
    pub token: CancelToken,
    /// Where changes go.
    pub on_action: Callback<WorkspaceAction>,
    /// The configuration large generations and imports are placed by as they are made.
    pub placer: Placer,
    /// Where the workspace such a job made goes.
    pub on_loaded: Callback<Rc<Loaded>>,
}

impl PartialEq for CancelToken {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Asks the workspace's host for the page the editor wants
/// ([`WorkspaceState::page_wanted`]) and hands it over ([`WorkspaceAction::PageLoaded`]).
#[hook]
fn use_page(wanted: Option<PageWanted>, on: &Callback<WorkspaceAction>) {
    let on = on.clone();
    use_effect_with(wanted, move |wanted| {
        let id = wanted.map(|PageWanted { token, start }| {
            let question = Documents {
                start: start as u64,
                end: (start + PAGE_LINES) as u64,
            };
            let on_answer = Callback::from(move |answered: Answered<Vec<Document>>| {
                let documents = answered.answer;
                on.emit(WorkspaceAction::PageLoaded {
                    token,
                    start,
                    documents,
                });
            });
            host::ask(question, on_answer)
        });
        move || {
            if let Some(id) = id {
                host::forget(id);
            }
        }
    });
}

/// Starts importing a list of files: the first one as documents, or all of them as
/// RavenDB bucket statistics ([`import_files`]).
fn import_first(files: Option<FileList>, props: &WorkspacePanelProps) {
    let Some(files) = files else {
        return;
    };
    let files: Vec<(String, web_sys::Blob)> = (0..files.length())
        .filter_map(|i| files.get(i))
        .map(|file| (file.name(), file.unchecked_into()))
        .collect();
    let chunked = (props.placer.clone(), props.on_loaded.clone());
    let (on, token) = (props.on_action.clone(), props.token.clone());
    wasm_bindgen_futures::spawn_local(import_files(files, on, token, chunked));
}

/// The generator's button: a large generation runs as a job ([`bulk::generate`]), a
/// smaller one in the reducer.
fn on_generate(props: &WorkspacePanelProps) -> Callback<MouseEvent> {
    let workspace = props.workspace.clone();
    let (placer, on_loaded) = (props.placer.clone(), props.on_loaded.clone());
    let (on, token) = (props.on_action.clone(), props.token.clone());
    Callback::from(move |_: MouseEvent| {
        let documents = *workspace.generated().value();
        if documents <= CHUNKED_FROM {
            return on.emit(WorkspaceAction::Generate);
        }
        let generator = Generator {
            documents,
            anchored_share: workspace.anchored_percent().value() / 100.0,
            seed: 1,
        };
        let job = Job::new(
            "Generating".into(),
            token.clone(),
            on.clone(),
            on_loaded.clone(),
        );
        wasm_bindgen_futures::spawn_local(bulk::generate(generator, placer.clone(), job));
    })
}

/// Documents: the editor (one `id<TAB>size<TAB>collection` per line), the chapter's
/// examples, a generator, and import by file picker or drag and drop.
#[function_component(WorkspacePanel)]
pub fn workspace_panel(props: &WorkspacePanelProps) -> Html {
    let on = &props.on_action;
    let workspace = &props.workspace;
    let documents = workspace.len();
    let dragging = use_state(|| false);
    use_page(workspace.page_wanted(), on);
    let emit = |action: WorkspaceAction| on.reform(move |_: MouseEvent| action.clone());
    let on_file = {
        let props = props.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                import_first(input.files(), &props);
                input.set_value("");
            }
        })
    };
    let on_drop = {
        let props = props.clone();
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            import_first(e.data_transfer().and_then(|d| d.files()), &props);
        })
    };
    let (on_drag_over, on_drag_leave) = drag_handlers(&dragging);
    html! {
        <section class={classes!("panel", "workspace", dragging.then_some("dragging"))} aria-label="Documents"
            ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
            <div class="panel-head">
                <h2><label for="ids">{ "Documents" }</label></h2>
                <span class="doc-count">{ match workspace.summary().statistics {
                    Some(s) => format!("bucket statistics: {} documents in {} range{}", count(s.documents), count(s.ranges), plural(s.ranges)),
                    None => format!("{} document{}", count(documents as u64), plural(documents as u64)),
                } }</span>
            </div>
            <div class="sample-row">
                <button type="button" class="sample" onclick={emit(WorkspaceAction::LoadChapterSample)}
                    title="The sharding chapter's orders, customers and users">{ "Chapter examples" }</button>
                <button type="button" class="clear" onclick={emit(WorkspaceAction::Clear)}>{ "Clear" }</button>
                <label class="import-button" title={format!("Text, CSV, JSON, NDJSON or a RavenDB export ({ACCEPT}); or saved bucket statistics of a cluster (debug/sharding/buckets answers, several at once)")}>
                    { "Import file…" }
                    <input id="import-file" type="file" accept={ACCEPT} multiple=true onchange={on_file} />
                </label>
            </div>
            { generator(workspace, on, on_generate(props)) }
            <JobProgress workspace={workspace.clone()} token={props.token.clone()} on_action={on.clone()} />
            if !workspace.page().is_whole(documents) {
                <Pager page={workspace.page().clone()} {documents} on_action={on.clone()} />
            }
            <textarea
                id="ids"
                value={workspace.page().text().clone()}
                oninput={on_value::<InputEvent, _>(on, WorkspaceAction::SetText)}
                spellcheck="false" autocomplete="off" autocapitalize="off" wrap="off"
                placeholder={"orders/1-A\ncustomers/1-A\t760\tCustomers"}
                aria-describedby="ids-help"
            />
            { for workspace.parse_notes().iter().map(|n| html! { <p class="field-error">{ n.clone() }</p> }) }
            <p id="ids-help" class="hint">
                { "One ID per line, optionally " }<code>{ "id⇥size⇥collection⇥body" }</code>
                { " (body: the document's JSON). Or drop a file here, or a cluster's saved bucket statistics (one or more " }<code>{ "debug/sharding/buckets" }</code>{ " answers)." }
            </p>
        </section>
    }
}

/// The generator's fields (document count, anchored share) and its button.
fn generator(
    workspace: &WorkspaceState,
    on: &Callback<WorkspaceAction>,
    on_generate: Callback<MouseEvent>,
) -> Html {
    let (generated, anchored) = (workspace.generated(), workspace.anchored_percent());
    let invalid = |valid: bool| classes!((!valid).then_some("invalid"));
    html! {
        <>
        <div class="generator">
            <label for="gen-count">{ "Generate" }</label>
            <input id="gen-count" type="number" min="1" step="1000" value={generated.text().clone()}
                class={invalid(generated.is_valid())} title="How many documents"
                oninput={on_value::<InputEvent, _>(on, WorkspaceAction::SetGeneratorCount)} />
            <label for="gen-share">{ "docs," }</label>
            // The share and its unit wrap as one, never the field apart from what it means.
            <span class="gen-share">
                <input id="gen-share" type="number" min="0" max="100" step="5" value={anchored.text().clone()}
                    class={invalid(anchored.is_valid())} title="Share of orders anchored to their company, in percent"
                    oninput={on_value::<InputEvent, _>(on, WorkspaceAction::SetGeneratorShare)} />
                <span title="Share of orders anchored to their company">{ "% anchored" }</span>
            </span>
            <button type="button" class="generate" onclick={on_generate}
                disabled={!generated.is_valid() || !anchored.is_valid()}>{ "Go" }</button>
        </div>
        { for [generated.error(), anchored.error()].into_iter().flatten().map(|error| html! {
            <p class="field-error" role="alert">{ error.clone() }</p>
        }) }
        </>
    }
}

/// Properties of [`JobProgress`].
#[derive(Properties, PartialEq)]
struct JobProgressProps {
    /// The workspace, with its job and import.
    workspace: ByPtr<WorkspaceState>,
    /// Cancels them.
    token: CancelToken,
    /// Where a cancel goes.
    on_action: Callback<WorkspaceAction>,
}

/// The progress of a generation, an import or another job on the workspace, each with its
/// Cancel, and why the last import failed.
#[function_component(JobProgress)]
fn job_progress(props: &JobProgressProps) -> Html {
    let (workspace, on) = (&props.workspace, &props.on_action);
    let on_cancel = {
        let on = on.clone();
        let token = props.token.clone();
        Callback::from(move |_: MouseEvent| {
            token.cancel();
            on.emit(WorkspaceAction::ImportCancelled);
        })
    };
    let on_cancel_work = {
        let on = on.clone();
        let token = props.token.clone();
        Callback::from(move |_: MouseEvent| {
            token.cancel();
            let why = "Cancelled; the workspace is unchanged.".to_string();
            on.emit(WorkspaceAction::WorkStopped(why));
        })
    };
    html! {
        <>
        if let Some(work) = workspace.work() {
            <div class="work-progress" role="status">
                <span class="work-text">{ work.text() }</span>
                <progress max="1" value={format!("{:.3}", work.fraction.unwrap_or(0.0))}></progress>
                <button type="button" class="cancel-work" onclick={on_cancel_work}>{ "Cancel" }</button>
            </div>
        }
        if let Some(status) = workspace.import() {
            <div class="import-progress" role="status">
                <span>{ format!("Reading {} — {} documents", status.name, count(status.documents as u64)) }</span>
                <progress max="1" value={format!("{:.3}", status.fraction.unwrap_or(0.0))}></progress>
                <button type="button" class="cancel-import" onclick={on_cancel}>{ "Cancel" }</button>
            </div>
        }
        if let Some(error) = workspace.import_error() {
            <p class="import-error" role="alert">{ error.to_string() }</p>
        }
        </>
    }
}

/// Properties of [`Pager`].
#[derive(Properties, PartialEq)]
struct PagerProps {
    page: Page,
    documents: usize,
    on_action: Callback<WorkspaceAction>,
}

/// Which documents the editor shows, and the way to the others.
#[function_component(Pager)]
fn pager(props: &PagerProps) -> Html {
    let page = &props.page;
    let go = |to: PageMove| {
        props
            .on_action
            .reform(move |_: MouseEvent| WorkspaceAction::MovePage(to))
    };
    let on_line = {
        let on = props.on_action.clone();
        Callback::from(move |e: Event| {
            if let Some(line) =
                crate::widgets::value_of(&e).and_then(|v| v.trim().parse::<usize>().ok())
            {
                on.emit(WorkspaceAction::MovePage(PageMove::Line(line)));
            }
        })
    };
    let shown = if page.is_empty() {
        "no lines".to_string()
    } else {
        format!(
            "lines {}–{}",
            count((page.start() + 1) as u64),
            count((page.start() + page.len()) as u64)
        )
    };
    html! {
        <div class="pager" role="navigation" aria-label="Editor pages"
            title={format!("The editor holds {PAGE_LINES} documents at a time, so that typing stays fast")}>
            <button type="button" class="page-previous" onclick={go(PageMove::Previous)}
                disabled={page.start() == 0}>{ "◀" }</button>
            <span class="page-shown">{ format!("{shown} of {}", count(props.documents as u64)) }</span>
            <button type="button" class="page-next" onclick={go(PageMove::Next)}
                disabled={page.start() + page.len() >= props.documents}>{ "▶" }</button>
            <label for="page-line">{ "Go to line" }</label>
            <input id="page-line" type="number" min="1" max={props.documents.to_string()}
                onchange={on_line} />
        </div>
    }
}
