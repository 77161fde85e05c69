//! Anchored groups, obese buckets and duplicate IDs.

use super::histogram::BucketIndex;
use super::{Locator, Slot, Texts, NONE};
use ravenshard::anchor_start;
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// The documents that share an anchor (the text after the last `$`), and the document whose
/// ID is that anchor, if it is among the documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnchoredGroup {
    /// The anchor, lower-cased (usually the anchor document's ID).
    pub anchor: String,
    /// Indices of the anchored documents (`…$<anchor>`), in input order.
    pub members: Vec<u32>,
    /// Index of the first document whose ID is the anchor, if there is one.
    pub anchor_document: Option<u32>,
    /// Documents in the group: the members and every document whose ID is the anchor.
    pub documents: u64,
    /// Sum of their known sizes, in bytes.
    pub bytes: u64,
    /// The group's bucket: the anchor document's, else the first member's.
    pub bucket: u32,
    /// The shard of that bucket.
    pub shard: u32,
    /// Whether the group's documents are in more than one bucket: a sharding prefix
    /// matches some of them and not others (the prefix wins over the anchor).
    pub split: bool,
    /// Whether the group has more documents than the obese threshold.
    pub obese: bool,
    /// What to do about it: one sentence per problem (obese, split); empty when fine.
    pub advice: Vec<String>,
}

impl AnchoredGroup {
    /// Whether the anchor is itself one of the documents.
    pub fn anchor_is_document(&self) -> bool {
        self.anchor_document.is_some()
    }
}

/// A bucket that holds more documents than the obese threshold: it moves between shards
/// as one unit when resharding, so it cannot be split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ObeseBucket {
    /// The bucket.
    pub bucket: u32,
    /// Its shard.
    pub shard: Option<u32>,
    /// Placed documents in it.
    pub documents: u64,
    /// Sum of their known sizes.
    pub bytes: u64,
}

/// An ID given more than once, ignoring case. RavenDB holds one document per ID
/// (compared case-insensitively), so all but one of these would overwrite each other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DuplicateId {
    /// The ID, lower-cased.
    pub lower_id: String,
    /// Indices of the documents with that ID, ascending.
    pub indices: Vec<u32>,
}

/// A lower-cased anchor and its XXH64, already computed for the bucket: hashing the key
/// is free and comparing it is a string comparison.
#[derive(Clone, Copy)]
struct AnchorKey<'a> {
    hash: u64,
    text: &'a str,
}

impl PartialEq for AnchorKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.text == other.text
    }
}

impl Eq for AnchorKey<'_> {}

impl Hash for AnchorKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

struct Builder<'a> {
    anchor: &'a str,
    members: Vec<u32>,
    anchor_documents: Vec<u32>,
}

pub(super) struct GroupInput<'a> {
    pub(super) hashes: &'a [u64],
    pub(super) sizes: &'a [Option<u64>],
    pub(super) texts: Texts<'a>,
    /// Shard number per shard position.
    pub(super) shard_numbers: &'a [u32],
    pub(super) obese_threshold: u64,
    pub(super) placed: u64,
}

/// Finds every anchored group, sorted by size, and records each document's group in its
/// slot.
pub(super) fn find_groups(slots: &mut [Slot], input: &GroupInput<'_>) -> Vec<AnchoredGroup> {
    let mut lookup: HashMap<AnchorKey<'_>, u32, BuildHasherDefault<ravenshard::HashIsKey>> =
        HashMap::default();
    let mut builders: Vec<Builder<'_>> = Vec::new();
    let hash_of = |i: u32| input.hashes.get(i as usize).copied().unwrap_or(0);
    for (i, slot) in (0u32..).zip(slots.iter()) {
        if !slot.placed() || slot.hashed_start == 0 {
            continue;
        }
        let lower = input.texts.get(i);
        let key = AnchorKey {
            hash: hash_of(i),
            text: &lower[anchor_start(lower.as_bytes())..],
        };
        let g = *lookup.entry(key).or_insert_with(|| {
            builders.push(Builder {
                anchor: key.text,
                members: Vec::new(),
                anchor_documents: Vec::new(),
            });
            builders.len() as u32 - 1
        });
        if let Some(b) = builders.get_mut(g as usize) {
            b.members.push(i);
        }
    }
    if builders.is_empty() {
        return Vec::new();
    }
    for (i, slot) in (0u32..).zip(slots.iter()) {
        if !slot.placed() || slot.hashed_start != 0 {
            continue;
        }
        let key = AnchorKey {
            hash: hash_of(i),
            text: input.texts.get(i),
        };
        if let Some(&g) = lookup.get(&key) {
            if let Some(b) = builders.get_mut(g as usize) {
                b.anchor_documents.push(i);
            }
        }
    }

    let slot_of = |i: u32| slots.get(i as usize).copied();
    let mut groups: Vec<(usize, AnchoredGroup)> = builders
        .iter()
        .enumerate()
        .map(|(b, builder)| (b, finish(builder, input, &slot_of)))
        .collect();
    groups.sort_by(|(_, a), (_, b)| {
        b.documents
            .cmp(&a.documents)
            .then_with(|| a.anchor.cmp(&b.anchor))
    });
    for (rank, (b, _)) in (0u32..).zip(&groups) {
        if let Some(builder) = builders.get(*b) {
            for &i in builder.members.iter().chain(&builder.anchor_documents) {
                if let Some(slot) = slots.get_mut(i as usize) {
                    slot.group = rank;
                }
            }
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

fn finish(
    builder: &Builder<'_>,
    input: &GroupInput<'_>,
    slot_of: &dyn Fn(u32) -> Option<Slot>,
) -> AnchoredGroup {
    let all = || builder.members.iter().chain(&builder.anchor_documents);
    let anchor_document = builder.anchor_documents.first().copied();
    let reference = anchor_document
        .or_else(|| builder.members.first().copied())
        .and_then(slot_of);
    let bucket = reference.map_or(0, |s| s.bucket);
    let shard = reference
        .and_then(|s| input.shard_numbers.get(s.shard as usize).copied())
        .unwrap_or(NONE);
    let split = all().any(|&i| slot_of(i).is_some_and(|s| s.bucket != bucket));
    let documents = all().count() as u64;
    let bytes = all()
        .filter_map(|&i| input.sizes.get(i as usize).copied().flatten())
        .fold(0u64, u64::saturating_add);
    let mut group = AnchoredGroup {
        anchor: builder.anchor.to_string(),
        members: builder.members.clone(),
        anchor_document,
        documents,
        bytes,
        bucket,
        shard,
        split,
        obese: documents > input.obese_threshold,
        advice: Vec::new(),
    };
    advise(&mut group, input.obese_threshold, input.placed);
    group
}

/// Writes a group's advice from its documents, bucket, shard and split: one sentence per
/// problem (obese, split).
pub(super) fn advise(group: &mut AnchoredGroup, obese_threshold: u64, placed: u64) {
    let (documents, bucket, shard) = (group.documents, group.bucket, group.shard);
    let mut advice = Vec::new();
    if group.obese {
        let percent = format!("{:.1}", documents as f64 * 100.0 / placed.max(1) as f64);
        advice.push(format!(
            "{documents} documents ({percent}% of all) share anchor '{}', more than the \
             obese threshold of {}: they all live in bucket {bucket} on shard {shard}, and a \
             bucket moves between shards as one unit, so this group can never be spread out. \
             Anchor to a finer key (for example one per customer and year) or leave some of \
             these documents unanchored.",
            group.anchor, obese_threshold
        ));
    }
    if group.split {
        advice.push(format!(
            "The documents anchored to '{}' are in more than one bucket: a sharding prefix \
             matches some of their IDs and not others, and the prefix wins over the anchor, so \
             they are not stored together. Give them all the same prefix, or none.",
            group.anchor
        ));
    }
    group.advice = advice;
}

/// Buckets with more documents than `threshold`, the fullest first.
pub(super) fn obese_buckets(
    index: &BucketIndex,
    locator: &Locator<'_>,
    threshold: u64,
) -> Vec<ObeseBucket> {
    let mut out: Vec<ObeseBucket> = index
        .runs()
        .filter(|(_, a, b)| (b - a) as u64 > threshold)
        .map(|(bucket, _, _)| {
            let (documents, bytes) = index.count(u64::from(bucket), u64::from(bucket) + 1);
            ObeseBucket {
                bucket,
                shard: locator.shard_of(bucket),
                documents,
                bytes,
            }
        })
        .collect();
    out.sort_by(|a, b| b.documents.cmp(&a.documents).then(a.bucket.cmp(&b.bucket)));
    out
}

/// IDs that occur more than once, ignoring case. Equal lower-cased IDs have equal buckets,
/// so only documents that share a bucket are compared.
pub(super) fn find_duplicates(
    index: &BucketIndex,
    fingerprints: &[u64],
    texts: &Texts<'_>,
) -> Vec<DuplicateId> {
    let mut out = Vec::new();
    let documents = index.documents();
    let mut run: Vec<(u64, u32)> = Vec::new();
    let mut same_hash: Vec<u32> = Vec::new();
    for (_, a, b) in index.runs() {
        if b - a < 2 {
            continue;
        }
        // The members of an anchored group share a bucket: compare hashes of the whole
        // IDs first, and strings only where those are equal.
        run.clear();
        run.extend(
            documents
                .get(a..b)
                .unwrap_or(&[])
                .iter()
                .map(|&i| (fingerprints.get(i as usize).copied().unwrap_or(0), i)),
        );
        // Called for every bucket with documents in common, so the standard library's
        // sort, which rows' size order shares (same element type).
        run.sort_unstable();
        for chunk in run.chunk_by(|x, y| x.0 == y.0) {
            if chunk.len() < 2 {
                continue;
            }
            same_hash.clear();
            same_hash.extend(chunk.iter().map(|&(_, i)| i));
            same_hash.sort_by(|&x, &y| texts.get(x).cmp(texts.get(y)).then(x.cmp(&y)));
            for same in same_hash.chunk_by(|&x, &y| texts.get(x) == texts.get(y)) {
                if same.len() > 1 {
                    out.push(DuplicateId {
                        lower_id: texts.get(same[0]).to_string(),
                        indices: same.to_vec(),
                    });
                }
            }
        }
    }
    out.sort_by_key(|d| d.indices.first().copied());
    out
}
