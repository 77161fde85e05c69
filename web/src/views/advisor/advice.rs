//! The advisor's answer: per collection, its candidates side by side, the recommended one
//! highlighted, with a button that applies a candidate to the workspace.

use crate::widgets::{count, percent, shard_style, ByPtr};
use ravenshard_advise::{Advice, Candidate, CollectionAdvice, Strategy};
use yew::prelude::*;

/// Properties of [`AdviceView`].
#[derive(Properties, PartialEq)]
pub struct AdviceViewProps {
    /// The advice.
    pub advice: ByPtr<Advice>,
    /// Whether the worker still holds the export (an `anchor` can be applied).
    pub can_anchor: bool,
    /// A candidate to apply: `(collection index, candidate index)`.
    pub on_apply: Callback<(usize, usize)>,
}

/// A candidate's name: `anchor on Company`.
pub fn candidate_label(strategy: Strategy, field: Option<&str>) -> String {
    match field {
        Some(field) => format!("{strategy} on {field}"),
        None => strategy.to_string(),
    }
}

fn ratio(x: f64) -> String {
    format!("{x:.2}")
}

fn optional_share(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), percent)
}

/// The per-shard documents as small bars, the fullest shard marked.
fn shard_bars(candidate: &Candidate) -> Html {
    let max = candidate
        .shard_documents
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    html! {
        <span class="mini-bars" aria-label="documents per shard">
            { for candidate.shard_documents.iter().enumerate().map(|(shard, &n)| {
                let height = n as f64 * 100.0 / max as f64;
                let style = format!("{}; height: {height:.1}%", shard_style(shard as u32));
                html! {
                    <span class={classes!("mini-bar", (n == max).then_some("fullest"))} {style}
                        title={format!("shard {shard}: {} documents", count(n))}></span>
                }
            }) }
        </span>
    }
}

fn largest_group(candidate: &Candidate) -> Html {
    match &candidate.largest_group {
        Some(group) => {
            let obese = group.documents > candidate.obese_threshold;
            html! {
                <span class={classes!("largest-group", obese.then_some("obese"))}
                    title={if obese { "over the obese threshold" } else { "the largest group" }}>
                    { "⚑ " }<code>{ group.anchor.clone() }</code>
                    { format!(" {} ({})", count(group.documents), percent(group.share)) }
                </span>
            }
        }
        None => html! { "–" },
    }
}

type Row = (&'static str, fn(&Candidate) -> Html);

const ROWS: [Row; 10] = [
    ("Documents per shard", shard_bars),
    (
        "Skew (documents / bytes)",
        |c| html! { format!("{} / {}", ratio(c.skew), ratio(c.byte_skew)) },
    ),
    ("Largest group", largest_group),
    (
        "Obese buckets",
        |c| html! { format!("{} (over {})", count(c.obese_groups), count(c.obese_threshold)) },
    ),
    ("Co-located", |c| html! { optional_share(c.colocated) }),
    ("Cardinality", |c| html! { count(c.cardinality) }),
    ("Frequency", |c| html! { percent(c.frequency) }),
    (
        "Single-shard queries",
        |c| html! { optional_share(c.single_shard_queries) },
    ),
    ("Unplaced", |c| html! { count(c.unplaced) }),
    (
        "ID example",
        |c| html! { <code>{ c.id_example.clone().unwrap_or_default() }</code> },
    ),
];

fn collection_view(
    index: usize,
    collection: &CollectionAdvice,
    can_anchor: bool,
    on_apply: &Callback<(usize, usize)>,
) -> Html {
    let recommended = &collection.recommended;
    let is_recommended = |c: &Candidate| {
        c.strategy == recommended.strategy && c.field.as_deref() == recommended.field.as_deref()
    };
    let references: Vec<String> = collection
        .references
        .iter()
        .map(|r| {
            let loaded = if r.loaded { ", loaded" } else { "" };
            format!(
                "{} → {} ({}{loaded})",
                r.field,
                r.collection,
                percent(r.coverage)
            )
        })
        .collect();
    let apply = |i: usize, c: &Candidate| {
        let (enabled, title) = match c.strategy {
            Strategy::None => return html! {},
            Strategy::Anchor if !can_anchor => (
                false,
                "Run the advisor again: the worker no longer holds this export.",
            ),
            Strategy::Anchor => (
                true,
                "Rewrite the workspace's IDs of this collection as the candidate says",
            ),
            _ => (
                c.configuration.is_some(),
                "Apply the candidate's configuration",
            ),
        };
        html! {
            <button type="button" class="advisor-apply" disabled={!enabled} {title}
                data-candidate={candidate_label(c.strategy, c.field.as_deref())}
                onclick={on_apply.reform(move |_: MouseEvent| (index, i))}>{ "Apply" }</button>
        }
    };
    html! {
        <section class="advisor-collection" data-collection={collection.collection.clone()}>
            <h3>{ &collection.collection }
                <span class="muted">{ format!(" {} documents", count(collection.documents)) }</span></h3>
            <p class="references">{
                if references.is_empty() { "No references found.".to_string() }
                else { format!("References: {}", references.join("; ")) }
            }</p>
            <div class="table-scroll"><table class="advisor-candidates">
                <thead><tr><th></th>
                    { for collection.candidates.iter().map(|c| html! {
                        <th class={classes!(is_recommended(c).then_some("recommended"))} data-strategy={c.strategy.to_string()}>
                            { candidate_label(c.strategy, c.field.as_deref()) }
                            if c.strategy == Strategy::Content { <span class="muted">{ " (draft)" }</span> }
                            if is_recommended(c) { <span class="badge">{ "recommended" }</span> }
                        </th>
                    }) }
                </tr></thead>
                <tbody>
                    { for ROWS.iter().map(|(label, cell)| html! {
                        <tr><th scope="row">{ *label }</th>
                            { for collection.candidates.iter().map(|c| html! {
                                <td class={classes!(is_recommended(c).then_some("recommended"))}>{ cell(c) }</td>
                            }) }
                        </tr>
                    }) }
                    <tr><th></th>
                        { for collection.candidates.iter().enumerate().map(|(i, c)| html! {
                            <td class={classes!(is_recommended(c).then_some("recommended"))}>{ apply(i, c) }</td>
                        }) }
                    </tr>
                </tbody>
            </table></div>
            <p class="reason"><strong>{ format!("Recommended: {}. ", candidate_label(recommended.strategy, recommended.field.as_deref())) }</strong>
                { &recommended.reason }</p>
        </section>
    }
}

/// What to tell when the export had documents whose body was too large to read
/// ([`MAX_BODY_BYTES`](ravenshard_import::MAX_BODY_BYTES)): their references are
/// unknown, so the advice does not count them.
fn bodies_note(dropped: u64) -> Option<String> {
    let limit = ravenshard_import::MAX_BODY_BYTES >> 20;
    (dropped > 0).then(|| {
        let (documents, were) = match dropped {
            1 => ("1 document's body".to_string(), "was"),
            n => (format!("{} documents' bodies", count(n)), "were"),
        };
        format!(
            "{documents} {were} over {limit} MiB and not read: their references are unknown, \
             so the scores leave them out. Make those documents smaller than {limit} MiB in \
             the export to have them counted."
        )
    })
}

/// The advice, one table per collection.
#[function_component(AdviceView)]
pub fn advice_view(props: &AdviceViewProps) -> Html {
    let advice = &props.advice;
    html! {
        <div class="advice">
            <p class="advice-summary">{ format!(
                "{} documents in {} collections, on {} shards{}.",
                count(advice.documents), advice.collections.len(), advice.shards,
                if advice.skipped > 0 { format!("; {} entries skipped", count(advice.skipped)) } else { String::new() }
            ) }</p>
            if let Some(note) = bodies_note(advice.bodies_dropped) {
                <p class="advice-bodies error" role="alert">{ note }</p>
            }
            { for advice.collections.iter().enumerate().map(|(i, c)| collection_view(i, c, props.can_anchor, &props.on_apply)) }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::bodies_note;

    #[test]
    fn bodies_not_read_are_told() {
        assert_eq!(bodies_note(0), None);
        let one = bodies_note(1).unwrap();
        assert!(
            one.starts_with("1 document's body was over 32 MiB and not read"),
            "{one}"
        );
        let many = bodies_note(1200).unwrap();
        assert!(
            many.starts_with("1,200 documents' bodies were over 32 MiB"),
            "{many}"
        );
    }
}
