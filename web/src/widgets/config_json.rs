//! The configuration as JSON: edit, apply, copy, download, import.

use crate::jobs::browser::{copy_text, download};
use crate::widgets::with_value;
use ravenshard::Topology;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The name of a downloaded configuration.
pub const DOWNLOAD_NAME: &str = "sharding-configuration.json";

/// Properties of [`ConfigJson`].
#[derive(Properties, PartialEq)]
pub struct ConfigJsonProps {
    /// The topology in force; its JSON fills the editor (again whenever it changes).
    pub topology: Rc<Topology>,
    /// Why the last applied text was refused (the core's message, with the JSON path).
    #[prop_or_default]
    pub error: Option<AttrValue>,
    /// Called with the editor's text on "Apply", and with an imported file's text.
    pub on_apply: Callback<String>,
}

/// What the last copy, download or import did.
#[derive(Debug, Clone, PartialEq)]
enum Status {
    Copied,
    CopyFailed,
    Downloaded,
    Imported(String),
    Failed(String),
}

impl Status {
    fn text(&self) -> String {
        match self {
            Status::Copied => "Copied to the clipboard.".to_string(),
            Status::CopyFailed => {
                "The browser did not allow copying; select the text and copy it.".to_string()
            }
            Status::Downloaded => format!("Downloaded {DOWNLOAD_NAME}."),
            Status::Imported(name) => format!("Imported {name}."),
            Status::Failed(why) => why.clone(),
        }
    }
}

/// Why a file could not be read: what the browser's `DOMException` says, in the words of
/// the `FileReader` errors the studio reported before.
fn read_error(e: &JsValue) -> String {
    let (name, message) = match e.dyn_ref::<js_sys::Error>() {
        Some(error) => (String::from(error.name()), String::from(error.message())),
        None => (String::new(), e.as_string().unwrap_or_default()),
    };
    match name.as_str() {
        "NotFoundError" => format!("FileReader cannot find blob: {message}"),
        "SecurityError" => format!("FileReader encountered a security exception: {message}"),
        _ => format!("FileReader cannot read contents of blob: {message}"),
    }
}

/// A textarea with the configuration's JSON (pretty, as [`Topology::to_json`]): edit it and
/// "Apply" to emit the text (the App validates it and passes back any `error`, shown under
/// it); "Revert" restores the configuration in force; "Copy" and "Download" export it;
/// "Import" reads a `.json` file and emits its text.
#[function_component(ConfigJson)]
pub fn config_json(props: &ConfigJsonProps) -> Html {
    let text = use_text(&props.topology);
    let status = use_state(|| None::<Status>);
    let oninput = {
        let text = text.clone();
        with_value::<InputEvent>(move |value| text.set(value))
    };
    let on_apply = {
        let text = text.clone();
        let on_apply = props.on_apply.clone();
        Callback::from(move |_: MouseEvent| on_apply.emit((*text).clone()))
    };
    let on_revert = {
        let text = text.clone();
        let topology = props.topology.clone();
        Callback::from(move |_: MouseEvent| text.set(topology.to_json()))
    };
    let on_copy = copy_button(&text, &status);
    let on_download = download_button(&text, &status);
    let on_import = import_input(&text, &status, &props.on_apply);

    let invalid = props.error.is_some();
    html! {
        <section class={classes!("config-json", invalid.then_some("invalid"))} aria-label="Configuration JSON">
            <div class="config-json-head">
                <label for="config-json-text">{ "ShardingConfiguration" }</label>
                <span class="actions">
                    <button type="button" class="apply" onclick={on_apply}>{ "Apply" }</button>
                    <button type="button" class="revert" onclick={on_revert}>{ "Revert" }</button>
                    <button type="button" class="copy" onclick={on_copy}>{ "Copy" }</button>
                    <button type="button" class="download" onclick={on_download}>{ "Download" }</button>
                    <label class="import">
                        { "Import" }
                        <input type="file" class="import-file" accept=".json,application/json"
                            onchange={on_import} />
                    </label>
                </span>
            </div>
            <textarea
                id="config-json-text"
                class="config-json-text"
                value={(*text).clone()}
                {oninput}
                spellcheck="false"
                autocomplete="off"
                autocapitalize="off"
                wrap="off"
                rows="18"
                aria-invalid={invalid.to_string()}
                aria-describedby="config-json-error"
            />
            // Stable wrappers: a message appearing must not make yew rebuild the textarea.
            <div class="config-json-messages">
                if let Some(error) = &props.error {
                    <p id="config-json-error" class="editor-error" role="alert">{ error.clone() }</p>
                }
            </div>
            <div class="config-json-status-line">
                if let Some(status) = status.as_ref() {
                    <p class="config-json-status" role="status">{ status.text() }</p>
                }
            </div>
        </section>
    }
}

/// The editor's text: the JSON of `topology`, made again whenever `topology` changes.
#[hook]
fn use_text(topology: &Rc<Topology>) -> UseStateHandle<String> {
    let text = use_state(|| topology.to_json());
    {
        let text = text.clone();
        use_effect_with(topology.clone(), move |topology| {
            text.set(topology.to_json())
        });
    }
    text
}

/// "Copy": puts `text` on the clipboard and says in `status` whether the browser let it.
fn copy_button(
    text: &UseStateHandle<String>,
    status: &UseStateHandle<Option<Status>>,
) -> Callback<MouseEvent> {
    let (text, status) = (text.clone(), status.clone());
    Callback::from(move |_: MouseEvent| {
        let (text, status) = ((*text).clone(), status.clone());
        spawn_local(async move {
            status.set(Some(if copy_text(&text).await {
                Status::Copied
            } else {
                Status::CopyFailed
            }));
        });
    })
}

/// "Download": saves `text` as [`DOWNLOAD_NAME`] and says so in `status`.
fn download_button(
    text: &UseStateHandle<String>,
    status: &UseStateHandle<Option<Status>>,
) -> Callback<MouseEvent> {
    let (text, status) = (text.clone(), status.clone());
    Callback::from(move |_: MouseEvent| {
        status.set(Some(
            match download(DOWNLOAD_NAME, "application/json", &text) {
                Ok(()) => Status::Downloaded,
                Err(_) => Status::Failed("The browser did not allow the download.".to_string()),
            },
        ));
    })
}

/// "Import": reads the file chosen into `text` and emits it through `on_apply`, saying in
/// `status` what was imported or why the file could not be read.
fn import_input(
    text: &UseStateHandle<String>,
    status: &UseStateHandle<Option<Status>>,
    on_apply: &Callback<String>,
) -> Callback<Event> {
    let (text, status, on_apply) = (text.clone(), status.clone(), on_apply.clone());
    Callback::from(move |e: Event| {
        let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
            return;
        };
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        // Clear the input so that importing the same file again fires `change`.
        input.set_value("");
        let name = file.name();
        let (text, status, on_apply) = (text.clone(), status.clone(), on_apply.clone());
        spawn_local(async move {
            match JsFuture::from(file.text()).await {
                Ok(content) => {
                    let content = content.as_string().unwrap_or_default();
                    text.set(content.clone());
                    status.set(Some(Status::Imported(name)));
                    on_apply.emit(content);
                }
                Err(e) => status.set(Some(Status::Failed(format!(
                    "Could not read {name}: {}",
                    read_error(&e)
                )))),
            }
        });
    })
}
