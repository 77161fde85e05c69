//! The bucket map: documents sorted by bucket, counted over any range of buckets.

use super::loads::Loads;
use super::NONE;
use ravenshard::Topology;
use serde::Serialize;

/// The most bins [`Placement::histogram`](super::Placement::histogram) returns: more than
/// any screen has pixels across.
pub const MAX_BINS: usize = 1 << 16;

/// A run of buckets `[start, end)` of the bucket map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Bin {
    /// First bucket of the bin.
    pub start: u32,
    /// One past the last bucket of the bin.
    pub end: u32,
    /// Placed documents in the bin.
    pub documents: u64,
    /// Sum of their known sizes.
    pub bytes: u64,
    /// The shard that owns the bin's first bucket (`None` in a block no prefix owns).
    pub shard: Option<u32>,
    /// Whether the bin spans more than one bucket range (or an unowned block), so one colour
    /// does not describe it.
    pub mixed: bool,
}

/// The placed documents sorted by bucket (then index): what
/// [`documents_in`](super::Placement::documents_in) borrows from.
#[derive(Debug, Clone, Default)]
pub(super) struct BucketIndex {
    /// Document indices by (bucket, index).
    documents: Vec<u32>,
    /// `buckets[k]` is the bucket of `documents[k]`.
    buckets: Vec<u32>,
}

/// Documents, bytes and documents without a size over a run of buckets: the per-bucket
/// aggregate every view sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Load {
    pub(super) documents: u64,
    pub(super) bytes: u64,
    pub(super) without_size: u64,
}

impl Load {
    pub(super) fn add(&mut self, other: Load) {
        self.documents += other.documents;
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.without_size += other.without_size;
    }
}

impl BucketIndex {
    /// The index of `buckets` (one per document, [`NONE`] when not placed): O(n) radix
    /// sort.
    pub(super) fn new(buckets: &[u32]) -> Self {
        let keys: Vec<u64> = (0u32..)
            .zip(buckets)
            .filter(|(_, &b)| b != NONE)
            .map(|(i, &b)| (u64::from(b) << 32) | u64::from(i))
            .collect();
        let keys = radix_sort_by_bucket(keys);
        BucketIndex {
            documents: keys.iter().map(|&k| k as u32).collect(),
            buckets: keys.iter().map(|&k| (k >> 32) as u32).collect(),
        }
    }

    /// Document indices in bucket order, then input order.
    pub(super) fn documents(&self) -> &[u32] {
        &self.documents
    }

    /// The position in the index of the first document with a bucket `>= bucket`.
    fn lower_bound(&self, bucket: u64) -> usize {
        self.buckets.partition_point(|&b| u64::from(b) < bucket)
    }

    pub(super) fn documents_in(&self, start: u64, end: u64) -> &[u32] {
        let (a, b) = (self.lower_bound(start), self.lower_bound(end));
        self.documents.get(a..b.max(a)).unwrap_or(&[])
    }

    /// Runs of documents in the same bucket: `(bucket, positions a..b in the index)`.
    pub(super) fn runs(&self) -> impl Iterator<Item = (u32, usize, usize)> + '_ {
        self.buckets
            .chunk_by(|a, b| a == b)
            .scan(0usize, |at, run| {
                let start = *at;
                *at += run.len();
                Some((run[0], start, *at))
            })
    }

    /// Heap bytes.
    pub(super) fn heap_bytes(&self) -> usize {
        (self.documents.capacity() + self.buckets.capacity()) * 4
    }
}

/// Sorts `bucket << 32 | index` keys, given in index order, by bucket then index: a stable
/// least-significant-digit radix sort on the bucket bits only (two passes for 2^20 buckets),
/// several times faster than a comparison sort for 100,000 documents.
fn radix_sort_by_bucket(mut keys: Vec<u64>) -> Vec<u64> {
    const DIGIT: u32 = 11;
    const MASK: u64 = (1 << DIGIT) - 1;
    let max = keys.iter().map(|k| k >> 32).max().unwrap_or(0);
    let bits = 64 - max.leading_zeros();
    let mut other = vec![0u64; keys.len()];
    let mut counts = vec![0usize; 1 << DIGIT];
    let mut shift = 32;
    while shift < 32 + bits {
        counts.fill(0);
        for &k in &keys {
            counts[((k >> shift) & MASK) as usize] += 1;
        }
        let mut next = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = next;
            next += n;
        }
        for &k in &keys {
            let slot = &mut counts[((k >> shift) & MASK) as usize];
            other[*slot] = k;
            *slot += 1;
        }
        std::mem::swap(&mut keys, &mut other);
        shift += DIGIT;
    }
    keys
}

pub(super) fn histogram(
    loads: &Loads,
    topology: &Topology,
    start: u32,
    end: u32,
    bins: usize,
) -> Vec<Bin> {
    if start >= end || bins == 0 {
        return Vec::new();
    }
    // u64, not u128 (whose division is 1 KB of the studio's wasm): len < 2^32 and
    // k <= bins <= 2^16, so len * k < 2^48.
    let len = u64::from(end - start);
    let bins = (bins.min(MAX_BINS) as u64).min(len);
    // Bin k covers [edge(k), edge(k + 1)): equal widths, the remainder spread evenly.
    let edge = |k: u64| u64::from(start) + len * k / bins;
    let owner = |bucket: u64| {
        let bucket = u32::try_from(bucket).ok()?;
        topology.range_of(bucket).copied()
    };
    let ranges = topology.ranges();
    let mut out = Vec::with_capacity(bins as usize);
    for k in 0..bins {
        let (lo, hi) = (edge(k), edge(k + 1));
        let load = loads.load(lo, hi);
        let first = owner(lo);
        let last = owner(hi - 1);
        // A range that starts inside the bin, after its first bucket.
        let split = ranges.partition_point(|r| u64::from(r.start) <= lo)
            < ranges.partition_point(|r| u64::from(r.start) < hi);
        out.push(Bin {
            start: lo as u32,
            end: hi as u32,
            documents: load.documents,
            bytes: load.bytes,
            shard: first.map(|r| r.shard),
            mixed: split || first != last,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::workspace::{Document, Placement};
    use ravenshard::Topology;

    /// The bucket map's listing of a bucket and its click on a bin make no bucket index
    /// (a sort of every document, dropped by each edit).
    #[test]
    fn a_buckets_documents_are_listed_without_the_index() {
        let docs = ["customers/1-A", "orders/1-A", "orders/2-A$customers/1-A"].map(Document::new);
        let mut p = Placement::new(
            &docs,
            &Topology::with_shards(3).unwrap(),
            &Default::default(),
        );
        assert_eq!(p.documents_in_bucket(982173), [0, 2]);
        assert_eq!(p.first_used_bucket(982000..982200), Some(982173));
        assert!(p.index.get().is_none());
        // With the index made, the listing is read from it.
        assert_eq!(p.documents_in(982173..982174), [0, 2]);
        assert_eq!(p.documents_in_bucket(982173), [0, 2]);
        p.splice(1..2, &[]).unwrap();
        assert!(p.index.get().is_none(), "an edit drops the index");
        assert_eq!(p.documents_in_bucket(982173), [0, 1]);
    }
}
