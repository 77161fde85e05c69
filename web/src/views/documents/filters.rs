//! The strip above the documents table ([`Filters`]) and the progress of a sort or filter
//! the host makes a step at a time ([`RowsWorking`]).

use super::working_text;
use crate::state::ViewAction;
use crate::widgets::{count, on_value};
use ravenshard_model::workspace::{RowQuery, Summary};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`Filters`].
#[derive(Properties, PartialEq)]
pub struct FiltersProps {
    /// What the workspace holds: its documents and shards.
    pub summary: Rc<Summary>,
    /// The query.
    pub query: RowQuery,
    /// How many rows the rows shown say the query has.
    pub total: u64,
    /// The anchor of the group the query keeps, once the host named it.
    pub group_anchor: Option<String>,
    /// Where the filters go.
    pub on_action: Callback<ViewAction>,
}

/// The ID filter, the shard filter, the group kept (with a way to show every group) and
/// how many rows match.
#[function_component(Filters)]
pub fn filters(props: &FiltersProps) -> Html {
    let (summary, query, on) = (&props.summary, &props.query, &props.on_action);
    let on_shard = on_value::<Event, _>(on, |v| ViewAction::SetFilterShard(v.parse().ok()));
    html! {
        <div class="filters">
            <input id="filter" type="search" placeholder="Filter IDs…" value={query.text.clone()}
                oninput={on_value::<InputEvent, _>(on, ViewAction::SetFilterText)} aria-label="Filter IDs" />
            <select id="filter-shard" onchange={on_shard} aria-label="Shard">
                <option value="" selected={query.shard.is_none()}>{ "All shards" }</option>
                { for summary.shards.iter().take(1024).map(|s| html! {
                    <option value={s.shard.to_string()} selected={query.shard == Some(s.shard)}>{ s.fragment.clone() }</option>
                }) }
            </select>
            if let Some(g) = query.group {
                <span class="chip">
                    { format!("Group {}", props.group_anchor.clone().unwrap_or_else(|| (g + 1).to_string())) }
                    <button type="button" class="clear-group" aria-label="Show every group"
                        onclick={on.reform(|_: MouseEvent| ViewAction::SetFilterGroup(None))}>{ "×" }</button>
                </span>
            }
            <span class="row-count">{ format!("{} of {}", count(props.total), count(summary.documents as u64)) }</span>
        </div>
    }
}

/// Properties of [`RowsWorking`].
#[derive(Properties, PartialEq)]
pub struct RowsWorkingProps {
    /// The query the host is making the rows of.
    pub query: RowQuery,
    /// The documents of the workspace.
    pub documents: usize,
    /// The job's progress, `(done, total)`.
    pub progress: (u64, u64),
    /// The query of the rows shown, which Cancel goes back to.
    pub back: RowQuery,
    /// Where Cancel goes.
    pub on_action: Callback<ViewAction>,
}

/// What the rows job does ("Sorting 1,000,000 documents by ID… 40%"), with a Cancel.
#[function_component(RowsWorking)]
pub fn rows_working(props: &RowsWorkingProps) -> Html {
    let on_cancel = props.on_action.reform({
        let back = props.back.clone();
        move |_: MouseEvent| ViewAction::CancelRows(back.clone())
    });
    html! {
        <p class="rows-working" role="status">
            { working_text(&props.query, props.documents, Some(props.progress)) }
            <button type="button" class="rows-cancel" onclick={on_cancel}>{ "Cancel" }</button>
        </p>
    }
}
