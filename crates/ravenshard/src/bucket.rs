//! The bucket of a document ID: lower-case, escape control characters, anchor, XXH64,
//! modulo 2^20.

use crate::casing::lower_into;
use crate::lowered::has_control_byte;
use crate::xxh64_lowered::{self, lower_word, short_word, xxh64_lowered, xxh64_lowered_while};
use crate::{check_id, lower_id_with, IdError, ServerVersion, MAX_ID_BYTES};
use xxhash_rust::xxh64::xxh64;

/// How many buckets a sharded RavenDB database has: 2^20 = 1,048,576.
pub const NUMBER_OF_BUCKETS: u32 = 1 << 20;

/// The bucket of every ID that ends with `$` (the hash of the empty string).
pub const EMPTY_ANCHOR_BUCKET: u32 = 584_089;

/// Where the hashed part of a lowered ID ([`lower_id`](crate::lower_id)) begins: just after the last `$` at an index
/// greater than 0, or 0 when there is none. A `$` at index 0 is an ordinary character.
///
/// # Examples
///
/// ```
/// use ravenshard::anchor_start;
///
/// assert_eq!(anchor_start(b"orders/2-a$customers/1-a"), 11);
/// assert_eq!(anchor_start(b"a$b$c"), 4);
/// assert_eq!(anchor_start(b"$foo"), 0);
/// assert_eq!(anchor_start(b"foo$"), 4);
/// ```
#[inline]
pub fn anchor_start(lower: &[u8]) -> usize {
    // UTF-8 continuation bytes are never 0x24, so a byte search finds only real '$'.
    match lower.iter().skip(1).rposition(|&b| b == b'$') {
        Some(i) => i + 2,
        None => 0,
    }
}

/// XXH64 with seed 0, the hash RavenDB takes of the hashed part of a lowered ID.
///
/// # Examples
///
/// ```
/// use ravenshard::{bucket_of_hash, hash_of_key};
///
/// assert_eq!(bucket_of_hash(hash_of_key(b"customers/1-a")), 982173);
/// ```
#[inline]
pub fn hash_of_key(key: &[u8]) -> u64 {
    xxh64(key, 0)
}

/// The bucket of a hash: the hash modulo 2^20.
#[inline]
pub fn bucket_of_hash(hash: u64) -> u32 {
    (hash % u64::from(NUMBER_OF_BUCKETS)) as u32
}

/// The hash RavenDB computes for a lowered ID ([`lower_id`](crate::lower_id)): of the
/// hashed part only (see [`anchor_start`]).
#[inline]
pub fn hash_of_lower(lower: &[u8]) -> u64 {
    hash_of_key(&lower[anchor_start(lower)..])
}

/// The bucket of a lowered ID ([`lower_id`](crate::lower_id): lower-cased, control
/// characters escaped), before any prefix offset.
///
/// # Examples
///
/// ```
/// use ravenshard::bucket_of_lower;
///
/// assert_eq!(bucket_of_lower(b"customers/1-a"), 982173);
/// assert_eq!(bucket_of_lower(b"orders/2-a$customers/1-a"), 982173);
/// ```
#[inline]
pub fn bucket_of_lower(lower: &[u8]) -> u32 {
    bucket_of_hash(hash_of_lower(lower))
}

/// Character range `[start, end)` of the hashed part of an ID, counted in the ID as given:
/// after its last `$` at an index greater than 0. Lower-casing and escaping neither add nor
/// remove a `$`, so this is the part whose lowered form is hashed.
///
/// # Examples
///
/// ```
/// use ravenshard::hashed_chars;
///
/// assert_eq!(hashed_chars("Orders/2-A$Customers/1-A"), [11, 24]);
/// assert_eq!(hashed_chars("É$\u{1}x"), [2, 4]);
/// ```
pub fn hashed_chars(id: &str) -> [usize; 2] {
    let start = anchor_start(id.as_bytes());
    if id.is_ascii() {
        [start, id.len()]
    } else {
        let before = id[..start].chars().count();
        [before, before + id[start..].chars().count()]
    }
}

/// The bucket (0..2^20) of a document ID, as a RavenDB 7.x server computes it, before any
/// prefix offset (see [`Topology::bucket_for`](crate::Topology::bucket_for) for that).
///
/// # Examples
///
/// ```
/// use ravenshard::bucket_for;
///
/// assert_eq!(bucket_for("orders/1-A"), Ok(151326));
/// assert_eq!(bucket_for("Users/70$Users/4"), bucket_for("users/4"));
/// assert!(bucket_for("").is_err());
/// // Control characters are hashed as `\u00XX`.
/// assert_eq!(bucket_for("a\u{1}b"), Ok(231705));
/// ```
#[inline]
pub fn bucket_for(id: &str) -> Result<u32, IdError> {
    bucket_for_with(id, ServerVersion::V7)
}

/// [`bucket_for`] under a given server version's rule for control characters.
#[inline]
pub fn bucket_for_with(id: &str, version: ServerVersion) -> Result<u32, IdError> {
    hashed_for_with(id, version).map(|hashed| bucket_of_hash(hashed.hash))
}

/// What placing an ID computes: the XXH64 of its hashed part, and whether it is anchored
/// (its hashed part is the text after a `$`, see [`anchor_start`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hashed {
    /// The XXH64 of the lowered hashed part.
    pub(crate) hash: u64,
    /// Whether the hashed part is an anchor rather than the whole ID.
    pub(crate) anchored: bool,
}

/// [`Hashed`] of an ID under a server version's rule for control characters: the path of
/// [`bucket_for_with`], which is this hash modulo 2^20.
#[inline]
pub(crate) fn hashed_for_with(id: &str, version: ServerVersion) -> Result<Hashed, IdError> {
    check_id(id)?;
    let bytes = id.as_bytes();
    // One pass over the ID's 8-byte words both hashes them, lower-cased in a register
    // (`xxh64_lowered`: no lowered copy is written and read back), and notes what they hold
    // (`Seen`). It stops at the first word with a non-ASCII byte (the table path takes
    // over) or a `$` after index 0; then the rest is only scanned for the last `$` and
    // hashed from there. Almost every ID has neither and is read once.
    let mut seen = Seen::default();
    let mut last = 0;
    let whole = xxh64_lowered_while(bytes, 0, |w, at| {
        seen.note(w, at);
        last = at;
        seen.after_dollar <= 1 && seen.high & Seen::HIGH == 0
    });
    let plain = |hash| Hashed {
        hash,
        anchored: false,
    };
    match whole {
        Some(hash) if seen.controls & Seen::HIGH == 0 => return Ok(plain(hash)),
        Some(_) => {}
        None if seen.high & Seen::HIGH != 0 => return Ok(hashed_non_ascii(id, version)),
        // Anchored: the words after the one that stopped the hash.
        None => for_each_word(bytes, last + 8, |w, at| seen.note(w, at)),
    }
    match seen.finish() {
        Some(Ascii::Plain { anchor }) => Ok(Hashed {
            hash: xxh64_lowered(bytes, anchor),
            anchored: anchor > 0,
        }),
        // Rare: lowered and escaped by the reference path (the escaping rule is the same in
        // 6.2 and 7.x for ASCII IDs).
        Some(Ascii::WithControls) => Ok(hashed_lower(lower_id_with(id, version).as_bytes())),
        None => Ok(hashed_non_ascii(id, version)),
    }
}

/// [`Hashed`] of a lowered ID.
fn hashed_lower(lower: &[u8]) -> Hashed {
    let start = anchor_start(lower);
    Hashed {
        hash: hash_of_key(lower.get(start..).unwrap_or_default()),
        anchored: start > 0,
    }
}

/// Most IDs fit a buffer this small, which is cheaper to set up than a 512-byte one.
const SHORT: usize = 48;

/// [`Hashed`] of an ID with non-ASCII characters: lower-cased through the BMP table into a
/// stack buffer ([`lower_into`]), no allocation. An ID with a control character (rare) takes
/// the full path, which escapes it as the server version does.
#[inline(never)]
fn hashed_non_ascii(id: &str, version: ServerVersion) -> Hashed {
    fn hash_in(id: &str, buffer: &mut [u8]) -> Option<Hashed> {
        let n = lower_into(id, buffer)?;
        buffer.get(..n).map(hashed_lower)
    }
    let fast = if has_control_byte(id.as_bytes()) {
        None
    } else if id.len() <= SHORT {
        hash_in(id, &mut [0u8; 3 * SHORT])
    } else {
        hash_in(id, &mut [0u8; 3 * MAX_ID_BYTES])
    };
    fast.unwrap_or_else(|| hashed_lower(lower_id_with(id, version).as_bytes()))
}

/// Calls `f` with the lowered ID ([`lower_id_with`]), lowered into a stack buffer when it
/// is short and has no control character (almost every ID), so without allocating.
#[inline]
pub(crate) fn with_lowered<R>(id: &str, version: ServerVersion, f: impl FnOnce(&str) -> R) -> R {
    with_lowered_bytes(id, version, |lower| match std::str::from_utf8(lower) {
        Ok(lower) => f(lower),
        Err(_) => f(&lower_id_with(id, version)),
    })
}

/// [`with_lowered`] for a reader that needs only the bytes of the lowered ID: they are not
/// checked as UTF-8 again (lowering a `str` gives UTF-8).
#[inline]
pub(crate) fn with_lowered_bytes<R>(
    id: &str,
    version: ServerVersion,
    f: impl FnOnce(&[u8]) -> R,
) -> R {
    let mut buffer = [0u8; 3 * SHORT];
    if id.len() <= SHORT {
        let written = match lower_ascii(id.as_bytes(), &mut buffer) {
            Some(Ascii::Plain { .. }) => Some(id.len()),
            Some(Ascii::WithControls) => None,
            None if has_control_byte(id.as_bytes()) => None,
            None => lower_into(id, &mut buffer),
        };
        if let Some(lower) = written.and_then(|n| buffer.get(..n)) {
            return f(lower);
        }
    }
    f(lower_id_with(id, version).as_bytes())
}

/// What [`lower_ascii`] and [`bucket_for_with`] found in an all-ASCII ID.
enum Ascii {
    /// No control character: the hashed part starts at `anchor`.
    Plain { anchor: usize },
    /// A byte below 0x20, which may need escaping.
    WithControls,
}

/// Calls `f(word, at)` for the 8-byte little-endian words of `from` at `at = first,
/// first + 8, ...` (`first` a multiple of 8), the last one ending at the end of `from`
/// (overlapping the one before: looking at a byte twice is harmless); the words
/// [`xxh64_lowered_while`] reads from 0. An ID shorter than 8 bytes is one word at 0,
/// padded with spaces (not upper-case, not `$`, not a control character).
#[inline(always)]
fn for_each_word(from: &[u8], first: usize, mut f: impl FnMut(u64, usize)) {
    let n = from.len();
    if n < 8 {
        if first == 0 {
            f(
                short_word(from) | (Seen::ONES * u64::from(b' ')) << (8 * n),
                0,
            );
        }
        return;
    }
    let mut start = first;
    while start < n {
        let at = start.min(n - 8);
        if let Some(word) = from.get(at..).and_then(|w| w.first_chunk::<8>()) {
            f(u64::from_le_bytes(*word), at);
        }
        start = at + 8;
    }
}

/// `to = from` with ASCII `A`-`Z` lower-cased, using SWAR on 8-byte words, and the start of
/// the hashed part (as [`anchor_start`]). `None` if `from` is not all ASCII (then `to` holds
/// garbage). `to` is at least as long as `from`.
///
/// An ID of 8 bytes or more is read in whole words, the last one overlapping the one before
/// (lower-casing a byte twice gives the same byte), so there is no byte-at-a-time tail.
/// Inlined into its callers so that what it saw stays in registers.
#[inline(always)]
fn lower_ascii(from: &[u8], to: &mut [u8]) -> Option<Ascii> {
    let n = from.len();
    let mut seen = Seen::default();
    if n < 8 {
        // Padded with spaces: not upper-case, not `$`, not a control character.
        let mut word = [b' '; 8];
        word.get_mut(..n)?.copy_from_slice(from);
        let word = u64::from_le_bytes(word);
        seen.note(word, 0);
        let lowered = lower_word(word);
        to.get_mut(..n)?
            .copy_from_slice(lowered.to_le_bytes().get(..n)?);
    } else {
        let mut start = 0;
        loop {
            let at = start.min(n - 8);
            let word: &[u8; 8] = from.get(at..)?.first_chunk()?;
            let word = u64::from_le_bytes(*word);
            seen.note(word, at);
            let lowered = lower_word(word);
            *to.get_mut(at..)?.first_chunk_mut::<8>()? = lowered.to_le_bytes();
            if at + 8 == n {
                break;
            }
            start += 8;
        }
    }
    seen.finish()
}

/// What [`lower_ascii`] and [`bucket_for_with`] saw in the words of an ID so far.
#[derive(Default)]
struct Seen {
    /// The OR of every word: some high bit set when a byte is not ASCII.
    high: u64,
    /// The high bit of some byte is set once some byte below 0x20 was seen.
    controls: u64,
    /// One past the last `$` seen, or 0.
    after_dollar: usize,
}

impl Seen {
    const ONES: u64 = xxh64_lowered::ONES;
    const HIGH: u64 = xxh64_lowered::HIGH;
    const LOW: u64 = Self::ONES * 0x7F;

    /// Notes word `w` (the bytes at `at..at + 8`, later words never starting before
    /// earlier ones).
    #[inline(always)]
    fn note(&mut self, w: u64, at: usize) {
        let ones = Self::ONES;
        self.high |= w;
        self.controls |= w.wrapping_sub(ones * 0x20) & !w;
        // Exactly the bytes equal to '$' get their high bit set.
        let x = w ^ (ones * u64::from(b'$'));
        let dollars = !(((x & Self::LOW).wrapping_add(Self::LOW)) | x | Self::LOW);
        if dollars != 0 {
            // A later word ends later, so a `$` in it is after every `$` seen before.
            let last = 7 - dollars.leading_zeros() as usize / 8;
            self.after_dollar = at + last + 1;
        }
    }

    fn finish(self) -> Option<Ascii> {
        if self.high & Self::HIGH != 0 {
            return None;
        }
        if self.controls & Self::HIGH != 0 {
            return Some(Ascii::WithControls);
        }
        // A `$` at index 0 is an ordinary character; being the last `$`, it is also the
        // only one.
        let anchor = if self.after_dollar > 1 {
            self.after_dollar
        } else {
            0
        };
        Some(Ascii::Plain { anchor })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The bucket by the reference pipeline: lower-case, escape, anchor, hash.
    fn reference(id: &str, version: ServerVersion) -> Result<u32, IdError> {
        check_id(id).map(|()| bucket_of_lower(lower_id_with(id, version).as_bytes()))
    }

    #[test]
    fn every_ascii_byte_and_a_non_ascii_character_at_every_place() {
        // Around every 8-byte word boundary of the fused pass, with and without a `$`
        // before or after, and the 32-byte stripes of the hash.
        for n in 1..=40 {
            for at in 0..n {
                for base in [
                    "Orders/123456-A$Customers/1-B$XYZ0123456789",
                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ/0123456789-abcdef",
                ] {
                    let base = &base[..n];
                    let mut ids: Vec<String> = (0..0x80u8)
                        .map(|b| {
                            let mut id = base.as_bytes().to_vec();
                            id[at] = b;
                            String::from_utf8(id).unwrap()
                        })
                        .collect();
                    ids.push(format!("{}É{}", &base[..at], &base[at..]));
                    for id in &ids {
                        for version in [ServerVersion::V7, ServerVersion::V6_2] {
                            assert_eq!(
                                bucket_for_with(id, version),
                                reference(id, version),
                                "{id:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn any_bytes_equal_the_reference(bytes in prop::collection::vec(any::<u8>(), 0..=80), v6 in any::<bool>()) {
            // Every byte value: invalid UTF-8 becomes U+FFFD (non-ASCII).
            let id = String::from_utf8_lossy(&bytes);
            let version = if v6 { ServerVersion::V6_2 } else { ServerVersion::V7 };
            prop_assert_eq!(bucket_for_with(&id, version), reference(&id, version));
        }

        #[test]
        fn dollars_and_capitals_equal_the_reference(id in "[A-Z$a/]{0,80}") {
            prop_assert_eq!(bucket_for(&id), reference(&id, ServerVersion::V7));
        }
    }

    #[test]
    fn empty_anchor_bucket_is_the_hash_of_nothing() {
        assert_eq!(bucket_of_hash(hash_of_key(b"")), EMPTY_ANCHOR_BUCKET);
        assert_eq!(bucket_for("orders/1-A$"), Ok(EMPTY_ANCHOR_BUCKET));
    }

    #[test]
    fn leading_dollar_is_ordinary() {
        assert_ne!(bucket_for("$foo"), bucket_for("foo"));
        assert_eq!(bucket_for("$"), Ok(bucket_of_lower(b"$")));
    }

    #[test]
    fn chapter_examples() {
        assert_eq!(bucket_for("orders/1-A"), Ok(151326));
        assert_eq!(bucket_for("customers/1-A"), Ok(982173));
        assert_eq!(bucket_for("orders/2-A$customers/1-A"), Ok(982173));
        assert_eq!(bucket_for("customers/6-A"), Ok(16312));
        assert_eq!(bucket_for("customers/2-B"), Ok(2423));
        assert_eq!(bucket_for("customers/741135-C"), Ok(982173));
    }
}
