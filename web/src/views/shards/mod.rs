//! The shards view: a bar chart of documents or bytes per shard with its balance, and one
//! card per shard (fragment).

use crate::state::{Metric, ViewAction};
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View, IMPORT_DRILL_DOWNS};
use crate::widgets::{bytes, count, percent, plural, shard_style};
use ravenshard_model::workspace::{BalanceVerdict, ShardSummary, Summary};
use std::rc::Rc;
use yew::prelude::*;

/// The most shards drawn (bars and cards); with more, the fullest are drawn.
pub const SHARDS_DRAWN: usize = 64;

/// The Shards tab ([`Tab::Shards`](crate::state::Tab::Shards)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::Works {
        coarse: IMPORT_DRILL_DOWNS,
    },
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    html! {
        <ShardsView summary={Rc::clone(state.summary())} metric={state.views().metric()}
            on_action={on.view.clone()} />
    }
}

/// Properties of [`ShardsView`].
#[derive(Properties, PartialEq)]
pub struct ShardsViewProps {
    /// What the placement holds, per shard.
    pub summary: Rc<Summary>,
    /// What the bars measure.
    pub metric: Metric,
    /// Where the metric toggle goes.
    pub on_action: Callback<ViewAction>,
}

fn verdict_text(
    verdict: Option<BalanceVerdict>,
    skew: Option<f64>,
    what: &str,
) -> (&'static str, String) {
    match (verdict, skew) {
        (Some(BalanceVerdict::Balanced), Some(s)) => ("balanced", format!("Balanced: the largest shard holds {s:.2}× the mean {what}.")),
        (Some(BalanceVerdict::Uneven), Some(s)) => ("uneven", format!("Uneven: the largest shard holds {s:.2}× the mean {what}.")),
        (Some(BalanceVerdict::Lopsided), Some(s)) => ("lopsided", format!("Lopsided: the largest shard holds {s:.2}× the mean {what}. Look at the anchored groups and the bucket ranges.")),
        _ => ("none", format!("No {what} to balance yet.")),
    }
}

/// Bars and cards per shard.
#[function_component(ShardsView)]
pub fn shards_view(props: &ShardsViewProps) -> Html {
    let p = &props.summary;
    let metric = props.metric;
    let load = |s: &ShardSummary| match metric {
        Metric::Documents => s.documents,
        Metric::Bytes => s.bytes,
    };
    let mut drawn: Vec<&ShardSummary> = p.shards.iter().collect();
    if drawn.len() > SHARDS_DRAWN {
        drawn.sort_by_key(|s| std::cmp::Reverse(load(s)));
        drawn.truncate(SHARDS_DRAWN);
        drawn.sort_by_key(|s| s.shard);
    }
    let max = drawn.iter().map(|s| load(s)).max().unwrap_or(0).max(1);
    let (balance, what) = match metric {
        Metric::Documents => (p.document_balance, "documents"),
        Metric::Bytes => (p.byte_balance, "bytes"),
    };
    let (class, text) = verdict_text(balance.verdict, balance.skew, what);
    let toggle = |m: Metric, label: &str| {
        html! {
            <button type="button" class={classes!("seg", (m == metric).then_some("active"), format!("metric-{}", label.to_ascii_lowercase()))}
                aria-pressed={(m == metric).to_string()}
                onclick={props.on_action.reform(move |_: MouseEvent| ViewAction::SetMetric(m))}>{ label.to_string() }</button>
        }
    };
    let without = p.totals.without_size;
    html! {
        <div class="shards-view">
            <div class="view-head">
                <div class="segmented" role="group" aria-label="Measure">
                    { toggle(Metric::Documents, "Documents") }
                    { toggle(Metric::Bytes, "Bytes") }
                </div>
                <p class={classes!("balance", class)}>{ text }</p>
            </div>
            if metric == Metric::Bytes && without > 0 {
                <p class="hint">{ format!("{} document{} without a known size count as 0 bytes.", count(without), plural(without)) }</p>
            }
            if p.shards.len() > SHARDS_DRAWN {
                <p class="hint">{ format!("{} shards: the {SHARDS_DRAWN} fullest are drawn.", p.shards.len()) }</p>
            }
            <ol class="bars" aria-label={format!("{what} per shard")}>
                { for drawn.iter().map(|s| {
                    let value = load(s);
                    let width = value as f64 / max as f64 * 100.0;
                    let share = match metric { Metric::Documents => s.document_share, Metric::Bytes => s.byte_share };
                    let label = match metric { Metric::Documents => count(value), Metric::Bytes => bytes(value) };
                    html! {
                        <li class="bar-row" data-shard={s.shard.to_string()} style={shard_style(s.shard)}>
                            <span class="bar-label">{ s.fragment.clone() }</span>
                            <span class="bar-track"><span class="bar-fill" style={format!("width: {:.2}%", width)}></span></span>
                            <span class="bar-value">{ label }<span class="share">{ percent(share) }</span></span>
                        </li>
                    }
                }) }
            </ol>
            <ol class="shard-cards">
                { for drawn.iter().map(|s| shard_card(s)) }
            </ol>
        </div>
    }
}

fn shard_card(s: &ShardSummary) -> Html {
    const RANGES_SHOWN: usize = 3;
    let mut ranges: Vec<String> = s
        .ranges
        .iter()
        .take(RANGES_SHOWN)
        .map(|r| format!("{}–{}", count(r.start), count(r.end.saturating_sub(1))))
        .collect();
    if s.ranges.len() > RANGES_SHOWN {
        ranges.push(format!("+{} more", s.ranges.len() - RANGES_SHOWN));
    }
    html! {
        <li class="shard-card" data-shard={s.shard.to_string()} style={shard_style(s.shard)}>
            <div class="shard-head">
                <span class="shard-badge">{ format!("Shard {}", s.shard) }</span>
                <code class="fragment">{ s.fragment.clone() }</code>
            </div>
            <div class="shard-count">
                <strong class="documents">{ count(s.documents) }</strong>
                { format!(" doc{}", plural(s.documents)) }
                <span class="share">{ percent(s.document_share) }</span>
            </div>
            <div class="shard-bytes">{ bytes(s.bytes) }</div>
            <div class="shard-ranges" title="Bucket ranges this shard owns">
                if ranges.is_empty() { { "no buckets" } } else { { format!("buckets {}", ranges.join(", ")) } }
            </div>
            <div class="shard-nodes">
                if s.nodes.is_empty() {
                    <span class="muted">{ "no nodes" }</span>
                }
                { for s.nodes.iter().map(|n| html! { <span class="node">{ n.clone() }</span> }) }
            </div>
        </li>
    }
}
