//! What a `where` clause can match, as bucket intervals, and the shards that hold them.

use super::MAX_COMBINATIONS;
use crate::content::{content_value, ContentDesign, ContentRule, Field};
use crate::rql::{CompareOp, Expr, Operand, Value};
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use serde_json::{Map, Value as Json};

/// What part of the database a condition can match.
pub(super) enum Target {
    /// Anywhere, and why.
    All(String),
    /// Only these bucket intervals `[start, end)` (sorted, disjoint), and why.
    Buckets(Vec<(u32, u32)>, String),
}

/// Evaluates conditions against a topology and, when the design is on, a rule.
pub(super) struct Evaluator<'a> {
    pub topology: &'a Topology,
    pub design: Option<&'a ContentDesign>,
    /// The immutable rule of the query's source, if any.
    pub rule: Option<&'a ContentRule>,
    /// How the rule was found, for reasons.
    pub rule_name: String,
}

/// Sorts and merges intervals.
fn merged(mut intervals: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    intervals.sort();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(intervals.len());
    for (start, end) in intervals {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The intervals in both (each sorted and disjoint).
fn intersection(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let start = a[i].0.max(b[j].0);
        let end = a[i].1.min(b[j].1);
        if start < end {
            out.push((start, end));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// The shards whose bucket ranges meet any of the intervals, ascending.
pub(super) fn shards_meeting(topology: &Topology, intervals: &[(u32, u32)]) -> Vec<u32> {
    let mut shards: Vec<u32> = topology
        .ranges()
        .iter()
        .filter(|r| intervals.iter().any(|&(s, e)| r.start < e && s < r.end))
        .map(|r| r.shard)
        .collect();
    shards.sort();
    shards.dedup();
    shards
}

/// A value as the text a document would hold, or why it cannot be known.
fn literal(value: &Value) -> Result<Json, String> {
    match value {
        Value::String(s) => Ok(Json::String(s.clone())),
        // from_slice, as the importers parse: one copy of serde_json's parser, not two.
        Value::Number(n) => serde_json::from_slice::<Json>(n.as_bytes())
            .ok()
            .filter(Json::is_number)
            .ok_or_else(|| format!("{n} is not a number a document can hold")),
        Value::Bool(b) => Ok(Json::Bool(*b)),
        Value::Null => Ok(Json::Null),
        Value::Parameter(p) => Err(format!(
            "${p} is a parameter, whose value is not known here"
        )),
    }
}

/// Sets `path` (`Address.ZipCode`) in a JSON object.
fn set_path(body: &mut Map<String, Json>, path: &str, value: Json) {
    match path.split_once('.') {
        None => {
            body.insert(path.to_string(), value);
        }
        Some((head, rest)) => {
            let child = body
                .entry(head.to_string())
                .or_insert_with(|| Json::Object(Map::new()));
            if !child.is_object() {
                *child = Json::Object(Map::new());
            }
            if let Json::Object(map) = child {
                set_path(map, rest, value);
            }
        }
    }
}

impl Evaluator<'_> {
    pub fn evaluate(&self, expr: &Expr, warnings: &mut Vec<String>) -> Target {
        match expr {
            Expr::Or(items) => {
                let mut union = Vec::new();
                let mut reasons = Vec::new();
                for item in items {
                    match self.evaluate(item, warnings) {
                        Target::All(why) => {
                            return Target::All(format!(
                                "a branch of 'or' can match anywhere ({why})"
                            ))
                        }
                        Target::Buckets(b, why) => {
                            union.extend(b);
                            reasons.push(why);
                        }
                    }
                }
                Target::Buckets(merged(union), reasons.join("; or "))
            }
            Expr::And(items) => self.and(items, warnings),
            Expr::Not(_) => Target::All("'not' can match anywhere".into()),
            Expr::Compare {
                operand: Operand::Id,
                op: CompareOp::Equal,
                value,
            } => self.ids(std::slice::from_ref(value)),
            Expr::In {
                operand: Operand::Id,
                values,
                all: false,
            } => self.ids(values),
            other => self.and(std::slice::from_ref(other), warnings),
        }
    }

    /// The buckets of `id()` compared with these values.
    fn ids(&self, values: &[Value]) -> Target {
        let mut buckets = Vec::new();
        let mut parts = Vec::new();
        for value in values {
            let id = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.clone(),
                other => {
                    return Target::All(format!(
                        "id() is compared with {}, whose buckets are not known",
                        other
                    ))
                }
            };
            let located = match self.design {
                Some(design) => design
                    .locate(self.topology, &id)
                    .map(|(b, _, _)| b)
                    .map_err(|e| e.to_string()),
                None => self.topology.bucket_for(&id).map_err(|e| e.to_string()),
            };
            match located {
                Ok(bucket) => {
                    buckets.push((bucket, bucket + 1));
                    parts.push(format!("'{id}' is in bucket {bucket}"));
                }
                // An ID that cannot be stored matches no document.
                Err(e) => parts.push(format!("'{id}' matches nothing ({e})")),
            }
        }
        Target::Buckets(merged(buckets), format!("id(): {}", parts.join(", ")))
    }

    fn and(&self, items: &[Expr], warnings: &mut Vec<String>) -> Target {
        let mut narrowed: Vec<(Vec<(u32, u32)>, String)> = Vec::new();
        for item in items {
            let narrowing = matches!(
                item,
                Expr::Or(_)
                    | Expr::And(_)
                    | Expr::Compare {
                        operand: Operand::Id,
                        op: CompareOp::Equal,
                        ..
                    }
                    | Expr::In {
                        operand: Operand::Id,
                        all: false,
                        ..
                    }
            );
            if narrowing {
                if let Target::Buckets(b, why) = self.evaluate(item, warnings) {
                    narrowed.push((b, why));
                }
            }
        }
        let by_rule = self.rule.map(|rule| self.by_rule(rule, items, warnings));
        let mut missing = None;
        match by_rule {
            Some(Ok(found)) => narrowed.push(found),
            Some(Err(why)) => missing = Some(why),
            None => {}
        }
        let Some((first, why)) = narrowed.first().cloned() else {
            return Target::All(missing.unwrap_or_else(|| {
                "no condition narrows the query (only id() and the fields of an immutable \
                 ByContent rule do)"
                    .into()
            }));
        };
        let mut buckets = first;
        let mut reasons = vec![why];
        for (b, why) in narrowed.into_iter().skip(1) {
            buckets = intersection(&buckets, &b);
            reasons.push(why);
        }
        if buckets.is_empty() {
            reasons.push("no bucket satisfies every condition, so no shard is asked".into());
        }
        Target::Buckets(buckets, reasons.join("; and "))
    }

    /// The content blocks an equality on every field of `rule` asks for.
    fn by_rule(
        &self,
        rule: &ContentRule,
        items: &[Expr],
        warnings: &mut Vec<String>,
    ) -> Result<(Vec<(u32, u32)>, String), String> {
        let bound = |field: &Field| -> Vec<&Value> {
            items
                .iter()
                .flat_map(|item| match (item, field) {
                    (
                        Expr::Compare {
                            operand: Operand::Id,
                            op: CompareOp::Equal,
                            value,
                        },
                        Field::Id,
                    ) => vec![value],
                    (
                        Expr::In {
                            operand: Operand::Id,
                            values,
                            all: false,
                        },
                        Field::Id,
                    ) => values.iter().collect(),
                    (
                        Expr::Compare {
                            operand: Operand::Field(f),
                            op: CompareOp::Equal,
                            value,
                        },
                        _,
                    ) if Some(f.as_str()) == field.path() => vec![value],
                    (
                        Expr::In {
                            operand: Operand::Field(f),
                            values,
                            all: false,
                        },
                        _,
                    ) if Some(f.as_str()) == field.path() => values.iter().collect(),
                    _ => Vec::new(),
                })
                .collect()
        };
        let mut choices = Vec::new();
        for field in &rule.fields {
            let values = bound(field);
            if values.is_empty() {
                return Err(format!(
                    "{} reads {}, and the query does not give {} by equality",
                    self.rule_name,
                    rule.fields_text(),
                    field
                ));
            }
            choices.push(values);
        }
        let combinations = choices
            .iter()
            .try_fold(1usize, |n, c| n.checked_mul(c.len()));
        if combinations.is_none_or(|n| n > MAX_COMBINATIONS) {
            warnings.push(format!(
                "The query gives more than {MAX_COMBINATIONS} combinations of {}; it is sent to every shard.",
                rule.fields_text()
            ));
            return Err(format!(
                "too many value combinations for {}",
                self.rule_name
            ));
        }
        let mut buckets = Vec::new();
        let mut blocks = Vec::new();
        let mut index = vec![0usize; choices.len()];
        loop {
            let mut body = Map::new();
            let mut id = String::new();
            let mut text = Vec::new();
            for ((field, values), &k) in rule.fields.iter().zip(&choices).zip(&index) {
                let value = values[k];
                text.push(format!("{field} = {value}"));
                match field.path() {
                    None => {
                        id = literal(value)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default()
                    }
                    Some(path) => match literal(value) {
                        Ok(json) => set_path(&mut body, path, json),
                        Err(why) => {
                            warnings
                                .push(format!("{field}: {why}; the query is sent to every shard."));
                            return Err(format!("{} cannot be routed: {why}", self.rule_name));
                        }
                    },
                }
            }
            // A value no document can hold under the rule (a boolean, say) matches nothing.
            if let Ok(content) = content_value(rule, &id, Some(&Json::Object(body))) {
                let c = content.bucket;
                let base = c - c % rule.range;
                let end = base + rule.range.min(NUMBER_OF_BUCKETS - base);
                buckets.push((base, end));
                blocks.push(if rule.range == 1 {
                    format!("{} gives bucket {c}", text.join(" and "))
                } else {
                    format!(
                        "{} gives content bucket {c}, block {base}–{}",
                        text.join(" and "),
                        end - 1
                    )
                });
            }
            // Next combination.
            let mut position = 0;
            loop {
                if position == index.len() {
                    let how = if rule.range == 1 {
                        String::new()
                    } else {
                        format!(", Range {}", rule.range)
                    };
                    return Ok((
                        merged(buckets),
                        format!(
                            "{} ({}{how}): {}",
                            self.rule_name,
                            rule.fields_text(),
                            blocks.join("; ")
                        ),
                    ));
                }
                index[position] += 1;
                if index[position] < choices[position].len() {
                    break;
                }
                index[position] = 0;
                position += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals() {
        assert_eq!(merged(vec![(5, 7), (1, 3), (2, 6)]), vec![(1, 7)]);
        assert_eq!(
            intersection(&[(0, 10), (20, 30)], &[(5, 25)]),
            vec![(5, 10), (20, 25)]
        );
        assert!(intersection(&[(0, 1)], &[(1, 2)]).is_empty());
    }
}
