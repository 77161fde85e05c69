//! The root component: owns the state, opens it (share link, saved studio or sample),
//! saves it, and lays out the masthead, the panels, the tab bar and the view shown, whose
//! address is in the URL fragment ([`routes`](super::routes)).

use super::autosave::use_autosave;
use super::masthead::{masthead, use_exports, warnings};
use super::open;
use super::routes::{keep_routable, use_view_address};
use super::tabs::{tab_view, TabBar};
use crate::app::{ConfigPanel, Notices, WorkspacePanel};
use crate::jobs::import::CancelToken;
use crate::state::{NoticeAction, Work, WorkspaceAction};
use crate::views::state::{Action, State};
use crate::views::Dispatch;
use crate::widgets::{count, plural, ByPtr};
use crate::workers::host;
use ravenshard_model::workspace::{BalanceVerdict, Summary};
use std::cell::RefCell;
use std::rc::Rc;
use yew::hook;
use yew::prelude::*;
use yew_router::HashRouter;

/// The studio page: restores the saved studio (IndexedDB is asynchronous), then shows it
/// under the router.
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
            // Before the router reads the address: an older share link keeps its state.
            keep_routable();
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
        Some((state, saved)) => html! {
            <HashRouter><Studio opened={state.clone()} saved={*saved} /></HashRouter>
        },
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
    let dispatch = use_dispatch(&state);
    let token = use_mut_ref(CancelToken::default);
    let token = (*token.borrow()).clone();

    use_host(&state, &dispatch);
    use_crash_restore(&state, &dispatch);
    let saving = use_autosave(&state, props.saved, &dispatch.notice);
    let exports = use_exports(&state, &dispatch);
    let tab = state.views().tab();
    use_view_address(tab, dispatch.view.clone(), dispatch.notice.clone());

    html! {
        <div class="studio" data-host-version={state.host().version.to_string()}>
            { masthead(&exports) }
            { warnings(&exports, saving) }
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

/// The callbacks that dispatch each sub-state's actions to `state`, made once.
#[hook]
fn use_dispatch(state: &UseReducerHandle<State>) -> Dispatch {
    let dispatcher = state.dispatcher();
    (*use_memo((), move |_| {
        Dispatch::new(Callback::from(move |a: Action| dispatcher.dispatch(a)))
    }))
    .clone()
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
