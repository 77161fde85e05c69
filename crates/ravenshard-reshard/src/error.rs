//! Why a plan, a balance or a change of topology cannot be made.

use ravenshard::ConfigError;
use std::fmt;

/// Why a resharding operation cannot be made. Where RavenDB refuses the same change, the
/// message is RavenDB's.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ReshardError {
    /// The resulting configuration is not valid.
    Config(ConfigError),
    /// A prefix has a different `BucketRangeStart` in the target: RavenDB never moves a
    /// prefix's block, so its documents would change bucket.
    PrefixBlockMoved {
        /// The prefix.
        prefix: String,
        /// Its block start now.
        from: u32,
        /// Its block start in the target.
        to: u32,
    },
    /// A prefix cannot be added or removed while documents start with it (RavenDB's rule).
    PrefixHasDocuments {
        /// The database's name.
        database: String,
        /// The prefix as configured.
        prefix: String,
        /// `true` when adding the prefix, `false` when removing it.
        adding: bool,
        /// How many documents of the workspace start with it.
        documents: u64,
        /// The first such document, when IDs are known.
        example: Option<String>,
    },
    /// No shard with this number.
    UnknownShard {
        /// The shard asked for.
        shard: u32,
    },
    /// The shard still owns bucket ranges; they must be migrated first.
    ShardOwnsBuckets {
        /// The database's name.
        database: String,
        /// The shard.
        shard: u32,
        /// How many buckets it owns.
        buckets: u64,
    },
    /// The shard is named by a prefix setting.
    ShardInPrefix {
        /// The database's name.
        database: String,
        /// The shard.
        shard: u32,
        /// The prefix that names it.
        prefix: String,
    },
    /// The only shard cannot be removed or drained.
    LastShard {
        /// The shard.
        shard: u32,
    },
    /// A shard would be removed from a prefix while it owns buckets of the prefix's block.
    PrefixShardOwnsBuckets {
        /// The prefix.
        prefix: String,
        /// The shard.
        shard: u32,
    },
    /// No prefix is configured with this text (compared ignoring case).
    UnknownPrefix {
        /// The prefix asked for.
        prefix: String,
    },
    /// A weight is negative or not a number, or every weight is zero.
    BadWeight {
        /// The shard, or `None` when every weight is zero.
        shard: Option<u32>,
        /// The weight as given.
        weight: f64,
    },
    /// A weight is given for a shard the topology does not have.
    WeightForUnknownShard {
        /// The shard.
        shard: u32,
    },
    /// The threshold is not a percentage from 0 to 100.
    BadThreshold {
        /// The threshold as given.
        threshold: f64,
    },
    /// Balancing by bytes needs sizes, and no document has one.
    NoSizes,
    /// The walk-through has no such step.
    NoSuchStep {
        /// The step asked for.
        step: u64,
        /// Steps in all.
        steps: u64,
    },
    /// A throughput must be a positive number.
    BadThroughput {
        /// The throughput as given.
        value: f64,
    },
}

impl From<ConfigError> for ReshardError {
    fn from(e: ConfigError) -> Self {
        ReshardError::Config(e)
    }
}

impl fmt::Display for ReshardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ReshardError::*;
        match self {
            Config(e) => write!(f, "The target configuration is not valid: {e}"),
            PrefixBlockMoved { prefix, from, to } => write!(
                f,
                "Prefix '{prefix}' starts at bucket {from} now but at {to} in the target. RavenDB \
                 never moves a prefix's block: keep its BucketRangeStart at {from}."
            ),
            PrefixHasDocuments {
                database,
                prefix,
                adding,
                documents,
                example,
            } => {
                let (verb, to_from, what) = if *adding {
                    ("add", "to", "define sharding by prefix")
                } else {
                    ("remove", "from", "remove a sharding by prefix setting")
                };
                write!(
                    f,
                    "Cannot {verb} prefix '{prefix}' {to_from} ShardingConfiguration.Prefixed. \
                     There are existing documents in database '{database}' that start with \
                     '{prefix}'. In order to {what}, you cannot have any documents in the \
                     database that starts with this prefix. ({documents} in the workspace"
                )?;
                match example {
                    Some(id) => write!(f, ", the first is '{id}'.)"),
                    None => write!(f, ".)"),
                }
            }
            UnknownShard { shard } => write!(
                f,
                "There is no shard {shard} in the topology. Pick one of the configured shards."
            ),
            ShardOwnsBuckets {
                database,
                shard,
                buckets,
            } => write!(
                f,
                "Database {database} cannot be deleted because it is the last copy of shard \
                 {shard} and it still contains buckets ({buckets}). Before removing shard \
                 {shard}, first you need to migrate all its buckets to another shard: drain it \
                 and apply the plan."
            ),
            ShardInPrefix {
                database,
                shard,
                prefix,
            } => write!(
                f,
                "In order to delete shard {shard} from database {database} you need to remove \
                 shard {shard} from all prefixes settings in DatabaseRecord.Sharding.Prefixed \
                 (prefix '{prefix}' names it)."
            ),
            LastShard { shard } => write!(
                f,
                "Shard {shard} is the only shard: a sharded database needs at least one. Add a \
                 shard first."
            ),
            PrefixShardOwnsBuckets { prefix, shard } => write!(
                f,
                "Cannot remove shard {shard} from '{prefix}' settings in \
                 ShardingConfiguration.Prefixed. There are bucket ranges mapped to this shard. \
                 In order to remove a shard from a Prefixed setting, first you need to migrate \
                 all its buckets to another shard."
            ),
            UnknownPrefix { prefix } => write!(
                f,
                "There is no prefix '{prefix}' in ShardingConfiguration.Prefixed. Check its \
                 spelling."
            ),
            BadWeight {
                shard: Some(shard),
                weight,
            } => write!(
                f,
                "The weight of shard {shard} is {}: a weight must be a number of 0 or more \
                 (2 takes twice the share of 1; 0 empties the shard).",
                weight
            ),
            BadWeight { shard: None, .. } => write!(
                f,
                "Every weight is 0, so no shard could hold the documents. Give at least one \
                 shard a positive weight."
            ),
            WeightForUnknownShard { shard } => write!(
                f,
                "A weight is given for shard {shard}, which the topology does not have. Weight \
                 only configured shards."
            ),
            BadThreshold { threshold } => write!(
                f,
                "The threshold is {}%: give a percentage from 0 to 100 (5 leaves shards \
                 within 5% of their fair share alone).",
                threshold
            ),
            NoSizes => write!(
                f,
                "No document has a size, so there are no bytes to balance. Give sizes \
                 (`id<TAB>size`) or balance by documents."
            ),
            NoSuchStep { step, steps: 0 } => write!(
                f,
                "There is no step {step}: the plan moves no bucket, so there is nothing to walk \
                 through."
            ),
            NoSuchStep { step, steps } => write!(
                f,
                "There is no step {step}: the walk-through has steps 0 to {}.",
                steps - 1
            ),
            BadThroughput { value } => write!(
                f,
                "A throughput of {} cannot be used: give a positive number, such as 50MB/s \
                 or 20000docs/s.",
                value
            ),
        }
    }
}

impl std::error::Error for ReshardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReshardError::Config(e) => Some(e),
            _ => None,
        }
    }
}
