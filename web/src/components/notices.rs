//! Dismissible messages at the top of the studio.

use super::class_names;
use crate::state::{Action, Level, Notice};
use yew::prelude::*;

/// Properties of [`Notices`].
#[derive(Properties, PartialEq)]
pub struct NoticesProps {
    /// The notices, oldest first.
    pub notices: Vec<Notice>,
    /// Where dismissals go.
    pub on_action: Callback<Action>,
}

/// One banner per notice, each with a Dismiss button.
#[function_component(Notices)]
pub fn notices(props: &NoticesProps) -> Html {
    if props.notices.is_empty() {
        return html! {};
    }
    html! {
        <div class="notices" role="status">
            { for props.notices.iter().enumerate().map(|(i, notice)| {
                let level = match notice.level {
                    Level::Info => "info",
                    Level::Warning => "warning",
                    Level::Error => "error",
                };
                let on_action = props.on_action.clone();
                html! {
                    <div class={class_names(&[Some("notice"), Some(level)])}>
                        <span class="notice-text">{ notice.text.clone() }</span>
                        <button type="button" class="dismiss" aria-label="Dismiss"
                            onclick={Callback::from(move |_: MouseEvent| on_action.emit(Action::DismissNotice(i)))}>
                            { "×" }
                        </button>
                    </div>
                }
            }) }
        </div>
    }
}
