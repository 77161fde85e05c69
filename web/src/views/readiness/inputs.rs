//! One input of the Readiness view ([`TextInput`]): a text area to paste into, a file to
//! choose or drop (its text takes the area's place), and the check's message when it
//! refused the text, naming where. The text stays as given, however bad.

use super::state::{ReadinessAction, Text};
use crate::widgets::{drag_handlers, on_value};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DragEvent, FileList, HtmlInputElement};
use yew::prelude::*;

/// Properties of [`TextInput`].
#[derive(Properties, PartialEq)]
pub struct TextInputProps {
    /// Which input.
    pub text: Text,
    /// Its text.
    pub value: AttrValue,
    /// Why the last check refused it, if it did.
    pub problem: Option<AttrValue>,
    /// No change while a check runs.
    pub disabled: bool,
    /// Where the text goes.
    pub on_action: Callback<ReadinessAction>,
}

/// The label, placeholder and rows of an input.
fn shape(text: Text) -> (&'static str, &'static str, u32) {
    match text {
        Text::Record => (
            "Database record (JSON of GET /admin/databases?name=<db>)",
            r#"{"DatabaseName": "Shop", "Indexes": {...}, "PeriodicBackups": [...]}"#,
            8,
        ),
        Text::Indexes => (
            "Index definitions, optional (JSON of GET /databases/<db>/indexes)",
            r#"{"Results": [{"Name": "Orders/ByCompany", "Maps": ["from o in docs.Orders ..."]}]}"#,
            4,
        ),
        Text::Queries => (
            "Queries, optional (RQL, one a line; stream: or delete: before one says how it runs)",
            "from Orders where Company = 'companies/1-A'",
            4,
        ),
        Text::Loads => (
            "LoadDocument relations, optional (Collection.Field, one a line)",
            "Orders.Company",
            2,
        ),
    }
}

/// Reads the first file of `files` as text, into `text`.
fn read(files: Option<FileList>, text: Text, on: &Callback<ReadinessAction>) {
    let Some(file) = files.and_then(|f| f.get(0)) else {
        return;
    };
    let on = on.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let read = JsFuture::from(file.text()).await;
        let value = match read.ok().and_then(|v| v.as_string()) {
            Some(value) => value,
            None => format!("(the file {} could not be read as text)", file.name()),
        };
        on.emit(ReadinessAction::Set(text, value));
    });
}

/// One input: its text area, its file and its problem.
#[function_component(TextInput)]
pub fn text_input(props: &TextInputProps) -> Html {
    let (text, on) = (props.text, &props.on_action);
    let (label, placeholder, rows) = shape(text);
    let name = text.name();
    let dragging = use_state(|| false);
    let on_file = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                read(input.files(), text, &on);
                input.set_value("");
            }
        })
    };
    let on_drop = {
        let (on, dragging, disabled) = (on.clone(), dragging.clone(), props.disabled);
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if !disabled {
                read(e.data_transfer().and_then(|d| d.files()), text, &on);
            }
        })
    };
    let (on_drag_over, on_drag_leave) = drag_handlers(&dragging);
    html! {
        <div class={classes!("readiness-input", dragging.then_some("dragging"))}
            ondrop={on_drop} ondragover={on_drag_over} ondragleave={on_drag_leave}>
            <label for={format!("readiness-{name}")}>{ label }</label>
            <textarea id={format!("readiness-{name}")} rows={rows.to_string()} {placeholder} spellcheck="false"
                disabled={props.disabled} aria-invalid={props.problem.is_some().then_some("true")}
                value={props.value.clone()} oninput={on_value(on, move |v| ReadinessAction::Set(text, v))} />
            <label class="import-button readiness-file">{ "Choose file…" }
                <input id={format!("readiness-{name}-file")} type="file" onchange={on_file} disabled={props.disabled} />
            </label>
            <span class="muted">{ " or drop one here" }</span>
            if let Some(problem) = &props.problem {
                <p class="error readiness-problem" id={format!("readiness-{name}-problem")} role="alert">{ problem.clone() }</p>
            }
        </div>
    }
}
