//! The few things the studio asks of the browser: the URL fragment, the clipboard and
//! downloads (saving is [`saving`](super::saving)'s). Every call tolerates a browser that refuses (private mode,
//! storage full, no clipboard): the studio reports it and goes on.

use crate::editors::geometry::group_digits;
use crate::state::{too_big_for_a_link, Level, Notice, NoticeAction, State};
use crate::worker::host;
use gloo::timers::callback::Timeout;
use ravenshard_model::host::{Answer, Question};
use ravenshard_model::share::{finish_fragment, plan_fragment, FragmentPlan, MAX_LINK_CHARS};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

/// Writes a share link for the state into the address bar and copies it; says so (or why
/// not) through `on_notice`. A workspace too big for a link ([`State::share_refusal`], or a
/// link past [`MAX_LINK_CHARS`]) makes none: `on_refused` hears why.
pub fn share(state: &State, on_notice: Callback<NoticeAction>, on_refused: Callback<String>) {
    if let Some(why) = state.share_refusal() {
        return on_refused.emit(why);
    }
    let notify = move |level, text: String| {
        on_notice.emit(NoticeAction::Notify(Notice::new(level, text)));
    };
    let (state, documents) = (state.clone(), state.summary().documents as u64);
    wasm_bindgen_futures::spawn_local(async move {
        // The documents, as the workspace's host holds them (at most a link's worth).
        let question = Question::Documents {
            start: 0,
            end: documents,
        };
        let documents = match host::answer(question).await.map(|a| a.answer) {
            Some(answer) => match &*answer {
                Answer::Documents(documents) => documents.clone(),
                _ => Vec::new(),
            },
            None => {
                let text = "The studio's worker stopped before it gave the documents: share again.";
                return notify(Level::Error, text.into());
            }
        };
        let plan = plan_fragment(&state.shared_with(documents));
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
        if fragment.len() > MAX_LINK_CHARS {
            let why = format!(
                "a link of {} characters; at most {}",
                group_digits(fragment.len() as u64),
                group_digits(MAX_LINK_CHARS as u64)
            );
            return on_refused.emit(too_big_for_a_link(&why));
        }
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
    let part: JsValue = blob_part(text)?.into();
    download_parts(name, mime, &js_sys::Array::of1(&part))
}

/// Offers a file made of `parts` (Blobs, one after the other) for download, as
/// [`download`] does: a large export is written a Blob at a time (each part encoded in the
/// slice that wrote it), and the file made of them only refers to them.
pub fn download_parts(name: &str, mime: &str, parts: &js_sys::Array) -> Result<(), String> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_blob_sequence_and_options(parts, &options)
        .map_err(|_| "the browser could not build the file".to_string())?;
    offer(name, &blob)
}

/// A part of a file for [`download_parts`]: `text` as a Blob.
pub fn blob_part(text: &str) -> Result<web_sys::Blob, String> {
    web_sys::Blob::new_with_str_sequence(&js_sys::Array::of1(&JsValue::from_str(text)))
        .map_err(|_| "the browser could not build the file".to_string())
}

/// Offers `blob` as the file `name`.
fn offer(name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let url = web_sys::Url::create_object_url_with_blob(blob)
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
