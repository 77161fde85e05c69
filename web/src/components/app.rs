//! The root component: owns the state, opens it (share link, saved studio or sample),
//! saves it, and lays out the panels, the tab bar and the view shown.

use super::browser;
use super::import::CancelToken;
use super::tabs::{tab_view, TabBar};
use super::{count, plural, ByPtr, ConfigPanel, Notices, WorkspacePanel};
use crate::state::{
    Action, ConfigAction, DesignAction, Level, Notice, NoticeAction, ReshardAction, State,
    ViewAction, WorkspaceAction,
};
use gloo::timers::callback::Timeout;
use ravenshard_model::workspace::{BalanceVerdict, Placement};
use yew::prelude::*;

/// How long the studio waits after the last change before saving.
const SAVE_DELAY_MS: u32 = 400;

/// Where each sub-state's actions go: made once, so that a view's properties stay equal
/// from one render to the next.
#[derive(Clone, PartialEq)]
pub struct Dispatch {
    /// Actions that span sub-states.
    pub state: Callback<Action>,
    /// The configuration's.
    pub config: Callback<ConfigAction>,
    /// The workspace's.
    pub workspace: Callback<WorkspaceAction>,
    /// The views'.
    pub view: Callback<ViewAction>,
    /// The design's.
    pub design: Callback<DesignAction>,
    /// The Resharding view's.
    pub reshard: Callback<ReshardAction>,
    /// The notices'.
    pub notice: Callback<NoticeAction>,
    /// An error notice.
    pub error: Callback<String>,
    /// [`Action::TransactionOfShownDocuments`].
    pub transaction_of_shown: Callback<()>,
    /// [`Action::UseReshardTarget`].
    pub use_reshard_target: Callback<()>,
}

impl Dispatch {
    fn new(state: Callback<Action>) -> Dispatch {
        Dispatch {
            config: state.reform(Action::Config),
            workspace: state.reform(Action::Workspace),
            view: state.reform(Action::View),
            design: state.reform(Action::Design),
            reshard: state.reform(Action::Reshard),
            notice: state.reform(Action::Notice),
            error: state.reform(|text| {
                Action::Notice(NoticeAction::Notify(Notice::new(Level::Error, text)))
            }),
            transaction_of_shown: state.reform(|()| Action::TransactionOfShownDocuments),
            use_reshard_target: state.reform(|()| Action::UseReshardTarget),
            state,
        }
    }
}

/// The studio page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(browser::initial_state);
    let dispatch = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| {
            Dispatch::new(Callback::from(move |a: Action| dispatcher.dispatch(a)))
        }))
        .clone()
    };
    let token = use_mut_ref(CancelToken::default);
    let token = (*token.borrow()).clone();

    // Save (debounced) when the workspace or the configuration changes.
    let pending = use_mut_ref(|| None::<Timeout>);
    {
        let snapshot = (*state).clone();
        let on_notice = dispatch.notice.clone();
        let placement = ByPtr(state.placement().clone());
        use_effect_with(placement, move |_| {
            let timeout = Timeout::new(SAVE_DELAY_MS, move || {
                if let Err(e) = browser::save(&snapshot) {
                    let text = format!("The studio is not saved for the next visit: {e}.");
                    let notice = Notice::new(Level::Warning, text);
                    on_notice.emit(NoticeAction::Notify(notice));
                }
            });
            *pending.borrow_mut() = Some(timeout);
        });
    }

    let on_share = {
        let state = state.clone();
        let on_notice = dispatch.notice.clone();
        Callback::from(move |_: MouseEvent| browser::share(&state, on_notice.clone()))
    };
    let export = |suffix: &'static str, mime: &'static str, text: fn(&State) -> String| {
        let state = state.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let name = format!("{}-{suffix}", state.placement().topology().database());
            if let Err(e) = browser::download(&name, mime, &text(&state)) {
                dispatch.error.emit(e);
            }
        })
    };
    let on_csv = export("documents.csv", "text/csv", |s| s.csv());
    let on_report = export("report.json", "application/json", |s| s.report_json());

    let tab = state.views().tab();
    html! {
        <div class="studio">
            <header class="masthead">
                <div class="brand">
                    <h1>{ "ravenshard studio" }</h1>
                    <p class="tagline">
                        { "Where a sharded RavenDB 6.x database puts each document: bucket, shard, \
                           nodes and anchored groups, computed exactly." }
                    </p>
                </div>
                <nav class="toolbar" aria-label="Share and export">
                    <button type="button" class="share-link" onclick={on_share}
                        title="Put the workspace and configuration in the URL and copy it">{ "Share link" }</button>
                    <button type="button" class="export-csv" onclick={on_csv}
                        title="id, bucket, shard, collection, size of every document">{ "Export CSV" }</button>
                    <button type="button" class="export-report" onclick={on_report}
                        title="Per-shard counts, skew, top buckets and anchored groups">{ "Export report" }</button>
                </nav>
            </header>
            <Notices notices={ByPtr(state.notices().clone())} on_action={dispatch.notice.clone()} />
            <main class="layout">
                <aside class="side">
                    <ConfigPanel config={ByPtr(state.config().clone())} on_action={dispatch.config.clone()} />
                    <WorkspacePanel workspace={ByPtr(state.workspace().clone())} {token}
                        on_action={dispatch.workspace.clone()} />
                </aside>
                <section class="views" aria-label="Views">
                    { totals(state.placement()) }
                    <TabBar {tab} on_action={dispatch.view.clone()} />
                    <div class={classes!("view", format!("view-{}", tab.key()))} role="tabpanel">
                        { tab_view(tab, &state, &dispatch) }
                    </div>
                </section>
            </main>
        </div>
    }
}

/// The totals over the views: documents, placed, invalid, shards, anchored groups, bytes
/// and the balance verdict.
fn totals(placement: &Placement) -> Html {
    let totals = placement.totals();
    let balance = placement.document_balance();
    let shards = placement.shards().len();
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
            <span class="count-groups"><strong>{ count(placement.groups().len() as u64) }</strong>{ " anchored groups" }</span>
            if totals.bytes > 0 {
                <span class="count-bytes"><strong>{ super::bytes(totals.bytes) }</strong></span>
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
