//! The tab bar, and the view each tab shows ([`view`]: each view's folder says how it
//! draws its tab and what it says of bucket statistics).

use crate::state::{Tab, ViewAction};
use crate::views::state::State;
use crate::views::{view, Dispatch};
use yew::prelude::*;

/// Properties of [`TabBar`].
#[derive(Properties, PartialEq)]
pub struct TabBarProps {
    /// The tab shown.
    pub tab: Tab,
    /// Where a chosen tab goes.
    pub on_action: Callback<ViewAction>,
}

/// One button per view, in [`Tab::all`]'s order.
#[function_component(TabBar)]
pub fn tab_bar(props: &TabBarProps) -> Html {
    html! {
        <div class="tabs" role="tablist">
            { for Tab::all().map(|t| {
                let active = t == props.tab;
                html! {
                    <button type="button" role="tab"
                        id={format!("tab-{}", t.key())}
                        class={classes!("tab", active.then_some("active"))}
                        aria-selected={active.to_string()}
                        onclick={props.on_action.reform(move |_: MouseEvent| ViewAction::SelectTab(t))}>
                        { t.label() }
                    </button>
                }
            }) }
        </div>
    }
}

/// The view of `tab`, with its part of `state`, under a note when the workspace holds
/// bucket statistics ([`State::statistics_note`]).
pub fn tab_view(tab: Tab, state: &State, on: &Dispatch) -> Html {
    let note = state.statistics_note(tab);
    html! {
        <>
        if let Some(note) = note {
            <p class="statistics-note" role="note">{ note }</p>
        }
        { (view(tab).page)(state, on) }
        </>
    }
}
