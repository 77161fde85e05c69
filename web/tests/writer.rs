//! The writer's lock in headless Chromium, in a page of its own (the tab asks for the lock
//! once and holds it while it lives): a studio that opens while another tab holds the lock
//! saves nothing, says so and keeps its changes, and saves them once it gets the lock.
#![cfg(target_arch = "wasm32")]

use ravenshard_studio::persist::records;
use ravenshard_studio::state::WRITER_LOCK;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

mod common;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = "export function hold_lock(name) {
    let release;
    const held = new Promise(resolve => { release = resolve; });
    return new Promise(granted => navigator.locks.request(name, () => {
        granted(() => release());
        return held;
    }));
}")]
extern "C" {
    /// Takes the Web Lock `name` as another tab would: resolves, once held, to what
    /// releases it.
    async fn hold_lock(name: &str) -> JsValue;
}

/// How many documents the saved studio holds (`None`: none saved).
async fn saved_documents() -> Option<usize> {
    let stored = records::read_stored().await.unwrap()?;
    Some(stored.read().unwrap().documents.len())
}

/// A tab that opens while another holds the writer's lock saves nothing, says so in the
/// page and keeps its changes; once the other tab lets go (it closed), this tab becomes the
/// writer, says so, and saves the changes made meanwhile.
#[wasm_bindgen_test]
async fn a_tab_without_the_writers_lock_keeps_its_changes_until_it_gets_it() {
    common::forget_saved().await.unwrap();
    let release: js_sys::Function = hold_lock(WRITER_LOCK).await.unchecked_into();
    let studio = common::fresh_studio().await;
    studio
        .until("the reader's banner", |s| s.find(".not-writer").is_some())
        .await;
    let banner = studio.text(".not-writer");
    assert!(
        banner.contains("Another tab of this studio is saving it"),
        "{banner}"
    );
    studio.type_into("#ids", "customers/1-A").await;
    gloo::timers::future::TimeoutFuture::new(1_000).await;
    assert_eq!(saved_documents().await, None, "a reader saves nothing");
    let banner = studio.text(".not-writer");
    assert!(banner.contains("kept in this tab only"), "{banner}");
    release.call0(&JsValue::NULL).unwrap();
    common::jobs::eventually("the changes saved", || async {
        (saved_documents().await == Some(1)).then_some(())
    })
    .await;
    studio
        .until("no banner", |s| s.find(".not-writer").is_none())
        .await;
    studio
        .until("the writer's notice", |s| {
            (s.find(".notices").and_then(|n| n.text_content()))
                .is_some_and(|t| t.contains("this tab saves it now, with the changes made here"))
        })
        .await;
}
