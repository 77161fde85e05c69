//! What a plan or a balance tells the user besides its numbers.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use std::fmt;

/// Something a user should know about a plan or a balance. Serialized as
/// `{"kind": "shard_added_empty", "message": "..."}`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PlanNote {
    /// No bucket changes shard.
    NothingMoves,
    /// A shard is added and owns no buckets: adding a shard moves nothing by itself.
    ShardAddedEmpty {
        /// The new shard.
        shard: u32,
    },
    /// A shard is not in the target; RavenDB removes it only once its buckets have moved.
    ShardRemoved {
        /// The removed shard.
        shard: u32,
    },
    /// A prefix is added (no document of the workspace starts with it).
    PrefixAdded {
        /// The prefix.
        prefix: String,
        /// The first bucket of its block.
        block_start: u32,
    },
    /// A prefix is removed with its ranges (its block held no documents).
    PrefixRemoved {
        /// The prefix.
        prefix: String,
    },
    /// A bytes throughput was given but no document has a size.
    NoSizesForEstimate,
    /// Balancing: every shard is already within the threshold of its fair share.
    WithinThreshold {
        /// The threshold, in percent.
        threshold: f64,
    },
    /// Balancing stopped at the cap on buckets moved.
    Capped {
        /// The cap.
        max_buckets: u64,
    },
    /// Balancing: there are no documents to balance.
    NoDocuments,
    /// Balancing: the moves found would not lower the skew, so none are proposed.
    NoImprovement,
    /// Balancing: some of the data could not go where it should, because a prefix's
    /// buckets may only go to that prefix's shards.
    PrefixConstrained {
        /// How much could not be placed.
        amount: u64,
        /// What `amount` counts.
        measure: crate::Measure,
    },
    /// A prefix is added, but the load comes from bucket statistics, which have no IDs:
    /// whether documents start with it cannot be checked.
    PrefixUnchecked {
        /// The prefix.
        prefix: String,
    },
    /// The load comes from bucket statistics that give some figures per range of buckets,
    /// not per bucket: each such range stands at its first bucket and moves whole.
    PerRange {
        /// Ranges of more than one bucket.
        ranges: usize,
        /// The buckets they cover.
        buckets: u64,
        /// How many of them matter: they straddle a range boundary, hold the first or last
        /// bucket of a move, or (in a balance) sit on a shard left above its share.
        unresolved: usize,
        /// The biggest of those, as drill-downs (at most
        /// [`MAX_DRILL_DOWNS`](crate::MAX_DRILL_DOWNS)).
        drill_downs: Vec<crate::DrillDown>,
        /// The database, for the drill-downs' paths.
        database: String,
    },
    /// RavenDB's `MoveBucket` leaves the record with something the intended target has not
    /// (the plan's target is that record).
    MoveBucketLeaves {
        /// What the record has.
        warning: ravenshard::ConfigWarning,
    },
    /// RavenDB's `MoveBucket` leaves a bucket where it is: in a plan, a call's move leaves
    /// the record as it was although the bucket is on another shard (the plan's target is
    /// that record); in a balance, the bucket is kept off the moves. Only bucket 2^20 - 1
    /// does this: in a database whose prefixes hold bucket ranges, the server looks at the
    /// list's last range (a prefix block's) for it, so no call moves it.
    MoveBucketIgnores {
        /// The bucket.
        bucket: u32,
        /// The shard it stays on.
        stays_on: u32,
    },
    /// RavenDB's `MoveBucket` would refuse to move a bucket of the calls: the target is the
    /// one given, which the server would not reach.
    MoveBucketRefuses {
        /// The bucket.
        bucket: u32,
        /// The server's reason.
        message: String,
    },
}

impl PlanNote {
    /// A stable name for the kind of note (`"nothing_moves"`, ...).
    pub fn kind(&self) -> &'static str {
        use PlanNote::*;
        match self {
            NothingMoves => "nothing_moves",
            ShardAddedEmpty { .. } => "shard_added_empty",
            ShardRemoved { .. } => "shard_removed",
            PrefixAdded { .. } => "prefix_added",
            PrefixRemoved { .. } => "prefix_removed",
            NoSizesForEstimate => "no_sizes_for_estimate",
            WithinThreshold { .. } => "within_threshold",
            Capped { .. } => "capped",
            NoDocuments => "no_documents",
            NoImprovement => "no_improvement",
            PrefixConstrained { .. } => "prefix_constrained",
            PerRange { .. } => "per_range",
            PrefixUnchecked { .. } => "prefix_unchecked",
            MoveBucketLeaves { .. } => "move_bucket_leaves",
            MoveBucketIgnores { .. } => "move_bucket_ignores",
            MoveBucketRefuses { .. } => "move_bucket_refuses",
        }
    }
}

impl fmt::Display for PlanNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PlanNote::*;
        match self {
            NothingMoves => write!(
                f,
                "No bucket changes shard: the target gives every bucket to the shard that owns \
                 it now."
            ),
            ShardAddedEmpty { shard } => write!(
                f,
                "Shard {shard} is new and owns no buckets. As in RavenDB, adding a shard moves \
                 nothing by itself: balance to give it a share of the data."
            ),
            ShardRemoved { shard } => write!(
                f,
                "Shard {shard} is not in the target. RavenDB removes a shard only once it holds \
                 no buckets: run these migrations first, then delete the shard's last copy."
            ),
            PrefixAdded {
                prefix,
                block_start,
            } => write!(
                f,
                "Prefix '{prefix}' is added with the block starting at bucket {block_start}; no \
                 document of the workspace starts with it, so nothing moves for it."
            ),
            PrefixRemoved { prefix } => write!(
                f,
                "Prefix '{prefix}' is removed with its bucket ranges; its block held no \
                 documents."
            ),
            NoSizesForEstimate => write!(
                f,
                "No document has a size, so a bytes-per-second throughput gives no time \
                 estimate: give sizes (`id<TAB>size`) or a docs/s throughput."
            ),
            WithinThreshold { threshold } => write!(
                f,
                "Every shard is within {}% of its fair share: no move is worth making. \
                 Lower the threshold to balance further.",
                threshold
            ),
            Capped { max_buckets } => write!(
                f,
                "Balancing stopped at the cap of {max_buckets} buckets moved; raise the cap to \
                 balance further."
            ),
            NoDocuments => write!(f, "There are no documents to balance."),
            NoImprovement => write!(
                f,
                "No move lowers the skew (buckets cannot be split), so none is proposed."
            ),
            PrefixConstrained { amount, measure } => write!(
                f,
                "{amount} {} could not go where balance wants them: a prefix's buckets may only \
                 move to that prefix's shards.",
                measure.name()
            ),
            PrefixUnchecked { prefix } => write!(
                f,
                "Prefix '{prefix}' is added, but bucket statistics have no document IDs, so \
                 whether documents start with it is not checked here. RavenDB refuses to add \
                 a prefix that existing documents start with: check the IDs before you apply \
                 the target."
            ),
            MoveBucketLeaves { warning } => write!(
                f,
                "After the calls, RavenDB's record (the target shown) differs from the one \
                 asked for: {warning}"
            ),
            MoveBucketIgnores { bucket, stays_on } => write!(
                f,
                "RavenDB's MoveBucket leaves bucket {bucket} on shard {stays_on} (the target \
                 shown): in a database whose prefixes hold bucket ranges, the server looks at \
                 the list's last range, a prefix block's, for this bucket, so no call moves it."
            ),
            MoveBucketRefuses { bucket, message } => write!(
                f,
                "RavenDB's MoveBucket would refuse to move bucket {bucket} ({message}): the \
                 calls stop there on the server, so the target shown is not reached."
            ),
            PerRange {
                ranges,
                buckets,
                unresolved,
                drill_downs,
                database,
            } => {
                write!(
                    f,
                    "The bucket statistics give {ranges} figures per range of buckets (covering \
                     {buckets} buckets), not per bucket: a range is counted at its first bucket \
                     and moved whole, never split. "
                )?;
                if *unresolved == 0 {
                    return write!(
                        f,
                        "No such range straddles a boundary or the edge of a move."
                    );
                }
                write!(
                    f,
                    "{unresolved} of them matter (they straddle a range boundary, hold the \
                     first or last bucket of a move, or sit on a shard left above its share); \
                     save these drill-downs, biggest first, and import them with the rest to \
                     resolve them:"
                )?;
                for d in drill_downs {
                    write!(f, " GET {}", d.path(database))?;
                }
                Ok(())
            }
        }
    }
}

impl Serialize for PlanNote {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let drill_downs = match self {
            PlanNote::PerRange { drill_downs, .. } => Some(drill_downs),
            _ => None,
        };
        let mut out = s.serialize_struct("PlanNote", 2 + usize::from(drill_downs.is_some()))?;
        out.serialize_field("kind", self.kind())?;
        out.serialize_field("message", &self.to_string())?;
        if let Some(d) = drill_downs {
            out.serialize_field("drill_downs", d)?;
        }
        out.end()
    }
}
