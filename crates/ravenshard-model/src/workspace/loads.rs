//! Per-bucket aggregates (documents, bytes, documents without a size), kept up to date one
//! document at a time, and the per-shard and per-block sums the views read.

use super::histogram::{BucketIndex, Load};
use super::used_buckets::UsedBuckets;
use super::{Locator, NONE};
use ravenshard::{Topology, NUMBER_OF_BUCKETS};

/// What one used bucket holds. Counts are `u32`: a placement holds fewer than 2^32
/// documents. The bytes are two `u32` halves, so that it is aligned to 4: a `(bucket,
/// load)` pair of the list a [`PlacementBuilder`](super::PlacementBuilder) packs the
/// per-bucket B-tree from is 20 bytes, not 24.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct BucketLoad {
    pub(super) documents: u32,
    pub(super) without_size: u32,
    /// The bytes' low and high halves ([`bytes`](Self::bytes)).
    bytes: [u32; 2],
}

impl BucketLoad {
    pub(super) fn new(documents: u32, without_size: u32, bytes: u64) -> BucketLoad {
        BucketLoad {
            documents,
            without_size,
            bytes: halves(bytes),
        }
    }

    /// The bytes of the bucket's documents that have a size.
    pub(super) fn bytes(self) -> u64 {
        joined(self.bytes)
    }

    pub(super) fn load(self) -> Load {
        Load {
            documents: u64::from(self.documents),
            bytes: self.bytes(),
            without_size: u64::from(self.without_size),
        }
    }

    /// The entry of `load` (whose counts fit in `u32`).
    pub(super) fn of(load: Load) -> BucketLoad {
        BucketLoad::new(load.documents as u32, load.without_size as u32, load.bytes)
    }
}

/// `value` as its low and high `u32` halves: bytes kept 4-byte aligned ([`BucketLoad`],
/// [`Staged`]'s column of bytes).
fn halves(value: u64) -> [u32; 2] {
    [value as u32, (value >> 32) as u32]
}

/// The `u64` whose [`halves`] these are.
fn joined([low, high]: [u32; 2]) -> u64 {
    u64::from(low) | u64::from(high) << 32
}

/// The aggregates of the placed documents: per used bucket (ordered, for the bucket map's
/// ranges), per shard position and per block of the topology.
#[derive(Debug, Clone, Default)]
pub(super) struct Loads {
    pub(super) buckets: UsedBuckets,
    /// Per shard position of the topology.
    pub(super) shards: Vec<Load>,
    /// Per block, in [`Loads::block_starts`] order.
    pub(super) blocks: Vec<Load>,
    /// The first bucket of each block of the topology, ascending.
    pub(super) block_starts: Vec<u32>,
    /// While a [`PlacementBuilder`](super::PlacementBuilder) builds: the loads of the
    /// buckets below [`NUMBER_OF_BUCKETS`], by bucket, instead of in `buckets` (which then
    /// holds only the prefixes' buckets, above): one array access per document instead of
    /// a B-tree walk with cache misses at millions of documents.
    pub(super) staged: Option<Staged>,
}

/// The dense per-bucket loads of [`Loads::staged`]: a count of documents per bucket (4
/// bytes, 4 MiB for the 2^20 buckets), the bytes (8 more) once a document with a size is
/// staged, and a count of the documents with a size (4 more) only once both kinds are: an
/// import of plain IDs pays 4 bytes a bucket, a generation (every document sized) 12, not
/// 16.
#[derive(Debug, Clone)]
pub(super) struct Staged {
    /// The documents of each bucket below [`NUMBER_OF_BUCKETS`] (an unused bucket holds
    /// none).
    documents: Vec<u32>,
    /// Of each bucket: its documents' bytes, as two halves; empty until a document with a
    /// size is staged.
    bytes: Vec<[u32; 2]>,
    /// Of each bucket: its documents with a size; empty while all of them have one (when
    /// `bytes` is not empty) or none has (when it is).
    sized: Vec<u32>,
    /// The documents staged with a size, and without.
    sized_total: u64,
    without_total: u64,
    /// How many buckets are used.
    pub(super) used: usize,
}

/// +1 or -1 document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sign {
    Add,
    Remove,
}

pub(super) fn change(load: &mut Load, sign: Sign, size: Option<u64>) {
    let (bytes, missing) = (size.unwrap_or(0), u64::from(size.is_none()));
    match sign {
        Sign::Add => {
            load.documents += 1;
            load.bytes = load.bytes.saturating_add(bytes);
            load.without_size += missing;
        }
        Sign::Remove => {
            load.documents = load.documents.saturating_sub(1);
            load.bytes = load.bytes.saturating_sub(bytes);
            load.without_size = load.without_size.saturating_sub(missing);
        }
    }
}

impl Staged {
    /// Nothing staged.
    fn new() -> Staged {
        Staged {
            documents: vec![0; NUMBER_OF_BUCKETS as usize],
            bytes: Vec::new(),
            sized: Vec::new(),
            sized_total: 0,
            without_total: 0,
            used: 0,
        }
    }

    /// What `bucket` holds.
    fn get(&self, bucket: usize) -> BucketLoad {
        let documents = self.documents.get(bucket).copied().unwrap_or(0);
        let sized = match (self.sized.get(bucket), self.bytes.is_empty()) {
            (Some(&sized), _) => sized,
            (None, true) => 0,
            (None, false) => documents,
        };
        BucketLoad {
            documents,
            without_size: documents.saturating_sub(sized),
            bytes: self.bytes.get(bucket).copied().unwrap_or_default(),
        }
    }

    /// Sets what `bucket` holds (a bucket below [`NUMBER_OF_BUCKETS`]), making the tables
    /// of bytes and sized documents when it is the first to need them.
    fn set(&mut self, bucket: usize, load: BucketLoad) {
        let old = self.get(bucket);
        let Some(&documents) = self.documents.get(bucket) else {
            return;
        };
        let with_size = |l: BucketLoad| u64::from(l.documents.saturating_sub(l.without_size));
        self.sized_total = (self.sized_total + with_size(load)).saturating_sub(with_size(old));
        self.without_total = (self.without_total + u64::from(load.without_size))
            .saturating_sub(u64::from(old.without_size));
        let n = self.documents.len();
        if self.sized.is_empty() && self.sized_total > 0 && self.without_total > 0 {
            // Both kinds from now on: the counts so far were all or none of each bucket's.
            self.sized = match self.bytes.is_empty() {
                true => vec![0; n],
                false => self.documents.clone(),
            };
        }
        if self.bytes.is_empty() && (self.sized_total > 0 || load.bytes() > 0) {
            self.bytes = vec![[0; 2]; n];
        }
        match (documents > 0, load.documents > 0) {
            (false, true) => self.used += 1,
            (true, false) => self.used -= 1,
            _ => {}
        }
        let slots = (
            self.documents.get_mut(bucket),
            self.sized.get_mut(bucket),
            self.bytes.get_mut(bucket),
        );
        if let (Some(documents), sized, bytes) = slots {
            *documents = load.documents;
            if let Some(sized) = sized {
                *sized = load.documents.saturating_sub(load.without_size);
            }
            if let Some(bytes) = bytes {
                *bytes = load.bytes;
            }
        }
    }

    fn change(&mut self, bucket: u32, size: Option<u64>, sign: Sign) {
        if sign == Sign::Add && self.add_in_kind(bucket as usize, size) {
            return;
        }
        let mut load = self.get(bucket as usize).load();
        change(&mut load, sign, size);
        if load.documents == 0 {
            load = Load::default();
        }
        self.set(bucket as usize, BucketLoad::of(load));
    }

    /// Adds a document of `size` to `bucket` when it is of the kind staged so far (no size
    /// when none has one, a size when all have one): the build's path, a count and the
    /// bytes; `false` (nothing done) otherwise.
    fn add_in_kind(&mut self, bucket: usize, size: Option<u64>) -> bool {
        if !self.sized.is_empty() || size.is_some() == self.bytes.is_empty() {
            return false;
        }
        let (Some(documents), bytes) = (self.documents.get_mut(bucket), self.bytes.get_mut(bucket))
        else {
            return false;
        };
        if *documents == 0 {
            self.used += 1;
        }
        *documents = documents.saturating_add(1);
        match (size, bytes) {
            (Some(size), Some(bytes)) => {
                *bytes = halves(joined(*bytes).saturating_add(size));
                self.sized_total += 1;
            }
            _ => self.without_total += 1,
        }
        true
    }

    /// The used buckets from `from` on, ascending.
    pub(super) fn from(&self, from: u32) -> impl Iterator<Item = (u32, BucketLoad)> + '_ {
        let start = (from as usize).min(self.documents.len());
        (from..)
            .zip(self.documents.get(start..).unwrap_or(&[]))
            .filter(|(_, &documents)| documents > 0)
            .map(|(b, _)| (b, self.get(b as usize)))
    }

    /// Heap bytes.
    fn heap_bytes(&self) -> usize {
        (self.documents.capacity() + self.sized.capacity()) * 4 + self.bytes.capacity() * 8
    }
}

impl Loads {
    /// Empty aggregates for `topology`'s shards and blocks.
    pub(super) fn new(topology: &Topology) -> Loads {
        let mut block_starts: Vec<u32> = std::iter::once(0)
            .chain(topology.prefixes().iter().map(|p| p.bucket_range_start))
            .collect();
        block_starts.sort_unstable();
        block_starts.dedup();
        Loads {
            buckets: UsedBuckets::default(),
            shards: vec![Load::default(); topology.shards().count()],
            blocks: vec![Load::default(); block_starts.len()],
            block_starts,
            staged: None,
        }
    }

    /// Moves the buckets below [`NUMBER_OF_BUCKETS`] into [`Loads::staged`] (see there).
    pub(super) fn stage(&mut self) {
        if self.staged.is_some() {
            return;
        }
        let mut staged = Staged::new();
        let above = self.buckets.split_off(NUMBER_OF_BUCKETS);
        for (bucket, load) in std::mem::replace(&mut self.buckets, above) {
            staged.set(bucket as usize, load);
        }
        self.staged = Some(staged);
    }

    /// How many buckets hold documents.
    pub(super) fn used_buckets(&self) -> usize {
        self.buckets.len() + self.staged.as_ref().map_or(0, |s| s.used)
    }

    fn block_of(&self, bucket: u32) -> Option<usize> {
        let start = bucket - bucket % NUMBER_OF_BUCKETS;
        self.block_starts.binary_search(&start).ok()
    }

    /// Adds or removes one placed document of `bucket` (O(log used buckets)).
    pub(super) fn change(
        &mut self,
        locator: &Locator<'_>,
        bucket: u32,
        size: Option<u64>,
        sign: Sign,
    ) {
        match self.staged.as_mut() {
            Some(staged) if bucket < NUMBER_OF_BUCKETS => staged.change(bucket, size, sign),
            _ => self.buckets.change(bucket, size, sign),
        }
        let position = locator.shard_position(bucket).unwrap_or(NONE);
        if let Some(shard) = self.shards.get_mut(position as usize) {
            change(shard, sign, size);
        }
        if let Some(block) = self.block_of(bucket).and_then(|b| self.blocks.get_mut(b)) {
            change(block, sign, size);
        }
    }

    /// The per-shard and per-block sums for another topology, from the used buckets:
    /// O(used buckets × log ranges).
    pub(super) fn regroup(&mut self, topology: &Topology, locator: &Locator<'_>) {
        let buckets = std::mem::take(&mut self.buckets);
        *self = Loads::new(topology);
        for (&bucket, load) in &buckets {
            let position = locator.shard_position(bucket).unwrap_or(NONE);
            if let Some(shard) = self.shards.get_mut(position as usize) {
                shard.add(load.load());
            }
            if let Some(block) = self.block_of(bucket).and_then(|b| self.blocks.get_mut(b)) {
                block.add(load.load());
            }
        }
        self.buckets = buckets;
    }

    /// The aggregates of every placed document at once, from the documents in bucket
    /// order (`index`): the B-tree is built from sorted entries (much faster than one
    /// insertion per document), then summed per shard and block.
    pub(super) fn of_index(
        topology: &Topology,
        locator: &Locator<'_>,
        index: &BucketIndex,
        size_of: &dyn Fn(u32) -> Option<u64>,
    ) -> Loads {
        let documents = index.documents();
        let buckets = index.runs().map(|(bucket, a, b)| {
            let mut load = Load::default();
            for &i in documents.get(a..b).unwrap_or(&[]) {
                change(&mut load, Sign::Add, size_of(i));
            }
            (bucket, BucketLoad::of(load))
        });
        let mut loads = Loads {
            staged: None,
            buckets: buckets.collect(),
            ..Loads::default()
        };
        loads.regroup(topology, locator);
        loads
    }

    /// Documents, bytes and documents without a size in buckets `[start, end)`: the sums
    /// of the whole runs of buckets in it and the used buckets of its partial runs
    /// ([`UsedBuckets::load`]).
    pub(super) fn load(&self, start: u64, end: u64) -> Load {
        let (Ok(start), end) = (u32::try_from(start), u32::try_from(end).unwrap_or(u32::MAX))
        else {
            return Load::default();
        };
        if start >= end {
            return Load::default();
        }
        self.buckets.load(start, end)
    }

    /// Heap bytes, roughly.
    pub(super) fn heap_bytes(&self) -> usize {
        self.buckets.heap_bytes() + self.staged.as_ref().map_or(0, Staged::heap_bytes)
    }
}
