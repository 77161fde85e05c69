//! What the views say when the workspace holds a cluster's bucket statistics instead of
//! documents: which figures are per range of buckets, and which views need IDs (each view
//! says which it is: [`View::statistics`](crate::views::View::statistics)).

use super::State;
use crate::state::Tab;
use crate::views::{view, OnStatistics};

impl State {
    /// The note a view shows above itself when the placement comes from bucket statistics;
    /// `None` for documents, and for the views that show only the configuration.
    pub fn statistics_note(&self, tab: Tab) -> Option<String> {
        let statistics = self.summary().statistics?;
        let coarse_end = match view(tab).statistics {
            OnStatistics::Unaffected => return None,
            OnStatistics::NeedsIds(view) => {
                return Some(format!(
                    "The workspace holds bucket statistics, which have no document IDs: {view} \
                     needs a document list (an export, JSON, NDJSON, CSV or ID lines). The \
                     bucket map, shards, nodes × shards and resharding views work on the \
                     statistics."
                ))
            }
            OnStatistics::Works { coarse } => coarse,
        };
        let (ranges, coarse) = (statistics.ranges, statistics.coarse);
        if coarse == 0 {
            return Some(format!(
                "From the cluster's bucket statistics: {ranges} buckets, every figure per \
                 bucket. There are no document IDs."
            ));
        }
        Some(format!(
            "From the cluster's bucket statistics: {coarse} of {ranges} figures are per range \
             of buckets (up to {} buckets), not per bucket. A range's documents and bytes \
             count at its first bucket, in one bin, one shard and one move: {coarse_end}",
            statistics.widest
        ))
    }
}
