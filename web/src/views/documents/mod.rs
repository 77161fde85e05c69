//! The documents view: the rows of the query, made by the workspace's host and
//! virtualised: only the rows in sight are asked for and in the DOM, so millions of
//! documents scroll smoothly. A sort or a filter of a large workspace is made by the host
//! a step at a time: its progress shows, with a Cancel, over the rows shown before.

use crate::state::ViewAction;
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::answer::use_answer;
use crate::widgets::{bytes, count, on_value, shard_style, HighlightedId};
use crate::workers::host::Answered;
use ravenshard_model::host::question::{Groups, Page, RowData, Rows};
use ravenshard_model::workspace::{RowQuery, SortKey, Summary};
use std::rc::Rc;
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
    // The rows in sight, from the number of rows the last answer gave (a scroll position
    // past the rows, the filter having just removed most of them, shows the last window
    // until the browser's own scroll event catches up).
    let total_seen = use_state(|| 0u64);
    let seen = *total_seen;
    let window = WINDOW_ROWS + 2 * OVERSCAN;
    let start = top
        .saturating_sub(OVERSCAN)
        .min(seen.saturating_sub(window));
    let question = Rows {
        query: props.query.clone(),
        from: start,
        count: window,
    };
    let asked = use_answer(Some(question), props.version);
    let group = props.query.group.map(|from| Groups { from, count: 1 });
    let group = use_answer(group, props.version);
    let shown = shown(asked.last.as_ref());
    // The host's version the rows shown are of (what a measure of an edit waits for).
    let shown_version = asked.last.as_ref().map_or(0, |(_, a)| a.version);
    {
        // A new number of rows (a filter) moves the window: asked again from there.
        let total_seen = total_seen.clone();
        use_effect_with(shown.total, move |total| total_seen.set(*total));
    }
    // The rows shown are of another query while the host makes this one's.
    let working = shown.query != Some(&props.query);
    let total = shown.total;
    let on_shard = on_value::<Event, _>(on, |v| ViewAction::SetFilterShard(v.parse().ok()));
    let fragment = |shard: u32| {
        let at = summary.shards.binary_search_by_key(&shard, |s| s.shard);
        at.ok().map(|i| summary.shards[i].fragment.clone())
    };
    let group_anchor = group.answer().and_then(|ranked| ranked.groups.first());
    let group_anchor = group_anchor.map(|g| g.anchor.clone());
    let header = |key: SortKey, label: &str, class: &'static str| {
        let active = props.query.sort == key;
        let arrow = match (active, props.query.descending) {
            (true, false) => " ▲",
            (true, true) => " ▼",
            _ => "",
        };
        let sort = match (active, props.query.descending) {
            (false, _) => "none",
            (true, false) => "ascending",
            (true, true) => "descending",
        };
        html! {
            <span class="th-cell" role="columnheader" aria-sort={sort}>
                <button type="button" class={classes!("th", class, active.then_some("sorted"))}
                    onclick={on.reform(move |_: MouseEvent| ViewAction::SortBy(key))}>
                    { format!("{label}{arrow}") }
                </button>
            </span>
        }
    };
    html! {
        <div class="documents-view" data-rows={if working { "working" } else { "ready" }}
            data-version={shown_version.to_string()}>
            <div class="filters">
                <input id="filter" type="search" placeholder="Filter IDs…" value={props.query.text.clone()}
                    oninput={on_value::<InputEvent, _>(on, ViewAction::SetFilterText)} aria-label="Filter IDs" />
                <select id="filter-shard" onchange={on_shard} aria-label="Shard">
                    <option value="" selected={props.query.shard.is_none()}>{ "All shards" }</option>
                    { for summary.shards.iter().take(1024).map(|s| html! {
                        <option value={s.shard.to_string()} selected={props.query.shard == Some(s.shard)}>{ s.fragment.clone() }</option>
                    }) }
                </select>
                if let Some(g) = props.query.group {
                    <span class="chip">
                        { format!("Group {}", group_anchor.clone().unwrap_or_else(|| (g + 1).to_string())) }
                        <button type="button" class="clear-group" aria-label="Show every group"
                            onclick={on.reform(|_: MouseEvent| ViewAction::SetFilterGroup(None))}>{ "×" }</button>
                    </span>
                }
                <span class="row-count">{ format!("{} of {}", count(total), count(summary.documents as u64)) }</span>
            </div>
            if let (true, Some(progress)) = (working, asked.progress) {
                <p class="rows-working" role="status">
                    { working_text(&props.query, summary.documents, Some(progress)) }
                    <button type="button" class="rows-cancel"
                        onclick={on.reform({
                            let back = shown.query.cloned().unwrap_or_default();
                            move |_: MouseEvent| ViewAction::CancelRows(back.clone())
                        })}>{ "Cancel" }</button>
                </p>
            }
            <div class="dt-table" role="table" aria-label="Documents" aria-rowcount={(total + 1).to_string()}>
            <div class="dt-head" role="row">
                { header(SortKey::Index, "#", "c-index") }
                { header(SortKey::Id, "Document ID", "c-id") }
                { header(SortKey::Collection, "Collection", "c-collection") }
                { header(SortKey::Size, "Size", "c-size") }
                { header(SortKey::Bucket, "Bucket", "c-bucket") }
                { header(SortKey::Shard, "Shard", "c-shard") }
                <span class="th c-fragment" role="columnheader">{ "Fragment" }</span>
                <span class="th c-group" role="columnheader" title="The anchor the document is stored with: its anchored group's">{ "Group" }</span>
            </div>
            <div class={classes!("dt-body", working.then_some("stale"))} onscroll={on_scroll} role="rowgroup">
                <div class="dt-spacer" style={format!("height: {:.0}px", total as f64 * ROW_HEIGHT)}>
                    <div class="dt-rows" style={format!("transform: translateY({:.0}px)", shown.from as f64 * ROW_HEIGHT)}>
                        { for shown.rows.iter().map(|row| {
                            let index = row.index;
                            let id = row.id.clone();
                            let on_explain = on.reform(move |_: MouseEvent| ViewAction::ExplainDocument(id.clone()));
                            html! {
                                <div class={classes!("dt-row", row.error.is_some().then_some("invalid"))} role="row"
                                    key={index} data-index={index.to_string()} onclick={on_explain} title="Click to explain">
                                    <span role="cell" class="td c-index">{ index + 1 }</span>
                                    <span role="cell" class="td c-id">
                                        if let Some([a, b]) = row.hashed_chars {
                                            <HighlightedId id={AttrValue::from(row.id.clone())} hashed_chars={[a as usize, b as usize]} />
                                        } else {
                                            <code class="id-text">{ row.id.clone() }</code>
                                        }
                                        if let Some(generated) = &row.generated {
                                            <span class="generated-id" title="The ID the chapter's design generates">{ "→ " }<code>{ generated.clone() }</code></span>
                                        }
                                    </span>
                                    if let Some(error) = &row.error {
                                        <span role="cell" class="td c-error" title={error.clone()}>{ error.clone() }</span>
                                    } else {
                                        <span role="cell" class="td c-collection">{ row.collection.clone().unwrap_or_default() }</span>
                                        <span role="cell" class="td c-size">{ row.size.map(bytes).unwrap_or_default() }</span>
                                        <span role="cell" class="td c-bucket bucket">{ row.bucket.map(|b| b.to_string()).unwrap_or_default() }</span>
                                        <span role="cell" class="td c-shard shard">
                                            if let Some(s) = row.shard {
                                                <span class="shard-badge" style={shard_style(s)}>{ s }</span>
                                            }
                                        </span>
                                        <span role="cell" class="td c-fragment fragment"><code>{ row.shard.and_then(fragment).unwrap_or_default() }</code></span>
                                        <span role="cell" class="td c-group">
                                            if let (Some(anchor), Some(documents)) = (&row.group_anchor, row.group_documents) {
                                                <code title={format!("Anchored group of {} document{}", count(documents), crate::widgets::plural(documents))}>{ anchor.clone() }</code>
                                            }
                                        </span>
                                    }
                                </div>
                            }
                        }) }
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
