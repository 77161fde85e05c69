//! Per-shard totals.

use super::settings::plural;
use super::shard_style;
use crate::state::{Analysis, ShardTotal, ALL_SHARD_CARDS_UP_TO};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`ShardSummary`].
#[derive(Properties, PartialEq)]
pub struct ShardSummaryProps {
    /// The placed IDs.
    pub analysis: Rc<Analysis>,
}

/// The counts of IDs (placed, invalid, with warnings) and one card per shard: its fragment,
/// its bucket ranges and how many IDs it holds.
#[function_component(ShardSummary)]
pub fn shard_summary(props: &ShardSummaryProps) -> Html {
    let a = &props.analysis;
    html! {
        <section class="summary" aria-label="Documents per shard">
            <p class="counts">
                <span class="count-ids"><strong>{ a.ids }</strong>{ format!(" ID{}", plural(a.ids as u64)) }</span>
                <span class="count-placed"><strong>{ a.placed }</strong>{ " placed" }</span>
                <span class={classes!("count-invalid", (a.invalid > 0).then_some("bad"))}>
                    <strong>{ a.invalid }</strong>{ " invalid" }
                </span>
                <span class={classes!("count-warned", (a.warned > 0).then_some("warn"))}>
                    <strong>{ a.warned }</strong>{ " with warnings" }
                </span>
            </p>
            if a.shards.len() > ALL_SHARD_CARDS_UP_TO {
                <p class="shard-note">{ many_shards_note(a) }</p>
            }
            <ol class="shard-list">
                { for a.shard_cards().into_iter().map(|total| shard_card(total, a.placed)) }
            </ol>
        </section>
    }
}

/// What the cards of a many-shard summary leave out.
fn many_shards_note(a: &Analysis) -> String {
    let holding = a.shards_holding();
    let shown = a.shard_cards().len();
    let total = a.shards.len();
    if shown < holding {
        format!("{holding} of {total} shards hold these IDs; the first {shown} are shown.")
    } else {
        format!(
            "{holding} of {total} shard{} hold{} these IDs; empty shards are not shown.",
            plural(holding as u64),
            if holding == 1 { "s" } else { "" }
        )
    }
}

fn shard_card(total: &ShardTotal, placed: usize) -> Html {
    let percent = total.percent_of(placed);
    let ranges = total
        .ranges
        .iter()
        .map(|r| format!("{}–{}", r.start, r.end.saturating_sub(1)))
        .collect::<Vec<_>>()
        .join(", ");
    let ranges = if ranges.is_empty() {
        "no buckets".to_string()
    } else {
        format!("buckets {ranges}")
    };
    html! {
        <li class="shard-card" data-shard={total.shard.to_string()} style={shard_style(total.shard)}>
            <div class="shard-head">
                <span class="shard-badge">{ format!("Shard {}", total.shard) }</span>
                <code class="fragment">{ total.fragment.clone() }</code>
            </div>
            <div class="shard-count">
                <strong class="documents">{ total.documents }</strong>
                { format!(" ID{}", plural(total.documents as u64)) }
                <span class="share">{ format!("{percent}%") }</span>
            </div>
            <div class="bar" aria-hidden="true"><span style={format!("width: {percent}%")}></span></div>
            <div class="shard-ranges">{ ranges }</div>
        </li>
    }
}
