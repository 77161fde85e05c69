//! The configuration as JSON: edit, apply, copy, download, import.

use crate::components::{class_names, with_value};
use gloo::file::callbacks::FileReader;
use gloo::file::{Blob, File, ObjectUrl};
use ravenshard::Topology;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlAnchorElement, HtmlInputElement};
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

/// Writes `text` to the clipboard; `on_done(true)` once written, `on_done(false)` if the
/// browser has no clipboard or refuses.
fn copy_to_clipboard(text: &str, on_done: Callback<bool>) {
    let navigator = gloo::utils::window().navigator();
    let has_clipboard = web_sys::js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !has_clipboard {
        on_done.emit(false);
        return;
    }
    let promise = navigator.clipboard().write_text(text);
    let ok = {
        let on_done = on_done.clone();
        Closure::once(move |_: JsValue| on_done.emit(true))
    };
    let failed = Closure::once(move |_: JsValue| on_done.emit(false));
    let _ = promise.then2(&ok, &failed);
    // Each runs at most once; they are small and must outlive the promise.
    ok.forget();
    failed.forget();
}

/// Offers `text` as a download named [`DOWNLOAD_NAME`]. `false` if the page refused.
fn download(text: &str) -> bool {
    let blob = Blob::new_with_options(text, Some("application/json"));
    let url = ObjectUrl::from(blob);
    let document = gloo::utils::document();
    let Some(anchor) = document
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return false;
    };
    anchor.set_href(&url);
    anchor.set_download(DOWNLOAD_NAME);
    anchor.click();
    // Revoke the URL once the browser has started the download.
    gloo::timers::callback::Timeout::new(10_000, move || drop(url)).forget();
    true
}

/// A textarea with the configuration's JSON (pretty, as [`Topology::to_json`]): edit it and
/// "Apply" to emit the text (the App validates it and passes back any `error`, shown under
/// it); "Revert" restores the configuration in force; "Copy" and "Download" export it;
/// "Import" reads a `.json` file and emits its text.
#[function_component(ConfigJson)]
pub fn config_json(props: &ConfigJsonProps) -> Html {
    let text = use_state(|| props.topology.to_json());
    let status = use_state(|| None::<Status>);
    let reader = use_mut_ref(|| None::<FileReader>);

    {
        let text = text.clone();
        use_effect_with(props.topology.clone(), move |topology| {
            text.set(topology.to_json())
        });
    }

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
    let on_copy = {
        let text = text.clone();
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            let status = status.clone();
            copy_to_clipboard(
                &text,
                Callback::from(move |ok: bool| {
                    status.set(Some(if ok {
                        Status::Copied
                    } else {
                        Status::CopyFailed
                    }))
                }),
            );
        })
    };
    let on_download = {
        let text = text.clone();
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            status.set(Some(if download(&text) {
                Status::Downloaded
            } else {
                Status::Failed("The browser did not allow the download.".to_string())
            }));
        })
    };
    let on_import = {
        let text = text.clone();
        let status = status.clone();
        let on_apply = props.on_apply.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            let Some(file) = input.files().and_then(|files| files.get(0)) else {
                return;
            };
            // Clear the input so that importing the same file again fires `change`.
            input.set_value("");
            let file = File::from(file);
            let name = file.name();
            let text = text.clone();
            let status = status.clone();
            let on_apply = on_apply.clone();
            let task = gloo::file::callbacks::read_as_text(&file, move |result| match result {
                Ok(content) => {
                    text.set(content.clone());
                    status.set(Some(Status::Imported(name)));
                    on_apply.emit(content);
                }
                Err(e) => status.set(Some(Status::Failed(format!("Could not read {name}: {e}")))),
            });
            *reader.borrow_mut() = Some(task);
        })
    };

    let invalid = props.error.is_some();
    html! {
        <section class={class_names(&[Some("config-json"), invalid.then_some("invalid")])} aria-label="Configuration JSON">
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
