//! What the views say when the workspace holds a cluster's bucket statistics instead of
//! documents: which figures are per range of buckets, and which views need IDs.

use super::{State, Tab};

impl State {
    /// The note a view shows above itself when the placement comes from bucket statistics;
    /// `None` for documents, and for the views that show only the configuration.
    pub fn statistics_note(&self, tab: Tab) -> Option<String> {
        let statistics = self.summary().statistics?;
        let needs_ids = match tab {
            Tab::Documents => Some("the documents table"),
            Tab::Groups => Some("anchored groups"),
            Tab::Explain => Some("Explain"),
            Tab::Content => Some("the content rules"),
            Tab::Queries => Some("the query router's documents"),
            Tab::Ranges | Tab::Advisor => return None,
            Tab::Shards | Tab::Nodes | Tab::Map | Tab::Reshard => None,
        };
        if let Some(view) = needs_ids {
            return Some(format!(
                "The workspace holds bucket statistics, which have no document IDs: {view} \
                 needs a document list (an export, JSON, NDJSON, CSV or ID lines). The bucket \
                 map, shards, nodes × shards and resharding views work on the statistics."
            ));
        }
        let (ranges, coarse) = (statistics.ranges, statistics.coarse);
        if coarse == 0 {
            return Some(format!(
                "From the cluster's bucket statistics: {ranges} buckets, every figure per \
                 bucket. There are no document IDs."
            ));
        }
        let mut note = format!(
            "From the cluster's bucket statistics: {coarse} of {ranges} figures are per range \
             of buckets (up to {} buckets), not per bucket. A range's documents and bytes \
             count at its first bucket, in one bin, one shard and one move: ",
            statistics.widest
        );
        note.push_str(if tab == Tab::Reshard {
            "a balance moves each range whole, and the plan's notes list the drill-downs \
             (fromBucket, toBucket, range = (to − from + 1) / 32) that would resolve the ranges \
             that matter."
        } else {
            "import drill-downs (fromBucket, toBucket, range = (to − from + 1) / 32) with the \
             answer to resolve them."
        });
        Some(note)
    }
}
