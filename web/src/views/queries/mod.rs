//! The query router: type RQL, see which shards get the query, lit on the block's bar, and
//! why (the core's `route`).

mod locality;

pub use locality::{LocalityView, LocalityViewProps};

use crate::state::MAX_TRANSACTION_IDS;
use crate::state::{DesignAction, DesignState};
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::{count, shard_style, ByPtr};
use crate::widgets::{BucketMap, MapDocuments};
use crate::workers::host::{self, Answered};
use ravenshard::Topology;
use ravenshard_design::route::Route;
use ravenshard_model::host::question::{Page, RowData, Rows};
use ravenshard_model::workspace::RowQuery;
use std::rc::Rc;
use yew::prelude::*;

/// The chapter's queries, offered as examples.
pub const EXAMPLE_QUERIES: [&str; 5] = [
    "from Orders where id() = 'orders/1-A'",
    "from Orders where Customer = 'customers/1-A'",
    "from Orders where OrderedAt > $today limit 10 offset 5000",
    "from index 'Orders/ByCustomer' where Count < 10 limit 2",
    "from Customers where Address.State = 'WA' and Address.City = 'Seattle'",
];

/// The Queries tab ([`Tab::Queries`](crate::state::Tab::Queries)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::NeedsIds("the query router's documents"),
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    let design = || ByPtr(state.design().clone());
    html! {
        <>
        <QueriesView design={design()} version={state.changes()} on_action={on.design.clone()} />
        <LocalityView design={design()} on_action={on.design.clone()}
            on_use_shown={use_shown(state.views().query(), &on.design)} />
        </>
    }
}

/// Properties of [`QueriesView`].
#[derive(Properties, PartialEq)]
pub struct QueriesViewProps {
    /// The router's query and route, over the configuration in force and its design.
    pub design: ByPtr<DesignState>,
    /// The number of the workspace's last change ([`State::changes`](crate::views::state::State::changes)) (its documents are drawn on the bucket map).
    pub version: u64,
    /// Where the query goes.
    pub on_action: Callback<DesignAction>,
}

/// The router: a query field, examples, the shards lit and the reason.
#[function_component(QueriesView)]
pub fn queries_view(props: &QueriesViewProps) -> Html {
    let on = &props.on_action;
    let design = &props.design;
    let design_on = design.design().is_some();
    let on_query = crate::widgets::on_value::<InputEvent, _>(on, DesignAction::SetQuery);
    let example =
        |q: &'static str| on.reform(move |_: MouseEvent| DesignAction::SetQuery(q.into()));
    let route = ByPtr(design.route());
    html! {
        <div class="queries-view">
            <p class={classes!("design-note", design_on.then_some("on"))}>
                if design_on {
                    { "Routing by content follows the draft \"Sharding\" chapter's design (ByContent), not shipped RavenDB 7.x. " }
                } else {
                    { "No ByContent rules: like shipped RavenDB 7.x, only id() narrows a query. Add rules in the Content rules tab to try the chapter's design. " }
                }
            </p>
            <label for="rql" class="rql-label">{ "Query (RQL)" }</label>
            <textarea id="rql" class="rql" rows="2" spellcheck="false" value={design.query().to_string()}
                oninput={on_query} placeholder="from Orders where Customer = 'customers/1-A'" />
            <div class="examples">
                <span class="hint">{ "The chapter's queries:" }</span>
                { for EXAMPLE_QUERIES.iter().map(|&q| html! {
                    <button type="button" class="link example" onclick={example(q)}>{ q }</button>
                }) }
            </div>
            if !design.query().trim().is_empty() {
                { match &*route.0 {
                    Err(message) => html! { <p class="rql-error" role="alert">{ message.clone() }</p> },
                    Ok(_) => html! { <RouteResult route={route.clone()} topology={ByPtr(design.topology().clone())}
                        version={props.version} marked={ByPtr(design.marked())} /> },
                } }
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct RouteResultProps {
    route: ByPtr<Result<Route, String>>,
    topology: ByPtr<Topology>,
    version: u64,
    marked: ByPtr<Vec<u32>>,
}

/// The shards a route reaches, the default block's bar with them lit, the reason and costs.
#[function_component(RouteResult)]
fn route_result(props: &RouteResultProps) -> Html {
    let Ok(route) = &*props.route.0 else {
        return html! {};
    };
    let topology = &props.topology;
    let total = topology.shards().len();
    let is_lit = |shard: u32| route.shards.contains(&shard);
    let lit = Rc::new(route.shards.clone());
    html! {
        <div class="route-result">
            <p class="route-shards">
                <strong class="route-count">{ format!("{} of {} shard{}", route.shards.len(), total, crate::widgets::plural(total as u64)) }</strong>
                { for topology.shards().map(|s| html! {
                    <span class={classes!("shard-badge", "route-shard", (!is_lit(s.number)).then_some("dim"))}
                        data-shard={s.number.to_string()} style={shard_style(s.number)}
                        title={topology.fragment(s.number)}>{ s.number }</span>
                }) }
            </p>
            <div class="route-map" aria-label="The bucket map: the shards that get the query in colour, the buckets it can match marked">
                <BucketMap topology={Rc::clone(&topology.0)} documents={MapDocuments::Host { version: props.version, configuration: None }}
                    highlight={Some(Rc::clone(&props.marked.0))} lit_shards={Some(lit)}
                    on_select_bucket={Callback::noop()} />
            </div>
            <p class="route-reason">{ route.reason.clone() }</p>
            if let Some(fetched) = route.fetched {
                <p class="route-fetched">{ format!("Documents fetched for one page: {} (shards × (offset + limit)).", count(fetched)) }</p>
            }
            { for route.warnings.iter().map(|w| html! { <p class="route-warning">{ w.clone() }</p> }) }
        </div>
    }
}

/// Checks a transaction over the first [`MAX_TRANSACTION_IDS`] documents the documents
/// view shows (its query's rows, asked of the workspace's host).
fn use_shown(query: &RowQuery, design: &Callback<DesignAction>) -> Callback<()> {
    let (query, design) = (query.clone(), design.clone());
    Callback::from(move |()| {
        let question = Rows {
            query: query.clone(),
            from: 0,
            count: MAX_TRANSACTION_IDS as u64,
        };
        let design = design.clone();
        let on_answer = Callback::from(move |answered: Answered<Page<RowData>>| {
            let rows = answered.answer.items.iter();
            let ids: String = rows.map(|r| format!("{}\n", r.id)).collect();
            design.emit(DesignAction::SetTransactionIds(ids));
        });
        host::ask(question, on_answer);
    })
}
