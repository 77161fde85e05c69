//! Asks the browser for the exclusive Web Lock [`WRITER_LOCK`]
//! (`navigator.locks.request`): the tab holding it writes the saved studio
//! ([`Writer`](crate::state::Writer)). The lock is held until the tab closes (or the
//! [`WriterLock`] is dropped); the browser then gives it to the next tab that asked.
//!
//! The binding is a few lines of JavaScript: web-sys has `LockManager` only behind
//! `--cfg=web_sys_unstable_apis`, a flag that would rebuild every wasm crate of the studio.

use crate::state::WRITER_LOCK;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "export function request_writer(name, told) {
    if (!(globalThis.navigator && navigator.locks && navigator.locks.request)) return null;
    let live = true;
    let release;
    const held = new Promise(resolve => { release = resolve; });
    const controller = new AbortController();
    const tell = writes => { if (live) told(writes); };
    const hold = () => { tell(true); return held; };
    navigator.locks.request(name, { ifAvailable: true }, lock => {
        if (lock) return hold();
        tell(false);
        navigator.locks.request(name, { signal: controller.signal }, hold).catch(() => {});
        return null;
    }).catch(() => tell(true));
    return () => { live = false; controller.abort(); release(); };
}")]
extern "C" {
    /// Asks for the lock `name`: `told(true)` once this tab holds it, `told(false)` first
    /// when another tab holds it (this one waits in line). Returns what releases it (or
    /// stops waiting), or `null` when the browser has no Web Locks.
    fn request_writer(name: &str, told: &Closure<dyn FnMut(bool)>) -> JsValue;
}

/// This tab's request for [`WRITER_LOCK`], held or waiting until dropped.
pub struct WriterLock {
    release: Option<js_sys::Function>,
    _told: Closure<dyn FnMut(bool)>,
}

impl WriterLock {
    /// Asks for the lock: `on_told` hears `false` when another tab holds it, then `true`
    /// once this tab does. A browser without Web Locks says `true` at once (this tab
    /// writes, as if it were the only one).
    pub fn request(on_told: yew::Callback<bool>) -> WriterLock {
        let told = Closure::<dyn FnMut(bool)>::new({
            let on_told = on_told.clone();
            move |writes| on_told.emit(writes)
        });
        let release = request_writer(WRITER_LOCK, &told)
            .dyn_into::<js_sys::Function>()
            .ok();
        if release.is_none() {
            on_told.emit(true);
        }
        WriterLock {
            release,
            _told: told,
        }
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        if let Some(release) = &self.release {
            let _ = release.call0(&JsValue::NULL);
        }
    }
}
