//! The query rules, on a workload of RQL queries, one a line (blank lines and lines
//! starting with `#` or `//` skipped). A line may start with `stream:` (the query is
//! streamed) or `delete:` (it is a DeleteByQueryOperation); `update { ... }` queries are
//! patches by query.

use crate::data::Relation;
use crate::finding::{Finding, Location, Severity};
use crate::map_text::{self, position};
use crate::rules::{self, Rule};
use ravenshard::Topology;
use ravenshard_design::route::{route, DEEP_OFFSET};
use ravenshard_design::rql::{self, Count, Expr, OrderKey, Query, Source};
use std::collections::BTreeSet;

/// How a query is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    Query,
    Stream,
    Delete,
}

/// One query of the workload and where it is.
struct Line<'a> {
    number: usize,
    line: usize,
    /// The whole line, marker included: columns count from its start.
    text: &'a str,
    /// Where the RQL starts in `text` (after the marker).
    start: usize,
    run: Run,
}

impl Line<'_> {
    fn rql(&self) -> &str {
        self.text.get(self.start..).unwrap_or_default()
    }

    /// The location of the byte `offset` of the RQL.
    fn at(&self, offset: usize) -> Location {
        let p = position(self.text, self.start + offset);
        Location {
            query: Some(self.number),
            line: Some(self.line),
            column: Some(p.column),
            ..Location::new("queries")
        }
    }

    fn finding(&self, rule: &Rule, severity: Severity, offset: usize, detail: String) -> Finding {
        rule.finding(severity, self.at(offset), detail)
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        let lead = raw.len() - raw.trim_start().len();
        let (run, marker) = match trimmed.split_once(':') {
            Some((m, _)) if m.trim().eq_ignore_ascii_case("stream") => (Run::Stream, m.len() + 1),
            Some((m, _)) if m.trim().eq_ignore_ascii_case("delete") => (Run::Delete, m.len() + 1),
            _ => (Run::Query, 0),
        };
        let rest = raw.get(lead + marker..).unwrap_or_default();
        let start = lead + marker + (rest.len() - rest.trim_start().len());
        out.push(Line {
            number: out.len() + 1,
            line: i + 1,
            text: raw.trim_end(),
            start,
            run,
        });
    }
    out
}

/// What the query rules need to know besides the queries.
pub(crate) struct Context<'a> {
    /// The map-reduce indexes, by lower-cased name.
    pub map_reduce: &'a BTreeSet<String>,
    /// The layout for routing, if known.
    pub topology: Option<&'a Topology>,
}

/// Applies the query rules to a workload.
pub(crate) fn check(
    text: &str,
    context: &Context<'_>,
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) {
    for line in lines(text) {
        match rql::parse(line.rql()) {
            Ok(query) => check_query(&line, &query, context, findings, relations),
            Err(e) => {
                let p = e.position();
                let mut location = line.at(0);
                location.column = Some(position(line.text, line.start).column + p.column - 1);
                findings.push(rules::QUERY_NOT_CHECKED.finding(
                    Severity::NotChecked,
                    location,
                    format!("ravenshard's RQL reader stops here: {e}"),
                ));
            }
        }
    }
}

/// The byte offset of the first word `word` (any case) of the query, else 0.
fn find(words: &[(usize, &str)], word: &str) -> Option<usize> {
    words
        .iter()
        .find(|(_, w)| w.eq_ignore_ascii_case(word))
        .map(|(at, _)| *at)
}

fn check_query(
    line: &Line<'_>,
    query: &Query,
    context: &Context<'_>,
    findings: &mut Vec<Finding>,
    relations: &mut Vec<Relation>,
) {
    let rql = line.rql();
    let words = map_text::words(rql);
    let map_reduce = match &query.source {
        Source::Index(name) => context.map_reduce.contains(&name.to_lowercase()),
        Source::Collection(_) => false,
    } || query.other_clauses.iter().any(|c| c == "group by");
    let loads = load_offsets(rql, &words);
    for &(at, ref field) in &loads {
        let (severity, detail) = match line.run {
            Run::Stream => (Severity::Blocks, "a load in a streamed query".to_string()),
            _ => (
                Severity::Blocks,
                "a load: it returns null for a document on another shard".to_string(),
            ),
        };
        findings.push(line.finding(&rules::QUERY_LOAD, severity, at, detail));
        if let (Source::Collection(collection), Some(field)) = (&query.source, field) {
            relations.push(Relation {
                collection: collection.clone(),
                field: field.clone(),
                finding: findings.len() - 1,
            });
        }
        if map_reduce {
            findings.push(line.finding(
                &rules::MAP_REDUCE_PROJECTION_LOAD,
                Severity::Blocks,
                at,
                "a load in the projection of map-reduce results".into(),
            ));
        }
    }
    if line.run == Run::Stream {
        let include = find(&words, "include");
        if let Some(at) = include.or(loads.first().map(|l| l.0)) {
            findings.push(line.finding(
                &rules::STREAM_INCLUDE_LOAD,
                Severity::Blocks,
                at,
                "include or load in a streamed query".into(),
            ));
        }
        if map_reduce {
            findings.push(line.finding(
                &rules::STREAM_MAP_REDUCE,
                Severity::Blocks,
                0,
                "a streamed query of map-reduce results".into(),
            ));
        }
    }
    let patch = query.other_clauses.iter().any(|c| c == "update");
    if (patch || line.run == Run::Delete) && query.limit.is_some() {
        let at = find(&words, "limit").unwrap_or(0);
        let what = if patch {
            "a patch by query"
        } else {
            "a delete by query"
        };
        findings.push(line.finding(
            &rules::PATCH_LIMIT,
            Severity::Blocks,
            at,
            format!("{what} with a limit"),
        ));
    }
    methods(line, query, &words, map_reduce, findings);
    if let Some(topology) = context.topology {
        routing(line, query, topology, findings);
    }
}

/// The loads of a query: the `load` clause's paths (with the field of the query's
/// documents each names) and `load(...)` calls in a JavaScript projection.
fn load_offsets(rql: &str, words: &[(usize, &str)]) -> Vec<(usize, Option<String>)> {
    let mut out = Vec::new();
    for (i, (at, word)) in words.iter().enumerate() {
        if !word.eq_ignore_ascii_case("load") {
            continue;
        }
        let end = words
            .iter()
            .skip(i + 1)
            .find(|(_, w)| CLAUSES.iter().any(|c| w.eq_ignore_ascii_case(c)))
            .map_or(rql.len(), |(end, _)| *end);
        let after = rql.get(at + word.len()..end).unwrap_or_default();
        if after.trim_start().starts_with('(') {
            out.push((*at, None));
            continue;
        }
        // `load o.Company as c, o.Employee as e`: the path after `load` (and after each comma).
        let alias = alias_before(words, i);
        for path in after
            .split(',')
            .map(|p| p.split_whitespace().next().unwrap_or_default())
        {
            let field = match &alias {
                Some(alias) => path
                    .strip_prefix(alias.as_str())
                    .and_then(|p| p.strip_prefix('.')),
                None => Some(path),
            };
            out.push((*at, field.filter(|f| !f.is_empty()).map(str::to_string)));
        }
    }
    out
}

/// The words that end a `load` clause.
const CLAUSES: [&str; 7] = [
    "select", "include", "where", "order", "limit", "update", "offset",
];

/// The query's alias (`from Orders as o`) from its words before `load`.
fn alias_before(words: &[(usize, &str)], load: usize) -> Option<String> {
    let before = words.get(..load).unwrap_or_default();
    before
        .iter()
        .position(|(_, w)| w.eq_ignore_ascii_case("as"))
        .and_then(|i| before.get(i + 1))
        .map(|(_, w)| w.to_string())
}

fn methods(
    line: &Line<'_>,
    query: &Query,
    words: &[(usize, &str)],
    map_reduce: bool,
    findings: &mut Vec<Finding>,
) {
    for order in &query.order_by {
        let OrderKey::Call { name, .. } = &order.key else {
            continue;
        };
        let lower = name.to_lowercase();
        let at = find(words, name.split('.').next().unwrap_or(name)).unwrap_or(0);
        let (rule, detail) = match lower.as_str() {
            "score" => (&rules::ORDER_BY_SCORE, "order by score()"),
            "custom" => (&rules::CUSTOM_SORT, "order by custom(...)"),
            "spatial.distance" if map_reduce => (
                &rules::ORDER_BY_DISTANCE,
                "order by spatial.distance(...) on map-reduce results",
            ),
            _ => continue,
        };
        findings.push(line.finding(rule, Severity::Blocks, at, detail.into()));
    }
    let mut calls = Vec::new();
    if let Some(filter) = &query.filter {
        filter_calls(filter, &mut calls);
    }
    for name in calls {
        let (rule, detail) = match name.to_lowercase().as_str() {
            "morelikethis" => (&rules::MORE_LIKE_THIS, "moreLikeThis(...)"),
            "intersect" => (&rules::INTERSECT, "intersect(...)"),
            _ => continue,
        };
        let at = find(words, &name).unwrap_or(0);
        findings.push(line.finding(rule, Severity::Blocks, at, detail.into()));
    }
    if let Some(at) = find(words, "highlight") {
        findings.push(line.finding(
            &rules::HIGHLIGHT,
            Severity::Blocks,
            at,
            "highlight(...)".into(),
        ));
    }
}

fn filter_calls(expr: &Expr, out: &mut Vec<String>) {
    match expr {
        Expr::Or(items) | Expr::And(items) => items.iter().for_each(|e| filter_calls(e, out)),
        Expr::Not(inner) => filter_calls(inner, out),
        Expr::Call { name, .. } => out.push(name.clone()),
        _ => {}
    }
}

fn routing(line: &Line<'_>, query: &Query, topology: &Topology, findings: &mut Vec<Finding>) {
    let route = route(query, topology, None);
    let shards = topology.shards().len();
    if route.all_shards && shards > 1 {
        findings.push(line.finding(
            &rules::ALL_SHARDS,
            Severity::Changes,
            0,
            format!("sent to all {shards} shards: {}", route.reason),
        ));
    }
    let (Some(Count::Number(offset)), limit) = (&query.offset, &query.limit) else {
        return;
    };
    if *offset < DEEP_OFFSET || route.shards.len() < 2 {
        return;
    }
    let words = map_text::words(line.rql());
    let at = find(&words, "offset")
        .or_else(|| find(&words, "limit"))
        .unwrap_or(0);
    let detail = match limit {
        Some(Count::Number(limit)) => format!(
            "offset {offset}, limit {limit}: each of the {} shards returns {} rows, {} in all, for one page of {limit}",
            route.shards.len(),
            offset + limit,
            route.fetched.unwrap_or((offset + limit) * route.shards.len() as u64)
        ),
        _ => format!(
            "offset {offset}: each of the {} shards returns at least {offset} rows for one page",
            route.shards.len()
        ),
    };
    findings.push(line.finding(&rules::DEEP_PAGING, Severity::Changes, at, detail));
}
