//! The Resharding view's estimate (data and buckets, term by term), the balance's
//! objective with what each objective would take, and the plan as the calls that carry it
//! out, downloaded as JSON or as a shell script (the Resharding view's worker writes them).

use super::duration;
use crate::jobs::browser;
use crate::views::reshard::state::{ReshardAction, ReshardState};
use crate::widgets::{count, on_value, plural, ByPtr};
use crate::workers::reshard::client;
use crate::workers::{CallsFile, PlanShown, ReshardReply, ReshardRequest};
use ravenshard_reshard::{Dominant, Estimate, Objective};
use yew::prelude::*;

/// The estimate: the data at the throughput plus the buckets at a cost each, with both
/// fields; a warning when the buckets take most of the time.
pub fn estimate(plan: &PlanShown, r: &ReshardState, on: &Callback<ReshardAction>) -> Html {
    let e: &Estimate = &plan.estimate;
    let (throughput, cost) = (r.throughput(), r.bucket_cost());
    let input = |class: &'static str,
                 label: &'static str,
                 text: AttrValue,
                 valid: bool,
                 to: fn(String) -> ReshardAction| {
        html! {
            <input class={classes!(class, (!valid).then_some("invalid"))} size="7" value={text}
                aria-label={label} oninput={on_value::<InputEvent, _>(on, to)} />
        }
    };
    let slow = e.dominant == Dominant::Buckets && e.buckets_seconds >= 60.0;
    html! {
        <div class="stat estimate">
            <span class="label">{ "Time" }</span>
            <strong class="estimate-total">{ e.total_seconds.map_or("–".to_string(), duration) }</strong>
            <span class="estimate-data">{ "data " }
                { e.data_seconds.map_or("–".to_string(), duration) }{ " at " }
                { input("throughput", "Throughput", throughput.text().clone(), throughput.is_valid(), ReshardAction::SetThroughput) }
            </span>
            <span class="estimate-buckets">{ format!("+ buckets {} = {} × ", duration(e.buckets_seconds), count(e.buckets)) }
                { input("bucket-cost", "Cost per bucket", cost.text().clone(), cost.is_valid(), ReshardAction::SetBucketCost) }
            </span>
            if slow {
                <span class="warning estimate-warning" role="note">
                    { format!("RavenDB migrates the {} bucket{} one at a time, empty ones included: that, not the data, takes most of the time.",
                        count(e.buckets), plural(e.buckets)) }
                </span>
            }
        </div>
    }
}

/// The balance's objective.
pub fn objective(r: &ReshardState, on: &Callback<ReshardAction>) -> Html {
    let chosen = r.objective();
    let pick = |o: Objective, label: &'static str, title: &'static str| {
        html! {
            <button type="button" class={classes!("seg", o.name(), (o == chosen).then_some("active"))}
                aria-pressed={(o == chosen).to_string()} {title}
                onclick={on.reform(move |_: MouseEvent| ReshardAction::SetObjective(o))}>{ label }</button>
        }
    };
    html! {
        <div class="segmented objective" role="group" aria-label="Balance objective">
            { pick(Objective::Contiguous, "Few ranges", "Contiguous runs at the edges of ranges: few ranges, but every bucket of a run moves, empty or not") }
            { pick(Objective::FewestMigrations, "Few migrations", "The fullest buckets first: the same data in far fewer bucket migrations, in more ranges") }
        </div>
    }
}

/// After a balance, what each objective takes (the other objective's row comes from the
/// worker just after the balance).
pub fn objectives(r: &ReshardState) -> Html {
    let (chosen, compared) = (r.objective(), r.objectives());
    html! {
        <>
            if !compared.is_empty() {
                <table class="objectives">
                    <thead><tr><th>{ "Objective" }</th><th>{ "Bucket migrations" }</th><th>{ "Ranges added" }</th><th>{ "Documents moved" }</th><th>{ "Buckets term" }</th></tr></thead>
                    <tbody>
                        { for compared.iter().map(|o| html! {
                            <tr class={classes!(o.objective.name(), (o.objective == chosen).then_some("chosen"))}>
                                <td>{ o.objective.name() }</td>
                                <td class="migrations">{ count(o.migrations) }</td>
                                <td class="ranges-added">{ o.ranges_added }</td>
                                <td>{ count(o.docs_moved) }</td>
                                <td>{ duration(o.estimate.buckets_seconds) }</td>
                            </tr>
                        }) }
                        { for Objective::ALL.into_iter().filter(|&o| r.comparing() && compared.iter().all(|c| c.objective != o)).map(|o| html! {
                            <tr class={classes!(o.name(), "pending")}>
                                <td>{ o.name() }</td>
                                <td colspan="4" class="muted">{ "working out…" }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </>
    }
}

/// Asks the worker for the calls as `<database>-calls.json` or `<database>-calls.sh`; its
/// answer goes to `replies` (the view's worker's callback, which [`offer`]s it).
fn download(
    r: &ReshardState,
    script: bool,
    replies: &Callback<ReshardReply>,
    on_error: &Callback<String>,
) {
    match r.calls_request(script) {
        Some(request) => client::send(ReshardRequest::Calls(request), replies.clone()),
        None => on_error
            .emit("The documents' load has not come yet: download the calls in a moment.".into()),
    }
}

/// Offers the calls' file the worker wrote for download; why not goes to `on_error`.
pub fn offer(file: Result<CallsFile, String>, on_error: &Callback<String>) {
    let offered = file
        .map_err(|message| format!("The calls could not be written: {message}"))
        .and_then(|file| browser::download(&file.name, &file.mime, &file.text));
    if let Err(e) = offered {
        on_error.emit(e);
    }
}

/// The plan as the calls that carry it out: the node's URL, and the downloads.
pub fn calls(
    r: &ByPtr<ReshardState>,
    plan: &PlanShown,
    on: &Callback<ReshardAction>,
    replies: &Callback<ReshardReply>,
    on_error: &Callback<String>,
) -> Html {
    if plan.moves.is_empty() {
        return html! {};
    }
    let offer = |script: bool| {
        let (state, on_error) = (r.clone(), on_error.clone());
        let replies = replies.clone();
        Callback::from(move |_: MouseEvent| download(&state, script, &replies, &on_error))
    };
    html! {
        <section class="reshard-calls" aria-label="The calls">
            <h3>{ "Carry it out" }</h3>
            <p class="hint">
                { "One POST /admin/resharding/start per run of buckets with one destination, \
                   emptiest destination first. The script starts one, polls \
                   /operations/state until it is Completed, then starts the next, and stops \
                   at the first error (run it with --cert and --key for a secured cluster)." }
            </p>
            <div class="toolbar">
                <label>{ "Node URL " }
                    <input class="cluster-url" value={r.cluster_url().to_string()}
                        oninput={on_value::<InputEvent, _>(on, ReshardAction::SetClusterUrl)} />
                </label>
                <button type="button" class="download-calls-json" onclick={offer(false)}>{ "Download calls (JSON)" }</button>
                <button type="button" class="download-calls-sh" onclick={offer(true)}>{ "Download script (.sh)" }</button>
            </div>
        </section>
    }
}
