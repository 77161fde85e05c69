//! The configuration panel: database name, shard count, nodes, replication factor and the
//! members of each shard; whether a custom configuration JSON is in force.

use crate::state::config::ConfigProblem;
use crate::state::{ConfigAction, ConfigState, Field, MAX_SHARDS};
use crate::widgets::{on_value, ByPtr};
use yew::prelude::*;

/// Up to this many shards, each has a members field.
pub const MEMBER_FIELDS_UP_TO: usize = 32;

/// Properties of [`ConfigPanel`].
#[derive(Properties, PartialEq)]
pub struct ConfigPanelProps {
    /// The configuration's fields and the topology in force.
    pub config: ByPtr<ConfigState>,
    /// Where changes go.
    pub on_action: Callback<ConfigAction>,
}

/// A labelled input with its error under it.
fn field<T>(id: &str, label: &str, input: Html, field: &Field<T>) -> Html {
    html! {
        <div class={classes!("field", (!field.is_valid()).then_some("invalid"))}>
            <label for={id.to_string()}>{ label.to_string() }</label>
            { input }
            if let Some(error) = field.error() {
                <p id={format!("{id}-error")} class="field-error" role="alert">{ error.clone() }</p>
            }
        </div>
    }
}

/// The configuration fields; an invalid value is shown with its error and not applied.
#[function_component(ConfigPanel)]
pub fn config_panel(props: &ConfigPanelProps) -> Html {
    let on = &props.on_action;
    let config = &props.config;
    let topology = config.topology();
    let shards: Vec<_> = topology.shards().collect();
    let on_assign = on.reform(|_: MouseEvent| ConfigAction::AssignMembers);
    html! {
        <section class="panel config" aria-label="Sharding configuration">
            <h2>{ "Configuration" }</h2>
            <div class="fields">
                { field("database", "Database", html! {
                    <input id="database" type="text" value={config.database().text().clone()}
                        oninput={on_value::<InputEvent, _>(on, ConfigAction::SetDatabase)}
                        spellcheck="false" autocomplete="off" />
                }, config.database()) }
                { field("shard-count", "Shards", html! {
                    <input id="shard-count" type="number" min="1" max={MAX_SHARDS.to_string()} step="1"
                        value={config.shards().text().clone()}
                        oninput={on_value::<InputEvent, _>(on, ConfigAction::SetShardCount)} />
                }, config.shards()) }
                { field("nodes", "Nodes", html! {
                    <input id="nodes" type="text" value={config.nodes().text().clone()}
                        oninput={on_value::<InputEvent, _>(on, ConfigAction::SetNodes)}
                        spellcheck="false" autocomplete="off" title="Node tags, separated by commas" />
                }, config.nodes()) }
                { field("replication-factor", "Replication", html! {
                    <input id="replication-factor" type="number" min="1" step="1"
                        value={config.replication_factor().text().clone()}
                        oninput={on_value::<InputEvent, _>(on, ConfigAction::SetReplicationFactor)}
                        title="Copies of each shard, on distinct nodes" />
                }, config.replication_factor()) }
            </div>
            if config.custom() {
                <p class="custom-note">
                    { format!(
                        "Custom configuration: {} bucket range{}, {} prefix{}. Changing the shard count goes back to RavenDB's default ranges.",
                        topology.ranges().len(), crate::widgets::plural(topology.ranges().len() as u64),
                        topology.prefixes().len(), if topology.prefixes().len() == 1 { "" } else { "es" }
                    ) }
                </p>
            }
            { for config.problem().map(problem_alert) }
            { for topology.warnings().iter().map(|w| html! { <p class="config-warning">{ w.to_string() }</p> }) }
            <details class="members" open={shards.len() <= 8}>
                <summary>{ "Members per shard" }</summary>
                <button type="button" class="assign" onclick={on_assign}
                    title="RavenDB's assignment at database creation">{ "Reassign" }</button>
                if let Some(error) = config.member_error() {
                    <p class="field-error" role="alert">{ error.to_string() }</p>
                }
                if shards.len() <= MEMBER_FIELDS_UP_TO {
                    <ul class="member-list">
                        { for shards.iter().map(|s| {
                            let shard = s.number;
                            let on = on.clone();
                            html! {
                                <li class="member-row" data-shard={shard.to_string()}>
                                    <label for={format!("members-{shard}")}>{ topology.fragment(shard) }</label>
                                    <input id={format!("members-{shard}")} type="text"
                                        value={s.members.join(", ")}
                                        onchange={on_value::<Event, _>(&on, move |text| ConfigAction::SetMembers { shard, text })}
                                        spellcheck="false" autocomplete="off" />
                                </li>
                            }
                        }) }
                    </ul>
                } else {
                    <p class="hint">{ format!("{} shards: members are assigned by RavenDB's algorithm; see Nodes × shards.", shards.len()) }</p>
                }
            </details>
        </section>
    }
}

/// Why the configuration typed is not applied, and where.
fn problem_alert(problem: &ConfigProblem) -> Html {
    html! {
        <div class="config-error" role="alert">
            <strong>{ "Configuration not applied: " }</strong>
            { problem.message.clone() }
            if let Some(path) = &problem.path {
                <span class="path">{ " at " }<code>{ path.clone() }</code></span>
            }
        </div>
    }
}
