//! The bucket map's parts around the canvas: the toolbar (block, zoom, pan, mode, range),
//! the hover's tooltip, the axis and the legend.

use super::{Hover, MapView, Mode, ViewAction};
use crate::numbers::group_digits;
use crate::widgets::geometry::View;
use crate::widgets::{shard_colour, with_value, BlockInfo};
use yew::prelude::*;

/// The toolbar: the block shown, zoom and pan buttons, how documents are drawn, the range.
pub(super) fn toolbar(
    blocks: &[BlockInfo],
    current: View,
    view: &UseReducerDispatcher<MapView>,
    mode: &UseStateHandle<Mode>,
) -> Html {
    let act = |make: fn(f64) -> ViewAction, value: f64| {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| view.dispatch(make(value)))
    };
    let zoom = |factor: f64| act(|factor| ViewAction::Zoom { factor, at: 0.5 }, factor);
    let pan = |fraction: f64| act(ViewAction::Pan, fraction);
    let reset = act(|_| ViewAction::Reset, 0.0);
    let on_block = {
        let view = view.clone();
        with_value::<Event>(move |value| {
            if let Ok(start) = value.parse::<u64>() {
                view.dispatch(ViewAction::Block(start));
            }
        })
    };
    let set_mode = |m: Mode| {
        let mode = mode.clone();
        Callback::from(move |_: MouseEvent| mode.set(m))
    };
    let range_text = format!(
        "Buckets {} – {} ({} bucket{})",
        group_digits(current.start),
        group_digits(current.end.saturating_sub(1)),
        group_digits(current.len()),
        if current.len() == 1 { "" } else { "s" }
    );
    html! {
        <div class="map-toolbar">
            <label class="map-block">
                { "Block " }
                <select class="block-select" onchange={on_block}>
                    { for blocks.iter().map(|b| html! {
                        <option
                            value={b.start.to_string()}
                            selected={u64::from(b.start) == current.block_start}
                        >
                            { format!("{} (block {})", b.label, b.number()) }
                        </option>
                    }) }
                </select>
            </label>
            <span class="map-zoom" role="group" aria-label="Zoom">
                <button type="button" class="pan-left" title="Pan left" onclick={pan(-0.25)}>{ "←" }</button>
                <button type="button" class="zoom-in" title="Zoom in" onclick={zoom(0.5)}
                    disabled={current.len() <= 1}>{ "+" }</button>
                <button type="button" class="zoom-out" title="Zoom out" onclick={zoom(2.0)}
                    disabled={current.is_whole()}>{ "−" }</button>
                <button type="button" class="pan-right" title="Pan right" onclick={pan(0.25)}>{ "→" }</button>
                <button type="button" class="zoom-reset" onclick={reset}
                    disabled={current.is_whole()}>{ "Reset" }</button>
            </span>
            <span class="map-mode" role="group" aria-label="Documents">
                <button type="button" class="mode-ticks" aria-pressed={(**mode == Mode::Ticks).to_string()}
                    onclick={set_mode(Mode::Ticks)}>{ "Ticks" }</button>
                <button type="button" class="mode-density" aria-pressed={(**mode == Mode::Density).to_string()}
                    onclick={set_mode(Mode::Density)}>{ "Density" }</button>
            </span>
            <span class="map-range" aria-live="polite">{ range_text }</span>
        </div>
    }
}

/// The hovered bin's range, shard and documents, over the canvas at the pointer (kept
/// inside `width`).
pub(super) fn tooltip(hover: &Hover, width: f64) -> Html {
    let bin = hover.bin;
    let buckets = if bin.end - bin.start == 1 {
        format!("Bucket {}", group_digits(u64::from(bin.start)))
    } else {
        format!(
            "Buckets {} – {}",
            group_digits(u64::from(bin.start)),
            group_digits(u64::from(bin.end) - 1)
        )
    };
    let shard = match (bin.shard, bin.mixed) {
        (Some(s), false) => format!("shard {s}"),
        (Some(s), true) => format!("shard {s} and others"),
        (None, _) => "no shard".to_string(),
    };
    let documents = format!(
        "{} document{}",
        group_digits(bin.documents),
        if bin.documents == 1 { "" } else { "s" }
    );
    let bytes = if bin.bytes > 0 {
        format!(" · {} bytes", group_digits(bin.bytes))
    } else {
        String::new()
    };
    let style = format!(
        "position: absolute; top: {:.0}px; pointer-events: none; left: {:.0}px",
        hover.y,
        hover.x.clamp(0.0, (width - 260.0).max(0.0))
    );
    html! {
        <div class="map-tooltip" role="status" style={style}>
            <span class="tip-buckets">{ buckets }</span>
            { " · " }
            <span class="tip-shard">{ shard }</span>
            { " · " }
            <span class="tip-documents">{ documents }</span>
            <span class="tip-bytes">{ bytes }</span>
        </div>
    }
}

/// The axis: the first and last bucket shown, and how many highlighted buckets are in view.
pub(super) fn axis(current: View, highlight: Option<&[u32]>) -> Html {
    let last = current.end.saturating_sub(1);
    let in_block = |b: u64| group_digits(b - current.block_start);
    let highlighted = highlight.map_or(0, |h| {
        h.iter()
            .filter(|&&b| u64::from(b) >= current.start && u64::from(b) < current.end)
            .count()
    });
    html! {
        <div class="map-axis">
            <span class="axis-start" title={format!("bucket {} of the block", in_block(current.start))}>
                { group_digits(current.start) }
            </span>
            <span class="axis-highlight">
                if highlighted > 0 {
                    { format!("{highlighted} highlighted bucket{} in view", if highlighted == 1 { "" } else { "s" }) }
                }
            </span>
            <span class="axis-end" title={format!("bucket {} of the block", in_block(last))}>
                { group_digits(last) }
            </span>
        </div>
    }
}

/// The legend: a swatch per shard of the block.
pub(super) fn legend(shards: &[u32]) -> Html {
    html! {
        <ul class="map-legend" aria-label="Shards">
            { for shards.iter().map(|&s| html! {
                <li data-shard={s.to_string()}>
                    <span class="swatch" style={format!("background: {}", shard_colour(s))} />
                    { format!("shard {s}") }
                </li>
            }) }
        </ul>
    }
}
