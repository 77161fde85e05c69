//! What each bucket holds: documents and bytes, summed fast over any run of buckets.

use serde::{Deserialize, Serialize};

mod wire;

/// Documents and bytes: what a bucket, a run of buckets or a shard holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Amount {
    /// Documents.
    pub docs: u64,
    /// Bytes of the documents with a known size.
    pub bytes: u64,
}

impl Amount {
    /// The amount by a measure.
    pub fn by(&self, measure: Measure) -> u64 {
        match measure {
            Measure::Docs => self.docs,
            Measure::Bytes => self.bytes,
        }
    }

    fn add(&mut self, other: Amount) {
        self.docs += other.docs;
        self.bytes += other.bytes;
    }
}

/// What a plan or a balance counts: documents or bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    /// Documents per shard.
    #[default]
    Docs,
    /// Bytes per shard (the documents' sizes).
    Bytes,
}

impl Measure {
    /// `"docs"` or `"bytes"`.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Docs => "docs",
            Measure::Bytes => "bytes",
        }
    }
}

/// The documents and bytes of every bucket that holds any, with prefix sums so that the
/// load of any run of buckets is two binary searches away.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::BucketLoad;
///
/// let load = BucketLoad::from_buckets([(7, Some(100)), (3, None), (7, Some(20))]);
/// assert_eq!(load.total().docs, 3);
/// assert_eq!(load.total().bytes, 120);
/// assert_eq!(load.in_range(4, 8).docs, 2);
/// assert_eq!(load.without_size(), 1);
/// // Plain data (serde), checked when read back.
/// let json = serde_json::to_string(&load).unwrap();
/// assert_eq!(serde_json::from_str::<BucketLoad>(&json).unwrap(), load);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BucketLoad {
    /// Buckets that hold documents, ascending and distinct.
    buckets: Vec<u32>,
    /// `docs[i]` is the documents in `buckets[..i]`; one longer than `buckets`.
    docs: Vec<u64>,
    /// The same for bytes.
    bytes: Vec<u64>,
    without_size: u64,
    /// The last bucket of each entry, when the load comes from statistics that give some
    /// figures per range of buckets ([`BucketLoad::from_ranges`]); empty when every entry is
    /// one bucket. A range's figures stand at its first bucket and it moves whole.
    ends: Vec<u32>,
}

impl Default for BucketLoad {
    /// No documents.
    fn default() -> Self {
        BucketLoad {
            buckets: Vec::new(),
            docs: vec![0],
            bytes: vec![0],
            without_size: 0,
            ends: Vec::new(),
        }
    }
}

impl BucketLoad {
    /// The load of documents given as `(bucket, size)`, in any order.
    pub fn from_buckets(documents: impl IntoIterator<Item = (u32, Option<u64>)>) -> BucketLoad {
        let mut without_size = 0;
        let mut pairs: Vec<(u32, u64)> = documents
            .into_iter()
            .map(|(bucket, size)| {
                without_size += u64::from(size.is_none());
                (bucket, size.unwrap_or(0))
            })
            .collect();
        pairs.sort_unstable_by_key(|&(bucket, _)| bucket);
        BucketLoad::from_sorted(pairs.into_iter(), without_size)
    }

    /// The load of `(bucket, size)` pairs already in ascending order of bucket; `without_size`
    /// counts the documents whose size is unknown (their size is given as 0).
    pub fn from_sorted(pairs: impl Iterator<Item = (u32, u64)>, without_size: u64) -> BucketLoad {
        let mut load = BucketLoad::from_sorted_pairs(pairs);
        load.without_size = without_size;
        load
    }

    /// The load of buckets given as `(bucket, documents, bytes)`, in ascending order of
    /// bucket, each bucket once with at least one document (per-bucket aggregates kept
    /// elsewhere: O(buckets), no document read); `without_size` counts the documents whose
    /// size is unknown.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::BucketLoad;
    ///
    /// let load = BucketLoad::from_sums([(3, 1, 0), (7, 2, 120)].into_iter(), 1);
    /// assert_eq!(load, BucketLoad::from_buckets([(7, Some(100)), (3, None), (7, Some(20))]));
    /// ```
    pub fn from_sums(sums: impl Iterator<Item = (u32, u64, u64)>, without_size: u64) -> BucketLoad {
        let mut load = BucketLoad::default();
        // Room for every entry at once (a million at 10,000,000 documents): no copy of the
        // arrays as they double.
        let entries = sums.size_hint().0;
        load.buckets.reserve_exact(entries);
        load.docs.reserve_exact(entries);
        load.bytes.reserve_exact(entries);
        let (mut docs, mut bytes) = (0u64, 0u64);
        for (bucket, n, size) in sums {
            docs += n;
            bytes = bytes.saturating_add(size);
            load.buckets.push(bucket);
            load.docs.push(docs);
            load.bytes.push(bytes);
        }
        load.without_size = without_size;
        load
    }

    fn from_sorted_pairs(pairs: impl Iterator<Item = (u32, u64)>) -> BucketLoad {
        let mut load = BucketLoad::default();
        let (mut docs, mut bytes) = (0u64, 0u64);
        for (bucket, size) in pairs {
            if load.buckets.last() != Some(&bucket) {
                if !load.buckets.is_empty() {
                    load.docs.push(docs);
                    load.bytes.push(bytes);
                }
                load.buckets.push(bucket);
            }
            docs += 1;
            bytes = bytes.saturating_add(size);
        }
        if !load.buckets.is_empty() {
            load.docs.push(docs);
            load.bytes.push(bytes);
        }
        load
    }

    /// The load of statistics by range: `(first bucket, last bucket, amount)`, disjoint, in
    /// any order. A range's amount stands at its first bucket; a balance moves it whole
    /// (it never cuts inside a range), and [`BucketLoad::ranges`] lists the ranges of more
    /// than one bucket.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::{Amount, BucketLoad};
    ///
    /// let load = BucketLoad::from_ranges([(32, 63, Amount { docs: 5, bytes: 50 }),
    ///                                      (7, 7, Amount { docs: 1, bytes: 10 })]);
    /// assert_eq!(load.in_range(0, 40).docs, 6);
    /// assert_eq!(load.ranges().collect::<Vec<_>>(), [(32, 63, Amount { docs: 5, bytes: 50 })]);
    /// ```
    pub fn from_ranges(ranges: impl IntoIterator<Item = (u32, u32, Amount)>) -> BucketLoad {
        let mut ranges: Vec<(u32, u32, Amount)> = ranges.into_iter().collect();
        ranges.sort_unstable_by_key(|r| r.0);
        let mut load = BucketLoad::default();
        let (mut docs, mut bytes) = (0u64, 0u64);
        for (start, end, amount) in ranges {
            docs += amount.docs;
            bytes = bytes.saturating_add(amount.bytes);
            load.buckets.push(start);
            load.ends.push(end.max(start));
            load.docs.push(docs);
            load.bytes.push(bytes);
        }
        if load.ends.iter().zip(&load.buckets).all(|(e, b)| e == b) {
            load.ends.clear();
        }
        load
    }

    /// The entries whose figures cover more than one bucket, as
    /// `(first bucket, last bucket, amount)`; none for a load of documents.
    pub fn ranges(&self) -> impl Iterator<Item = (u32, u32, Amount)> + '_ {
        // A load of documents has none: no pass over its entries (a million of them at
        // 10,000,000 documents, at each plan the studio makes).
        let any = !self.ends.is_empty();
        any.then(|| self.spans().filter(|&(first, last, _)| last > first))
            .into_iter()
            .flatten()
    }

    /// Every entry as `(first bucket, last bucket, amount)`, ascending: one bucket each for
    /// a load of documents. [`BucketLoad::from_ranges`] makes the same load of them again.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::BucketLoad;
    ///
    /// let load = BucketLoad::from_buckets([(7, Some(100)), (3, None), (7, Some(20))]);
    /// let spans: Vec<_> = load.spans().collect();
    /// assert_eq!(spans.iter().map(|s| (s.0, s.1, s.2.docs)).collect::<Vec<_>>(), [(3, 3, 1), (7, 7, 2)]);
    /// assert_eq!(BucketLoad::from_ranges(spans).in_range(0, 8), load.in_range(0, 8));
    /// ```
    pub fn spans(&self) -> impl Iterator<Item = (u32, u32, Amount)> + '_ {
        (0..self.buckets.len())
            .map(|i| (self.buckets[i], self.last_bucket(i), self.between(i, i + 1)))
    }

    /// The last bucket entry `i` covers.
    pub(crate) fn last_bucket(&self, i: usize) -> u32 {
        self.ends.get(i).copied().unwrap_or(self.buckets[i])
    }

    /// Every document and byte.
    pub fn total(&self) -> Amount {
        Amount {
            docs: self.docs.last().copied().unwrap_or(0),
            bytes: self.bytes.last().copied().unwrap_or(0),
        }
    }

    /// Documents without a known size (counted as 0 bytes).
    pub fn without_size(&self) -> u64 {
        self.without_size
    }

    /// How many buckets hold documents.
    pub fn buckets_used(&self) -> usize {
        self.buckets.len()
    }

    /// What buckets `start..end` hold.
    pub fn in_range(&self, start: u32, end: u64) -> Amount {
        let (a, b) = self.entries(start, end);
        self.between(a, b)
    }

    /// Every bucket that holds documents, ascending, with what it holds.
    pub fn buckets(&self) -> impl Iterator<Item = (u32, Amount)> + '_ {
        (0..self.buckets.len()).map(|i| (self.buckets[i], self.between(i, i + 1)))
    }

    /// Entry indices `a..b` of the buckets in `start..end`.
    pub(crate) fn entries(&self, start: u32, end: u64) -> (usize, usize) {
        let a = self.buckets.partition_point(|&b| b < start);
        let b = a + self.buckets[a..].partition_point(|&b| u64::from(b) < end);
        (a, b)
    }

    /// What entries `a..b` hold.
    pub(crate) fn between(&self, a: usize, b: usize) -> Amount {
        Amount {
            docs: self.docs[b] - self.docs[a],
            bytes: self.bytes[b] - self.bytes[a],
        }
    }

    /// The bucket of entry `i`.
    pub(crate) fn bucket(&self, i: usize) -> u32 {
        self.buckets[i]
    }

    /// The cumulative measure before entry `i` (`i` may be the entry count).
    pub(crate) fn cumulative(&self, measure: Measure, i: usize) -> u64 {
        match measure {
            Measure::Docs => self.docs[i],
            Measure::Bytes => self.bytes[i],
        }
    }

    /// What each bucket range of `ranges` holds, summed per shard, in one pass.
    pub(crate) fn per_shard(&self, ranges: &[ravenshard::BucketRange]) -> PerShard<Amount> {
        let mut out: PerShard<Amount> = PerShard(Vec::new());
        for r in ranges {
            let held = self.in_range(r.start, u64::from(r.end));
            match out.get_mut(&r.shard) {
                Some(amount) => amount.add(held),
                None => out.0.push((r.shard, held)),
            }
        }
        out
    }
}

/// Values per shard, in the order given (the topology's ascending shard order): a short
/// list searched linearly, lighter in the studio's wasm than a map.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PerShard<T>(Vec<(u32, T)>);

impl<T> PerShard<T> {
    pub(crate) fn get(&self, shard: &u32) -> Option<&T> {
        self.0.iter().find(|(s, _)| s == shard).map(|(_, v)| v)
    }

    pub(crate) fn get_mut(&mut self, shard: &u32) -> Option<&mut T> {
        self.0.iter_mut().find(|(s, _)| s == shard).map(|(_, v)| v)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&u32, &T)> {
        self.0.iter().map(|(s, v)| (s, v))
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &u32> {
        self.0.iter().map(|(s, _)| s)
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
    }
}

impl<T> std::ops::Index<&u32> for PerShard<T> {
    type Output = T;

    /// The value of a shard that must be listed (the callers index by listed shards).
    fn index(&self, shard: &u32) -> &T {
        match self.get(shard) {
            Some(v) => v,
            None => unreachable!("shard {shard} is not listed"),
        }
    }
}

impl<T> FromIterator<(u32, T)> for PerShard<T> {
    fn from_iter<I: IntoIterator<Item = (u32, T)>>(iter: I) -> Self {
        PerShard(iter.into_iter().collect())
    }
}

impl<T> IntoIterator for PerShard<T> {
    type Item = (u32, T);
    type IntoIter = std::vec::IntoIter<(u32, T)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}
