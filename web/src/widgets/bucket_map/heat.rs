//! The heatmap of the bucket map's view: its buckets folded into rows of cells
//! ([`Grid`](super::grid::Grid)), coloured by documents or bytes on viridis with a legend,
//! the shards' boundaries over them; hover for a cell's figures, click to drill down (a
//! sixteenth of the view at a time) and, once cells are single buckets, to select one.

use super::grid::{drill, legend_gradient, Grid};
use super::heat_draw::{draw_heat, most, HeatScene, HEAT_HEIGHT};
use super::hooks::{use_canvas_width, use_colour_scheme, use_map_bins};
use super::parts::tooltip;
use super::{Hover, MapDocuments, MapView, ViewAction};
use crate::numbers::group_digits;
use crate::widgets::geometry::View;
use crate::widgets::ByPtr;
use ravenshard::Topology;
use ravenshard_model::workspace::Bin;
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// What a cell's colour shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Measure {
    /// Placed documents.
    Documents,
    /// The sum of their known sizes.
    Bytes,
}

impl Measure {
    /// The bin's value of this measure.
    pub(super) fn of(self, bin: &Bin) -> u64 {
        match self {
            Measure::Documents => bin.documents,
            Measure::Bytes => bin.bytes,
        }
    }
}

/// Properties of [`Heatmap`].
#[derive(Properties, Clone, PartialEq)]
pub(super) struct HeatmapProps {
    pub(super) topology: Rc<Topology>,
    pub(super) documents: MapDocuments,
    /// The view shown (the bucket map's, shared with its strip).
    pub(super) current: View,
    pub(super) view: UseReducerDispatcher<MapView>,
    pub(super) highlight: Option<Rc<Vec<u32>>>,
    pub(super) on_select: Callback<u32>,
}

/// The bin of cell `k` of `grid` over `current`, if the host's bins hold it.
fn bin_of(bins: &[Bin], grid: &Grid, current: View, k: u64) -> Option<Bin> {
    let lo = current.start + grid.edge(k);
    let i = bins.partition_point(|b| u64::from(b.start) < lo);
    bins.get(i).filter(|b| u64::from(b.start) == lo).copied()
}

/// The pointer's position over `node`: `(x, y, width, height)` in CSS pixels.
fn pointer_xy(node: &NodeRef, e: &MouseEvent) -> Option<(f64, f64, f64, f64)> {
    let rect = node.cast::<Element>()?.get_bounding_client_rect();
    let (x, y) = (
        f64::from(e.client_x()) - rect.left(),
        f64::from(e.client_y()) - rect.top(),
    );
    (rect.width() > 0.0 && rect.height() > 0.0).then(|| (x, y, rect.width(), rect.height()))
}

/// The heatmap: its canvas, the measure's buttons and the legend.
#[function_component(Heatmap)]
pub(super) fn heatmap(props: &HeatmapProps) -> Html {
    let measure = use_state(|| Measure::Documents);
    let hover = use_state(|| None::<Hover>);
    let canvas = use_node_ref();
    let width = use_canvas_width(&canvas);
    let scheme = use_colour_scheme();
    let current = props.current;
    let grid = Grid::of(current.len());
    let (counted, drawn_version) = use_map_bins(&props.documents, current, grid.cells as usize);
    {
        let scene = HeatScene {
            topology: ByPtr(props.topology.clone()),
            bins: (*counted).clone(),
            highlight: props.highlight.clone().map(ByPtr),
            view: current,
            measure: *measure,
            width: width.round().max(1.0) as u64,
            scheme,
        };
        let canvas = canvas.clone();
        use_effect_with(scene, move |scene| draw_heat(&canvas, scene));
    }
    let bins = (*counted).clone();
    let onmousemove = {
        let (canvas, hover, bins) = (canvas.clone(), hover.clone(), bins.clone());
        Callback::from(move |e: MouseEvent| {
            let at = pointer_xy(&canvas, &e).and_then(|(x, y, w, h)| {
                let k = grid.cell_at(x, y, w, h)?;
                let bin = bin_of(&bins.as_ref()?.0, &grid, current, k)?;
                Some(Hover {
                    x,
                    y: y + 14.0,
                    bin,
                })
            });
            hover.set(at);
        })
    };
    let onmouseout = {
        let hover = hover.clone();
        Callback::from(move |_: MouseEvent| hover.set(None))
    };
    let onclick = {
        let (canvas, view, on_select) =
            (canvas.clone(), props.view.clone(), props.on_select.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(k) = pointer_xy(&canvas, &e).and_then(|(x, y, w, h)| grid.cell_at(x, y, w, h))
            else {
                return;
            };
            let bucket = current.start + grid.edge(k);
            if grid.single_buckets() {
                if let Ok(bucket) = u32::try_from(bucket) {
                    on_select.emit(bucket);
                }
            } else if let Some((start, end)) = drill(current.start, current.len(), bucket) {
                view.dispatch(ViewAction::Show { start, end });
            }
        })
    };
    let shown: &[Bin] = bins.as_ref().map_or(&[], |b| b.0.as_slice());
    let per_cell = grid.len.div_ceil(grid.cells);
    let label = format!(
        "Heatmap of buckets {} to {}: {} rows of {} cells, {} bucket{} each, coloured by {}",
        group_digits(current.start),
        group_digits(current.end.saturating_sub(1)),
        grid.rows,
        grid.columns,
        group_digits(per_cell),
        if per_cell == 1 { "" } else { "s" },
        if *measure == Measure::Documents {
            "documents"
        } else {
            "bytes"
        },
    );
    html! {
        <div class="heatmap" data-version={drawn_version.to_string()} data-cells={grid.cells.to_string()}>
            { measure_buttons(&measure) }
            <div class="map-canvas-wrap heat-wrap" style="position: relative">
                <canvas ref={canvas} class="heat-canvas" role="img" aria-label={label}
                    style={format!("display: block; width: 100%; height: {HEAT_HEIGHT:.0}px; cursor: zoom-in")}
                    {onmousemove} {onmouseout} {onclick} />
                <div class="map-tooltip-layer">{ for hover.as_ref().map(|h| tooltip(h, *width)) }</div>
            </div>
            { legend(most(shown, *measure), *measure, per_cell, grid.single_buckets()) }
        </div>
    }
}

/// The buttons choosing what the cells' colours show.
fn measure_buttons(measure: &UseStateHandle<Measure>) -> Html {
    let set = |m: Measure| {
        let measure = measure.clone();
        Callback::from(move |_: MouseEvent| measure.set(m))
    };
    let pressed = |m: Measure| (**measure == m).to_string();
    html! {
        <span class="map-mode heat-measure" role="group" aria-label="Heatmap colour">
            { "Colour by " }
            <button type="button" class="measure-documents" aria-pressed={pressed(Measure::Documents)}
                onclick={set(Measure::Documents)}>{ "Documents" }</button>
            <button type="button" class="measure-bytes" aria-pressed={pressed(Measure::Bytes)}
                onclick={set(Measure::Bytes)}>{ "Bytes" }</button>
        </span>
    }
}

/// The scale's legend: the gradient from one to the fullest cell's value (log scale), and
/// what a click does.
fn legend(most: u64, measure: Measure, per_cell: u64, single: bool) -> Html {
    let unit = match measure {
        Measure::Documents => "documents",
        Measure::Bytes => "bytes",
    };
    let top = if most == 0 {
        format!("no {unit} in view")
    } else {
        format!("{} {unit}", group_digits(most))
    };
    let click = if single {
        "Click a cell to list its bucket's documents."
    } else {
        "Click a cell to zoom into the sixteenth of the view that holds it."
    };
    html! {
        <div class="heat-legend">
            <span class="heat-low">{ if most == 0 { "0" } else { "1" } }</span>
            <span class="heat-scale" aria-hidden="true"
                style={format!("background: {}", legend_gradient(9))} />
            <span class="heat-high">{ top }</span>
            <span class="hint">
                { format!(" per cell of {} bucket{} (log scale; empty cells blank). {click}",
                    group_digits(per_cell), if per_cell == 1 { "" } else { "s" }) }
            </span>
        </div>
    }
}
