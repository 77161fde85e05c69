//! The root component: owns the state, opens it (share link, saved studio or sample),
//! saves it, and lays out the panels, the tab bar and the view shown.

use super::autosave::use_autosave;
use super::open;
use super::tabs::{tab_view, TabBar};
use crate::app::{ConfigPanel, Notices, WorkspacePanel};
use crate::jobs::import::CancelToken;
use crate::jobs::{browser, export};
use crate::state::{NoticeAction, Work, WorkspaceAction};
use crate::views::state::{Action, State};
use crate::views::Dispatch;
use crate::widgets::{count, plural, ByPtr};
use crate::workers::host;
use ravenshard_model::host::question::Report;
use ravenshard_model::workspace::{BalanceVerdict, Summary};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::hook;
use yew::prelude::*;

/// The studio page: restores the saved studio (IndexedDB is asynchronous), then shows it.
#[function_component(App)]
pub fn app() -> Html {
    let opened = use_state(|| None::<(ByPtr<RefCell<Option<State>>>, bool)>);
    let restoring = use_state(|| None::<Work>);
    let cancel = use_mut_ref(CancelToken::default).borrow().clone();
    {
        let opened = opened.clone();
        let setter = restoring.setter();
        let cancel = cancel.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                let on_progress = Callback::from(move |w: Work| setter.set(Some(w)));
                let (state, saved) = open::open_state(on_progress, cancel).await;
                opened.set(Some((ByPtr(Rc::new(RefCell::new(Some(state)))), saved)));
            });
        });
    }
    match &*opened {
        None => html! {
            <div class="studio-restoring work-progress" role="status">
                <span class="work-text">{ match &*restoring {
                    Some(work) => work.text(),
                    None => "Restoring the saved studio…".to_string(),
                } }</span>
                if let Some(work) = &*restoring {
                    <progress max="1" value={format!("{:.3}", work.fraction.unwrap_or(0.0))}></progress>
                }
                <button type="button" class="cancel-restore" onclick={move |_: MouseEvent| cancel.cancel()}
                    title="Open the studio without the saved documents; the saved copy is kept until you change something">{ "Cancel" }</button>
            </div>
        },
        Some((state, saved)) => html! { <Studio opened={state.clone()} saved={*saved} /> },
    }
}

/// The state [`Studio`] starts from, taken once.
#[derive(Properties, PartialEq)]
struct StudioProps {
    opened: ByPtr<RefCell<Option<State>>>,
    /// Whether the state is the one IndexedDB holds: then it is saved only once changed.
    saved: bool,
}

/// The studio once opened.
#[function_component(Studio)]
fn studio(props: &StudioProps) -> Html {
    let opened = props.opened.clone();
    let state = use_reducer(move || opened.0.borrow_mut().take().unwrap_or_default());
    let dispatch = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| {
            Dispatch::new(Callback::from(move |a: Action| dispatcher.dispatch(a)))
        }))
        .clone()
    };
    let token = use_mut_ref(CancelToken::default);
    let token = (*token.borrow()).clone();

    use_host(&state, &dispatch);
    use_crash_restore(&state, &dispatch);
    let saving = use_autosave(&state, props.saved, &dispatch.notice);

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
    let on_report = {
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
    };

    let tab = state.views().tab();
    html! {
        <div class="studio" data-host-version={state.host().version.to_string()}>
            <header class="masthead">
                <div class="brand">
                    <h1>{ "ravenshard studio" }</h1>
                    <p class="tagline">
                        { "Where a sharded RavenDB 7.x database puts each document: bucket, shard, \
                           nodes and anchored groups, computed exactly." }
                    </p>
                </div>
                <nav class="toolbar" aria-label="Share and export">
                    <button type="button" class="share-link" onclick={on_share}
                        title="Put the workspace and configuration in the URL and copy it">{ "Share link" }</button>
                    <button type="button" class={classes!("export-csv", csv_progress.is_some().then_some("working"))}
                        onclick={on_csv.clone()}
                        title="id, bucket, shard, collection, size of every document">
                        { match *csv_progress {
                            Some(share) => format!("Writing the CSV… {:.0}% (click to stop)", 100.0 * share),
                            None => "Export CSV".to_string(),
                        } }
                    </button>
                    <button type="button" class="export-report" onclick={on_report}
                        title="Per-shard counts, skew, top buckets and anchored groups">{ "Export report" }</button>
                </nav>
            </header>
            if let Some(text) = &*share_refused {
                <div class="share-refused notice warning" role="alert">
                    <span class="text">{ text.clone() }</span>
                    <button type="button" class="export-refused" onclick={on_csv.clone()}>{ "Export CSV" }</button>
                    <button type="button" class="dismiss" aria-label="Dismiss" onclick={on_dismiss_refusal}>{ "×" }</button>
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
                    <button type="button" class="export-held" onclick={on_csv}>{ "Export CSV" }</button>
                </div>
            }
            <Notices notices={ByPtr(state.notices().clone())} on_action={dispatch.notice.clone()} />
            <main class="layout">
                <aside class="side">
                    <ConfigPanel config={ByPtr(state.config().clone())} on_action={dispatch.config.clone()} />
                    <WorkspacePanel workspace={ByPtr(state.workspace().clone())} {token}
                        on_action={dispatch.workspace.clone()} placer={state.placer()}
                        on_loaded={dispatch.loaded.clone()} />
                </aside>
                <section class="views" aria-label="Views">
                    { totals(state.summary()) }
                    <TabBar {tab} on_action={dispatch.view.clone()} />
                    { tab_view(tab, &state, &dispatch) }
                </section>
            </main>
        </div>
    }
}

/// The workspace's host: its news become actions, and the changes the state queued are
/// sent after each render that queued some, or before a question a view asks first.
#[hook]
fn use_host(state: &State, dispatch: &Dispatch) {
    let on_news = dispatch.state.reform(Action::Host);
    let outbox = state.workspace().outbox().clone();
    let send_queued = {
        let outbox = outbox.clone();
        Callback::from(move |()| {
            for (seq, change) in outbox.take() {
                host::change(seq, change);
            }
        })
    };
    {
        // In the first render, not an effect: the views' first questions (their effects
        // run before this component's) find the queue's sender there.
        let send_queued = send_queued.clone();
        use_memo((), move |_| {
            host::listen(on_news);
            host::before_ask(send_queued);
        });
    }
    use_effect_with(outbox.last(), move |_| send_queued.emit(()));
}

/// When the host's worker stopped (it held the documents), the last saved studio is
/// restored into a new one and takes this one's place ([`Action::Reopen`]); with no saved
/// studio, the workspace is emptied.
#[hook]
fn use_crash_restore(state: &State, dispatch: &Dispatch) {
    let wanted = state.restore_wanted();
    let on_state = dispatch.state.clone();
    use_effect_with(wanted, move |&wanted| {
        if wanted {
            on_state.emit(Action::RestoreStarted);
            wasm_bindgen_futures::spawn_local(async move {
                let restored = match crate::persist::records::read_settings().await {
                    Ok(Some(settings)) => {
                        let mut notices = Vec::new();
                        let cancel = CancelToken::default();
                        let quiet = Callback::noop();
                        let state =
                            open::from_settings(settings, &mut notices, &quiet, &cancel).await;
                        state.map(|mut state| {
                            for notice in notices {
                                state.apply(Action::Notice(NoticeAction::Notify(notice)));
                            }
                            state
                        })
                    }
                    _ => None,
                };
                match restored {
                    Some(state) => on_state.emit(Action::Reopen(Rc::new(state))),
                    None => on_state.emit(Action::Workspace(WorkspaceAction::Clear)),
                }
            });
        }
    });
}

/// The totals over the views: documents, placed, invalid, shards, anchored groups, bytes
/// and the balance verdict.
fn totals(summary: &Summary) -> Html {
    let totals = &summary.totals;
    let balance = summary.document_balance;
    let shards = summary.shards.len();
    let verdict = match balance.verdict {
        Some(BalanceVerdict::Balanced) => ("balanced", "Balanced"),
        Some(BalanceVerdict::Uneven) => ("uneven", "Uneven"),
        Some(BalanceVerdict::Lopsided) => ("lopsided", "Lopsided"),
        None => ("none", "No documents"),
    };
    html! {
        <p class="totals" aria-label="Totals">
            <span class="count-documents"><strong>{ count(totals.documents) }</strong>{ format!(" document{}", plural(totals.documents)) }</span>
            <span class="count-placed"><strong>{ count(totals.placed) }</strong>{ " placed" }</span>
            <span class={classes!("count-invalid", (totals.invalid > 0).then_some("bad"))}>
                <strong>{ count(totals.invalid) }</strong>{ " invalid" }
            </span>
            <span class="count-shards"><strong>{ shards }</strong>{ format!(" shard{}", plural(shards as u64)) }</span>
            <span class="count-groups"><strong>{ count(summary.groups as u64) }</strong>{ " anchored groups" }</span>
            if totals.bytes > 0 {
                <span class="count-bytes"><strong>{ crate::widgets::bytes(totals.bytes) }</strong></span>
            }
            <span class={classes!("verdict", verdict.0)} title="Largest shard over the mean shard, in documents">
                { verdict.1 }
                if let Some(skew) = balance.skew {
                    { format!(" · skew {:.2}", skew) }
                }
            </span>
        </p>
    }
}
