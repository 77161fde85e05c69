//! The documents view's rows made a step at a time ([`RowsJob`]): the sort order when the
//! placement has not made it yet ([`Sorting`]), then the filter, a number of documents a
//! step. [`Placement::rows`] runs the same job to the end; the studio runs it in slices of
//! a few milliseconds when the placement is large, so that a sort or a filter of ten
//! million documents never holds the page in one task.

use super::orders::Order;
use super::rows::{RowQuery, RowView, SortKey};
use super::sorting::Sorting;
use super::{shard_of, Placement};
use ravenshard::{lower_id, push_lower_id};
use std::fmt;
use std::sync::Arc;

/// The placement given to [`RowsJob::step`] is not the one the job began with: its
/// documents changed. Start a new job on the placement as it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacementChanged;

impl fmt::Display for PlacementChanged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the documents changed while their rows were being made: start the rows again")
    }
}

impl std::error::Error for PlacementChanged {}

/// The rows of a [`RowQuery`], made a step at a time: give each [`step`](RowsJob::step)
/// the placement the job was made from, unchanged, and an amount of work (in documents);
/// the last step returns the same [`RowView`] as [`Placement::rows`]. A sort order made on
/// the way is kept by the placement (as `rows` keeps it), so the next query by that key
/// needs no job.
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{Document, Placement, RowQuery, SortKey};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(3).unwrap();
/// let docs = ["b", "C", "a", "c$a"].map(Document::new);
/// let p = Placement::new(&docs, &t, &Default::default());
/// let query = RowQuery { sort: SortKey::Id, text: "C".into(), ..Default::default() };
/// assert!(!p.rows_at_hand(&query));
/// let mut job = p.rows_job(&query);
/// let rows = loop {
///     if let Some(rows) = job.step(&p, 1).unwrap() {
///         break rows;
///     }
///     let (done, total) = job.progress();
///     assert!(done < total);
/// };
/// assert_eq!(rows.slice(0, 4), [1, 3]);
/// assert_eq!(rows, p.rows(&query));
/// ```
pub struct RowsJob {
    query: RowQuery,
    len: usize,
    stage: Stage,
}

enum Stage {
    /// Making the sort order first.
    Sort(Box<Sorting>),
    /// Keeping the documents the filter takes, in the order.
    Filter(Filtering),
    /// Done (the rows were given).
    Done,
}

/// What a filter keeps: the document's shard, its group (its key in the group table) and
/// text in its lowered ID.
pub(super) struct Filter {
    text: String,
    shard: Option<u32>,
    group: Option<u32>,
}

impl Filter {
    /// The filter of `query`; `None` when it names a shard or a group that does not exist
    /// (it keeps nothing).
    pub(super) fn new(p: &Placement, query: &RowQuery) -> Option<Filter> {
        let shard = match query.shard {
            Some(s) => p.shard_position(s).map(|_| Some(s)),
            None => Some(None),
        };
        let group = match query.group {
            Some(rank) => p.groups.key_at(rank).map(Some),
            None => Some(None),
        };
        shard.zip(group).map(|(shard, group)| Filter {
            text: lower_id(&query.text).into_owned(),
            shard,
            group,
        })
    }

    /// Whether it keeps every document.
    pub(super) fn keeps_all(&self) -> bool {
        self.text.is_empty() && self.shard.is_none() && self.group.is_none()
    }

    /// Whether it keeps document `i` (`scratch` holds its lowered ID after, when read).
    pub(super) fn keeps(&self, p: &Placement, i: u32, scratch: &mut String) -> bool {
        let bucket = p.store.bucket(i as usize);
        let ranges = p.topology.ranges();
        self.shard
            .is_none_or(|s| bucket.and_then(|b| shard_of(ranges, b)) == Some(s))
            && self
                .group
                .is_none_or(|g| p.store.groups.get(i as usize) == Some(&g))
            && (self.text.is_empty() || {
                scratch.clear();
                let version = p.topology.server_version();
                push_lower_id(scratch, p.id(i as usize).unwrap_or(""), version);
                scratch.contains(self.text.as_str())
            })
    }
}

/// The filter's pass over the order.
struct Filtering {
    /// `None`: the query names a shard or group that does not exist, and keeps nothing.
    filter: Option<Filter>,
    /// The sort order (`None`: input order).
    order: Option<Arc<Order>>,
    /// The next position in the order.
    at: usize,
    kept: Vec<u32>,
    /// A lowered ID.
    scratch: String,
}

impl RowsJob {
    pub(super) fn new(p: &Placement, query: &RowQuery) -> RowsJob {
        let stage = match p.orders.made(query.sort) {
            Some(None) if query.sort != SortKey::Index => {
                Stage::Sort(Box::new(Sorting::new(p, query.sort)))
            }
            made => Stage::Filter(Filtering::new(p, query, made.flatten())),
        };
        RowsJob {
            query: query.clone(),
            len: p.len(),
            stage,
        }
    }

    /// The query whose rows the job makes.
    pub fn query(&self) -> &RowQuery {
        &self.query
    }

    /// Work done and to do, in documents (a sort reads, merges and, by ID, checks each
    /// document: three units; a filter one).
    pub fn progress(&self) -> (u64, u64) {
        let n = self.len as u64;
        let filter = if self.filtered() { n } else { 0 };
        match &self.stage {
            Stage::Sort(sorting) => {
                let (done, total) = sorting.progress();
                (done, total + filter)
            }
            Stage::Filter(f) => {
                let sorted = if self.query.sort == SortKey::Index {
                    0
                } else {
                    3 * n
                };
                (sorted + f.at as u64, sorted + filter)
            }
            Stage::Done => (1, 1),
        }
    }

    fn filtered(&self) -> bool {
        !self.query.text.is_empty() || self.query.shard.is_some() || self.query.group.is_some()
    }

    /// Does about `work` documents' worth of the job; the rows once they are made.
    ///
    /// # Errors
    ///
    /// [`PlacementChanged`] when `p` is not the placement the job was made from.
    pub fn step(
        &mut self,
        p: &Placement,
        work: usize,
    ) -> Result<Option<RowView>, PlacementChanged> {
        if p.len() != self.len {
            return Err(PlacementChanged);
        }
        let work = work.max(1);
        match &mut self.stage {
            Stage::Sort(sorting) => {
                if let Some(order) = sorting.step(p, work).ok_or(PlacementChanged)? {
                    let order = p.orders.keep(self.query.sort, order);
                    self.stage = Stage::Filter(Filtering::new(p, &self.query, order));
                }
                Ok(None)
            }
            Stage::Filter(filtering) => {
                let rows = filtering.step(p, &self.query, work);
                if rows.is_some() {
                    self.stage = Stage::Done;
                }
                Ok(rows)
            }
            Stage::Done => Ok(Some(RowView::default())),
        }
    }

    /// Runs the job to its end.
    pub(super) fn finish(mut self, p: &Placement) -> RowView {
        loop {
            match self.step(p, usize::MAX) {
                Ok(Some(rows)) => return rows,
                Ok(None) => {}
                Err(PlacementChanged) => return RowView::default(),
            }
        }
    }
}

impl Filtering {
    fn new(p: &Placement, query: &RowQuery, order: Option<Arc<Order>>) -> Filtering {
        Filtering {
            filter: Filter::new(p, query),
            order,
            at: 0,
            kept: Vec::new(),
            scratch: String::new(),
        }
    }

    /// How many positions the order has (every document in input order).
    fn positions(&self, n: usize) -> usize {
        self.order.as_ref().map_or(n, |o| o.documents.len())
    }

    /// The document at position `at`: the documents with the value reversed when
    /// descending (those without stay last, in input order).
    fn document_at(&self, n: usize, at: usize, descending: bool) -> Option<u32> {
        match &self.order {
            None => u32::try_from(if descending {
                n.checked_sub(at + 1)?
            } else {
                at
            })
            .ok(),
            Some(order) => {
                let at = if descending && at < order.present {
                    order.present - 1 - at
                } else {
                    at
                };
                order.documents.get(at).copied()
            }
        }
    }

    fn step(&mut self, p: &Placement, query: &RowQuery, work: usize) -> Option<RowView> {
        let n = p.len();
        let Some(f) = &self.filter else {
            return Some(RowView::default());
        };
        if f.keeps_all() {
            return Some(RowView::unfiltered(n, self.order.take(), query.descending));
        }
        let end = self.at.saturating_add(work).min(self.positions(n));
        for at in self.at..end {
            let (Some(i), Some(f)) = (self.document_at(n, at, query.descending), &self.filter)
            else {
                continue;
            };
            if f.keeps(p, i, &mut self.scratch) {
                self.kept.push(i);
            }
        }
        self.at = end;
        (end == self.positions(n)).then(|| RowView::kept(std::mem::take(&mut self.kept)))
    }
}
