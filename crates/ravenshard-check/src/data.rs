//! The data checks, on an export with bodies under the intended layout: where loads land,
//! IDs a sharded 7.x database refuses or bunches, obese anchored groups, and the prefixes
//! to set at creation.

use crate::error::CheckError;
use crate::export::Candidate;
use crate::finding::{Finding, Location, Severity};
use crate::rules;
use ravenshard::{Document, ReportOptions, Topology, Warning};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// A `LoadDocument` relation found in an index map, a query or the loads file: documents
/// of `collection` load the document `field` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Relation {
    /// The loading collection.
    pub collection: String,
    /// The field that names the loaded document (dotted; arrays transparent).
    pub field: String,
    /// The finding that reported the load (its index in the findings), or `usize::MAX` for
    /// a relation of the loads file.
    pub finding: usize,
}

/// The relations of a loads file: `Collection.Field`, one a line.
pub(crate) fn read_loads(text: &str) -> Result<Vec<Relation>, CheckError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        match line.split_once('.') {
            Some((c, f))
                if !c.is_empty() && !f.is_empty() && !line.contains(char::is_whitespace) =>
            {
                out.push(Relation {
                    collection: c.to_string(),
                    field: f.to_string(),
                    finding: usize::MAX,
                })
            }
            _ => {
                return Err(CheckError::Load {
                    line: i + 1,
                    text: line.to_string(),
                })
            }
        }
    }
    Ok(out)
}

/// The strings at a dotted path of a JSON value, arrays transparent.
fn values_at<'a>(value: &'a Value, path: &[&str], out: &mut Vec<&'a str>) {
    match (value, path.split_first()) {
        (Value::Array(items), _) => items.iter().for_each(|v| values_at(v, path, out)),
        (Value::String(s), None) => out.push(s),
        (Value::Object(o), Some((first, rest))) => {
            if let Some(v) = o.get(*first) {
                values_at(v, rest, out);
            }
        }
        _ => {}
    }
}

/// A document's collection: `@metadata.@collection`, else its ID's text before the first `/`.
fn collection_of(document: &Document) -> &str {
    document
        .collection
        .as_deref()
        .unwrap_or_else(|| document.id.split('/').next().unwrap_or_default())
}

/// The relations as the advisor's loads: `Collection.Field` lines.
pub(crate) fn loads_text(relations: &[Relation]) -> String {
    relations
        .iter()
        .map(|r| format!("{}.{}\n", r.collection, r.field))
        .collect()
}

/// The fields the relations read: what the export keeps of each body.
pub(crate) fn fields(relations: &[Relation]) -> Vec<&str> {
    relations.iter().map(|r| r.field.as_str()).collect()
}

/// Applies the data checks to the documents of `input` (`export`, or `documents`: the
/// studio's); `creating`: the database is not sharded yet, so the layout's prefixes are
/// set at its creation.
pub(crate) fn check(
    input: &'static str,
    documents: &[Document],
    topology: &Topology,
    creating: bool,
    relations: &[Relation],
    candidates: &[Candidate],
    findings: &mut Vec<Finding>,
) {
    // Only the relations look documents up by ID.
    let shard_of: HashMap<String, u32> = documents
        .iter()
        .take(if relations.is_empty() {
            0
        } else {
            documents.len()
        })
        .filter_map(|d| {
            Some((
                ravenshard::lower_id(&d.id).into_owned(),
                topology.locate(&d.id).ok()?.shard,
            ))
        })
        .collect();
    let mut done = BTreeMap::new();
    for relation in relations {
        let key = (relation.collection.to_lowercase(), relation.field.clone());
        if let Some(&finding) = done.get(&key) {
            amend(findings, relation.finding, finding);
            continue;
        }
        let counts = count_loads(documents, &shard_of, topology, relation);
        let mut finding = loads_finding(input, relation, &counts, topology);
        if finding.severity == Severity::Blocks {
            finding.detail += &advised(candidates, relation);
        }
        findings.push(finding);
        let data = findings.len() - 1;
        amend(findings, relation.finding, data);
        done.insert(key, data);
    }
    ids(input, documents, findings);
    obese(input, documents, topology, findings);
    if creating {
        prefixes(documents, topology, findings);
    }
}

/// Copies a data finding's share onto the finding that reported the load; a load that
/// never lands on another shard is a note there.
fn amend(findings: &mut [Finding], target: usize, data: usize) {
    let Some((share, severity)) = findings.get(data).map(|d| (d.share, d.severity)) else {
        return;
    };
    if let Some(finding) = findings.get_mut(target) {
        finding.share = share;
        if severity == Severity::Note {
            finding.severity = Severity::Note;
            finding.detail +=
                "; under the intended layout every such load in the export stays on its shard";
        }
    }
}

/// The advisor's candidates on the relation's field, in words (what each co-locates), and
/// the one it recommends for the collection.
fn advised(candidates: &[Candidate], relation: &Relation) -> String {
    let mine: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| c.collection.eq_ignore_ascii_case(&relation.collection))
        .collect();
    let on = |c: &Candidate| {
        c.field
            .as_deref()
            .map(|f| format!(" on {f}"))
            .unwrap_or_default()
    };
    let scored: Vec<String> = mine
        .iter()
        .filter(|c| c.field.as_deref() == Some(relation.field.as_str()))
        .filter_map(|c| {
            Some(format!(
                "{}{} {:.1}%",
                c.strategy,
                on(c),
                c.colocated? * 100.0
            ))
        })
        .collect();
    if scored.is_empty() {
        return String::new();
    }
    let chosen = mine.iter().find_map(|c| {
        let why = c.recommended.as_ref()?;
        Some(format!(
            "; for {} it recommends {}{}: {why}",
            relation.collection,
            c.strategy,
            on(c)
        ))
    });
    format!(
        ". The advisor's candidates (ravenshard advise) on {}, by the share of the documents in the bucket of the one they load: {}{}",
        relation.field,
        scored.join(", "),
        chosen.unwrap_or_default()
    )
}

/// The loads of one relation in the export.
#[derive(Debug, Default)]
struct Loads {
    /// Documents of the collection.
    documents: u64,
    /// Loads of an existing document.
    loads: u64,
    /// Of those, loads of a document on another shard.
    elsewhere: u64,
    /// Loading documents with a load elsewhere.
    documents_elsewhere: u64,
    /// Loading documents that name exactly one document: anchoring keeps them whole.
    anchorable: u64,
    /// An example loading document with a load elsewhere, and what it loads.
    example: Option<(String, String)>,
}

fn count_loads(
    documents: &[Document],
    shard_of: &HashMap<String, u32>,
    topology: &Topology,
    relation: &Relation,
) -> Loads {
    let path: Vec<&str> = relation.field.split('.').collect();
    let mut loads = Loads::default();
    for document in documents
        .iter()
        .filter(|d| collection_of(d).eq_ignore_ascii_case(&relation.collection))
    {
        loads.documents += 1;
        let Some(body) = document
            .body
            .as_deref()
            .and_then(|b| serde_json::from_str::<Value>(b).ok())
        else {
            continue;
        };
        let Ok(own) = topology.locate(&document.id) else {
            continue;
        };
        let mut names = Vec::new();
        values_at(&body, &path, &mut names);
        let mut targets: Vec<(&str, u32)> = names
            .into_iter()
            .filter_map(|n| {
                shard_of
                    .get(ravenshard::lower_id(n).as_ref())
                    .map(|s| (n, *s))
            })
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let away: Vec<_> = targets.iter().filter(|(_, s)| *s != own.shard).collect();
        loads.loads += targets.len() as u64;
        loads.elsewhere += away.len() as u64;
        loads.documents_elsewhere += u64::from(!away.is_empty());
        loads.anchorable += u64::from(targets.len() == 1);
        if let (None, Some((name, _))) = (&loads.example, away.first()) {
            loads.example = Some((document.id.clone(), name.to_string()));
        }
    }
    loads
}

fn percent(part: u64, whole: u64) -> f64 {
    match whole {
        0 => 0.0,
        _ => part as f64 / whole as f64,
    }
}

fn loads_finding(
    input: &'static str,
    relation: &Relation,
    loads: &Loads,
    topology: &Topology,
) -> Finding {
    let location = Location {
        collection: Some(relation.collection.clone()),
        field: Some(relation.field.clone()),
        ..Location::new(input)
    };
    let shards = topology.shards().len();
    let share = percent(loads.elsewhere, loads.loads);
    let (severity, detail) = match (loads.loads, loads.elsewhere) {
        (0, _) => (
            Severity::Note,
            format!(
                "none of the export's {} {} documents names an existing document in {}",
                loads.documents, relation.collection, relation.field
            ),
        ),
        (n, 0) => (
            Severity::Note,
            format!("all {n} loads of {}.{} stay on the loading document's shard ({shards} shards)", relation.collection, relation.field),
        ),
        (n, away) => (
            Severity::Blocks,
            format!(
                "{away} of {n} loads ({:.1}%) of {}.{} land on another shard of {shards}, in {} of {} documents{}: they return null once sharded. Anchoring {} to the document {} names keeps {:.1}% of them whole{}",
                share * 100.0,
                relation.collection,
                relation.field,
                loads.documents_elsewhere,
                loads.documents,
                loads.example.as_ref().map(|(d, t)| format!(" (e.g. {d} loads {t})")).unwrap_or_default(),
                relation.collection,
                relation.field,
                percent(loads.anchorable, loads.documents) * 100.0,
                loads.example.as_ref().map(|(d, t)| format!(": {}${t}", d.split('$').next().unwrap_or(d))).unwrap_or_default(),
            ),
        ),
    };
    Finding {
        share: Some(share),
        ..rules::CROSS_SHARD_LOADS.finding(severity, location, detail)
    }
}

/// IDs a sharded 7.x database refuses (escaped control characters) or bunches (`...$`).
fn ids(input: &'static str, documents: &[Document], findings: &mut Vec<Finding>) {
    let mut control = Vec::new();
    let mut empty_anchor = Vec::new();
    for document in documents {
        for warning in ravenshard::validate_id(&document.id).unwrap_or_default() {
            match warning {
                Warning::ControlCharacter { code_point, .. }
                    if u8::try_from(code_point).is_ok_and(ravenshard::is_escaped_control) =>
                {
                    control.push(document.id.as_str());
                }
                Warning::EmptyAnchor => empty_anchor.push(document.id.as_str()),
                _ => {}
            }
        }
    }
    control.dedup();
    let examples = |ids: &[&str]| {
        ids.iter()
            .take(3)
            .map(|id| format!("{id:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(first) = control.first() {
        findings.push(Finding {
            share: Some(percent(control.len() as u64, documents.len() as u64)),
            ..rules::CONTROL_CHARACTERS.finding(
                Severity::Blocks,
                Location { document: Some(first.to_string()), ..Location::new(input) },
                format!("{} IDs with control characters (e.g. {}): a database created by RavenDB 7.x (SupportedFeatures ThrowControlCharactersInIdentifier) refuses them", control.len(), examples(&control)),
            )
        });
    }
    if let Some(first) = empty_anchor.first() {
        findings.push(Finding {
            share: Some(percent(empty_anchor.len() as u64, documents.len() as u64)),
            ..rules::EMPTY_ANCHOR.finding(
                Severity::Changes,
                Location {
                    document: Some(first.to_string()),
                    ..Location::new(input)
                },
                format!(
                    "{} IDs end in '$' (e.g. {}): all of them share bucket {}",
                    empty_anchor.len(),
                    examples(&empty_anchor),
                    ravenshard::EMPTY_ANCHOR_BUCKET
                ),
            )
        });
    }
}

/// Buckets over `report`'s obese threshold that an anchored group fills.
fn obese(
    input: &'static str,
    documents: &[Document],
    topology: &Topology,
    findings: &mut Vec<Finding>,
) {
    let options = ReportOptions {
        top_buckets: 10,
        top_groups: 1000,
        ..ReportOptions::default()
    };
    let report = ravenshard::report(
        documents.iter().map(|d| d.id.as_str()),
        Some(topology),
        &options,
    );
    for bucket in &report.obese_buckets {
        let Some(group) = report
            .anchored_groups
            .iter()
            .find(|g| g.bucket == bucket.bucket)
        else {
            continue;
        };
        findings.push(Finding {
            share: Some(percent(bucket.documents, report.documents)),
            ..rules::OBESE_BUCKET.finding(
                Severity::Changes,
                Location { document: group.members.first().cloned(), ..Location::new(input) },
                format!(
                    "bucket {} (shard {}) holds {} documents, over the threshold of {}: {} of them anchored to '{}'",
                    bucket.bucket,
                    bucket.shard.map_or("?".into(), |s| s.to_string()),
                    bucket.documents,
                    report.obese_threshold,
                    group.count,
                    group.anchor
                ),
            )
        });
    }
}

/// The intended layout's prefixes: to be set at creation, in the order RavenDB gives them.
fn prefixes(documents: &[Document], topology: &Topology, findings: &mut Vec<Finding>) {
    for (i, prefix) in topology.prefixes().iter().enumerate() {
        let lower = prefix.prefix.to_lowercase();
        let using = documents
            .iter()
            .filter(|d| ravenshard::lower_id(&d.id).starts_with(&lower))
            .count();
        findings.push(Finding {
            share: Some(percent(using as u64, documents.len() as u64)),
            ..rules::PREFIX_AT_CREATION.finding(
                Severity::Note,
                Location::at_path("sharding", format!("Prefixed[{i}]")),
                format!(
                    "prefix '{}' on shards {:?}, buckets from {} (position {} of {} at creation): {using} documents of the export have it",
                    prefix.prefix,
                    prefix.shards,
                    prefix.bucket_range_start,
                    i + 1,
                    topology.prefixes().len()
                ),
            )
        });
    }
}
