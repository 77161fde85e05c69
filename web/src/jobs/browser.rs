//! The few things the studio asks of the browser: the clipboard and downloads (the share
//! link is [`crate::app::share`]'s, saving [`crate::jobs::save`]'s). Every call tolerates a browser that refuses (private mode,
//! storage full, no clipboard): the studio reports it and goes on.

use gloo::timers::callback::Timeout;
use wasm_bindgen::{JsCast, JsValue};

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
