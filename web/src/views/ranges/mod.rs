//! The Ranges & prefixes view: the editors of the configuration, applied through the state.

use crate::state::{ConfigAction, ConfigProblem};
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::ByPtr;
use crate::widgets::{ConfigJson, PrefixEditor, RangeEditor};
use ravenshard::Topology;
use std::rc::Rc;
use yew::prelude::*;

/// The Ranges & prefixes tab ([`Tab::Ranges`](crate::state::Tab::Ranges)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::Unaffected,
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    html! {
        <RangesView topology={ByPtr(state.config().topology().clone())}
            problem={state.config().problem().cloned()} on_action={on.config.clone()} />
    }
}

/// Properties of [`RangesView`].
#[derive(Properties, PartialEq)]
pub struct RangesViewProps {
    /// The configuration in force.
    pub topology: ByPtr<Topology>,
    /// Why the last configuration given was not applied, if it was not.
    pub problem: Option<ConfigProblem>,
    /// Where a changed configuration goes.
    pub on_action: Callback<ConfigAction>,
}

/// Bucket ranges, prefixes and the RavenDB JSON of the configuration. Every editor emits a
/// whole `ShardingConfiguration`; the state validates it and applies it or shows why not.
#[function_component(RangesView)]
pub fn ranges_view(props: &RangesViewProps) -> Html {
    let topology = Rc::clone(&props.topology.0);
    let on_change = props.on_action.reform(ConfigAction::SetJson);
    let error = props
        .problem
        .as_ref()
        .map(|p| AttrValue::from(p.message.clone()));
    html! {
        <div class="ranges-view">
            <p class="hint">
                { "Shape the configuration as RavenDB holds it: move range boundaries, give \
                   ranges to shards, add prefixes. Every view updates when a valid change is \
                   applied; an invalid one is shown here with RavenDB's message." }
            </p>
            <RangeEditor topology={Rc::clone(&topology)} on_change={on_change.clone()} />
            <PrefixEditor topology={Rc::clone(&topology)} on_change={on_change.clone()} />
            <ConfigJson {topology} {error} on_apply={on_change} />
        </div>
    }
}
