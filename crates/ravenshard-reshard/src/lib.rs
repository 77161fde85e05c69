//! Resharding and balancing: plan the bucket moves between two configurations, see what
//! they cost, propose a balanced target, and step through RavenDB's bucket migration.
//!
//! RavenDB moves data between shards one whole bucket at a time
//! (`Moving` → `Moved` → `OwnershipTransferred`, then cleanup on the source). A [`Plan`]
//! lists the runs of buckets that change shard between the current and a target
//! configuration with the documents and bytes they hold; [`balance`] proposes a target that
//! evens the load; [`migration_step`] shows the configuration as RavenDB holds it at each
//! step. Targets also come from operations with RavenDB's rules: [`add_shard`],
//! [`remove_shard`], [`drain_shard`], [`add_prefix`], [`remove_prefix`],
//! [`set_prefix_shards`].
//!
//! A plan never changes a document's bucket: a prefix keeps its block, and a prefix cannot
//! be added or removed while documents start with it ([`check_prefix_changes`]). A
//! [`Workload`] reads the documents once, from `id[<TAB>size]` text, for any number of
//! plans, or from a live cluster's own bucket statistics ([`BucketStatistics`],
//! [`Workload::from_statistics`]), whose figures may be per range of buckets.
//!
//! ```
//! use ravenshard_reshard::{add_shard, balance, BalanceOptions, BucketLoad};
//! use ravenshard::Topology;
//!
//! let current = Topology::with_shards(3).unwrap();
//! let ids = (0..3000).map(|i| format!("orders/{i}"));
//! let load = BucketLoad::from_buckets(ids.map(|id| (current.bucket_for(&id).unwrap(), Some(100))));
//! let (grown, _) = add_shard(&current, vec![]).unwrap();
//! let b = balance(&grown, &load, &BalanceOptions { threshold: 0.0, ..Default::default() }).unwrap();
//! assert!(b.plan.skew_after < b.plan.skew_before);
//! assert!((b.plan.share_moved - 0.25).abs() < 0.01);
//! ```

mod assign;
mod balance;
mod calls;
mod error;
mod estimate;
mod growth;
mod load;
mod migration;
mod note;
mod objective;
mod ops;
mod plan;
pub mod prefixes;
mod record;
mod replay;
mod resolution;
mod script;
mod statistics;
mod statistics_merge;
mod workload;

pub use balance::{
    balance, balance_without_comparison, objective_summary, BalanceOptions, BalancePlan,
    ObjectiveSummary, Obstacle, WeightsError, MAX_OBSTACLES,
};
pub use calls::{calls, Calls, CallsError, CallsOptions, Chore, ReshardingCall, ShardPeak};
pub use error::ReshardError;
pub use estimate::{BucketCost, BucketCostError, Dominant, Estimate};
pub use growth::{
    growth, Gain, Growth, GrowthBin, GrowthError, ShardFigures, Snapshot, SnapshotFigures,
};
pub use load::{Amount, BucketLoad, Measure};
pub use migration::{
    migration_step, migration_steps, next_step_with_documents, MigrationStep, Phase, Route,
    ShardBucketMigration,
};
pub use note::PlanNote;
pub use objective::{Objective, ObjectiveError};
pub use ops::{
    add_prefix, add_shard, changes_prefixes, check_prefix_changes, drain_shard, remove_prefix,
    remove_shard, set_prefix_shards,
};
pub use plan::{plan, Move, Plan, PlanOptions, ShardChange, Throughput, ThroughputError};
pub use record::{move_bucket, MoveRefused, Moved};
pub use resolution::{DrillDown, MAX_DRILL_DOWNS};
pub use statistics::{BucketStatistics, Source, StatisticsError, StatisticsRange};
pub use workload::{Workload, WorkloadReader, MAX_INVALID};
