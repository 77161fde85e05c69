//! The tab bar, and the view each tab shows. A new view is one component, its sub-state,
//! its [`Tab`] and one arm of [`tab_view`].

use super::Dispatch;
use crate::state::{DesignAction, Tab, ViewAction, MAX_TRANSACTION_IDS};
use crate::views::advisor::AdvisorView;
use crate::views::content::ContentView;
use crate::views::documents::DocumentsView;
use crate::views::explain::ExplainView;
use crate::views::groups::GroupsView;
use crate::views::map::MapView;
use crate::views::nodes::MatrixView;
use crate::views::queries::{LocalityView, QueriesView};
use crate::views::ranges::RangesView;
use crate::views::reshard::ReshardView;
use crate::views::shards::ShardsView;
use crate::views::state::State;
use crate::widgets::ByPtr;
use crate::workers::host::{self, Answered};
use ravenshard_model::host::{Answer, Question};
use ravenshard_model::workspace::RowQuery;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`TabBar`].
#[derive(Properties, PartialEq)]
pub struct TabBarProps {
    /// The tab shown.
    pub tab: Tab,
    /// Where a chosen tab goes.
    pub on_action: Callback<ViewAction>,
}

/// One button per view, in [`Tab::ALL`]'s order.
#[function_component(TabBar)]
pub fn tab_bar(props: &TabBarProps) -> Html {
    html! {
        <div class="tabs" role="tablist">
            { for Tab::ALL.iter().map(|&t| {
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
        { view_of(tab, state, on) }
        </>
    }
}

/// Checks a transaction over the first [`MAX_TRANSACTION_IDS`] documents the documents
/// view shows (its query's rows, asked of the workspace's host).
fn use_shown(query: &RowQuery, design: &Callback<DesignAction>) -> Callback<()> {
    let (query, design) = (query.clone(), design.clone());
    Callback::from(move |()| {
        let question = Question::Rows {
            query: query.clone(),
            from: 0,
            count: MAX_TRANSACTION_IDS as u64,
        };
        let design = design.clone();
        let on_answer = Callback::from(move |answered: Answered| {
            if let Answer::Rows { rows, .. } = &*answered.answer {
                let ids: String = rows.iter().map(|r| format!("{}\n", r.id)).collect();
                design.emit(DesignAction::SetTransactionIds(ids));
            }
        });
        host::ask(question, on_answer);
    })
}

fn view_of(tab: Tab, state: &State, on: &Dispatch) -> Html {
    let summary = Rc::clone(state.summary());
    let views = state.views();
    let topology = || ByPtr(state.config().topology().clone());
    match tab {
        Tab::Shards => html! {
            <ShardsView {summary} metric={views.metric()} on_action={on.view.clone()} />
        },
        Tab::Nodes => html! { <MatrixView {summary} /> },
        Tab::Map => html! {
            <MapView topology={topology()} version={state.changes()} selected_bucket={views.selected_bucket()}
                selected_group={views.selected_group()} on_action={on.view.clone()} />
        },
        Tab::Ranges => html! {
            <RangesView topology={topology()} problem={state.config().problem().cloned()}
                on_action={on.config.clone()} />
        },
        Tab::Groups => html! {
            <GroupsView {summary} version={state.changes()} selected={views.selected_group()} on_action={on.view.clone()} />
        },
        Tab::Documents => html! {
            <DocumentsView summary={Rc::clone(&summary)} version={state.changes()}
                query={views.query().clone()} on_action={on.view.clone()} />
        },
        Tab::Queries => html! {
            <>
            <QueriesView design={ByPtr(state.design().clone())} version={state.changes()} on_action={on.design.clone()} />
            <LocalityView design={ByPtr(state.design().clone())} on_action={on.design.clone()}
                on_use_shown={use_shown(views.query(), &on.design)} />
            </>
        },
        Tab::Content => html! {
            <ContentView topology={topology()} version={state.changes()}
                design_on={state.design().design().is_some()}
                on_config={on.config.clone()} on_view={on.view.clone()} />
        },
        Tab::Reshard => html! {
            <ReshardView reshard={ByPtr(state.reshard().clone())} on_action={on.reshard.clone()}
                on_use_target={on.use_reshard_target.clone()} on_view={on.view.clone()}
                on_error={on.error.clone()} />
        },
        Tab::Advisor => html! {
            <AdvisorView advisor={ByPtr(state.advisor().clone())}
                configuration={AttrValue::from(state.config().topology().to_json())}
                shards={state.config().topology().shards().len()}
                on_action={on.advisor.clone()} on_apply_configuration={on.apply_configuration.clone()} />
        },
        Tab::Explain => html! {
            <ExplainView id={AttrValue::from(views.explain_id().to_string())}
                explanation={views.explanation().cloned().map(ByPtr)} on_action={on.view.clone()} />
        },
    }
}
