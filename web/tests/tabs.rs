//! Browser tests of the tab bar as the WAI-ARIA tabs pattern has it: roles, the selected
//! tab the only one in the tab order, the panel labelled by its tab, and the keys (Left,
//! Right, Home, End) moving the focus and the view.
//!
//! Run with `cd web && CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown --test tabs`.
#![cfg(target_arch = "wasm32")]

use ravenshard_studio::app::tabs::PANEL_ID;
use ravenshard_studio::state::Tab;
use ravenshard_studio::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{HtmlElement, KeyboardEvent, KeyboardEventInit};

mod common;

use common::{fresh_studio, settle, Mounted};

wasm_bindgen_test_configure!(run_in_browser);

/// The id of the focused element.
fn focused() -> String {
    gloo::utils::document()
        .active_element()
        .map(|e| e.id())
        .unwrap_or_default()
}

/// Presses `key` on the focused element (a `keydown`, as a keyboard sends), then lets the
/// studio render; whether the studio took the key (kept it from the browser).
async fn press(key: &str) -> bool {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    let target = gloo::utils::document().active_element().unwrap();
    target.dispatch_event(&event).unwrap();
    settle().await;
    event.default_prevented()
}

/// Checks that `tab` is the one selected, focused and shown, as the pattern has it.
fn shows(studio: &Mounted<App>, tab: Tab) {
    let id = format!("tab-{}", tab.key());
    assert_eq!(focused(), id);
    for t in Tab::all() {
        let button = studio.get(&format!("#tab-{}", t.key()));
        let selected = t == tab;
        assert_eq!(button.get_attribute("role").as_deref(), Some("tab"));
        assert_eq!(
            button.get_attribute("aria-selected").as_deref(),
            Some(if selected { "true" } else { "false" }),
            "{t:?}"
        );
        assert_eq!(
            button.get_attribute("tabindex").as_deref(),
            Some(if selected { "0" } else { "-1" }),
            "{t:?}"
        );
        assert_eq!(
            button.get_attribute("aria-controls").as_deref(),
            Some(PANEL_ID)
        );
    }
    let panel = studio.get(&format!("#{PANEL_ID}"));
    assert_eq!(panel.get_attribute("role").as_deref(), Some("tabpanel"));
    assert_eq!(panel.get_attribute("aria-labelledby"), Some(id));
    let class = panel.class_name();
    assert!(
        class.split(' ').any(|c| c == format!("view-{}", tab.key())),
        "{class}"
    );
}

#[wasm_bindgen_test]
async fn the_keys_move_between_the_tabs_and_show_their_views() {
    let studio = fresh_studio().await;
    assert_eq!(studio.count("[role=\"tablist\"]"), 1);
    assert_eq!(
        studio.count("[role=\"tablist\"] > [role=\"tab\"]") as usize,
        Tab::all().count()
    );
    let all: Vec<Tab> = Tab::all().collect();
    let (first, last) = (all[0], all[all.len() - 1]);
    studio
        .get(&format!("#tab-{}", first.key()))
        .unchecked_into::<HtmlElement>()
        .focus()
        .unwrap();
    assert!(press("ArrowRight").await);
    shows(&studio, all[1]);
    assert!(press("ArrowLeft").await);
    shows(&studio, first);
    assert!(press("ArrowLeft").await);
    shows(&studio, last);
    assert!(press("ArrowRight").await);
    shows(&studio, first);
    assert!(press("End").await);
    shows(&studio, last);
    assert!(press("Home").await);
    shows(&studio, first);
}

#[wasm_bindgen_test]
async fn other_keys_are_left_to_the_browser() {
    let studio = fresh_studio().await;
    let tab = studio.get("#tab-shards").unchecked_into::<HtmlElement>();
    tab.click();
    settle().await;
    tab.focus().unwrap();
    for key in ["ArrowDown", "ArrowUp", "Enter", "a"] {
        assert!(!press(key).await, "{key}");
    }
    shows(&studio, Tab::Shards);
}
