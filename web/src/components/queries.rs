//! The query router: type RQL, see which shards get the query, lit on the block's bar, and
//! why (the core's `route`).

use super::{count, shard_style, ByPtr};
use crate::editors::{shard_colour, UNOWNED_COLOUR};
use crate::state::Action;
use ravenshard::decimal::fixed;
use ravenshard::route::Route;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use yew::prelude::*;

/// The chapter's queries, offered as examples.
pub const EXAMPLE_QUERIES: [&str; 5] = [
    "from Orders where id() = 'orders/1-A'",
    "from Orders where Customer = 'customers/1-A'",
    "from Orders where OrderedAt > $today limit 10 offset 5000",
    "from index 'Orders/ByCustomer' where Count < 10 limit 2",
    "from Customers where Address.State = 'WA' and Address.City = 'Seattle'",
];

/// Properties of [`QueriesView`].
#[derive(Properties, PartialEq)]
pub struct QueriesViewProps {
    /// The router's query.
    pub query: AttrValue,
    /// Where it goes, or why it cannot be read.
    pub route: ByPtr<Result<Route, String>>,
    /// The topology in force.
    pub topology: ByPtr<Topology>,
    /// Whether the configuration has `ByContent` (the chapter's design is on).
    pub design_on: bool,
    /// Where the query goes.
    pub on_action: Callback<Action>,
}

/// The router: a query field, examples, the shards lit and the reason.
#[function_component(QueriesView)]
pub fn queries_view(props: &QueriesViewProps) -> Html {
    let on = &props.on_action;
    let on_query = super::on_value::<InputEvent>(on, Action::SetRouterQuery);
    let example = |q: &'static str| {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| on.emit(Action::SetRouterQuery(q.to_string())))
    };
    html! {
        <div class="queries-view">
            <p class={classes!("design-note", props.design_on.then_some("on"))}>
                if props.design_on {
                    { "Routing by content follows the draft \"Sharding\" chapter's design (ByContent), not shipped RavenDB 6.x. " }
                } else {
                    { "No ByContent rules: like shipped RavenDB 6.x, only id() narrows a query. Add rules in the Content rules tab to try the chapter's design. " }
                }
            </p>
            <label for="rql" class="rql-label">{ "Query (RQL)" }</label>
            <textarea id="rql" class="rql" rows="2" spellcheck="false" value={props.query.clone()}
                oninput={on_query} placeholder="from Orders where Customer = 'customers/1-A'" />
            <div class="examples">
                <span class="hint">{ "The chapter's queries:" }</span>
                { for EXAMPLE_QUERIES.iter().map(|&q| html! {
                    <button type="button" class="link example" onclick={example(q)}>{ q }</button>
                }) }
            </div>
            if !props.query.trim().is_empty() {
                { match &*props.route.0 {
                    Err(message) => html! { <p class="rql-error" role="alert">{ message.clone() }</p> },
                    Ok(_) => html! { <RouteResult route={props.route.clone()} topology={props.topology.clone()} /> },
                } }
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct RouteResultProps {
    route: ByPtr<Result<Route, String>>,
    topology: ByPtr<Topology>,
}

/// The shards a route reaches, the default block's bar with them lit, the reason and costs.
#[function_component(RouteResult)]
fn route_result(props: &RouteResultProps) -> Html {
    let Ok(route) = &*props.route.0 else {
        return html! {};
    };
    let topology = &props.topology;
    let total = topology.shards().len();
    let lit = |shard: u32| route.shards.contains(&shard);
    // The bar: the ranges of the block the query's buckets are in (the default block when
    // it can match anywhere).
    let block = route
        .buckets
        .first()
        .map_or(0, |&(start, _)| start / NUMBER_OF_BUCKETS);
    let block_start = block * NUMBER_OF_BUCKETS;
    let percent = |bucket: u32| {
        f64::from(bucket.saturating_sub(block_start).min(NUMBER_OF_BUCKETS)) * 100.0
            / f64::from(NUMBER_OF_BUCKETS)
    };
    let segments = topology
        .ranges()
        .iter()
        .filter(|r| r.start / NUMBER_OF_BUCKETS == block)
        .map(|r| {
            let colour = if lit(r.shard) { shard_colour(r.shard) } else { UNOWNED_COLOUR };
            let style = format!(
                "left: {}%; width: {}%; background: {colour}",
                fixed(percent(r.start), 4),
                fixed(percent(r.end) - percent(r.start), 4)
            );
            html! {
                <div class={classes!("route-segment", lit(r.shard).then_some("lit"))} {style}
                    title={format!("buckets {}–{}: shard {}", r.start, r.end.saturating_sub(1), r.shard)} />
            }
        });
    let marks = route
        .buckets
        .iter()
        .filter(|&&(start, _)| start / NUMBER_OF_BUCKETS == block)
        .take(200)
        .map(|&(start, end)| {
            let style = format!(
                "left: {}%; width: max(2px, {}%)",
                fixed(percent(start), 4),
                fixed(percent(end) - percent(start), 4)
            );
            html! { <div class="route-mark" {style} title={format!("buckets {start}–{}", end.saturating_sub(1))} /> }
        });
    html! {
        <div class="route-result">
            <p class="route-shards">
                <strong class="route-count">{ format!("{} of {} shard{}", route.shards.len(), total, super::plural(total as u64)) }</strong>
                { for topology.shards().map(|s| html! {
                    <span class={classes!("shard-badge", "route-shard", (!lit(s.number)).then_some("dim"))}
                        data-shard={s.number.to_string()} style={shard_style(s.number)}
                        title={topology.fragment(s.number)}>{ s.number }</span>
                }) }
            </p>
            <div class="route-bar" aria-label="Bucket ranges of the block, the shards that get the query lit">
                { for segments }
                { for marks }
            </div>
            <p class="route-reason">{ route.reason.clone() }</p>
            if let Some(fetched) = route.fetched {
                <p class="route-fetched">{ format!("Documents fetched for one page: {} (shards × (offset + limit)).", count(fetched)) }</p>
            }
            { for route.warnings.iter().map(|w| html! { <p class="route-warning">{ w.clone() }</p> }) }
        </div>
    }
}
