//! The table of IDs: one row per non-blank line of the editor.

use super::shard_style;
use crate::state::{split_chars, Analysis, Outcome, Row};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`ResultsTable`].
#[derive(Properties, PartialEq)]
pub struct ResultsTableProps {
    /// The placed IDs.
    pub analysis: Rc<Analysis>,
}

/// One row per ID (the first [`ROW_LIMIT`](crate::state::ROW_LIMIT)), with a note when rows
/// are left out.
#[function_component(ResultsTable)]
pub fn results_table(props: &ResultsTableProps) -> Html {
    let a = &props.analysis;
    html! {
        <section class="table-wrap" aria-label="Where each ID goes">
            if a.hidden_rows() > 0 {
                <p class="cap-note" role="status">
                    { format!(
                        "Showing the first {} of {} IDs; the totals above count all of them.",
                        a.rows.len(),
                        a.ids
                    ) }
                </p>
            }
            <table class="ids-table">
                <thead>
                    <tr>
                        <th class="line" scope="col" title="Line in the editor">{ "Line" }</th>
                        <th class="id" scope="col">{ "Document ID" }</th>
                        <th class="hashed" scope="col" title="The lower-cased text that is hashed">{ "Hashed part" }</th>
                        <th class="bucket" scope="col" title="XXH64 of the hashed part, mod 2^20">{ "Bucket" }</th>
                        <th class="shard" scope="col" title="The shard whose bucket range holds the bucket">{ "Shard" }</th>
                        <th class="fragment" scope="col" title="The shard's database: <database>$<shard>">{ "Fragment" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for a.rows.iter().map(|row| html! {
                        <ResultRow key={row.line} row={Rc::clone(row)} />
                    }) }
                </tbody>
            </table>
            if a.ids == 0 {
                <p class="empty">{ "Type or paste document IDs on the left, one per line." }</p>
            }
        </section>
    }
}

/// Properties of [`ResultRow`].
#[derive(Properties, PartialEq)]
pub struct ResultRowProps {
    /// The line to show.
    pub row: Rc<Row>,
}

/// One line of the editor: where its ID goes, or why it cannot be stored. Warnings are
/// listed under the ID; an error takes the place of bucket, shard and fragment.
#[function_component(ResultRow)]
pub fn result_row(props: &ResultRowProps) -> Html {
    let line = props.row.line;
    match &props.row.outcome {
        Outcome::Placed(e) => {
            let warned = !e.warnings.is_empty();
            html! {
                <tr class={classes!("row", warned.then_some("warned"))} data-line={line.to_string()}>
                    <td class="line">{ line }</td>
                    <td class="id">
                        <HighlightedId id={AttrValue::from(e.id.clone())} hashed_chars={e.hashed_chars} />
                        if warned {
                            <ul class="notices">
                                { for e.warnings.iter().map(|w| html! {
                                    <li class="warning" data-kind={w.kind}>{ w.message.clone() }</li>
                                }) }
                            </ul>
                        }
                    </td>
                    <td class="hashed">
                        if e.hashed.is_empty() {
                            <span class="muted">{ "(empty)" }</span>
                        } else {
                            <code>{ e.hashed.clone() }</code>
                        }
                        if e.anchored {
                            <span class="tag" title="Only the text after the last $ is hashed">{ "anchor" }</span>
                        }
                    </td>
                    <td class="bucket">{ e.bucket }</td>
                    <td class="shard">
                        if let Some(shard) = e.shard {
                            <span class="shard-badge" style={shard_style(shard)}>{ shard }</span>
                        }
                    </td>
                    <td class="fragment"><code>{ e.fragment.clone().unwrap_or_default() }</code></td>
                </tr>
            }
        }
        Outcome::Invalid { preview, message } => html! {
            <tr class="row invalid" data-line={line.to_string()}>
                <td class="line">{ line }</td>
                <td class="id"><code class="id-text">{ preview.clone() }</code></td>
                <td class="error" colspan="4">{ message.clone() }</td>
            </tr>
        },
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
