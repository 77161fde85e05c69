//! The heatmap's canvas: the view's cells coloured by load (one pixel per cell of a scratch
//! canvas, scaled up without smoothing), the owning shards' boundaries and numbers drawn
//! over them, and the highlighted buckets outlined.

use super::draw::{canvas_and_context, css_colour, prepare};
use super::grid::{heat_colour, Grid};
use super::Measure;
use crate::widgets::geometry::View;
use crate::widgets::ByPtr;
use ravenshard::Topology;
use ravenshard_model::workspace::Bin;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};
use yew::NodeRef;

/// The heatmap's height in CSS pixels.
pub(super) const HEAT_HEIGHT: f64 = 256.0;

/// What the heatmap's draw effect needs; redrawn whenever it changes.
#[derive(Clone, PartialEq)]
pub(super) struct HeatScene {
    pub(super) topology: ByPtr<Topology>,
    pub(super) bins: Option<ByPtr<Vec<Bin>>>,
    pub(super) highlight: Option<ByPtr<Vec<u32>>>,
    pub(super) view: View,
    pub(super) measure: Measure,
    pub(super) width: u64,
    /// The colour scheme's number (redrawn when the page's scheme changes).
    pub(super) scheme: u32,
}

/// The fullest cell's value of the bins.
pub(super) fn most(bins: &[Bin], measure: Measure) -> u64 {
    bins.iter().map(|b| measure.of(b)).max().unwrap_or(0)
}

/// Draws a heatmap scene; does nothing if the canvas or its context is missing.
pub(super) fn draw_heat(canvas: &NodeRef, scene: &HeatScene) {
    let Some((canvas, ctx)) = canvas_and_context(canvas) else {
        return;
    };
    let width = scene.width as f64;
    prepare(&canvas, &ctx, width, HEAT_HEIGHT);
    let grid = Grid::of(scene.view.len());
    let bins: &[Bin] = scene.bins.as_ref().map_or(&[], |b| b.0.as_slice());
    if let Some(cells) = cells_canvas(&grid, bins, scene) {
        ctx.set_image_smoothing_enabled(false);
        let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
            &cells,
            0.0,
            0.0,
            width,
            HEAT_HEIGHT,
        );
    }
    boundaries(&ctx, &canvas, &grid, scene);
    highlights(&ctx, &canvas, &grid, scene);
}

/// A scratch canvas `columns × rows` pixels, one per cell, in the scale's colours (the
/// empty cells in the page's `--map-empty`).
fn cells_canvas(grid: &Grid, bins: &[Bin], scene: &HeatScene) -> Option<HtmlCanvasElement> {
    let document = gloo::utils::document();
    let scratch = document
        .create_element("canvas")
        .ok()?
        .dyn_into::<HtmlCanvasElement>()
        .ok()?;
    let (columns, rows) = (grid.columns as u32, grid.rows as u32);
    scratch.set_width(columns);
    scratch.set_height(rows);
    let mut pixels = vec![0u8; (columns * rows * 4) as usize];
    let most = most(bins, scene.measure);
    let view = scene.view;
    for bin in bins {
        let start = u64::from(bin.start);
        if start < view.start || start >= view.end {
            continue;
        }
        let cell = grid.cell_of(start - view.start) as usize;
        if let Some([r, g, b]) = heat_colour(scene.measure.of(bin), most) {
            pixels[cell * 4..cell * 4 + 4].copy_from_slice(&[r, g, b, 255]);
        }
    }
    let image =
        ImageData::new_with_u8_clamped_array_and_sh(Clamped(&pixels), columns, rows).ok()?;
    let ctx = scratch
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()?;
    ctx.put_image_data(&image, 0.0, 0.0).ok()?;
    Some(scratch)
}

/// Each range that starts inside the view: the line between the cells before it and from
/// it (a step through the row it starts in), and its shard's number where the range holds
/// at least a row of cells.
fn boundaries(
    ctx: &CanvasRenderingContext2d,
    canvas: &HtmlCanvasElement,
    grid: &Grid,
    scene: &HeatScene,
) {
    let (width, view) = (scene.width as f64, scene.view);
    let row_h = HEAT_HEIGHT / grid.rows as f64;
    let ranges = scene.topology.0.ranges();
    let first = ranges.partition_point(|r| u64::from(r.end) <= view.start);
    let shown = ranges[first..]
        .iter()
        .take_while(|r| u64::from(r.start) < view.end);
    ctx.set_font("bold 11px system-ui, sans-serif");
    for range in shown {
        let start = u64::from(range.start).max(view.start);
        let (row, fraction) = grid.boundary(start - view.start);
        let (x, top) = (fraction * width, row as f64 * row_h);
        if start > view.start {
            ctx.begin_path();
            ctx.move_to(0.0, top + row_h);
            ctx.line_to(x, top + row_h);
            ctx.line_to(x, top);
            ctx.line_to(width, top);
            for (colour, line) in [("--map-halo", 3.0), ("--map-boundary", 1.5)] {
                ctx.set_stroke_style_str(&css_colour(canvas, colour));
                ctx.set_line_width(line);
                ctx.stroke();
            }
        }
        let end = u64::from(range.end).min(view.end);
        let cells = grid.cell_of(end - 1 - view.start) + 1 - grid.cell_of(start - view.start);
        if cells >= grid.columns && grid.rows > 1 {
            let label = format!("shard {}", range.shard);
            let (lx, ly) = (x.min(width - 56.0).max(0.0) + 3.0, top + 3.0);
            ctx.set_fill_style_str(&css_colour(canvas, "--map-halo"));
            ctx.fill_rect(lx, ly, 52.0, 15.0);
            ctx.set_fill_style_str(&css_colour(canvas, "--map-boundary"));
            let _ = ctx.fill_text(&label, lx + 4.0, ly + 11.5);
        }
    }
}

/// The highlighted buckets' cells, outlined.
fn highlights(
    ctx: &CanvasRenderingContext2d,
    canvas: &HtmlCanvasElement,
    grid: &Grid,
    scene: &HeatScene,
) {
    let Some(highlight) = &scene.highlight else {
        return;
    };
    let (width, view) = (scene.width as f64, scene.view);
    let (cell_w, cell_h) = (width / grid.columns as f64, HEAT_HEIGHT / grid.rows as f64);
    ctx.set_stroke_style_str(&css_colour(canvas, "--map-highlight"));
    ctx.set_line_width(2.0);
    for &bucket in highlight.0.iter() {
        let bucket = u64::from(bucket);
        if bucket < view.start || bucket >= view.end {
            continue;
        }
        let cell = grid.cell_of(bucket - view.start);
        let (x, y) = (
            (cell % grid.columns) as f64 * cell_w,
            (cell / grid.columns) as f64 * cell_h,
        );
        ctx.stroke_rect(
            x - 2.0,
            y - 2.0,
            cell_w.max(2.0) + 4.0,
            cell_h.max(2.0) + 4.0,
        );
    }
}
