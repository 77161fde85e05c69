//! Explain: every step from one ID to its shard and nodes, as a pipeline.

use crate::state::ViewAction;
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::{on_value, shard_style, ByPtr, HighlightedId};
use ravenshard::{Explanation, NUMBER_OF_BUCKETS};
use yew::prelude::*;

/// The Explain tab ([`Tab::Explain`](crate::state::Tab::Explain)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::NeedsIds("Explain"),
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    let views = state.views();
    html! {
        <ExplainView id={AttrValue::from(views.explain_id().to_string())}
            explanation={views.explanation().cloned().map(ByPtr)} on_action={on.view.clone()} />
    }
}

/// Properties of [`ExplainView`].
#[derive(Properties, PartialEq)]
pub struct ExplainViewProps {
    /// The ID field.
    pub id: AttrValue,
    /// Its explanation (or why it is refused).
    pub explanation: Option<ByPtr<Result<Explanation, String>>>,
    /// Where the ID field goes.
    pub on_action: Callback<ViewAction>,
}

fn step(n: usize, title: &str, body: Html) -> Html {
    html! {
        <li class="step">
            <span class="step-n">{ n }</span>
            <div class="step-body"><div class="step-title">{ title.to_string() }</div>{ body }</div>
        </li>
    }
}

/// The ID field and the steps of the core's explanation.
#[function_component(ExplainView)]
pub fn explain_view(props: &ExplainViewProps) -> Html {
    let body = match props.explanation.as_deref() {
        None => html! { <p class="empty">{ "Type an ID, or click a row of Documents." }</p> },
        Some(Err(message)) => html! { <p class="field-error" role="alert">{ message.clone() }</p> },
        Some(Ok(e)) => pipeline(e),
    };
    html! {
        <div class="explain-view">
            <div class="field explain-field">
                <label for="explain-id">{ "Explain the ID" }</label>
                <input id="explain-id" type="text" value={props.id.clone()}
                    oninput={on_value::<InputEvent, _>(&props.on_action, ViewAction::SetExplainId)}
                    spellcheck="false" autocomplete="off" />
            </div>
            { body }
        </div>
    }
}

fn pipeline(e: &Explanation) -> Html {
    let mut n = 0;
    let mut next = || {
        n += 1;
        n
    };
    html! {
        <>
        <ol class="pipeline">
            { step(next(), "The ID, lower-cased", html! {
                <p><code>{ e.id.clone() }</code>{ " → " }<code>{ e.lower_id.clone() }</code></p>
            }) }
            { step(next(), "The part that is hashed", html! {
                <p>
                    <HighlightedId id={AttrValue::from(e.id.clone())} hashed_chars={e.hashed_chars} />
                    { if e.anchored {
                        " — the ID has a $ after its first character: only the text after the last $ is hashed, so it lands with its anchor."
                    } else {
                        " — no anchor: the whole ID is hashed."
                    } }
                </p>
            }) }
            { step(next(), "XXH64 (seed 0)", html! {
                <p><code>{ format!("xxh64(\"{}\") = {}", e.hashed, e.hash) }</code></p>
            }) }
            { step(next(), "Bucket", html! {
                <p><code>{ format!("{} mod {NUMBER_OF_BUCKETS} = {}", e.hash, e.raw_bucket) }</code></p>
            }) }
            if let Some(prefix) = &e.prefix {
                { step(next(), "Sharding prefix", html! {
                    <p>{ "The ID starts with " }<code>{ prefix.prefix.clone() }</code>
                    { format!(": its block starts at bucket {}, so the bucket is {} + {} = {}.",
                        prefix.bucket_range_start, e.raw_bucket, prefix.bucket_range_start, e.bucket) }</p>
                }) }
            }
            { step(next(), "Bucket range → shard", html! {
                if let (Some(range), Some(shard)) = (e.range, e.shard) {
                    <p>{ format!("Bucket {} is in range {}–{}, owned by ", e.bucket, range.start, range.end.saturating_sub(1)) }
                    <span class="shard-badge" style={shard_style(shard)}>{ format!("shard {shard}") }</span></p>
                } else {
                    <p class="muted">{ "No topology: no shard." }</p>
                }
            }) }
            { step(next(), "Fragment and nodes", html! {
                <p>
                    <code class="fragment">{ e.fragment.clone().unwrap_or_default() }</code>
                    { " on " }
                    if e.nodes.is_empty() { <span class="muted">{ "no nodes" }</span> }
                    { for e.nodes.iter().map(|n| html! { <span class="node">{ n.clone() }</span> }) }
                </p>
            }) }
        </ol>
        if !e.warnings.is_empty() {
            <ul class="notices-list">
                { for e.warnings.iter().map(|w| html! { <li class="warning" data-kind={w.kind}>{ w.message.clone() }</li> }) }
            </ul>
        }
        </>
    }
}
