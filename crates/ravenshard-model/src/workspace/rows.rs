//! The documents view: filter and sort once per query, then the UI slices rows `i..j`.

use super::{Locator, Placement, NONE};
use ravenshard::{lower_id, push_lower_id};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// What the documents view is sorted by. Documents without the value (no size, no
/// collection, not placed) come last in either direction; ties keep input order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SortKey {
    /// Input order.
    #[default]
    Index,
    /// The ID, ignoring case as RavenDB does (then as given).
    Id,
    /// The final bucket.
    Bucket,
    /// The shard, then the bucket.
    Shard,
    /// The size.
    Size,
    /// The collection's name.
    Collection,
}

/// A view of the documents: which ones and in what order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RowQuery {
    /// Keep IDs that contain this text, ignoring case (empty: all).
    pub text: String,
    /// Keep documents on this shard.
    pub shard: Option<u32>,
    /// Keep documents of this anchored group (an index in
    /// [`Placement::groups`](super::Placement::groups)).
    pub group: Option<u32>,
    /// The order.
    pub sort: SortKey,
    /// Largest first (missing values still last).
    pub descending: bool,
}

/// The documents that match a [`RowQuery`], in its order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RowView {
    indices: Vec<u32>,
}

impl RowView {
    /// How many documents match.
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// Whether no document matches.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Document indices of rows `start..end` of the view, clamped to the view.
    pub fn slice(&self, start: usize, end: usize) -> &[u32] {
        let end = end.min(self.indices.len());
        self.indices.get(start.min(end)..end).unwrap_or(&[])
    }

    /// All matching document indices, in order.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }
}

/// One row of the documents view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row<'a> {
    /// The document's index in the input.
    pub index: u32,
    /// The ID as given.
    pub id: &'a str,
    /// Character range `[start, end)` of the hashed part of the ID (placed documents).
    pub hashed_chars: Option<[u32; 2]>,
    /// The collection, when known.
    pub collection: Option<&'a str>,
    /// The size, when known.
    pub size: Option<u64>,
    /// The final bucket (placed documents).
    pub bucket: Option<u32>,
    /// The shard (placed documents).
    pub shard: Option<u32>,
    /// The anchored group (an index in [`Placement::groups`](super::Placement::groups)).
    pub group: Option<u32>,
    /// Why the document was not placed.
    pub error: Option<&'a str>,
    /// The ID the chapter's design generated for it (its ID ends in `$`).
    pub generated: Option<&'a str>,
}

/// An order of all documents: those with the sort value first, sorted, then the rest in
/// input order.
#[derive(Debug, Clone)]
struct Order {
    documents: Vec<u32>,
    present: usize,
}

/// The orders computed so far, one per sort key but [`SortKey::Index`].
#[derive(Debug, Clone, Default)]
pub(super) struct SortCache([OnceLock<Order>; 5]);

impl SortCache {
    /// Heap bytes of the orders made so far.
    pub(super) fn heap_bytes(&self) -> usize {
        self.0
            .iter()
            .filter_map(OnceLock::get)
            .map(|o| o.documents.capacity() * 4)
            .sum()
    }

    /// Drops the orders a change of topology invalidates: by shard, and by bucket when
    /// buckets moved.
    pub(super) fn forget_placement(&mut self, buckets_moved: bool) {
        self.0[2] = OnceLock::new();
        if buckets_moved {
            self.0[1] = OnceLock::new();
        }
    }
}

pub(super) fn row(p: &Placement, index: usize) -> Option<Row<'_>> {
    let place = p.place(index);
    Some(Row {
        index: u32::try_from(index).ok()?,
        id: p.id(index)?,
        hashed_chars: place.map(|x| x.hashed_chars),
        collection: p.collection(index),
        size: p.size(index),
        bucket: place.map(|x| x.bucket),
        shard: place.map(|x| x.shard),
        group: place.and_then(|x| x.group),
        error: p.error(index).map(|e| e.message.as_str()),
        generated: p.generated_id(index),
    })
}

pub(super) fn rows(p: &Placement, query: &RowQuery) -> RowView {
    let n = p.len();
    let text = lower_id(&query.text);
    let hits = (!text.is_empty()).then(|| {
        let (lower, offsets) = lowered_all(p);
        text_hits(&lower, &offsets, &text)
    });
    let ranges = p.topology.ranges();
    let shard = match query.shard {
        None => None,
        Some(s) => match p.shard_position(s) {
            Some(_) => Some(s),
            None => return RowView::default(),
        },
    };
    let keep = |i: u32| {
        let bucket = p.store.bucket(i as usize);
        shard.is_none_or(|s| bucket.and_then(|b| super::shard_of(ranges, b)) == Some(s))
            && query
                .group
                .is_none_or(|g| p.group_rank(i as usize) == Some(g))
            && hits
                .as_ref()
                .is_none_or(|h| h.get(i as usize).copied().unwrap_or(false))
    };
    let indices = match order(p, query.sort) {
        None => {
            let all = 0..n as u32;
            if query.descending {
                all.rev().filter(|&i| keep(i)).collect()
            } else {
                all.filter(|&i| keep(i)).collect()
            }
        }
        Some(order) => {
            let (present, missing) = order.documents.split_at(order.present);
            let missing = missing.iter().copied().filter(|&i| keep(i));
            if query.descending {
                present
                    .iter()
                    .rev()
                    .copied()
                    .filter(|&i| keep(i))
                    .chain(missing)
                    .collect()
            } else {
                present
                    .iter()
                    .copied()
                    .filter(|&i| keep(i))
                    .chain(missing)
                    .collect()
            }
        }
    };
    RowView { indices }
}

fn order(p: &Placement, key: SortKey) -> Option<&Order> {
    let slot = match key {
        SortKey::Index => return None,
        SortKey::Id => 0,
        SortKey::Bucket => 1,
        SortKey::Shard => 2,
        SortKey::Size => 3,
        SortKey::Collection => 4,
    };
    Some(p.orders.0.get(slot)?.get_or_init(|| compute(p, key)))
}

fn compute(p: &Placement, key: SortKey) -> Order {
    let n = p.len() as u32;
    let unplaced = || (0..n).filter(|&i| p.store.bucket(i as usize).is_none());
    let (mut documents, present): (Vec<u32>, usize) = match key {
        SortKey::Index | SortKey::Id => {
            if key == SortKey::Index {
                return Order {
                    documents: (0..n).collect(),
                    present: n as usize,
                };
            }
            // The first 16 bytes of each lower-cased ID as a big-endian number order most
            // pairs without touching the strings again (zero padding ties with a real NUL
            // byte, and ties fall back to the whole strings).
            let (lower, offsets) = lowered_all(p);
            let texts = |i: u32| {
                let i = i as usize;
                let span = offsets.get(i).zip(offsets.get(i + 1));
                span.and_then(|(&a, &b)| lower.get(a..b)).unwrap_or("")
            };
            let mut keyed: Vec<(u128, u32)> = (0..n)
                .map(|i| {
                    let mut head = [0u8; 16];
                    let text = texts(i).as_bytes();
                    let len = text.len().min(16);
                    head[..len].copy_from_slice(&text[..len]);
                    (u128::from_be_bytes(head), i)
                })
                .collect();
            keyed.sort_by(|&(ka, a), &(kb, b)| {
                ka.cmp(&kb).then_with(|| {
                    texts(a)
                        .cmp(texts(b))
                        .then_with(|| p.id(a as usize).cmp(&p.id(b as usize)))
                        .then(a.cmp(&b))
                })
            });
            (keyed.into_iter().map(|(_, i)| i).collect(), n as usize)
        }
        SortKey::Bucket => (p.index().documents().to_vec(), p.index().documents().len()),
        SortKey::Shard => {
            // Counting sort of the bucket order by shard: (shard, bucket, index).
            let mut per_shard: Vec<Vec<u32>> = vec![Vec::new(); p.shards.len()];
            let locator = Locator::new(&p.topology);
            for &i in p.index().documents() {
                let bucket = p.store.bucket(i as usize).unwrap_or(NONE);
                let s = locator.shard_position(bucket).unwrap_or(NONE) as usize;
                if let Some(list) = per_shard.get_mut(s) {
                    list.push(i);
                }
            }
            let all: Vec<u32> = per_shard.concat();
            let present = all.len();
            (all, present)
        }
        SortKey::Size => {
            let mut with: Vec<(u64, u32)> = (0..n)
                .filter_map(|i| Some((p.size(i as usize)?, i)))
                .collect();
            // The standard library's sort of `(u64, u32)`, shared with the groups' (the
            // helpers of `crate::sort` take longer on 100,000 documents).
            with.sort_unstable();
            let present = with.len();
            let sized = with.into_iter().map(|(_, i)| i);
            let without_size = (0..n).filter(|&i| p.size(i as usize).is_none());
            return Order {
                documents: sized.chain(without_size).collect(),
                present,
            };
        }
        SortKey::Collection => {
            let mut names: Vec<(&str, u32)> = (0u32..)
                .zip(&p.collections.names)
                .map(|(i, c)| (c.as_str(), i))
                .collect();
            names.sort();
            let mut rank = vec![NONE; names.len()];
            for (r, (_, c)) in (0u32..).zip(&names) {
                rank[*c as usize] = r;
            }
            let rank_of = |i: u32| {
                p.store
                    .collection_of
                    .get(i as usize)
                    .and_then(|&c| rank.get(c as usize).copied())
            };
            // Ranks widened to u64 to share the size order's sort.
            let mut with: Vec<(u64, u32)> = (0..n)
                .filter_map(|i| Some((u64::from(rank_of(i)?), i)))
                .collect();
            with.sort_unstable();
            let present = with.len();
            let named = with.into_iter().map(|(_, i)| i);
            let unnamed = (0..n).filter(|&i| rank_of(i).is_none());
            return Order {
                documents: named.chain(unnamed).collect(),
                present,
            };
        }
    };
    if matches!(key, SortKey::Bucket | SortKey::Shard) {
        documents.extend(unplaced());
    }
    Order { documents, present }
}

/// Every lowered ID back to back, and where each starts (one more offset than documents):
/// made for a search or a sort by ID, not kept.
fn lowered_all(p: &Placement) -> (String, Vec<usize>) {
    let mut lower = String::with_capacity(p.store.id_bytes());
    let mut offsets = Vec::with_capacity(p.len() + 1);
    offsets.push(0);
    let version = p.topology.server_version();
    for i in 0..p.len() {
        push_lower_id(&mut lower, p.id(i).unwrap_or(""), version);
        offsets.push(lower.len());
    }
    (lower, offsets)
}

/// Which documents' lower-cased IDs contain `needle`: one forward search over all the IDs
/// back to back, skipping to the next ID after each hit.
fn text_hits(lower: &str, offsets: &[usize], needle: &str) -> Vec<bool> {
    let n = offsets.len().saturating_sub(1);
    let mut hits = vec![false; n];
    let mut from = 0;
    while let Some(found) = lower.get(from..).and_then(|rest| rest.find(needle)) {
        let at = from + found;
        // The document d with offsets[d] <= at < offsets[d + 1] (never an empty one).
        let Some(d) = offsets.partition_point(|&o| o <= at).checked_sub(1) else {
            break;
        };
        let end = offsets.get(d + 1).copied().unwrap_or(lower.len());
        if at + needle.len() <= end {
            if let Some(h) = hits.get_mut(d) {
                *h = true;
            }
            from = end;
        } else {
            // The match runs into the next ID: look again one character further.
            from = at + lower[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    hits
}
