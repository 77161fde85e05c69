//! Dismissible messages at the top of the studio.

use crate::state::{Level, NoticeAction, NoticesState};
use crate::widgets::ByPtr;
use yew::prelude::*;

/// Properties of [`Notices`].
#[derive(Properties, PartialEq)]
pub struct NoticesProps {
    /// The notices, oldest first.
    pub notices: ByPtr<NoticesState>,
    /// Where dismissals go.
    pub on_action: Callback<NoticeAction>,
}

/// One banner per notice, each with a Dismiss button.
#[function_component(Notices)]
pub fn notices(props: &NoticesProps) -> Html {
    if props.notices.list().is_empty() {
        return html! {};
    }
    html! {
        <div class="notices" role="status">
            { for props.notices.list().iter().enumerate().map(|(i, notice)| {
                let level = match notice.level {
                    Level::Info => "info",
                    Level::Warning => "warning",
                    Level::Error => "error",
                };
                html! {
                    <div class={classes!("notice", level)}>
                        <span class="notice-text">{ notice.text.clone() }</span>
                        <button type="button" class="dismiss" aria-label="Dismiss"
                            onclick={props.on_action.reform(move |_: MouseEvent| NoticeAction::Dismiss(i))}>
                            { "×" }
                        </button>
                    </div>
                }
            }) }
        </div>
    }
}
