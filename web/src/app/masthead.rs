//! The studio's masthead (its name and the Share and Export buttons) and the warnings
//! under it that offer the CSV export (a workspace too big for a link, a save the browser
//! refused, a tab that does not save).

use super::autosave::Autosave;
use crate::jobs::{browser, export};
use crate::views::state::State;
use crate::views::Dispatch;
use crate::workers::host;
use ravenshard_model::host::question::Report;
use std::cell::Cell;
use std::rc::Rc;
use yew::hook;
use yew::prelude::*;

/// The masthead's buttons' callbacks and what they show.
#[derive(Clone)]
pub struct Exports {
    /// Share link.
    pub on_share: Callback<MouseEvent>,
    /// Why the last share link was refused, if it was.
    pub share_refused: Option<String>,
    /// Dismisses the refusal.
    pub on_dismiss_refusal: Callback<MouseEvent>,
    /// Export CSV (a click while it runs stops it).
    pub on_csv: Callback<MouseEvent>,
    /// How much of the CSV is written, while it is.
    pub csv_progress: Option<f64>,
    /// Export report.
    pub on_report: Callback<MouseEvent>,
}

/// The masthead's buttons over `state`.
#[hook]
pub fn use_exports(state: &UseReducerHandle<State>, dispatch: &Dispatch) -> Exports {
    let share_refused = use_state(|| None::<String>);
    let on_share = {
        let state = state.clone();
        let on_notice = dispatch.notice.clone();
        let refused = share_refused.clone();
        Callback::from(move |_: MouseEvent| {
            refused.set(None);
            let setter = refused.setter();
            let on_refused = Callback::from(move |why: String| setter.set(Some(why)));
            super::share::share(&state, on_notice.clone(), on_refused)
        })
    };
    let on_dismiss_refusal = {
        let refused = share_refused.clone();
        Callback::from(move |_: MouseEvent| refused.set(None))
    };
    let (on_csv, csv_progress) = use_csv_export(state, dispatch);
    Exports {
        on_share,
        share_refused: (*share_refused).clone(),
        on_dismiss_refusal,
        on_csv,
        csv_progress,
        on_report: report(state, dispatch),
    }
}

/// Export CSV's callback, and how much of the CSV is written while it is.
#[hook]
fn use_csv_export(
    state: &UseReducerHandle<State>,
    dispatch: &Dispatch,
) -> (Callback<MouseEvent>, Option<f64>) {
    let csv_progress = use_state(|| None::<f64>);
    let csv_job = use_mut_ref(|| None::<Rc<Cell<bool>>>);
    let on_csv = {
        let (state, dispatch) = (state.clone(), dispatch.clone());
        let (progress, job) = (csv_progress.clone(), csv_job.clone());
        Callback::from(move |_: MouseEvent| {
            // A click while an export runs stops it.
            if let Some(stopped) = job.borrow_mut().take() {
                stopped.set(true);
                return;
            }
            let name = format!("{}-documents.csv", state.summary().database);
            let on_progress = {
                let (progress, job) = (progress.clone(), job.clone());
                Callback::from(move |share: Option<f64>| {
                    if share.is_none() {
                        job.borrow_mut().take();
                    }
                    progress.set(share);
                })
            };
            let documents = state.summary().documents as u64;
            let on_error = dispatch.error.clone();
            let stopped = export::export_csv(documents, name, on_progress, on_error);
            *job.borrow_mut() = Some(stopped);
        })
    };
    (on_csv, *csv_progress)
}

/// Export report's callback: the host's report as a JSON file.
fn report(state: &UseReducerHandle<State>, dispatch: &Dispatch) -> Callback<MouseEvent> {
    let (state, on_error) = (state.clone(), dispatch.error.clone());
    Callback::from(move |_: MouseEvent| {
        let name = format!("{}-report.json", state.summary().database);
        let on_error = on_error.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let report = host::answer(Report).await.map(|a| a.answer);
            let Some(text) = report.as_deref() else {
                return on_error
                    .emit("The studio's worker did not give the report: export again.".into());
            };
            if let Err(e) = browser::download(&name, "application/json", text) {
                on_error.emit(e);
            }
        });
    })
}

/// The studio's name and its Share and Export buttons.
pub fn masthead(exports: &Exports) -> Html {
    html! {
        <header class="masthead">
            <div class="brand">
                <h1>{ "ravenshard studio" }</h1>
                <p class="tagline">
                    { "Where a sharded RavenDB 7.x database puts each document: bucket, shard, \
                       nodes and anchored groups, computed exactly." }
                </p>
            </div>
            <nav class="toolbar" aria-label="Share and export">
                <button type="button" class="share-link" onclick={exports.on_share.clone()}
                    title="Put the workspace and configuration in the URL and copy it">{ "Share link" }</button>
                <button type="button" class={classes!("export-csv", exports.csv_progress.is_some().then_some("working"))}
                    onclick={exports.on_csv.clone()}
                    title="id, bucket, shard, collection, size of every document">
                    { match exports.csv_progress {
                        Some(share) => format!("Writing the CSV… {:.0}% (click to stop)", 100.0 * share),
                        None => "Export CSV".to_string(),
                    } }
                </button>
                <button type="button" class="export-report" onclick={exports.on_report.clone()}
                    title="Per-shard counts, skew, top buckets and anchored groups">{ "Export report" }</button>
            </nav>
        </header>
    }
}

/// The warnings that offer the CSV export: the share link refused, the save refused, and
/// this tab not saving.
pub fn warnings(exports: &Exports, saving: Autosave) -> Html {
    let on_csv = &exports.on_csv;
    html! {
        <>
            if let Some(text) = &exports.share_refused {
                <div class="share-refused notice warning" role="alert">
                    <span class="text">{ text.clone() }</span>
                    <button type="button" class="export-refused" onclick={on_csv.clone()}>{ "Export CSV" }</button>
                    <button type="button" class="dismiss" aria-label="Dismiss" onclick={exports.on_dismiss_refusal.clone()}>{ "×" }</button>
                </div>
            }
            if let Some(text) = saving.refused {
                <div class="not-saved notice warning" role="alert">
                    <span class="text">{ text }</span>
                    <button type="button" class="export-unsaved" onclick={on_csv.clone()}>{ "Export CSV" }</button>
                </div>
            }
            if let Some(text) = saving.banner {
                <div class="not-writer notice warning" role="status">
                    <span class="text">{ text }</span>
                    <button type="button" class="export-held" onclick={on_csv.clone()}>{ "Export CSV" }</button>
                </div>
            }
        </>
    }
}
