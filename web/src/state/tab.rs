//! The tab list: the studio's views, in display order (the variants' order), each with its
//! key (ids `tab-<key>`, the address `#/<key>`, test selectors, the saved studio), its label
//! and its [`Group`] in the tab bar, derived from the variant (strum). A new view is a
//! variant here (in its group's run), its folder `views/<key>/`, and its arm in
//! `views::view`.

use std::str::FromStr;
use strum::{
    Display, EnumIter, EnumMessage, EnumProperty, EnumString, IntoEnumIterator, IntoStaticStr,
};

/// The views of the workspace, in display order; a group's views follow each other.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Display,
    EnumIter,
    EnumMessage,
    EnumProperty,
    EnumString,
    IntoStaticStr,
)]
#[strum(serialize_all = "lowercase")]
pub enum Tab {
    /// Every document (the view the studio opens on).
    #[default]
    #[strum(message = "Documents", props(group = "documents"))]
    Documents,
    /// Anchored groups.
    #[strum(message = "Anchored groups", props(group = "documents"))]
    Groups,
    /// The steps from one ID to its shard.
    #[strum(message = "Explain", props(group = "documents"))]
    Explain,
    /// The buckets of each block, coloured by shard, with the documents as marks.
    #[strum(message = "Bucket map", props(group = "placement"))]
    Map,
    /// Shards (fragments): cards and a bar chart.
    #[strum(message = "Shards", props(group = "placement"))]
    Shards,
    /// Nodes × shards.
    #[strum(message = "Nodes × shards", props(group = "placement"))]
    Nodes,
    /// Bucket ranges, prefixes and the configuration's JSON.
    #[strum(message = "Ranges & prefixes", props(group = "placement"))]
    Ranges,
    /// The draft chapter's content rules: generated IDs and rejected writes.
    #[strum(message = "Content rules", props(group = "design"))]
    Content,
    /// The query router and the transaction check.
    #[strum(message = "Queries", props(group = "design"))]
    Queries,
    /// Plans of bucket moves to a target configuration, balancing and the migration.
    #[strum(message = "Resharding", props(group = "operate"))]
    Reshard,
    /// The sharding advisor over an export, run in the studio's worker.
    #[strum(message = "Advisor", props(group = "operate"))]
    Advisor,
    /// Before sharding: what of a database record, its indexes and queries breaks or
    /// changes once sharded (`ravenshard check`), run in the studio's worker.
    #[strum(message = "Readiness", props(group = "operate"))]
    Readiness,
}

/// The tab bar's groups of views, in display order: the bar shows the groups, and the
/// tabs of the group of the view shown.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, EnumIter, EnumMessage, EnumString, IntoStaticStr,
)]
#[strum(serialize_all = "lowercase")]
pub enum Group {
    /// The documents, their anchored groups and one ID's path to its shard.
    #[default]
    #[strum(message = "Documents")]
    Documents,
    /// Where the buckets and the documents are: the map, shards, nodes, ranges and prefixes.
    #[strum(message = "Placement")]
    Placement,
    /// The chapter's design: content rules and queries.
    #[strum(message = "Design")]
    Design,
    /// Changing a sharded database: resharding, the advisor and the readiness check.
    #[strum(message = "Operate")]
    Operate,
}

impl Group {
    /// Every group, in display order.
    pub fn all() -> impl Iterator<Item = Group> {
        Group::iter()
    }

    /// The group's label.
    pub fn label(self) -> &'static str {
        // Every variant has a message (the tests check).
        self.get_message().unwrap_or_default()
    }

    /// A stable key, for ids (`group-<key>`): the variant in lower case.
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// The group's views, in display order.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::state::tab::{Group, Tab};
    /// let design: Vec<Tab> = Group::Design.tabs().collect();
    /// assert_eq!(design, [Tab::Content, Tab::Queries]);
    /// ```
    pub fn tabs(self) -> impl Iterator<Item = Tab> {
        Tab::all().filter(move |t| t.group() == self)
    }

    /// The view a click on the group shows: its first.
    pub fn first(self) -> Tab {
        self.tabs().next().unwrap_or_default()
    }
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

    /// A stable key, for ids (`tab-<key>`), the address (`#/<key>`) and test selectors:
    /// the variant in lower case (also its `Display`).
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// The tab bar's group the view is in (its `group` property).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::state::tab::{Group, Tab};
    /// assert_eq!(Tab::Nodes.group(), Group::Placement);
    /// ```
    pub fn group(self) -> Group {
        // Every variant names a group (the tests check).
        self.get_str("group")
            .and_then(|key| Group::from_str(key).ok())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::{Group, Tab};
    use strum::EnumProperty;

    #[test]
    fn every_tab_has_a_label_and_its_own_key() {
        let all: Vec<Tab> = Tab::all().collect();
        for (i, tab) in all.iter().enumerate() {
            assert!(!tab.label().is_empty(), "{tab:?} has no label");
            assert!(all[i + 1..].iter().all(|t| t.key() != tab.key()));
            assert!(all[i + 1..].iter().all(|t| t.label() != tab.label()));
            assert_eq!(Tab::from_key(tab.key()), Some(*tab));
            assert_eq!(tab.to_string(), tab.key());
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
                "groups",
                "explain",
                "map",
                "shards",
                "nodes",
                "ranges",
                "content",
                "queries",
                "reshard",
                "advisor",
                "readiness"
            ]
        );
        let labels: Vec<&str> = Tab::all().map(Tab::label).collect();
        assert_eq!(labels[5], "Nodes × shards");
        assert_eq!(labels[6], "Ranges & prefixes");
    }

    #[test]
    fn every_tab_names_a_group_and_each_group_is_one_run_of_tabs() {
        for tab in Tab::all() {
            let named = tab.get_str("group").and_then(|g| g.parse::<Group>().ok());
            assert_eq!(named, Some(tab.group()), "{tab:?}");
        }
        // Walking the tabs in order meets the groups in order, each once.
        let mut runs: Vec<Group> = Tab::all().map(Tab::group).collect();
        runs.dedup();
        assert_eq!(runs, Group::all().collect::<Vec<_>>());
        for group in Group::all() {
            assert!(!group.label().is_empty());
            assert_eq!(group.first().group(), group);
            assert_eq!(group.key().parse::<Group>().ok(), Some(group));
        }
        assert_eq!(Group::Placement.first(), Tab::Map);
        assert_eq!(Group::Operate.tabs().count(), 3);
    }
}
