//! Documents per bucket, for [`ReportBuilder`](super::ReportBuilder): dense tables of 2^20
//! counters per block of buckets in use, which any thread can fill and which add up.

use crate::NUMBER_OF_BUCKETS;
use std::collections::HashMap;

/// One bucket's counter, its multiples of 2^16 held apart.
pub(super) type Counter = u16;
/// What a counter wraps at.
const WRAP: u64 = 1 << Counter::BITS;

/// Documents per bucket: a table of 2^20 counters per block of buckets that holds any
/// (`bucket >> 20`: the default buckets, and one block per prefix); 16-bit counters keep a
/// table (2 MiB) in a core's cache, and `overflow` holds the multiples of 2^16 (a bucket's
/// share of more than 65,535 documents: an obese bucket). Builders of parts of the input
/// move theirs into their thread's builder
/// ([`ReportBuilder::move_counts_to`](super::ReportBuilder::move_counts_to)).
#[derive(Debug, Default)]
pub(super) struct BucketCounts {
    tables: HashMap<u32, Vec<Counter>>,
    overflow: HashMap<u32, u64>,
}

impl BucketCounts {
    /// Counts a document in each of `buckets`.
    pub(super) fn count(&mut self, buckets: &[u32]) {
        // Runs of buckets in the same block (all of them, without prefixes) share a lookup.
        for run in buckets.chunk_by(|a, b| a >> 20 == b >> 20) {
            let Some(&first) = run.first() else { continue };
            let table = self
                .tables
                .entry(first >> 20)
                .or_insert_with(|| vec![0; NUMBER_OF_BUCKETS as usize]);
            for &bucket in run {
                if let Some(n) = table.get_mut((bucket % NUMBER_OF_BUCKETS) as usize) {
                    *n = n.wrapping_add(1);
                    if *n == 0 {
                        *self.overflow.entry(bucket).or_default() += WRAP;
                    }
                }
            }
        }
    }

    /// Adds the counts of `other`.
    pub(super) fn merge(&mut self, other: BucketCounts) {
        for (block, table) in other.tables {
            let Some(ours) = self.tables.get_mut(&block) else {
                self.tables.insert(block, table);
                continue;
            };
            for ((a, &b), bucket) in ours.iter_mut().zip(&table).zip(block << 20..) {
                let (sum, carried) = a.overflowing_add(b);
                *a = sum;
                if carried {
                    *self.overflow.entry(bucket).or_default() += WRAP;
                }
            }
        }
        for (bucket, over) in other.overflow {
            *self.overflow.entry(bucket).or_default() += over;
        }
    }

    /// The buckets that hold documents, with how many, in any order.
    pub(super) fn used(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.tables.iter().flat_map(move |(&block, table)| {
            let full = table.iter().zip(0u32..).filter(|(&n, _)| n > 0);
            full.map(move |(&n, i)| {
                let bucket = (block << 20) + i;
                let over = self.overflow.get(&bucket).copied().unwrap_or(0);
                (bucket, u64::from(n) + over)
            })
        })
    }

    /// The counter of `bucket`, to test the carry.
    #[cfg(test)]
    pub(super) fn counter(&mut self, bucket: u32) -> Option<&mut Counter> {
        let table = self.tables.get_mut(&(bucket >> 20))?;
        table.get_mut((bucket % NUMBER_OF_BUCKETS) as usize)
    }
}
