//! What every browser test of the studio needs: a component mounted in its own `<div>`,
//! found, read and acted on as a user would.
#![allow(dead_code)] // Each test file uses a different part.

pub mod jobs;

use ravenshard_studio::persist::records;
use ravenshard_studio::workers::client::{self, Script};
use ravenshard_studio::workers::host;
use ravenshard_studio::App;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, Event, EventInit, HtmlElement, HtmlInputElement, HtmlSelectElement,
    HtmlTextAreaElement,
};
use yew::{AppHandle, BaseComponent};

/// A component mounted in its own `<div>` (800 px wide); unmounted and removed on drop.
pub struct Mounted<C: BaseComponent> {
    pub root: Element,
    handle: Option<AppHandle<C>>,
}

impl<C: BaseComponent> Mounted<C> {
    /// Mounts `C` with `props` and lets yew render.
    pub async fn mount(props: C::Properties) -> Self {
        let root = gloo::utils::document().create_element("div").unwrap();
        root.set_attribute("style", "width: 800px").unwrap();
        gloo::utils::body().append_child(&root).unwrap();
        let handle = yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
        yew::scheduler::flush().await;
        Mounted {
            root,
            handle: Some(handle),
        }
    }

    pub fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    pub fn get(&self, selector: &str) -> Element {
        self.find(selector)
            .unwrap_or_else(|| panic!("no element matches {selector:?}"))
    }

    pub fn text(&self, selector: &str) -> String {
        self.get(selector).text_content().unwrap_or_default()
    }

    pub fn count(&self, selector: &str) -> u32 {
        self.root.query_selector_all(selector).unwrap().length()
    }

    /// Fires a bubbling event of `kind` at the element, then lets yew render.
    pub async fn fire(&self, selector: &str, kind: &str) {
        fire(&self.get(selector), kind);
        settle().await;
    }

    pub async fn click(&self, selector: &str) {
        self.get(selector).unchecked_ref::<HtmlElement>().click();
        settle().await;
    }

    /// Sets a field's value and fires `event` (`input` as typing does, `change` as leaving
    /// the field does), then lets yew render.
    pub async fn set(&self, selector: &str, value: &str, event: &str) {
        let element = self.get(selector);
        if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
            area.set_value(value);
        } else if let Some(select) = element.dyn_ref::<HtmlSelectElement>() {
            select.set_value(value);
        } else {
            element.unchecked_ref::<HtmlInputElement>().set_value(value);
        }
        fire(&element, event);
        settle().await;
    }

    /// Types into a field: sets its value and fires `input`.
    pub async fn type_into(&self, selector: &str, value: &str) {
        self.set(selector, value, "input").await;
    }

    /// Ticks a checkbox and fires `change`.
    pub async fn check(&self, selector: &str) {
        let element = self.get(selector);
        element
            .unchecked_ref::<HtmlInputElement>()
            .set_checked(true);
        fire(&element, "change");
        settle().await;
    }

    /// Clicks Balance and waits (at most ~30 s) until the worker's balance, and its
    /// comparison, are shown (or a message says why not).
    pub async fn balance(&self) {
        self.click("button.balance").await;
        self.until("the balance and its plan", |s| {
            s.find(".balancing").is_none()
                && s.find("table.objectives tr.pending").is_none()
                && s.find(".planning").is_none()
        })
        .await;
    }

    /// Waits (at most ~30 s) until `ready` holds.
    pub async fn until(&self, what: &str, ready: impl Fn(&Self) -> bool) {
        for _ in 0..1500 {
            if ready(self) {
                if !idle() {
                    settle().await;
                }
                return;
            }
            gloo::timers::future::TimeoutFuture::new(20).await;
            yew::scheduler::flush().await;
        }
        panic!("timed out waiting for {what}");
    }

    /// Waits (at most ~5 s) until `selector` matches.
    pub async fn wait_for(&self, selector: &str) {
        for _ in 0..250 {
            if self.find(selector).is_some() {
                settle().await;
                return;
            }
            gloo::timers::future::TimeoutFuture::new(20).await;
            yew::scheduler::flush().await;
        }
        panic!("{selector:?} never appeared");
    }
}

impl<C: BaseComponent> Drop for Mounted<C> {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
        self.root.remove();
    }
}

/// Whether the workspace's host answered every change sent and every question asked, and
/// no view shows a plan on its way from the Resharding view's worker.
fn idle() -> bool {
    let planning = gloo::utils::document().query_selector(".planning");
    host::is_idle() && matches!(planning, Ok(None))
}

/// Lets yew render, then waits (at most ~30 s: a debug build's worker compiles its module
/// and places a large workspace slowly) until the workspace's host answered every change
/// sent and every question asked, the Resharding view's plan came, and the views rendered
/// the answers: a view that reads the host then shows what a user would see.
pub async fn settle() {
    yew::scheduler::flush().await;
    for _ in 0..6000 {
        if idle() {
            yew::scheduler::flush().await;
            if idle() {
                return;
            }
        }
        gloo::timers::future::TimeoutFuture::new(5).await;
        yew::scheduler::flush().await;
    }
}

/// Fires a bubbling event of `kind` at `element`.
pub fn fire(element: &Element, kind: &str) {
    fire_at(element, kind);
}

/// Fires a bubbling event of `kind` at any target (an element, the window).
pub fn fire_at(target: &web_sys::EventTarget, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).unwrap();
    target.dispatch_event(&event).unwrap();
}

/// The studio's workers load this test module (any worker running is stopped).
pub fn use_this_module_as_the_worker() {
    let base = gloo::utils::window().location().href().unwrap();
    let module = web_sys::Url::new_with_base("wasm-bindgen-test.js", &base)
        .unwrap()
        .href();
    // The runner builds the test module without a default path for its wasm: the loader
    // of each role gives it.
    client::terminate();
    client::set_script(Script::Module(module));
}

/// Removes the saved studio (all of IndexedDB's database `ravenshard-studio`): a test
/// starts from nothing.
pub async fn forget_saved() -> Result<(), rexie::Error> {
    rexie::Rexie::delete(records::DATABASE).await
}

/// The studio mounted on a clean slate (no saved studio, no link), its workers loading this
/// test module.
pub async fn fresh_studio() -> Mounted<App> {
    studio_at("").await
}

/// The studio mounted with no saved studio, its address (URL fragment) `hash`, its workers
/// loading this test module.
pub async fn studio_at(hash: &str) -> Mounted<App> {
    let window = web_sys::window().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    forget_saved().await.unwrap();
    window.location().set_hash(hash).unwrap();
    use_this_module_as_the_worker();
    let studio = Mounted::<App>::mount(()).await;
    studio.wait_for(".studio").await;
    studio
}
