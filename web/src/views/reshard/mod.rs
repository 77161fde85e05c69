//! The Resharding view: shape a target configuration, see the bucket moves and what they
//! cost, balance, and step through RavenDB's migration.

mod calls;
mod load;
pub mod state;

use crate::jobs::browser;
use crate::state::{Field, ViewAction};
use crate::views::state::State;
use crate::views::{Dispatch, OnStatistics, View};
use crate::widgets::{bytes, count, on_value, percent, plural, shard_style, ByPtr};
use crate::widgets::{BucketMap, ConfigJson, MapDocuments, PrefixEditor, RangeEditor};
use crate::workers::reshard::client as worker;
use crate::workers::{
    client, Channel, PlanShown, Reshard, ReshardReply, ReshardRequest, StepShown, MOVES_SHOWN,
};
use gloo::timers::callback::Timeout;
use ravenshard::Topology;
use ravenshard_reshard::{Measure, Obstacle, Phase};
use state::{ReshardAction, ReshardState, StepMove};
use std::rc::Rc;
use yew::prelude::*;

/// The most obstacles listed.
pub const OBSTACLES_SHOWN: usize = 10;

/// What a balance and a plan do with a range of buckets counted at its first (bucket
/// statistics that are not per bucket).
const RANGES_MOVE_WHOLE: &str = "a balance moves each range whole, and the plan's notes list \
    the drill-downs (fromBucket, toBucket, range = (to − from + 1) / 32) that would resolve the \
    ranges that matter.";

/// The Resharding tab ([`Tab::Reshard`](crate::state::Tab::Reshard)).
pub const VIEW: View = View {
    page,
    statistics: OnStatistics::Works {
        coarse: RANGES_MOVE_WHOLE,
    },
};

/// The tab's page: the view, with its part of `state`.
fn page(state: &State, on: &Dispatch) -> Html {
    html! {
        <ReshardView reshard={ByPtr(state.reshard().clone())} on_action={on.reshard.clone()}
            on_use_target={on.use_reshard_target.clone()} on_view={on.view.clone()}
            on_error={on.error.clone()} />
    }
}

/// Properties of [`ReshardView`].
#[derive(Properties, PartialEq)]
pub struct ReshardViewProps {
    /// The view's state: the configuration in force, the target, the plan, the step.
    pub reshard: ByPtr<ReshardState>,
    /// Where the view's actions go.
    pub on_action: Callback<ReshardAction>,
    /// Makes the target the configuration in force.
    pub on_use_target: Callback<()>,
    /// Where a bucket clicked on a map goes.
    pub on_view: Callback<ViewAction>,
    /// Why a download could not be offered.
    pub on_error: Callback<String>,
}

/// A button of the view.
fn button(
    class: &'static str,
    label: &'static str,
    title: &'static str,
    disabled: bool,
    onclick: Callback<MouseEvent>,
) -> Html {
    html! {
        <button type="button" {class} disabled={disabled} title={(!title.is_empty()).then_some(title)} {onclick}>{ label }</button>
    }
}

fn act(on_action: &Callback<ReshardAction>, action: ReshardAction) -> Callback<MouseEvent> {
    on_action.reform(move |_: MouseEvent| action.clone())
}

/// A duration for people: `0.4 s`, `3 min 20 s`, `2 h 5 min`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "–".into();
    }
    let whole = seconds.round() as u64;
    match whole {
        0..=59 => format!("{seconds:.*} s", if seconds < 10.0 { 1 } else { 0 }),
        60..=3599 => format!("{} min {} s", whole / 60, whole % 60),
        _ => format!("{} h {} min", whole / 3600, whole % 3600 / 60),
    }
}

/// How long a balance runs before "Balancing…" and its Cancel show (a balance is usually
/// done well before).
pub const BALANCING_SHOWN_AFTER_MS: u32 = 200;

/// Sends a balance of the target to the worker; nothing while an option field cannot be
/// used (the form says why).
fn send_balance(r: &ReshardState, on: &Callback<ReshardAction>, replies: &Callback<ReshardReply>) {
    let Some(request) = r.balance_request() else {
        return;
    };
    let run = request.run;
    worker::send(ReshardRequest::Balance(request), replies.clone());
    on.emit(ReshardAction::BalanceSent { run });
}

/// Sends the plan the view wants to the worker.
fn send_plan(r: &ReshardState, on: &Callback<ReshardAction>, replies: &Callback<ReshardReply>) {
    let Some(request) = r.plan_request() else {
        return;
    };
    let run = request.run;
    worker::send(ReshardRequest::Plan(request), replies.clone());
    let wanted = r.worker_wanted();
    on.emit(ReshardAction::PlanSent { run, wanted });
}

/// Sends the drain the view wants to the worker; whether it sent one.
fn send_drain(
    r: &ReshardState,
    on: &Callback<ReshardAction>,
    replies: &Callback<ReshardReply>,
) -> bool {
    let Some(request) = r.drain_request() else {
        return false;
    };
    let run = request.run;
    worker::send(ReshardRequest::Drain(request), replies.clone());
    on.emit(ReshardAction::BalanceSent { run });
    true
}

/// Where the replies of the view's worker go: the calls' file is offered for download (why
/// not goes to `on_error`), everything else to the view's state. Every request of the
/// channel is sent with it: a send routes the channel's later replies to its callback.
fn worker_replies(
    on: &Callback<ReshardAction>,
    on_error: &Callback<String>,
) -> Callback<ReshardReply> {
    let (on, on_error) = (on.clone(), on_error.clone());
    Callback::from(move |reply| match reply {
        ReshardReply::Calls(file) => calls::offer(file, &on_error),
        reply @ (ReshardReply::Planned { .. }
        | ReshardReply::Balanced { .. }
        | ReshardReply::Compared { .. }
        | ReshardReply::Drained { .. }
        | ReshardReply::BalanceFailed { .. }
        | ReshardReply::Crashed(_)) => on.emit(ReshardAction::Reply(reply)),
    })
}

/// Asks the worker for what the view wants of it, once rendered (the actions that want
/// something in a row ask once): a drain, else a plan (a drain's target is planned when it
/// comes).
#[hook]
fn use_worker_asks(
    state: &ByPtr<ReshardState>,
    on: &Callback<ReshardAction>,
    replies: &Callback<ReshardReply>,
) {
    let (state, on, replies) = (state.clone(), on.clone(), replies.clone());
    use_effect_with(state.worker_wanted(), move |_| {
        let timer = Timeout::new(0, move || {
            if !send_drain(&state, &on, &replies) {
                send_plan(&state, &on, &replies);
            }
        });
        move || drop(timer)
    });
}

/// Properties of [`Balancing`].
#[derive(Properties, PartialEq)]
struct BalancingProps {
    on_cancel: Callback<MouseEvent>,
}

/// "Balancing…" and Cancel, shown once a balance has run for
/// [`BALANCING_SHOWN_AFTER_MS`].
#[function_component(Balancing)]
fn balancing(props: &BalancingProps) -> Html {
    let shown = use_state(|| false);
    {
        let shown = shown.clone();
        use_effect_with((), move |_| {
            let timer = Timeout::new(BALANCING_SHOWN_AFTER_MS, move || shown.set(true));
            move || drop(timer)
        });
    }
    html! {
        <div class="balancing" role="status" hidden={!*shown}>
            { "Balancing in the studio's worker… " }
            <button type="button" class="cancel-balance" onclick={props.on_cancel.clone()}>{ "Cancel" }</button>
        </div>
    }
}

/// Offers the target's JSON as a file, `<database>-target.json`.
fn download_target(target: Rc<Topology>, on_error: Callback<String>) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        let name = format!("{}-target.json", target.database());
        if let Err(e) = browser::download(&name, "application/json", &target.to_json()) {
            on_error.emit(e);
        }
    })
}

/// The Resharding view.
#[function_component(ReshardView)]
pub fn reshard_view(props: &ReshardViewProps) -> Html {
    let r: &ReshardState = &props.reshard;
    let on = &props.on_action;
    let inputs = r.inputs();
    let target = Rc::clone(r.target());
    let on_target = on.reform(ReshardAction::SetTarget);
    let on_bucket = props.on_view.reform(|b| ViewAction::SelectBucket(Some(b)));
    let replies = worker_replies(on, &props.on_error);
    load::use_reshard_answers(r, on);
    use_worker_asks(&props.reshard, on, &replies);
    let balance = {
        let (state, on, replies) = (props.reshard.clone(), on.clone(), replies.clone());
        Callback::from(move |_: MouseEvent| send_balance(&state, &on, &replies))
    };
    let on_cancel = on.reform(|_: MouseEvent| {
        client::stop(Channel::Reshard);
        ReshardAction::CancelBalance
    });
    let on_panic = {
        let replies = replies.clone();
        Callback::from(move |_: MouseEvent| client::panic::<Reshard>(replies.clone()))
    };
    html! {
        <div class="reshard-view">
            <p class="hint">
                { "RavenDB moves data between shards one whole bucket at a time. Shape a target \
                   below (add, drain or remove a shard, edit its ranges and prefixes, or \
                   balance), and see which buckets move, what they hold and how long it takes, \
                   before touching a server." }
            </p>
            <section class="reshard-target" aria-label="Target">
                <TargetToolbar shards={target.shards().map(|s| s.number).collect::<Vec<_>>()}
                    has_target={r.has_target()} on_action={on.clone()}
                    on_use_target={props.on_use_target.clone()}
                    on_download={download_target(Rc::clone(&target), props.on_error.clone())} />
                { target_form(r, on, balance, on_cancel, on_panic) }
            </section>
            if r.planning() {
                <p class="muted planning" role="status">{ "Planning in the studio's worker…" }</p>
            }
            {
                match r.view().map(|v| &v.plan) {
                    None => html! {},
                    Some(Err(e)) => html! { <p class="error plan-error" role="alert">{ e.clone() }</p> },
                    Some(Ok(plan)) => html! {
                        <>
                        { totals(plan, r, on) }
                        { notes(&plan.notes.iter().map(ToString::to_string).collect::<Vec<_>>(), "plan-notes") }
                        <section class="reshard-compare" aria-label="Before and after">
                            { side("Before", Rc::clone(&inputs.current), inputs.changes, None, &on_bucket) }
                            { side("After", Rc::clone(&target), inputs.changes, Some(target.to_json().into()), &on_bucket) }
                        </section>
                        { per_shard(plan) }
                        { moves(plan) }
                        { calls::calls(&props.reshard, plan, on, &replies, &props.on_error) }
                        { migration(r, plan, on) }
                        </>
                    },
                }
            }
            <details class="target-editors">
                <summary>{ "Edit the target's ranges, prefixes and JSON" }</summary>
                <RangeEditor topology={Rc::clone(&target)} on_change={on_target.clone()} />
                <PrefixEditor topology={Rc::clone(&target)} on_change={on_target.clone()} />
                <ConfigJson topology={target} on_apply={on_target} />
            </details>
        </div>
    }
}

/// Properties of [`TargetToolbar`].
#[derive(Properties, PartialEq)]
struct TargetToolbarProps {
    shards: Vec<u32>,
    has_target: bool,
    on_action: Callback<ReshardAction>,
    on_use_target: Callback<()>,
    on_download: Callback<MouseEvent>,
}

/// The target's heading and operations: add a shard; drain or remove the chosen one; start
/// again, use or download the target.
#[function_component(TargetToolbar)]
fn target_toolbar(props: &TargetToolbarProps) -> Html {
    let on = &props.on_action;
    let shards = &props.shards;
    let chosen = use_state(|| None::<u32>);
    let shard = chosen
        .filter(|s| shards.contains(s))
        .or(shards.last().copied());
    let on_choose = {
        let chosen = chosen.clone();
        crate::widgets::with_value(move |v: String| chosen.set(v.parse().ok()))
    };
    let shard_action = |make: fn(u32) -> ReshardAction| match shard {
        Some(s) => act(on, make(s)),
        None => Callback::noop(),
    };
    let fresh = !props.has_target;
    html! {
        <>
        <h3>{ "Target" }
            if fresh { <span class="muted">{ " (the configuration in force, unchanged)" }</span> }
        </h3>
        <div class="toolbar">
            { button("add-shard", "Add a shard", "", false, act(on, ReshardAction::AddShard)) }
            <label>{ "Shard " }
                <select class="shard-pick" onchange={on_choose}>
                    { for shards.iter().map(|&s| html! { <option value={s.to_string()} selected={Some(s) == shard}>{ s }</option> }) }
                </select>
            </label>
            { button("drain-shard", "Drain", "Give every bucket of this shard to the others, evenly", false, shard_action(ReshardAction::DrainShard)) }
            { button("remove-shard", "Remove", "Remove the shard (it must own no buckets: drain it first)", false, shard_action(ReshardAction::RemoveShard)) }
            { button("reset-target", "Start again", "", fresh, act(on, ReshardAction::ResetTarget)) }
            { button("apply-target", "Use as configuration", "Make the target the configuration in force", fresh, props.on_use_target.reform(|_: MouseEvent| ())) }
            { button("download-target", "Download target JSON", "The target as a ShardingConfiguration JSON file", false, props.on_download.clone()) }
        </div>
        </>
    }
}

/// The target's problem, the balance form (balancing in the worker), its notes and
/// obstacles.
fn target_form(
    r: &ReshardState,
    on: &Callback<ReshardAction>,
    balance: Callback<MouseEvent>,
    on_cancel: Callback<MouseEvent>,
    on_panic: Callback<MouseEvent>,
) -> Html {
    let by = r.by();
    let by_button = |m: Measure, label: &str| {
        html! {
            <button type="button" class={classes!("seg", (m == by).then_some("active"))}
                aria-pressed={(m == by).to_string()}
                onclick={act(on, ReshardAction::SetBy(m))}>{ label.to_string() }</button>
        }
    };
    html! {
        <>
            if let Some(problem) = r.problem() {
                <p class="error target-problem" role="alert">{ problem.message.clone() }</p>
            }
            if r.checking().is_some() {
                <p class="muted checking-prefixes" role="status">{ "Checking the target's new and removed prefixes against the documents' IDs…" }</p>
            }
            <div class="balance-form">
                <div class="segmented" role="group" aria-label="Balance by">
                    { by_button(Measure::Docs, "Documents") }
                    { by_button(Measure::Bytes, "Bytes") }
                </div>
                { field("Weights ", "weights", r.weights(), "0=1,1=2", on, ReshardAction::SetWeights) }
                { field("Threshold % ", "threshold", r.threshold(), "", on, ReshardAction::SetThreshold) }
                { field("Max buckets ", "max-buckets", r.max_buckets(), "no cap", on, ReshardAction::SetMaxBuckets) }
                { calls::objective(r, on) }
                { button("balance primary", "Balance", "", false, balance) }
                <button type="button" id="reshard-debug-panic" hidden=true onclick={on_panic}>{ "Make the worker panic" }</button>
            </div>
            if r.balancing() {
                <Balancing {on_cancel} />
            }
            if let Some(message) = r.balance_message() {
                <p class="error balance-message" role="alert">{ message.to_string() }</p>
            }
            if let Some(e) = r.option_error() {
                <p class="error option-error" role="alert">{ e.to_string() }</p>
            }
            { notes(r.balance_notes(), "balance-notes") }
            { calls::objectives(r) }
            { obstacles(r.obstacles()) }
        </>
    }
}

/// A labelled text field of the balance form.
fn field<T>(
    label: &'static str,
    class: &'static str,
    field: &Field<T>,
    placeholder: &'static str,
    on: &Callback<ReshardAction>,
    to_action: fn(String) -> ReshardAction,
) -> Html {
    html! {
        <label>{ label }<input class={classes!(class, (!field.is_valid()).then_some("invalid"))}
            {placeholder} value={field.text().clone()} oninput={on_value::<InputEvent, _>(on, to_action)} /></label>
    }
}

/// One side of the comparison: a bucket map of `topology` with `placement`'s documents.
fn side(
    title: &'static str,
    topology: Rc<Topology>,
    version: u64,
    configuration: Option<AttrValue>,
    on_select_bucket: &Callback<u32>,
) -> Html {
    let documents = MapDocuments::Host {
        version,
        configuration,
    };
    html! {
        <div class={classes!("side", title.to_ascii_lowercase())}>
            <h3>{ title }</h3>
            <BucketMap {topology} {documents} on_select_bucket={on_select_bucket.clone()} />
        </div>
    }
}

fn notes(notes: &[String], class: &'static str) -> Html {
    if notes.is_empty() {
        return html! {};
    }
    html! {
        <ul class={classes!("notes", class)}>
            { for notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
        </ul>
    }
}

/// The buckets a balance could not move to a fair share, each on its shard's colour.
fn obstacles(list: &[Obstacle]) -> Html {
    if list.is_empty() {
        return html! {};
    }
    let n = list.len() as u64;
    html! {
        <div class="obstacles">
            <p class="warning">{ format!("{} bucket{} hold{} more than a fair share and cannot be split (obese buckets): balance stops at {}.",
                count(n), plural(n), if n == 1 { "s" } else { "" }, if n == 1 { "it" } else { "them" }) }</p>
            <ul class="obstacle-list">
                { for list.iter().take(OBSTACLES_SHOWN).map(|o| html! {
                    <li class="obstacle" data-bucket={o.bucket.to_string()} style={shard_style(o.shard)}>
                        { format!("Bucket {} on shard ", count(o.bucket)) }<span class="shard-badge">{ o.shard }</span>
                        { format!(": {} doc{}, {} ({:.1}× a fair share)", count(o.docs), plural(o.docs), bytes(o.bytes), o.fair_shares) }
                    </li>
                }) }
            </ul>
            if list.len() > OBSTACLES_SHOWN {
                <p class="muted">{ format!("The first {OBSTACLES_SHOWN} are listed.") }</p>
            }
        </div>
    }
}

fn totals(plan: &PlanShown, r: &ReshardState, on: &Callback<ReshardAction>) -> Html {
    let skew = |s: Option<f64>| s.map_or("–".to_string(), |s| format!("{:.2}", s));
    let stat = |class: &'static str, label: &str, value: String| {
        html! { <div class={classes!("stat", class)}><span class="label">{ label.to_string() }</span><strong>{ value }</strong></div> }
    };
    html! {
        <section class="reshard-totals" aria-label="What moves">
            { stat("buckets-moved", "Buckets moved", count(plan.buckets_moved)) }
            { stat("docs-moved", "Documents moved", format!("{} of {}", count(plan.docs_moved), count(plan.docs))) }
            { stat("bytes-moved", "Bytes moved", bytes(plan.bytes_moved)) }
            { stat("share-moved", "Share of the data", percent(plan.share_moved)) }
            { stat("skew", "Skew (max/mean)", format!("{} → {}", skew(plan.skew_before), skew(plan.skew_after))) }
            { calls::estimate(plan, r, on) }
        </section>
    }
}

fn per_shard(plan: &PlanShown) -> Html {
    let measure = plan.measure;
    let max = plan
        .per_shard
        .iter()
        .map(|c| c.held(false).by(measure).max(c.held(true).by(measure)))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let show = |v: u64| match measure {
        Measure::Docs => count(v),
        Measure::Bytes => bytes(v),
    };
    html! {
        <ol class="bars reshard-bars" aria-label="Per shard, before and after">
            { for plan.per_shard.iter().map(|c| {
                let (before, after) = (c.held(false).by(measure), c.held(true).by(measure));
                html! {
                    <li class="bar-row" data-shard={c.shard.to_string()} style={shard_style(c.shard)}>
                        <span class="bar-label">{ format!("Shard {}", c.shard) }</span>
                        <span class="bar-track">
                            <span class="bar-fill before" style={format!("width: {:.2}%", before as f64 / max * 100.0)}></span>
                            <span class="bar-fill after" style={format!("width: {:.2}%", after as f64 / max * 100.0)}></span>
                        </span>
                        <span class="bar-value">{ format!("{} → {}", show(before), show(after)) }</span>
                    </li>
                }
            }) }
        </ol>
    }
}

fn moves(plan: &PlanShown) -> Html {
    if plan.moves.is_empty() {
        return html! {};
    }
    html! {
        <section class="moves" aria-label="Moves">
            <h3>{ format!("{} move{}", count(plan.move_count), plural(plan.move_count)) }</h3>
            <table>
                <thead><tr><th>{ "Buckets" }</th><th>{ "From" }</th><th>{ "To" }</th><th>{ "Docs" }</th><th>{ "Bytes" }</th></tr></thead>
                <tbody>
                    { for plan.moves.iter().map(|m| html! {
                        <tr>
                            <td>{ format!("{}–{} ({})", count(m.from_bucket), count(m.to_bucket), count(m.buckets())) }</td>
                            <td class="from" style={shard_style(m.from_shard)}><span class="shard-badge">{ m.from_shard }</span></td>
                            <td class="to" style={shard_style(m.to_shard)}><span class="shard-badge">{ m.to_shard }</span></td>
                            <td>{ count(m.docs) }</td>
                            <td>{ bytes(m.bytes) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if plan.move_count > MOVES_SHOWN as u64 {
                <p class="muted">{ format!("The first {MOVES_SHOWN} are listed; the target JSON has them all.") }</p>
            }
        </section>
    }
}

fn migration(r: &ReshardState, plan: &PlanShown, on: &Callback<ReshardAction>) -> Html {
    let Some(step) = r.migration() else {
        return html! {};
    };
    let steps = plan.steps();
    let at = r.step();
    let (first, last) = (at == 0, at + 1 >= steps);
    let go = |to: StepMove| act(on, ReshardAction::MoveStep(to));
    let typed = on_value::<Event, _>(on, move |v| {
        let to = v.trim().parse::<u64>().map_or(at, |n| n.saturating_sub(1));
        ReshardAction::MoveStep(StepMove::To(to))
    });
    html! {
        <section class="migration" aria-label="Migration walk-through">
            <h3>{ "Migration, one bucket at a time" }</h3>
            <div class="toolbar step-control">
                { button("first", "First", "The first step", first, go(StepMove::First)) }
                { button("prev", "◀ Back", "", first, go(StepMove::Previous)) }
                <label>{ "Step " }<input class="step" type="number" min="1" max={steps.to_string()} value={(at + 1).to_string()} onchange={typed} />{ format!(" of {}", count(steps)) }</label>
                { button("next", "Next ▶", "", last, go(StepMove::Next)) }
                { button("next-bucket", "Next bucket", "The first step of the next bucket", last, go(StepMove::NextBucket)) }
                { button("next-loaded", "Next with documents", "The next bucket that holds documents", last, go(StepMove::NextWithDocuments)) }
                { button("last", "Last", "The last step", last, go(StepMove::Last)) }
            </div>
            {
                match step.as_ref() {
                    Err(e) => html! { <p class="error">{ e.clone() }</p> },
                    Ok(s) => step_detail(s),
                }
            }
        </section>
    }
}

fn step_detail(s: &StepShown) -> Html {
    let phase = match s.phase {
        Phase::CleanedUp => "Cleaned up",
        other => other.name(),
    };
    let route = |what: &str, r: &ravenshard_reshard::Route| {
        let nodes = if r.nodes.is_empty() {
            "no nodes".to_string()
        } else {
            r.nodes.join(", ")
        };
        html! { <li style={shard_style(r.shard)}>{ format!("{what} → ") }<span class="shard-badge">{ r.shard }</span>{ " " }<code>{ r.fragment.clone() }</code>{ format!(" on {nodes}") }</li> }
    };
    html! {
        <div class="step-detail">
            <p class="step-head">
                { format!("Bucket {} ({} doc{}, {}): shard {} → shard {} · ", count(s.bucket), count(s.docs), plural(s.docs), bytes(s.bytes), s.source_shard, s.destination_shard) }
                <strong class={classes!("phase", s.phase.name().to_ascii_lowercase())}>{ phase }</strong>
                { format!(" · {} of {} buckets done", count(s.buckets_done), count(s.steps / 4)) }
            </p>
            <p>{ s.phase.describe() }</p>
            <ul class="routes">
                { route("Reads", &s.reads) }
                { route("Writes", &s.writes) }
            </ul>
            <pre class="step-config" aria-label="The configuration as RavenDB holds it">{ s.configuration.clone() }</pre>
        </div>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations() {
        assert_eq!(super::duration(0.44), "0.4 s");
        assert_eq!(super::duration(200.0), "3 min 20 s");
        assert_eq!(super::duration(7500.0), "2 h 5 min");
    }
}
