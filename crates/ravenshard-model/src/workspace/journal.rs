//! What changed in a placement's documents since a moment: the splices made since a
//! [`DocumentsMark`], so that a copy of the documents kept elsewhere (the studio's saved
//! parts) is brought up to date by what changed, not written again whole.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The most splices a placement remembers: past them it forgets the older half, and a mark
/// taken before the splices it still remembers reads as unknown
/// ([`Placement::splices_since`](super::Placement::splices_since) then says `None`); a mark
/// taken since (a studio's last save's) still reads. A splice inside what the last one
/// inserted, with no mark taken since, is merged into it (the characters typed into one
/// line make one splice), so a studio, which takes a mark at each save, uses about one a
/// save.
pub const MAX_SPLICES: usize = 8_192;

/// One splice of a placement's documents: documents `at..at + removed` were replaced by
/// `inserted` documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Splice {
    /// Index of the first document replaced.
    pub at: usize,
    /// How many documents went.
    pub removed: usize,
    /// How many documents came in their place.
    pub inserted: usize,
}

/// A moment of a placement's documents
/// ([`Placement::documents_mark`](super::Placement::documents_mark)): which documents it
/// held, for [`Placement::splices_since`](super::Placement::splices_since). Marks are
/// unique in a process: two placements built apart never share one, and a clone edited
/// apart from its original is told from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DocumentsMark {
    origin: u64,
    len: usize,
    tip: u64,
}

/// A number no other call gives in this process.
fn serial() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The splices made to a placement's documents since it was built.
#[derive(Debug)]
pub(super) struct Journal {
    /// The serial of the documents the placement was built with.
    origin: u64,
    /// How many of the oldest splices were forgotten ([`MAX_SPLICES`]).
    forgotten: usize,
    /// The serial of the last splice forgotten (`origin` if none): the tip of a mark taken
    /// right after it.
    forgotten_tip: u64,
    splices: Vec<Splice>,
    /// The serial of each splice.
    serials: Vec<u64>,
    /// Whether a mark was taken since the last splice (which then stays as it is).
    marked: AtomicBool,
}

impl Default for Journal {
    fn default() -> Journal {
        let origin = serial();
        Journal {
            origin,
            forgotten: 0,
            forgotten_tip: origin,
            splices: Vec::new(),
            serials: Vec::new(),
            marked: AtomicBool::new(false),
        }
    }
}

impl Clone for Journal {
    fn clone(&self) -> Journal {
        Journal {
            origin: self.origin,
            forgotten: self.forgotten,
            forgotten_tip: self.forgotten_tip,
            splices: self.splices.clone(),
            serials: self.serials.clone(),
            marked: AtomicBool::new(self.marked.load(Ordering::Relaxed)),
        }
    }
}

impl Journal {
    /// Notes `splice`: merged into the last splice when it falls inside what that one
    /// inserted and no mark was taken since (a new serial then tells the merged splice
    /// from the one before); past [`MAX_SPLICES`], forgets the older half.
    pub(super) fn record(&mut self, splice: Splice) {
        let marked = std::mem::replace(self.marked.get_mut(), false);
        if let (false, Some(last), Some(tip)) =
            (marked, self.splices.last_mut(), self.serials.last_mut())
        {
            let inserted = last.at..last.at + last.inserted;
            if inserted.start <= splice.at && splice.at + splice.removed <= inserted.end {
                last.inserted = last.inserted - splice.removed + splice.inserted;
                *tip = serial();
                return;
            }
        }
        if self.splices.len() >= MAX_SPLICES {
            let half = MAX_SPLICES / 2;
            self.forgotten_tip = self.serials[half - 1];
            self.forgotten += half;
            self.splices.drain(..half);
            self.serials.drain(..half);
        }
        self.splices.push(splice);
        self.serials.push(serial());
    }

    /// The documents as they are now.
    pub(super) fn mark(&self) -> DocumentsMark {
        self.marked.store(true, Ordering::Relaxed);
        DocumentsMark {
            origin: self.origin,
            len: self.forgotten + self.splices.len(),
            tip: self.serials.last().copied().unwrap_or(self.forgotten_tip),
        }
    }

    /// The splices since `mark`, in order; `None` when `mark` is not a moment of these
    /// documents (another placement's, a diverged clone's, or forgotten).
    pub(super) fn since(&self, mark: &DocumentsMark) -> Option<&[Splice]> {
        // The splices since `mark` among those remembered.
        let at = mark.len.checked_sub(self.forgotten)?;
        if mark.origin != self.origin || at > self.splices.len() {
            return None;
        }
        let tip = match at {
            0 => self.forgotten_tip,
            n => self.serials[n - 1],
        };
        (tip == mark.tip).then(|| &self.splices[at..])
    }
}

/// A run of documents that no splice touched: documents `old` before the splices are
/// documents `new_start..` after them, in the same order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptRun {
    /// The documents' indices before.
    pub old: Range<usize>,
    /// The index of the first of them after.
    pub new_start: usize,
}

/// The runs of `old_len` documents that `splices` (made in order) left untouched, in
/// order: every document that is still there and was not replaced is in one run.
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{kept_runs, KeptRun, Splice};
///
/// // Of 10 documents, the 4th is replaced by two.
/// let runs = kept_runs(10, &[Splice { at: 3, removed: 1, inserted: 2 }]);
/// assert_eq!(runs, [
///     KeptRun { old: 0..3, new_start: 0 },
///     KeptRun { old: 4..10, new_start: 5 },
/// ]);
/// ```
pub fn kept_runs(old_len: usize, splices: &[Splice]) -> Vec<KeptRun> {
    let mut runs = vec![KeptRun {
        old: 0..old_len,
        new_start: 0,
    }];
    runs.retain(|r| !r.old.is_empty());
    for splice in splices {
        let end = splice.at.saturating_add(splice.removed);
        let shift = |at: usize| (at + splice.inserted).saturating_sub(splice.removed);
        let mut next = Vec::with_capacity(runs.len() + 1);
        for run in runs {
            let new_end = run.new_start + run.old.len();
            // The part before the splice, then the part after it (shifted).
            if run.new_start < splice.at {
                let kept = new_end.min(splice.at) - run.new_start;
                next.push(KeptRun {
                    old: run.old.start..run.old.start + kept,
                    new_start: run.new_start,
                });
            }
            if new_end > end {
                let skip = end.saturating_sub(run.new_start);
                next.push(KeptRun {
                    old: run.old.start + skip..run.old.end,
                    new_start: shift(run.new_start + skip),
                });
            }
        }
        runs = next;
    }
    runs
}
