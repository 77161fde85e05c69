//! Asks the browser for the exclusive Web Lock [`WRITER_LOCK`]
//! (`navigator.locks.request`): the tab holding it writes the saved studio
//! ([`Writer`](crate::state::Writer)). The tab asks once and holds the lock until it
//! closes; the browser then gives it to the next tab that asked. The studio watches the
//! answers ([`WriterLock`]).
//!
//! The binding is a few lines of JavaScript: web-sys has `LockManager` only behind
//! `--cfg=web_sys_unstable_apis`, a flag that would rebuild every wasm crate of the studio.

use crate::state::WRITER_LOCK;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "export function request_writer(name, told) {
    if (!(globalThis.navigator && navigator.locks && navigator.locks.request)) return false;
    const hold = () => { told(true); return new Promise(() => {}); };
    navigator.locks.request(name, { ifAvailable: true }, lock => {
        if (lock) return hold();
        told(false);
        navigator.locks.request(name, hold).catch(() => {});
        return null;
    }).catch(() => told(true));
    return true;
}")]
extern "C" {
    /// Asks for the lock `name`, held until the tab closes: `told(true)` once this tab
    /// holds it, `told(false)` first when another tab holds it (this one waits in line).
    /// `false` when the browser has no Web Locks.
    fn request_writer(name: &str, told: &Closure<dyn FnMut(bool)>) -> bool;
}

/// The tab's request for the lock: the browser's last answer, and who hears the next.
struct TabLock {
    /// `Some(true)`: this tab holds the lock; `Some(false)`: it waits in line.
    writes: Option<bool>,
    watchers: Vec<(u64, yew::Callback<bool>)>,
    last_watcher: u64,
    /// What the browser calls with its answers, for the tab's life.
    _told: Option<Closure<dyn FnMut(bool)>>,
}

thread_local! {
    /// The tab's request, made at the first [`WriterLock::watch`].
    static TAB: std::cell::RefCell<Option<TabLock>> = const { std::cell::RefCell::new(None) };
}

/// The browser answered (`writes`): every watcher hears it.
fn told(writes: bool) {
    let watchers = TAB.with(|tab| {
        let mut tab = tab.borrow_mut();
        let tab = tab.as_mut()?;
        tab.writes = Some(writes);
        Some(
            tab.watchers
                .iter()
                .map(|(_, w)| w.clone())
                .collect::<Vec<_>>(),
        )
    });
    for watcher in watchers.unwrap_or_default() {
        watcher.emit(writes);
    }
}

/// Asks the browser for the lock, once per tab.
fn request() {
    if TAB.with(|tab| tab.borrow().is_some()) {
        return;
    }
    TAB.with(|tab| {
        *tab.borrow_mut() = Some(TabLock {
            writes: None,
            watchers: Vec::new(),
            last_watcher: 0,
            _told: None,
        })
    });
    let closure = Closure::<dyn FnMut(bool)>::new(told);
    let alone = !request_writer(WRITER_LOCK, &closure);
    TAB.with(|tab| {
        if let Some(tab) = tab.borrow_mut().as_mut() {
            tab._told = Some(closure);
        }
    });
    if alone {
        told(true);
    }
}

/// A watch on the tab's part in writing: while it lives, `on_told` hears `false` when
/// another tab holds [`WRITER_LOCK`], then `true` once this tab does. The tab asks for the
/// lock at the first watch and holds it until it closes (a page that mounts the studio
/// again keeps it); a browser without Web Locks says `true` at once (this tab writes, as
/// if it were the only one).
pub struct WriterLock {
    id: u64,
}

impl WriterLock {
    /// Watches the tab's part in writing; what the browser said already is heard at once
    /// (in a task of its own).
    pub fn watch(on_told: yew::Callback<bool>) -> WriterLock {
        request();
        let (id, writes) = TAB.with(|tab| {
            let mut tab = tab.borrow_mut();
            let Some(tab) = tab.as_mut() else {
                return (0, None);
            };
            tab.last_watcher += 1;
            tab.watchers.push((tab.last_watcher, on_told.clone()));
            (tab.last_watcher, tab.writes)
        });
        if let Some(writes) = writes {
            wasm_bindgen_futures::spawn_local(async move { on_told.emit(writes) });
        }
        WriterLock { id }
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        TAB.with(|tab| {
            if let Some(tab) = tab.borrow_mut().as_mut() {
                tab.watchers.retain(|(id, _)| *id != self.id);
            }
        });
    }
}
