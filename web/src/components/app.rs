//! The root component: owns the state, opens it (share link, saved studio or sample),
//! saves it, and lays out the panels and views.

use super::browser;
use super::import::CancelToken;
use super::{
    class_names, count, plural, ByPtr, ConfigPanel, ContentView, DocumentsView, ExplainView,
    GroupsView, LocalityView, MapView, MatrixView, Notices, QueriesView, RangesView, ReshardView,
    ShardsView, WorkspacePanel,
};
use crate::state::{Action, Level, Tab};
use gloo::timers::callback::Timeout;
use ravenshard_model::workspace::BalanceVerdict;
use std::rc::Rc;
use yew::prelude::*;

/// How long the studio waits after the last change before saving.
const SAVE_DELAY_MS: u32 = 400;

/// The studio page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(browser::initial_state);
    let on_action = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| {
            Callback::from(move |a: Action| dispatcher.dispatch(a))
        }))
        .clone()
    };
    let token = use_mut_ref(CancelToken::default);
    let token = (*token.borrow()).clone();

    // Save (debounced) when the workspace or the configuration changes.
    let pending = use_mut_ref(|| None::<Timeout>);
    {
        let snapshot = (*state).clone();
        let on_action = on_action.clone();
        let placement = ByPtr(state.placement());
        use_effect_with(placement, move |_| {
            let timeout = Timeout::new(SAVE_DELAY_MS, move || {
                if let Err(e) = browser::save(&snapshot) {
                    on_action.emit(Action::Notify(
                        Level::Warning,
                        format!("The studio is not saved for the next visit: {e}."),
                    ));
                }
            });
            *pending.borrow_mut() = Some(timeout);
        });
    }

    let on_share = {
        let state = state.clone();
        let on_action = on_action.clone();
        Callback::from(move |_: MouseEvent| browser::share(&state, on_action.clone()))
    };
    let on_csv = {
        let state = state.clone();
        let on_action = on_action.clone();
        Callback::from(move |_: MouseEvent| {
            let name = format!("{}-documents.csv", state.database());
            if let Err(e) = browser::download(&name, "text/csv", &state.csv()) {
                on_action.emit(Action::Notify(Level::Error, e));
            }
        })
    };
    let on_report = {
        let state = state.clone();
        let on_action = on_action.clone();
        Callback::from(move |_: MouseEvent| {
            let name = format!("{}-report.json", state.database());
            if let Err(e) = browser::download(&name, "application/json", &state.report_json()) {
                on_action.emit(Action::Notify(Level::Error, e));
            }
        })
    };

    let placement = ByPtr(state.placement());
    let totals = *placement.totals();
    let balance = placement.document_balance();
    let tab = state.tab();
    let view = match tab {
        Tab::Shards => html! {
            <ShardsView placement={placement.clone()} metric={state.metric()} on_action={on_action.clone()} />
        },
        Tab::Nodes => html! { <MatrixView placement={placement.clone()} /> },
        Tab::Map => html! {
            <MapView
                placement={placement.clone()}
                topology={ByPtr(state.topology())}
                selected_bucket={state.selected_bucket}
                selected_group={state.selected_group}
                on_action={on_action.clone()}
            />
        },
        Tab::Ranges => html! {
            <RangesView
                topology={ByPtr(state.topology())}
                problem={state.config_problem().cloned()}
                on_action={on_action.clone()}
            />
        },
        Tab::Groups => html! {
            <GroupsView placement={placement.clone()} selected={state.selected_group} on_action={on_action.clone()} />
        },
        Tab::Documents => html! {
            <DocumentsView
                placement={placement.clone()}
                rows={ByPtr(state.rows())}
                query={state.query().clone()}
                on_action={on_action.clone()}
            />
        },
        Tab::Queries => {
            let design = state.design();
            let (document, related) = design.load();
            html! {
                <>
                <QueriesView
                    query={AttrValue::from(design.query().to_string())}
                    route={ByPtr(design.route())}
                    topology={ByPtr(state.topology())}
                    placement={placement.clone()}
                    marked={ByPtr(design.marked())}
                    design_on={design.design().is_some()}
                    on_action={on_action.clone()}
                />
                <LocalityView
                    transaction_ids={AttrValue::from(design.transaction_ids().to_string())}
                    transaction={ByPtr(design.transaction())}
                    load={(AttrValue::from(document.to_string()), AttrValue::from(related.to_string()))}
                    load_check={ByPtr(design.load_check())}
                    on_action={on_action.clone()}
                />
                </>
            }
        }
        Tab::Content => html! {
            <ContentView
                topology={ByPtr(state.topology())}
                placement={placement.clone()}
                design_on={state.design().design().is_some()}
                on_action={on_action.clone()}
            />
        },
        Tab::Reshard => html! {
            <ReshardView
                current={ByPtr(state.topology())}
                placement={placement.clone()}
                reshard={ByPtr(Rc::clone(state.reshard()))}
                on_action={on_action.clone()}
            />
        },
        Tab::Explain => html! {
            <ExplainView
                id={AttrValue::from(state.explain_id().to_string())}
                explanation={state.explanation().map(ByPtr)}
                on_action={on_action.clone()}
            />
        },
    };
    let verdict = match balance.verdict {
        Some(BalanceVerdict::Balanced) => ("balanced", "Balanced"),
        Some(BalanceVerdict::Uneven) => ("uneven", "Uneven"),
        Some(BalanceVerdict::Lopsided) => ("lopsided", "Lopsided"),
        None => ("none", "No documents"),
    };
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
            <Notices notices={state.notices().to_vec()} on_action={on_action.clone()} />
            <main class="layout">
                <aside class="side">
                    <ConfigPanel
                        database_input={AttrValue::from(state.database_input().to_string())}
                        database_error={state.database_error().map(|e| AttrValue::from(e.to_string()))}
                        shard_input={AttrValue::from(state.shard_input().to_string())}
                        shard_error={state.shard_error().map(|e| AttrValue::from(e.to_string()))}
                        nodes_input={AttrValue::from(state.nodes_input().to_string())}
                        nodes_error={state.nodes_error().map(|e| AttrValue::from(e.to_string()))}
                        rf_input={AttrValue::from(state.rf_input().to_string())}
                        rf_error={state.rf_error().map(|e| AttrValue::from(e.to_string()))}
                        member_error={state.member_error().map(|e| AttrValue::from(e.to_string()))}
                        custom={state.custom()}
                        config_problem={state.config_problem().cloned()}
                        topology={ByPtr(state.topology())}
                        on_action={on_action.clone()}
                    />
                    <WorkspacePanel
                        page={state.page().clone()}
                        documents={state.documents().len()}
                        parse_notes={state.parse_notes().to_vec()}
                        generator_count={AttrValue::from(state.generator_count().to_string())}
                        generator_share={AttrValue::from(state.generator_share().to_string())}
                        generator_error={state.generator_error().map(|e| AttrValue::from(e.to_string()))}
                        import={state.import().cloned()}
                        import_error={state.import_error().map(|e| AttrValue::from(e.to_string()))}
                        token={token}
                        on_action={on_action.clone()}
                    />
                </aside>
                <section class="views" aria-label="Views">
                    <p class="totals" aria-label="Totals">
                        <span class="count-documents"><strong>{ count(totals.documents) }</strong>{ format!(" document{}", plural(totals.documents)) }</span>
                        <span class="count-placed"><strong>{ count(totals.placed) }</strong>{ " placed" }</span>
                        <span class={class_names(&[Some("count-invalid"), (totals.invalid > 0).then_some("bad")])}>
                            <strong>{ count(totals.invalid) }</strong>{ " invalid" }
                        </span>
                        <span class="count-shards"><strong>{ state.shards() }</strong>{ format!(" shard{}", plural(state.shards())) }</span>
                        <span class="count-groups"><strong>{ count(placement.groups().len() as u64) }</strong>{ " anchored groups" }</span>
                        if totals.bytes > 0 {
                            <span class="count-bytes"><strong>{ super::bytes(totals.bytes) }</strong></span>
                        }
                        <span class={class_names(&[Some("verdict"), Some(verdict.0)])} title="Largest shard over the mean shard, in documents">
                            { verdict.1 }
                            if let Some(skew) = balance.skew {
                                { format!(" · skew {:.2}", skew) }
                            }
                        </span>
                    </p>
                    <div class="tabs" role="tablist">
                        { for Tab::ALL.iter().map(|&t| {
                            let on_action = on_action.clone();
                            html! {
                                <button type="button" role="tab"
                                    id={format!("tab-{}", t.key())}
                                    class={class_names(&[Some("tab"), (t == tab).then_some("active")])}
                                    aria-selected={(t == tab).to_string()}
                                    onclick={Callback::from(move |_: MouseEvent| on_action.emit(Action::SelectTab(t)))}>
                                    { t.label() }
                                </button>
                            }
                        }) }
                    </div>
                    <div class={format!("view view-{}", tab.key())} role="tabpanel">
                        { view }
                    </div>
                </section>
            </main>
        </div>
    }
}
