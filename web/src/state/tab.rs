//! The tab list: the studio's views, in display order, with their labels and keys. A new
//! view gets a variant here and its arm in `components::tabs::tab_view`.

/// The views of the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    /// Shards (fragments): cards and a bar chart.
    Shards,
    /// Nodes × shards.
    Nodes,
    /// Anchored groups.
    Groups,
    /// Every document (the view the studio opens on).
    #[default]
    Documents,
    /// The steps from one ID to its shard.
    Explain,
    /// The buckets of each block, coloured by shard, with the documents as marks.
    Map,
    /// Bucket ranges, prefixes and the configuration's JSON.
    Ranges,
    /// The draft chapter's content rules: generated IDs and rejected writes.
    Content,
    /// The query router and the transaction check.
    Queries,
    /// Plans of bucket moves to a target configuration, balancing and the migration.
    Reshard,
    /// The sharding advisor over an export, run in the studio's worker.
    Advisor,
}

impl Tab {
    /// Every tab, in display order.
    pub const ALL: [Tab; 11] = [
        Tab::Documents,
        Tab::Map,
        Tab::Shards,
        Tab::Nodes,
        Tab::Groups,
        Tab::Explain,
        Tab::Ranges,
        Tab::Content,
        Tab::Queries,
        Tab::Reshard,
        Tab::Advisor,
    ];

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            Tab::Shards => "Shards",
            Tab::Nodes => "Nodes × shards",
            Tab::Groups => "Anchored groups",
            Tab::Documents => "Documents",
            Tab::Explain => "Explain",
            Tab::Map => "Bucket map",
            Tab::Ranges => "Ranges & prefixes",
            Tab::Content => "Content rules",
            Tab::Queries => "Queries",
            Tab::Reshard => "Resharding",
            Tab::Advisor => "Advisor",
        }
    }

    /// The tab of a [`key`](Tab::key), if any.
    pub fn from_key(key: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|tab| tab.key() == key)
    }

    /// A stable key, for ids (`tab-<key>`) and test selectors.
    pub fn key(self) -> &'static str {
        match self {
            Tab::Shards => "shards",
            Tab::Nodes => "nodes",
            Tab::Groups => "groups",
            Tab::Documents => "documents",
            Tab::Explain => "explain",
            Tab::Map => "map",
            Tab::Ranges => "ranges",
            Tab::Content => "content",
            Tab::Queries => "queries",
            Tab::Reshard => "reshard",
            Tab::Advisor => "advisor",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Tab;

    #[test]
    fn every_tab_is_listed_once_with_its_own_key() {
        for (i, tab) in Tab::ALL.iter().enumerate() {
            assert!(!tab.label().is_empty());
            assert!(Tab::ALL[i + 1..].iter().all(|t| t.key() != tab.key()));
            assert_eq!(Tab::from_key(tab.key()), Some(*tab));
        }
        assert!(Tab::ALL.contains(&Tab::default()));
    }
}
