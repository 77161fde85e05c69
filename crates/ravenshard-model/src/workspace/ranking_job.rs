//! The anchored groups' order ([`Ranking`]) made a step at a time, so that the studio can
//! rank the 400,000 groups of ten million documents without one long task (a sort of them
//! at once took about 125 ms in the studio's wasm, at the first opening of the Groups
//! view): the groups' packed keys are read a chunk at a time, each chunk sorted as it
//! fills, the chunks merged (itertools' k-way merge, pulled a number of groups a step),
//! then the runs of equal packed keys ordered by their whole keys. [`Ranking::new`] runs
//! the same steps to the end, so both give the same order.

use super::ranking::{order_of, packed, Key, Ranking};
use super::Placement;
use itertools::{Itertools, KMerge};
use std::vec::IntoIter;

/// Groups a chunk holds (the last one fewer): each is sorted in one go.
const CHUNK: usize = 1 << 15;

/// A group's packed key and its key in the group table.
type Packed = ((u64, u128), u32);

/// Where a [`RankingSteps`] is.
enum Stage {
    /// Reading the keys of the group table from `next` on.
    Keys { next: u32 },
    /// Merging the sorted chunks.
    Merge(KMerge<IntoIter<Packed>>),
    /// Done: the order was handed over.
    Done,
}

/// The steps of a ranking over a group table of `len` keys (see the module).
pub(super) struct RankingSteps {
    len: u32,
    stage: Stage,
    chunks: Vec<Vec<Packed>>,
    /// How many live groups were read.
    present: usize,
    merged: Vec<Packed>,
}

impl RankingSteps {
    /// The steps over a group table of `len` keys.
    pub(super) fn new(len: usize) -> RankingSteps {
        RankingSteps {
            len: u32::try_from(len).unwrap_or(u32::MAX),
            stage: Stage::Keys { next: 0 },
            chunks: Vec::new(),
            present: 0,
            merged: Vec::new(),
        }
    }

    /// Work done and to do, in groups (each is read, then merged: two units a group).
    pub(super) fn progress(&self) -> (u64, u64) {
        let n = u64::from(self.len);
        let done = match &self.stage {
            Stage::Keys { next } => u64::from(*next),
            Stage::Merge(_) => n + self.merged.len() as u64,
            Stage::Done => 2 * n,
        };
        (done, 2 * n)
    }

    /// Does about `work` groups' worth of the ranking, `key` giving each live group's key
    /// (`None`: a free key of the table); the order once it is made.
    pub(super) fn step<'a>(
        &mut self,
        key: &dyn Fn(u32) -> Option<Key<'a>>,
        work: usize,
    ) -> Option<Ranking> {
        let work = work.max(1);
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Keys { next } => {
                let end = next.saturating_add(u32::try_from(work).unwrap_or(u32::MAX));
                let end = end.min(self.len);
                for g in next..end {
                    if let Some(k) = key(g) {
                        self.push((packed(k), g));
                    }
                }
                self.stage = if end < self.len {
                    Stage::Keys { next: end }
                } else {
                    self.sort_last();
                    let chunks = std::mem::take(&mut self.chunks);
                    self.merged.reserve_exact(self.present);
                    Stage::Merge(chunks.into_iter().map(Vec::into_iter).kmerge())
                };
                None
            }
            Stage::Merge(mut merge) => {
                self.merged.extend(merge.by_ref().take(work));
                if self.merged.len() < self.present {
                    self.stage = Stage::Merge(merge);
                    return None;
                }
                Some(self.order(key))
            }
            Stage::Done => None,
        }
    }

    fn push(&mut self, keyed: Packed) {
        self.present += 1;
        match self.chunks.last_mut() {
            Some(chunk) if chunk.len() < CHUNK => chunk.push(keyed),
            _ => {
                self.sort_last();
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(keyed);
                self.chunks.push(chunk);
            }
        }
    }

    fn sort_last(&mut self) {
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.sort_unstable();
        }
    }

    /// The merged groups with their runs of equal packed keys ordered by the whole keys
    /// (anchors that share their first 16 bytes: a few).
    fn order<'a>(&mut self, key: &dyn Fn(u32) -> Option<Key<'a>>) -> Ranking {
        let mut merged = std::mem::take(&mut self.merged);
        for run in merged.chunk_by_mut(|a, b| a.0 == b.0) {
            if run.len() > 1 {
                run.sort_unstable_by(|(_, a), (_, b)| match (key(*a), key(*b)) {
                    (Some(a), Some(b)) => order_of(a, b),
                    _ => a.cmp(b),
                });
            }
        }
        Ranking::from_order(merged.into_iter().map(|(_, g)| g).collect())
    }
}

/// A job that makes a placement's anchored groups' order a step at a time
/// ([`Placement::rank_groups`]); once made, the placement keeps it (as if a view had read
/// a group's rank) and edits keep it up to date.
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{Document, Placement};
/// use ravenshard::Topology;
///
/// let docs = ["orders/1-A$companies/1-A", "companies/1-A", "orders/2-A$companies/2-A"].map(Document::new);
/// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
/// assert!(!p.groups_ranked());
/// let mut job = p.rank_groups();
/// while !job.step(&p, 1) {}
/// assert!(p.groups_ranked());
/// assert_eq!(job.progress(), (4, 4));
/// assert_eq!(p.group(0).unwrap().anchor, "companies/1-a");
/// ```
pub struct GroupsRanking {
    steps: RankingSteps,
    /// The placement's length when the job began: another one ends it.
    len: usize,
}

impl GroupsRanking {
    pub(super) fn new(p: &Placement) -> GroupsRanking {
        GroupsRanking {
            steps: p.groups.ranking_steps(),
            len: p.len(),
        }
    }

    /// Does about `work` groups' worth of the ranking; `true` when `p` holds the order (made
    /// by this step, or already made, e.g. read by a view meanwhile). Give every step the
    /// placement the job began with, unchanged: one of another length ends the job
    /// (`true`, nothing kept).
    pub fn step(&mut self, p: &Placement, work: usize) -> bool {
        if p.len() != self.len || p.groups_ranked() {
            return true;
        }
        p.groups.rank_step(&mut self.steps, work)
    }

    /// Work done and to do, in units of a group read or merged.
    pub fn progress(&self) -> (u64, u64) {
        self.steps.progress()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::Generator;
    use crate::workspace::Document;
    use proptest::prelude::*;
    use ravenshard::Topology;

    /// A placement ranked by the job shows the groups a fresh one does, and keeps them right
    /// through an edit.
    #[test]
    fn a_ranked_placement_shows_the_groups_of_a_fresh_one() {
        let generator = Generator {
            documents: 3_000,
            anchored_share: 0.5,
            seed: 7,
        };
        let mut docs = generator.generate().unwrap();
        let t = Topology::with_shards(3).unwrap();
        let mut p = Placement::new(&docs, &t, &Default::default());
        let mut job = p.rank_groups();
        let mut steps = 0;
        while !job.step(&p, 10) {
            steps += 1;
        }
        assert!(steps > 3, "{steps} steps");
        assert!(p.groups_ranked());
        let fresh = Placement::new(&docs, &t, &Default::default());
        assert_eq!(p.groups(), fresh.groups());
        let added = [
            Document::new("orders/9-A$companies/1-A"),
            Document::new("orders/10-A$x"),
        ];
        p.splice(5..9, &added).unwrap();
        docs.splice(5..9, added);
        assert!(p.groups_ranked(), "an edit keeps the order");
        assert_eq!(
            p.groups(),
            Placement::new(&docs, &t, &Default::default()).groups()
        );
    }

    /// A job given a placement of another length stops without keeping anything.
    #[test]
    fn another_placement_ends_the_job() {
        let t = Topology::with_shards(3).unwrap();
        let p = Placement::new(&[Document::new("a$b")], &t, &Default::default());
        let mut job = p.rank_groups();
        let other = Placement::new(
            &[Document::new("a$b"), Document::new("c$b")],
            &t,
            &Default::default(),
        );
        assert!(job.step(&other, 1));
        assert!(!other.groups_ranked());
    }

    proptest! {
        /// Whatever the step sizes and free keys, the steps give the order of a sort by
        /// the whole keys.
        #[test]
        fn the_steps_give_the_order_of_the_whole_keys(
            keys in prop::collection::vec(
                prop::option::of(("(companies/0000000)?[a-c]{0,3}", prop::sample::select(vec![0u64, 1, 2, 7]))),
                0..200,
            ),
            work in 1..70usize,
        ) {
            // Anchors unique among the live groups, as in a group table.
            let mut seen = std::collections::HashSet::new();
            let keys: Vec<Option<(u64, String)>> = keys
                .into_iter()
                .map(|k| k.filter(|(a, _)| seen.insert(a.clone())).map(|(a, d)| (d, a)))
                .collect();
            let key = |g: u32| keys.get(g as usize)?.as_ref().map(|(d, a)| (*d, a.as_str()));
            let mut steps = RankingSteps::new(keys.len());
            let ranking = loop {
                if let Some(r) = steps.step(&key, work) {
                    break r;
                }
            };
            let mut expected: Vec<u32> = (0..keys.len() as u32).filter(|&g| key(g).is_some()).collect();
            expected.sort_by(|&a, &b| order_of(key(a).unwrap(), key(b).unwrap()));
            prop_assert_eq!(ranking.order(), expected.as_slice());
        }
    }
}
