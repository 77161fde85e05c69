//! The editors' error message: what the core said of an edit it refused, in a wrapper that
//! stays in the page so that a message appearing does not make yew rebuild what follows.

use yew::prelude::*;

/// Properties of [`EditorMessages`].
#[derive(Properties, PartialEq)]
pub struct EditorMessagesProps {
    /// The wrapper's class (`<editor>-messages`).
    pub class: AttrValue,
    /// The message shown, if there is one.
    #[prop_or_default]
    pub error: Option<AttrValue>,
    /// The message's element id, for an input's `aria-describedby`.
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// Called by the message's *Revert* button: given, the message says the edit is not
    /// applied and offers to revert it.
    #[prop_or_default]
    pub on_revert: Option<Callback<MouseEvent>>,
}

/// The wrapper of an editor's message, and the message when there is one: an
/// `editor-error` alert with the core's words, and with `on_revert`, a hint and a
/// *Revert* button.
#[function_component(EditorMessages)]
pub fn editor_messages(props: &EditorMessagesProps) -> Html {
    let message = props.error.as_ref().map(|error| {
        html! { <EditorError message={error.clone()} id={props.id.clone()} on_revert={props.on_revert.clone()} /> }
    });
    html! {
        <div class={props.class.clone()}>
            { for message }
        </div>
    }
}

/// Properties of [`EditorError`].
#[derive(Properties, PartialEq)]
pub struct EditorErrorProps {
    /// The core's message.
    pub message: AttrValue,
    /// The element's id.
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// Called by the *Revert* button, shown when given.
    #[prop_or_default]
    pub on_revert: Option<Callback<MouseEvent>>,
}

/// An edit the core refused: its message, and with `on_revert`, what to do and a button
/// to revert it.
#[function_component(EditorError)]
pub fn editor_error(props: &EditorErrorProps) -> Html {
    match &props.on_revert {
        None => html! {
            <p id={props.id.clone()} class="editor-error" role="alert">{ props.message.clone() }</p>
        },
        Some(on_revert) => html! {
            <div id={props.id.clone()} class="editor-error" role="alert">
                <p class="message">{ props.message.clone() }</p>
                <p class="hint">{ "Not applied. Fix the value or revert." }</p>
                <button type="button" class="revert" onclick={on_revert.clone()}>{ "Revert" }</button>
            </div>
        },
    }
}
