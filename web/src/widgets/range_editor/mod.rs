//! The bucket range editor: a block's ranges as a bar and a table. The component
//! ([`RangeEditor`]) keeps the block shown and the draft; each row is a [`row::RangeRow`];
//! the edits are pure ([`edit`]).

mod edit;
mod row;

use super::editor_error::EditorMessages;
use super::geometry::BLOCK_LEN;
use super::range_bar::RangeBar;
use super::ranges::{middle_of, range_end, ranges_in_block};
use super::{blocks, BlockInfo};
use crate::numbers::group_digits;
use crate::widgets::with_value;
use edit::{check_edit, Draft, RangeEdit};
use ravenshard::config::ShardBucketRange;
use ravenshard::Topology;
use row::RangeRow;
use std::rc::Rc;
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

/// The bucket ranges of one block (chosen with a selector): a bar over the block's 2^20
/// buckets, whose boundaries can be dragged or moved with the arrow keys (`RangeBar`), and
/// a table where a range can be split (at its middle or a typed bucket), merged with the
/// next one, moved (its start typed) and given to another shard. Every edit is checked by
/// the core: a valid one is emitted, an invalid one is shown with the core's message until
/// it is fixed or reverted.
#[function_component(RangeEditor)]
pub fn range_editor(props: &RangeEditorProps) -> Html {
    let block = use_state(|| 0u32);
    let drafts = use_draft(&props.topology);
    let ranges = drafts.ranges(&props.topology);
    let blocks = blocks(&props.topology);
    let Some(current) = blocks
        .iter()
        .find(|b| b.number() == *block)
        .or_else(|| blocks.first())
        .cloned()
    else {
        return html! {};
    };
    let on_edit = drafts.on_edit(&props.topology, &props.on_change, &ranges);
    let on_move = on_edit.reform(|(i, start)| (i, RangeEdit::Move(start)));
    let on_block = {
        let block = block.clone();
        with_value::<Event>(move |value| {
            if let Ok(n) = value.parse::<u32>() {
                block.set(n);
            }
        })
    };
    let choices = shard_choices(&current, &props.topology);
    let error = drafts
        .draft
        .as_ref()
        .map(|d| AttrValue::from(d.error.clone()));
    html! {
        <section class="range-editor" aria-label="Bucket ranges">
            { block_head(&blocks, &current, on_block) }
            <RangeBar ranges={ranges.clone()} block={current.number()} {on_move} />
            <EditorMessages class="range-editor-messages" {error} on_revert={drafts.revert()} />
            <table class="range-table">
                <thead>
                    <tr>
                        <th scope="col"><span class="visually-hidden">{ "Shard colour" }</span></th>
                        <th scope="col">{ "Start" }</th>
                        <th scope="col" title="One past the last bucket">{ "End" }</th>
                        <th scope="col">{ "Buckets" }</th>
                        <th scope="col">{ "Shard" }</th>
                        <th scope="col">{ "Edit" }</th>
                    </tr>
                </thead>
                <tbody>
                    { rows(&ranges, &current, &choices, drafts.revision, &on_edit) }
                </tbody>
            </table>
        </section>
    }
}

/// The range editor's draft: the edit the core refused, if any, and a revision bumped on
/// every edit so that the rows' inputs are rebuilt from the ranges shown.
struct Drafts {
    draft: UseStateHandle<Option<Draft>>,
    revision_handle: UseStateHandle<u32>,
    revision: u32,
}

/// The draft of a range editor of `topology`, dropped when the topology changes.
#[hook]
fn use_draft(topology: &Rc<Topology>) -> Drafts {
    let draft = use_state(|| None::<Draft>);
    let revision_handle = use_state(|| 0u32);
    {
        let draft = draft.clone();
        use_effect_with(topology.clone(), move |_| draft.set(None));
    }
    let revision = *revision_handle;
    Drafts {
        draft,
        revision_handle,
        revision,
    }
}

impl Drafts {
    /// The ranges shown: the draft's, or the topology's.
    fn ranges(&self, topology: &Topology) -> Vec<ShardBucketRange> {
        self.draft.as_ref().map_or_else(
            || topology.to_configuration().bucket_ranges,
            |d| d.ranges.clone(),
        )
    }

    /// Applies an edit of a range of `ranges` (the ranges shown): emits the configuration
    /// through `on_change` when the core accepts it, else shows it as the draft.
    fn on_edit(
        &self,
        topology: &Rc<Topology>,
        on_change: &Callback<String>,
        ranges: &[ShardBucketRange],
    ) -> Callback<(usize, RangeEdit)> {
        let (topology, on_change) = (topology.clone(), on_change.clone());
        let (draft, revision) = (self.draft.clone(), self.revision_handle.clone());
        let ranges = ranges.to_vec();
        Callback::from(move |(i, edit): (usize, RangeEdit)| {
            revision.set(revision.wrapping_add(1));
            match check_edit(&topology, &ranges, i, &edit) {
                Ok(json) => {
                    draft.set(None);
                    on_change.emit(json);
                }
                Err(refused) => draft.set(Some(refused)),
            }
        })
    }

    /// Drops the draft: the topology's ranges are shown again.
    fn revert(&self) -> Callback<MouseEvent> {
        let (draft, revision) = (self.draft.clone(), self.revision_handle.clone());
        Callback::from(move |_: MouseEvent| {
            draft.set(None);
            revision.set(revision.wrapping_add(1));
        })
    }
}

/// The shards a range of block `current` may be given: its prefix's, or every shard.
fn shard_choices(current: &BlockInfo, topology: &Topology) -> Vec<u32> {
    current
        .shards
        .clone()
        .map(|mut s| {
            s.sort();
            s.dedup();
            s
        })
        .unwrap_or_else(|| topology.shards().map(|s| s.number).collect())
}

/// The head of the editor: the block selector and the block's buckets.
fn block_head(blocks: &[BlockInfo], current: &BlockInfo, on_block: Callback<Event>) -> Html {
    let block_start = u64::from(current.start);
    html! {
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
    }
}

/// The table's rows: one [`RangeRow`] per range of block `current`, keyed by `revision` so
/// that an edit rebuilds their inputs from the ranges shown.
fn rows(
    ranges: &[ShardBucketRange],
    current: &BlockInfo,
    choices: &[u32],
    revision: u32,
    on_edit: &Callback<(usize, RangeEdit)>,
) -> Html {
    let indices = ranges_in_block(ranges, current.number());
    indices
        .iter()
        .enumerate()
        .map(|(position, &i)| {
            let range = ranges[i];
            let start = u64::from(range.bucket_range_start);
            let mut choices = choices.to_vec();
            if !choices.contains(&range.shard_number) {
                choices.push(range.shard_number);
            }
            html! {
                <RangeRow
                    key={format!("{revision}-{i}")}
                    index={i}
                    {range}
                    end={range_end(ranges, i).unwrap_or(start)}
                    middle={middle_of(ranges, i).map(|m| m.to_string()).unwrap_or_default()}
                    has_next={indices.get(position + 1).is_some()}
                    {choices}
                    on_edit={on_edit.clone()}
                />
            }
        })
        .collect()
}
