//! The tab bar, and the view each tab shows ([`view`]: each view's folder says how it
//! draws its tab and what it says of bucket statistics). The bar is one row: the groups of
//! views ([`Group`]: a click shows the group's first view), then the tabs of the shown
//! view's group, as the WAI-ARIA tabs pattern has them: a `tablist` of `tab`s (every view's,
//! the other groups' hidden), the one shown selected and the only one in the page's tab
//! order (the arrow keys, Home and End move between them across the groups:
//! [`Tab::moved_by_key`]), and the view a `tabpanel` labelled by its tab.

use crate::state::tab::Group;
use crate::state::{Tab, ViewAction};
use crate::views::state::State;
use crate::views::{view, Dispatch};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The id of the element that shows the view of the selected tab.
pub const PANEL_ID: &str = "view-panel";

/// The id of the tab list.
pub const TABLIST_ID: &str = "view-tabs";

/// The id of a tab's button.
fn tab_id(tab: Tab) -> String {
    format!("tab-{}", tab.key())
}

/// Properties of [`TabBar`].
#[derive(Properties, PartialEq)]
pub struct TabBarProps {
    /// The tab shown.
    pub tab: Tab,
    /// Where a chosen tab goes.
    pub on_action: Callback<ViewAction>,
}

/// The groups, then one button per view, in [`Tab::all`]'s order. A key that moves to
/// another tab shows it and, once drawn (it may be in another group), focuses its button
/// (the pattern's automatic activation: a view shows at once).
#[function_component(TabBar)]
pub fn tab_bar(props: &TabBarProps) -> Html {
    let focus = use_mut_ref(|| false);
    {
        let focus = focus.clone();
        use_effect_with(props.tab, move |&tab| {
            if std::mem::take(&mut *focus.borrow_mut()) {
                let button = gloo::utils::document().get_element_by_id(&tab_id(tab));
                if let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = button.focus();
                }
            }
        });
    }
    let onkeydown = {
        let (tab, on_action) = (props.tab, props.on_action.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some(to) = tab.moved_by_key(&e.key()) else {
                return;
            };
            e.prevent_default();
            *focus.borrow_mut() = true;
            on_action.emit(ViewAction::SelectTab(to));
        })
    };
    let group = props.tab.group();
    html! {
        <div class="tab-bar">
            { groups(group, &props.on_action) }
            <div class="tabs" role="tablist" id={TABLIST_ID} aria-label={format!("{} views", group.label())} {onkeydown}>
                { for Tab::all().map(|t| {
                    let active = t == props.tab;
                    html! {
                        <button type="button" role="tab" id={tab_id(t)}
                            class={classes!("tab", active.then_some("active"))}
                            hidden={t.group() != group}
                            aria-selected={active.to_string()} aria-controls={PANEL_ID}
                            tabindex={if active { "0" } else { "-1" }}
                            onclick={props.on_action.reform(move |_: MouseEvent| ViewAction::SelectTab(t))}>
                            { t.label() }
                        </button>
                    }
                }) }
            </div>
        </div>
    }
}

/// The groups of views, the shown view's marked current; a click shows a group's first
/// view.
fn groups(shown: Group, on_action: &Callback<ViewAction>) -> Html {
    html! {
        <div class="tab-groups" role="group" aria-label="Groups of views">
            { for Group::all().map(|g| {
                let current = g == shown;
                html! {
                    <button type="button" id={format!("group-{}", g.key())}
                        class={classes!("tab-group", current.then_some("current"))}
                        aria-current={current.then_some("true")} aria-controls={TABLIST_ID}
                        title={g.tabs().map(Tab::label).collect::<Vec<_>>().join(", ")}
                        onclick={on_action.reform(move |_: MouseEvent| ViewAction::SelectTab(g.first()))}>
                        { g.label() }
                    </button>
                }
            }) }
        </div>
    }
}

/// The view of `tab`, with its part of `state`, in the tab panel, under a note when the
/// workspace holds bucket statistics ([`State::statistics_note`]).
pub fn tab_view(tab: Tab, state: &State, on: &Dispatch) -> Html {
    let note = state.statistics_note(tab);
    html! {
        <div id={PANEL_ID} class={classes!("view", format!("view-{}", tab.key()))}
            role="tabpanel" aria-labelledby={tab_id(tab)} tabindex="0">
            if let Some(note) = note {
                <p class="statistics-note" role="note">{ note }</p>
            }
            { (view(tab).page)(state, on) }
        </div>
    }
}
