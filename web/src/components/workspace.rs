//! The workspace panel: the documents editor, sample data and import.

use super::import::{import_blob, CancelToken};
use super::{class_names, count, on_value, plural};
use crate::state::{Action, ImportStatus, Page, PageMove, PAGE_LINES};
use ravenshard_model::import::ACCEPT;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, FileList, HtmlInputElement};
use yew::prelude::*;

/// Properties of [`WorkspacePanel`].
#[derive(Properties, PartialEq)]
pub struct WorkspacePanelProps {
    /// The page of the workspace the editor shows.
    pub page: Page,
    /// How many documents the workspace holds.
    pub documents: usize,
    /// Problems reading it.
    pub parse_notes: Vec<String>,
    /// The generator's count field.
    pub generator_count: AttrValue,
    /// The generator's anchored share field.
    pub generator_share: AttrValue,
    /// Why the generator cannot run.
    pub generator_error: Option<AttrValue>,
    /// The import in progress.
    pub import: Option<ImportStatus>,
    /// Why the last import failed.
    pub import_error: Option<AttrValue>,
    /// Cancels imports.
    pub token: CancelToken,
    /// Where changes go.
    pub on_action: Callback<Action>,
}

impl PartialEq for CancelToken {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Starts importing the first file of a list.
fn import_first(files: Option<FileList>, on_action: &Callback<Action>, token: &CancelToken) {
    if let Some(file) = files.and_then(|f| f.get(0)) {
        let name = file.name();
        let blob: web_sys::Blob = file.unchecked_into();
        wasm_bindgen_futures::spawn_local(import_blob(
            blob,
            name,
            on_action.clone(),
            token.clone(),
        ));
    }
}

/// Documents: the editor (one `id<TAB>size<TAB>collection` per line), the chapter's
/// examples, a generator, and import by file picker or drag and drop.
#[function_component(WorkspacePanel)]
pub fn workspace_panel(props: &WorkspacePanelProps) -> Html {
    let on = &props.on_action;
    let dragging = use_state(|| false);
    let emit = |action: Action| {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| on.emit(action.clone()))
    };
    let on_file = {
        let on = on.clone();
        let token = props.token.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                import_first(input.files(), &on, &token);
                input.set_value("");
            }
        })
    };
    let on_drop = {
        let on = on.clone();
        let token = props.token.clone();
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            import_first(e.data_transfer().and_then(|d| d.files()), &on, &token);
        })
    };
    let on_drag_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let on_drag_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let on_cancel = {
        let on = on.clone();
        let token = props.token.clone();
        Callback::from(move |_: MouseEvent| {
            token.cancel();
            on.emit(Action::ImportCancelled);
        })
    };
    html! {
        <section class={class_names(&[Some("panel workspace"), dragging.then_some("dragging")])} aria-label="Documents"
            ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
            <div class="panel-head">
                <h2><label for="ids">{ "Documents" }</label></h2>
                <span class="doc-count">{ format!("{} document{}", count(props.documents as u64), plural(props.documents as u64)) }</span>
            </div>
            <div class="sample-row">
                <button type="button" class="sample" onclick={emit(Action::LoadChapterSample)}
                    title="The sharding chapter's orders, customers and users">{ "Chapter examples" }</button>
                <button type="button" class="clear" onclick={emit(Action::ClearIds)}>{ "Clear" }</button>
                <label class="import-button" title={format!("Text, CSV, JSON, NDJSON or a RavenDB export ({ACCEPT})")}>
                    { "Import file…" }
                    <input id="import-file" type="file" accept={ACCEPT} onchange={on_file} />
                </label>
            </div>
            <div class="generator">
                <label for="gen-count">{ "Generate" }</label>
                <input id="gen-count" type="number" min="1" step="1000" value={props.generator_count.clone()}
                    oninput={on_value::<InputEvent>(on, Action::SetGeneratorCount)} title="How many documents" />
                <label for="gen-share">{ "docs," }</label>
                <input id="gen-share" type="number" min="0" max="100" step="5" value={props.generator_share.clone()}
                    oninput={on_value::<InputEvent>(on, Action::SetGeneratorShare)} title="Share of orders anchored to their company, in percent" />
                <span title="Share of orders anchored to their company">{ "% anchored" }</span>
                <button type="button" class="generate" onclick={emit(Action::Generate)}
                    disabled={props.generator_error.is_some()}>{ "Go" }</button>
            </div>
            if let Some(error) = &props.generator_error {
                <p class="field-error" role="alert">{ error.clone() }</p>
            }
            if let Some(status) = &props.import {
                <div class="import-progress" role="status">
                    <span>{ format!("Reading {} — {} documents", status.name, count(status.documents as u64)) }</span>
                    <progress max="1" value={format!("{:.3}", status.fraction.unwrap_or(0.0))}></progress>
                    <button type="button" class="cancel-import" onclick={on_cancel}>{ "Cancel" }</button>
                </div>
            }
            if let Some(error) = &props.import_error {
                <p class="import-error" role="alert">{ error.clone() }</p>
            }
            if !props.page.is_whole(props.documents) {
                <Pager page={props.page.clone()} documents={props.documents} on_action={on.clone()} />
            }
            <textarea
                id="ids"
                value={props.page.text().clone()}
                oninput={on_value::<InputEvent>(on, Action::SetIds)}
                spellcheck="false" autocomplete="off" autocapitalize="off" wrap="off"
                placeholder={"orders/1-A\ncustomers/1-A\t760\tCustomers"}
                aria-describedby="ids-help"
            />
            { for props.parse_notes.iter().map(|n| html! { <p class="field-error">{ n.clone() }</p> }) }
            <p id="ids-help" class="hint">
                { "One ID per line, optionally " }<code>{ "id⇥size⇥collection⇥body" }</code>
                { " (body: the document's JSON). Or drop a file here." }
            </p>
        </section>
    }
}

/// Properties of [`Pager`].
#[derive(Properties, PartialEq)]
struct PagerProps {
    page: Page,
    documents: usize,
    on_action: Callback<Action>,
}

/// Which documents the editor shows, and the way to the others.
#[function_component(Pager)]
fn pager(props: &PagerProps) -> Html {
    let page = &props.page;
    let go = |to: PageMove| {
        let on = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on.emit(Action::MovePage(to)))
    };
    let on_line = {
        let on = props.on_action.clone();
        Callback::from(move |e: Event| {
            if let Some(line) = super::value_of(&e).and_then(|v| v.trim().parse::<usize>().ok()) {
                on.emit(Action::MovePage(PageMove::Line(line)));
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
