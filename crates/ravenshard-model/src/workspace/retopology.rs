//! A change of topology applied to a placement in place: the buckets stay unless a
//! changed prefix matches the ID, and every view is summed again from the bucket index.

use super::histogram::BucketIndex;
use super::{
    groups, shards, Balance, Locator, NodeMatrix, Placement, PlacementOptions, Unplaced, NONE,
};
use ravenshard::{Prefix, Topology, NUMBER_OF_BUCKETS};
use ravenshard_design::reshard::StatisticsError;
use std::fmt;

/// Why [`Placement::set_topology`] left a placement as it was: place the documents again
/// with [`Placement::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TopologyChangeError {
    /// The chapter's design placed the documents: its generated IDs and pinned buckets
    /// depend on the topology.
    Design,
    /// The new topology lower-cases IDs as another server version does, so the hashes
    /// differ.
    ServerVersion,
    /// A document has no shard (under the old or the new topology).
    NoShard {
        /// A bucket no range owns.
        bucket: u32,
    },
}

impl fmt::Display for TopologyChangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            TopologyChangeError::Design => {
                "the chapter's design placed the documents, and its generated IDs depend on \
                 the topology"
                    .to_string()
            }
            TopologyChangeError::ServerVersion => {
                "the new topology lower-cases IDs for another server version".to_string()
            }
            TopologyChangeError::NoShard { bucket } => {
                format!("no bucket range owns bucket {bucket}")
            }
        };
        write!(
            f,
            "the placement cannot follow the new topology in place ({what}): place the \
             documents again with Placement::new"
        )
    }
}

impl std::error::Error for TopologyChangeError {}

impl Placement {
    /// Places the documents by `topology` without hashing any ID again: a change of shard
    /// count, ranges or members keeps every bucket and sums the shards, blocks and obese
    /// buckets from the bucket index (O(ranges × log n)); a change of prefixes re-places
    /// only the IDs that start with a changed prefix, then sorts the index again. Every
    /// answer is then the one [`Placement::new`] gives for the same documents and topology.
    ///
    /// On an error the placement is unchanged.
    ///
    /// # Errors
    ///
    /// [`TopologyChangeError`] when the change cannot be made in place (the chapter's design
    /// is on, the server version differs, or a document has no shard).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let mut p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// let five = Topology::with_shards(5).unwrap();
    /// p.set_topology(&five).unwrap();
    /// let fresh = Placement::new(&docs, &five, &Default::default());
    /// assert_eq!(p.shards(), fresh.shards());
    /// assert_eq!(p.place(1), fresh.place(1));
    /// assert_eq!(p.place(1).unwrap().shard, 4);
    /// ```
    pub fn set_topology(&mut self, topology: &Topology) -> Result<(), TopologyChangeError> {
        if let Some(s) = &self.statistics {
            let options = PlacementOptions {
                obese_threshold: Some(self.obese_threshold),
                design: None,
            };
            let placed = Placement::from_statistics(&s.statistics, topology, &options);
            *self = placed.map_err(|e| TopologyChangeError::NoShard {
                bucket: match e {
                    StatisticsError::NoPrefix { block_start, .. } => block_start,
                    _ => 0,
                },
            })?;
            return Ok(());
        }
        if self.with_design {
            return Err(TopologyChangeError::Design);
        }
        if topology.server_version() != self.topology.server_version() {
            return Err(TopologyChangeError::ServerVersion);
        }
        if let Some(bucket) = self.invalid.iter().find_map(|d| match d.reason {
            Unplaced::NoShard { bucket } => Some(bucket),
            _ => None,
        }) {
            return Err(TopologyChangeError::NoShard { bucket });
        }
        let moved = self.moved_by_prefixes(self.topology.prefixes(), topology);
        let locator = Locator::new(topology);
        if let Some(bucket) = self
            .kept_buckets(&moved)
            .chain(moved.iter().map(|&(_, bucket)| bucket))
            .find(|&b| locator.shard_position(b).is_none())
        {
            return Err(TopologyChangeError::NoShard { bucket });
        }
        for &(i, bucket) in &moved {
            if let Some(slot) = self.slots.get_mut(i as usize) {
                slot.bucket = bucket;
            }
        }
        if !moved.is_empty() {
            self.index = BucketIndex::new(&self.slots, &self.sizes);
        }
        self.set_shards(&locator);
        self.summarise(topology, &locator, !moved.is_empty());
        self.topology = topology.clone();
        Ok(())
    }

    /// `(document, new bucket)` of the placed documents whose bucket `new`'s prefixes
    /// change: only IDs that start with a prefix that differs are looked at again.
    fn moved_by_prefixes(&self, old: &[Prefix], new: &Topology) -> Vec<(u32, u32)> {
        let changed = changed_prefixes(old, new.prefixes());
        if changed.is_empty() {
            return Vec::new();
        }
        let texts = self.texts();
        (0u32..)
            .zip(&self.slots)
            .filter(|(_, s)| s.placed())
            .filter_map(|(i, s)| {
                let lower = texts.get(i);
                if !changed.iter().any(|p| p.matches_lower(lower)) {
                    return None;
                }
                let bucket = s.bucket % NUMBER_OF_BUCKETS + new.prefix_block_start(lower);
                (bucket != s.bucket).then_some((i, bucket))
            })
            .collect()
    }

    /// The used buckets that keep a document which `moved` (sorted by document) does not
    /// move.
    fn kept_buckets<'a>(&'a self, moved: &'a [(u32, u32)]) -> impl Iterator<Item = u32> + 'a {
        let documents = self.index.documents();
        self.index.runs().filter_map(move |(bucket, a, b)| {
            let run = documents.get(a..b).unwrap_or(&[]);
            run.iter()
                .any(|i| moved.binary_search_by_key(i, |&(d, _)| d).is_err())
                .then_some(bucket)
        })
    }

    /// The shard position of every placed document, looked up once per used bucket.
    fn set_shards(&mut self, locator: &Locator<'_>) {
        let documents = self.index.documents();
        for (bucket, a, b) in self.index.runs() {
            let position = locator.shard_position(bucket).unwrap_or(NONE);
            for &i in documents.get(a..b).unwrap_or(&[]) {
                if let Some(slot) = self.slots.get_mut(i as usize) {
                    slot.shard = position;
                }
            }
        }
    }

    /// Everything derived from the buckets and shards: summaries, blocks, balances, the
    /// matrix, obese buckets and anchored groups, and the sort orders that depend on them.
    fn summarise(&mut self, topology: &Topology, locator: &Locator<'_>, buckets_moved: bool) {
        self.shards = shards::summaries(topology, &self.index);
        self.blocks = shards::blocks(topology, &self.index);
        self.document_balance = Balance::of(self.shards.iter().map(|s| s.documents));
        self.byte_balance = Balance::of(self.shards.iter().map(|s| s.bytes));
        self.matrix = NodeMatrix::new(&self.shards);
        self.obese_buckets = groups::obese_buckets(&self.index, locator, self.obese_threshold);
        self.totals.buckets_used = self.index.buckets_used();
        if !buckets_moved {
            // Same buckets: a group's members, bucket and split stay; its shard and advice
            // follow its bucket. O(groups).
            for group in &mut self.groups {
                group.shard = locator.shard_of(group.bucket).unwrap_or(NONE);
                groups::advise(group, self.obese_threshold, self.totals.placed);
            }
        } else if !self.groups.is_empty() {
            // A prefix moved some members: the groups' buckets and splits are found again
            // from the kept hashes (their members do not change).
            for slot in &mut self.slots {
                slot.group = NONE;
            }
            let shard_numbers: Vec<u32> = topology.shards().map(|s| s.number).collect();
            let input = groups::GroupInput {
                hashes: &self.hashes,
                sizes: &self.sizes,
                texts: super::Texts {
                    lower: &self.lower,
                    offsets: &self.lower_offsets,
                },
                shard_numbers: &shard_numbers,
                obese_threshold: self.obese_threshold,
                placed: self.totals.placed,
            };
            self.groups = groups::find_groups(&mut self.slots, &input);
        }
        self.orders.forget_placement(buckets_moved);
    }
}

/// The prefixes of `old` and `new` that are not in both, at the same block, in the same
/// order relative to the others: an ID none of them matches keeps its block. When the
/// common prefixes are reordered, all of them count as changed.
fn changed_prefixes<'a>(old: &'a [Prefix], new: &'a [Prefix]) -> Vec<&'a Prefix> {
    let same = |a: &Prefix, b: &Prefix| {
        a.prefix == b.prefix && a.bucket_range_start == b.bucket_range_start
    };
    let in_both = |p: &Prefix, other: &[Prefix]| other.iter().any(|o| same(p, o));
    let common_old: Vec<&Prefix> = old.iter().filter(|p| in_both(p, new)).collect();
    let common_new: Vec<&Prefix> = new.iter().filter(|p| in_both(p, old)).collect();
    let reordered = common_old.iter().zip(&common_new).any(|(a, b)| !same(a, b));
    old.iter()
        .chain(new)
        .filter(|p| reordered || !(in_both(p, old) && in_both(p, new)))
        .collect()
}
