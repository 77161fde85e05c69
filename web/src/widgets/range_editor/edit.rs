//! The range editor's edits, pure: what an edit of one range makes of the ranges shown, and
//! whether the core accepts it.

use crate::widgets::ranges::{
    assign_shard, merge_with_next, parse_bucket, set_boundary, split_range, RangeEditError,
};
use crate::widgets::validate;
use ravenshard::config::ShardBucketRange;
use ravenshard::Topology;

/// An edit of one range of the editor, as the user made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangeEdit {
    /// Its start typed (the text as typed).
    Start(String),
    /// Its start moved on the bar (its boundary dragged or moved with a key).
    Move(u32),
    /// Given to a shard.
    Shard(u32),
    /// Split at the typed bucket (the text as typed; blank: at its middle).
    Split(String),
    /// Merged with the next range.
    Merge,
}

impl RangeEdit {
    /// The ranges after this edit of range `index` of `ranges`, or why it has no meaning.
    pub fn apply(
        &self,
        ranges: &[ShardBucketRange],
        index: usize,
    ) -> Result<Vec<ShardBucketRange>, RangeEditError> {
        match self {
            RangeEdit::Start(text) => set_boundary(ranges, index, parse_bucket(text)?),
            RangeEdit::Move(start) => set_boundary(ranges, index, *start),
            RangeEdit::Shard(shard) => assign_shard(ranges, index, *shard),
            RangeEdit::Split(text) if text.trim().is_empty() => split_range(ranges, index, None),
            RangeEdit::Split(text) => split_range(ranges, index, Some(parse_bucket(text)?)),
            RangeEdit::Merge => merge_with_next(ranges, index),
        }
    }
}

/// An edit the core refused: the edited ranges, shown, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The ranges shown instead of the topology's.
    pub ranges: Vec<ShardBucketRange>,
    /// The core's message (or why the edit has no meaning).
    pub error: String,
}

/// Checks `edit` of range `index` of `ranges` (the ranges shown) as a change of `topology`:
/// the whole new configuration's JSON to emit, or the draft to show. An edit with no meaning
/// keeps the ranges shown; one the core refuses shows the edited ranges.
pub fn check_edit(
    topology: &Topology,
    ranges: &[ShardBucketRange],
    index: usize,
    edit: &RangeEdit,
) -> Result<String, Draft> {
    let edited = edit.apply(ranges, index).map_err(|e| Draft {
        ranges: ranges.to_vec(),
        error: e.to_string(),
    })?;
    let mut config = topology.to_configuration();
    config.bucket_ranges = edited.clone();
    validate(topology, config).map_err(|error| Draft {
        ranges: edited,
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges_of(json: &str) -> Vec<u32> {
        let topology = Topology::from_json(json).expect("the JSON the editor emits is valid");
        let config = topology.to_configuration();
        config
            .bucket_ranges
            .iter()
            .map(|r| r.bucket_range_start)
            .collect()
    }

    #[test]
    fn a_valid_edit_gives_the_configuration_to_emit() {
        let topology = Topology::with_shards(3).unwrap();
        let ranges = topology.to_configuration().bucket_ranges;
        let json = check_edit(&topology, &ranges, 0, &RangeEdit::Split(" ".into())).unwrap();
        assert_eq!(ranges_of(&json).len(), ranges.len() + 1);
        let json = check_edit(&topology, &ranges, 1, &RangeEdit::Move(400_000)).unwrap();
        assert_eq!(ranges_of(&json)[1], 400_000);
        let typed = check_edit(&topology, &ranges, 1, &RangeEdit::Start("400000".into()));
        assert_eq!(typed, Ok(json));
        let json = check_edit(&topology, &ranges, 0, &RangeEdit::Shard(2)).unwrap();
        let shards = Topology::from_json(&json)
            .unwrap()
            .to_configuration()
            .bucket_ranges;
        assert_eq!(shards[0].shard_number, 2);
    }

    #[test]
    fn an_edit_without_meaning_keeps_the_ranges_shown() {
        let topology = Topology::with_shards(2).unwrap();
        let ranges = topology.to_configuration().bucket_ranges;
        let draft = check_edit(&topology, &ranges, 0, &RangeEdit::Start("ten".into())).unwrap_err();
        assert_eq!(draft.ranges, ranges);
        assert!(!draft.error.is_empty());
        let draft = check_edit(&topology, &ranges, 0, &RangeEdit::Split("x".into())).unwrap_err();
        assert_eq!(draft.ranges, ranges);
    }

    #[test]
    fn an_edit_the_core_refuses_shows_the_edited_ranges() {
        let topology = Topology::with_shards(3).unwrap();
        let ranges = topology.to_configuration().bucket_ranges;
        // A start below the one before it overlaps.
        let draft = check_edit(&topology, &ranges, 2, &RangeEdit::Start("100".into())).unwrap_err();
        assert_eq!(draft.ranges[2].bucket_range_start, 100);
        assert!(
            draft.error.contains("BucketRanges[2].BucketRangeStart"),
            "{}",
            draft.error
        );
        assert!(draft.error.contains("overlaps"), "{}", draft.error);
    }
}
