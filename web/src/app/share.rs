//! The share link: the state in the URL fragment, as the query of the view's address
//! (`#/<view>?<state>`), compressed by the browser when long.

use super::routes::Route;
use crate::jobs::browser::copy_text;
use crate::numbers::group_digits;
use crate::state::{Level, Notice, NoticeAction};
use crate::views::state::{too_big_for_a_link, State};
use crate::workers::host;
use ravenshard_model::host::question::Documents;
use ravenshard_model::share::{finish_fragment, plan_fragment, FragmentPlan, MAX_LINK_CHARS};
use wasm_bindgen::prelude::wasm_bindgen;
use yew::Callback;
use yew_router::Routable;

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
    let tab = state.views().tab();
    wasm_bindgen_futures::spawn_local(async move {
        // The documents, as the workspace's host holds them (at most a link's worth).
        let question = Documents {
            start: 0,
            end: documents,
        };
        let documents = match host::answer(question).await {
            Some(answered) => Vec::clone(&answered.answer),
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
        // The view's address, the state as its query (the router's history sees it).
        let address = Route::View { tab }.to_path();
        let _ = window.location().set_hash(&format!("{address}?{fragment}"));
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
