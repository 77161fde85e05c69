//! What a balance optimizes: few contiguous ranges, or few bucket migrations.
//!
//! RavenDB migrates every bucket of a range one at a time, empty or not
//! ([`Estimate`](super::Estimate)), so a contiguous range that holds little data can still
//! cost hours. `FewestMigrations` moves the fullest buckets first: the same data moves in
//! far fewer migrations, in more (often single-bucket) ranges.

use super::assign::{Assignment, Weighing};
use super::load::PerShard;
use serde::{Deserialize, Serialize};

/// What a balance optimizes (ordered as [`Objective::ALL`]).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// Few, contiguous ranges, taken at the edges of the donors' ranges (next to the
    /// receiver's ranges first). Moves every bucket of a range, empty or not.
    #[default]
    Contiguous,
    /// The fewest bucket migrations: the fullest buckets move first, each on its own if
    /// need be. Adds ranges.
    FewestMigrations,
}

impl Objective {
    /// Both objectives, in the order balances report them.
    pub const ALL: [Objective; 2] = [Objective::Contiguous, Objective::FewestMigrations];

    /// `"contiguous"` or `"fewest-migrations"`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Contiguous => "contiguous",
            Objective::FewestMigrations => "fewest-migrations",
        }
    }

    /// Reads an objective by [`name`](Objective::name).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::Objective;
    ///
    /// assert_eq!(Objective::parse("fewest-migrations"), Ok(Objective::FewestMigrations));
    /// assert!(Objective::parse("fast").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Objective, ObjectiveError> {
        Objective::ALL
            .into_iter()
            .find(|o| o.name() == text.trim())
            .ok_or_else(|| ObjectiveError {
                text: text.to_string(),
            })
    }
}

/// An objective that is not `contiguous` or `fewest-migrations`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectiveError {
    /// The text as given.
    pub text: String,
}

impl std::fmt::Display for ObjectiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "'{}' is not a balance objective: write contiguous (few ranges) or \
             fewest-migrations (few buckets moved).",
            self.text
        )
    }
}

impl std::error::Error for ObjectiveError {}

/// A donor's entry: its weight, first bucket, end bucket (exclusive) and owner.
type Entry = (std::cmp::Reverse<u64>, u32, u32, u32);

/// The largest weight sorted by counting (one pass, a count per weight): a load of
/// documents; bytes are sorted by comparison.
const COUNTED_WEIGHTS: u64 = 1 << 16;

/// Sorts entries given in bucket order fullest first, then in bucket order (entries are
/// disjoint: the order is total). Documents per bucket are small numbers: a counting sort
/// (stable, so bucket order holds within a weight) is O(n), where a comparison sort of the
/// ~630,000 used buckets of 1,000,000 documents was most of a balance.
fn fullest_first(entries: &mut Vec<Entry>) {
    let top = entries.iter().map(|e| e.0 .0).max().unwrap_or(0);
    if top > COUNTED_WEIGHTS {
        entries.sort_unstable();
        return;
    }
    // starts[w]: where the entries of weight `top - w` begin.
    let mut starts = vec![0usize; top as usize + 2];
    for e in entries.iter() {
        starts[(top - e.0 .0) as usize + 1] += 1;
    }
    for w in 1..starts.len() {
        starts[w] += starts[w - 1];
    }
    let mut sorted = vec![(std::cmp::Reverse(0), 0, 0, 0); entries.len()];
    for &e in entries.iter() {
        let at = &mut starts[(top - e.0 .0) as usize];
        sorted[*at] = e;
        *at += 1;
    }
    *entries = sorted;
}

impl Assignment {
    /// Moves, from every donor of `gives` to the receivers of `takes`, single buckets,
    /// fullest first. A bucket moves when it brings both its donor and its receiver closer
    /// to their share (it holds less than twice what either still gives or takes); the
    /// receiver is the one short the most that may own the bucket. Returns what donors
    /// could not give because no receiver still short may own their buckets (a prefix's
    /// block). `budget` counts down the buckets that may still move.
    pub(crate) fn transfer_fullest(
        &mut self,
        weighing: &Weighing,
        mut gives: PerShard<f64>,
        mut takes: PerShard<f64>,
        budget: &mut Option<u64>,
    ) -> f64 {
        let by = weighing.by;
        // The donors' entries that hold anything, with their owner: the ranges and the
        // entries are both in ascending order, so one walk finds every owner. An entry is one
        // bucket, or a range of buckets for bucket statistics, which moves whole.
        let ranges = self.ranges();
        let mut k = 0;
        let mut entries: Vec<Entry> = weighing
            .load
            .spans()
            .filter_map(|(first, last, held)| {
                while ranges.get(k).is_some_and(|r| r.end <= first) {
                    k += 1;
                }
                // An entry that spans two current ranges cannot move whole from one donor:
                // it stays (its drill-down is in the plan's `per_range` note).
                let owner = ranges
                    .get(k)
                    .filter(|r| r.start <= first && last < r.end)?
                    .shard;
                let weight = held.by(by);
                (weight > 0 && gives.get(&owner).is_some_and(|&g| g >= 0.5)).then_some((
                    std::cmp::Reverse(weight),
                    first,
                    last + 1,
                    owner,
                ))
            })
            .collect();
        fullest_first(&mut entries);
        let mut moves: Vec<(u32, u32, u32)> = Vec::new();
        for (std::cmp::Reverse(weight), first, end, donor) in entries {
            let weight = weight as f64;
            let migrations = u64::from(end - first);
            if *budget == Some(0) {
                break;
            }
            if budget.is_some_and(|left| left < migrations) {
                continue;
            }
            let give = gives.get(&donor).copied().unwrap_or(0.0);
            if give < 0.5 || weight >= 2.0 * give {
                continue;
            }
            let receiver = takes
                .iter()
                .filter(|&(&r, &k)| r != donor && weight < 2.0 * k && self.eligible(r, first))
                .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
                .map(|(&r, _)| r);
            let Some(receiver) = receiver else {
                continue;
            };
            moves.push((first, end, receiver));
            if let Some(left) = budget.as_mut() {
                *left -= migrations;
            }
            for (side, shard) in [(&mut gives, donor), (&mut takes, receiver)] {
                if let Some(v) = side.get_mut(&shard) {
                    *v -= weight;
                }
            }
            // Nothing more moves once no donor gives or no receiver takes half a unit
            // (every entry weighs at least 1).
            if gives.values().all(|&g| g < 0.5) || takes.values().all(|&k| k <= 0.5) {
                break;
            }
        }
        moves.sort_unstable();
        self.reassign_spans(&moves);
        self.blocked(&gives, &takes)
    }

    /// What donors still give that no receiver still short may take.
    fn blocked(&self, gives: &PerShard<f64>, takes: &PerShard<f64>) -> f64 {
        gives
            .iter()
            .filter(|&(_, &g)| g >= 0.5)
            .filter(|&(&donor, _)| {
                let short: Vec<u32> = takes
                    .iter()
                    .filter(|&(&r, &k)| r != donor && k >= 0.5)
                    .map(|(&r, _)| r)
                    .collect();
                !short.is_empty()
                    && !self.ranges().iter().any(|range| {
                        range.shard == donor && short.iter().any(|&r| self.eligible(r, range.start))
                    })
            })
            .map(|(_, &g)| g)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::{fullest_first, Entry, COUNTED_WEIGHTS};
    use proptest::prelude::*;
    use std::cmp::Reverse;

    /// Entries in bucket order with these weights.
    fn entries(weights: Vec<u64>) -> Vec<Entry> {
        weights
            .into_iter()
            .enumerate()
            .map(|(i, w)| (Reverse(w), 2 * i as u32, 2 * i as u32 + 1, i as u32 % 3))
            .collect()
    }

    proptest! {
        /// Counting gives the order a comparison sort gives, small weights or large.
        #[test]
        fn fullest_first_is_sorted(
            weights in proptest::collection::vec(1u64..50, 0..3000),
            large in any::<bool>(),
        ) {
            let scale = if large { COUNTED_WEIGHTS } else { 1 };
            let mut items = entries(weights.iter().map(|w| w * scale).collect());
            let mut sorted = items.clone();
            sorted.sort_unstable();
            fullest_first(&mut items);
            prop_assert_eq!(items, sorted);
        }
    }
}
