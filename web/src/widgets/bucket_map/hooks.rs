//! The bucket map's hooks: the canvas's width, the wheel's zoom, the bins asked of the
//! host, and the pointer's press, drag, hover and click.

use super::draw::css_width;
use super::{Drag, Hover, MapDocuments, MapView, ViewAction, DRAG_THRESHOLD, FALLBACK_WIDTH};
use crate::widgets::answer::use_answer;
use crate::widgets::geometry::{bin_at, bin_bounds, wheel_factor, View};
use crate::widgets::{pointer_x, ByPtr};
use crate::workers::host;
use gloo::events::{EventListener, EventListenerOptions};
use ravenshard_model::host::question::{FirstUsedBucket, Histogram};
use ravenshard_model::workspace::Bin;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, WheelEvent};
use yew::prelude::*;

/// The canvas's CSS width: measured once mounted and whenever the window is resized.
#[hook]
pub(super) fn use_canvas_width(canvas: &NodeRef) -> UseStateHandle<f64> {
    let width = use_state(|| FALLBACK_WIDTH);
    {
        let canvas = canvas.clone();
        let width = width.clone();
        use_effect_with((), move |_| {
            width.set(css_width(&canvas));
            let resize = EventListener::new(&gloo::utils::window(), "resize", move |_| {
                width.set(css_width(&canvas));
            });
            move || drop(resize)
        });
    }
    width
}

/// The page's colour scheme: 1 while `prefers-color-scheme: dark` matches, else 0,
/// followed as it changes (the canvases read their colours from CSS variables, so they
/// are drawn again).
#[hook]
pub(super) fn use_colour_scheme() -> u32 {
    let dark = || {
        gloo::utils::window()
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten()
    };
    let scheme = use_state(|| dark().map_or(0, |m| u32::from(m.matches())));
    {
        let scheme = scheme.clone();
        use_effect_with((), move |_| {
            let listener = dark().map(|query| {
                let target = query.clone();
                EventListener::new(&target, "change", move |_| {
                    scheme.set(u32::from(query.matches()));
                })
            });
            move || drop(listener)
        });
    }
    *scheme
}

/// Zooms the view with the wheel over the canvas, around the pointer, through a listener
/// that may keep the page from scrolling; the hover is dropped (the bin under the pointer
/// changes with the zoom).
#[hook]
pub(super) fn use_wheel_zoom(
    canvas: &NodeRef,
    view: UseReducerDispatcher<MapView>,
    hover: UseStateHandle<Option<Hover>>,
) {
    let canvas = canvas.clone();
    use_effect_with((), move |_| {
        let wheel = canvas.cast::<HtmlCanvasElement>().map(|element| {
            EventListener::new_with_options(
                &element,
                "wheel",
                EventListenerOptions::enable_prevent_default(),
                move |event| {
                    let Some(event) = event.dyn_ref::<WheelEvent>() else {
                        return;
                    };
                    event.prevent_default();
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
        move || drop(wheel)
    });
}

/// The bins of the view drawn (`bins` of `current`), as the host last answered them, and
/// the host's version they are of (what a measure of an edit waits for).
#[hook]
pub(super) fn use_map_bins(
    documents: &MapDocuments,
    current: View,
    bins: usize,
) -> (Rc<Option<ByPtr<Vec<Bin>>>>, u64) {
    let (start, end) = (
        u32::try_from(current.start).unwrap_or(u32::MAX),
        u32::try_from(current.end).unwrap_or(u32::MAX),
    );
    let (question, version) = match documents {
        MapDocuments::Host {
            version,
            configuration,
        } => {
            let configuration = configuration.as_ref().map(ToString::to_string);
            let bins = u32::try_from(bins).unwrap_or(u32::MAX);
            let question = Histogram {
                configuration,
                start,
                end,
                bins,
            };
            (Some(question), *version)
        }
    };
    let answered = use_answer(question, version);
    let drawn_version = answered.last.as_ref().map_or(0, |(_, a)| a.version);
    let answer = answered
        .last
        .as_ref()
        .map(|(_, a)| ByPtr(Rc::clone(&a.answer)));
    // A target that does not read shows no bins (its editor says why).
    let counted = use_memo(answer, |answer| {
        let bins = answer.as_ref().and_then(|a| a.0.as_ref().as_ref().ok());
        bins.map(|bins| ByPtr(Rc::new(bins.clone())))
    });
    (counted, drawn_version)
}

/// The canvas's pointer handlers.
pub(super) struct Pointer {
    pub(super) onmousedown: Callback<MouseEvent>,
    pub(super) onmousemove: Callback<MouseEvent>,
    pub(super) onmouseout: Callback<MouseEvent>,
    pub(super) onclick: Callback<MouseEvent>,
}

/// What the pointer works on: the canvas, the view shown and its bins.
pub(super) struct PointerOn<'a> {
    pub(super) canvas: &'a NodeRef,
    pub(super) view: UseReducerDispatcher<MapView>,
    pub(super) hover: &'a UseStateHandle<Option<Hover>>,
    pub(super) counted: Option<ByPtr<Vec<Bin>>>,
    pub(super) current: View,
    pub(super) bins: usize,
    pub(super) on_select: &'a Callback<u32>,
}

/// Press and drag to pan, hover for a bin, click to select a bucket: the first with
/// documents in the clicked bin (asked of the host), else the one under the pointer.
#[hook]
pub(super) fn use_pointer(on: PointerOn<'_>) -> Pointer {
    let drag = use_mut_ref(Drag::default);
    let PointerOn {
        canvas,
        view,
        hover,
        counted,
        current,
        bins,
        on_select,
    } = on;
    let bin_under = move |x: f64, w: f64| -> Option<Bin> {
        let (lo, _) = bin_bounds(&current, bins, bin_at(x, w, bins));
        let counted = counted.as_ref()?;
        counted.0.iter().find(|b| u64::from(b.start) == lo).copied()
    };
    let onmousedown = {
        let (drag, canvas) = (drag.clone(), canvas.clone());
        Callback::from(move |e: MouseEvent| {
            let mut drag = drag.borrow_mut();
            drag.pressed = pointer_x(&canvas, e.client_x()).map(|(x, _)| x);
            drag.dragged = false;
        })
    };
    let onmousemove = {
        let (drag, canvas, hover) = (drag.clone(), canvas.clone(), hover.clone());
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
            hover.set(bin_under(x, w).map(|bin| Hover { x, y: 0.0, bin }));
        })
    };
    let onmouseout = {
        let (hover, drag) = (hover.clone(), drag.clone());
        Callback::from(move |_: MouseEvent| {
            hover.set(None);
            *drag.borrow_mut() = Drag::default();
        })
    };
    let onclick = {
        let (canvas, on_select) = (canvas.clone(), on_select.clone());
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
            select_first_used(lo, hi, under, on_select.clone());
        })
    };
    Pointer {
        onmousedown,
        onmousemove,
        onmouseout,
        onclick,
    }
}

/// Tells `on_select` the first bucket with documents in `lo..hi` (asked of the host), else
/// `under`.
fn select_first_used(lo: u32, hi: u32, under: Option<u32>, on_select: Callback<u32>) {
    let question = FirstUsedBucket { start: lo, end: hi };
    host::ask(
        question,
        Callback::from(move |a: host::Answered<Option<u32>>| {
            if let Some(bucket) = a.answer.or(under) {
                on_select.emit(bucket);
            }
        }),
    );
}
