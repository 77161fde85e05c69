//! The studio's function components. Each takes `Properties` (data to show, and
//! `Callback`s of the actions of the sub-state it changes, such as
//! `Callback<ConfigAction>`) and computes nothing heavy itself: the numbers come from the
//! [`state`](crate::state), which gets them from the core.

mod advice;
mod advisor;
pub mod answer;
mod app;
pub mod browser;
pub mod bulk;
mod config;
mod content;
mod documents;
mod explain;
pub mod export_job;
mod groups;
pub mod import;
mod locality;
mod map;
mod matrix;
mod notices;
pub mod other_tabs;
mod queries;
mod ranges;
mod reshard;
mod reshard_calls;
mod reshard_host;
pub mod restore;
pub mod saving;
mod shards;
pub mod tabs;
mod workspace;

pub use advice::{AdviceView, AdviceViewProps};
pub use advisor::{AdvisorView, AdvisorViewProps};
pub use app::{App, Dispatch};
pub use config::{ConfigPanel, ConfigPanelProps};
pub use content::{ContentView, ContentViewProps};
pub use documents::{
    DocumentsView, DocumentsViewProps, HighlightedId, HighlightedIdProps, ROW_HEIGHT,
};
pub use explain::{ExplainView, ExplainViewProps};
pub use groups::{GroupsView, GroupsViewProps};
pub use locality::{LocalityView, LocalityViewProps};
pub use map::{MapView, MapViewProps};
pub use matrix::{MatrixView, MatrixViewProps};
pub use notices::{Notices, NoticesProps};
pub use queries::{QueriesView, QueriesViewProps, EXAMPLE_QUERIES};
pub use ranges::{RangesView, RangesViewProps};
pub use reshard::{duration, ReshardView, ReshardViewProps};
pub use shards::{ShardsView, ShardsViewProps};
pub use workspace::{WorkspacePanel, WorkspacePanelProps};

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
    format!("--shard: {}", crate::editors::shard_colour(shard))
}

/// `"s"` unless there is exactly one.
pub fn plural(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// A count with thousands separators: `12,345` (the bucket map's
/// [`group_digits`](crate::editors::geometry::group_digits), for any unsigned count).
pub fn count(n: impl Into<u64>) -> String {
    crate::editors::geometry::group_digits(n.into())
}

/// A byte size for people: `760 B`, `9.4 KB`, `1.2 MB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A share (0..=1) in percent with one decimal.
pub fn percent(share: f64) -> String {
    if share.is_finite() {
        format!("{:.1}%", share * 100.0)
    } else {
        "–".to_string()
    }
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

#[cfg(test)]
mod tests {
    #[test]
    fn formats() {
        assert_eq!(super::count(1234567u64), "1,234,567");
        assert_eq!(super::count(12u64), "12");
        assert_eq!(super::bytes(760), "760 B");
        assert_eq!(super::bytes(2048), "2.0 KB");
        assert_eq!(super::percent(0.5), "50.0%");
    }
}
