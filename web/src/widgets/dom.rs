//! What every component needs of the DOM and of yew: properties compared by pointer,
//! field values from events, drop zones and a shard's colour.

use std::ops::Deref;
use std::rc::Rc;
use web_sys::{DragEvent, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// An `Rc` compared by pointer, so a large derived value (a placement, a row view) can be
/// a property without comparing its contents.
#[derive(Debug)]
pub struct ByPtr<T>(pub Rc<T>);

impl<T> Clone for ByPtr<T> {
    fn clone(&self) -> Self {
        ByPtr(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for ByPtr<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for ByPtr<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The inline style that gives a shard its colour (`--shard`, used by the style sheet), so a
/// shard looks the same in every view.
pub fn shard_style(shard: u32) -> String {
    // The bucket map's palette, so that a shard has one colour in every view.
    format!("--shard: {}", super::shard_colour(shard))
}

/// The `dragover` and `dragleave` handlers of a drop zone: `dragging` is set while a file
/// is held over it (the drop's own handler clears it).
pub fn drag_handlers(
    dragging: &UseStateHandle<bool>,
) -> (Callback<DragEvent>, Callback<DragEvent>) {
    let over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let dragging = dragging.clone();
    (
        over,
        Callback::from(move |_: DragEvent| dragging.set(false)),
    )
}

/// Turns an `<input>`'s or `<textarea>`'s `input` or `change` event into its value.
pub fn value_of(e: &Event) -> Option<String> {
    let target = e.target()?;
    if let Some(input) = wasm_bindgen::JsCast::dyn_ref::<HtmlInputElement>(&target) {
        return Some(input.value());
    }
    if let Some(area) = wasm_bindgen::JsCast::dyn_ref::<HtmlTextAreaElement>(&target) {
        return Some(area.value());
    }
    wasm_bindgen::JsCast::dyn_ref::<HtmlSelectElement>(&target).map(HtmlSelectElement::value)
}

/// A callback for `oninput`/`onchange` that hands the field's value to `f`.
pub fn with_value<E: AsRef<Event> + 'static>(f: impl Fn(String) + 'static) -> Callback<E> {
    Callback::from(move |e: E| {
        if let Some(value) = value_of(e.as_ref()) {
            f(value);
        }
    })
}

/// A callback for `oninput`/`onchange` that emits the field's value as an action.
pub fn on_value<E: AsRef<Event> + 'static, A: 'static>(
    on_action: &Callback<A>,
    to_action: impl Fn(String) -> A + 'static,
) -> Callback<E> {
    let on_action = on_action.clone();
    with_value(move |value| on_action.emit(to_action(value)))
}
