//! The studio's views, one folder per tab: `views/<key>/` holds the tab's components, its
//! [`View`] (how it draws its tab from the [`State`], what it says when the workspace holds
//! bucket statistics) and, when it has one, its sub-state with its actions (pure, tested
//! natively). [`state`] puts every sub-state together ([`State`], [`Action`](state::Action));
//! [`Dispatch`] carries the callbacks a view is given.
//!
//! A new view is a folder here, a [`Tab`] variant (its key, label and place in the bar
//! derived from it) and its arm in [`view`]. Views use [`widgets`](crate::widgets),
//! [`jobs`](crate::jobs), the [`workers`](crate::workers)' clients and the shared
//! [`state`](crate::state); nothing below imports a view.

pub mod advisor;
pub mod content;
mod dispatch;
pub mod documents;
pub mod explain;
pub mod groups;
pub mod map;
pub mod nodes;
pub mod queries;
pub mod ranges;
pub mod readiness;
pub mod reshard;
pub mod shards;
pub mod state;

pub use dispatch::Dispatch;

use crate::state::Tab;
use state::State;
use yew::Html;

/// What the studio needs of a view: its page, and what it says of bucket statistics.
pub struct View {
    /// The tab's page, with its part of the state and the callbacks of its actions.
    pub page: fn(&State, &Dispatch) -> Html,
    /// What the view says when the workspace holds bucket statistics.
    pub statistics: OnStatistics,
}

/// What a view says when the workspace holds a cluster's bucket statistics instead of
/// documents ([`State::statistics_note`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnStatistics {
    /// Nothing: the view shows only the configuration.
    Unaffected,
    /// The view needs document IDs; the note names it so (`"the documents table"`).
    NeedsIds(&'static str),
    /// The view works on the statistics; `coarse` ends the note when some figures are per
    /// range of buckets: what the view does with a range counted at its first bucket.
    Works {
        /// The end of the note on coarse ranges.
        coarse: &'static str,
    },
}

/// The end of the note on coarse ranges for views that only show the figures.
pub const IMPORT_DRILL_DOWNS: &str = "import drill-downs (fromBucket, toBucket, range = \
    (to − from + 1) / 32) with the answer to resolve them.";

/// The view of `tab`.
pub fn view(tab: Tab) -> &'static View {
    match tab {
        Tab::Documents => &documents::VIEW,
        Tab::Map => &map::VIEW,
        Tab::Shards => &shards::VIEW,
        Tab::Nodes => &nodes::VIEW,
        Tab::Groups => &groups::VIEW,
        Tab::Explain => &explain::VIEW,
        Tab::Ranges => &ranges::VIEW,
        Tab::Content => &content::VIEW,
        Tab::Queries => &queries::VIEW,
        Tab::Reshard => &reshard::VIEW,
        Tab::Advisor => &advisor::VIEW,
        Tab::Readiness => &readiness::VIEW,
    }
}
