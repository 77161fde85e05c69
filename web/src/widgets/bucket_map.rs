//! The bucket map: one block's 2^20 buckets on a canvas, coloured by shard, with the
//! documents above them.

use super::geometry::{bin_at, bin_bounds, bin_count, wheel_factor, View};
use super::{blocks, pointer_x, shard_colour, UNOWNED_COLOUR};
use crate::numbers::group_digits;
use crate::widgets::answer::use_answer;
use crate::widgets::with_value;
use crate::widgets::ByPtr;
use crate::workers::host;
use gloo::events::{EventListener, EventListenerOptions};
use ravenshard::Topology;
use ravenshard_model::host::{Answer, Question};
use ravenshard_model::workspace::Bin;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, WheelEvent};
use yew::prelude::*;

/// The canvas's height in CSS pixels.
const HEIGHT: f64 = 120.0;
/// The documents area: ticks or density bars, from `MARKS_TOP` down to `MARKS_BOTTOM`.
const MARKS_TOP: f64 = 4.0;
const MARKS_BOTTOM: f64 = 74.0;
/// Height of a tick in ticks mode.
const TICK: f64 = 18.0;
/// The shard bar.
const BAR_TOP: f64 = 78.0;
const BAR_HEIGHT: f64 = 26.0;
/// Colours of the documents and of the highlighted buckets.
const INK: &str = "#1c2230";
const HIGHLIGHT: &str = "#d00070";
/// The width used before the canvas has been measured (or when it cannot be).
const FALLBACK_WIDTH: f64 = 600.0;
/// Pointer travel (CSS pixels) that turns a press into a drag rather than a click.
const DRAG_THRESHOLD: f64 = 3.0;

/// Where the bucket map's documents come from.
#[derive(Debug, Clone, PartialEq)]
pub enum MapDocuments {
    /// The workspace's host, at its `version`: the bins of the view are asked for
    /// ([`Question::Histogram`]), under the workspace's own configuration (`None`) or
    /// another one that keeps every document in its bucket (its JSON).
    Host {
        /// The number of the workspace's last change (the bins are asked again when it
        /// changes).
        version: u64,
        /// Another configuration's JSON.
        configuration: Option<AttrValue>,
    },
}

/// Properties of [`BucketMap`].
#[derive(Properties, Clone)]
pub struct BucketMapProps {
    /// The topology: its blocks (default and one per prefix) and its bucket ranges.
    pub topology: Rc<Topology>,
    /// The documents drawn.
    pub documents: MapDocuments,
    /// Buckets to mark (for example the bucket of a selected anchored group).
    #[prop_or_default]
    pub highlight: Option<Rc<Vec<u32>>>,
    /// When given, only these shards' ranges are coloured; the others are grey (for example
    /// the shards a query is routed to).
    #[prop_or_default]
    pub lit_shards: Option<Rc<Vec<u32>>>,
    /// Called with a bucket when the map is clicked: the first bucket with documents in the
    /// clicked bin, else the bucket under the pointer.
    pub on_select_bucket: Callback<u32>,
}

impl PartialEq for BucketMapProps {
    fn eq(&self, other: &Self) -> bool {
        let same_highlight = match (&self.highlight, &other.highlight) {
            (None, None) => true,
            (Some(a), Some(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => false,
        };
        (Rc::ptr_eq(&self.topology, &other.topology) || self.topology == other.topology)
            && self.documents == other.documents
            && same_highlight
            && self.lit_shards == other.lit_shards
            && self.on_select_bucket == other.on_select_bucket
    }
}

/// How documents are drawn above the bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A tick per bin with documents, darker for more documents.
    Ticks,
    /// A bar per bin, as high as its document count (relative to the fullest bin).
    Density,
}

/// What the view can be told to do.
enum ViewAction {
    Zoom { factor: f64, at: f64 },
    Pan(f64),
    Reset,
    Block(u64),
}

/// The view as the component's reducer state.
#[derive(Debug, Clone, Copy, PartialEq)]
struct MapView(View);

impl Reducible for MapView {
    type Action = ViewAction;

    fn reduce(self: Rc<Self>, action: ViewAction) -> Rc<Self> {
        let view = self.0;
        let next = match action {
            ViewAction::Zoom { factor, at } => view.zoom(factor, at),
            ViewAction::Pan(fraction) => view.pan(fraction),
            ViewAction::Reset => View::whole(view.block_start),
            ViewAction::Block(start) => View::whole(start),
        };
        if next == view {
            self
        } else {
            Rc::new(MapView(next))
        }
    }
}

/// The bin under the pointer.
#[derive(Debug, Clone, PartialEq)]
struct Hover {
    x: f64,
    bin: Bin,
}

/// A press on the canvas: where it started and whether it has become a drag.
#[derive(Debug, Default)]
struct Drag {
    pressed: Option<f64>,
    dragged: bool,
}

/// The canvas, its CSS width and its 2D context, if the page has them.
fn canvas_and_context(canvas: &NodeRef) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d)> {
    let canvas = canvas.cast::<HtmlCanvasElement>()?;
    let context = canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()?;
    Some((canvas, context))
}

/// The canvas's width in CSS pixels (the fallback when it has no layout).
fn css_width(canvas: &NodeRef) -> f64 {
    canvas
        .cast::<HtmlCanvasElement>()
        .map(|c| c.get_bounding_client_rect().width())
        .filter(|w| w.is_finite() && *w > 0.0)
        .unwrap_or(FALLBACK_WIDTH)
}

/// What the draw effect needs; redrawn whenever it changes.
#[derive(Clone, PartialEq)]
struct Scene {
    topology: ByPtr<Topology>,
    /// The bins of the view (from the host, the last it answered, until the next).
    bins: Option<ByPtr<Vec<Bin>>>,
    highlight: Option<ByPtr<Vec<u32>>>,
    lit_shards: Option<ByPtr<Vec<u32>>>,
    view: View,
    mode: Mode,
    width: u64,
}

/// Draws a scene; does nothing if the canvas or its context is missing.
fn draw(canvas: &NodeRef, scene: &Scene) {
    let Some((canvas, ctx)) = canvas_and_context(canvas) else {
        return;
    };
    let width = scene.width as f64;
    let ratio = gloo::utils::window().device_pixel_ratio();
    let ratio = if ratio.is_finite() && ratio > 0.0 {
        ratio
    } else {
        1.0
    };
    canvas.set_width((width * ratio).round().max(1.0) as u32);
    canvas.set_height((HEIGHT * ratio).round().max(1.0) as u32);
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, width, HEIGHT);
    let view = scene.view;

    // The bar: unowned grey, then every range that meets the view in its shard's colour.
    ctx.set_fill_style_str(UNOWNED_COLOUR);
    ctx.fill_rect(0.0, BAR_TOP, width, BAR_HEIGHT);
    let ranges = scene.topology.0.ranges();
    let first = ranges.partition_point(|r| u64::from(r.end) <= view.start);
    for range in ranges[first..]
        .iter()
        .take_while(|r| u64::from(r.start) < view.end)
    {
        let x0 = view.x_of(u64::from(range.start).max(view.start), width);
        let x1 = view.x_of(u64::from(range.end).min(view.end), width);
        let lit = scene
            .lit_shards
            .as_ref()
            .is_none_or(|lit| lit.0.contains(&range.shard));
        ctx.set_fill_style_str(if lit {
            shard_colour(range.shard)
        } else {
            UNOWNED_COLOUR
        });
        ctx.fill_rect(x0, BAR_TOP, (x1 - x0).max(1.0), BAR_HEIGHT);
        if u64::from(range.start) > view.start {
            ctx.set_fill_style_str("#ffffff");
            ctx.fill_rect(x0.floor(), BAR_TOP, 1.0, BAR_HEIGHT);
        }
    }

    // The documents (bins of another view, while its answer comes, are drawn where their
    // buckets are).
    let histogram: &[Bin] = scene.bins.as_ref().map_or(&[], |b| b.0.as_slice());
    let most = histogram.iter().map(|b| b.documents).max().unwrap_or(0);
    ctx.set_fill_style_str("#c5cbd6");
    ctx.fill_rect(0.0, MARKS_BOTTOM, width, 1.0);
    if most > 0 {
        let scale = ((most + 1) as f64).ln();
        for bin in histogram.iter().filter(|b| b.documents > 0) {
            let x0 = view.x_of(u64::from(bin.start), width);
            let x1 = view.x_of(u64::from(bin.end), width);
            let w = if x1 - x0 > 3.0 {
                x1 - x0 - 1.0
            } else {
                (x1 - x0).max(1.0)
            };
            match scene.mode {
                Mode::Ticks => {
                    ctx.set_global_alpha(0.35 + 0.65 * ((bin.documents + 1) as f64).ln() / scale);
                    ctx.set_fill_style_str(INK);
                    ctx.fill_rect(x0, MARKS_BOTTOM - TICK, w, TICK);
                }
                Mode::Density => {
                    let h = (bin.documents as f64 / most as f64) * (MARKS_BOTTOM - MARKS_TOP);
                    ctx.set_fill_style_str(bin.shard.map_or(INK, shard_colour));
                    ctx.fill_rect(x0, MARKS_BOTTOM - h.max(1.0), w, h.max(1.0));
                }
            }
        }
        ctx.set_global_alpha(1.0);
    }

    // The highlighted buckets: a line through the map and a marker under the bar.
    if let Some(highlight) = &scene.highlight {
        ctx.set_fill_style_str(HIGHLIGHT);
        for &bucket in highlight.0.iter() {
            let bucket = u64::from(bucket);
            if bucket < view.start || bucket >= view.end {
                continue;
            }
            let x0 = view.x_of(bucket, width);
            let x1 = view.x_of(bucket + 1, width);
            let centre = (x0 + x1) / 2.0;
            // A 2-pixel line, or a translucent band once a bucket is wider than that.
            let w = (x1 - x0).max(2.0);
            ctx.set_global_alpha(if w > 4.0 { 0.35 } else { 1.0 });
            ctx.fill_rect(
                centre - w / 2.0,
                MARKS_TOP,
                w,
                BAR_TOP + BAR_HEIGHT - MARKS_TOP,
            );
            ctx.set_global_alpha(1.0);
            ctx.begin_path();
            ctx.move_to(centre, BAR_TOP + BAR_HEIGHT + 2.0);
            ctx.line_to(centre - 6.0, HEIGHT - 2.0);
            ctx.line_to(centre + 6.0, HEIGHT - 2.0);
            ctx.close_path();
            ctx.fill();
        }
    }
}

/// The bucket map of one block: a bar coloured by shard ([`shard_colour`]), the documents
/// as ticks or density bars above it, highlighted buckets marked, an axis with the first
/// and last bucket shown. Zoom with the mouse wheel or the buttons (down to single
/// buckets), drag or use the arrows to pan; hover for a bin's range, shard and documents;
/// click to select a bucket.
#[function_component(BucketMap)]
pub fn bucket_map(props: &BucketMapProps) -> Html {
    let view = use_reducer(|| MapView(View::whole(0)));
    let mode = use_state(|| Mode::Ticks);
    let width = use_state(|| FALLBACK_WIDTH);
    let hover = use_state(|| None::<Hover>);
    let drag = use_mut_ref(Drag::default);
    let canvas = use_node_ref();

    let blocks = blocks(&props.topology);
    let block_known = blocks
        .iter()
        .any(|b| u64::from(b.start) == view.0.block_start);
    let current = if block_known { view.0 } else { View::whole(0) };

    // A block that disappeared (its prefix was removed): back to the default block.
    {
        let view = view.dispatcher();
        use_effect_with(block_known, move |known| {
            if !*known {
                view.dispatch(ViewAction::Block(0));
            }
        });
    }

    // Measure the canvas now and whenever the window is resized; zoom with the wheel
    // through a listener that may prevent the page from scrolling.
    {
        let canvas = canvas.clone();
        let width = width.clone();
        let hover = hover.clone();
        let view = view.dispatcher();
        use_effect_with((), move |_| {
            width.set(css_width(&canvas));
            let resize = {
                let canvas = canvas.clone();
                EventListener::new(&gloo::utils::window(), "resize", move |_| {
                    width.set(css_width(&canvas));
                })
            };
            let wheel = canvas.cast::<HtmlCanvasElement>().map(|element| {
                let canvas = canvas.clone();
                EventListener::new_with_options(
                    &element,
                    "wheel",
                    EventListenerOptions::enable_prevent_default(),
                    move |event| {
                        let Some(event) = event.dyn_ref::<WheelEvent>() else {
                            return;
                        };
                        event.prevent_default();
                        // The bin under the pointer changes with the zoom.
                        hover.set(None);
                        let at = pointer_x(&canvas, event.client_x())
                            .map_or(0.5, |(x, w)| View::fraction_at(x, w));
                        view.dispatch(ViewAction::Zoom {
                            factor: wheel_factor(event.delta_y(), event.delta_mode()),
                            at,
                        });
                    },
                )
            });
            move || {
                drop(resize);
                drop(wheel);
            }
        });
    }

    // The bins of the view: asked of the host, or counted in the page.
    let bins = bin_count(*width, current.len());
    let (start, end) = (
        u32::try_from(current.start).unwrap_or(u32::MAX),
        u32::try_from(current.end).unwrap_or(u32::MAX),
    );
    let (question, version) = match &props.documents {
        MapDocuments::Host {
            version,
            configuration,
        } => {
            let configuration = configuration.as_ref().map(ToString::to_string);
            let bins = u32::try_from(bins).unwrap_or(u32::MAX);
            let question = Question::Histogram {
                configuration,
                start,
                end,
                bins,
            };
            (Some(question), *version)
        }
    };
    let answered = use_answer(question, version);
    // The host's version the bins drawn are of (what a measure of an edit waits for).
    let drawn_version = answered.last.as_ref().map_or(0, |(_, a)| a.version);
    let counted = {
        let answer = answered
            .last
            .as_ref()
            .map(|(_, a)| ByPtr(Rc::clone(&a.answer)));
        use_memo(answer, |answer| match answer.as_ref().map(|a| &*a.0) {
            Some(Answer::Histogram(bins)) => Some(ByPtr(Rc::new(bins.clone()))),
            _ => None,
        })
    };

    // Redraw whenever anything drawn changes.
    {
        let scene = Scene {
            topology: ByPtr(props.topology.clone()),
            bins: (*counted).clone(),
            highlight: props.highlight.clone().map(ByPtr),
            lit_shards: props.lit_shards.clone().map(ByPtr),
            view: current,
            mode: *mode,
            width: width.round().max(1.0) as u64,
        };
        let canvas = canvas.clone();
        use_effect_with(scene, move |scene| draw(&canvas, scene));
    }

    let bin_under = {
        let counted = (*counted).clone();
        move |x: f64, w: f64| -> Option<Bin> {
            let (lo, _) = bin_bounds(&current, bins, bin_at(x, w, bins));
            let counted = counted.as_ref()?;
            counted.0.iter().find(|b| u64::from(b.start) == lo).copied()
        }
    };

    let onmousedown = {
        let drag = drag.clone();
        let canvas = canvas.clone();
        Callback::from(move |e: MouseEvent| {
            let mut drag = drag.borrow_mut();
            drag.pressed = pointer_x(&canvas, e.client_x()).map(|(x, _)| x);
            drag.dragged = false;
        })
    };
    let onmousemove = {
        let drag = drag.clone();
        let canvas = canvas.clone();
        let hover = hover.clone();
        let view = view.dispatcher();
        let bin_under = bin_under.clone();
        Callback::from(move |e: MouseEvent| {
            let Some((x, w)) = pointer_x(&canvas, e.client_x()) else {
                return;
            };
            let mut drag = drag.borrow_mut();
            if let (Some(from), true) = (drag.pressed, e.buttons() & 1 == 1) {
                if drag.dragged || (x - from).abs() >= DRAG_THRESHOLD {
                    drag.dragged = true;
                    drag.pressed = Some(x);
                    view.dispatch(ViewAction::Pan((from - x) / w));
                    hover.set(None);
                    return;
                }
            }
            hover.set(bin_under(x, w).map(|bin| Hover { x, bin }));
        })
    };
    let onmouseout = {
        let hover = hover.clone();
        let drag = drag.clone();
        Callback::from(move |_: MouseEvent| {
            hover.set(None);
            *drag.borrow_mut() = Drag::default();
        })
    };
    let onclick = {
        let canvas = canvas.clone();
        let documents = props.documents.clone();
        let on_select = props.on_select_bucket.clone();
        Callback::from(move |e: MouseEvent| {
            let dragged = std::mem::take(&mut *drag.borrow_mut()).dragged;
            if dragged {
                return;
            }
            let Some((x, w)) = pointer_x(&canvas, e.client_x()) else {
                return;
            };
            let (lo, hi) = bin_bounds(&current, bins, bin_at(x, w, bins));
            let (Ok(lo), Ok(hi)) = (u32::try_from(lo), u32::try_from(hi)) else {
                return;
            };
            let under = u32::try_from(current.bucket_at(x, w)).ok();
            match &documents {
                MapDocuments::Host { .. } => {
                    let on_select = on_select.clone();
                    let question = Question::FirstUsedBucket { start: lo, end: hi };
                    host::ask(
                        question,
                        Callback::from(move |a: host::Answered| {
                            let first = match &*a.answer {
                                Answer::FirstUsedBucket(first) => *first,
                                _ => None,
                            };
                            if let Some(bucket) = first.or(under) {
                                on_select.emit(bucket);
                            }
                        }),
                    );
                }
            }
        })
    };

    let act = |make: fn(f64) -> ViewAction, value: f64| {
        let view = view.dispatcher();
        Callback::from(move |_: MouseEvent| view.dispatch(make(value)))
    };
    let zoom = |factor: f64| act(|factor| ViewAction::Zoom { factor, at: 0.5 }, factor);
    let pan = |fraction: f64| act(ViewAction::Pan, fraction);
    let reset = act(|_| ViewAction::Reset, 0.0);
    let on_block = {
        let view = view.dispatcher();
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

    let block_label = blocks
        .iter()
        .find(|b| u64::from(b.start) == current.block_start)
        .map_or_else(|| "default".to_string(), |b| b.label.clone());
    let last = current.end.saturating_sub(1);
    let range_text = format!(
        "Buckets {} – {} ({} bucket{})",
        group_digits(current.start),
        group_digits(last),
        group_digits(current.len()),
        if current.len() == 1 { "" } else { "s" }
    );
    let in_block = |b: u64| group_digits(b - current.block_start);
    let shards_in_block: Vec<u32> = blocks
        .iter()
        .find(|b| u64::from(b.start) == current.block_start)
        .and_then(|b| b.shards.clone())
        .unwrap_or_else(|| props.topology.shards().map(|s| s.number).collect());
    let highlighted = props.highlight.as_ref().map_or(0, |h| {
        h.iter()
            .filter(|&&b| u64::from(b) >= current.start && u64::from(b) < current.end)
            .count()
    });

    let tooltip = hover.as_ref().map(|h| {
        let bin = h.bin;
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
        let style = format!(
            "position: absolute; top: 0; pointer-events: none; left: {:.0}px",
            h.x.clamp(0.0, (*width - 200.0).max(0.0))
        );
        html! {
            <div class="map-tooltip" role="status" style={style}>
                <span class="tip-buckets">{ buckets }</span>
                { " · " }
                <span class="tip-shard">{ shard }</span>
                { " · " }
                <span class="tip-documents">{ documents }</span>
            </div>
        }
    });

    html! {
        <section class="bucket-map" aria-label="Bucket map" data-version={drawn_version.to_string()}>
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
                    <button type="button" class="mode-ticks" aria-pressed={(*mode == Mode::Ticks).to_string()}
                        onclick={set_mode(Mode::Ticks)}>{ "Ticks" }</button>
                    <button type="button" class="mode-density" aria-pressed={(*mode == Mode::Density).to_string()}
                        onclick={set_mode(Mode::Density)}>{ "Density" }</button>
                </span>
                <span class="map-range" aria-live="polite">{ range_text }</span>
            </div>
            <div class="map-canvas-wrap" style="position: relative">
                <canvas
                    ref={canvas}
                    class="map-canvas"
                    style={format!("display: block; width: 100%; height: {:.0}px", HEIGHT)}
                    role="img"
                    aria-label={format!("Buckets of the {block_label} block by shard, with documents")}
                    {onmousedown}
                    {onmousemove}
                    {onmouseout}
                    {onclick}
                />
                <div class="map-tooltip-layer">{ for tooltip }</div>
            </div>
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
            <ul class="map-legend" aria-label="Shards">
                { for shards_in_block.iter().map(|&s| html! {
                    <li data-shard={s.to_string()}>
                        <span class="swatch" style={format!("background: {}", shard_colour(s))} />
                        { format!("shard {s}") }
                    </li>
                }) }
            </ul>
        </section>
    }
}
