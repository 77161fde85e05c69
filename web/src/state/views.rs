//! What the views show: the tab, the documents view's filters and sort, the shard chart's
//! measure, the selected anchored group and bucket, and the Explain view's ID (and its
//! explanation, computed by the core when its inputs change). The documents view's rows are
//! the workspace's host's to make: the view asks it for those in sight.

use super::tab::Tab;
use ravenshard::{explain, Explanation, Topology};
use ravenshard_model::workspace::{RowQuery, SortKey, Summary};
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
    /// Explain this document's ID and show the Explain view.
    ExplainDocument(String),
    /// The Explain view's ID field.
    SetExplainId(String),
    /// The documents were placed again (or edited): group numbers and shards may mean
    /// something else. The workspace's summary now, and the topology it is placed by.
    Placed(Rc<Summary>, Rc<Topology>),
    /// Members changed: the documents stay where they were.
    MembersChanged(Rc<Summary>, Rc<Topology>),
    /// Stop waiting for the rows of the query asked: back to `shown`, the query whose rows
    /// the view shows.
    CancelRows(RowQuery),
}

/// From this many documents on, rows that need a pass over the documents (a sort order not
/// made yet, a filter) are made by the workspace's host a step at a time, reporting its
/// progress, rather than in one task: a first sort by ID of 1,000,000 documents is about
/// 100 ms natively, twice that in wasm, and 1.3 s natively at 10,000,000; below this, at
/// most a few milliseconds.
pub const SLICED_ROWS_FROM: usize = 50_000;

/// The views' state over the workspace (what its summary says of it) and the topology it
/// is placed by.
#[derive(Debug, Clone)]
pub struct ViewsState {
    summary: Rc<Summary>,
    topology: Rc<Topology>,
    tab: Tab,
    metric: Metric,
    query: RowQuery,
    selected_group: Option<u32>,
    selected_bucket: Option<u32>,
    explain_id: String,
    explanation: Option<Rc<Result<Explanation, String>>>,
}

impl ViewsState {
    /// The views of a workspace (its summary, and the topology it is placed by) on the
    /// Documents tab; Explain shows `explain_id` (the chapter's anchored order when the
    /// studio opens on the chapter's examples).
    pub fn new(summary: Rc<Summary>, topology: Rc<Topology>, explain_id: String) -> ViewsState {
        let mut views = ViewsState {
            summary,
            topology,
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

    /// The topology the documents shown are placed by.
    pub fn topology(&self) -> &Rc<Topology> {
        &self.topology
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

    fn apply(&mut self, action: ViewAction) {
        let groups = self.summary.groups;
        let groups = || groups;
        match action {
            ViewAction::SelectTab(tab) => self.tab = tab,
            ViewAction::SetMetric(metric) => self.metric = metric,
            ViewAction::SetFilterText(text) => self.query.text = text,
            ViewAction::SetFilterShard(shard) => {
                let shard = shard.filter(|s| self.topology.shard(*s).is_some());
                self.query.shard = shard;
            }
            ViewAction::SetFilterGroup(group) => {
                self.query.group = group.filter(|g| (*g as usize) < groups());
            }
            ViewAction::SortBy(key) => {
                if self.query.sort == key {
                    self.query.descending = !self.query.descending;
                } else {
                    self.query.sort = key;
                    self.query.descending = false;
                }
            }
            ViewAction::SelectGroup(group) => {
                self.selected_group = group.filter(|g| (*g as usize) < groups());
            }
            ViewAction::SelectBucket(bucket) => {
                self.selected_bucket = bucket.filter(|b| u64::from(*b) < self.summary.bucket_space);
            }
            ViewAction::ShowGroupDocuments(group) => {
                if (group as usize) < groups() {
                    self.selected_group = Some(group);
                    self.query.group = Some(group);
                    self.query.shard = None;
                    self.query.text.clear();
                    self.tab = Tab::Documents;
                }
            }
            ViewAction::ExplainDocument(id) => {
                self.explain_id = id;
                self.refresh_explanation();
                self.tab = Tab::Explain;
            }
            ViewAction::SetExplainId(id) => {
                if id != self.explain_id {
                    self.explain_id = id;
                    self.refresh_explanation();
                }
            }
            ViewAction::Placed(summary, topology) => self.placed(summary, topology),
            ViewAction::MembersChanged(summary, topology) => {
                (self.summary, self.topology) = (summary, topology);
                self.refresh_explanation();
            }
            ViewAction::CancelRows(shown) => self.query = shown,
        }
    }

    /// A new placement: group numbers, shards and buckets may mean something else now.
    fn placed(&mut self, summary: Rc<Summary>, topology: Rc<Topology>) {
        (self.summary, self.topology) = (summary, topology);
        self.selected_group = None;
        self.query.group = None;
        if let Some(shard) = self.query.shard {
            if self.topology.shard(shard).is_none() {
                self.query.shard = None;
            }
        }
        if let Some(bucket) = self.selected_bucket {
            if u64::from(bucket) >= self.summary.bucket_space {
                self.selected_bucket = None;
            }
        }
        self.refresh_explanation();
    }

    fn refresh_explanation(&mut self) {
        self.explanation = (!self.explain_id.is_empty()).then(|| {
            let explained = explain(&self.explain_id, Some(&self.topology));
            Rc::new(explained.map_err(|e| e.to_string()))
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
