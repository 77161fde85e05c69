//! The Content rules view: the draft chapter's `ByContent` rules, and what they do to the
//! workspace — the IDs they generate and the writes they reject.

use crate::state::{ConfigAction, ViewAction};
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::answer::use_answer;
use crate::widgets::ContentRulesEditor;
use crate::widgets::{count, shard_style, ByPtr};
use ravenshard::Topology;
use ravenshard_model::host::question::{Content, Designed};
use yew::prelude::*;

/// The most generated IDs and rejected writes listed.
pub const LISTED: u64 = 200;

/// The Content rules tab ([`Tab::Content`](crate::state::Tab::Content)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::NeedsIds("the content rules"),
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    html! {
        <ContentView topology={ByPtr(state.config().topology().clone())} version={state.changes()}
            design_on={state.design().design().is_some()}
            on_config={on.config.clone()} on_view={on.view.clone()} />
    }
}

/// Properties of [`ContentView`].
#[derive(Properties, PartialEq)]
pub struct ContentViewProps {
    /// The configuration in force.
    pub topology: ByPtr<Topology>,
    /// The number of the workspace's last change ([`State::changes`](crate::views::state::State::changes)) (what the design does to its documents is
    /// asked again when it changes).
    pub version: u64,
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
    let question = props.design_on.then_some(Content { most: LISTED });
    let asked = use_answer(question, props.version);
    let none = Designed::default();
    let designed = asked.answer().unwrap_or(&none);
    let (generated_total, generated) = (designed.generated.total, &designed.generated.items);
    let (rejected_total, rejected) = (designed.rejected.total, &designed.rejected.items);
    let on_change = props.on_config.reform(ConfigAction::SetJson);
    let explain = |id: &str| {
        let id = id.to_string();
        props
            .on_view
            .reform(move |_: MouseEvent| ViewAction::ExplainDocument(id.clone()))
    };
    html! {
        <div class="content-view">
            <ContentRulesEditor topology={props.topology.0.clone()} {on_change} />
            if props.design_on {
                <section class="generated" aria-label="Generated IDs">
                    <h3>{ format!("Generated IDs ({})", count(generated_total)) }</h3>
                    if generated.is_empty() {
                        <p class="hint">{ "No document ID ends with '$'. Type one in the documents editor (orders/9-A$, with a body such as {\"Customer\":\"customers/1-A\"} as the line's fourth field) to see the ID the server would generate." }</p>
                    } else {
                        <table class="design-list">
                            <thead><tr><th>{ "Given" }</th><th>{ "Final ID" }</th><th class="num">{ "Bucket" }</th><th>{ "Shard" }</th></tr></thead>
                            <tbody>
                                { for generated.iter().map(|g| html! {
                                    <tr class="generated-row" data-index={g.index.to_string()} onclick={explain(&g.given)}>
                                        <td><code>{ g.given.clone() }</code></td>
                                        <td><code class="final-id">{ g.id.clone() }</code></td>
                                        <td class="num">{ g.bucket.map(|b| b.to_string()).unwrap_or_default() }</td>
                                        <td>if let Some(shard) = g.shard {
                                            <span class="shard-badge" style={shard_style(shard)}>{ shard }</span>
                                        }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                    }
                </section>
                <section class="rejected" aria-label="Rejected writes">
                    <h3>{ format!("Rejected writes and refused IDs ({})", count(rejected_total)) }</h3>
                    if rejected.is_empty() {
                        <p class="hint">{ "Every document of the workspace satisfies the rules." }</p>
                    } else {
                        <ul class="rejected-list">
                            { for rejected.iter().map(|d| html! {
                                <li class="rejected-row" data-index={d.index.to_string()}>{ d.message.clone() }</li>
                            }) }
                        </ul>
                    }
                    if rejected_total > LISTED || generated_total > LISTED {
                        <p class="hint">{ format!("The first {LISTED} of each are listed; the documents view shows them all.") }</p>
                    }
                </section>
            }
        </div>
    }
}
