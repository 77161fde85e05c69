//! What the roles that read a file share: how far a run is ([`Progress`], sent at most
//! every [`PROGRESS_EVERY_MS`] by a `Reporter`) and the file's chunks (`Chunks`, read
//! by `fetch` from the page's blob URL).

use crate::workers::transport::{Role, Scope, PROGRESS_EVERY_MS};
use gloo::worker::HandlerId;
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// What a run is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Reading the export: `done` bytes of `total`.
    Reading,
    /// Scoring the candidates: `done` documents of `total` scored under all of them.
    Scoring,
}

/// How far a run is (sent at most every [`PROGRESS_EVERY_MS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The run.
    pub run: u64,
    /// Its stage.
    pub stage: Stage,
    /// Done so far (bytes or documents).
    pub done: u64,
    /// Of how many, when known.
    pub total: Option<u64>,
    /// Milliseconds since the stage began.
    pub elapsed_ms: u64,
}

/// Sends [`Progress`] at most every [`PROGRESS_EVERY_MS`].
pub(crate) struct Reporter<'s, R: Role> {
    scope: &'s Scope<R>,
    id: HandlerId,
    run: u64,
    stage: Stage,
    began: f64,
    last: f64,
}

impl<'s, R: Role> Reporter<'s, R>
where
    R::Reply: From<Progress>,
{
    /// Reports `run`'s `stage` to `id`, from now.
    pub(crate) fn new(scope: &'s Scope<R>, id: HandlerId, run: u64, stage: Stage) -> Self {
        Reporter {
            scope,
            id,
            run,
            stage,
            began: js_sys::Date::now(),
            last: 0.0,
        }
    }

    /// Goes on to `stage`, from now.
    pub(crate) fn stage(&mut self, stage: Stage) {
        self.stage = stage;
        self.began = js_sys::Date::now();
        self.last = 0.0;
    }

    /// Reports `done` of `total`, unless it reported less than [`PROGRESS_EVERY_MS`]
    /// ago (`force`: at once).
    pub(crate) fn report(&mut self, done: u64, total: Option<u64>, force: bool) {
        let now = js_sys::Date::now();
        if !force && now - self.last < PROGRESS_EVERY_MS {
            return;
        }
        self.last = now;
        let progress = Progress {
            run: self.run,
            stage: self.stage,
            done,
            total,
            elapsed_ms: (now - self.began).max(0.0) as u64,
        };
        self.scope.respond(self.id, progress.into());
    }
}

/// What a JavaScript exception says.
fn js_message(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => e.as_string().unwrap_or_else(|| format!("{e:?}")),
    }
}

/// The chunks of the file at `url`, read by `fetch` (a blob URL of the page).
pub(crate) struct Chunks {
    reader: web_sys::ReadableStreamDefaultReader,
}

impl Chunks {
    pub(crate) async fn open(url: &str) -> Result<Chunks, String> {
        let global: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
        let failed =
            |e: JsValue| format!("the worker could not read the file ({})", js_message(&e));
        let response = JsFuture::from(global.fetch_with_str(url))
            .await
            .map_err(failed)?;
        let response: web_sys::Response = response.unchecked_into();
        let body = response
            .body()
            .ok_or("the worker could not read the file (it has no body)")?;
        let reader = body.get_reader().unchecked_into();
        Ok(Chunks { reader })
    }

    pub(crate) async fn next(&self) -> Result<Option<Vec<u8>>, String> {
        let result = JsFuture::from(self.reader.read())
            .await
            .map_err(|e| format!("the worker could not read the file ({})", js_message(&e)))?;
        let done = js_sys::Reflect::get(&result, &"done".into()).unwrap_or(JsValue::TRUE);
        if done.as_bool().unwrap_or(true) {
            return Ok(None);
        }
        let value = js_sys::Reflect::get(&result, &"value".into()).unwrap_or(JsValue::NULL);
        Ok(Some(js_sys::Uint8Array::new(&value).to_vec()))
    }
}

#[cfg(test)]
mod tests {
    /// The directive `name` of the page's Content-Security-Policy (`index.html`).
    fn page_directive(name: &str) -> String {
        let page = include_str!("../../../index.html");
        let policy = page
            .split("http-equiv=\"Content-Security-Policy\" content=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("index.html has a Content-Security-Policy");
        policy
            .split(';')
            .map(str::trim)
            .find(|directive| directive.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("the policy has no {name}: {policy}"))
            .to_string()
    }

    /// The workers fetch the blob: URL of the file the page hands them (`Chunks`): the
    /// page's policy must allow it, or every import of a document list and every advice is
    /// refused in the built studio (scripts/browser_fuzz.sh sees it in Chromium).
    #[test]
    fn the_page_policy_lets_the_workers_fetch_blob_urls() {
        let connect = page_directive("connect-src");
        assert!(
            connect.split_whitespace().any(|source| source == "blob:"),
            "{connect}"
        );
    }
}
