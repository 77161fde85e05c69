//! Documents per anchor, for [`ReportBuilder`](super::ReportBuilder): one entry per distinct
//! anchor, keyed by the anchor's XXH64 (computed for its bucket anyway), holding how many
//! documents use it and a tag of the anchor's first and last bytes ([`Tag`]), so that a second
//! pass can find the anchors it lists without hashing most lines. Builders on any thread add
//! to one table: it is cut into parts by bits of the hash, each behind its own lock.

use super::tag::Tag;
use super::HashIsKey;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The parts of the table: enough that a run of hashes for one part stays in a core's
/// cache, and that two threads seldom want the same part at once.
const PARTS: usize = 256;

/// The bits of an entry's value that count documents; the rest hold the tag.
const COUNT_BITS: u32 = 40;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;

type Part = HashMap<u64, u64, BuildHasherDefault<HashIsKey>>;

/// The part of a hash: bits the hash table inside the part uses neither for its index (the
/// low bits) nor for its control bytes (the top seven).
fn part_of(hash: u64) -> usize {
    ((hash >> 48) & (PARTS as u64 - 1)) as usize
}

/// Documents per distinct anchor, by the XXH64 of the anchor.
///
/// Two anchors count as one when their XXH64 agree: among a million distinct anchors that
/// happens with a chance of about 3 in 100 million. The groups a report lists are counted
/// again by their text in the second pass, so they are exact.
#[derive(Debug)]
pub struct AnchorCounts {
    parts: Vec<Mutex<Part>>,
    /// Counts past 2^40 documents, by hash (the entry's count wraps).
    overflow: Mutex<HashMap<u64, u64>>,
}

impl Default for AnchorCounts {
    fn default() -> Self {
        AnchorCounts {
            parts: (0..PARTS).map(|_| Mutex::new(Part::default())).collect(),
            overflow: Mutex::new(HashMap::new()),
        }
    }
}

/// A lock whose holder panicked still guards whole entries: each update is one insert.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl AnchorCounts {
    /// Counts one document for each `(hash, tag)` of `anchored` (emptied): put in order of
    /// their part first (a counting sort), so that each part is locked once and its entries
    /// are near each other in the cache while its run is added.
    pub(super) fn add(&self, anchored: &mut Vec<(u64, Tag)>) {
        let mut ends = [0usize; PARTS];
        for &(hash, _) in anchored.iter() {
            if let Some(end) = ends.get_mut(part_of(hash)) {
                *end += 1;
            }
        }
        let mut at = [0usize; PARTS];
        let mut sum = 0;
        for (at, end) in at.iter_mut().zip(ends.iter_mut()) {
            *at = sum;
            sum += *end;
            *end = sum;
        }
        let mut sorted = vec![(0u64, Tag(0)); anchored.len()];
        for &entry in anchored.iter() {
            let slot = at.get_mut(part_of(entry.0));
            if let Some(to) = slot.and_then(|at| {
                let to = *at;
                *at += 1;
                sorted.get_mut(to)
            }) {
                *to = entry;
            }
        }
        anchored.clear();
        let mut start = 0;
        for (part, &end) in self.parts.iter().zip(ends.iter()) {
            let run = sorted.get(start..end).unwrap_or_default();
            start = end;
            if run.is_empty() {
                continue;
            }
            let mut part = lock(part);
            for &(hash, tag) in run {
                let entry = part.entry(hash).or_insert(u64::from(tag.0) << COUNT_BITS);
                *entry += 1;
                if *entry & COUNT_MASK == 0 {
                    // Wrapped into the tag's bits: taken back, the wrap counted apart.
                    *entry -= 1 << COUNT_BITS;
                    *lock(&self.overflow).entry(hash).or_default() += 1 << COUNT_BITS;
                }
            }
        }
    }

    /// Adds the counts of `other` (a table of other documents; not this one).
    pub(super) fn merge(&self, other: &AnchorCounts) {
        for (ours, theirs) in self.parts.iter().zip(&other.parts) {
            let theirs: Vec<(u64, u64)> = lock(theirs).iter().map(|(&h, &v)| (h, v)).collect();
            let mut ours = lock(ours);
            for (hash, value) in theirs {
                let entry = ours.entry(hash).or_insert(value & !COUNT_MASK);
                let sum = (*entry & COUNT_MASK) + (value & COUNT_MASK);
                *entry = (*entry & !COUNT_MASK) | (sum & COUNT_MASK);
                if sum > COUNT_MASK {
                    *lock(&self.overflow).entry(hash).or_default() += 1 << COUNT_BITS;
                }
            }
        }
        let theirs = lock(&other.overflow).clone();
        let mut overflow = lock(&self.overflow);
        for (hash, over) in theirs {
            *overflow.entry(hash).or_default() += over;
        }
    }

    /// How many distinct anchors there are.
    pub(super) fn len(&self) -> u64 {
        self.parts.iter().map(|p| lock(p).len() as u64).sum()
    }

    /// Calls `f(hash, count, tag)` for every anchor, in no order.
    pub(super) fn for_each(&self, mut f: impl FnMut(u64, u64, Tag)) {
        let overflow = lock(&self.overflow);
        for part in &self.parts {
            for (&hash, &value) in lock(part).iter() {
                let over = overflow.get(&hash).copied().unwrap_or(0);
                f(
                    hash,
                    (value & COUNT_MASK) + over,
                    Tag((value >> COUNT_BITS) as u32),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(table: &AnchorCounts) -> Vec<(u64, u64, u32)> {
        let mut all = Vec::new();
        table.for_each(|hash, count, tag| all.push((hash, count, tag.0)));
        all.sort_unstable();
        all
    }

    #[test]
    fn counts_add_up_across_parts_and_tables() {
        let (a, b) = (AnchorCounts::default(), AnchorCounts::default());
        let hashes: Vec<u64> = (0..2000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let mut batch: Vec<(u64, Tag)> = hashes.iter().map(|&h| (h, Tag(7))).collect();
        a.add(&mut batch);
        assert!(batch.is_empty());
        let mut batch: Vec<(u64, Tag)> = hashes.iter().take(10).map(|&h| (h, Tag(7))).collect();
        b.add(&mut batch);
        a.merge(&b);
        assert_eq!(a.len(), 2000);
        let all = counts(&a);
        assert_eq!(all.iter().map(|c| c.1).sum::<u64>(), 2010);
        assert!(all.iter().all(|c| c.2 == 7));
    }

    #[test]
    fn a_count_past_its_bits_carries() {
        let full = |table: &AnchorCounts| {
            if let Some(part) = table.parts.get(part_of(5)) {
                lock(part).insert(5, (9 << COUNT_BITS) | COUNT_MASK);
            }
        };
        let (table, other) = (AnchorCounts::default(), AnchorCounts::default());
        full(&table);
        full(&other);
        table.merge(&other);
        table.add(&mut vec![(5, Tag(9)), (5, Tag(9))]);
        assert_eq!(counts(&table), [(5, 2 << COUNT_BITS, 9)]);
    }
}
