//! The documents table's sortable header ([`TableHead`]) and its rows ([`row`]).

use crate::state::ViewAction;
use crate::widgets::{bytes, count, plural, shard_style, HighlightedId};
use ravenshard_model::host::question::RowData;
use ravenshard_model::workspace::{RowQuery, SortKey, Summary};
use yew::prelude::*;

/// Properties of [`TableHead`].
#[derive(Properties, PartialEq)]
pub struct TableHeadProps {
    /// The query, whose order the header shows.
    pub query: RowQuery,
    /// Where a click on a column's header (sort by it) goes.
    pub on_action: Callback<ViewAction>,
}

/// The header row: a button per sortable column (the sorted one with its arrow), then the
/// fragment and the group.
#[function_component(TableHead)]
pub fn table_head(props: &TableHeadProps) -> Html {
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
                    onclick={props.on_action.reform(move |_: MouseEvent| ViewAction::SortBy(key))}>
                    { format!("{label}{arrow}") }
                </button>
            </span>
        }
    };
    html! {
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
    }
}

/// One document's row, keyed by its index: a click explains the document.
pub fn row(row: &RowData, summary: &Summary, on: &Callback<ViewAction>) -> Html {
    let index = row.index;
    let id = row.id.clone();
    let on_explain = on.reform(move |_: MouseEvent| ViewAction::ExplainDocument(id.clone()));
    let fragment = |shard: u32| {
        let at = summary.shards.binary_search_by_key(&shard, |s| s.shard);
        at.ok().map(|i| summary.shards[i].fragment.clone())
    };
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
                        <code title={format!("Anchored group of {} document{}", count(documents), plural(documents))}>{ anchor.clone() }</code>
                    }
                </span>
            }
        </div>
    }
}
