//! Stable sorting with a single copy of the sorting code.
//!
//! The standard library's `sort_by` and `sort_unstable` are compiled again for every element
//! type and comparison, 3 to 5 KB of WebAssembly each; the studio sorted about twenty types,
//! 70 KB in all. These functions sort the positions of the elements instead, through one
//! comparison callback, so that there is one copy of the sort, and then move each element
//! once into its place. They are for the studio's code size, not for speed: prefer the
//! standard library where neither matters.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, stably (equal elements keep their order), as
/// `slice::sort_by` does.
///
/// # Examples
///
/// ```
/// use ravenshard::sort::sort_by;
///
/// let mut words = vec!["pear", "Fig", "apple", "fig"];
/// sort_by(&mut words, |a, b| a.to_lowercase().cmp(&b.to_lowercase()));
/// assert_eq!(words, ["apple", "Fig", "fig", "pear"]);
/// ```
pub fn sort_by<T>(items: &mut Vec<T>, mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = sorted_positions(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    // `order` holds each position once, so every element is taken exactly once.
    items.extend(
        order
            .into_iter()
            .filter_map(|i| slots.get_mut(i).and_then(Option::take)),
    );
}

/// Sorts `items` by the key `key` gives each, stably, as `slice::sort_by_key` does.
///
/// # Examples
///
/// ```
/// use ravenshard::sort::sort_by_key;
///
/// let mut shards = vec![(2, "b"), (0, "a"), (2, "a")];
/// sort_by_key(&mut shards, |&(shard, _)| shard);
/// assert_eq!(shards, [(0, "a"), (2, "b"), (2, "a")]);
/// ```
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in ascending order, as `slice::sort` does.
///
/// # Examples
///
/// ```
/// use ravenshard::sort::sort;
///
/// let mut starts = vec![699050, 0, 349525];
/// sort(&mut starts);
/// assert_eq!(starts, [0, 349525, 699050]);
/// ```
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

/// The positions `0..len` in the stable order that `compare` (given two positions) defines:
/// the one instance of the standard library's sort behind this module.
fn sorted_positions(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library_and_keeps_equal_elements_in_order() {
        let items: Vec<(u32, usize)> = (0..500usize).map(|i| ((i * 7919 % 31) as u32, i)).collect();
        let mut ours = items.clone();
        sort_by_key(&mut ours, |&(key, _)| key);
        let mut std = items;
        std.sort_by_key(|&(key, _)| key);
        assert_eq!(ours, std);
    }

    #[test]
    fn moves_owned_elements() {
        let mut names: Vec<String> = ["b", "c", "a"].iter().map(|s| s.to_string()).collect();
        sort(&mut names);
        assert_eq!(names, ["a", "b", "c"]);
        let mut empty: Vec<String> = Vec::new();
        sort(&mut empty);
        assert!(empty.is_empty());
    }
}
