//! The page's side of the workers: one worker a role ([`Channel`]), each started on its
//! role's first [`send`], its replies (its role's type, [`Role::Reply`]) going to the
//! callback of that role's last `send`. A view's cancel or crash stops its own worker
//! only.
//!
//! `gloo-worker`'s bridge does not hand out the browser's `Worker` object, which the page
//! needs to terminate a worker busy in a long computation (cancel) and to hear the `error`
//! event of one that stopped without a word (it could not load, or ran out of memory). So
//! while `spawn` asks `gloo-worker` for a worker, the global `Worker` constructor is
//! wrapped in a `Proxy` that remembers the instance made; the original is put back at once.

use crate::workers::transport::{Channel, Crashed, Input, Reply, Role, RoleWorker};
use futures::channel::mpsc::{unbounded, UnboundedReceiver};
use gloo::worker::{Spawnable, WorkerBridge};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

/// Where the workers' scripts are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Script {
    /// The page's own module (found in the page, [`page_module`]): a worker loads the
    /// same wasm as the page, so the studio downloads one (the browser caches it), and
    /// registers its role ([`register_worker`](super::register_worker)).
    Page,
    /// The wasm-bindgen module at this URL (the browser tests' own module).
    Module(String),
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
/// next to it, `<name>_bg.wasm`) in a worker and registers the role named `role` there.
pub fn loader(module: &str, role: &str) -> Result<String, JsValue> {
    let wasm = format!("{}_bg.wasm", module.trim_end_matches(".js"));
    let source = format!(
        "import init, {{ register_worker }} from '{module}';\n\
         await init({{ module_or_path: '{wasm}' }});\n\
         register_worker('{role}');\n"
    );
    let parts = js_sys::Array::of1(&source.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    web_sys::Url::create_object_url_with_blob(&blob)
}

/// Messages for a worker's own listeners, with what they transfer ([`post_transfer`]):
/// kept until it loaded (`None` once it has).
type Unloaded = Rc<RefCell<Option<Vec<(JsValue, js_sys::Array)>>>>;

/// A running worker: its bridge (a `WorkerBridge` of its role's worker, kept as `Any`
/// so that one table holds every role's).
struct Running {
    bridge: Box<dyn Any>,
    native: Option<web_sys::Worker>,
    /// Its number: one more for each worker started.
    instance: u64,
    unloaded: Unloaded,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

thread_local! {
    static SCRIPT: RefCell<Script> = const { RefCell::new(Script::Page) };
    /// The loader made for each role ([`loader`]), by name.
    static LOADERS: RefCell<HashMap<&'static str, String>> = RefCell::new(HashMap::new());
    static RUNNING: RefCell<HashMap<Channel, Running>> = RefCell::new(HashMap::new());
    /// Where each channel's replies go: a `Callback` of its role's reply.
    static SINKS: RefCell<HashMap<Channel, Box<dyn Any>>> = RefCell::new(HashMap::new());
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
pub fn queue<T: 'static>() -> (Callback<T>, UnboundedReceiver<T>) {
    let (sender, replies) = unbounded();
    let on_reply = Callback::from(move |reply| {
        let _ = sender.unbounded_send(reply);
    });
    (on_reply, replies)
}

/// Uses `script` for the workers started from now on.
pub fn set_script(script: Script) {
    SCRIPT.with(|s| *s.borrow_mut() = script);
    LOADERS.with(|l| l.borrow_mut().clear());
}

/// Sends `request` to its role's worker (started if none runs); its replies, and those of
/// that role's later requests until its next `send`, go to `on_reply`.
pub fn send<R: Role>(request: R::Request, on_reply: Callback<R::Reply>) {
    post::<R>(Input::Request(request), on_reply);
}

/// Asks `R`'s worker (started if none runs) to panic (a hidden debug action: the page
/// must survive it); the crash goes to `on_reply`.
pub fn panic<R: Role>(on_reply: Callback<R::Reply>) {
    post::<R>(Input::Panic, on_reply);
}

/// Starts `R`'s worker if none runs, without a request; its replies go to `on_reply`.
pub fn start<R: Role>(on_reply: Callback<R::Reply>) {
    SINKS.with(|s| s.borrow_mut().insert(R::CHANNEL, Box::new(on_reply)));
    let started = RUNNING.with(|running| {
        let mut running = running.borrow_mut();
        if let Entry::Vacant(slot) = running.entry(R::CHANNEL) {
            slot.insert(spawn::<R>()?);
        }
        Some(())
    });
    if started.is_none() {
        crashed::<R>("the browser could not start the studio's worker".into());
    }
}

/// Posts `message` to `channel`'s running worker with `transfer` (a port), past
/// `gloo-worker`, for a listener of the worker's own
/// ([`peer::listen`](crate::workers::peer::listen)): at once when it loaded, else once it
/// has. `false`: none runs.
pub fn post_transfer(channel: Channel, message: JsValue, transfer: js_sys::Array) -> bool {
    RUNNING.with(|running| {
        let running = running.borrow();
        let Some(running) = running.get(&channel) else {
            return false;
        };
        if let Some(unloaded) = running.unloaded.borrow_mut().as_mut() {
            unloaded.push((message, transfer));
            return true;
        }
        running
            .native
            .as_ref()
            .is_some_and(|n| n.post_message_with_transfer(&message, &transfer).is_ok())
    })
}

fn post<R: Role>(input: Input<R::Request>, on_reply: Callback<R::Reply>) {
    let channel = R::CHANNEL;
    SINKS.with(|s| s.borrow_mut().insert(channel, Box::new(on_reply)));
    let sent = RUNNING.with(|running| {
        let mut running = running.borrow_mut();
        if let Entry::Vacant(slot) = running.entry(channel) {
            if let Some(started) = spawn::<R>() {
                slot.insert(started);
            }
        }
        running
            .get(&channel)
            .is_some_and(|r| bridge_send::<R>(r, input))
    });
    if !sent {
        crashed::<R>("the browser could not start the studio's worker".into());
    }
}

/// Sends `input` over `running`'s bridge, if it is `R`'s.
fn bridge_send<R: Role>(running: &Running, input: Input<R::Request>) -> bool {
    match running.bridge.downcast_ref::<WorkerBridge<RoleWorker<R>>>() {
        Some(bridge) => {
            bridge.send(input);
            true
        }
        None => false,
    }
}

/// Sends `request` to its role's worker if one runs, its replies going where that role's
/// last [`send`] said; `false`: none runs (nothing is sent).
pub fn tell<R: Role>(request: R::Request) -> bool {
    tell_input::<R>(Input::Request(request))
}

/// Asks `R`'s worker to panic if one runs, the crash going where that role's last
/// [`send`] said; `false`: none runs.
pub fn tell_panic<R: Role>() -> bool {
    tell_input::<R>(Input::Panic)
}

fn tell_input<R: Role>(input: Input<R::Request>) -> bool {
    RUNNING.with(|running| {
        running
            .borrow()
            .get(&R::CHANNEL)
            .is_some_and(|r| bridge_send::<R>(r, input))
    })
}

/// Whether a worker is running (of any role).
pub fn is_running() -> bool {
    RUNNING.with(|r| !r.borrow().is_empty())
}

/// The number of `channel`'s running worker: a new number each time one starts, so that
/// a view can tell whether the worker still holds what it sent (`None`: none runs).
pub fn instance(channel: Channel) -> Option<u64> {
    RUNNING.with(|r| r.borrow().get(&channel).map(|r| r.instance))
}

/// Terminates every role's worker (a run in progress stops at once, without a reply: the
/// tests' clean-up; a view cancels with [`stop`]); the next [`send`] starts a new one.
pub fn terminate() {
    for channel in Channel::ALL {
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
        _on_message: on_message,
        ..
    }) = &running
    {
        // The listeners go before their closures are dropped: a message or an error the
        // worker sent before it ended may still be dispatched, and would call a dropped
        // closure (an uncaught "closure invoked ... after being dropped").
        native.set_onerror(None);
        let listener = on_message.as_ref().unchecked_ref();
        let _ = native.remove_event_listener_with_callback("message", listener);
        native.terminate();
    }
    drop(running);
}

fn deliver<R: Role>(reply: R::Reply) {
    let sink = SINKS.with(|s| {
        let sinks = s.borrow();
        let sink = sinks.get(&R::CHANNEL)?;
        sink.downcast_ref::<Callback<R::Reply>>().cloned()
    });
    if let Some(sink) = sink {
        sink.emit(reply);
    }
}

/// `R`'s worker stopped: it is terminated (later, outside the bridge's own callback) and
/// its view told.
fn crashed<R: Role>(message: String) {
    wasm_bindgen_futures::spawn_local(async move { stop(R::CHANNEL) });
    deliver::<R>(R::Reply::from(Crashed { message }));
}

fn on_reply<R: Role>(reply: R::Reply) {
    if reply.crashed().is_some() {
        wasm_bindgen_futures::spawn_local(async move { stop(R::CHANNEL) });
    }
    deliver::<R>(reply);
}

/// The script that starts `R`'s worker: a loader of the page's module (or the tests'),
/// made once.
fn script<R: Role>() -> Option<String> {
    if let Some(url) = LOADERS.with(|l| l.borrow().get(R::NAME).cloned()) {
        return Some(url);
    }
    let module = match SCRIPT.with(|s| s.borrow().clone()) {
        Script::Module(module) => module,
        Script::Page => page_module()?,
    };
    let url = loader(&module, R::NAME).ok()?;
    LOADERS.with(|l| l.borrow_mut().insert(R::NAME, url.clone()));
    Some(url)
}

/// Starts a worker for `R` through `gloo-worker`, keeping the browser's `Worker` it makes.
fn spawn<R: Role>() -> Option<Running> {
    let script = script::<R>()?;
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
    let mut spawner = RoleWorker::<R>::spawner();
    spawner.callback(on_reply::<R>);
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
        crashed::<R>(message);
    });
    let (unloaded, on_message) = on_load(native.as_ref());
    if let Some(native) = &native {
        native.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    }
    let instance = STARTED.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    Some(Running {
        bridge: Box::new(bridge),
        native,
        instance,
        unloaded,
        _on_error: on_error,
        _on_message: on_message,
    })
}

/// The messages kept for `native` until it loaded, and the listener that posts them when
/// its first message comes (`gloo-worker`'s: the worker registered its role).
fn on_load(
    native: Option<&web_sys::Worker>,
) -> (Unloaded, Closure<dyn FnMut(web_sys::MessageEvent)>) {
    let unloaded: Unloaded = Rc::new(RefCell::new(Some(Vec::new())));
    let (kept, worker) = (Rc::clone(&unloaded), native.cloned());
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| {
        let Some(messages) = kept.borrow_mut().take() else {
            return;
        };
        for (message, transfer) in messages {
            if let Some(worker) = &worker {
                let _ = worker.post_message_with_transfer(&message, &transfer);
            }
        }
    });
    if let Some(native) = native {
        let listener = on_message.as_ref().unchecked_ref();
        let _ = native.add_event_listener_with_callback("message", listener);
    }
    (unloaded, on_message)
}
