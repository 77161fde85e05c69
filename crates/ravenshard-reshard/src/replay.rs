//! A plan's target as RavenDB's record after the plan's calls: the current ranges with each
//! call's buckets moved by [`move_bucket`](crate::move_bucket), in the calls' order, so
//! that the target is, range list by range list, what the server ends with.

use super::calls::call_runs;
use super::note::PlanNote;
use super::plan::Plan;
use super::record::{find_bucket_shard, move_bucket, Moved};
use ravenshard::config::ShardBucketRange;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};

/// The current ranges after the calls, with the blocks the target adds or drops (a prefix
/// added or removed) taken from the target; `Err` with the bucket `MoveBucket` refuses.
fn replayed(
    current: &Topology,
    plan: &Plan,
    notes: &mut Vec<PlanNote>,
) -> Result<Vec<ShardBucketRange>, PlanNote> {
    let mut ranges = current.to_configuration().bucket_ranges;
    for (from, to, shard) in call_runs(plan) {
        for bucket in from..=to {
            let moved = move_bucket(&mut ranges, bucket, shard).map_err(|e| {
                PlanNote::MoveBucketRefuses {
                    bucket,
                    message: e.to_string(),
                }
            })?;
            // A move that leaves the record as it was, of a bucket on another shard.
            if moved == Moved::Unchanged {
                let stays_on = find_bucket_shard(&ranges, bucket).filter(|&s| s != shard);
                notes.extend(
                    stays_on.map(|stays_on| PlanNote::MoveBucketIgnores { bucket, stays_on }),
                );
            }
        }
    }
    let block = |r: &ShardBucketRange| r.bucket_range_start / NUMBER_OF_BUCKETS;
    let blocks = |t: &Topology| -> Vec<u32> {
        let mut b: Vec<u32> = t
            .ranges()
            .iter()
            .map(|r| r.start / NUMBER_OF_BUCKETS)
            .collect();
        b.dedup();
        b
    };
    let (now, wanted) = (blocks(current), blocks(&plan.target));
    if now == wanted {
        return Ok(ranges);
    }
    // A block changes owner as a whole (a prefix added or removed): keep the replayed
    // ranges of the blocks both have, the target's of the blocks it adds, in block order,
    // and any range MoveBucket appended after the blocks at the end.
    let trailing = match ranges.as_slice() {
        [.., a, b] if block(b) < block(a) => ranges.pop(),
        _ => None,
    };
    let mut out: Vec<ShardBucketRange> = Vec::with_capacity(ranges.len());
    for b in wanted {
        if now.contains(&b) {
            out.extend(ranges.iter().filter(|r| block(r) == b).cloned());
        } else {
            let added = plan.target.to_configuration().bucket_ranges;
            out.extend(added.into_iter().filter(|r| block(r) == b));
        }
    }
    out.extend(trailing);
    Ok(out)
}

/// Replaces the plan's target by the record RavenDB ends with after its calls, with a note
/// for each warning that record has and the intended target has not (a range appended
/// after the prefixes' blocks sends buckets elsewhere than the target meant). When the
/// server would refuse a move, the target stays as given, with a note saying where.
pub(crate) fn as_server_leaves_it(current: &Topology, plan: &mut Plan) {
    if plan.moves.is_empty() {
        return;
    }
    let mut ignored = Vec::new();
    let ranges = match replayed(current, plan, &mut ignored) {
        Ok(ranges) => ranges,
        Err(note) => {
            plan.notes.push(note);
            return;
        }
    };
    let mut config = plan.target.to_configuration();
    config.bucket_ranges = ranges;
    let read = Topology::from_configuration(config, plan.target.database(), "");
    match read {
        Ok(mut record) => {
            record.set_server_version(plan.target.server_version());
            for w in record.warnings() {
                if !plan.target.warnings().contains(w) {
                    plan.notes
                        .push(PlanNote::MoveBucketLeaves { warning: w.clone() });
                }
            }
            plan.notes.extend(ignored);
            plan.target = record;
        }
        Err(e) => plan.notes.push(PlanNote::MoveBucketRefuses {
            bucket: 0,
            message: e.to_string(),
        }),
    }
}
