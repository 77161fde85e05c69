//! A sort order of the documents made a step at a time ([`Sorting`]), so that the studio can
//! sort ten million documents without one long task: the keys are read a chunk of documents
//! at a time, each chunk sorted as it fills (the standard library's sort), then the chunks
//! merged (itertools' k-way merge, pulled a number of documents a step). The result is the
//! same whatever the step sizes: the order is a total one (ties by index), and
//! [`SortCache::get`](super::orders::SortCache) makes its orders by running a `Sorting` to
//! the end.

use super::orders::Order;
use super::rows::SortKey;
use super::{Locator, Placement};
use itertools::{Itertools, KMerge, KMergeBy};
use ravenshard::push_lower_id;
use std::cmp::Ordering;
use std::rc::Rc;
use std::vec::IntoIter;

/// Documents a sorted chunk holds (the last one fewer): each is sorted in one go, about a
/// millisecond of work.
const CHUNK: usize = 1 << 15;

/// A document's key: the number it is sorted by (for IDs, the first 16 bytes of the
/// lowered ID as a big-endian number), and its index.
type Keyed = (u128, u32);

/// Every lowered ID back to back, and where each starts (one more offset than IDs): what
/// an order by ID compares when the first 16 bytes tie.
#[derive(Debug, Default)]
struct Lowered {
    text: String,
    offsets: Vec<usize>,
}

impl Lowered {
    fn of(&self, i: u32) -> &str {
        let i = i as usize;
        let span = self.offsets.get(i).zip(self.offsets.get(i + 1));
        span.and_then(|(&a, &b)| self.text.get(a..b)).unwrap_or("")
    }

    /// The order by ID of two keyed documents, but for IDs whose lowered forms are equal
    /// (ordered by index here; [`Stage::Ties`] orders them by the IDs as given).
    fn cmp(&self, a: &Keyed, b: &Keyed) -> Ordering {
        a.0.cmp(&b.0)
            .then_with(|| self.of(a.1).cmp(self.of(b.1)))
            .then(a.1.cmp(&b.1))
    }
}

/// How two keyed documents compare in the merge by ID.
type Less = Box<dyn FnMut(&Keyed, &Keyed) -> bool>;

/// The merge of the sorted chunks: by ID (the lowered IDs break ties of the first 16
/// bytes), or by number.
enum Merge {
    ById(KMergeBy<IntoIter<Keyed>, Less>),
    ByNumber(KMerge<IntoIter<Keyed>>),
}

impl Merge {
    fn take_into(&mut self, documents: &mut Vec<u32>, work: usize) {
        match self {
            Merge::ById(m) => documents.extend(m.take(work).map(|(_, i)| i)),
            Merge::ByNumber(m) => documents.extend(m.take(work).map(|(_, i)| i)),
        }
    }
}

/// Where a [`Sorting`] is.
enum Stage {
    /// Reading keys from document `next` on.
    Keys { next: usize },
    /// Merging the sorted chunks (the lowered IDs kept for the ties after).
    Merge(Merge, Rc<Lowered>),
    /// Ordering runs of equal lowered IDs by the IDs as given, from position `at` on.
    Ties { at: usize, lowered: Rc<Lowered> },
    /// Done.
    Done,
}

/// The keys read so far, in chunks: each sorted once full.
#[derive(Default)]
struct Chunks {
    sorted: Vec<Vec<Keyed>>,
    /// How many keys (the documents with the value).
    present: usize,
}

impl Chunks {
    /// Adds a key; a full chunk is sorted (by ID when `by_id` holds the lowered IDs).
    fn push(&mut self, keyed: Keyed, by_id: Option<&Lowered>) {
        self.present += 1;
        match self.sorted.last_mut() {
            Some(chunk) if chunk.len() < CHUNK => chunk.push(keyed),
            _ => {
                self.sort_last(by_id);
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(keyed);
                self.sorted.push(chunk);
            }
        }
    }

    fn sort_last(&mut self, by_id: Option<&Lowered>) {
        if let Some(chunk) = self.sorted.last_mut() {
            match by_id {
                Some(lowered) => chunk.sort_unstable_by(|a, b| lowered.cmp(a, b)),
                None => chunk.sort_unstable(),
            }
        }
    }
}

/// A sort order of a placement's documents by one key, made a step at a time. Give every
/// step the same placement, unchanged since [`Sorting::new`]; a different one is noticed
/// by its length and ends the sorting with `None`.
pub(super) struct Sorting {
    key: SortKey,
    len: usize,
    stage: Stage,
    chunks: Chunks,
    /// The lowered IDs read so far (by ID only; moved into the merge).
    lowered: Lowered,
    /// The documents without the value, in input order.
    without: Vec<u32>,
    /// Collection number → rank of its name (by collection only).
    collection_rank: Vec<u32>,
    /// The order so far.
    documents: Vec<u32>,
}

impl Sorting {
    /// A sorting of `p`'s documents by `key` ([`SortKey::Index`] is input order: every
    /// document is without a value, so the order is `0..n`).
    pub(super) fn new(p: &Placement, key: SortKey) -> Sorting {
        let mut lowered = Lowered::default();
        if key == SortKey::Id {
            lowered.text.reserve(p.store.id_bytes());
            lowered.offsets.reserve(p.len() + 1);
            lowered.offsets.push(0);
        }
        Sorting {
            key,
            len: p.len(),
            stage: Stage::Keys { next: 0 },
            chunks: Chunks::default(),
            lowered,
            without: Vec::new(),
            collection_rank: if key == SortKey::Collection {
                collection_ranks(p)
            } else {
                Vec::new()
            },
            documents: Vec::new(),
        }
    }

    /// Work done and to do, in documents (each is read, merged and, by ID, checked for
    /// ties: three units a document).
    pub(super) fn progress(&self) -> (u64, u64) {
        let n = self.len as u64;
        let done = match &self.stage {
            Stage::Keys { next } => *next as u64,
            Stage::Merge(..) => n + self.documents.len() as u64,
            Stage::Ties { at, .. } => 2 * n + *at as u64,
            Stage::Done => 3 * n,
        };
        (done, 3 * n)
    }

    /// Does about `work` documents' worth of the sorting; the order once it is made.
    /// `None` when `p` is not the placement it began with (its length changed).
    pub(super) fn step(&mut self, p: &Placement, work: usize) -> Option<Option<Order>> {
        if p.len() != self.len {
            return None;
        }
        let work = work.max(1);
        let stage = std::mem::replace(&mut self.stage, Stage::Done);
        self.stage = match stage {
            Stage::Keys { next } => {
                let end = next.saturating_add(work).min(self.len);
                self.read_keys(p, next..end);
                if end < self.len {
                    Stage::Keys { next: end }
                } else {
                    self.merge()
                }
            }
            Stage::Merge(mut merge, lowered) => {
                merge.take_into(&mut self.documents, work);
                if self.documents.len() < self.chunks.present {
                    Stage::Merge(merge, lowered)
                } else {
                    self.after_merge(lowered)
                }
            }
            Stage::Ties { at, lowered } => {
                let to = order_ties(p, &lowered, &mut self.documents, at, work);
                if to < self.documents.len() {
                    Stage::Ties { at: to, lowered }
                } else {
                    Stage::Done
                }
            }
            Stage::Done => Stage::Done,
        };
        Some(matches!(self.stage, Stage::Done).then(|| self.finish()))
    }

    /// Reads the keys of documents `range`, sorting each chunk as it fills.
    fn read_keys(&mut self, p: &Placement, range: std::ops::Range<usize>) {
        let locator = (self.key == SortKey::Shard).then(|| Locator::new(&p.topology));
        let version = p.topology.server_version();
        for i in range {
            let key = match self.key {
                SortKey::Id => {
                    let l = &mut self.lowered;
                    let start = l.text.len();
                    push_lower_id(&mut l.text, p.id(i).unwrap_or(""), version);
                    l.offsets.push(l.text.len());
                    Some(head(l.text.get(start..).unwrap_or("")))
                }
                SortKey::Index => None,
                SortKey::Bucket => p.store.bucket(i).map(u128::from),
                SortKey::Shard => shard_key(p, locator.as_ref(), i),
                SortKey::Size => p.size(i).map(u128::from),
                SortKey::Collection => self.collection_key(p, i),
            };
            let index = i as u32;
            match key {
                Some(key) => {
                    let by_id = (self.key == SortKey::Id).then_some(&self.lowered);
                    self.chunks.push((key, index), by_id);
                }
                // Placed documents on no shard are in no order by shard (as before).
                None if self.key == SortKey::Shard && p.store.bucket(i).is_some() => {}
                None => self.without.push(index),
            }
        }
    }

    fn collection_key(&self, p: &Placement, i: usize) -> Option<u128> {
        let c = *p.store.collection_of.get(i)?;
        self.collection_rank.get(c as usize).map(|&r| u128::from(r))
    }

    /// The merge of the sorted chunks.
    fn merge(&mut self) -> Stage {
        let lowered = Rc::new(std::mem::take(&mut self.lowered));
        let by_id = self.key == SortKey::Id;
        self.chunks.sort_last(by_id.then_some(&*lowered));
        self.documents
            .reserve_exact(self.chunks.present + self.without.len());
        let chunks = std::mem::take(&mut self.chunks.sorted)
            .into_iter()
            .map(Vec::into_iter);
        let merge = if by_id {
            let by = Rc::clone(&lowered);
            let less: Less = Box::new(move |a, b| by.cmp(a, b) == Ordering::Less);
            Merge::ById(chunks.kmerge_by(less))
        } else {
            Merge::ByNumber(chunks.kmerge())
        };
        if self.chunks.present == 0 {
            return self.after_merge(lowered);
        }
        Stage::Merge(merge, lowered)
    }

    fn after_merge(&self, lowered: Rc<Lowered>) -> Stage {
        if self.key == SortKey::Id && !self.documents.is_empty() {
            Stage::Ties { at: 0, lowered }
        } else {
            Stage::Done
        }
    }

    fn finish(&mut self) -> Order {
        let mut documents = std::mem::take(&mut self.documents);
        let present = documents.len();
        documents.append(&mut self.without);
        Order { documents, present }
    }
}

/// The first 16 bytes of a lowered ID as a big-endian number (zero padding ties with a
/// real NUL byte; ties fall back to the whole IDs).
fn head(lower: &str) -> u128 {
    let mut head = [0u8; 16];
    let text = lower.as_bytes();
    let len = text.len().min(16);
    head[..len].copy_from_slice(&text[..len]);
    u128::from_be_bytes(head)
}

/// By shard: the shard's position in the topology, then the bucket.
fn shard_key(p: &Placement, locator: Option<&Locator<'_>>, i: usize) -> Option<u128> {
    let bucket = p.store.bucket(i)?;
    let position = locator?.shard_position(bucket)?;
    Some(u128::from(position) << 32 | u128::from(bucket))
}

/// Each collection number's rank among the names sorted.
fn collection_ranks(p: &Placement) -> Vec<u32> {
    let names = &p.collections.names;
    let mut by_name: Vec<(&str, u32)> = (0u32..).zip(names).map(|(i, c)| (c.as_str(), i)).collect();
    by_name.sort_unstable();
    let mut rank = vec![0; names.len()];
    for (r, (_, c)) in (0u32..).zip(&by_name) {
        if let Some(slot) = rank.get_mut(*c as usize) {
            *slot = r;
        }
    }
    rank
}

/// Orders each run of documents whose lowered IDs are equal (next to each other in
/// `documents` after the merge) by the IDs as given, then by index, looking at about
/// `work` positions from `from`; returns where it stopped (at the end of a run).
fn order_ties(
    p: &Placement,
    lowered: &Lowered,
    documents: &mut [u32],
    from: usize,
    work: usize,
) -> usize {
    let mut at = from;
    let end = documents.len();
    while at < end && at - from < work {
        let text = lowered.of(documents[at]);
        let run = documents[at..]
            .iter()
            .take_while(|&&i| lowered.of(i) == text)
            .count();
        if run > 1 {
            documents[at..at + run]
                .sort_unstable_by(|&a, &b| p.id(a as usize).cmp(&p.id(b as usize)).then(a.cmp(&b)));
        }
        at += run.max(1);
    }
    at
}
