//! The ID editor: a textarea with one document ID per line.

use ravenshard::MAX_ID_BYTES;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// Properties of [`IdEditor`].
#[derive(Properties, PartialEq)]
pub struct IdEditorProps {
    /// The editor's text.
    pub text: AttrValue,
    /// Called with the whole text on every keystroke.
    pub on_ids: Callback<String>,
    /// Called when the user asks for the sample IDs.
    pub on_sample: Callback<()>,
    /// Called when the user empties the editor.
    pub on_clear: Callback<()>,
}

/// A textarea of document IDs, one per line, with "Sample" and "Clear" buttons.
#[function_component(IdEditor)]
pub fn id_editor(props: &IdEditorProps) -> Html {
    let oninput = {
        let on_ids = props.on_ids.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target_dyn_into::<HtmlTextAreaElement>() {
                on_ids.emit(area.value());
            }
        })
    };
    let on_sample = props.on_sample.reform(|_: MouseEvent| ());
    let on_clear = props.on_clear.reform(|_: MouseEvent| ());
    html! {
        <section class="editor">
            <div class="editor-head">
                <label for="ids">{ "Document IDs" }</label>
                <span class="actions">
                    <button type="button" class="sample" onclick={on_sample}>{ "Sample" }</button>
                    <button type="button" class="clear" onclick={on_clear}>{ "Clear" }</button>
                </span>
            </div>
            <textarea
                id="ids"
                value={props.text.clone()}
                {oninput}
                spellcheck="false"
                autocomplete="off"
                autocapitalize="off"
                wrap="off"
                placeholder={"orders/1-A\ncustomers/1-A"}
                aria-describedby="ids-help"
            />
            <p id="ids-help" class="hint">
                { format!("One ID per line; blank lines are skipped. An ID may be up to {MAX_ID_BYTES} bytes.") }
            </p>
        </section>
    }
}
