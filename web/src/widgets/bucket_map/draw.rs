//! The bucket map's canvas: the shard bar, the documents as ticks or density bars, the
//! highlighted buckets, drawn from a [`Scene`].

use super::super::geometry::View;
use super::super::{shard_colour, UNOWNED_COLOUR};
use super::{Mode, FALLBACK_WIDTH};
use crate::widgets::ByPtr;
use ravenshard::Topology;
use ravenshard_model::workspace::Bin;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::NodeRef;

/// The canvas's height in CSS pixels.
pub(super) const HEIGHT: f64 = 120.0;
/// The documents area: ticks or density bars, from `MARKS_TOP` down to `MARKS_BOTTOM`.
const MARKS_TOP: f64 = 4.0;
const MARKS_BOTTOM: f64 = 74.0;
/// Height of a tick in ticks mode.
const TICK: f64 = 18.0;
/// The shard bar.
const BAR_TOP: f64 = 78.0;
const BAR_HEIGHT: f64 = 26.0;
/// The canvas's colours: the page's CSS variables (`web/styles/studio.css`, light and dark)
/// and what is drawn without them (no style sheet, as in the DOM tests).
const COLOURS: [(&str, &str); 6] = [
    ("--map-ink", "#1c2230"),
    ("--map-highlight", "#d00070"),
    ("--map-halo", "#ffffff"),
    ("--map-boundary", "#1c2230"),
    ("--map-empty", "#eef0f4"),
    ("--map-axis", "#c5cbd6"),
];

/// The colour of the CSS variable `name` on `canvas` (its fallback in [`COLOURS`] when the
/// page does not set it).
pub(super) fn css_colour(canvas: &HtmlCanvasElement, name: &str) -> String {
    let set = gloo::utils::window()
        .get_computed_style(canvas)
        .ok()
        .flatten()
        .and_then(|style| style.get_property_value(name).ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    set.unwrap_or_else(|| {
        COLOURS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("#808080", |(_, c)| c)
            .to_string()
    })
}

/// Sizes `canvas` for `width × height` CSS pixels at the device's pixel ratio, scales
/// `ctx` to CSS pixels and clears it.
pub(super) fn prepare(
    canvas: &HtmlCanvasElement,
    ctx: &CanvasRenderingContext2d,
    width: f64,
    height: f64,
) {
    let ratio = gloo::utils::window().device_pixel_ratio();
    let ratio = if ratio.is_finite() && ratio > 0.0 {
        ratio
    } else {
        1.0
    };
    canvas.set_width((width * ratio).round().max(1.0) as u32);
    canvas.set_height((height * ratio).round().max(1.0) as u32);
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, width, height);
}

/// The canvas and its 2D context, if the page has them.
pub(super) fn canvas_and_context(
    canvas: &NodeRef,
) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d)> {
    let canvas = canvas.cast::<HtmlCanvasElement>()?;
    let context = canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()?;
    Some((canvas, context))
}

/// The canvas's width in CSS pixels (the fallback when it has no layout).
pub(super) fn css_width(canvas: &NodeRef) -> f64 {
    canvas
        .cast::<HtmlCanvasElement>()
        .map(|c| c.get_bounding_client_rect().width())
        .filter(|w| w.is_finite() && *w > 0.0)
        .unwrap_or(FALLBACK_WIDTH)
}

/// What the draw effect needs; redrawn whenever it changes.
#[derive(Clone, PartialEq)]
pub(super) struct Scene {
    pub(super) topology: ByPtr<Topology>,
    /// The bins of the view (from the host, the last it answered, until the next).
    pub(super) bins: Option<ByPtr<Vec<Bin>>>,
    pub(super) highlight: Option<ByPtr<Vec<u32>>>,
    pub(super) lit_shards: Option<ByPtr<Vec<u32>>>,
    pub(super) view: View,
    pub(super) mode: Mode,
    pub(super) width: u64,
}

/// Draws a scene; does nothing if the canvas or its context is missing.
pub(super) fn draw(canvas: &NodeRef, scene: &Scene) {
    let Some((canvas, ctx)) = canvas_and_context(canvas) else {
        return;
    };
    let width = scene.width as f64;
    prepare(&canvas, &ctx, width, HEIGHT);
    let view = scene.view;
    let ink = css_colour(&canvas, "--map-ink");

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
            ctx.set_fill_style_str(&css_colour(&canvas, "--map-halo"));
            ctx.fill_rect(x0.floor(), BAR_TOP, 1.0, BAR_HEIGHT);
        }
    }

    // The documents (bins of another view, while its answer comes, are drawn where their
    // buckets are).
    let histogram: &[Bin] = scene.bins.as_ref().map_or(&[], |b| b.0.as_slice());
    let most = histogram.iter().map(|b| b.documents).max().unwrap_or(0);
    ctx.set_fill_style_str(&css_colour(&canvas, "--map-axis"));
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
                    ctx.set_fill_style_str(&ink);
                    ctx.fill_rect(x0, MARKS_BOTTOM - TICK, w, TICK);
                }
                Mode::Density => {
                    let h = (bin.documents as f64 / most as f64) * (MARKS_BOTTOM - MARKS_TOP);
                    ctx.set_fill_style_str(match bin.shard {
                        Some(shard) => shard_colour(shard),
                        None => &ink,
                    });
                    ctx.fill_rect(x0, MARKS_BOTTOM - h.max(1.0), w, h.max(1.0));
                }
            }
        }
        ctx.set_global_alpha(1.0);
    }

    // The highlighted buckets: a line through the map and a marker under the bar.
    if let Some(highlight) = &scene.highlight {
        ctx.set_fill_style_str(&css_colour(&canvas, "--map-highlight"));
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
