//! The root component: owns the state and wires the other components to it.

use super::{IdEditor, ResultsTable, Rule, Settings, ShardSummary};
use crate::state::{Action, State};
use yew::prelude::*;

/// A callback that turns its input into an [`Action`] and dispatches it.
fn dispatcher<E: 'static>(
    state: &UseReducerHandle<State>,
    to_action: impl Fn(E) -> Action + 'static,
) -> Callback<E> {
    let state = state.clone();
    Callback::from(move |input: E| state.dispatch(to_action(input)))
}

/// The studio page: settings and the ID editor on the left, per-shard totals and the table
/// of IDs on the right.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);

    let on_ids = dispatcher(&state, Action::SetIds);
    let on_sample = dispatcher(&state, |()| Action::LoadSample);
    let on_clear = dispatcher(&state, |()| Action::ClearIds);
    let on_shards = dispatcher(&state, Action::SetShardCount);
    let on_database = dispatcher(&state, Action::SetDatabase);

    let analysis = state.analysis().clone();
    html! {
        <div class="studio">
            <header class="masthead">
                <h1>{ "ravenshard studio" }</h1>
                <p class="tagline">
                    { "Where a sharded RavenDB 6.x database stores each document: bucket, shard \
                       and fragment database, computed exactly." }
                </p>
            </header>
            <Rule />
            <main class="workspace">
                <aside class="inputs">
                    <Settings
                        shard_input={AttrValue::from(state.shard_input().to_string())}
                        shard_error={state.shard_error().map(|e| AttrValue::from(e.to_string()))}
                        shards={state.shards()}
                        database_input={AttrValue::from(state.database_input().to_string())}
                        database_error={state.database_error().map(|e| AttrValue::from(e.to_string()))}
                        database={AttrValue::from(state.database().to_string())}
                        {on_shards}
                        {on_database}
                    />
                    <IdEditor text={state.ids().clone()} {on_ids} {on_sample} {on_clear} />
                </aside>
                <section class="results" aria-label="Results">
                    <ShardSummary analysis={analysis.clone()} />
                    <ResultsTable {analysis} />
                </section>
            </main>
        </div>
    }
}
