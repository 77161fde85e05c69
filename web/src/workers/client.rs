//! The page's side of the worker: one worker a view ([`Channel`]: the Advisor, the
//! Resharding view), each started on its view's first [`send`], its replies going to the
//! callback of that view's last `send`. A view's cancel or crash stops its own worker only.
//!
//! `gloo-worker`'s bridge does not hand out the browser's `Worker` object, which the page
//! needs to terminate a worker busy in a long computation (cancel) and to hear the `error`
//! event of one that stopped without a word (it could not load, or ran out of memory). So
//! while `spawn` asks `gloo-worker` for a worker, the global `Worker` constructor is
//! wrapped in a `Proxy` that remembers the instance made; the original is put back at once.

use crate::workers::protocol::{Channel, Reply, Request};
use crate::workers::run::StudioWorker;
use futures::channel::mpsc::{unbounded, UnboundedReceiver};
use gloo::worker::{Spawnable, WorkerBridge};
use std::cell::{Cell, RefCell};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

/// Where the worker's script is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Script {
    /// The page's own module (found in the page, [`page_module`]): the worker loads the
    /// same wasm as the page, so the studio downloads one (the browser caches it), and
    /// registers [`StudioWorker`] ([`register_studio_worker`](super::register_studio_worker)).
    Page,
    /// A module script that loads the wasm and registers [`StudioWorker`] itself
    /// ([`loader`]: the browser tests make one of their test module).
    Loader(String),
}

/// The URL of the page's own wasm-bindgen module (trunk preloads it: a
/// `<link rel="modulepreload">` of a `.js` file).
pub fn page_module() -> Option<String> {
    let window = web_sys::window()?;
    let link = window
        .document()?
        .query_selector("link[rel=modulepreload][href$='.js']")
        .ok()??;
    let href = link.get_attribute("href")?;
    let base = window.location().href().ok()?;
    Some(web_sys::Url::new_with_base(&href, &base).ok()?.href())
}

/// A module script (a blob URL) that loads the wasm-bindgen module at `module` (its wasm
/// next to it, `<name>_bg.wasm`) in a worker and registers [`StudioWorker`] there.
pub fn loader(module: &str) -> Result<String, JsValue> {
    let wasm = format!("{}_bg.wasm", module.trim_end_matches(".js"));
    let source = format!(
        "import init, {{ register_studio_worker }} from '{module}';\n\
         await init({{ module_or_path: '{wasm}' }});\n\
         register_studio_worker();\n"
    );
    let parts = js_sys::Array::of1(&source.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    web_sys::Url::create_object_url_with_blob(&blob)
}

struct Running {
    bridge: WorkerBridge<StudioWorker>,
    native: Option<web_sys::Worker>,
    /// Its number: one more for each worker started.
    instance: u64,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

thread_local! {
    static SCRIPT: RefCell<Script> = const { RefCell::new(Script::Page) };
    static RUNNING: RefCell<HashMap<Channel, Running>> = RefCell::new(HashMap::new());
    static SINKS: RefCell<HashMap<Channel, Callback<Reply>>> = RefCell::new(HashMap::new());
    static STARTED: Cell<u64> = const { Cell::new(0) };
    /// The last run number ([`next_run`]).
    static RUNS: Cell<u64> = const { Cell::new(0) };
}

/// A new run number (of an import, a generation, a restore or a save): one more than the
/// last.
pub fn next_run() -> u64 {
    RUNS.with(|r| {
        r.set(r.get() + 1);
        r.get()
    })
}

/// A callback that queues the replies it is given, and the queue: a run's replies in
/// order. Once the queue is dropped (the run stopped), a late reply is dropped.
pub fn queue() -> (Callback<Reply>, UnboundedReceiver<Reply>) {
    let (sender, replies) = unbounded();
    let on_reply = Callback::from(move |reply| {
        let _ = sender.unbounded_send(reply);
    });
    (on_reply, replies)
}

/// Uses `script` for the workers started from now on.
pub fn set_script(script: Script) {
    SCRIPT.with(|s| *s.borrow_mut() = script);
}

/// Sends `request` to its view's worker (started if none runs); its replies, and those of
/// that view's later requests until its next `send`, go to `on_reply`.
pub fn send(request: Request, on_reply: Callback<Reply>) {
    let channel = request.channel();
    SINKS.with(|s| s.borrow_mut().insert(channel, on_reply));
    let sent = RUNNING.with(|running| {
        let mut running = running.borrow_mut();
        if let Entry::Vacant(slot) = running.entry(channel) {
            if let Some(started) = spawn(channel) {
                slot.insert(started);
            }
        }
        running
            .get(&channel)
            .map(|r| r.bridge.send(request))
            .is_some()
    });
    if !sent {
        crashed(
            channel,
            "the browser could not start the studio's worker".into(),
        );
    }
}

/// Sends `request` to its view's worker if one runs, its replies going where that view's
/// last [`send`] said; `false`: none runs (nothing is sent).
pub fn tell(request: Request) -> bool {
    let channel = request.channel();
    RUNNING.with(|running| {
        running
            .borrow()
            .get(&channel)
            .map(|r| r.bridge.send(request))
            .is_some()
    })
}

/// Whether a worker is running (of any view).
pub fn is_running() -> bool {
    RUNNING.with(|r| !r.borrow().is_empty())
}

/// The number of `channel`'s running worker: a new number each time one starts, so that
/// a view can tell whether the worker still holds what it sent (`None`: none runs).
pub fn instance(channel: Channel) -> Option<u64> {
    RUNNING.with(|r| r.borrow().get(&channel).map(|r| r.instance))
}

/// Terminates every view's worker (a run in progress stops at once, without a reply: the
/// tests' clean-up; a view cancels with [`stop`]); the next [`send`] starts a new one.
pub fn terminate() {
    for channel in [
        Channel::Advisor,
        Channel::Reshard,
        Channel::Import,
        Channel::Save,
        Channel::Workspace,
    ] {
        stop(channel);
    }
}

/// Terminates `channel`'s worker, if one runs; the next [`send`] for it starts a new one.
pub fn stop(channel: Channel) {
    if channel == Channel::Workspace {
        crate::workers::host::stopped();
    }
    let running = RUNNING.with(|r| r.borrow_mut().remove(&channel));
    if let Some(Running {
        native: Some(native),
        ..
    }) = &running
    {
        native.set_onerror(None);
        native.terminate();
    }
    drop(running);
}

fn deliver(channel: Channel, reply: Reply) {
    let sink = SINKS.with(|s| s.borrow().get(&channel).cloned());
    if let Some(sink) = sink {
        sink.emit(reply);
    }
}

/// `channel`'s worker stopped: it is terminated (later, outside the bridge's own
/// callback) and its view told.
fn crashed(channel: Channel, message: String) {
    wasm_bindgen_futures::spawn_local(async move { stop(channel) });
    deliver(channel, Reply::Crashed { message });
}

fn on_reply(channel: Channel, reply: Reply) {
    match reply {
        Reply::Crashed { message } => crashed(channel, message),
        reply => deliver(channel, reply),
    }
}

/// Starts a worker for `channel` through `gloo-worker`, keeping the browser's `Worker` it
/// makes.
fn spawn(channel: Channel) -> Option<Running> {
    let script = match SCRIPT.with(|s| s.borrow().clone()) {
        Script::Loader(url) => url,
        Script::Page => {
            let made = page_module().map(|module| loader(&module));
            let url = made.and_then(Result::ok)?;
            // Made once: the page's module does not change.
            set_script(Script::Loader(url.clone()));
            url
        }
    };
    let made: Rc<RefCell<Option<web_sys::Worker>>> = Rc::default();
    let global = js_sys::global();
    let original = js_sys::Reflect::get(&global, &"Worker".into()).ok()?;
    let remember = Rc::clone(&made);
    let construct = Closure::<dyn FnMut(JsValue, js_sys::Array) -> Result<JsValue, JsValue>>::new(
        move |target: JsValue, args: js_sys::Array| {
            let worker =
                js_sys::Reflect::construct(target.unchecked_ref::<js_sys::Function>(), &args)?;
            *remember.borrow_mut() = worker.dyn_ref::<web_sys::Worker>().cloned();
            Ok(worker)
        },
    );
    let handler = js_sys::Object::new();
    js_sys::Reflect::set(&handler, &"construct".into(), construct.as_ref()).ok()?;
    let proxy = js_sys::Proxy::new(original.unchecked_ref(), &handler);
    let wrapped = js_sys::Reflect::set(&global, &"Worker".into(), &proxy).unwrap_or(false);
    let mut spawner = StudioWorker::spawner();
    spawner.callback(move |reply| on_reply(channel, reply));
    let bridge = spawner.with_loader(true).as_module(true).spawn(&script);
    if wrapped {
        let _ = js_sys::Reflect::set(&global, &"Worker".into(), &original);
    }
    let native = made.borrow_mut().take();
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
        e.prevent_default();
        let said = e.message();
        let message = if said.is_empty() {
            "it could not load, or ran out of memory".into()
        } else {
            said
        };
        crashed(channel, message);
    });
    if let Some(native) = &native {
        native.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    }
    let instance = STARTED.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    Some(Running {
        bridge,
        native,
        instance,
        _on_error: on_error,
    })
}
