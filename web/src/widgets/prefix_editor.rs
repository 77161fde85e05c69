//! The prefix editor: prefixed sharding settings and their shards.

use super::{emit_checked, shard_colour, validate};
use crate::numbers::group_digits;
use crate::widgets::with_value;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
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
    let new_prefix = use_state(String::new);
    let new_shards = use_state(BTreeSet::<u32>::new);
    let error = use_state(|| None::<String>);
    // Bumped on every edit so that checkboxes are rebuilt from the topology.
    let revision = use_state(|| 0u32);

    {
        let error = error.clone();
        use_effect_with(props.topology.clone(), move |_| error.set(None));
    }

    // Checks an edited configuration and emits it, or shows why not. `true` when emitted.
    let submit = {
        let topology = props.topology.clone();
        let on_change = props.on_change.clone();
        let error = error.clone();
        let revision = revision.clone();
        Rc::new(
            move |config: Option<ravenshard::config::ShardingConfiguration>| {
                revision.set(revision.wrapping_add(1));
                let Some(config) = config else {
                    return false;
                };
                emit_checked(validate(&topology, config), &error, &on_change)
            },
        )
    };

    let shards: Vec<u32> = props.topology.shards().map(|s| s.number).collect();
    let config = Rc::new(props.topology.to_configuration());

    let on_prefix = {
        let new_prefix = new_prefix.clone();
        with_value::<InputEvent>(move |value| new_prefix.set(value))
    };
    let on_add = {
        let submit = submit.clone();
        let config = config.clone();
        let new_prefix = new_prefix.clone();
        let new_shards = new_shards.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let shards: Vec<u32> = new_shards.iter().copied().collect();
            if submit(Some(add_prefix(&config, &new_prefix, &shards))) {
                new_prefix.set(String::new());
                new_shards.set(BTreeSet::new());
            }
        })
    };

    let rows = props.topology.prefixes().iter().enumerate().map(|(index, prefix)| {
        let on_remove = {
            let submit = submit.clone();
            let config = config.clone();
            Callback::from(move |_: MouseEvent| {
                submit(remove_prefix(&config, index));
            })
        };
        let boxes = shards.iter().map(|&shard| {
            let checked = prefix.shards.contains(&shard);
            let onchange = {
                let submit = submit.clone();
                let config = config.clone();
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
                <label class="shard-choice" key={format!("{}-{index}-{shard}", *revision)}>
                    <input type="checkbox" class="prefix-shard" data-shard={shard.to_string()}
                        {checked} {onchange} />
                    <span class="swatch" style={format!("background: {}", shard_colour(shard))} />
                    { shard.to_string() }
                </label>
            }
        });
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
    });

    let new_boxes = shards.iter().map(|&shard| {
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
    });
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
                        next_start / NUMBER_OF_BUCKETS,
                        group_digits(u64::from(next_start))
                    ) }
                </p>
            </form>
            // A stable wrapper: the message appearing must not make yew rebuild the form.
            <div class="prefix-editor-messages">
                if let Some(message) = error.as_ref() {
                    <p class="editor-error" role="alert">{ message.clone() }</p>
                }
            </div>
        </section>
    }
}
