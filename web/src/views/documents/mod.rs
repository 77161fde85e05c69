//! The documents view: the rows of the query, made by the workspace's host and
//! virtualised: only the rows in sight are asked for and in the DOM, so millions of
//! documents scroll smoothly. A sort or a filter of a large workspace is made by the host
//! a step at a time: its progress shows, with a Cancel, over the rows shown before.

mod filters;
mod table;

use crate::state::ViewAction;
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::answer::{use_answer, Asked};
use crate::widgets::count;
use crate::workers::host::Answered;
use filters::{Filters, RowsWorking};
use ravenshard_model::host::question::{Groups, Page, RowData, Rows};
use ravenshard_model::workspace::{RowQuery, SortKey, Summary};
use std::rc::Rc;
use table::{row, TableHead};
use yew::prelude::*;

/// The height of a row, in CSS pixels (the style sheet uses the same).
pub const ROW_HEIGHT: f64 = 28.0;

/// Rows rendered at once: enough for a tall window, plus a margin above and below.
const WINDOW_ROWS: u64 = 48;
const OVERSCAN: u64 = 8;

/// The Documents tab ([`Tab::Documents`](crate::state::Tab::Documents)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::NeedsIds("the documents table"),
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    html! {
        <DocumentsView summary={Rc::clone(state.summary())} version={state.changes()}
            query={state.views().query().clone()} on_action={on.view.clone()} />
    }
}

/// Properties of [`DocumentsView`].
#[derive(Properties, PartialEq)]
pub struct DocumentsViewProps {
    /// What the workspace holds: its documents and shards.
    pub summary: Rc<Summary>,
    /// The number of the workspace's last change ([`State::changes`](crate::views::state::State::changes)) (the rows in sight are asked again when it
    /// changes).
    pub version: u64,
    /// The query.
    pub query: RowQuery,
    /// Where filters, sorting and selections go.
    pub on_action: Callback<ViewAction>,
}

/// The rows an answer holds: the query and first row they are of, how many rows the
/// query has, and the rows.
struct Shown<'a> {
    query: Option<&'a RowQuery>,
    from: u64,
    total: u64,
    rows: &'a [RowData],
}

fn shown(last: Option<&(Rows, Answered<Page<RowData>>)>) -> Shown<'_> {
    match last {
        Some((asked, answered)) => Shown {
            query: Some(&asked.query),
            from: asked.from,
            total: answered.answer.total,
            rows: &answered.answer.items,
        },
        None => Shown {
            query: None,
            from: 0,
            total: 0,
            rows: &[],
        },
    }
}

/// Filters, a sortable header and the visible slice of the rows.
#[function_component(DocumentsView)]
pub fn documents_view(props: &DocumentsViewProps) -> Html {
    let summary = &props.summary;
    let on = &props.on_action;
    let (top, on_scroll) = use_scroll_row();
    let asked = use_rows(top, &props.query, props.version);
    let group = props.query.group.map(|from| Groups { from, count: 1 });
    let group = use_answer(group, props.version);
    let shown = shown(asked.last.as_ref());
    // The host's version the rows shown are of (what a measure of an edit waits for).
    let shown_version = asked.last.as_ref().map_or(0, |(_, a)| a.version);
    // The rows shown are of another query while the host makes this one's.
    let working = shown.query != Some(&props.query);
    let total = shown.total;
    let group_anchor = group.answer().and_then(|ranked| ranked.groups.first());
    let group_anchor = group_anchor.map(|g| g.anchor.clone());
    html! {
        <div class="documents-view" data-rows={if working { "working" } else { "ready" }}
            data-version={shown_version.to_string()}>
            <Filters summary={Rc::clone(summary)} query={props.query.clone()} {total}
                {group_anchor} on_action={on.clone()} />
            if let (true, Some(progress)) = (working, asked.progress) {
                <RowsWorking query={props.query.clone()} documents={summary.documents}
                    {progress} back={shown.query.cloned().unwrap_or_default()} on_action={on.clone()} />
            }
            <div class="dt-table" role="table" aria-label="Documents" aria-rowcount={(total + 1).to_string()}>
            <TableHead query={props.query.clone()} on_action={on.clone()} />
            <div class={classes!("dt-body", working.then_some("stale"))} onscroll={on_scroll} role="rowgroup">
                <div class="dt-spacer" style={format!("height: {:.0}px", total as f64 * ROW_HEIGHT)}>
                    <div class="dt-rows" style={format!("transform: translateY({:.0}px)", shown.from as f64 * ROW_HEIGHT)}>
                        { for shown.rows.iter().map(|r| row(r, summary, on)) }
                    </div>
                </div>
            </div>
            </div>
            if summary.documents == 0 {
                <p class="empty">{ "Type or paste document IDs on the left, one per line, or import a file." }</p>
            }
        </div>
    }
}

/// The first row in sight, from the table body's scroll position, and the body's `scroll`
/// handler that follows it.
#[hook]
fn use_scroll_row() -> (u64, Callback<Event>) {
    let top = use_state(|| 0u64);
    let on_scroll = {
        let top = top.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                let row = (f64::from(el.scroll_top()) / ROW_HEIGHT).max(0.0) as u64;
                if row != *top {
                    top.set(row);
                }
            }
        })
    };
    (*top, on_scroll)
}

/// The rows of `query` in sight from row `top`, asked of the host again at each `version`.
/// The window is placed by the number of rows the last answer gave (a scroll position past
/// the rows, the filter having just removed most of them, shows the last window until the
/// browser's own scroll event catches up).
#[hook]
fn use_rows(top: u64, query: &RowQuery, version: u64) -> Asked<Rows> {
    let total_seen = use_state(|| 0u64);
    let seen = *total_seen;
    let window = WINDOW_ROWS + 2 * OVERSCAN;
    let start = top
        .saturating_sub(OVERSCAN)
        .min(seen.saturating_sub(window));
    let question = Rows {
        query: query.clone(),
        from: start,
        count: window,
    };
    let asked = use_answer(Some(question), version);
    let total = asked.last.as_ref().map_or(0, |(_, a)| a.answer.total);
    {
        // A new number of rows (a filter) moves the window: asked again from there.
        let total_seen = total_seen.clone();
        use_effect_with(total, move |total| total_seen.set(*total));
    }
    asked
}

/// What the rows job does, for `documents` documents: "Sorting 1,000,000 documents by ID…
/// 40%" or "Filtering …".
fn working_text(query: &RowQuery, documents: usize, progress: Option<(u64, u64)>) -> String {
    let filtered = !query.text.is_empty() || query.shard.is_some() || query.group.is_some();
    let what = if filtered { "Filtering" } else { "Sorting" };
    let by = match query.sort {
        SortKey::Index => "",
        SortKey::Id => " by ID",
        SortKey::Bucket => " by bucket",
        SortKey::Shard => " by shard",
        SortKey::Size => " by size",
        SortKey::Collection => " by collection",
    };
    let by = if filtered { "" } else { by };
    let share = progress
        .filter(|&(_, total)| total > 0)
        .map(|(done, total)| format!(" {:.0}%", 100.0 * done as f64 / total as f64))
        .unwrap_or_default();
    format!("{what} {} documents{by}…{share} ", count(documents as u64))
}
