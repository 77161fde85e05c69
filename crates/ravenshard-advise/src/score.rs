//! The candidates of each collection: building them and scoring them.

use super::candidate::{anchored, content_id, content_placed, own, score, Placed, Scope, Setup};
use super::read::{Kept, Read};
use super::recommend::recommend;
use super::references::{referenced, references};
use super::{Advice, AdviseError, Candidate, CollectionAdvice, Progress, Strategy, Workload};
use ravenshard::{lower_id, Topology, MAX_PREFIXES};
use ravenshard_design::content::ContentDesign;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;

/// Advises on everything read.
pub(super) fn advise_read(
    read: &Read,
    topology: &Topology,
    workload: &Workload,
    progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
) -> Result<Advice, AdviseError> {
    let mut by_collection: Vec<Vec<&Kept>> = vec![Vec::new(); read.collections.len()];
    for document in &read.documents {
        by_collection[document.collection as usize].push(document);
    }
    let mut tracker = Tracker {
        done: 0,
        total: read.documents.len() as u64,
        progress,
    };
    tracker.report(0, 1)?;
    let mut collections = Vec::new();
    for (i, documents) in by_collection.iter().enumerate() {
        if documents.is_empty() {
            continue;
        }
        let name = &read.collections[i];
        collections.push(advise_collection(
            read,
            name,
            documents,
            topology,
            workload,
            &mut tracker,
        )?);
        tracker.done += documents.len() as u64;
    }
    tracker.report(0, 1)?;
    Ok(Advice {
        shards: topology.shards().len() as u32,
        documents: read.documents.len() as u64,
        skipped: read.skipped as u64,
        bodies_dropped: read.bodies_dropped as u64,
        collections,
    })
}

/// Tells the caller's progress callback how far the scoring is.
struct Tracker<'p> {
    /// Documents of the collections done.
    done: u64,
    total: u64,
    progress: &'p mut dyn FnMut(Progress) -> ControlFlow<()>,
}

impl Tracker<'_> {
    /// Reports `part` of the current collection's `documents` done; an error when the
    /// callback cancels.
    fn report(&mut self, part: u64, documents: u64) -> Result<(), AdviseError> {
        let done = (self.done + part.min(documents)).min(self.total);
        match (self.progress)(Progress {
            done,
            total: self.total,
        }) {
            ControlFlow::Continue(()) => Ok(()),
            ControlFlow::Break(()) => Err(AdviseError::Cancelled),
        }
    }
}

/// A collection's scoring: `scored` of its `count` candidates done.
struct Step<'t, 'p> {
    tracker: &'t mut Tracker<'p>,
    documents: u64,
    count: u64,
    scored: u64,
    cancelled: bool,
}

impl Step<'_, '_> {
    /// Reports `within` documents of the current candidate scored; `false` once cancelled.
    fn report(&mut self, within: u64) -> bool {
        if !self.cancelled {
            let part = (self.documents * self.scored + within.min(self.documents)) / self.count;
            self.cancelled = self.tracker.report(part, self.documents).is_err();
        }
        !self.cancelled
    }

    /// One more candidate scored.
    fn candidate_done(&mut self) -> Result<(), AdviseError> {
        self.scored = (self.scored + 1).min(self.count);
        match self.report(0) {
            true => Ok(()),
            false => Err(AdviseError::Cancelled),
        }
    }
}

/// The candidates of a collection with `references`: `none`, an `anchor` per reference,
/// maybe `prefix`, a `content` per top-level reference.
fn candidate_count(references: &[(u32, super::Reference)]) -> u64 {
    let top_level = references.iter().filter(|(_, r)| !r.field.contains('.'));
    2 + references.len() as u64 + top_level.count() as u64
}

fn advise_collection(
    read: &Read,
    name: &str,
    documents: &[&Kept],
    topology: &Topology,
    workload: &Workload,
    tracker: &mut Tracker<'_>,
) -> Result<CollectionAdvice, AdviseError> {
    let references = references(read, name, documents, workload);
    let step = RefCell::new(Step {
        tracker,
        documents: documents.len() as u64,
        count: candidate_count(&references),
        scored: 0,
        cancelled: false,
    });
    let within = |i: u64| step.borrow_mut().report(i);
    let scope = Scope {
        name,
        documents,
        main_reference: references.first().map(|(f, _)| *f),
        workload,
        targets: references
            .iter()
            .map(|(field, _)| (*field, targets(documents, *field, topology)))
            .collect(),
        within: &within,
    };
    let scored = || step.borrow_mut().candidate_done();
    let mut candidates = vec![none(&scope, topology)];
    scored()?;
    for (field, reference) in &references {
        candidates.push(anchor(&scope, topology, *field, &reference.field));
        scored()?;
    }
    if let Some(prefix) = prefix(&scope, topology) {
        candidates.push(prefix);
    }
    scored()?;
    for (field, reference) in &references {
        if !reference.field.contains('.') {
            let largest = candidates
                .iter()
                .find(|c| {
                    c.strategy == Strategy::Anchor && c.field.as_deref() == Some(&reference.field)
                })
                .and_then(|c| c.largest_group.as_ref())
                .map_or(0, |g| g.documents);
            if let Some(c) = content(&scope, topology, *field, &reference.field, largest) {
                candidates.push(c);
            }
            scored()?;
        }
    }
    let recommended = recommend(&candidates, &references);
    Ok(CollectionAdvice {
        collection: name.to_string(),
        documents: documents.len() as u64,
        bytes: documents.iter().map(|d| d.size).sum(),
        references: references.into_iter().map(|(_, r)| r).collect(),
        candidates,
        recommended,
    })
}

/// Per document, the index of the first value of `field` naming a document of the export,
/// and that document's bucket under `topology`.
fn targets(documents: &[&Kept], field: u32, topology: &Topology) -> Vec<Option<(u32, u32)>> {
    documents
        .iter()
        .map(|d| {
            let (index, value) = referenced(d, field)?;
            let bucket = topology.locate(value).ok()?.bucket;
            Some((index as u32, bucket))
        })
        .collect()
}

fn setup(topology: &Topology, strategy: Strategy, field: Option<(u32, &str)>) -> Setup {
    Setup {
        strategy,
        field: field.map(|(f, n)| (f, n.to_string())),
        topology: topology.clone(),
        design: None,
        configuration: None,
        same_buckets: true,
    }
}

fn none(scope: &Scope<'_>, topology: &Topology) -> Candidate {
    let example = scope.documents.first().map(|d| d.id.clone());
    let place = |s: &Setup, _: usize, d: &Kept| own(&s.topology, &d.id);
    score(scope, setup(topology, Strategy::None, None), place, example)
}

fn anchor(scope: &Scope<'_>, topology: &Topology, field: u32, name: &str) -> Candidate {
    let example = (0..scope.documents.len()).find_map(|i| {
        scope
            .target(field, i)
            .map(|(t, _)| anchored(&scope.documents[i].id, t))
    });
    let place = |s: &Setup, i: usize, d: &Kept| match scope.target(field, i) {
        Some((target, _)) => {
            let location = s.topology.locate(&anchored(&d.id, target)).ok()?;
            Some(Placed {
                bucket: location.bucket,
                shard: location.shard,
                group: lower_id(target).into_owned(),
            })
        }
        None => own(&s.topology, &d.id),
    };
    score(
        scope,
        setup(topology, Strategy::Anchor, Some((field, name))),
        place,
        example,
    )
}

/// The leading segment of an ID that has at least two `/` (`eu/` of `eu/orders/1-A`).
fn leading_segment(id: &str) -> Option<&str> {
    let end = id.find('/')?;
    (end > 0 && id[end + 1..].contains('/')).then(|| &id[..=end])
}

/// The configuration `topology` is, with `keys` added (a `Prefixed` list or `ByContent`).
fn with_keys(topology: &Topology, keys: &[(&str, Value)]) -> Option<(Topology, Value)> {
    let mut configuration = serde_json::to_value(topology.to_configuration()).ok()?;
    let object = configuration.as_object_mut()?;
    for (key, value) in keys {
        object.insert((*key).to_string(), value.clone());
    }
    if keys.iter().any(|(k, _)| *k == "Prefixed") {
        object.remove("BucketRanges");
    }
    let topology = Topology::from_json(&configuration.to_string()).ok()?;
    let configuration = serde_json::to_value(topology.to_configuration()).ok()?;
    let mut configuration = configuration;
    if let (Some(object), Some((_, by_content))) = (
        configuration.as_object_mut(),
        keys.iter().find(|(k, _)| *k == "ByContent"),
    ) {
        object.insert("ByContent".into(), by_content.clone());
    }
    Some((topology, configuration))
}

/// Prefixed sharding by the IDs' leading segment, when at least 90% of the IDs carry one,
/// there are 2 to [`MAX_PREFIXES`] of them and none is the collection's name. Each prefix
/// goes to one shard, the largest prefixes first to the emptiest shard.
fn prefix(scope: &Scope<'_>, topology: &Topology) -> Option<Candidate> {
    let mut counts: HashMap<String, u64> = HashMap::new();
    for d in scope.documents {
        if let Some(segment) = leading_segment(&d.id) {
            *counts.entry(lower_id(segment).into_owned()).or_default() += 1;
        }
    }
    let carried: u64 = counts.values().sum();
    let own_name = format!("{}/", scope.name.to_lowercase());
    if counts.len() < 2
        || counts.len() > MAX_PREFIXES
        || counts.contains_key(&own_name)
        || carried * 10 < scope.documents.len() as u64 * 9
    {
        return None;
    }
    let mut prefixes: Vec<(String, u64)> = counts.into_iter().collect();
    prefixes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let shards: Vec<u32> = topology.shards().map(|s| s.number).collect();
    let mut load = vec![0u64; shards.len()];
    let mut settings = Vec::new();
    for (prefix, n) in &prefixes {
        let emptiest = (0..load.len()).min_by_key(|&i| (load[i], i))?;
        load[emptiest] += n;
        settings.push(json!({"Prefix": prefix, "Shards": [shards[emptiest]]}));
    }
    let (prefixed, configuration) = with_keys(topology, &[("Prefixed", Value::Array(settings))])?;
    let mut setup = setup(&prefixed, Strategy::Prefix, None);
    setup.configuration = Some(configuration);
    setup.same_buckets = false;
    let example = scope.documents.first().map(|d| d.id.clone());
    let place = |s: &Setup, _: usize, d: &Kept| {
        let location = s.topology.locate(&d.id).ok()?;
        let group = lower_id(leading_segment(&d.id).unwrap_or(&d.id)).into_owned();
        Some(Placed {
            bucket: location.bucket,
            shard: location.shard,
            group,
        })
    };
    Some(score(scope, setup, place, example))
}

/// The `Range` suggested for a content rule whose largest group has `largest` documents:
/// 1 (the group in one bucket, like an anchor) when that stays under the obese threshold,
/// else the smallest power of ten that spreads the group to half the threshold per bucket.
fn suggested_range(largest: u64, documents: usize) -> u32 {
    let threshold = (documents as u64 / 100).clamp(1, 10_000);
    if largest <= threshold {
        return 1;
    }
    let mut range: u64 = 10;
    while largest * 2 > threshold * range && range < 1 << 20 {
        range *= 10;
    }
    range.min(1 << 20) as u32
}

fn content(
    scope: &Scope<'_>,
    topology: &Topology,
    field: u32,
    name: &str,
    largest: u64,
) -> Option<Candidate> {
    let range = suggested_range(largest, scope.documents.len());
    let rule = json!({scope.name: {"Fields": [name], "Range": range}});
    let (ruled, configuration) = with_keys(topology, &[("ByContent", rule.clone())])?;
    let keys = json!({"ByContent": rule});
    let design = ContentDesign::from_configuration(keys.as_object()?).ok()??;
    let mut setup = setup(&ruled, Strategy::Content, Some((field, name)));
    setup.topology = ruled;
    setup.design = Some(design);
    setup.configuration = Some(configuration);
    let collection = scope.name;
    let example = (0..scope.documents.len()).find_map(|i| {
        let (value, _) = scope.target(field, i)?;
        content_id(&setup, collection, &scope.documents[i].id, value)
    });
    let place = |s: &Setup, i: usize, d: &Kept| {
        content_placed(s, collection, d, scope.target(field, i).map(|(v, _)| v))
    };
    Some(score(scope, setup, place, example))
}
