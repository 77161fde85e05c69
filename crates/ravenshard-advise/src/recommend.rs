//! The recommendation rule.
//!
//! 1. A candidate is **eligible** when no bucket holds more of the collection's documents
//!    than the obese threshold (`obese_groups` is 0: the rule of `ravenshard report`, 1% of
//!    the documents, at most 10,000) and its `skew` is under [`MAX_SKEW`].
//! 2. Among the eligible candidates the one with the most `colocated`, then the most
//!    `single_shard_queries`, then one whose field a `LoadDocument` relation names, then
//!    shipped RavenDB (`anchor`, `prefix`) over the draft's design (`content`), then the
//!    least `byte_skew` wins.
//! 3. It is recommended when it does better than `none` (more co-location or more
//!    single-shard queries); otherwise `none` is, with the reason the best alternative was
//!    refused.

use super::{Candidate, Recommended, Reference, Strategy};
use std::cmp::Ordering;

/// The largest skew (largest shard / mean shard, by documents) a recommended candidate may
/// have.
pub const MAX_SKEW: f64 = 1.2;

fn eligible(c: &Candidate) -> bool {
    c.obese_groups == 0 && c.skew < MAX_SKEW
}

fn gain(c: &Candidate) -> (f64, f64) {
    (
        c.colocated.unwrap_or(0.0),
        c.single_shard_queries.unwrap_or(0.0),
    )
}

fn loaded(c: &Candidate, references: &[(u32, Reference)]) -> bool {
    references
        .iter()
        .any(|(_, r)| r.loaded && c.field.as_deref() == Some(r.field.as_str()))
}

fn better(a: &Candidate, b: &Candidate, references: &[(u32, Reference)]) -> Ordering {
    let (ga, gb) = (gain(a), gain(b));
    ga.0.total_cmp(&gb.0)
        .then(ga.1.total_cmp(&gb.1))
        .then(loaded(a, references).cmp(&loaded(b, references)))
        .then((a.strategy != Strategy::Content).cmp(&(b.strategy != Strategy::Content)))
        .then(b.byte_skew.total_cmp(&a.byte_skew))
}

fn name(c: &Candidate) -> String {
    match &c.field {
        Some(field) => format!("{} on {field}", c.strategy),
        None => c.strategy.to_string(),
    }
}

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// Why `c` was refused.
fn refusal(c: &Candidate) -> String {
    match &c.largest_group {
        Some(g) if c.obese_groups > 0 => format!(
            "{} would put {} documents ({}) under {}, over the obese threshold of {} per bucket",
            name(c),
            g.documents,
            percent(g.share),
            g.anchor,
            c.obese_threshold
        ),
        _ => format!(
            "{} would skew the shards {:.2} (over {MAX_SKEW})",
            name(c),
            c.skew
        ),
    }
}

/// The recommendation for a collection's candidates (the first is `none`).
pub(super) fn recommend(candidates: &[Candidate], references: &[(u32, Reference)]) -> Recommended {
    let none = candidates.iter().find(|c| c.strategy == Strategy::None);
    let best = candidates
        .iter()
        .filter(|c| c.strategy != Strategy::None && eligible(c))
        .max_by(|a, b| better(a, b, references));
    let baseline = none.map_or((0.0, 0.0), gain);
    if let Some(best) = best.filter(|b| gain(b) > baseline) {
        let (colocated, single) = gain(best);
        let queries = match best.single_shard_queries {
            Some(_) => format!(", {} of the queries on one shard", percent(single)),
            None => String::new(),
        };
        return Recommended {
            strategy: best.strategy,
            field: best.field.clone(),
            reason: format!(
                "{} keeps {} of the documents in the bucket of the document they name{queries}, with a skew of {:.2} and no bucket over the obese threshold of {}{}.",
                name(best),
                percent(colocated),
                best.skew,
                best.obese_threshold,
                if best.strategy == Strategy::Content {
                    " (the draft chapter's design, not shipped RavenDB)"
                } else {
                    ""
                }
            ),
        };
    }
    let refused = candidates
        .iter()
        .filter(|c| c.strategy != Strategy::None && !eligible(c))
        .max_by(|a, b| better(a, b, references));
    let reason = match refused {
        Some(c) => format!(
            "No candidate does better than the documents' own IDs: {}.",
            refusal(c)
        ),
        None => "No candidate does better than the documents' own IDs.".to_string(),
    };
    Recommended {
        strategy: Strategy::None,
        field: None,
        reason,
    }
}
