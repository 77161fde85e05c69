//! Query routing, like `vtexplain`: which shards a query goes to, and why.
//!
//! Shipped RavenDB 7.x routes `id()` queries to the shards of those IDs and every other
//! query to all shards. The draft chapter's design (a configuration with `ByContent`, see
//! [`content`](crate::content)) adds routing by content: equality on every field of an
//! immutable rule sends the query to the shards whose bucket ranges meet the content's
//! block of `Range` buckets.
//!
//! # Examples
//!
//! ```
//! use ravenshard_design::route::route_text;
//! use ravenshard_design::content::ContentDesign;
//! use ravenshard::Topology;
//!
//! let topology = Topology::from_json(r#"{"Shards": {"0": {}, "1": {}, "2": {}},
//!     "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#).unwrap();
//! let design = ContentDesign::from_topology(&topology).unwrap();
//! let route = route_text("from Orders where Customer = 'customers/1-A'", &topology, design.as_ref()).unwrap();
//! assert_eq!(route.shards, vec![2]);
//! assert_eq!(route.buckets, vec![(982000, 983000)]);
//!
//! let all = route_text("from Orders where Total > 100 limit 10 offset 5000", &topology, design.as_ref()).unwrap();
//! assert_eq!(all.shards, vec![0, 1, 2]);
//! assert_eq!(all.fetched, Some(3 * 5010));
//! ```

mod targets;

use crate::content::{ContentDesign, ContentRule};
use crate::rql::{self, Count, Query, RqlError, Source};
use ravenshard::Topology;
use serde::Serialize;
use targets::{Evaluator, Target};

/// The most value combinations a multi-field rule is evaluated for (`in` lists multiply).
pub const MAX_COMBINATIONS: usize = 1024;

/// An offset from which paging over several fragments is called deep.
pub const DEEP_OFFSET: u64 = 1000;

/// Where a query goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Route {
    /// The shards that get the query, ascending.
    pub shards: Vec<u32>,
    /// Whether that is every shard.
    pub all_shards: bool,
    /// The bucket intervals `[start, end)` the query can match (empty when it can match
    /// anywhere).
    pub buckets: Vec<(u32, u32)>,
    /// Why, in words.
    pub reason: String,
    /// Documents fetched from the fragments for one page: shards × (offset + limit), when
    /// the query has a numeric `limit`.
    pub fetched: Option<u64>,
    /// Costs and caveats: deep paging, filters on map-reduce results, values not known.
    pub warnings: Vec<String>,
}

/// Parses `text` (RQL) and routes it.
pub fn route_text(
    text: &str,
    topology: &Topology,
    design: Option<&ContentDesign>,
) -> Result<Route, RqlError> {
    Ok(route(&rql::parse(text)?, topology, design))
}

/// The rule that routes a query's source, or why there is none.
fn rule_for<'d>(
    source: &Source,
    design: Option<&'d ContentDesign>,
) -> Result<(&'d ContentRule, String), String> {
    let Some(design) = design else {
        return Err(
            "the configuration has no ByContent section, so only id() narrows a \
                    query (shipped RavenDB 7.x)"
                .into(),
        );
    };
    let rule = match source {
        Source::Collection(name) => design
            .rule(name)
            .map(|r| (r, format!("the ByContent rule {}", r.name)))
            .ok_or_else(|| format!("collection {name} has no ByContent rule"))?,
        Source::Index(name) => {
            if let Some(rule) = design.rule(name) {
                (
                    rule,
                    format!("the index's own ByContent rule {}", rule.name),
                )
            } else {
                let index = design.index(name).ok_or_else(|| {
                    format!(
                        "index '{name}' has no ByContent rule and is not declared in Indexes, \
                         so its source collections are unknown"
                    )
                })?;
                match index.collections.as_slice() {
                    [one] => design
                        .rule(one)
                        .map(|r| (r, format!("the rule of {one}, the index's one collection")))
                        .ok_or_else(|| {
                            format!("index '{name}' maps {one}, which has no ByContent rule")
                        })?,
                    _ => {
                        return Err(format!(
                            "index '{name}' maps several collections and has no ByContent rule \
                             of its own"
                        ))
                    }
                }
            }
        }
    };
    if rule.0.mutable {
        return Err(format!(
            "{} is Mutable, so documents may have moved away from their content and routing \
             by content is off",
            rule.1
        ));
    }
    Ok(rule)
}

/// Routes a parsed query.
pub fn route(query: &Query, topology: &Topology, design: Option<&ContentDesign>) -> Route {
    let rule = rule_for(&query.source, design);
    let evaluator = Evaluator {
        topology,
        design,
        rule: rule.as_ref().ok().map(|(r, _)| *r),
        rule_name: rule.as_ref().map(|(_, n)| n.clone()).unwrap_or_default(),
    };
    let mut warnings = Vec::new();
    let target = match &query.filter {
        Some(filter) => evaluator.evaluate(filter, &mut warnings),
        None => Target::All("the query has no where clause".into()),
    };
    let every: Vec<u32> = topology.shards().map(|s| s.number).collect();
    let (shards, buckets, mut reason) = match target {
        Target::All(why) => (every.clone(), Vec::new(), why),
        Target::Buckets(buckets, why) => {
            let shards = targets::shards_meeting(topology, &buckets);
            (shards, buckets, why)
        }
    };
    if shards.len() == every.len() && !buckets.is_empty() {
        reason.push_str("; those buckets span every shard");
    }
    if shards.len() == every.len() && buckets.is_empty() {
        if let Err(why) = &rule {
            reason = format!("{reason}; {why}");
        }
    }
    // A sentence: its first letter upper-cased (reasons are built from lower-case parts).
    if let Some(first) = reason.chars().next() {
        let upper: String = first.to_ascii_uppercase().to_string();
        reason.replace_range(..first.len_utf8(), &upper);
    }
    let all_shards = shards.len() == every.len();
    let n = shards.len() as u64;
    let number = |c: &Option<Count>| match c {
        Some(Count::Number(n)) => Some(*n),
        _ => None,
    };
    let (limit, offset) = (number(&query.limit), number(&query.offset).unwrap_or(0));
    let fetched = limit.map(|l| n.saturating_mul(offset.saturating_add(l)));
    if let (Some(l), true) = (limit, n > 1 && offset >= DEEP_OFFSET) {
        warnings.push(format!(
            "Deep paging: to return {l} results at offset {offset}, each of the {n} fragments \
             returns {} ({} in all), which are sorted and cut to {l}. Avoid deep paging over \
             several fragments.",
            offset + l,
            n * (offset + l)
        ));
    }
    if matches!(query.limit, Some(Count::Parameter(_)))
        || matches!(query.offset, Some(Count::Parameter(_)))
    {
        warnings.push(
            "The limit or offset is a parameter, so the documents fetched are not known.".into(),
        );
    }
    if let (Source::Index(name), Some(_), true) = (&query.source, &query.filter, n > 1) {
        let known = design.and_then(|d| d.index(name)).map(|i| i.map_reduce);
        let note = "filters run once, on each fragment's results; results re-aggregated across \
                    fragments are not filtered again";
        match known {
            Some(true) => warnings.push(format!("'{name}' is a map-reduce index: {note}.")),
            Some(false) => {}
            None => warnings.push(format!("If '{name}' is a map-reduce index, {note}.")),
        }
    }
    Route {
        shards,
        all_shards,
        buckets,
        reason,
        fetched,
        warnings,
    }
}
