//! The saved documents' parts, and what a save writes again of them: a save after an edit
//! keeps every stored part whose documents no splice touched ([`plan_parts`]) and writes
//! only the documents between them, so its cost follows the edit, not the database.

use crate::persist::records::layout_part_key;
use ravenshard_model::workspace::{Document, KeptRun};
use serde::{Deserialize, Serialize};
use std::ops::Range;

use super::{write_documents, PART_DOCUMENTS};

/// A part shorter than this (in documents) is written with the stored part after it (or
/// before it, at the end), so that edits do not leave the saved documents in slivers.
pub const MIN_PART_DOCUMENTS: usize = PART_DOCUMENTS / 4;

/// One stored part of the documents: its record (the save `generation` that wrote it and
/// its `index` there) and what it holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartRef {
    /// The save that wrote the part.
    pub generation: u64,
    /// Its index among that save's parts.
    pub index: u32,
    /// How many documents it holds.
    pub documents: u32,
    /// The bytes of their IDs.
    pub id_bytes: u64,
    /// How many of them have a body.
    pub bodies: u32,
    /// The bytes of those bodies.
    pub body_bytes: u64,
    /// The bytes of the record.
    pub bytes: u64,
}

impl PartRef {
    /// The key of its record.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::persist::PartRef;
    ///
    /// let part = PartRef { generation: 17, index: 3, ..PartRef::default() };
    /// assert_eq!(part.key(), "documents.17.3");
    /// ```
    pub fn key(&self) -> String {
        layout_part_key(Some(self.generation), self.index as usize)
    }

    /// `documents` written out ([`write_documents`]) as the part `index` of the save
    /// `generation`: the part, and its record's text.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::Document;
    /// use ravenshard_studio::persist::PartRef;
    ///
    /// let mut order = Document::new("orders/1-A");
    /// order.body = Some("{}".into());
    /// let (part, text) = PartRef::write(17, 3, &[order, Document::new("a")]);
    /// assert_eq!((part.documents, part.id_bytes, part.bodies, part.body_bytes), (2, 11, 1, 2));
    /// assert_eq!((part.key(), part.bytes), ("documents.17.3".to_string(), text.len() as u64));
    /// ```
    pub fn write(generation: u64, index: u32, documents: &[Document]) -> (PartRef, String) {
        let text = write_documents(documents);
        let bodies = documents.iter().filter_map(|d| d.body.as_ref());
        let part = PartRef {
            generation,
            index,
            documents: documents.len() as u32,
            id_bytes: documents.iter().map(|d| d.id.len() as u64).sum(),
            bodies: bodies.clone().count() as u32,
            body_bytes: bodies.map(|b| b.len() as u64).sum(),
            bytes: text.len() as u64,
        };
        (part, text)
    }
}

/// A stretch of the documents a save starts from: the documents `old` (positions at the
/// mark of that moment) and what holds them (a stored part, or a batch the save sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment<P> {
    /// The documents' positions then.
    pub old: Range<usize>,
    /// What holds them.
    pub part: P,
}

/// The segments of stored `parts`, in order, from the first document on.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::persist::{segments_of, PartRef};
///
/// let part = |documents| PartRef { documents, ..PartRef::default() };
/// let segments = segments_of(&[part(10), part(5)]);
/// assert_eq!((segments[0].old.clone(), segments[1].old.clone()), (0..10, 10..15));
/// ```
pub fn segments_of(parts: &[PartRef]) -> Vec<Segment<PartRef>> {
    let mut at = 0;
    parts
        .iter()
        .map(|part| {
            let old = at..at + part.documents as usize;
            at = old.end;
            Segment { old, part: *part }
        })
        .collect()
}

/// One step of a save's documents, in order: a segment kept as it is (now documents
/// `at`), or documents of the placement written anew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartPlan<P> {
    /// The segment's part, still the documents it holds, now at `at`.
    Keep {
        /// The documents' positions now.
        at: Range<usize>,
        /// What holds them.
        part: P,
    },
    /// The placement's documents `range`, to write.
    Write(Range<usize>),
}

/// What a save of `len` documents keeps of the `segments` it starts from (in order, gaps
/// allowed) and writes anew, in order, given the documents `runs` that no splice touched
/// since ([`kept_runs`](ravenshard_model::workspace::kept_runs)): a segment is kept when
/// its documents are all in one run; a written stretch shorter than
/// [`MIN_PART_DOCUMENTS`] takes the kept segment after it (or before it) along. With no
/// segments, it writes all.
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{kept_runs, Splice};
/// use ravenshard_studio::persist::{plan_parts, segments_of, PartPlan, PartRef};
///
/// let part = |index, documents| PartRef { generation: 1, index, documents, ..PartRef::default() };
/// let stored = [part(0, 16_384), part(1, 16_384), part(2, 16_384)];
/// // One ID of the second part edited: that part is written again, the others kept.
/// let runs = kept_runs(49_152, &[Splice { at: 20_000, removed: 1, inserted: 1 }]);
/// assert_eq!(plan_parts(&segments_of(&stored), &runs, 49_152), [
///     PartPlan::Keep { at: 0..16_384, part: stored[0] },
///     PartPlan::Write(16_384..32_768),
///     PartPlan::Keep { at: 32_768..49_152, part: stored[2] },
/// ]);
/// ```
pub fn plan_parts<P: Copy>(
    segments: &[Segment<P>],
    runs: &[KeptRun],
    len: usize,
) -> Vec<PartPlan<P>> {
    let mut plan = Vec::new();
    let mut at = 0;
    let mut runs = runs.iter().peekable();
    for segment in segments {
        let old = &segment.old;
        while runs.next_if(|r| r.old.end < old.end).is_some() {}
        let Some(run) = runs.peek() else { break };
        if run.old.start > old.start || run.old.end < old.end || old.is_empty() {
            continue;
        }
        let start = run.new_start + (old.start - run.old.start);
        if start > at {
            plan.push(PartPlan::Write(at..start));
        }
        let kept = start..start + old.len();
        at = kept.end;
        plan.push(PartPlan::Keep {
            at: kept,
            part: segment.part,
        });
    }
    if len > at {
        plan.push(PartPlan::Write(at..len));
    }
    without_slivers(plan)
}

/// The plan with each written stretch shorter than [`MIN_PART_DOCUMENTS`] merged with
/// the kept segment after it (else before it), and written stretches side by side joined.
fn without_slivers<P>(plan: Vec<PartPlan<P>>) -> Vec<PartPlan<P>> {
    let mut out: Vec<PartPlan<P>> = Vec::with_capacity(plan.len());
    let mut steps = plan.into_iter().peekable();
    while let Some(step) = steps.next() {
        let step = match step {
            PartPlan::Write(range) if range.len() < MIN_PART_DOCUMENTS => {
                let next = steps.next_if(|s| matches!(s, PartPlan::Keep { .. }));
                match (next, out.last()) {
                    (Some(PartPlan::Keep { at, .. }), _) => PartPlan::Write(range.start..at.end),
                    (_, Some(PartPlan::Keep { at, .. })) => {
                        let start = at.start;
                        out.pop();
                        PartPlan::Write(start..range.end)
                    }
                    _ => PartPlan::Write(range),
                }
            }
            step => step,
        };
        match (out.last_mut(), step) {
            (Some(PartPlan::Write(last)), PartPlan::Write(range)) if last.end == range.start => {
                last.end = range.end;
            }
            (_, step) => out.push(step),
        }
    }
    out
}

/// `range` cut into batches of at most [`PART_DOCUMENTS`] documents, as even as can be
/// (16,385 documents make two batches of 8,192 and 8,193, not one of 16,384 and one of 1).
///
/// # Examples
///
/// ```
/// use ravenshard_studio::persist::even_batches;
///
/// assert_eq!(even_batches(10..16_395), [10..8_202, 8_202..16_395]);
/// assert_eq!(even_batches(0..5), [0..5]);
/// let ten_million = even_batches(0..10_000_000);
/// assert_eq!((ten_million.len(), ten_million[610].end), (611, 10_000_000));
/// assert!(even_batches(3..3).is_empty());
/// ```
pub fn even_batches(range: Range<usize>) -> Vec<Range<usize>> {
    let count = range.len().div_ceil(PART_DOCUMENTS);
    // In u64: 10,000,000 documents times 611 batches overflows wasm32's usize.
    let (len, parts) = (range.len() as u64, count as u64);
    let at = |i: u64| range.start + (len * i / parts) as usize;
    (0..parts).map(|i| at(i)..at(i + 1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ravenshard_model::workspace::{kept_runs, Splice};

    fn part(index: u32, documents: u32) -> PartRef {
        PartRef {
            generation: 1,
            index,
            documents,
            ..PartRef::default()
        }
    }

    /// The documents the plan covers, in order, each once.
    fn covers(plan: &[PartPlan<PartRef>], len: usize) -> bool {
        let mut at = 0;
        for step in plan {
            at += match step {
                PartPlan::Keep { at: kept, part } if kept.start == at => {
                    assert_eq!(kept.len(), part.documents as usize);
                    kept.len()
                }
                PartPlan::Write(r) if r.start == at => r.len(),
                _ => return false,
            };
        }
        at == len
    }

    /// `plan_parts` of stored parts.
    fn planned(parts: &[PartRef], runs: &[KeptRun], len: usize) -> Vec<PartPlan<PartRef>> {
        plan_parts(&segments_of(parts), runs, len)
    }

    fn keep(at: Range<usize>, part: PartRef) -> PartPlan<PartRef> {
        PartPlan::Keep { at, part }
    }

    #[test]
    fn with_nothing_stored_everything_is_written() {
        assert_eq!(planned(&[], &[], 40_000), [PartPlan::Write(0..40_000)]);
        assert!(planned(&[], &[], 0).is_empty());
    }

    #[test]
    fn an_insertion_at_a_parts_boundary_is_written_with_the_part_after_it() {
        let stored = [part(0, 16_384), part(1, 16_384), part(2, 100)];
        let splice = Splice {
            at: 16_384,
            removed: 0,
            inserted: 1,
        };
        let plan = planned(&stored, &kept_runs(32_868, &[splice]), 32_869);
        assert_eq!(
            plan,
            [
                keep(0..16_384, stored[0]),
                PartPlan::Write(16_384..32_769),
                keep(32_769..32_869, stored[2]),
            ]
        );
        assert!(covers(&plan, 32_869));
    }

    #[test]
    fn documents_appended_after_a_full_part_stand_alone_once_large_enough() {
        let stored = [part(0, 16_384)];
        let few = Splice {
            at: 16_384,
            removed: 0,
            inserted: 10,
        };
        // Ten documents appended: written with the part before them.
        let plan = planned(&stored, &kept_runs(16_384, &[few]), 16_394);
        assert_eq!(plan, [PartPlan::Write(0..16_394)]);
        let many = Splice {
            inserted: 5_000,
            ..few
        };
        let plan = planned(&stored, &kept_runs(16_384, &[many]), 21_384);
        assert_eq!(
            plan,
            [keep(0..16_384, stored[0]), PartPlan::Write(16_384..21_384)]
        );
    }

    #[test]
    fn removed_documents_drop_their_parts_and_shift_the_rest() {
        let stored = [part(0, 8_000), part(1, 8_000), part(2, 8_000)];
        // The whole second part removed, and one document of the third.
        let splices = [
            Splice {
                at: 8_000,
                removed: 8_000,
                inserted: 0,
            },
            Splice {
                at: 8_000,
                removed: 1,
                inserted: 0,
            },
        ];
        let plan = planned(&stored, &kept_runs(24_000, &splices), 15_999);
        assert_eq!(
            plan,
            [keep(0..8_000, stored[0]), PartPlan::Write(8_000..15_999)]
        );
        assert!(covers(&plan, 15_999));
    }

    #[test]
    fn a_plan_covers_every_document_once_after_any_splices() {
        // A small exhaustive sweep: every place and size of one splice over three parts.
        let stored = [part(0, 5_000), part(1, 6_000), part(2, 7_000)];
        for at in (0..=18_000).step_by(1_500) {
            for removed in [0, 1, 4_999, 6_000] {
                let removed = removed.min(18_000 - at);
                for inserted in [0, 1, 5_000, 20_000] {
                    let splice = Splice {
                        at,
                        removed,
                        inserted,
                    };
                    let len = 18_000 - removed + inserted;
                    let plan = planned(&stored, &kept_runs(18_000, &[splice]), len);
                    assert!(covers(&plan, len), "{splice:?}: {plan:?}");
                }
            }
        }
    }
}
