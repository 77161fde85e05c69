//! Scoring one candidate placement of a collection, exactly: every document is placed
//! through the core ([`Topology::locate`]) or the draft's content rules.

use super::read::Kept;
use super::{Candidate, Group, QueryShards, Strategy, Workload};
use ravenshard::{lower_id, Topology};
use ravenshard_design::content::{ContentDesign, ContentDocument};
use ravenshard_design::route::route;
use serde_json::Value;
use std::collections::HashMap;

/// Where one document goes under a candidate, and the group it belongs to.
pub(super) struct Placed {
    pub bucket: u32,
    pub shard: u32,
    /// The group's key, lower-cased.
    pub group: String,
}

/// The setting a candidate is scored under.
pub(super) struct Setup {
    pub strategy: Strategy,
    pub field: Option<(u32, String)>,
    pub topology: Topology,
    pub design: Option<ContentDesign>,
    pub configuration: Option<Value>,
    /// Whether plain IDs land where they do under the topology given (all but `prefix`),
    /// so the buckets in [`Scope::targets`] hold.
    pub same_buckets: bool,
}

/// The collection being scored.
pub(super) struct Scope<'a> {
    pub name: &'a str,
    pub documents: &'a [&'a Kept],
    /// The field `colocated` measures when the candidate has none: the most covering
    /// reference.
    pub main_reference: Option<u32>,
    pub workload: &'a Workload,
    /// Per reference field, per document: the index in its `values` of the first value
    /// that names a document of the export, and that document's bucket under the topology
    /// given (found once, for every candidate).
    pub targets: HashMap<u32, Vec<Option<(u32, u32)>>>,
    /// Told, every [`PROGRESS_EVERY`] documents of a candidate, how many are scored;
    /// answers `false` when the caller cancelled (the candidate is then left unfinished).
    pub within: &'a dyn Fn(u64) -> bool,
}

/// How many documents of a candidate are scored between two progress reports.
pub(super) const PROGRESS_EVERY: usize = 1 << 16;

impl<'a> Scope<'a> {
    /// The document the `i`-th document's `field` names, and its bucket under the topology
    /// given.
    pub fn target(&self, field: u32, i: usize) -> Option<(&'a str, u32)> {
        let (value, bucket) = (*self.targets.get(&field)?.get(i)?)?;
        let document = self.documents.get(i)?;
        Some((document.values.get(value as usize)?.1.as_str(), bucket))
    }
}

/// The own placement of an ID (what `none` does, and the fallback of a document a
/// candidate cannot rewrite).
pub(super) fn own(topology: &Topology, id: &str) -> Option<Placed> {
    let location = topology.locate(id).ok()?;
    Some(Placed {
        bucket: location.bucket,
        shard: location.shard,
        group: lower_id(id).into_owned(),
    })
}

#[derive(Default)]
struct Tally {
    shard_documents: Vec<u64>,
    shard_bytes: Vec<u64>,
    buckets: HashMap<u32, u64>,
    groups: HashMap<String, (u64, u64)>,
    colocated: u64,
    unplaced: u64,
}

fn skew(per_shard: &[u64]) -> f64 {
    let total: u64 = per_shard.iter().sum();
    let max = per_shard.iter().copied().max().unwrap_or(0);
    if total == 0 {
        return 1.0;
    }
    max as f64 * per_shard.len() as f64 / total as f64
}

/// Scores `setup` on `scope`: `place` gives a document's placement, `None` when its
/// rewritten ID cannot be placed (it is then counted in `unplaced` and kept at its own ID).
pub(super) fn score<'d>(
    scope: &Scope<'d>,
    setup: Setup,
    place: impl Fn(&Setup, usize, &'d Kept) -> Option<Placed>,
    id_example: Option<String>,
) -> Candidate {
    let shards = setup.topology.shards().len().max(1);
    let mut tally = Tally {
        shard_documents: vec![0; shards],
        shard_bytes: vec![0; shards],
        ..Tally::default()
    };
    let colocate_field = setup
        .field
        .as_ref()
        .map(|(f, _)| *f)
        .or(scope.main_reference);
    for (i, document) in scope.documents.iter().enumerate() {
        if i % PROGRESS_EVERY == PROGRESS_EVERY - 1 && !(scope.within)(i as u64) {
            break;
        }
        let placed = match place(&setup, i, document) {
            Some(p) => p,
            None => {
                tally.unplaced += 1;
                match own(&setup.topology, &document.id) {
                    Some(p) => p,
                    None => continue,
                }
            }
        };
        let slot = (placed.shard as usize).min(shards - 1);
        tally.shard_documents[slot] += 1;
        tally.shard_bytes[slot] += document.size;
        *tally.buckets.entry(placed.bucket).or_default() += 1;
        let group = tally.groups.entry(placed.group).or_default();
        group.0 += 1;
        group.1 += document.size;
        if let Some((target, bucket)) = colocate_field.and_then(|f| scope.target(f, i)) {
            let bucket = match setup.same_buckets {
                true => Ok(bucket),
                false => setup.topology.locate(target).map(|l| l.bucket),
            };
            if bucket == Ok(placed.bucket) {
                tally.colocated += 1;
            }
        }
    }
    finish(scope, setup, tally, colocate_field.is_some(), id_example)
}

fn finish(
    scope: &Scope<'_>,
    setup: Setup,
    tally: Tally,
    has_reference: bool,
    id_example: Option<String>,
) -> Candidate {
    let total = scope.documents.len() as u64;
    let share = |n: u64| {
        if total == 0 {
            0.0
        } else {
            n as f64 / total as f64
        }
    };
    let obese_threshold = (total / 100).min(10_000);
    let largest_group = tally
        .groups
        .iter()
        .max_by(|a, b| (a.1 .0, a.1 .1, b.0).cmp(&(b.1 .0, b.1 .1, a.0)))
        .map(|(anchor, (documents, bytes))| Group {
            anchor: anchor.clone(),
            documents: *documents,
            bytes: *bytes,
            share: share(*documents),
        });
    let queries: Vec<QueryShards> = scope
        .workload
        .queries_on(scope.name)
        .map(|(text, query)| QueryShards {
            query: text.clone(),
            shards: route(query, &setup.topology, setup.design.as_ref()).shards,
        })
        .collect();
    let single = queries.iter().filter(|q| q.shards.len() == 1).count();
    Candidate {
        strategy: setup.strategy,
        field: setup.field.map(|(_, name)| name),
        skew: skew(&tally.shard_documents),
        byte_skew: skew(&tally.shard_bytes),
        shard_documents: tally.shard_documents,
        frequency: largest_group.as_ref().map_or(0.0, |g| g.share),
        largest_group,
        obese_groups: tally
            .buckets
            .values()
            .filter(|&&n| n > obese_threshold)
            .count() as u64,
        obese_threshold,
        colocated: has_reference.then(|| share(tally.colocated)),
        cardinality: tally.groups.len() as u64,
        single_shard_queries: (!queries.is_empty()).then(|| single as f64 / queries.len() as f64),
        queries,
        unplaced: tally.unplaced,
        id_example,
        configuration: setup.configuration,
    }
}

/// `id` anchored to `target`: `orders/1-A$companies/7-A` (an existing anchor replaced).
pub(super) fn anchored(id: &str, target: &str) -> String {
    let own = id.split_once('$').map_or(id, |(own, _)| own);
    format!("{own}${target}")
}

/// The final ID the content rule of `setup` gives a document of `collection` whose field
/// holds `value`: its own ID (anchor left out) with `$`, generated by the design.
pub(super) fn content_id(setup: &Setup, collection: &str, id: &str, value: &str) -> Option<String> {
    let (design, (_, field)) = (setup.design.as_ref()?, setup.field.as_ref()?);
    let own_id = id.split_once('$').map_or(id, |(own, _)| own);
    let asked = format!("{own_id}$");
    let mut body = serde_json::Map::new();
    body.insert(field.clone(), Value::String(value.to_string()));
    let body = Value::Object(body);
    let request = ContentDocument::new(&asked)
        .with_collection(collection)
        .with_body(&body);
    design.generate(&request).ok().map(|(id, _, _)| id)
}

/// The placement of a document under a content rule on a top-level field whose value in
/// the document is `value` (its own placement without one).
pub(super) fn content_placed(
    setup: &Setup,
    collection: &str,
    document: &Kept,
    value: Option<&str>,
) -> Option<Placed> {
    let (Some(design), Some(value)) = (&setup.design, value) else {
        return own(&setup.topology, &document.id);
    };
    let final_id = content_id(setup, collection, &document.id, value)?;
    let (bucket, shard, _) = design.locate(&setup.topology, &final_id).ok()?;
    Some(Placed {
        bucket,
        shard,
        group: lower_id(value).into_owned(),
    })
}
