//! The Content rules view: the draft chapter's `ByContent` rules, and what they do to the
//! workspace — the IDs they generate and the writes they reject.

use super::{count, shard_style, ByPtr};
use crate::editors::ContentRulesEditor;
use crate::state::Live;
use crate::state::{ConfigAction, ViewAction};
use ravenshard::Topology;
use ravenshard_model::workspace::{Placement, Unplaced};
use yew::prelude::*;

/// The most generated IDs and rejected writes listed.
pub const LISTED: usize = 200;

/// Properties of [`ContentView`].
#[derive(Properties, PartialEq)]
pub struct ContentViewProps {
    /// The configuration in force.
    pub topology: ByPtr<Topology>,
    /// The documents, placed with the design.
    pub placement: Live<Placement>,
    /// Whether the configuration has `ByContent`.
    pub design_on: bool,
    /// Where edited rules go (as a whole configuration).
    pub on_config: Callback<ConfigAction>,
    /// Where a document to explain goes.
    pub on_view: Callback<ViewAction>,
}

/// The rules editor and the lists of generated IDs and rejected writes.
#[function_component(ContentView)]
pub fn content_view(props: &ContentViewProps) -> Html {
    let p = props.placement.get();
    let generated = p.generated();
    let rejected: Vec<_> = p
        .invalid()
        .iter()
        .filter(|d| matches!(d.reason, Unplaced::Content(_)))
        .collect();
    let on_change = props.on_config.reform(ConfigAction::SetJson);
    let explain = |index: u32| {
        props
            .on_view
            .reform(move |_: MouseEvent| ViewAction::ExplainDocument(index))
    };
    html! {
        <div class="content-view">
            <ContentRulesEditor topology={props.topology.0.clone()} {on_change} />
            if props.design_on {
                <section class="generated" aria-label="Generated IDs">
                    <h3>{ format!("Generated IDs ({})", count(generated.len() as u64)) }</h3>
                    if generated.is_empty() {
                        <p class="hint">{ "No document ID ends with '$'. Type one in the documents editor (orders/9-A$, with a body such as {\"Customer\":\"customers/1-A\"} as the line's fourth field) to see the ID the server would generate." }</p>
                    } else {
                        <table class="design-list">
                            <thead><tr><th>{ "Given" }</th><th>{ "Final ID" }</th><th class="num">{ "Bucket" }</th><th>{ "Shard" }</th></tr></thead>
                            <tbody>
                                { for generated.iter().take(LISTED).map(|(index, id)| {
                                    let place = p.place(*index as usize);
                                    html! {
                                        <tr class="generated-row" data-index={index.to_string()} onclick={explain(*index)}>
                                            <td><code>{ p.id(*index as usize).unwrap_or_default().to_string() }</code></td>
                                            <td><code class="final-id">{ id.clone() }</code></td>
                                            <td class="num">{ place.map(|x| x.bucket.to_string()).unwrap_or_default() }</td>
                                            <td>if let Some(x) = place {
                                                <span class="shard-badge" style={shard_style(x.shard)}>{ x.shard }</span>
                                            }</td>
                                        </tr>
                                    }
                                }) }
                            </tbody>
                        </table>
                    }
                </section>
                <section class="rejected" aria-label="Rejected writes">
                    <h3>{ format!("Rejected writes and refused IDs ({})", count(rejected.len() as u64)) }</h3>
                    if rejected.is_empty() {
                        <p class="hint">{ "Every document of the workspace satisfies the rules." }</p>
                    } else {
                        <ul class="rejected-list">
                            { for rejected.iter().take(LISTED).map(|d| html! {
                                <li class="rejected-row" data-index={d.index.to_string()}>{ d.message.clone() }</li>
                            }) }
                        </ul>
                    }
                    if rejected.len() > LISTED || generated.len() > LISTED {
                        <p class="hint">{ format!("The first {LISTED} of each are listed; the documents view shows them all.") }</p>
                    }
                </section>
            }
        </div>
    }
}
