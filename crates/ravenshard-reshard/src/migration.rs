//! RavenDB's bucket migration, one bucket at a time, as a walk-through of a plan.

use super::assign::Assignment;
use super::load::BucketLoad;
use super::plan::Plan;
use super::ReshardError;
use ravenshard::config::ShardingConfiguration;
use ravenshard::Topology;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Where one bucket is in its migration. RavenDB's `MigrationStatus` has the first three;
/// the fourth is the end of the source's cleanup, when the migration leaves
/// `BucketMigrations`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The source is sending the bucket; it still owns it and takes its reads and writes.
    Moving,
    /// The source has sent everything; the destination's members confirm. Writes still go
    /// to the source.
    Moved,
    /// Every member of the destination confirmed: the bucket ranges change, all traffic
    /// goes to the destination, and the source cleans up.
    OwnershipTransferred,
    /// Every node of the source has deleted the bucket: the migration is removed from
    /// `BucketMigrations`.
    CleanedUp,
}

impl Phase {
    const ALL: [Phase; 4] = [
        Phase::Moving,
        Phase::Moved,
        Phase::OwnershipTransferred,
        Phase::CleanedUp,
    ];

    /// The phase's name: RavenDB's status (`Moving`, `Moved`, `OwnershipTransferred`), or
    /// `CleanedUp`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Moving => "Moving",
            Phase::Moved => "Moved",
            Phase::OwnershipTransferred => "OwnershipTransferred",
            Phase::CleanedUp => "CleanedUp",
        }
    }

    /// What happens in this phase, for a user.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::Moving => {
                "The source shard sends the bucket's documents to the destination. The source \
                 still owns the bucket: reads and writes go to it."
            }
            Phase::Moved => {
                "The source has sent everything; each member node of the destination confirms \
                 it has all the documents. Writes still go to the source."
            }
            Phase::OwnershipTransferred => {
                "All the destination's members confirmed: the bucket ranges now give the bucket \
                 to the destination, which takes all reads and writes. The source deletes its \
                 copies."
            }
            Phase::CleanedUp => {
                "Every node of the source has deleted the bucket: the migration leaves \
                 BucketMigrations and the next bucket can start (RavenDB moves one bucket at a \
                 time)."
            }
        }
    }
}

/// Where requests for a document go: a shard, its fragment database and nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    /// The shard.
    pub shard: u32,
    /// Its fragment database, `<database>$<shard>`.
    pub fragment: String,
    /// Its member nodes.
    pub nodes: Vec<String>,
}

/// A bucket migration as RavenDB holds it in `ShardingConfiguration.BucketMigrations`.
/// `MigrationIndex`, `ConfirmationIndex`, `LastSourceChangeVector` and `MentorNode` are set
/// by the cluster when it runs and are not shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ShardBucketMigration {
    /// `Moving`, `Moved` or `OwnershipTransferred`.
    pub status: Phase,
    /// The bucket.
    pub bucket: u32,
    /// The shard it leaves.
    pub source_shard: u32,
    /// The shard it goes to.
    pub destination_shard: u32,
    /// Destination nodes that confirmed having the bucket.
    pub confirmed_destinations: Vec<String>,
    /// Source nodes that deleted it.
    pub confirmed_source_cleanup: Vec<String>,
}

/// One step of the walk-through: one bucket in one phase.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MigrationStep {
    /// This step, from 0.
    pub step: u64,
    /// Steps in all: four per bucket moved.
    pub steps: u64,
    /// Buckets whose migration has ended before this one.
    pub buckets_done: u64,
    /// The migrating bucket.
    pub bucket: u32,
    /// The phase.
    pub phase: Phase,
    /// What happens in it.
    pub description: &'static str,
    /// The shard the bucket leaves.
    pub source_shard: u32,
    /// The shard it goes to.
    pub destination_shard: u32,
    /// Documents in the bucket.
    pub docs: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Where reads of the bucket's documents go.
    pub reads: Route,
    /// Where writes go.
    pub writes: Route,
    /// The configuration as RavenDB holds it at this step: `BucketRanges` and
    /// `BucketMigrations`.
    pub configuration: ShardingConfiguration,
}

/// How many steps the walk-through of `plan` has: four per bucket moved.
pub fn migration_steps(plan: &Plan) -> u64 {
    plan.buckets_moved.saturating_mul(4)
}

/// Step `step` of RavenDB's migration of `plan`, bucket by bucket in bucket order, from the
/// `current` topology the plan was made from.
///
/// Bucket ranges are carved as RavenDB's `MoveBucket` does when ownership transfers, with
/// neighbours on the same shard merged.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{migration_step, plan, BucketLoad, Phase, PlanOptions};
/// use ravenshard::Topology;
///
/// let current = Topology::with_shards(2).unwrap();
/// let target = Topology::from_json(r#"{"Shards": {"0": {}, "1": {}},
///     "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
///                      {"BucketRangeStart": 524290, "ShardNumber": 1}]}"#).unwrap();
/// let load = BucketLoad::default();
/// let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
/// let step = migration_step(&current, &p, &load, 2).unwrap();
/// assert_eq!((step.bucket, step.phase), (524288, Phase::OwnershipTransferred));
/// assert_eq!(step.writes.shard, 0);
/// assert_eq!(step.configuration.bucket_ranges[1].bucket_range_start, 524289);
/// ```
pub fn migration_step(
    current: &Topology,
    plan: &Plan,
    load: &BucketLoad,
    step: u64,
) -> Result<MigrationStep, ReshardError> {
    let steps = migration_steps(plan);
    if step >= steps {
        return Err(ReshardError::NoSuchStep { step, steps });
    }
    let (index, phase) = (step / 4, Phase::ALL[(step % 4) as usize]);
    let mut assignment = Assignment::new(current);
    let mut before = 0u64;
    let mut found = None;
    for m in &plan.moves {
        let count = m.buckets();
        if index < before + count {
            let bucket = m.from_bucket + (index - before) as u32;
            let owned = phase == Phase::OwnershipTransferred || phase == Phase::CleanedUp;
            let end = bucket + u32::from(owned);
            assign_run(&mut assignment, m.from_bucket, end, m.to_shard);
            found = Some((bucket, m.from_shard, m.to_shard));
            break;
        }
        assign_run(&mut assignment, m.from_bucket, m.to_bucket + 1, m.to_shard);
        before += count;
    }
    let Some((bucket, source, destination)) = found else {
        return Err(ReshardError::NoSuchStep { step, steps });
    };
    let route = |shard: u32| Route {
        shard,
        fragment: current.fragment(shard),
        nodes: plan
            .target
            .shard(shard)
            .or_else(|| current.shard(shard))
            .map(|s| s.members.clone())
            .unwrap_or_default(),
    };
    let serving = if matches!(phase, Phase::Moving | Phase::Moved) {
        source
    } else {
        destination
    };
    let migration = ShardBucketMigration {
        status: phase,
        bucket,
        source_shard: source,
        destination_shard: destination,
        confirmed_destinations: match phase {
            Phase::Moving | Phase::Moved => Vec::new(),
            _ => route(destination).nodes,
        },
        confirmed_source_cleanup: Vec::new(),
    };
    let mut configuration = ShardingConfiguration {
        bucket_ranges: assignment.bucket_ranges(),
        ..during(current, &plan.target)
    };
    let mut migrations = Map::new();
    if phase != Phase::CleanedUp {
        if let Ok(value) = serde_json::to_value(&migration) {
            migrations.insert(bucket.to_string(), value);
        }
    }
    configuration
        .other
        .insert("BucketMigrations".into(), Value::Object(migrations));
    let held = load.in_range(bucket, u64::from(bucket) + 1);
    Ok(MigrationStep {
        step,
        steps,
        buckets_done: index + u64::from(phase == Phase::CleanedUp),
        bucket,
        phase,
        description: phase.describe(),
        source_shard: source,
        destination_shard: destination,
        docs: held.docs,
        bytes: held.bytes,
        reads: route(serving),
        writes: route(serving),
        configuration,
    })
}

/// The first step after `step` that starts the migration of a bucket holding documents
/// (most buckets of a large run hold none), or `None` when no later bucket does.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{next_step_with_documents, plan, BucketLoad, PlanOptions};
/// use ravenshard::Topology;
///
/// let current = Topology::with_shards(2).unwrap();
/// let target = Topology::with_shards(1).unwrap();
/// let load = BucketLoad::from_buckets([(524_300, None)]);
/// let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
/// assert_eq!(next_step_with_documents(&p, &load, 0), Some((524_300 - 524_288) * 4));
/// assert_eq!(next_step_with_documents(&p, &load, 48), None);
/// ```
pub fn next_step_with_documents(plan: &Plan, load: &BucketLoad, step: u64) -> Option<u64> {
    let after = step / 4 + 1;
    let mut before = 0u64;
    for m in &plan.moves {
        let count = m.buckets();
        if before + count > after {
            let first = after.max(before) - before;
            let start = m.from_bucket + first as u32;
            let (a, b) = load.entries(start, u64::from(m.to_bucket) + 1);
            if a < b {
                return Some((before + u64::from(load.bucket(a) - m.from_bucket)) * 4);
            }
        }
        before += count;
    }
    None
}

/// Gives buckets `start..end` to `shard`, across as many current ranges as they span.
fn assign_run(assignment: &mut Assignment, mut start: u32, end: u32, shard: u32) {
    while start < end {
        let Some(range) = assignment
            .ranges()
            .iter()
            .find(|r| r.start <= start && start < r.end)
            .copied()
        else {
            return;
        };
        let stop = end.min(range.end);
        assignment.reassign(start, stop, shard);
        start = stop;
    }
}

/// The configuration while the plan runs: the shards of both topologies (a destination
/// must exist before a bucket can move to it; a shard leaves only once emptied), and each
/// prefix with the shards of both (shards join a prefix before its buckets move to them and
/// leave it after).
fn during(current: &Topology, target: &Topology) -> ShardingConfiguration {
    let mut config = current.to_configuration();
    let wanted = target.to_configuration();
    // Inserted, not through entry(): the studio's wasm has no other use of entry's code.
    let missing: Vec<_> = wanted
        .shards
        .into_iter()
        .filter(|(number, _)| !config.shards.contains_key(number))
        .collect();
    for (number, shard) in missing {
        config.shards.insert(number, shard);
    }
    for setting in &mut config.prefixed {
        let same = |q: &&ravenshard::config::PrefixedShardingSetting| {
            ravenshard::casing::ordinal_ignore_case(&q.prefix, &setting.prefix)
                == std::cmp::Ordering::Equal
        };
        if let Some(q) = wanted.prefixed.iter().find(same) {
            for s in &q.shards {
                if !setting.shards.contains(s) {
                    setting.shards.push(*s);
                }
            }
        }
    }
    config
}
