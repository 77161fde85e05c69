//! The studio's reusable controls: editors of the sharding configuration and the bucket
//! map, and the helpers every component uses ([`ByPtr`], [`with_value`], [`shard_style`],
//! the host's answers as a hook, [`answer`]).
//!
//! Standalone components: each takes the validated [`Topology`] (and, for the map, the
//! [`Placement`](ravenshard_model::workspace::Placement)) as an `Rc` and reports a change as a
//! **whole new configuration**, RavenDB `ShardingConfiguration` JSON text, through a
//! `Callback<String>`. The App validates that text with [`Topology::from_json`] and applies
//! it or shows the error.
//!
//! * [`BucketMap`]: a canvas of the 2^20 buckets of a block, coloured by shard, with the
//!   documents as ticks or a density histogram; zoom, pan, hover and click.
//! * [`RangeEditor`]: split, merge, move (type a start, drag a boundary or move it with the
//!   keys) and reassign bucket ranges.
//! * [`PrefixEditor`]: add, remove and change prefixed sharding settings.
//! * [`ConfigJson`]: the configuration as editable JSON, with copy, download and import.
//! * [`ContentRulesEditor`]: the draft "Sharding" chapter's `ByContent` rules (not shipped
//!   RavenDB): add, change and remove rules, turn the design off and on.
//!
//! The editors check every edit with the core before emitting it
//! ([`Topology::from_configuration`]): an invalid edit is shown with the core's message
//! (RavenDB's wording, with the JSON path, in an [`EditorMessages`]) and is not emitted. The logic they need is in
//! plain functions, tested natively: [`geometry`], [`ranges`], [`boundaries`], `ravenshard_reshard::prefixes`,
//! [`rules`].

pub mod answer;
pub mod boundaries;
mod bucket_map;
mod checked_edits;
mod config_json;
mod content_rules;
mod dom;
mod editor_error;
pub mod geometry;
mod highlighted_id;
mod prefix_editor;
mod range_bar;
mod range_editor;
pub mod ranges;
pub mod rules;

pub use crate::numbers::{bytes, count, percent, plural};
pub use bucket_map::{BucketMap, BucketMapProps, MapDocuments};
pub use config_json::{ConfigJson, ConfigJsonProps};
pub use content_rules::{ContentRulesEditor, ContentRulesEditorProps};
pub use dom::{drag_handlers, on_value, shard_style, value_of, with_value, ByPtr};
pub use editor_error::{EditorError, EditorErrorProps, EditorMessages, EditorMessagesProps};
pub use highlighted_id::{HighlightedId, HighlightedIdProps};
pub use prefix_editor::{PrefixEditor, PrefixEditorProps};
pub use range_editor::{RangeEditor, RangeEditorProps};

use ravenshard::config::ShardingConfiguration;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use web_sys::Element;
use yew::NodeRef;

/// The shard colours, indexed by shard number modulo their count: Tableau-like hues that
/// stay apart from each other and from [`UNOWNED_COLOUR`] and readable on white.
pub const SHARD_PALETTE: [&str; 12] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#8cd17d", "#86bcb6", "#d37295",
];

/// The colour of buckets that no range owns (a block no prefix owns).
pub const UNOWNED_COLOUR: &str = "#d9dde3";

/// The colour of a shard: [`SHARD_PALETTE`]`[shard % 12]`. The bucket map and the range
/// editor use it; the App can use it too so that a shard looks the same everywhere.
///
/// ```
/// use ravenshard_studio::widgets::shard_colour;
///
/// assert_eq!(shard_colour(0), "#4e79a7");
/// assert_eq!(shard_colour(12), shard_colour(0));
/// ```
pub fn shard_colour(shard: u32) -> &'static str {
    SHARD_PALETTE[shard as usize % SHARD_PALETTE.len()]
}

/// A 2^20 block of buckets: the default one or a prefix's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockInfo {
    /// The block's first bucket.
    pub start: u32,
    /// `"default"` or the prefix.
    pub label: String,
    /// The prefix's shards; `None` for the default block (all shards).
    pub shards: Option<Vec<u32>>,
}

impl BlockInfo {
    /// The block's number (its first bucket over 2^20).
    pub fn number(&self) -> u32 {
        self.start / NUMBER_OF_BUCKETS
    }
}

/// The blocks of a topology, in bucket order: the default block, then each prefix's.
pub fn blocks(topology: &Topology) -> Vec<BlockInfo> {
    let mut out = vec![BlockInfo {
        start: 0,
        label: "default".to_string(),
        shards: None,
    }];
    out.extend(topology.prefixes().iter().map(|p| BlockInfo {
        start: p.bucket_range_start,
        label: p.prefix.clone(),
        shards: Some(p.shards.clone()),
    }));
    out.sort_by_key(|b| b.start);
    out
}

/// Checks an edited configuration with the core, under the topology's database name: the
/// configuration's JSON (pretty, as [`Topology::to_json`]) when it is valid, else the core's
/// message (with the JSON path).
pub fn validate(topology: &Topology, config: ShardingConfiguration) -> Result<String, String> {
    Topology::from_configuration(config, topology.database(), "")
        .map(|t| t.to_json())
        .map_err(|e| e.to_string())
}

/// The pointer's x in CSS pixels from the left edge of the element `node` refers to, and the
/// element's width; `None` when it is not in the page or has no width.
pub(crate) fn pointer_x(node: &NodeRef, client_x: i32) -> Option<(f64, f64)> {
    let rect = node.cast::<Element>()?.get_bounding_client_rect();
    let width = rect.width();
    (width > 0.0).then(|| (f64::from(client_x) - rect.left(), width))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_is_distinct_and_cycles() {
        let mut seen = SHARD_PALETTE.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), SHARD_PALETTE.len());
        assert!(!SHARD_PALETTE.contains(&UNOWNED_COLOUR));
        assert_eq!(shard_colour(13), shard_colour(1));
        assert_eq!(
            shard_colour(u32::MAX),
            SHARD_PALETTE[(u32::MAX % 12) as usize]
        );
    }

    #[test]
    fn blocks_are_in_bucket_order() {
        let json = r#"{"Shards": {"0": {}, "1": {}},
            "Prefixed": [{"Prefix": "a/", "Shards": [0]}, {"Prefix": "b/", "Shards": [1]}]}"#;
        let t = Topology::from_json(json).unwrap();
        let b = blocks(&t);
        let labels: Vec<&str> = b.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, vec!["default", "b/", "a/"]);
        assert_eq!(b[2].number(), 2);
        assert_eq!(b[1].shards, Some(vec![1]));
    }

    #[test]
    fn validate_keeps_the_database_and_reports_paths() {
        let mut t = Topology::with_shards(2).unwrap();
        t.set_database("Orders");
        let json = validate(&t, t.to_configuration()).unwrap();
        assert_eq!(Topology::from_json(&json).unwrap().ranges(), t.ranges());
        let mut config = t.to_configuration();
        config.bucket_ranges[1].shard_number = 9;
        let err = validate(&t, config).unwrap_err();
        assert!(err.starts_with("BucketRanges[1].ShardNumber:"), "{err}");
    }
}
