//! One row of the range editor's table: a range's start, end, size and shard, with its
//! split and merge buttons.

use super::edit::RangeEdit;
use crate::numbers::group_digits;
use crate::widgets::shard_colour;
use ravenshard::config::ShardBucketRange;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`RangeRow`].
#[derive(Properties, PartialEq)]
pub struct RangeRowProps {
    /// The range's index in the ranges shown.
    pub index: usize,
    /// The range.
    pub range: ShardBucketRange,
    /// One past its last bucket.
    pub end: u64,
    /// The bucket a split without a typed bucket splits it at (empty when none).
    pub middle: AttrValue,
    /// Whether a range of the same block follows it (it can be merged with it).
    pub has_next: bool,
    /// The shards it may be given.
    pub choices: Vec<u32>,
    /// Called with the range's index and its edit.
    pub on_edit: Callback<(usize, RangeEdit)>,
}

/// A range's row: its colour, its start (typed), end and size, its shard (chosen), a bucket
/// to split it at, *Split* and *Merge with next*.
#[function_component(RangeRow)]
pub fn range_row(props: &RangeRowProps) -> Html {
    let split_at = use_node_ref();
    let (i, range) = (props.index, props.range);
    let start = u64::from(range.bucket_range_start);
    let edit = |make: fn(Event) -> Option<RangeEdit>| {
        let on_edit = props.on_edit.clone();
        Callback::from(move |e: Event| {
            if let Some(edit) = make(e) {
                on_edit.emit((i, edit));
            }
        })
    };
    let on_start = edit(|e| {
        let input = e.target_dyn_into::<HtmlInputElement>()?;
        Some(RangeEdit::Start(input.value()))
    });
    let on_shard = edit(|e| {
        let select = e.target_dyn_into::<HtmlSelectElement>()?;
        Some(RangeEdit::Shard(select.value().parse().ok()?))
    });
    let on_split = {
        let (on_edit, split_at) = (props.on_edit.clone(), split_at.clone());
        Callback::from(move |_: MouseEvent| {
            let typed = split_at
                .cast::<HtmlInputElement>()
                .map(|input| input.value())
                .unwrap_or_default();
            on_edit.emit((i, RangeEdit::Split(typed)));
        })
    };
    let on_merge = {
        let on_edit = props.on_edit.clone();
        Callback::from(move |_: MouseEvent| on_edit.emit((i, RangeEdit::Merge)))
    };
    let end = props.end;
    html! {
        <tr data-range={i.to_string()}>
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
                    { for props.choices.iter().map(|&s| html! {
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
                    placeholder={props.middle.clone()}
                    spellcheck="false"
                    autocomplete="off"
                />
                <button type="button" class="split" onclick={on_split}
                    disabled={end.saturating_sub(start) < 2}>{ "Split" }</button>
                <button type="button" class="merge" onclick={on_merge}
                    disabled={!props.has_next}>{ "Merge with next" }</button>
            </td>
        </tr>
    }
}
