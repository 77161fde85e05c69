//! The prefix editor: prefixed sharding settings and their shards.

use super::checked_edits::{use_checked_edits, Submit};
use super::editor_error::EditorMessages;
use super::{shard_colour, validate};
use crate::numbers::group_digits;
use crate::widgets::with_value;
use ravenshard::config::ShardingConfiguration;
use ravenshard::{Prefix, Topology, NUMBER_OF_BUCKETS};
use ravenshard_reshard::prefixes::{
    add_prefix, next_prefix_block_start, remove_prefix, set_prefix_shards,
};
use std::collections::BTreeSet;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`PrefixEditor`].
#[derive(Properties, PartialEq)]
pub struct PrefixEditorProps {
    /// The topology whose prefixes are edited.
    pub topology: Rc<Topology>,
    /// Called with the whole new configuration (`ShardingConfiguration` JSON) after an
    /// edit the core accepts.
    pub on_change: Callback<String>,
}

/// The prefixes in matching order, each with a checkbox per shard and a "Remove" button,
/// and a form to add one. A new prefix gets its block as RavenDB gives it
/// ([`add_prefix`]); removing a prefix removes its block's ranges. Every edit is checked
/// by the core: a valid one is emitted, an invalid one is shown with RavenDB's message.
#[function_component(PrefixEditor)]
pub fn prefix_editor(props: &PrefixEditorProps) -> Html {
    let edits = use_checked_edits(&props.topology, &props.on_change, validate);
    let shards: Vec<u32> = props.topology.shards().map(|s| s.number).collect();
    let config = Rc::new(props.topology.to_configuration());
    let on_add = {
        let (submit, config) = (edits.submit.clone(), config.clone());
        Callback::from(move |(prefix, shards): (String, Vec<u32>)| {
            submit(Some(add_prefix(&config, &prefix, &shards)))
        })
    };
    let row = Row {
        shards: &shards,
        config: &config,
        submit: &edits.submit,
        revision: edits.revision,
    };
    let rows = props
        .topology
        .prefixes()
        .iter()
        .enumerate()
        .map(|(index, prefix)| row.view(index, prefix));
    let next_start = next_prefix_block_start(&config.prefixed);
    html! {
        <section class="prefix-editor" aria-label="Prefixes">
            if props.topology.prefixes().is_empty() {
                <p class="hint empty">{ "No prefixes: every document uses the default block." }</p>
            } else {
                <ul class="prefix-list">
                    { for rows }
                </ul>
            }
            <PrefixAdd shards={shards.clone()} {next_start} {on_add} />
            <EditorMessages class="prefix-editor-messages" error={edits.error.as_ref().map(|e| AttrValue::from(e.clone()))} />
        </section>
    }
}

/// What every prefix's row is made with.
struct Row<'a> {
    shards: &'a [u32],
    config: &'a Rc<ShardingConfiguration>,
    submit: &'a Submit,
    revision: u32,
}

impl Row<'_> {
    /// The row of prefix `index`: its name, block, a checkbox per shard and Remove.
    fn view(&self, index: usize, prefix: &Prefix) -> Html {
        let on_remove = {
            let (submit, config) = (self.submit.clone(), self.config.clone());
            Callback::from(move |_: MouseEvent| {
                submit(remove_prefix(&config, index));
            })
        };
        let boxes = self
            .shards
            .iter()
            .map(|&shard| self.shard_box(index, prefix, shard));
        let block = prefix.bucket_range_start / NUMBER_OF_BUCKETS;
        html! {
            <li class="prefix" data-prefix={prefix.prefix.clone()} key={prefix.prefix.clone()}>
                <code class="prefix-name">{ prefix.prefix.clone() }</code>
                <span class="prefix-block">
                    { format!("block {block}, from {}", group_digits(u64::from(prefix.bucket_range_start))) }
                </span>
                <span class="prefix-shards" role="group" aria-label={format!("Shards of {}", prefix.prefix)}>
                    { for boxes }
                </span>
                <button type="button" class="remove" onclick={on_remove}
                    title="Remove the prefix and its block's ranges">{ "Remove" }</button>
            </li>
        }
    }

    /// The checkbox of `shard` in prefix `index`'s row: checking it gives the prefix the
    /// shard, unchecking it takes the shard away.
    fn shard_box(&self, index: usize, prefix: &Prefix, shard: u32) -> Html {
        let checked = prefix.shards.contains(&shard);
        let onchange = {
            let (submit, config) = (self.submit.clone(), self.config.clone());
            let current = prefix.shards.clone();
            Callback::from(move |_: Event| {
                let mut next: Vec<u32> = current.iter().copied().filter(|&s| s != shard).collect();
                if !checked {
                    next.push(shard);
                    next.sort();
                }
                submit(set_prefix_shards(&config, index, next));
            })
        };
        html! {
            <label class="shard-choice" key={format!("{}-{index}-{shard}", self.revision)}>
                <input type="checkbox" class="prefix-shard" data-shard={shard.to_string()}
                    {checked} {onchange} />
                <span class="swatch" style={format!("background: {}", shard_colour(shard))} />
                { shard.to_string() }
            </label>
        }
    }
}

/// Properties of [`PrefixAdd`].
#[derive(Properties, PartialEq)]
struct PrefixAddProps {
    /// The shards a new prefix may get.
    shards: Vec<u32>,
    /// The first bucket of the block a new prefix gets.
    next_start: u32,
    /// Called with the new prefix and its shards; `true` when the edit was emitted (the
    /// form is then emptied).
    on_add: Callback<(String, Vec<u32>), bool>,
}

/// The form that adds a prefix: its text, a checkbox per shard, and *Add prefix*.
#[function_component(PrefixAdd)]
fn prefix_add(props: &PrefixAddProps) -> Html {
    let new_prefix = use_state(String::new);
    let new_shards = use_state(BTreeSet::<u32>::new);
    let on_prefix = {
        let new_prefix = new_prefix.clone();
        with_value::<InputEvent>(move |value| new_prefix.set(value))
    };
    let on_add = {
        let (new_prefix, new_shards) = (new_prefix.clone(), new_shards.clone());
        let on_add = props.on_add.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let shards: Vec<u32> = new_shards.iter().copied().collect();
            if on_add.emit(((*new_prefix).clone(), shards)) {
                new_prefix.set(String::new());
                new_shards.set(BTreeSet::new());
            }
        })
    };
    let new_boxes = props
        .shards
        .iter()
        .map(|&shard| new_shard_box(&new_shards, shard));
    html! {
        <form class="prefix-add" onsubmit={on_add}>
            <label>
                { "Prefix " }
                <input
                    type="text"
                    class="new-prefix"
                    value={(*new_prefix).clone()}
                    oninput={on_prefix}
                    placeholder="eu/"
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                />
            </label>
            <span class="prefix-shards" role="group" aria-label="Shards of the new prefix">
                { for new_boxes }
            </span>
            <button type="submit" class="add">{ "Add prefix" }</button>
            <p class="hint">
                { format!(
                    "A prefix ends with '/' or '-'. It gets block {} (from {}), split evenly over its shards.",
                    props.next_start / NUMBER_OF_BUCKETS,
                    group_digits(u64::from(props.next_start))
                ) }
            </p>
        </form>
    }
}

/// The new prefix's checkbox of `shard`.
fn new_shard_box(new_shards: &UseStateHandle<BTreeSet<u32>>, shard: u32) -> Html {
    let checked = new_shards.contains(&shard);
    let onchange = {
        let new_shards = new_shards.clone();
        Callback::from(move |e: Event| {
            let on = e
                .target_dyn_into::<HtmlInputElement>()
                .map_or(!checked, |input| input.checked());
            let mut next = (*new_shards).clone();
            if on {
                next.insert(shard);
            } else {
                next.remove(&shard);
            }
            new_shards.set(next);
        })
    };
    html! {
        <label class="shard-choice">
            <input type="checkbox" class="new-prefix-shard" data-shard={shard.to_string()}
                {checked} {onchange} />
            <span class="swatch" style={format!("background: {}", shard_colour(shard))} />
            { shard.to_string() }
        </label>
    }
}
