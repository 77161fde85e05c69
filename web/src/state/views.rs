//! What the views show: the tab, the documents view's filters and sort (and its rows), the
//! shard chart's measure, the selected anchored group and bucket, and the Explain view's ID
//! (and its explanation). Rows and the explanation are computed by the core when their
//! inputs change.

use super::live::Live;
use super::tab::Tab;
use super::workspace::LastEdit;
use ravenshard::{explain, Explanation};
use ravenshard_model::workspace::{Placement, RowQuery, RowView, SortKey};
use std::cell::OnceCell;
use std::rc::Rc;
use yew::Reducible;

/// What the shard bar chart measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Documents per shard.
    #[default]
    Documents,
    /// Known bytes per shard.
    Bytes,
}

/// What the user does in the views; `Placed` and `MembersChanged` come from the studio's
/// state when the documents are placed again.
#[derive(Debug, Clone)]
pub enum ViewAction {
    /// Show a view.
    SelectTab(Tab),
    /// What the shard chart measures.
    SetMetric(Metric),
    /// Keep documents whose ID contains this text.
    SetFilterText(String),
    /// Keep documents on this shard (`None`: all).
    SetFilterShard(Option<u32>),
    /// Keep documents of this anchored group (`None`: all).
    SetFilterGroup(Option<u32>),
    /// Sort the documents by this key (again: reverse the order).
    SortBy(SortKey),
    /// Select an anchored group (the bucket map highlights it), or none.
    SelectGroup(Option<u32>),
    /// Select a bucket (the bucket map lists its documents), or none.
    SelectBucket(Option<u32>),
    /// Show the documents of an anchored group.
    ShowGroupDocuments(u32),
    /// Explain this document (by index) and show the Explain view.
    ExplainDocument(u32),
    /// The Explain view's ID field.
    SetExplainId(String),
    /// The documents were placed again: group numbers and shards may mean something else.
    Placed(Live<Placement>),
    /// The ID editor edited the documents ([`Placed`](ViewAction::Placed), and what the
    /// edit replaced): rows made just before it follow the edit.
    Edited(Live<Placement>, LastEdit),
    /// Members changed: the documents stay where they were.
    MembersChanged(Live<Placement>),
    /// A rows job ([`components::rows_job`](crate::components::rows_job)) made progress on
    /// the rows of `query` over the placement at `version`.
    RowsProgress {
        /// The placement's version the job reads.
        version: u64,
        /// The query.
        query: RowQuery,
        /// Work done and to do (documents).
        done: u64,
        /// Work to do in all.
        total: u64,
    },
    /// Stop making the rows wanted: back to the query whose rows were shown before (or,
    /// when the documents changed since, every document in input order).
    CancelRows,
    /// A rows job made the rows of `query` over the placement at `version`: they are shown
    /// when both are still the views' (a late job's rows are dropped).
    RowsMade {
        /// The placement's version the job read.
        version: u64,
        /// The query.
        query: RowQuery,
        /// The rows.
        rows: Rc<RowView>,
    },
}

/// From this many documents on, rows that need a pass over the documents (a sort order not
/// made yet, a filter) are made by a job a slice at a time
/// ([`components::rows_job`](crate::components::rows_job)) rather than in the render that
/// reads them: a first sort by ID of 1,000,000 documents is about 100 ms natively, twice
/// that in wasm, and 1.3 s natively at 10,000,000; below this, at most a few milliseconds.
pub const SLICED_ROWS_FROM: usize = 50_000;

/// Rows made for a query over the placement at a version.
#[derive(Debug, Clone)]
struct Made {
    rows: Rc<RowView>,
    query: RowQuery,
    version: u64,
}

/// The views' state over one placement of the documents.
#[derive(Debug, Clone)]
pub struct ViewsState {
    placement: Live<Placement>,
    tab: Tab,
    metric: Metric,
    query: RowQuery,
    /// The documents view's rows, made when first read after a change (an edit does not
    /// list a million rows for a view that is not shown), or given by a rows job.
    rows: OnceCell<Made>,
    /// The rows made last: shown while a job makes the new ones, and back again when it
    /// is cancelled.
    previous: Option<Made>,
    /// A rows job's progress (done, total) on the rows wanted now.
    progress: Option<(u64, u64)>,
    /// From how many documents on the rows are made by a job ([`SLICED_ROWS_FROM`]).
    sliced_from: usize,
    selected_group: Option<u32>,
    selected_bucket: Option<u32>,
    explain_id: String,
    explanation: Option<Rc<Result<Explanation, String>>>,
}

impl ViewsState {
    /// The views of `placement` on the Documents tab; Explain shows its third document (the
    /// chapter's anchored order when the studio opens on the chapter's examples).
    pub fn new(placement: Live<Placement>) -> ViewsState {
        let explain_id = placement.get().id(2).unwrap_or_default().to_string();
        let mut views = ViewsState {
            rows: OnceCell::new(),
            previous: None,
            progress: None,
            sliced_from: SLICED_ROWS_FROM,
            placement,
            tab: Tab::default(),
            metric: Metric::default(),
            query: RowQuery::default(),
            selected_group: None,
            selected_bucket: None,
            explain_id,
            explanation: None,
        };
        views.refresh_explanation();
        views
    }

    /// The placement the views show, now.
    pub fn placement(&self) -> Rc<Placement> {
        self.placement.get()
    }

    /// The handle on the placement the views show.
    pub fn placement_handle(&self) -> Live<Placement> {
        self.placement.clone()
    }

    /// The view shown.
    pub fn tab(&self) -> Tab {
        self.tab
    }

    /// What the shard chart measures.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The documents view's query.
    pub fn query(&self) -> &RowQuery {
        &self.query
    }

    /// The same views, whose rows are made by a job from `documents` documents on (tests).
    pub fn with_sliced_from(mut self, documents: usize) -> ViewsState {
        self.sliced_from = documents;
        self.refresh_rows();
        self
    }

    /// The documents view's rows (indices into the placement), made when first read after
    /// a change; while a job makes them ([`rows_wanted`](Self::rows_wanted)), the rows
    /// made last (their indices may be past the documents: read them with `get`).
    pub fn rows(&self) -> Rc<RowView> {
        if let Some(made) = self.rows.get() {
            return Rc::clone(&made.rows);
        }
        if self.rows_wanted().is_some() {
            return self
                .previous
                .as_ref()
                .map(|m| Rc::clone(&m.rows))
                .unwrap_or_default();
        }
        let made = self.rows.get_or_init(|| Made {
            rows: Rc::new(self.placement.get().rows(&self.query)),
            query: self.query.clone(),
            version: self.placement.version(),
        });
        Rc::clone(&made.rows)
    }

    /// The query whose rows a job must make (a pass over a large placement), with the
    /// placement's version it must read; `None` when the rows are made or at hand.
    pub fn rows_wanted(&self) -> Option<(RowQuery, u64)> {
        if self.rows.get().is_some() {
            return None;
        }
        let p = self.placement.get();
        let at_once = p.len() < self.sliced_from || p.rows_at_hand(&self.query);
        (!at_once).then(|| (self.query.clone(), self.placement.version()))
    }

    /// The progress (done, total) of the job making the rows wanted, once it reported.
    pub fn rows_progress(&self) -> Option<(u64, u64)> {
        self.progress.filter(|_| self.rows.get().is_none())
    }

    /// The anchored group the bucket map highlights.
    pub fn selected_group(&self) -> Option<u32> {
        self.selected_group
    }

    /// The bucket whose documents the bucket map lists.
    pub fn selected_bucket(&self) -> Option<u32> {
        self.selected_bucket
    }

    /// The Explain view's ID field.
    pub fn explain_id(&self) -> &str {
        &self.explain_id
    }

    /// The explanation of that ID (`None` when the field is empty).
    pub fn explanation(&self) -> Option<&Rc<Result<Explanation, String>>> {
        self.explanation.as_ref()
    }

    /// The IDs of the first `most` documents the documents view shows, one per line.
    pub fn shown_ids(&self, most: usize) -> String {
        let mut text = String::new();
        for i in self.rows().slice(0, most) {
            if let Some(id) = self.placement.get().id(i as usize) {
                text.push_str(id);
                text.push('\n');
            }
        }
        text
    }

    fn apply(&mut self, action: ViewAction) {
        let groups = || self.placement.get().group_count();
        match action {
            ViewAction::SelectTab(tab) => self.tab = tab,
            ViewAction::SetMetric(metric) => self.metric = metric,
            ViewAction::SetFilterText(text) => {
                if text != self.query.text {
                    self.query.text = text;
                    self.refresh_rows();
                }
            }
            ViewAction::SetFilterShard(shard) => {
                let shard = shard.filter(|s| self.placement.get().topology().shard(*s).is_some());
                if shard != self.query.shard {
                    self.query.shard = shard;
                    self.refresh_rows();
                }
            }
            ViewAction::SetFilterGroup(group) => {
                let group = group.filter(|g| (*g as usize) < groups());
                if group != self.query.group {
                    self.query.group = group;
                    self.refresh_rows();
                }
            }
            ViewAction::SortBy(key) => {
                if self.query.sort == key {
                    self.query.descending = !self.query.descending;
                } else {
                    self.query.sort = key;
                    self.query.descending = false;
                }
                self.refresh_rows();
            }
            ViewAction::SelectGroup(group) => {
                self.selected_group = group.filter(|g| (*g as usize) < groups());
            }
            ViewAction::SelectBucket(bucket) => {
                self.selected_bucket =
                    bucket.filter(|b| u64::from(*b) < self.placement.get().bucket_space());
            }
            ViewAction::ShowGroupDocuments(group) => {
                if (group as usize) < groups() {
                    self.selected_group = Some(group);
                    self.query.group = Some(group);
                    self.query.shard = None;
                    self.query.text.clear();
                    self.refresh_rows();
                    self.tab = Tab::Documents;
                }
            }
            ViewAction::ExplainDocument(index) => {
                if let Some(id) = self.placement.get().id(index as usize) {
                    self.explain_id = id.to_string();
                    self.refresh_explanation();
                    self.tab = Tab::Explain;
                }
            }
            ViewAction::SetExplainId(id) => {
                if id != self.explain_id {
                    self.explain_id = id;
                    self.refresh_explanation();
                }
            }
            ViewAction::Placed(placement) => self.placed(placement, None),
            ViewAction::Edited(placement, edit) => self.placed(placement, Some(edit)),
            ViewAction::MembersChanged(placement) => {
                self.placement = placement;
                self.refresh_explanation();
            }
            ViewAction::RowsProgress {
                version,
                query,
                done,
                total,
            } => {
                if self.is_wanted(version, &query) {
                    self.progress = Some((done, total));
                }
            }
            ViewAction::CancelRows => {
                if self.rows_wanted().is_some() {
                    match self.previous.take() {
                        Some(made) if made.version == self.placement.version() => {
                            self.query = made.query.clone();
                            self.rows = OnceCell::from(made);
                        }
                        _ => self.query = RowQuery::default(),
                    }
                    self.progress = None;
                }
            }
            ViewAction::RowsMade {
                version,
                query,
                rows,
            } => {
                if self.is_wanted(version, &query) {
                    self.rows = OnceCell::from(Made {
                        rows,
                        query,
                        version,
                    });
                    self.progress = None;
                }
            }
        }
    }

    /// A new placement: group numbers, shards and buckets may mean something else now.
    fn placed(&mut self, placement: Live<Placement>, edit: Option<LastEdit>) {
        let same_cell = self.placement.same_cell(&placement);
        self.placement = placement;
        self.selected_group = None;
        self.query.group = None;
        let placement = self.placement.get();
        if let Some(shard) = self.query.shard {
            if placement.topology().shard(shard).is_none() {
                self.query.shard = None;
            }
        }
        if let Some(bucket) = self.selected_bucket {
            if u64::from(bucket) >= placement.bucket_space() {
                self.selected_bucket = None;
            }
        }
        match edit.filter(|_| same_cell).and_then(|e| self.follow(e)) {
            Some(made) => self.rows = OnceCell::from(made),
            None => self.refresh_rows(),
        }
        self.refresh_explanation();
    }

    /// The rows made just before `edit` (and for the query now), following it:
    /// O(rows + edited documents) rather than a pass over every document.
    fn follow(&self, edit: LastEdit) -> Option<Made> {
        let made = self.rows.get()?;
        if made.version + 1 != edit.version || made.query != self.query {
            return None;
        }
        let p = self.placement.get();
        let rows = p.rows_after_edit(
            &self.query,
            &made.rows,
            edit.at,
            edit.removed,
            edit.inserted,
        )?;
        Some(Made {
            rows: Rc::new(rows),
            query: self.query.clone(),
            version: edit.version,
        })
    }

    /// Whether a job's rows of `query` over the placement at `version` are the ones wanted.
    fn is_wanted(&self, version: u64, query: &RowQuery) -> bool {
        self.rows.get().is_none() && version == self.placement.version() && *query == self.query
    }

    fn refresh_rows(&mut self) {
        if let Some(made) = self.rows.take() {
            self.previous = Some(made);
        }
        self.progress = None;
    }

    fn refresh_explanation(&mut self) {
        self.explanation = (!self.explain_id.is_empty()).then(|| {
            let placement = self.placement.get();
            let topology = placement.topology();
            Rc::new(explain(&self.explain_id, Some(topology)).map_err(|e| e.to_string()))
        });
    }
}

impl Reducible for ViewsState {
    type Action = ViewAction;

    fn reduce(self: Rc<Self>, action: ViewAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
