//! The documents view: every document, virtualised — only the rows in sight are in the
//! DOM, so 100,000 documents scroll smoothly.

use super::{bytes, count, on_value, rows_job, shard_style, ByPtr};
use crate::state::Live;
use crate::state::{split_chars, ViewAction};
use ravenshard_model::workspace::{Placement, RowQuery, RowView, SortKey};
use yew::prelude::*;

/// The height of a row, in CSS pixels (the style sheet uses the same).
pub const ROW_HEIGHT: f64 = 28.0;

/// Rows rendered at once: enough for a tall window, plus a margin above and below.
const WINDOW_ROWS: usize = 48;
const OVERSCAN: usize = 8;

/// Properties of [`DocumentsView`].
#[derive(Properties, PartialEq)]
pub struct DocumentsViewProps {
    /// The placed documents.
    pub placement: Live<Placement>,
    /// The rows of the query.
    pub rows: ByPtr<RowView>,
    /// The query.
    pub query: RowQuery,
    /// The query whose rows a job must make, and the placement's version it reads
    /// ([`ViewsState::rows_wanted`](crate::state::ViewsState::rows_wanted)); `rows` are
    /// the previous ones meanwhile.
    #[prop_or_default]
    pub wanted: Option<(RowQuery, u64)>,
    /// The job's progress (done, total), once it reported.
    #[prop_or_default]
    pub progress: Option<(u64, u64)>,
    /// Where filters, sorting and selections go.
    pub on_action: Callback<ViewAction>,
}

/// Filters, a sortable header and the visible slice of the rows.
#[function_component(DocumentsView)]
pub fn documents_view(props: &DocumentsViewProps) -> Html {
    let p = props.placement.get();
    let on = &props.on_action;
    let top = use_state(|| 0usize);
    let on_scroll = {
        let top = top.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                let row = (f64::from(el.scroll_top()) / ROW_HEIGHT).max(0.0) as usize;
                if row != *top {
                    top.set(row);
                }
            }
        })
    };
    {
        // The rows wanted are made by a job a slice at a time; a new query or placement
        // drops the handle, which ends the job.
        let placement = props.placement.clone();
        let on = on.clone();
        use_effect_with(props.wanted.clone(), move |wanted| {
            let job = wanted.clone().and_then(|(query, version)| {
                (placement.version() == version).then(|| rows_job::start(placement, query, on))
            });
            move || drop(job)
        });
    }
    let total = props.rows.len();
    // A scroll position past the rows (the filter just removed most of them) shows the last
    // window until the browser's own scroll event catches up.
    let start = (*top)
        .saturating_sub(OVERSCAN)
        .min(total.saturating_sub(WINDOW_ROWS + 2 * OVERSCAN));
    let end = (start + WINDOW_ROWS + 2 * OVERSCAN).min(total);
    let slice = props.rows.slice(start, end);
    let on_shard = on_value::<Event, _>(on, |v| ViewAction::SetFilterShard(v.parse().ok()));
    let header = |key: SortKey, label: &str, class: &'static str| {
        let active = props.query.sort == key;
        let arrow = match (active, props.query.descending) {
            (true, false) => " ▲",
            (true, true) => " ▼",
            _ => "",
        };
        html! {
            <button type="button" class={classes!("th", class, active.then_some("sorted"))}
                onclick={on.reform(move |_: MouseEvent| ViewAction::SortBy(key))}>
                { format!("{label}{arrow}") }
            </button>
        }
    };
    html! {
        <div class="documents-view" data-rows={if props.wanted.is_some() { "working" } else { "ready" }}>
            <div class="filters">
                <input id="filter" type="search" placeholder="Filter IDs…" value={props.query.text.clone()}
                    oninput={on_value::<InputEvent, _>(on, ViewAction::SetFilterText)} aria-label="Filter IDs" />
                <select id="filter-shard" onchange={on_shard} aria-label="Shard">
                    <option value="" selected={props.query.shard.is_none()}>{ "All shards" }</option>
                    { for p.shards().iter().take(1024).map(|s| html! {
                        <option value={s.shard.to_string()} selected={props.query.shard == Some(s.shard)}>{ s.fragment.clone() }</option>
                    }) }
                </select>
                if let Some(g) = props.query.group {
                    <span class="chip">
                        { format!("Group {}", p.group_summary(g).map(|g| g.anchor).unwrap_or_else(|| "?".into())) }
                        <button type="button" class="clear-group" aria-label="Show every group"
                            onclick={on.reform(|_: MouseEvent| ViewAction::SetFilterGroup(None))}>{ "×" }</button>
                    </span>
                }
                <span class="row-count">{ format!("{} of {}", count(total as u64), count(p.len() as u64)) }</span>
            </div>
            if let Some((query, _)) = &props.wanted {
                <p class="rows-working" role="status">
                    { working_text(query, p.len(), props.progress) }
                    <button type="button" class="rows-cancel"
                        onclick={on.reform(|_: MouseEvent| ViewAction::CancelRows)}>{ "Cancel" }</button>
                </p>
            }
            <div class="dt-head" role="row">
                { header(SortKey::Index, "#", "c-index") }
                { header(SortKey::Id, "Document ID", "c-id") }
                { header(SortKey::Collection, "Collection", "c-collection") }
                { header(SortKey::Size, "Size", "c-size") }
                { header(SortKey::Bucket, "Bucket", "c-bucket") }
                { header(SortKey::Shard, "Shard", "c-shard") }
                <span class="th c-fragment">{ "Fragment" }</span>
                <span class="th c-group" title="The anchor the document is stored with: its anchored group's">{ "Group" }</span>
            </div>
            <div class={classes!("dt-body", props.wanted.is_some().then_some("stale"))} onscroll={on_scroll} role="table" aria-rowcount={total.to_string()}>
                <div class="dt-spacer" style={format!("height: {:.0}px", total as f64 * ROW_HEIGHT)}>
                    <div class="dt-rows" style={format!("transform: translateY({:.0}px)", start as f64 * ROW_HEIGHT)}>
                        { for slice.iter().filter_map(|&i| p.row_unranked(i as usize)).map(|row| {
                            let index = row.index;
                            let on_explain = on.reform(move |_: MouseEvent| ViewAction::ExplainDocument(index));
                            html! {
                                <div class={classes!("dt-row", row.error.is_some().then_some("invalid"))} role="row"
                                    key={index} data-index={index.to_string()} onclick={on_explain} title="Click to explain">
                                    <span class="td c-index">{ index + 1 }</span>
                                    <span class="td c-id">
                                        if let Some([a, b]) = row.hashed_chars {
                                            <HighlightedId id={AttrValue::from(row.id.to_string())} hashed_chars={[a as usize, b as usize]} />
                                        } else {
                                            <code class="id-text">{ row.id.to_string() }</code>
                                        }
                                        if let Some(generated) = row.generated {
                                            <span class="generated-id" title="The ID the chapter's design generates">{ "→ " }<code>{ generated.to_string() }</code></span>
                                        }
                                    </span>
                                    if let Some(error) = row.error {
                                        <span class="td c-error" title={error.to_string()}>{ error.to_string() }</span>
                                    } else {
                                        <span class="td c-collection">{ row.collection.unwrap_or("").to_string() }</span>
                                        <span class="td c-size">{ row.size.map(bytes).unwrap_or_default() }</span>
                                        <span class="td c-bucket bucket">{ row.bucket.map(|b| b.to_string()).unwrap_or_default() }</span>
                                        <span class="td c-shard shard">
                                            if let Some(s) = row.shard {
                                                <span class="shard-badge" style={shard_style(s)}>{ s }</span>
                                            }
                                        </span>
                                        <span class="td c-fragment fragment"><code>{ row.shard.map(|s| p.topology().fragment(s)).unwrap_or_default() }</code></span>
                                        <span class="td c-group">
                                            if let (Some(anchor), Some(documents)) = (row.group_anchor, row.group_documents) {
                                                <code title={format!("Anchored group of {} document{}", count(documents), super::plural(documents))}>{ anchor.to_string() }</code>
                                            }
                                        </span>
                                    }
                                </div>
                            }
                        }) }
                    </div>
                </div>
            </div>
            if p.is_empty() {
                <p class="empty">{ "Type or paste document IDs on the left, one per line, or import a file." }</p>
            }
        </div>
    }
}

/// Properties of [`HighlightedId`].
#[derive(Properties, PartialEq)]
pub struct HighlightedIdProps {
    /// The ID as typed.
    pub id: AttrValue,
    /// Character range `[start, end)` of the part that is hashed.
    pub hashed_chars: [usize; 2],
}

/// A document ID with its hashed part in a `<mark>`; the part before an anchor is dimmed.
#[function_component(HighlightedId)]
pub fn highlighted_id(props: &HighlightedIdProps) -> Html {
    let (before, hashed, after) = split_chars(&props.id, props.hashed_chars);
    html! {
        <code class="id-text">
            if !before.is_empty() {
                <span class="unhashed">{ before.to_string() }</span>
            }
            <mark>{ hashed.to_string() }</mark>
            if !after.is_empty() {
                <span class="unhashed">{ after.to_string() }</span>
            }
        </code>
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
