//! The bucket map: one block's 2^20 buckets on a canvas, coloured by shard, with the
//! documents above them. The component ([`BucketMap`]) puts together the canvas's
//! drawing (`draw`), its hooks (`hooks`: width, wheel, bins, pointer) and the parts around
//! it (`parts`: toolbar, tooltip, axis, legend).

mod draw;
mod grid;
mod heat;
mod heat_draw;
mod hooks;
mod parts;

use super::blocks;
use super::geometry::{bin_count, View};
use crate::widgets::ByPtr;
use draw::{draw, Scene, HEIGHT};
use heat::{Heatmap, Measure};
use hooks::{use_canvas_width, use_map_bins, use_pointer, use_wheel_zoom, PointerOn};
use ravenshard::Topology;
use ravenshard_model::workspace::Bin;
use std::rc::Rc;
use yew::prelude::*;

/// The width used before the canvas has been measured (or when it cannot be).
const FALLBACK_WIDTH: f64 = 600.0;
/// Pointer travel (CSS pixels) that turns a press into a drag rather than a click.
const DRAG_THRESHOLD: f64 = 3.0;

/// Where the bucket map's documents come from.
#[derive(Debug, Clone, PartialEq)]
pub enum MapDocuments {
    /// The workspace's host, at its `version`: the bins of the view are asked for
    /// ([`Histogram`](ravenshard_model::host::question::Histogram)), under the
    /// workspace's own configuration (`None`) or another one that keeps every document in
    /// its bucket (its JSON).
    Host {
        /// The number of the workspace's last change (the bins are asked again when it
        /// changes).
        version: u64,
        /// Another configuration's JSON.
        configuration: Option<AttrValue>,
    },
}

impl MapDocuments {
    /// The map's accessible name (its region's `aria-label`), distinct for a map under
    /// another configuration (the Resharding view shows both side by side).
    fn label(&self) -> &'static str {
        match self {
            MapDocuments::Host {
                configuration: Some(_),
                ..
            } => "Bucket map under another configuration",
            MapDocuments::Host {
                configuration: None,
                ..
            } => "Bucket map",
        }
    }
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
    Zoom {
        factor: f64,
        at: f64,
    },
    Pan(f64),
    Reset,
    Block(u64),
    /// Buckets `[start, end)` of the block (a drill-down of the heatmap).
    Show {
        start: u64,
        end: u64,
    },
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
            ViewAction::Show { start, end } => View {
                block_start: view.block_start,
                start,
                end,
            }
            .clamped(),
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
    /// The tooltip's top, in CSS pixels from the canvas's.
    y: f64,
    bin: Bin,
}

/// A press on the canvas: where it started and whether it has become a drag.
#[derive(Debug, Default)]
struct Drag {
    pressed: Option<f64>,
    dragged: bool,
}

/// The bucket map of one block: a bar coloured by shard ([`shard_colour`](super::shard_colour)), the documents
/// as ticks or density bars above it, highlighted buckets marked, an axis with the first
/// and last bucket shown. Zoom with the mouse wheel or the buttons (down to single
/// buckets), drag or use the arrows to pan; hover for a bin's range, shard and documents;
/// click to select a bucket.
#[function_component(BucketMap)]
pub fn bucket_map(props: &BucketMapProps) -> Html {
    let view = use_reducer(|| MapView(View::whole(0)));
    let mode = use_state(|| Mode::Ticks);
    let hover = use_state(|| None::<Hover>);
    let canvas = use_node_ref();
    let width = use_canvas_width(&canvas);
    use_wheel_zoom(&canvas, view.dispatcher(), hover.clone());

    let blocks = blocks(&props.topology);
    let block = blocks
        .iter()
        .find(|b| u64::from(b.start) == view.0.block_start);
    let current = if block.is_some() {
        view.0
    } else {
        View::whole(0)
    };
    // A block that disappeared (its prefix was removed): back to the default block.
    {
        let view = view.dispatcher();
        use_effect_with(block.is_some(), move |known| {
            if !*known {
                view.dispatch(ViewAction::Block(0));
            }
        });
    }

    let bins = bin_count(*width, current.len());
    let (counted, drawn_version) = use_map_bins(&props.documents, current, bins);
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
    let pointer = use_pointer(PointerOn {
        canvas: &canvas,
        view: view.dispatcher(),
        hover: &hover,
        counted: (*counted).clone(),
        current,
        bins,
        on_select: &props.on_select_bucket,
    });

    let block = blocks
        .iter()
        .find(|b| u64::from(b.start) == current.block_start);
    let block_label = block.map_or_else(|| "default".to_string(), |b| b.label.clone());
    let shards_in_block: Vec<u32> = block
        .and_then(|b| b.shards.clone())
        .unwrap_or_else(|| props.topology.shards().map(|s| s.number).collect());
    let tooltip = hover.as_ref().map(|h| parts::tooltip(h, *width));
    html! {
        <section class="bucket-map" aria-label={props.documents.label()} data-version={drawn_version.to_string()}>
            { parts::toolbar(&blocks, current, &view.dispatcher(), &mode) }
            <Heatmap topology={props.topology.clone()} documents={props.documents.clone()}
                {current} view={view.dispatcher()} highlight={props.highlight.clone()}
                on_select={props.on_select_bucket.clone()} />
            <div class="map-canvas-wrap" style="position: relative">
                <canvas
                    ref={canvas}
                    class="map-canvas"
                    style={format!("display: block; width: 100%; height: {:.0}px", HEIGHT)}
                    role="img"
                    aria-label={format!("Buckets of the {block_label} block by shard, with documents")}
                    onmousedown={pointer.onmousedown}
                    onmousemove={pointer.onmousemove}
                    onmouseout={pointer.onmouseout}
                    onclick={pointer.onclick}
                />
                <div class="map-tooltip-layer">{ for tooltip }</div>
            </div>
            { parts::axis(current, props.highlight.as_deref().map(Vec::as_slice)) }
            { parts::legend(&shards_in_block) }
        </section>
    }
}
