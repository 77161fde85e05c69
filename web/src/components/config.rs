//! The configuration panel: database name, shard count, nodes, replication factor and the
//! members of each shard; whether a custom configuration JSON is in force.

use super::{class_names, on_value, ByPtr};
use crate::state::{Action, ConfigProblem, MAX_SHARDS};
use ravenshard::Topology;
use yew::prelude::*;

/// Up to this many shards, each has a members field.
pub const MEMBER_FIELDS_UP_TO: usize = 32;

/// Properties of [`ConfigPanel`].
#[derive(Properties, PartialEq)]
pub struct ConfigPanelProps {
    /// The database name field.
    pub database_input: AttrValue,
    /// Why it is not applied.
    pub database_error: Option<AttrValue>,
    /// The shard count field.
    pub shard_input: AttrValue,
    /// Why it is not applied.
    pub shard_error: Option<AttrValue>,
    /// The nodes field.
    pub nodes_input: AttrValue,
    /// Why it is not applied.
    pub nodes_error: Option<AttrValue>,
    /// The replication factor field.
    pub rf_input: AttrValue,
    /// Why it is not applied.
    pub rf_error: Option<AttrValue>,
    /// Why members were not assigned or set.
    pub member_error: Option<AttrValue>,
    /// Whether the configuration came from JSON.
    pub custom: bool,
    /// A refused configuration JSON.
    pub config_problem: Option<ConfigProblem>,
    /// The topology in force.
    pub topology: ByPtr<Topology>,
    /// Where changes go.
    pub on_action: Callback<Action>,
}

fn field(id: &str, label: &str, input: Html, error: &Option<AttrValue>) -> Html {
    html! {
        <div class={class_names(&[Some("field"), error.is_some().then_some("invalid")])}>
            <label for={id.to_string()}>{ label.to_string() }</label>
            { input }
            if let Some(error) = error {
                <p id={format!("{id}-error")} class="field-error" role="alert">{ error.clone() }</p>
            }
        </div>
    }
}

/// The configuration fields; an invalid value is shown with its error and not applied.
#[function_component(ConfigPanel)]
pub fn config_panel(props: &ConfigPanelProps) -> Html {
    let on = &props.on_action;
    let topology = &props.topology;
    let shards: Vec<_> = topology.shards().collect();
    let on_assign = {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| on.emit(Action::AssignMembers))
    };
    html! {
        <section class="panel config" aria-label="Sharding configuration">
            <h2>{ "Configuration" }</h2>
            <div class="fields">
                { field("database", "Database", html! {
                    <input id="database" type="text" value={props.database_input.clone()}
                        oninput={on_value::<InputEvent>(on, Action::SetDatabase)}
                        spellcheck="false" autocomplete="off" />
                }, &props.database_error) }
                { field("shard-count", "Shards", html! {
                    <input id="shard-count" type="number" min="1" max={MAX_SHARDS.to_string()} step="1"
                        value={props.shard_input.clone()}
                        oninput={on_value::<InputEvent>(on, Action::SetShardCount)} />
                }, &props.shard_error) }
                { field("nodes", "Nodes", html! {
                    <input id="nodes" type="text" value={props.nodes_input.clone()}
                        oninput={on_value::<InputEvent>(on, Action::SetNodes)}
                        spellcheck="false" autocomplete="off" title="Node tags, separated by commas" />
                }, &props.nodes_error) }
                { field("replication-factor", "Replication", html! {
                    <input id="replication-factor" type="number" min="1" step="1"
                        value={props.rf_input.clone()}
                        oninput={on_value::<InputEvent>(on, Action::SetReplicationFactor)}
                        title="Copies of each shard, on distinct nodes" />
                }, &props.rf_error) }
            </div>
            if props.custom {
                <p class="custom-note">
                    { format!(
                        "Custom configuration: {} bucket range{}, {} prefix{}. Changing the shard count goes back to RavenDB's default ranges.",
                        topology.ranges().len(), super::plural(topology.ranges().len() as u64),
                        topology.prefixes().len(), if topology.prefixes().len() == 1 { "" } else { "es" }
                    ) }
                </p>
            }
            if let Some(problem) = &props.config_problem {
                <div class="config-error" role="alert">
                    <strong>{ "Configuration not applied: " }</strong>
                    { problem.message.clone() }
                    if let Some(path) = &problem.path {
                        <span class="path">{ " at " }<code>{ path.clone() }</code></span>
                    }
                </div>
            }
            { for topology.warnings().iter().map(|w| html! { <p class="config-warning">{ w.to_string() }</p> }) }
            <details class="members" open={shards.len() <= 8}>
                <summary>
                    { "Members per shard" }
                    <button type="button" class="assign" onclick={on_assign}
                        title="RavenDB's assignment at database creation">{ "Reassign" }</button>
                </summary>
                if let Some(error) = &props.member_error {
                    <p class="field-error" role="alert">{ error.clone() }</p>
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
                                        onchange={on_value::<Event>(&on, move |text| Action::SetMembers { shard, text })}
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
