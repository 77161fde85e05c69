//! The tab list: the studio's views, in display order (the variants' order), each with its
//! key (ids `tab-<key>`, test selectors, the saved studio) and its label, derived from the
//! variant (strum). A new view is a variant here, its folder `views/<key>/`, and its arm
//! in `views::view`.

use std::str::FromStr;
use strum::{EnumIter, EnumMessage, EnumString, IntoEnumIterator, IntoStaticStr};

/// The views of the workspace, in display order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, EnumIter, EnumMessage, EnumString, IntoStaticStr,
)]
#[strum(serialize_all = "lowercase")]
pub enum Tab {
    /// Every document (the view the studio opens on).
    #[default]
    #[strum(message = "Documents")]
    Documents,
    /// The buckets of each block, coloured by shard, with the documents as marks.
    #[strum(message = "Bucket map")]
    Map,
    /// Shards (fragments): cards and a bar chart.
    #[strum(message = "Shards")]
    Shards,
    /// Nodes × shards.
    #[strum(message = "Nodes × shards")]
    Nodes,
    /// Anchored groups.
    #[strum(message = "Anchored groups")]
    Groups,
    /// The steps from one ID to its shard.
    #[strum(message = "Explain")]
    Explain,
    /// Bucket ranges, prefixes and the configuration's JSON.
    #[strum(message = "Ranges & prefixes")]
    Ranges,
    /// The draft chapter's content rules: generated IDs and rejected writes.
    #[strum(message = "Content rules")]
    Content,
    /// The query router and the transaction check.
    #[strum(message = "Queries")]
    Queries,
    /// Plans of bucket moves to a target configuration, balancing and the migration.
    #[strum(message = "Resharding")]
    Reshard,
    /// The sharding advisor over an export, run in the studio's worker.
    #[strum(message = "Advisor")]
    Advisor,
    /// Before sharding: what of a database record, its indexes and queries breaks or
    /// changes once sharded (`ravenshard check`), run in the studio's worker.
    #[strum(message = "Readiness")]
    Readiness,
}

impl Tab {
    /// Every tab, in display order.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::state::Tab;
    /// assert_eq!(Tab::all().next(), Some(Tab::Documents));
    /// assert_eq!(Tab::all().count(), 12);
    /// ```
    pub fn all() -> impl Iterator<Item = Tab> {
        Tab::iter()
    }

    /// The tab's label.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ravenshard_studio::state::Tab::Nodes.label(), "Nodes × shards");
    /// ```
    pub fn label(self) -> &'static str {
        // Every variant has a message (the test below checks).
        self.get_message().unwrap_or_default()
    }

    /// The tab of a [`key`](Tab::key), if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::state::Tab;
    /// assert_eq!(Tab::from_key("reshard"), Some(Tab::Reshard));
    /// assert_eq!(Tab::from_key("Reshard"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<Tab> {
        Tab::from_str(key).ok()
    }

    /// A stable key, for ids (`tab-<key>`) and test selectors: the variant in lower case.
    pub fn key(self) -> &'static str {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::Tab;

    #[test]
    fn every_tab_has_a_label_and_its_own_key() {
        let all: Vec<Tab> = Tab::all().collect();
        for (i, tab) in all.iter().enumerate() {
            assert!(!tab.label().is_empty(), "{tab:?} has no label");
            assert!(all[i + 1..].iter().all(|t| t.key() != tab.key()));
            assert!(all[i + 1..].iter().all(|t| t.label() != tab.label()));
            assert_eq!(Tab::from_key(tab.key()), Some(*tab));
        }
        assert_eq!(all[0], Tab::default());
    }

    #[test]
    fn keys_are_the_ones_saved_studios_and_scripts_use() {
        let keys: Vec<&str> = Tab::all().map(Tab::key).collect();
        assert_eq!(
            keys,
            [
                "documents",
                "map",
                "shards",
                "nodes",
                "groups",
                "explain",
                "ranges",
                "content",
                "queries",
                "reshard",
                "advisor",
                "readiness"
            ]
        );
        let labels: Vec<&str> = Tab::all().map(Tab::label).collect();
        assert_eq!(labels[3], "Nodes × shards");
        assert_eq!(labels[6], "Ranges & prefixes");
    }
}
