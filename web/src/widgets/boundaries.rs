//! The boundaries between a block's bucket ranges, free of the DOM: where each one is, how
//! far it may move, and where a key press moves it.
//!
//! A boundary is the start of a range that follows another range of the same block. Moving
//! it gives buckets from one neighbour to the other; it stays strictly between the previous
//! range's start and the range's end, so that neither range becomes empty and the boundary
//! never leaves the block. The move itself is [`set_boundary`](super::ranges::set_boundary),
//! checked by the core like any edit.

use super::geometry::BLOCK_LEN;
use super::ranges::{block_of, range_end, ranges_in_block};
use ravenshard::config::ShardBucketRange;

/// How far ArrowLeft and ArrowRight move a boundary: one bucket.
pub const KEY_STEP: u32 = 1;

/// How far Shift+ArrowLeft and Shift+ArrowRight move a boundary: 1% of a block, rounded
/// down (10,485 buckets).
pub const KEY_STEP_LARGE: u32 = (BLOCK_LEN / 100) as u32;

/// The boundary at the start of range `index`, and how far it may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Boundary {
    /// The range whose start this boundary is (the range after the boundary).
    pub index: usize,
    /// Where the boundary is: the first bucket of range `index`.
    pub at: u32,
    /// The lowest bucket it may move to: one after the previous range's start.
    pub min: u32,
    /// The highest bucket it may move to: one before range `index`'s end.
    pub max: u32,
}

impl Boundary {
    /// The boundary at the start of range `index`: `None` when the range does not exist, is
    /// the first of its block (its start is the block's, not a boundary), or, in an invalid
    /// list, has no room to move between its neighbours.
    pub fn of(ranges: &[ShardBucketRange], index: usize) -> Option<Boundary> {
        let at = ranges.get(index)?.bucket_range_start;
        let previous = ranges.get(index.checked_sub(1)?)?.bucket_range_start;
        if block_of(previous) != block_of(at) {
            return None;
        }
        let min = u64::from(previous) + 1;
        let max = range_end(ranges, index)?.checked_sub(1)?;
        if min > max {
            return None;
        }
        Some(Boundary {
            index,
            at,
            min: u32::try_from(min).ok()?,
            max: u32::try_from(max).ok()?,
        })
    }

    /// `bucket` moved as little as needed to lie in `min..=max`.
    pub fn clamp(&self, bucket: u64) -> u32 {
        let clamped = bucket.clamp(u64::from(self.min), u64::from(self.max));
        u32::try_from(clamped).unwrap_or(self.max)
    }

    /// Where a key press moves the boundary: ArrowLeft and ArrowRight by [`KEY_STEP`] (by
    /// [`KEY_STEP_LARGE`] with Shift), Home and End to the lowest and highest bucket it may
    /// take. `None` for another key, or when the boundary would not move.
    pub fn moved_by_key(&self, key: &str, shift: bool) -> Option<u32> {
        let step = u64::from(if shift { KEY_STEP_LARGE } else { KEY_STEP });
        let at = u64::from(self.at);
        let to = match key {
            "ArrowLeft" => self.clamp(at.saturating_sub(step)),
            "ArrowRight" => self.clamp(at + step),
            "Home" => self.min,
            "End" => self.max,
            _ => return None,
        };
        (to != self.at).then_some(to)
    }
}

/// The boundaries of block `block`, left to right in list order.
pub fn boundaries_in_block(ranges: &[ShardBucketRange], block: u32) -> Vec<Boundary> {
    ranges_in_block(ranges, block)
        .into_iter()
        .filter_map(|index| Boundary::of(ranges, index))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::ranges::fixtures::{r, three};
    use super::*;
    use ravenshard::NUMBER_OF_BUCKETS as B;

    #[test]
    fn boundaries_stay_strictly_between_their_neighbours() {
        let ranges = three();
        let b = boundaries_in_block(&ranges, 0);
        assert_eq!(
            b,
            vec![
                Boundary {
                    index: 1,
                    at: 349525,
                    min: 1,
                    max: 699049
                },
                Boundary {
                    index: 2,
                    at: 699050,
                    min: 349526,
                    max: B - 1
                },
            ]
        );
        let prefix = boundaries_in_block(&ranges, 1);
        assert_eq!(prefix.len(), 1);
        assert_eq!((prefix[0].min, prefix[0].max), (B + 1, 2 * B - 1));
        // The first range of a block starts the block: no boundary.
        assert_eq!(Boundary::of(&ranges, 0), None);
        assert_eq!(Boundary::of(&ranges, 3), None);
        assert_eq!(Boundary::of(&ranges, 9), None);
        assert!(boundaries_in_block(&ranges, 7).is_empty());
    }

    #[test]
    fn boundaries_of_invalid_lists_do_not_panic() {
        // Out of order: range 1 has no room after range 0's start.
        let unordered = vec![r(500, 0), r(10, 1), r(20, 2)];
        assert_eq!(Boundary::of(&unordered, 1), None);
        assert_eq!(Boundary::of(&unordered, 2).map(|b| b.min), Some(11));
        // The last block of all: its end is u32::MAX + 1.
        let last = vec![r(u32::MAX - 9, 0), r(u32::MAX - 1, 1)];
        let b = Boundary::of(&last, 1).unwrap();
        assert_eq!((b.min, b.max), (u32::MAX - 8, u32::MAX));
        assert_eq!(b.clamp(u64::MAX), u32::MAX);
    }

    #[test]
    fn clamping_keeps_both_ranges_non_empty() {
        let b = Boundary::of(&three(), 1).unwrap();
        assert_eq!(b.clamp(0), 1);
        assert_eq!(b.clamp(400_000), 400_000);
        assert_eq!(b.clamp(699050), 699049);
        assert_eq!(b.clamp(u64::MAX), 699049);
    }

    #[test]
    fn keys_move_by_one_bucket_or_one_percent() {
        assert_eq!(KEY_STEP_LARGE, 10_485);
        let b = Boundary::of(&three(), 1).unwrap();
        assert_eq!(b.moved_by_key("ArrowLeft", false), Some(349524));
        assert_eq!(b.moved_by_key("ArrowRight", false), Some(349526));
        assert_eq!(b.moved_by_key("ArrowLeft", true), Some(339040));
        assert_eq!(b.moved_by_key("ArrowRight", true), Some(360010));
        assert_eq!(b.moved_by_key("Home", false), Some(1));
        assert_eq!(b.moved_by_key("End", false), Some(699049));
        assert_eq!(b.moved_by_key("Enter", false), None);
        // At a limit, the key is clamped there, or does nothing.
        let near = Boundary { at: 5, ..b };
        assert_eq!(near.moved_by_key("ArrowLeft", true), Some(1));
        let at_min = Boundary { at: 1, ..b };
        assert_eq!(at_min.moved_by_key("ArrowLeft", false), None);
        assert_eq!(at_min.moved_by_key("Home", false), None);
        let at_max = Boundary { at: 699049, ..b };
        assert_eq!(at_max.moved_by_key("ArrowRight", true), None);
    }
}
