//! The bar of one block's bucket ranges, with a handle on each boundary between two ranges
//! to drag (mouse, touch or pen) or move with the keys.

use super::boundaries::{boundaries_in_block, Boundary, KEY_STEP_LARGE};
use super::geometry::{View, BLOCK_LEN};
use super::ranges::{range_end, ranges_in_block, set_boundary};
use super::{pointer_x, shard_colour};
use crate::numbers::group_digits;
use ravenshard::config::ShardBucketRange;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// Properties of [`RangeBar`].
#[derive(Properties, PartialEq)]
pub struct RangeBarProps {
    /// The ranges shown (of every block; a draft's when there is one).
    pub ranges: Vec<ShardBucketRange>,
    /// The block shown.
    pub block: u32,
    /// Called with a range's index and its new start when its boundary is dropped somewhere
    /// new or moved with a key: once per move, never while dragging.
    pub on_move: Callback<(usize, u32)>,
}

/// A boundary being dragged.
#[derive(Debug, Clone, Copy)]
struct Drag {
    /// The boundary as it was pressed, with the limits it is kept in.
    boundary: Boundary,
    /// The pointer dragging it; other pointers are ignored.
    pointer: i32,
    /// The pointer's x minus the boundary's x when pressed, so that the boundary does not
    /// jump under the pointer.
    grab: f64,
    /// Where the boundary would be dropped now.
    preview: u32,
}

impl Drag {
    /// Follows the pointer to `client_x` over `bar`, showing `view`: whether the preview
    /// moved.
    fn follow(&mut self, bar: &NodeRef, view: &View, client_x: i32) -> bool {
        let Some(bucket) =
            pointer_x(bar, client_x).and_then(|(x, width)| view.boundary_at(x - self.grab, width))
        else {
            return false;
        };
        let preview = self.boundary.clamp(bucket);
        let moved = preview != self.preview;
        self.preview = preview;
        moved
    }
}

/// The drag in progress, kept outside yew's state so that every event sees the latest one.
type DragCell = Rc<RefCell<Option<Drag>>>;

/// Ends the drag by `pointer` (any pointer when `None`), if there is one: the drag as it was.
fn end_drag(drag: &DragCell, pointer: Option<i32>) -> Option<Drag> {
    let mut drag = drag.borrow_mut();
    match *drag {
        Some(d) if pointer.is_none_or(|p| p == d.pointer) => drag.take(),
        _ => None,
    }
}

/// The boundary handle an event happened on.
fn handle_of(e: &Event) -> Option<HtmlElement> {
    e.target()?
        .dyn_into::<Element>()
        .ok()?
        .closest(".range-boundary")
        .ok()??
        .dyn_into::<HtmlElement>()
        .ok()
}

/// One block's ranges as a bar over its 2^20 buckets, coloured by shard. Each boundary
/// between two ranges has a handle: drag it (the boundary follows live, kept strictly between
/// its neighbours; Escape cancels) or focus it and press ArrowLeft/ArrowRight (one bucket;
/// with Shift, 1% of the block), Home or End. The move is reported through `on_move` when
/// the handle is released or the key pressed.
#[function_component(RangeBar)]
pub fn range_bar(props: &RangeBarProps) -> Html {
    let bar = use_node_ref();
    let drag = use_drag(&props.ranges, props.block);
    let redraw = use_force_update();
    let view = View::whole(u64::from(props.block) * BLOCK_LEN);
    let dragging = *drag.borrow();
    let shown = dragging
        .and_then(|d| set_boundary(&props.ranges, d.boundary.index, d.preview).ok())
        .unwrap_or_else(|| props.ranges.clone());
    let handlers = BarHandlers {
        drag,
        bar: bar.clone(),
        redraw,
        view,
    };
    let (onpointermove, onpointerup) = (
        handlers.on_pointer_move(),
        handlers.on_pointer_up(&props.on_move),
    );
    let onpointercancel = handlers.on_pointer_cancel();
    let handles = boundaries_in_block(&shown, props.block)
        .into_iter()
        .map(|b| {
            let preview = dragging
                .filter(|d| d.boundary.index == b.index)
                .map(|d| d.preview);
            html! {
                <BoundaryHandle key={b.index.to_string()} boundary={b} {preview} {view}
                    onpointerdown={handlers.on_pointer_down(b)}
                    onkeydown={handlers.on_key_down(b, &props.on_move)}
                    onpointermove={onpointermove.clone()}
                    onpointerup={onpointerup.clone()}
                    onpointercancel={onpointercancel.clone()} />
            }
        });
    html! {
        <div class="range-bar-wrap">
            <div ref={bar} class="range-bar" role="img" aria-label="The block's ranges by shard">
                { segments(&shown, props.block) }
            </div>
            { for handles }
        </div>
    }
}

/// The drag in progress of a bar showing `ranges` of `block`: dropped when either changes,
/// a drag then meaning nothing any more.
#[hook]
fn use_drag(ranges: &[ShardBucketRange], block: u32) -> DragCell {
    let drag: DragCell = use_mut_ref(|| None);
    {
        let drag = drag.clone();
        use_effect_with((ranges.to_vec(), block), move |_| {
            drag.borrow_mut().take();
        });
    }
    drag
}

/// The segments of `block`'s ranges in `shown`, each as wide as its buckets, in its shard's
/// colour.
fn segments(shown: &[ShardBucketRange], block: u32) -> Html {
    ranges_in_block(shown, block)
        .into_iter()
        .map(|i| {
            let range = shown[i];
            let start = u64::from(range.bucket_range_start);
            let end = range_end(shown, i).unwrap_or(start);
            let width = end.saturating_sub(start) as f64 / BLOCK_LEN as f64 * 100.0;
            let style = format!(
                "width: {width:.4}%; background: {}",
                shard_colour(range.shard_number)
            );
            let title = format!(
                "{} – {}: shard {}",
                group_digits(start),
                group_digits(end.saturating_sub(1)),
                range.shard_number
            );
            html! { <div class="range-segment" data-range={i.to_string()} {style} {title} /> }
        })
        .collect()
}

/// The makings of a bar's handlers: the drag in progress, the bar (where the pointer is
/// read), the way to draw the bar again and the buckets it shows.
struct BarHandlers {
    drag: DragCell,
    bar: NodeRef,
    redraw: UseForceUpdateHandle,
    view: View,
}

impl BarHandlers {
    /// The dragged boundary follows its pointer.
    fn on_pointer_move(&self) -> Callback<PointerEvent> {
        let (drag, bar, redraw, view) = self.parts();
        Callback::from(move |e: PointerEvent| {
            let mut drag = drag.borrow_mut();
            if let Some(d) = drag.as_mut().filter(|d| d.pointer == e.pointer_id()) {
                if d.follow(&bar, &view, e.client_x()) {
                    redraw.force_update();
                }
            }
        })
    }

    /// The dragged boundary is dropped: a move to somewhere new goes to `on_move`.
    fn on_pointer_up(&self, on_move: &Callback<(usize, u32)>) -> Callback<PointerEvent> {
        let (drag, bar, redraw, view) = self.parts();
        let on_move = on_move.clone();
        Callback::from(move |e: PointerEvent| {
            let Some(mut d) = end_drag(&drag, Some(e.pointer_id())) else {
                return;
            };
            d.follow(&bar, &view, e.client_x());
            redraw.force_update();
            if d.preview != d.boundary.at {
                on_move.emit((d.boundary.index, d.preview));
            }
        })
    }

    /// The browser took the pointer over (a scroll, a system gesture): nothing moves.
    fn on_pointer_cancel(&self) -> Callback<PointerEvent> {
        let (drag, _, redraw, _) = self.parts();
        Callback::from(move |e: PointerEvent| {
            if end_drag(&drag, Some(e.pointer_id())).is_some() {
                redraw.force_update();
            }
        })
    }

    /// A press on `b`'s handle starts dragging it.
    fn on_pointer_down(&self, b: Boundary) -> Callback<PointerEvent> {
        let (drag, bar, redraw, view) = self.parts();
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 || drag.borrow().is_some() {
                return;
            }
            let Some((x, width)) = pointer_x(&bar, e.client_x()) else {
                return;
            };
            // No text selection, no emulated mouse events; focus for Escape and the keys.
            e.prevent_default();
            if let Some(handle) = handle_of(&e) {
                let _ = handle.focus();
                // Fails for a pointer that is no longer down: the drag then goes on
                // while the pointer stays over the handle.
                let _ = handle.set_pointer_capture(e.pointer_id());
            }
            *drag.borrow_mut() = Some(Drag {
                boundary: b,
                pointer: e.pointer_id(),
                grab: x - view.x_of(u64::from(b.at), width),
                preview: b.at,
            });
            redraw.force_update();
        })
    }

    /// A key on `b`'s handle: Escape cancels a drag; without one, the arrows, Home and End
    /// move `b` (through `on_move`).
    fn on_key_down(
        &self,
        b: Boundary,
        on_move: &Callback<(usize, u32)>,
    ) -> Callback<KeyboardEvent> {
        let (drag, _, redraw, _) = self.parts();
        let on_move = on_move.clone();
        Callback::from(move |e: KeyboardEvent| {
            if drag.borrow().is_some() {
                if e.key() == "Escape" {
                    e.prevent_default();
                    if let (Some(d), Some(handle)) = (end_drag(&drag, None), handle_of(&e)) {
                        let _ = handle.release_pointer_capture(d.pointer);
                    }
                    redraw.force_update();
                }
                return;
            }
            if let Some(to) = b.moved_by_key(&e.key(), e.shift_key()) {
                e.prevent_default();
                on_move.emit((b.index, to));
            }
        })
    }

    /// Clones of what a handler keeps.
    fn parts(&self) -> (DragCell, NodeRef, UseForceUpdateHandle, View) {
        let BarHandlers {
            drag,
            bar,
            redraw,
            view,
        } = self;
        (drag.clone(), bar.clone(), redraw.clone(), *view)
    }
}

/// Properties of [`BoundaryHandle`].
#[derive(Properties, PartialEq)]
struct BoundaryHandleProps {
    /// The boundary.
    boundary: Boundary,
    /// Where it would be dropped, while it is dragged.
    preview: Option<u32>,
    /// The buckets the bar shows.
    view: View,
    /// Starts a drag.
    onpointerdown: Callback<PointerEvent>,
    /// Moves with the keys, or cancels a drag.
    onkeydown: Callback<KeyboardEvent>,
    /// Follows the pointer.
    onpointermove: Callback<PointerEvent>,
    /// Drops.
    onpointerup: Callback<PointerEvent>,
    /// Cancels.
    onpointercancel: Callback<PointerEvent>,
}

/// The handle of a boundary: a slider over the bar at the boundary's bucket (its preview's
/// while dragged, with the bucket shown).
#[function_component(BoundaryHandle)]
fn boundary_handle(props: &BoundaryHandleProps) -> Html {
    let b = props.boundary;
    let at = props.preview.unwrap_or(b.at);
    let bucket = group_digits(u64::from(at));
    html! {
        <div
            class={classes!("range-boundary", props.preview.is_some().then_some("dragging"))}
            data-boundary={b.index.to_string()}
            style={format!("left: {:.4}%", props.view.x_of(u64::from(at), 100.0))}
            role="slider"
            tabindex="0"
            aria-orientation="horizontal"
            aria-valuemin={b.min.to_string()}
            aria-valuemax={b.max.to_string()}
            aria-valuenow={at.to_string()}
            aria-valuetext={format!("bucket {bucket}")}
            aria-label={format!("Boundary at bucket {bucket}: drag to move")}
            title={format!(
                "Boundary at bucket {bucket}: drag to move, or ←/→ for one bucket \
                 (Shift: {})",
                group_digits(u64::from(KEY_STEP_LARGE))
            )}
            onpointerdown={props.onpointerdown.clone()}
            onpointermove={props.onpointermove.clone()}
            onpointerup={props.onpointerup.clone()}
            onpointercancel={props.onpointercancel.clone()}
            onkeydown={props.onkeydown.clone()}
        >
            if props.preview.is_some() {
                <span class="boundary-preview" aria-hidden="true">{ bucket.clone() }</span>
            }
        </div>
    }
}
