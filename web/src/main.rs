//! The studio's entry point: renders [`App`] into the page's `<body>`. The studio's workers
//! load this same module (one download for the page and its workers): there, with no
//! window, it renders nothing, and the worker's loader registers the worker.

use ravenshard_studio::App;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

fn main() {
    if web_sys::window().is_some() {
        yew::Renderer::<App>::new().render();
    }
}

/// The bytes of the page's WebAssembly memory (it grows, never shrinks): what
/// `web/bench/studio.py --memory` reads before and after a generation, as
/// `window.wasmBindings.wasm_memory_bytes()` (trunk puts the module's exports there).
#[wasm_bindgen]
pub fn wasm_memory_bytes() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length()
        .into()
}
