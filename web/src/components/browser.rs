//! The few things the studio asks of the browser: the URL fragment, `localStorage`, the
//! clipboard and downloads. Every call tolerates a browser that refuses (private mode,
//! storage full, no clipboard): the studio reports it and goes on.

use crate::state::{
    read_saved, Action, Level, Notice, NoticeAction, State, SET_ASIDE_KEY, STORAGE_KEY,
};
use gloo::timers::callback::Timeout;
use ravenshard_model::share::decode_fragment;
use ravenshard_model::share::{finish_fragment, plan_fragment, FragmentPlan};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The state the studio opens on: a share link in the URL fragment wins, then the saved
/// studio, then the chapter's examples. Problems are reported as notices; an unreadable
/// saved studio is set aside under [`SET_ASIDE_KEY`].
pub fn initial_state() -> State {
    let mut notices: Vec<Notice> = Vec::new();
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if hash.trim_start_matches('#').trim().is_empty() {
        // No link: the saved studio.
    } else {
        match decode_fragment(&hash) {
            Ok(shared) => return State::from_shared(shared),
            Err(e) => notices.push(Notice::new(
                Level::Error,
                format!("The link in the address bar cannot be opened: {e}"),
            )),
        }
    }
    let mut state = match storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()) {
        None => State::default(),
        Some(text) => match read_saved(&text).and_then(State::from_saved) {
            Ok(state) => state,
            Err(reason) => {
                if let Some(s) = storage() {
                    let _ = s.set_item(SET_ASIDE_KEY, &text);
                    let _ = s.remove_item(STORAGE_KEY);
                }
                notices.push(Notice::new(
                    Level::Warning,
                    format!(
                        "Your saved studio could not be restored: {reason}. It was set aside \
                         (localStorage key \"{SET_ASIDE_KEY}\") and the studio opened on the \
                         chapter's examples."
                    ),
                ));
                State::default()
            }
        },
    };
    for notice in notices {
        state.apply(Action::Notice(NoticeAction::Notify(notice)));
    }
    state
}

/// Saves the studio; says why not when the browser refuses (usually: too large).
pub fn save(state: &State) -> Result<(), String> {
    let text = serde_json::to_string(&state.saved()).map_err(|e| e.to_string())?;
    let storage = storage().ok_or("this browser gives the page no localStorage")?;
    storage.set_item(STORAGE_KEY, &text).map_err(|_| {
        format!(
            "the browser refused to store {} KB (its localStorage is full or limited)",
            text.len() / 1024
        )
    })
}

/// Writes a share link for the state into the address bar and copies it; says so (or why
/// not) through `on_notice`.
pub fn share(state: &State, on_notice: Callback<NoticeAction>) {
    let notify = move |level, text: String| {
        on_notice.emit(NoticeAction::Notify(Notice::new(level, text)));
    };
    let plan = plan_fragment(&state.shared());
    wasm_bindgen_futures::spawn_local(async move {
        let fragment = match plan {
            FragmentPlan::Plain(plain) => plain,
            FragmentPlan::Compress { plain, json } => match deflate_raw(&json).await {
                Ok(deflated) => {
                    finish_fragment(plain, &js_sys::Uint8Array::new(&deflated).to_vec())
                }
                Err(_) => {
                    notify(
                        Level::Error,
                        "The browser could not compress the share link (CompressionStream \
                         is missing or failed); use Export CSV to share the workspace."
                            .into(),
                    );
                    return;
                }
            },
        };
        let Some(window) = web_sys::window() else {
            return;
        };
        let _ = window.location().set_hash(&fragment);
        let url = window.location().href().unwrap_or_default();
        let copied = copy_text(&url).await;
        let text = if copied {
            format!(
                "Share link copied ({} characters); it is also in the address bar.",
                url.len()
            )
        } else {
            format!(
                "The share link is in the address bar ({} characters); copy it from there.",
                url.len()
            )
        };
        notify(Level::Info, text);
    });
}

#[wasm_bindgen(inline_js = "export async function deflate_raw(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
}")]
extern "C" {
    /// Raw DEFLATE by the browser (`CompressionStream("deflate-raw")`), so the page does
    /// not carry a compressor of its own: a `Uint8Array`.
    #[wasm_bindgen(catch)]
    async fn deflate_raw(bytes: &[u8]) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>;
}

/// Writes `text` to the clipboard: `false` when the page has no clipboard (an insecure page)
/// or the browser refuses.
pub async fn copy_text(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    has_clipboard
        && wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(text))
            .await
            .is_ok()
}

/// Offers `text` as a file download.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser could not build the file".to_string())?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not offer the file".to_string())?;
    let document = gloo::utils::document();
    let anchor = document
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or("the browser could not offer the file")?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // Revoke the URL once the browser has started the download.
    Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}
