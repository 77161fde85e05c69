//! The Readiness view's findings ([`FindingsView`]): the counts by severity, the filters
//! (a severity shown or not, one area or all), then the findings grouped by severity, each
//! with its feature, where, what, what to do instead, its source, and for data and routing
//! findings a link to the view that shows them.

use super::state::{area_of, link_of, Link, ReadinessAction, ReadinessState};
use crate::widgets::{count, with_value, ByPtr};
use crate::workers::Checked;
use ravenshard_check::{Finding, Severity};
use yew::prelude::*;

/// Properties of [`FindingsView`].
#[derive(Properties, PartialEq)]
pub struct FindingsViewProps {
    /// The view's state (with a report).
    pub readiness: ByPtr<ReadinessState>,
    /// Where the filters go.
    pub on_action: Callback<ReadinessAction>,
    /// Where a finding's link goes.
    pub on_link: Callback<Link>,
}

/// A severity's key, for classes and ids (`not-checked`).
fn key(severity: Severity) -> &'static str {
    match severity {
        Severity::Blocks => "blocks",
        Severity::Changes => "changes",
        Severity::Note => "note",
        Severity::NotChecked => "not-checked",
    }
}

/// The report's first line: the database, and what blocks or not.
fn summary(checked: &Checked, blocks: usize) -> String {
    let report = &checked.report;
    let name = report.database.as_deref().unwrap_or("The database");
    let state = if report.sharded {
        "sharded"
    } else {
        "not sharded"
    };
    let layout = report
        .shards
        .map(|n| format!(", checked for {n} shards"))
        .unwrap_or_default();
    let verdict = match blocks {
        0 => "nothing blocks sharding".to_string(),
        1 => "1 finding blocks sharding".to_string(),
        n => format!("{n} findings block sharding"),
    };
    format!(
        "{name} ({state}{layout}, {} documents read): {verdict}.",
        count(checked.documents)
    )
}

/// The filters: a checkbox per severity with its count, and the areas.
fn filters(readiness: &ReadinessState, on: &Callback<ReadinessAction>) -> Html {
    let severity = |s: Severity| {
        let toggle = on.reform(move |_: Event| ReadinessAction::ToggleSeverity(s));
        html! {
            <label class={classes!("readiness-count", key(s))}>
                <input type="checkbox" id={format!("readiness-show-{}", key(s))}
                    checked={readiness.shows(s)} onchange={toggle} />
                { format!("{} {}", readiness.count(s), s) }
            </label>
        }
    };
    let on_area = {
        let on = on.clone();
        with_value(move |v: String| on.emit(ReadinessAction::SetArea((!v.is_empty()).then_some(v))))
    };
    let area = readiness.area().unwrap_or_default();
    html! {
        <div class="readiness-filters">
            { for Severity::ALL.into_iter().map(severity) }
            <label>{ "Area " }
                <select id="readiness-area" onchange={on_area}>
                    <option value="" selected={area.is_empty()}>{ "all" }</option>
                    { for readiness.areas().into_iter().map(|a| html! {
                        <option value={a.to_string()} selected={a == area}>{ a }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// The link's words.
fn link_label(link: &Link) -> String {
    match link {
        Link::Documents(text) => format!("Show the documents ({text})"),
        Link::Groups => "Show the anchored groups".into(),
        Link::Queries(n) => format!("Route query {n} in the Queries view"),
        Link::Ranges => "Show the ranges and prefixes".into(),
    }
}

/// One finding.
fn finding(found: &Finding, on_link: &Callback<Link>) -> Html {
    let share = found
        .share
        .map(|s| format!(" (share {:.1}%)", s * 100.0))
        .unwrap_or_default();
    let link = link_of(found).map(|link| {
        let label = link_label(&link);
        let on_click = on_link.reform(move |_: MouseEvent| link.clone());
        html! { <button type="button" class="readiness-link link" onclick={on_click}>{ label }</button> }
    });
    html! {
        <li class={classes!("readiness-finding", key(found.severity))} data-rule={found.rule.to_string()} data-area={area_of(found).to_string()}>
            <div class="readiness-feature"><strong>{ found.feature.to_string() }</strong>
                <code class="muted">{ format!(" [{}]", found.rule) }</code></div>
            <dl>
                <dt>{ "Where" }</dt><dd class="readiness-where">{ found.location.to_string() }</dd>
                <dt>{ "What" }</dt><dd class="readiness-detail">{ format!("{}{share}", found.detail) }</dd>
                <dt>{ "Do" }</dt><dd class="readiness-instead">{ found.instead.clone() }</dd>
                <dt>{ "From" }</dt><dd class="readiness-source"><code>{ found.source.to_string() }</code></dd>
            </dl>
            { for link }
        </li>
    }
}

/// The findings of a report.
#[function_component(FindingsView)]
pub fn findings_view(props: &FindingsViewProps) -> Html {
    let readiness = &props.readiness;
    let Some(report) = readiness.report() else {
        return html! {};
    };
    let blocks = readiness.count(Severity::Blocks);
    let groups = readiness.groups();
    html! {
        <div class="readiness-report">
            <p id="readiness-summary" class={classes!("readiness-summary", (blocks == 0).then_some("clean"))}>
                { summary(report, blocks) }</p>
            { filters(readiness, &props.on_action) }
            if groups.is_empty() {
                <p class="muted readiness-none">{ "No finding under these filters." }</p>
            }
            { for groups.into_iter().map(|(severity, found)| html! {
                <section class={classes!("readiness-group", key(severity))} id={format!("readiness-{}", key(severity))}>
                    <h3>{ format!("{} ({})", severity.as_str().to_uppercase(), found.len()) }</h3>
                    <ul>{ for found.into_iter().map(|f| finding(f, &props.on_link)) }</ul>
                </section>
            }) }
        </div>
    }
}
