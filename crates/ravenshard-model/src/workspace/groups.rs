//! Anchored groups, obese buckets and duplicate IDs.

use super::loads::Loads;
use super::ranking::{Key, Ranking};
use super::ranking_job::RankingSteps;
use super::singles::Singles;
use super::{Locator, NONE};
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

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

/// What a view shows of an anchored group: an [`AnchoredGroup`] with the count of its
/// members rather than their list, which [`Placement::group_summary`](super::Placement::group_summary)
/// reads without copying (the largest of 10,000,000 generated documents' groups has a
/// quarter of a million members).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct GroupSummary {
    /// The anchor, lower-cased.
    pub anchor: String,
    /// How many anchored documents (`…$<anchor>`) it has.
    pub members: u64,
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
    /// Whether the group's documents are in more than one bucket.
    pub split: bool,
    /// Whether the group has more documents than the obese threshold.
    pub obese: bool,
    /// What to do about it: one sentence per problem (obese, split); empty when fine.
    pub advice: Vec<String>,
}

impl GroupSummary {
    /// Whether the anchor is itself one of the documents.
    pub fn anchor_is_document(&self) -> bool {
        self.anchor_document.is_some()
    }

    /// The group with its list of members.
    fn with_members(self, members: Vec<u32>) -> AnchoredGroup {
        AnchoredGroup {
            anchor: self.anchor,
            members,
            anchor_document: self.anchor_document,
            documents: self.documents,
            bytes: self.bytes,
            bucket: self.bucket,
            shard: self.shard,
            split: self.split,
            obese: self.obese,
            advice: self.advice,
        }
    }
}

impl From<&AnchoredGroup> for GroupSummary {
    fn from(g: &AnchoredGroup) -> GroupSummary {
        GroupSummary {
            anchor: g.anchor.clone(),
            members: g.members.len() as u64,
            anchor_document: g.anchor_document,
            documents: g.documents,
            bytes: g.bytes,
            bucket: g.bucket,
            shard: g.shard,
            split: g.split,
            obese: g.obese,
            advice: g.advice.clone(),
        }
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

/// A map keyed by an XXH64 already computed: hashing the key is free.
type ByHash<V> = HashMap<u64, V, BuildHasherDefault<ravenshard::HashIsKey>>;

/// Inserts `i` into an ascending list.
fn insert_sorted(list: &mut Vec<u32>, i: u32) {
    let at = list.partition_point(|&x| x < i);
    list.insert(at, i);
}

/// Removes `i` from an ascending list.
fn remove_sorted(list: &mut Vec<u32>, i: u32) {
    if let Ok(at) = list.binary_search(&i) {
        list.remove(at);
    }
}

/// Moves the indices `>= from` by `delta` (the documents after an insertion or removal).
pub(super) fn shift(index: &mut u32, from: u32, delta: i64) {
    if *index >= from {
        *index = (i64::from(*index) + delta) as u32;
    }
}

/// One anchored group, kept up to date as its documents come and go.
#[derive(Debug, Clone)]
struct GroupState {
    hash: u64,
    anchor: String,
    /// Anchored documents (`…$<anchor>`), ascending.
    members: Vec<u32>,
    /// Documents whose lowered ID is the anchor, ascending.
    anchor_documents: Vec<u32>,
    bytes: u64,
    /// `(bucket, documents)` of the group's documents: more than one entry is a split.
    buckets: Vec<(u32, u32)>,
}

impl GroupState {
    fn count_bucket(&mut self, bucket: u32, add: bool) {
        match self.buckets.iter().position(|&(b, _)| b == bucket) {
            Some(at) if add => self.buckets[at].1 += 1,
            Some(at) => {
                self.buckets[at].1 -= 1;
                if self.buckets[at].1 == 0 {
                    self.buckets.swap_remove(at);
                }
            }
            None if add => self.buckets.push((bucket, 1)),
            None => {}
        }
    }
}

/// One placed document's part in the anchored groups.
#[derive(Debug, Clone, Copy)]
pub(super) struct Member<'a> {
    pub(super) index: u32,
    /// XXH64 of the anchor part of the lowered ID.
    pub(super) hash: u64,
    /// The anchor part (a member) or the whole lowered ID (a possible anchor document).
    pub(super) text: &'a str,
    /// Whether the ID is anchored (`…$<anchor>`, not generated).
    pub(super) anchored: bool,
    pub(super) bucket: u32,
    pub(super) size: Option<u64>,
}

/// A placed document whose whole lowered ID hashes as a new group's anchor does.
pub(super) struct Candidate {
    pub(super) index: u32,
    pub(super) lower: String,
    pub(super) bucket: u32,
    pub(super) size: Option<u64>,
}

/// Every anchored group, by anchor: per-anchor members, counts and buckets kept up to date
/// one document at a time (O(log) each, plus the memmove of a member list). Their order
/// (and so each group's rank) is sorted when first read, then kept as edits change a few
/// groups ([`Ranking`]); the list of every group's summary is made again only when read
/// after a change.
#[derive(Debug, Clone, Default)]
pub(super) struct Groups {
    table: Vec<Option<GroupState>>,
    free: Vec<u32>,
    by_hash: ByHash<Vec<u32>>,
    ranking: OnceLock<Ranking>,
    view: OnceLock<Vec<AnchoredGroup>>,
}

/// What orders group `g` of `table` ([`Ranking`]): its documents and anchor.
fn key_of(table: &[Option<GroupState>], g: u32) -> Option<Key<'_>> {
    let state = table.get(g as usize)?.as_ref()?;
    let documents = (state.members.len() + state.anchor_documents.len()) as u64;
    Some((documents, state.anchor.as_str()))
}

impl Groups {
    /// Whether any group exists.
    pub(super) fn any(&self) -> bool {
        self.table.len() > self.free.len()
    }

    /// Takes group `g` out of the order before its size changes (`new`: it was just made),
    /// or drops the order when too many groups change at once (it is sorted again when
    /// read).
    fn take_out(&mut self, g: u32, new: bool) {
        let table = &self.table;
        let by = |x: u32| key_of(table, x);
        if let Some(ranking) = self.ranking.get_mut() {
            let key = if new { None } else { by(g) };
            if !ranking.take_out(g, key, &by) {
                self.ranking = OnceLock::new();
            }
        }
    }

    /// Puts the groups an edit changed back in order: call when the edit is done.
    pub(super) fn settle(&mut self) {
        let table = &self.table;
        if let Some(ranking) = self.ranking.get_mut() {
            ranking.settle(&|g| key_of(table, g));
        }
    }

    fn ranking(&self) -> &Ranking {
        self.ranking
            .get_or_init(|| Ranking::of_table(self.table.len(), &|g| key_of(&self.table, g)))
    }

    /// Whether the groups' order is made (else the first read of a rank sorts them).
    pub(super) fn ranked(&self) -> bool {
        self.ranking.get().is_some()
    }

    /// The steps of a ranking of these groups ([`rank_step`](Self::rank_step)).
    pub(super) fn ranking_steps(&self) -> RankingSteps {
        RankingSteps::new(self.table.len())
    }

    /// Does about `work` groups' worth of `steps` (made by
    /// [`ranking_steps`](Self::ranking_steps) of these groups, unchanged since); `true`
    /// once the order is made and kept.
    pub(super) fn rank_step(&self, steps: &mut RankingSteps, work: usize) -> bool {
        if self.ranked() {
            return true;
        }
        match steps.step(&|g| key_of(&self.table, g), work) {
            Some(ranking) => {
                let _ = self.ranking.set(ranking);
                true
            }
            None => false,
        }
    }

    fn find(&self, hash: u64, text: &str) -> Option<u32> {
        self.by_hash.get(&hash)?.iter().copied().find(|&g| {
            self.table
                .get(g as usize)
                .and_then(Option::as_ref)
                .is_some_and(|s| s.anchor == text)
        })
    }

    /// Adds a placed document; `anchor_documents(hash)` lists the placed documents whose
    /// whole lowered ID hashes to `hash`, for a new group to find its anchor documents. Records the document's group in `group_of`.
    pub(super) fn add(
        &mut self,
        member: Member<'_>,
        group_of: &mut [u32],
        anchor_documents: &dyn Fn(u64) -> Vec<Candidate>,
    ) {
        let found = self.find(member.hash, member.text);
        let g = match found {
            Some(g) => {
                self.take_out(g, false);
                g
            }
            None if !member.anchored => return,
            None => {
                let g = self.create(member, group_of, anchor_documents);
                self.take_out(g, true);
                g
            }
        };
        let Some(state) = self.table.get_mut(g as usize).and_then(Option::as_mut) else {
            return;
        };
        if member.anchored {
            insert_sorted(&mut state.members, member.index);
        } else {
            insert_sorted(&mut state.anchor_documents, member.index);
        }
        state.bytes = state.bytes.saturating_add(member.size.unwrap_or(0));
        state.count_bucket(member.bucket, true);
        if let Some(slot) = group_of.get_mut(member.index as usize) {
            *slot = g;
        }
        self.view = OnceLock::new();
    }

    fn create(
        &mut self,
        member: Member<'_>,
        group_of: &mut [u32],
        anchor_documents: &dyn Fn(u64) -> Vec<Candidate>,
    ) -> u32 {
        let mut state = GroupState {
            hash: member.hash,
            anchor: member.text.to_string(),
            members: Vec::new(),
            anchor_documents: Vec::new(),
            bytes: 0,
            buckets: Vec::new(),
        };
        let g = match self.free.pop() {
            Some(g) => g,
            None => {
                self.table.push(None);
                self.table.len() as u32 - 1
            }
        };
        for c in anchor_documents(member.hash) {
            if c.lower == member.text {
                state.anchor_documents.push(c.index);
                state.bytes = state.bytes.saturating_add(c.size.unwrap_or(0));
                state.count_bucket(c.bucket, true);
                if let Some(slot) = group_of.get_mut(c.index as usize) {
                    *slot = g;
                }
            }
        }
        state.anchor_documents.sort_unstable();
        if let Some(slot) = self.table.get_mut(g as usize) {
            *slot = Some(state);
        }
        self.by_hash.entry(member.hash).or_default().push(g);
        g
    }

    /// Removes document `index` of group `g` (no-op for [`NONE`]); a group left without
    /// members is dropped and its anchor documents leave it.
    pub(super) fn remove(
        &mut self,
        g: u32,
        index: u32,
        bucket: u32,
        size: Option<u64>,
        group_of: &mut [u32],
    ) {
        if self.table.get(g as usize).is_none_or(Option::is_none) {
            return;
        }
        self.take_out(g, false);
        let Some(state) = self.table.get_mut(g as usize).and_then(Option::as_mut) else {
            return;
        };
        remove_sorted(&mut state.members, index);
        remove_sorted(&mut state.anchor_documents, index);
        state.bytes = state.bytes.saturating_sub(size.unwrap_or(0));
        state.count_bucket(bucket, false);
        if let Some(slot) = group_of.get_mut(index as usize) {
            *slot = NONE;
        }
        if state.members.is_empty() {
            for &i in &state.anchor_documents {
                if let Some(slot) = group_of.get_mut(i as usize) {
                    *slot = NONE;
                }
            }
            let hash = state.hash;
            if let Some(list) = self.by_hash.get_mut(&hash) {
                list.retain(|&x| x != g);
                if list.is_empty() {
                    self.by_hash.remove(&hash);
                }
            }
            if let Some(slot) = self.table.get_mut(g as usize) {
                *slot = None;
            }
            self.free.push(g);
        }
        self.view = OnceLock::new();
    }

    /// A document of group `g` moved from bucket `from` to `to` (a prefix changed).
    pub(super) fn move_bucket(&mut self, g: u32, from: u32, to: u32) {
        if let Some(state) = self.table.get_mut(g as usize).and_then(Option::as_mut) {
            state.count_bucket(from, false);
            state.count_bucket(to, true);
            self.view = OnceLock::new();
        }
    }

    /// Moves the member indices `>= from` by `delta`: O(members).
    pub(super) fn shift(&mut self, from: u32, delta: i64) {
        for state in self.table.iter_mut().flatten() {
            for i in state.members.iter_mut().chain(&mut state.anchor_documents) {
                shift(i, from, delta);
            }
        }
        self.view = OnceLock::new();
    }

    /// Forgets the sorted list (its shards, obese flags or advice changed).
    pub(super) fn forget_view(&mut self) {
        self.view = OnceLock::new();
    }

    /// Every group's summary, in order: made when read after a change (O(groups +
    /// their documents)).
    pub(super) fn list(&self, context: &GroupContext<'_>) -> &[AnchoredGroup] {
        self.view.get_or_init(|| {
            let states = self.ranking().order().iter();
            states
                .filter_map(|&g| Some(finish(self.table.get(g as usize)?.as_ref()?, context)))
                .collect()
        })
    }

    /// A copy without the list of summaries (made again when read).
    pub(super) fn without_view(&self) -> Groups {
        Groups {
            table: self.table.clone(),
            free: self.free.clone(),
            by_hash: self.by_hash.clone(),
            ranking: self.ranking.clone(),
            view: OnceLock::new(),
        }
    }

    /// How many groups there are, without sorting them: O(1) (the table's free slots are
    /// listed in `free`).
    pub(super) fn count(&self) -> usize {
        self.table.len().saturating_sub(self.free.len())
    }

    /// The rank in [`Groups::list`] of group `g` (a key of the group table): O(log groups).
    pub(super) fn rank(&self, g: u32) -> Option<u32> {
        let key = key_of(&self.table, g)?;
        self.ranking().rank(key, &|x| key_of(&self.table, x))
    }

    /// The key in the group table of the group of rank `rank`.
    pub(super) fn key_at(&self, rank: u32) -> Option<u32> {
        self.ranking().at(rank)
    }

    /// The summary of the group of rank `rank`, alone: O(log groups + its documents).
    pub(super) fn at(&self, rank: u32, context: &GroupContext<'_>) -> Option<AnchoredGroup> {
        if let Some(list) = self.view.get() {
            return list.get(rank as usize).cloned();
        }
        let g = self.key_at(rank)?;
        Some(finish(self.table.get(g as usize)?.as_ref()?, context))
    }

    /// [`at`](Self::at) without the list of members: nothing the size of the group is
    /// copied.
    pub(super) fn summary_at(&self, rank: u32, context: &GroupContext<'_>) -> Option<GroupSummary> {
        if let Some(list) = self.view.get() {
            return list.get(rank as usize).map(GroupSummary::from);
        }
        let g = self.key_at(rank)?;
        Some(summarise(self.table.get(g as usize)?.as_ref()?, context))
    }

    /// The anchor and documents of group `g` (a key of the group table): O(1).
    pub(super) fn label(&self, g: u32) -> Option<(&str, u64)> {
        key_of(&self.table, g).map(|(documents, anchor)| (anchor, documents))
    }

    /// How many groups have more than `documents` documents: O(log groups).
    pub(super) fn more_than(&self, documents: u64) -> usize {
        self.ranking()
            .more_than(documents, &|x| key_of(&self.table, x))
    }

    /// Frees up to `budget` groups, for a placement that is being dropped (what is left
    /// is not a consistent table); `true` once none is left. At 10,000,000 generated
    /// documents the groups are about 400,000, each with an ID and three lists: two
    /// million blocks to free, over 200 ms in wasm in one go.
    pub(super) fn shed(&mut self, budget: usize) -> bool {
        if let Some(view) = self.view.get_mut() {
            view.truncate(view.len().saturating_sub(budget));
            if !view.is_empty() {
                return false;
            }
        }
        self.table.truncate(self.table.len().saturating_sub(budget));
        if !self.table.is_empty() {
            return false;
        }
        // The lists by hash, emptied a budget at a time (the emptied ones are skipped).
        let mut freed = 0;
        for list in self.by_hash.values_mut().filter(|l| l.capacity() > 0) {
            *list = Vec::new();
            freed += 1;
            if freed == budget {
                return false;
            }
        }
        *self = Groups::default();
        true
    }

    /// Heap bytes, roughly.
    pub(super) fn heap_bytes(&self) -> usize {
        self.table
            .iter()
            .flatten()
            .map(|s| {
                96 + s.anchor.capacity()
                    + (s.members.capacity() + s.anchor_documents.capacity()) * 4
                    + s.buckets.capacity() * 8
            })
            .sum::<usize>()
            + self.by_hash.capacity() * 40
            + self.ranking.get().map_or(0, Ranking::heap_bytes)
    }
}

/// What a group's summary needs besides its documents.
pub(super) struct GroupContext<'a> {
    pub(super) ranges: &'a [ravenshard::BucketRange],
    pub(super) obese_threshold: u64,
    pub(super) placed: u64,
    /// The bucket of each document ([`NONE`] when not placed).
    pub(super) buckets: &'a [u32],
}

fn finish(state: &GroupState, context: &GroupContext<'_>) -> AnchoredGroup {
    summarise(state, context).with_members(state.members.clone())
}

/// A group's summary: [`finish`] without the list of members.
fn summarise(state: &GroupState, context: &GroupContext<'_>) -> GroupSummary {
    let anchor_document = state.anchor_documents.first().copied();
    let reference = anchor_document.or_else(|| state.members.first().copied());
    let bucket = reference
        .and_then(|i| context.buckets.get(i as usize).copied())
        .filter(|&b| b != NONE)
        .unwrap_or(0);
    let documents = (state.members.len() + state.anchor_documents.len()) as u64;
    let mut group = GroupSummary {
        anchor: state.anchor.clone(),
        members: state.members.len() as u64,
        anchor_document,
        documents,
        bytes: state.bytes,
        bucket,
        shard: super::shard_of(context.ranges, bucket).unwrap_or(NONE),
        split: state.buckets.len() > 1,
        obese: documents > context.obese_threshold,
        advice: Vec::new(),
    };
    advise(&mut group, context.obese_threshold, context.placed);
    group
}

/// Writes a group's advice from its documents, bucket, shard and split: one sentence per
/// problem (obese, split).
pub(super) fn advise(group: &mut GroupSummary, obese_threshold: u64, placed: u64) {
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

/// Buckets with more documents than `threshold`, the fullest first: O(used buckets).
pub(super) fn obese_buckets(
    loads: &Loads,
    locator: &Locator<'_>,
    threshold: u64,
) -> Vec<ObeseBucket> {
    let mut out: Vec<ObeseBucket> = loads
        .buckets
        .iter()
        .filter(|(_, l)| u64::from(l.documents) > threshold)
        .map(|(&bucket, l)| ObeseBucket {
            bucket,
            shard: locator.shard_of(bucket),
            documents: u64::from(l.documents),
            bytes: l.bytes(),
        })
        .collect();
    out.sort_by(|a, b| b.documents.cmp(&a.documents).then(a.bucket.cmp(&b.bucket)));
    out
}

/// The high 32 bits of an XXH64, spread over a `u64` (a multiplication by 2^64 / φ) for a
/// hash map whose key they are: hashbrown reads the hash's top bits as well as its low ones.
#[derive(Debug, Default)]
pub(super) struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A map keyed by the high half of an XXH64.
pub(super) type ByHalf<V> = HashMap<u32, V, BuildHasherDefault<Spread>>;

/// The key of a whole-ID hash in [`Duplicates`]: its high 32 bits. Two IDs whose hashes
/// share them are told apart by their text, so this costs a rare comparison, not a wrong
/// answer, and saves 4 bytes per document.
fn half(hash: u64) -> u32 {
    (hash >> 32) as u32
}

/// The placed documents by the XXH64 of their whole lowered ID: finds IDs given more than
/// once (ignoring case) and the documents whose ID is an anchor, one document at a time.
#[derive(Debug, Clone, Default)]
pub(super) struct Duplicates {
    /// Hash halves held by one document.
    single: Singles,
    /// Hash halves held by more than one document (ascending indices; their IDs may differ).
    many: ByHalf<Vec<u32>>,
    /// Documents that repeat an earlier ID ([`Totals::duplicates`](super::Totals)).
    repeats: u64,
    view: OnceLock<Vec<DuplicateId>>,
}

/// Runs of equal lowered IDs among `indices`: `(lowered ID, ascending indices)`.
impl Duplicates {
    /// A copy without the sorted list (made again when read).
    pub(super) fn without_view(&self) -> Duplicates {
        Duplicates {
            single: self.single.clone(),
            many: self.many.clone(),
            repeats: self.repeats,
            view: OnceLock::new(),
        }
    }
}

fn same_ids(indices: &[u32], lower_of: &dyn Fn(u32) -> String) -> Vec<(String, Vec<u32>)> {
    let mut keyed: Vec<(String, u32)> = indices.iter().map(|&i| (lower_of(i), i)).collect();
    keyed.sort();
    let mut out: Vec<(String, Vec<u32>)> = Vec::new();
    for (text, i) in keyed {
        match out.last_mut() {
            Some((t, list)) if *t == text => list.push(i),
            _ => out.push((text, vec![i])),
        }
    }
    out
}

fn repeats_in(indices: &[u32], lower_of: &dyn Fn(u32) -> String) -> u64 {
    if indices.len() < 2 {
        return 0;
    }
    same_ids(indices, lower_of)
        .iter()
        .map(|(_, l)| l.len() as u64 - 1)
        .sum()
}

impl Duplicates {
    /// Room for `additional` more documents, so that the table is not rehashed whole as
    /// a chunked build grows it.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.single.reserve(additional);
    }

    /// The documents whose whole lowered ID hashes to `hash` (and maybe others, told apart
    /// by their IDs).
    pub(super) fn with_hash(&self, hash: u64) -> Vec<u32> {
        let hash = half(hash);
        match (self.single.get(hash), self.many.get(&hash)) {
            (Some(i), _) => vec![i],
            (None, Some(list)) => list.clone(),
            (None, None) => Vec::new(),
        }
    }

    /// Adds placed document `index` with fingerprint `hash`.
    pub(super) fn add(&mut self, hash: u64, index: u32, lower_of: &dyn Fn(u32) -> String) {
        let hash = half(hash);
        if let Some(list) = self.many.get_mut(&hash) {
            self.repeats -= repeats_in(list, lower_of);
            insert_sorted(list, index);
            self.repeats += repeats_in(list, lower_of);
        } else if let Some(other) = self.single.remove(hash) {
            let mut list = vec![other];
            insert_sorted(&mut list, index);
            self.repeats += repeats_in(&list, lower_of);
            self.many.insert(hash, list);
        } else {
            self.single.insert(hash, index);
            return;
        }
        self.view = OnceLock::new();
    }

    /// Removes placed document `index` with fingerprint `hash`.
    pub(super) fn remove(&mut self, hash: u64, index: u32, lower_of: &dyn Fn(u32) -> String) {
        let hash = half(hash);
        if self.single.get(hash) == Some(index) {
            self.single.remove(hash);
            return;
        }
        let Some(list) = self.many.get_mut(&hash) else {
            return;
        };
        self.repeats -= repeats_in(list, lower_of);
        remove_sorted(list, index);
        self.repeats += repeats_in(list, lower_of);
        if let [only] = list[..] {
            self.many.remove(&hash);
            self.single.insert(hash, only);
        }
        self.view = OnceLock::new();
    }

    /// Moves the indices `>= from` by `delta`: O(placed documents).
    pub(super) fn shift(&mut self, from: u32, delta: i64) {
        for i in self.single.indices_mut() {
            shift(i, from, delta);
        }
        for list in self.many.values_mut() {
            for i in list {
                shift(i, from, delta);
            }
        }
        self.view = OnceLock::new();
    }

    pub(super) fn repeats(&self) -> u64 {
        self.repeats
    }

    /// IDs given more than once, in order of first appearance.
    pub(super) fn list(&self, lower_of: &dyn Fn(u32) -> String) -> &[DuplicateId] {
        self.view.get_or_init(|| {
            let mut out: Vec<DuplicateId> = self
                .many
                .values()
                .flat_map(|list| same_ids(list, lower_of))
                .filter(|(_, l)| l.len() > 1)
                .map(|(lower_id, indices)| DuplicateId { lower_id, indices })
                .collect();
            out.sort_by_key(|d| d.indices.first().copied());
            out
        })
    }

    /// Heap bytes, roughly (a hash map entry plus its control byte, at 7/8 load).
    pub(super) fn heap_bytes(&self) -> usize {
        self.single.capacity() * 9
            + self
                .many
                .values()
                .map(|l| 40 + l.capacity() * 4)
                .sum::<usize>()
    }
}
