//! The hash halves held by one document each ([`Duplicates`](super::groups::Duplicates)):
//! one entry per placed document, so the studio's largest table after the per-document ones.

use super::groups::ByHalf;

/// The documents a part holds at most after a [`Singles::reserve`]: 83% of a hash map of
/// 2^14 slots, whose load limit (7/8, 14,336 entries) the parts' random spread (a standard
/// deviation of about 117 entries) then stays below, so no part doubles.
const PART: usize = 13_600;

/// Keys (the high half of an XXH64) to one document index, kept in several hash maps by
/// the key's top bits once [`reserve`](Self::reserve)d for many: a hash map has a
/// power-of-two number of slots, so one map of 1,050,000 entries takes 2^21 slots (9 bytes
/// each: 18.9 MB, 47% used), where 78 maps of 2^14 slots take 11.5 MB; and a part grows
/// alone, never the whole table at once.
#[derive(Debug, Clone)]
pub(super) struct Singles {
    parts: Vec<ByHalf<u32>>,
}

impl Default for Singles {
    fn default() -> Singles {
        Singles {
            parts: vec![ByHalf::default()],
        }
    }
}

impl Singles {
    /// The part of `key`: by its top bits (a multiply-shift), so each part's keys keep
    /// their low bits spread for its hash map.
    fn part(&self, key: u32) -> usize {
        ((u64::from(key) * self.parts.len() as u64) >> 32) as usize
    }

    /// Room for `additional` more entries: parts of at most [`PART`] entries each.
    pub(super) fn reserve(&mut self, additional: usize) {
        let total = self.len().saturating_add(additional);
        let wanted = total.div_ceil(PART).max(1);
        if wanted > self.parts.len() {
            let old = std::mem::take(&mut self.parts);
            self.parts = (0..wanted)
                .map(|_| ByHalf::with_capacity_and_hasher(total / wanted + 1, Default::default()))
                .collect();
            for (key, index) in old.into_iter().flatten() {
                self.insert(key, index);
            }
        } else {
            let each = additional / self.parts.len() + 1;
            for part in &mut self.parts {
                part.reserve(each);
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        self.parts.iter().map(ByHalf::len).sum()
    }

    pub(super) fn get(&self, key: u32) -> Option<u32> {
        self.parts.get(self.part(key))?.get(&key).copied()
    }

    pub(super) fn insert(&mut self, key: u32, index: u32) {
        let at = self.part(key);
        if let Some(part) = self.parts.get_mut(at) {
            part.insert(key, index);
        }
    }

    pub(super) fn remove(&mut self, key: u32) -> Option<u32> {
        let at = self.part(key);
        self.parts.get_mut(at)?.remove(&key)
    }

    /// Every document index, to renumber.
    pub(super) fn indices_mut(&mut self) -> impl Iterator<Item = &mut u32> {
        self.parts.iter_mut().flat_map(|p| p.values_mut())
    }

    /// Slots of the hash maps.
    pub(super) fn capacity(&self) -> usize {
        self.parts.iter().map(ByHalf::capacity).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn parts_hold_what_one_map_holds() {
        let mut singles = Singles::default();
        let mut one = HashMap::new();
        let key = |i: u32| i.wrapping_mul(0x9E37_79B9);
        for i in 0..1_000u32 {
            singles.insert(key(i), i);
            one.insert(key(i), i);
        }
        singles.reserve(100_000);
        assert!(singles.parts.len() > 1);
        for i in 1_000..50_000u32 {
            singles.insert(key(i), i);
            one.insert(key(i), i);
        }
        for i in (0..50_000u32).step_by(3) {
            assert_eq!(singles.remove(key(i)), one.remove(&key(i)));
        }
        assert_eq!(singles.len(), one.len());
        for i in 0..50_001u32 {
            assert_eq!(singles.get(key(i)), one.get(&key(i)).copied(), "{i}");
        }
    }

    #[test]
    fn a_reserved_table_takes_about_one_slot_and_a_fifth_an_entry() {
        let mut singles = Singles::default();
        singles.reserve(1_050_000);
        let before = singles.capacity();
        for i in 0..1_050_000u32 {
            // XXH64 halves are uniform: so are these.
            singles.insert(i.wrapping_mul(0x9E37_79B9).rotate_left(7), i);
        }
        assert_eq!(singles.capacity(), before, "no part grew");
        assert!(
            singles.capacity() < 1_050_000 * 5 / 4,
            "{}",
            singles.capacity()
        );
    }
}
