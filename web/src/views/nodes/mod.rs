//! Nodes × shards: how many documents each node holds of each shard (the chapter's
//! "Distributing 100 users among 4 nodes and 3 shards").

use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View, IMPORT_DRILL_DOWNS};
use crate::widgets::{count, plural, shard_style};
use ravenshard_model::workspace::Summary;
use std::rc::Rc;
use yew::prelude::*;

/// The most shard columns drawn.
pub const COLUMNS_DRAWN: usize = 48;

/// The Nodes × shards tab ([`Tab::Nodes`](crate::state::Tab::Nodes)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::Works {
        coarse: IMPORT_DRILL_DOWNS,
    },
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, _on: &Dispatch) -> Html {
    html! { <MatrixView summary={Rc::clone(state.summary())} /> }
}

/// Properties of [`MatrixView`].
#[derive(Properties, PartialEq)]
pub struct MatrixViewProps {
    /// What the placement holds, per shard and node.
    pub summary: Rc<Summary>,
}

/// A table: one row per node, one column per shard, a total per node.
#[function_component(MatrixView)]
pub fn matrix_view(props: &MatrixViewProps) -> Html {
    let summary = &props.summary;
    let m = &summary.matrix;
    let columns = m.shards.len().min(COLUMNS_DRAWN);
    let placed = summary.totals.placed;
    html! {
        <div class="matrix-view">
            <p class="caption">
                { format!("Distributing {} document{} among {} node{} and {} shard{}.",
                    count(placed), plural(placed), m.rows.len(), plural(m.rows.len() as u64),
                    m.shards.len(), plural(m.shards.len() as u64)) }
                { " A node holds a whole copy of each shard it is a member of." }
            </p>
            if m.shards.len() > columns {
                <p class="hint">{ format!("The first {columns} of {} shards are shown.", m.shards.len()) }</p>
            }
            if m.rows.is_empty() {
                <p class="empty">{ "No shard has member nodes. Enter nodes and a replication factor in Configuration." }</p>
            } else {
                <div class="table-scroll">
                <table class="matrix">
                    <thead>
                        <tr>
                            <th scope="col">{ "Node" }</th>
                            { for summary.shards.iter().take(columns).map(|s| html! {
                                <th scope="col" style={shard_style(s.shard)}><span class="shard-badge">{ s.fragment.clone() }</span></th>
                            }) }
                            <th scope="col" class="total">{ "Total" }</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for m.rows.iter().map(|row| html! {
                            <tr data-node={row.node.clone()}>
                                <th scope="row"><span class="node">{ row.node.clone() }</span></th>
                                { for (0..columns).map(|i| {
                                    let holds = row.holds.get(i).copied().unwrap_or(false);
                                    let docs = row.documents.get(i).copied().unwrap_or(0);
                                    html! {
                                        <td class={if holds { "cell holds" } else { "cell" }}>
                                            if holds { { count(docs) } } else { <span class="muted">{ "–" }</span> }
                                        </td>
                                    }
                                }) }
                                <td class="total">{ count(row.total_documents) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                </div>
            }
            if !m.unheld.is_empty() {
                <p class="field-error">{ format!("No node holds shard{} {}: its documents would have nowhere to live.",
                    plural(m.unheld.len() as u64),
                    m.unheld.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")) }</p>
            }
        </div>
    }
}
