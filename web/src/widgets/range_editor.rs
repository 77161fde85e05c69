//! The bucket range editor: a block's ranges as a bar and a table.

use super::geometry::BLOCK_LEN;
use super::range_bar::RangeBar;
use super::ranges::{
    assign_shard, merge_with_next, middle_of, parse_bucket, range_end, ranges_in_block,
    set_boundary, split_range, RangeEditError,
};
use super::{blocks, shard_colour, validate};
use crate::numbers::group_digits;
use crate::widgets::with_value;
use ravenshard::config::ShardBucketRange;
use ravenshard::Topology;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`RangeEditor`].
#[derive(Properties, PartialEq)]
pub struct RangeEditorProps {
    /// The topology whose bucket ranges are edited.
    pub topology: Rc<Topology>,
    /// Called with the whole new configuration (`ShardingConfiguration` JSON) after an
    /// edit the core accepts.
    pub on_change: Callback<String>,
}

/// An edit of the ranges shown: the edited ranges, or why the edit has no meaning.
type RangeEdit<'a> =
    &'a dyn Fn(&[ShardBucketRange]) -> Result<Vec<ShardBucketRange>, RangeEditError>;

/// An edit the core refused: the edited ranges, shown, and why.
#[derive(Debug, Clone, PartialEq)]
struct Draft {
    ranges: Vec<ShardBucketRange>,
    error: String,
}

/// The bucket ranges of one block (chosen with a selector): a bar over the block's 2^20
/// buckets, whose boundaries can be dragged or moved with the arrow keys (`RangeBar`), and
/// a table where a range can be split (at its middle or a typed bucket), merged with the
/// next one, moved (its start typed) and given to another shard. Every edit is checked by
/// the core: a valid one is emitted, an invalid one is shown with the core's message until
/// it is fixed or reverted.
#[function_component(RangeEditor)]
pub fn range_editor(props: &RangeEditorProps) -> Html {
    let block = use_state(|| 0u32);
    let draft = use_state(|| None::<Draft>);
    // Bumped on every edit so that the inputs are rebuilt from the ranges shown.
    let revision = use_state(|| 0u32);

    {
        let draft = draft.clone();
        use_effect_with(props.topology.clone(), move |_| draft.set(None));
    }

    let committed = props.topology.to_configuration().bucket_ranges;
    let ranges: Vec<ShardBucketRange> = draft
        .as_ref()
        .map_or_else(|| committed.clone(), |d| d.ranges.clone());
    let blocks = blocks(&props.topology);
    let current = blocks
        .iter()
        .find(|b| b.number() == *block)
        .or_else(|| blocks.first())
        .cloned();
    let Some(current) = current else {
        return html! {};
    };

    // Applies an edit to the ranges shown; emits it when the core accepts it.
    let apply = {
        let topology = props.topology.clone();
        let on_change = props.on_change.clone();
        let draft = draft.clone();
        let revision = revision.clone();
        let ranges = ranges.clone();
        Rc::new(move |edit: RangeEdit<'_>| {
            revision.set(revision.wrapping_add(1));
            match edit(&ranges) {
                Err(e) => draft.set(Some(Draft {
                    ranges: ranges.clone(),
                    error: e.to_string(),
                })),
                Ok(edited) => {
                    let mut config = topology.to_configuration();
                    config.bucket_ranges = edited.clone();
                    match validate(&topology, config) {
                        Ok(json) => {
                            draft.set(None);
                            on_change.emit(json);
                        }
                        Err(error) => draft.set(Some(Draft {
                            ranges: edited,
                            error,
                        })),
                    }
                }
            }
        })
    };

    let on_block = {
        let block = block.clone();
        with_value::<Event>(move |value| {
            if let Ok(n) = value.parse::<u32>() {
                block.set(n);
            }
        })
    };
    let revert = {
        let draft = draft.clone();
        let revision = revision.clone();
        Callback::from(move |_: MouseEvent| {
            draft.set(None);
            revision.set(revision.wrapping_add(1));
        })
    };

    let shard_choices: Vec<u32> = current
        .shards
        .clone()
        .map(|mut s| {
            s.sort();
            s.dedup();
            s
        })
        .unwrap_or_else(|| props.topology.shards().map(|s| s.number).collect());
    let indices = ranges_in_block(&ranges, current.number());
    let block_start = u64::from(current.start);

    let on_move = {
        let apply = apply.clone();
        Callback::from(move |(i, start): (usize, u32)| {
            apply(&|r: &[ShardBucketRange]| set_boundary(r, i, start));
        })
    };

    let rows = indices.iter().enumerate().map(|(position, &i)| {
        let range = ranges[i];
        let start = u64::from(range.bucket_range_start);
        let end = range_end(&ranges, i).unwrap_or(start);
        let has_next = indices.get(position + 1).is_some();
        let middle = middle_of(&ranges, i).map(|m| m.to_string()).unwrap_or_default();
        let split_at = NodeRef::default();

        let on_start = {
            let apply = apply.clone();
            Callback::from(move |e: Event| {
                let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
                    return;
                };
                let text = input.value();
                apply(&|r: &[ShardBucketRange]| set_boundary(r, i, parse_bucket(&text)?));
            })
        };
        let on_shard = {
            let apply = apply.clone();
            Callback::from(move |e: Event| {
                let Some(select) = e.target_dyn_into::<HtmlSelectElement>() else {
                    return;
                };
                let Ok(shard) = select.value().parse::<u32>() else {
                    return;
                };
                apply(&|r: &[ShardBucketRange]| assign_shard(r, i, shard));
            })
        };
        let on_split = {
            let apply = apply.clone();
            let split_at = split_at.clone();
            Callback::from(move |_: MouseEvent| {
                let typed = split_at
                    .cast::<HtmlInputElement>()
                    .map(|input| input.value())
                    .unwrap_or_default();
                apply(&|r: &[ShardBucketRange]| {
                    let at = if typed.trim().is_empty() {
                        None
                    } else {
                        Some(parse_bucket(&typed)?)
                    };
                    split_range(r, i, at)
                });
            })
        };
        let on_merge = {
            let apply = apply.clone();
            Callback::from(move |_: MouseEvent| {
                apply(&|r: &[ShardBucketRange]| merge_with_next(r, i));
            })
        };
        let mut choices = shard_choices.clone();
        if !choices.contains(&range.shard_number) {
            choices.push(range.shard_number);
        }
        html! {
            <tr key={format!("{}-{i}", *revision)} data-range={i.to_string()}>
                <td class="range-colour">
                    <span class="swatch" style={format!("background: {}", shard_colour(range.shard_number))} />
                </td>
                <td class="start">
                    <input
                        type="text"
                        inputmode="numeric"
                        class="range-start"
                        aria-label={format!("Start of range {i}")}
                        value={range.bucket_range_start.to_string()}
                        onchange={on_start}
                        spellcheck="false"
                        autocomplete="off"
                    />
                </td>
                <td class="end">{ end.to_string() }</td>
                <td class="size">{ group_digits(end.saturating_sub(start)) }</td>
                <td class="shard">
                    <select class="range-shard" aria-label={format!("Shard of range {i}")} onchange={on_shard}>
                        { for choices.iter().map(|&s| html! {
                            <option value={s.to_string()} selected={s == range.shard_number}>
                                { format!("shard {s}") }
                            </option>
                        }) }
                    </select>
                </td>
                <td class="actions">
                    <input
                        ref={split_at}
                        type="text"
                        inputmode="numeric"
                        class="split-at"
                        aria-label={format!("Split range {i} at bucket")}
                        placeholder={middle}
                        spellcheck="false"
                        autocomplete="off"
                    />
                    <button type="button" class="split" onclick={on_split}
                        disabled={end.saturating_sub(start) < 2}>{ "Split" }</button>
                    <button type="button" class="merge" onclick={on_merge}
                        disabled={!has_next}>{ "Merge with next" }</button>
                </td>
            </tr>
        }
    });

    html! {
        <section class="range-editor" aria-label="Bucket ranges">
            <div class="range-editor-head">
                <label>
                    { "Block " }
                    <select class="block-select" onchange={on_block}>
                        { for blocks.iter().map(|b| html! {
                            <option value={b.number().to_string()} selected={b.number() == current.number()}>
                                { format!("{} (block {}, from {})", b.label, b.number(), group_digits(u64::from(b.start))) }
                            </option>
                        }) }
                    </select>
                </label>
                <span class="hint">
                    { format!(
                        "Buckets {} – {}; a range runs from its start to the next range's start.",
                        group_digits(block_start),
                        group_digits(block_start + BLOCK_LEN - 1)
                    ) }
                </span>
            </div>
            <RangeBar ranges={ranges.clone()} block={current.number()} {on_move} />
            // A stable wrapper: the message appearing must not make yew rebuild the table.
            <div class="range-editor-messages">
                if let Some(d) = draft.as_ref() {
                    <div class="editor-error" role="alert">
                        <p class="message">{ d.error.clone() }</p>
                        <p class="hint">{ "Not applied. Fix the value or revert." }</p>
                        <button type="button" class="revert" onclick={revert}>{ "Revert" }</button>
                    </div>
                }
            </div>
            <table class="range-table">
                <thead>
                    <tr>
                        <th />
                        <th scope="col">{ "Start" }</th>
                        <th scope="col" title="One past the last bucket">{ "End" }</th>
                        <th scope="col">{ "Buckets" }</th>
                        <th scope="col">{ "Shard" }</th>
                        <th scope="col">{ "Edit" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for rows }
                </tbody>
            </table>
        </section>
    }
}
