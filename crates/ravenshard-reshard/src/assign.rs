//! A working copy of the bucket ranges that balancing and migration edit: carve a run of
//! buckets out of a range and give it to another shard, merging neighbours that end up
//! on the same shard.

use super::load::PerShard;
use super::load::{BucketLoad, Measure};
use ravenshard::config::ShardBucketRange;
use ravenshard::{BucketRange, ConfigError, Topology, NUMBER_OF_BUCKETS};

/// What balancing moves: the load, what counts, and the least worth a new range.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Weighing<'a> {
    pub(crate) load: &'a BucketLoad,
    pub(crate) by: Measure,
    /// A run that would start a new range is not cut for less than this.
    pub(crate) tolerance: f64,
}

/// Bucket ranges being edited, with which shards may own each prefix block.
#[derive(Debug, Clone)]
pub(crate) struct Assignment {
    ranges: Vec<BucketRange>,
    /// Block number to the shards of its prefix; the default block (0) is not listed: any
    /// shard may own its buckets.
    prefix_shards: Vec<(u32, Vec<u32>)>,
}

fn block(bucket: u32) -> u32 {
    bucket / NUMBER_OF_BUCKETS
}

impl Assignment {
    pub(crate) fn new(topology: &Topology) -> Assignment {
        Assignment {
            ranges: topology.ranges().to_vec(),
            prefix_shards: topology
                .prefixes()
                .iter()
                .map(|p| (block(p.bucket_range_start), p.shards.clone()))
                .collect(),
        }
    }

    pub(crate) fn ranges(&self) -> &[BucketRange] {
        &self.ranges
    }

    /// The shard that owns `bucket`.
    pub(crate) fn shard_of(&self, bucket: u32) -> Option<u32> {
        let k = self
            .ranges
            .partition_point(|r| r.start <= bucket)
            .checked_sub(1)?;
        Some(self.ranges[k].shard).filter(|_| bucket < self.ranges[k].end)
    }

    /// Whether `shard` may own buckets of the block of `bucket`.
    pub(crate) fn eligible(&self, shard: u32, bucket: u32) -> bool {
        let block = block(bucket);
        self.prefix_shards
            .iter()
            .find(|(b, _)| *b == block)
            .is_none_or(|(_, shards)| shards.contains(&shard))
    }

    /// Gives buckets `start..end` (inside one range) to `shard`.
    pub(crate) fn reassign(&mut self, start: u32, end: u32, shard: u32) {
        let Some(k) = self
            .ranges
            .partition_point(|r| r.start <= start)
            .checked_sub(1)
        else {
            return;
        };
        let r = self.ranges[k];
        if end <= start || end > r.end || r.shard == shard {
            return;
        }
        let mut pieces = Vec::with_capacity(3);
        if r.start < start {
            pieces.push(BucketRange { end: start, ..r });
        }
        pieces.push(BucketRange { start, end, shard });
        if end < r.end {
            pieces.push(BucketRange { start: end, ..r });
        }
        let count = pieces.len();
        self.ranges.splice(k..k + 1, pieces);
        self.merge_around(k.saturating_sub(1), k + count + 1);
    }

    /// Gives spans of buckets to shards, `(first, end, shard)` (`end` exclusive), disjoint
    /// and in ascending order, in one pass over the ranges (as many
    /// [`reassign`](Self::reassign) calls would, without moving the ranges once per span). A
    /// span may cover several current ranges (a bucket statistics entry of many buckets).
    pub(crate) fn reassign_spans(&mut self, moves: &[(u32, u32, u32)]) {
        let mut out: Vec<BucketRange> = Vec::with_capacity(self.ranges.len() + 2 * moves.len());
        // Appends a range, merged with the last when they touch, share a shard and a block.
        let mut push = |range: BucketRange| match out.last_mut() {
            Some(last)
                if last.end == range.start
                    && last.shard == range.shard
                    && range.start % NUMBER_OF_BUCKETS != 0 =>
            {
                last.end = range.end
            }
            _ => out.push(range),
        };
        let mut i = 0;
        for r in &self.ranges {
            let mut start = r.start;
            while let Some(&(first, end, shard)) = moves.get(i).filter(|m| m.0 < r.end) {
                let (s, e) = (first.max(start), end.min(r.end));
                if s < e && shard != r.shard {
                    if start < s {
                        push(BucketRange {
                            start,
                            end: s,
                            ..*r
                        });
                    }
                    push(BucketRange {
                        start: s,
                        end: e,
                        shard,
                    });
                    start = e;
                }
                if end > r.end {
                    break; // the span goes on in the next range
                }
                i += 1;
            }
            if start < r.end {
                push(BucketRange { start, ..*r });
            }
        }
        self.ranges = out;
    }

    /// Merges neighbours in `lo..hi` that touch, share a shard and a block.
    fn merge_around(&mut self, lo: usize, mut hi: usize) {
        let mut i = lo;
        while i + 1 < hi.min(self.ranges.len()) {
            let (a, b) = (self.ranges[i], self.ranges[i + 1]);
            if a.end == b.start && a.shard == b.shard && b.start % NUMBER_OF_BUCKETS != 0 {
                self.ranges[i].end = b.end;
                self.ranges.remove(i + 1);
                hi -= 1;
            } else {
                i += 1;
            }
        }
    }

    /// Moves, for every donor, what `gives` says to the receivers of `takes`, largest
    /// first. Returns what could not be given because no receiver short of its share may
    /// take the donor's buckets (a prefix's block). `budget` counts down the buckets that may
    /// still move.
    pub(crate) fn transfer_all(
        &mut self,
        weighing: &Weighing,
        gives: PerShard<f64>,
        mut takes: PerShard<f64>,
        budget: &mut Option<u64>,
    ) -> f64 {
        let mut donors: Vec<(u32, f64)> = gives.into_iter().filter(|&(_, g)| g >= 0.5).collect();
        donors.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut left = 0.0;
        for (donor, mut give) in donors {
            let mut tried: Vec<u32> = Vec::new();
            while give >= 0.5 && *budget != Some(0) {
                let receiver = takes
                    .iter()
                    .filter(|&(&r, &k)| k >= 0.5 && r != donor && !tried.contains(&r))
                    .filter(|&(&r, _)| self.can_give(donor, r))
                    .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
                    .map(|(&r, _)| r);
                let Some(receiver) = receiver else {
                    // Receivers still short, none of which may take this donor's buckets:
                    // a prefix's block is in the way, not the buckets' granularity.
                    let blocked = takes
                        .iter()
                        .any(|(&r, &k)| k >= 0.5 && r != donor && !tried.contains(&r));
                    if blocked {
                        left += give.max(0.0);
                    }
                    break;
                };
                let want = give.min(takes[&receiver]);
                let moved = self.transfer(weighing, (donor, receiver), want, budget) as f64;
                if moved == 0.0 {
                    tried.push(receiver);
                    continue;
                }
                give -= moved;
                if let Some(k) = takes.get_mut(&receiver) {
                    *k -= moved;
                }
            }
        }
        left
    }

    /// Whether `donor` owns a range that `receiver` may take.
    fn can_give(&self, donor: u32, receiver: u32) -> bool {
        self.ranges
            .iter()
            .any(|r| r.shard == donor && self.eligible(receiver, r.start))
    }

    /// Moves about `amount` (by `by`) from `donor` to `receiver`, in runs at range edges,
    /// an edge next to one of the receiver's ranges first. A run that would start a new
    /// range is not cut for less than `tolerance`. Returns what moved.
    fn transfer(
        &mut self,
        weighing: &Weighing,
        (donor, receiver): (u32, u32),
        amount: f64,
        budget: &mut Option<u64>,
    ) -> u64 {
        let Weighing {
            load,
            by,
            tolerance,
        } = *weighing;
        let mut remaining = amount;
        let mut moved = 0u64;
        let mut blocked: Vec<(u32, bool)> = Vec::new();
        while remaining >= 0.5 && *budget != Some(0) {
            let Some((k, tail, adjacent)) = self.best_edge(load, by, donor, receiver, &blocked)
            else {
                break;
            };
            if !adjacent && remaining < tolerance {
                break;
            }
            let range = self.ranges[k];
            let Some((mut start, mut end)) = cut(load, by, range, tail, remaining) else {
                blocked.push((range.start, tail));
                continue;
            };
            if let Some(left) = budget {
                let buckets = u64::from(end - start);
                if buckets > *left {
                    let keep = u32::try_from(*left).unwrap_or(u32::MAX);
                    if tail {
                        start = end - keep;
                    } else {
                        end = start + keep;
                    }
                }
                *left -= u64::from(end - start);
            }
            let taken = load.in_range(start, u64::from(end)).by(by);
            self.reassign(start, end, receiver);
            moved += taken;
            remaining -= taken as f64;
        }
        moved
    }

    /// The range of `donor` and its edge (tail or head) to take from: one next to a range
    /// of `receiver` first, then the fullest.
    fn best_edge(
        &self,
        load: &BucketLoad,
        by: Measure,
        donor: u32,
        receiver: u32,
        blocked: &[(u32, bool)],
    ) -> Option<(usize, bool, bool)> {
        let mut best: Option<((bool, bool, u64), usize, bool)> = None;
        for (k, r) in self.ranges.iter().enumerate() {
            if r.shard != donor || !self.eligible(receiver, r.start) {
                continue;
            }
            let held = load.in_range(r.start, u64::from(r.end)).by(by);
            if held == 0 {
                continue;
            }
            for tail in [true, false] {
                if blocked.contains(&(r.start, tail)) {
                    continue;
                }
                let neighbour = if tail {
                    self.ranges.get(k + 1).filter(|n| n.start == r.end)
                } else {
                    k.checked_sub(1)
                        .and_then(|p| self.ranges.get(p))
                        .filter(|p| p.end == r.start)
                };
                let adjacent = neighbour.is_some_and(|n| n.shard == receiver)
                    && (if tail { r.end } else { r.start }) % NUMBER_OF_BUCKETS != 0;
                let key = (adjacent, tail, held);
                if best.as_ref().is_none_or(|(b, _, _)| key > *b) {
                    best = Some((key, k, tail));
                }
            }
        }
        best.map(|((adjacent, _, _), k, tail)| (k, tail, adjacent))
    }

    /// The ranges as `BucketRanges` entries.
    pub(crate) fn bucket_ranges(&self) -> Vec<ShardBucketRange> {
        self.ranges
            .iter()
            .map(|r| ShardBucketRange {
                bucket_range_start: r.start,
                shard_number: r.shard,
            })
            .collect()
    }

    /// The topology with these ranges.
    pub(crate) fn into_topology(self, current: &Topology) -> Result<Topology, ConfigError> {
        let mut config = current.to_configuration();
        config.bucket_ranges = self.bucket_ranges();
        Topology::from_configuration(config, current.database(), "")
    }
}

/// The run at the tail (or head) of `range` whose load is closest to `want`, starting (or
/// ending) at a bucket that holds documents; the whole range when all its documents go.
/// `None` when the closest is to take nothing.
fn cut(
    load: &BucketLoad,
    by: Measure,
    range: BucketRange,
    tail: bool,
    want: f64,
) -> Option<(u32, u32)> {
    let (a, b) = load.entries(range.start, u64::from(range.end));
    let c = |i: usize| load.cumulative(by, i) as f64;
    // taken(e): what the run from entry e to the end (tail) or up to entry e (head) holds.
    let taken = |e: usize| if tail { c(b) - c(e) } else { c(e) - c(a) };
    // The entry index where taken(e) crosses `want`, by binary search over a..=b.
    let (mut lo, mut hi) = (a, b + 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let within = taken(mid) <= want;
        // taken decreases with e for a tail and increases for a head.
        if within == tail {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    // For a tail, lo is the first e with taken(e) <= want; for a head, lo - 1 is the last.
    let (under, over) = if tail {
        (lo.min(b), lo.checked_sub(1).filter(|&e| e >= a))
    } else {
        (lo - 1, Some(lo).filter(|&e| e <= b))
    };
    let mut e = under;
    if let Some(o) = over {
        if taken(o) - want < want - taken(under) {
            e = o;
        }
    }
    if taken(e) <= 0.0 {
        return None;
    }
    Some(match (tail, e == if tail { a } else { b }) {
        (_, true) => (range.start, range.end),
        (true, false) => (load.bucket(e), range.end),
        (false, false) => (range.start, (load.last_bucket(e - 1) + 1).min(range.end)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass gives the ranges that one `reassign` per bucket gives.
    #[test]
    fn reassigning_spans_at_once_is_reassigning_them_one_by_one() {
        let t = Topology::with_shards(3).unwrap();
        let b = NUMBER_OF_BUCKETS;
        let moves = [
            (0, 1),
            (1, 1),
            (5, 0),
            (349_524, 2),
            (349_525, 2),
            (349_526, 0),
            (699_049, 1),
            (b - 1, 0),
        ];
        let mut one_by_one = Assignment::new(&t);
        for &(bucket, shard) in &moves {
            one_by_one.reassign(bucket, bucket + 1, shard);
        }
        let mut at_once = Assignment::new(&t);
        let spans: Vec<(u32, u32, u32)> = moves.iter().map(|&(b, s)| (b, b + 1, s)).collect();
        at_once.reassign_spans(&spans);
        assert_eq!(at_once.ranges(), one_by_one.ranges());
        assert_eq!(
            at_once.ranges()[0],
            BucketRange {
                start: 0,
                end: 2,
                shard: 1
            }
        );
    }
}
