//! XXH64 (seed 0) of the hashed part of an all-ASCII ID, lower-cased as it is read.
//!
//! Why this exists: RavenDB hashes the *lowered* ID, and every XXH64 crate (xxhash-rust,
//! twox-hash) hashes a slice, so the lowered ID had to be written to a stack buffer and
//! read back by the hash. For the short IDs almost every database has (`orders/123456-A`),
//! that copy, and the pass that made it, cost about as much as the hash. Here the ID's own
//! bytes are read in 8-byte words and each word is lower-cased in a register
//! ([`lower_word`]) just before it is mixed in: no buffer is written, and the same pass can
//! look at the words for non-ASCII bytes and `$` ([`xxh64_lowered_while`]). No crate offers
//! a hash with such a per-word transform, so this is XXH64 written out once more (about
//! twice as fast as a lowered copy plus xxhash-rust on `orders/123456-A`); the tests check
//! it against `xxhash_rust::xxh64::xxh64` of the lowered bytes at every length around the
//! steps of the algorithm (0..=40 bytes: single bytes, the 4-byte step, 8-byte words and
//! the 32-byte stripes), from every start.
//!
//! The algorithm, its constants and the order of its steps are those of the XXH64
//! specification, "xxHash fast digest algorithm", version 0.1.1 (10/10/18), section "XXH64
//! algorithm description"
//! (<https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md#xxh64-algorithm-description>),
//! with seed 0:
//!
//! - input of 32 bytes or more: four accumulators, each `round`ed over its lane of every
//!   32-byte stripe, converged and merged (steps 1-3);
//! - shorter input: the accumulator starts at `PRIME64_5` (step 1);
//! - then the input length is added (step 4), the remaining 8-byte words, one 4-byte word
//!   and single bytes are consumed (step 5), and the result is avalanched (step 6).
//!
//! All words are little-endian, as the specification requires.

/// `PRIME64_1` of the specification.
const PRIME64_1: u64 = 0x9E37_79B1_85EB_CA87;
/// `PRIME64_2` of the specification.
const PRIME64_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
/// `PRIME64_3` of the specification.
const PRIME64_3: u64 = 0x1656_67B1_9E37_79F9;
/// `PRIME64_4` of the specification.
const PRIME64_4: u64 = 0x85EB_CA77_C2B2_AE63;
/// `PRIME64_5` of the specification.
const PRIME64_5: u64 = 0x27D4_EB2F_1656_67C5;

/// `0x01` in every byte of a word.
pub(crate) const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
/// The high bit of every byte of a word.
pub(crate) const HIGH: u64 = ONES * 0x80;

/// Word `w` with the ASCII letters `A`-`Z` among its bytes lower-cased; every byte of `w`
/// must be ASCII (below 0x80), as then no addition below carries into the next byte.
///
/// The high bit of a byte of `w + 0x3F` is set for bytes from `A`, of `w + 0x25` for bytes
/// after `Z`; the letters get their 0x20 bit set.
#[inline(always)]
pub(crate) fn lower_word(w: u64) -> u64 {
    let upper = w.wrapping_add(ONES * 0x3F) & !w.wrapping_add(ONES * 0x25) & HIGH;
    w | (upper >> 2)
}

/// The bytes of `bytes` (fewer than 8) as a little-endian word, zero above them: the
/// bytes are read as whole small integers that overlap, not one at a time.
#[inline(always)]
pub(crate) fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let byte = |i: usize| bytes.get(i).map_or(0, |&b| u64::from(b));
    let word4 = |i: usize| {
        bytes
            .get(i..)
            .and_then(|b| b.first_chunk::<4>())
            .map_or(0, |b| u64::from(u32::from_le_bytes(*b)))
    };
    match n {
        0 => 0,
        // Bytes 0, n / 2 and n - 1 cover every byte of 1, 2 or 3.
        1..=3 => byte(0) | byte(n / 2) << (8 * (n / 2)) | byte(n - 1) << (8 * (n - 1)),
        // Two 4-byte words, the second ending at the end; a byte both read is the same.
        _ => word4(0) | word4(n - 4) << (8 * (n - 4)),
    }
}

/// The `round` of the specification.
#[inline(always)]
fn round(acc: u64, lane: u64) -> u64 {
    acc.wrapping_add(lane.wrapping_mul(PRIME64_2))
        .rotate_left(31)
        .wrapping_mul(PRIME64_1)
}

/// The `mergeAccumulator` of the specification (step 3).
#[inline(always)]
fn merge(acc: u64, lane: u64) -> u64 {
    (acc ^ round(0, lane))
        .wrapping_mul(PRIME64_1)
        .wrapping_add(PRIME64_4)
}

/// An 8-byte little-endian word of `bytes`, which are exactly 8.
#[inline(always)]
fn word_of(bytes: &[u8]) -> u64 {
    bytes
        .first_chunk::<8>()
        .map_or(0, |b| u64::from_le_bytes(*b))
}

/// XXH64 (seed 0) of `id[start..]` with `A`-`Z` lower-cased, the same as
/// `xxh64(&lowered[start..], 0)` where `lowered` is `id` lower-cased.
///
/// `id` must be all ASCII (non-ASCII bytes are hashed as garbage) and `start` at most its
/// length (`start` past the end hashes the empty string). The bytes of `id` before `start`
/// are read too: the last fewer than 8 bytes are taken from the word that ends with the ID.
#[inline(always)]
pub(crate) fn xxh64_lowered(id: &[u8], start: usize) -> u64 {
    xxh64_lowered_while(id, start, |_, _| true).unwrap_or_default()
}

/// [`xxh64_lowered`] that shows `note` every word it reads, before lower-casing it, as
/// `note(word, at)` with `at` where the word starts in `id`, and gives up (`None`) as soon
/// as `note` returns `false`; so one pass over the ID can both hash it and look at it
/// ([`bucket_for`](crate::bucket_for) stops at a non-ASCII byte or an anchoring `$`).
///
/// The words are those at `start, start + 8, ...`, then, when fewer than 8 bytes are left,
/// the word that ends with the ID (overlapping the one before), in that order; an ID shorter
/// than 8 bytes is shown as one word at 0, padded with spaces (not upper-case, not `$`, not
/// a control character). Every byte of `id[start..]` is in some word.
#[inline(always)]
pub(crate) fn xxh64_lowered_while(
    id: &[u8],
    start: usize,
    mut note: impl FnMut(u64, usize) -> bool,
) -> Option<u64> {
    let n = id.len();
    let rest = id.get(start..).unwrap_or_default();
    let len = rest.len() as u64;
    let mut stripes = rest.chunks_exact(32);
    let mut h = if rest.len() >= 32 {
        let mut v = [
            PRIME64_1.wrapping_add(PRIME64_2),
            PRIME64_2,
            0,
            0u64.wrapping_sub(PRIME64_1),
        ];
        let mut at = start;
        for stripe in &mut stripes {
            for (v, lane) in v.iter_mut().zip(stripe.chunks_exact(8)) {
                let w = word_of(lane);
                if !note(w, at) {
                    return None;
                }
                at += 8;
                *v = round(*v, lower_word(w));
            }
        }
        let [v1, v2, v3, v4] = v;
        let h = v1
            .rotate_left(1)
            .wrapping_add(v2.rotate_left(7))
            .wrapping_add(v3.rotate_left(12))
            .wrapping_add(v4.rotate_left(18));
        merge(merge(merge(merge(h, v1), v2), v3), v4)
    } else {
        PRIME64_5
    };
    h = h.wrapping_add(len);
    let mut at = start + (rest.len() & !31);
    let mut words = stripes.remainder().chunks_exact(8);
    for word in &mut words {
        let w = word_of(word);
        if !note(w, at) {
            return None;
        }
        at += 8;
        h ^= round(0, lower_word(w));
        h = h
            .rotate_left(27)
            .wrapping_mul(PRIME64_1)
            .wrapping_add(PRIME64_4);
    }
    let left = words.remainder().len();
    if left != 0 {
        // The last `left` bytes of the ID, in the low bytes of a word.
        let mut tail = lower_word(match n.checked_sub(8) {
            Some(at) => {
                let w = word_of(id.get(at..).unwrap_or_default());
                if !note(w, at) {
                    return None;
                }
                w >> (8 * (8 - left))
            }
            None => {
                let w = short_word(id);
                if !note(w | (ONES * u64::from(b' ')) << (8 * n), 0) {
                    return None;
                }
                w >> (8 * (n - left))
            }
        });
        let mut left = left;
        if left >= 4 {
            h ^= (tail & 0xFFFF_FFFF).wrapping_mul(PRIME64_1);
            h = h
                .rotate_left(23)
                .wrapping_mul(PRIME64_2)
                .wrapping_add(PRIME64_3);
            tail >>= 32;
            left -= 4;
        }
        for _ in 0..left {
            h ^= (tail & 0xFF).wrapping_mul(PRIME64_5);
            h = h.rotate_left(11).wrapping_mul(PRIME64_1);
            tail >>= 8;
        }
    }
    h ^= h >> 33;
    h = h.wrapping_mul(PRIME64_2);
    h ^= h >> 29;
    h = h.wrapping_mul(PRIME64_3);
    Some(h ^ (h >> 32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use xxhash_rust::xxh64::xxh64;

    /// The reference: xxhash-rust's XXH64 of the lowered bytes.
    fn reference(id: &[u8], start: usize) -> u64 {
        xxh64(&id.to_ascii_lowercase()[start.min(id.len())..], 0)
    }

    /// Every length 0..=40, every start: IDs of the given characters.
    fn ids(chars: &'static [u8]) -> impl Strategy<Value = (Vec<u8>, usize)> {
        prop::collection::vec(prop::sample::select(chars), 0..=40).prop_flat_map(|id| {
            let n = id.len();
            (Just(id), 0..=n)
        })
    }

    const ASCII_UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ@[`{/-$0123456789";

    #[test]
    fn every_length_and_start_of_one_id() {
        let id = b"Orders/123456-A$Customers/7-B$ABCDEFGHIJKLMNOPQRSTUVWXYZ0123";
        for n in 0..=id.len() {
            for start in 0..=n {
                assert_eq!(xxh64_lowered(&id[..n], start), reference(&id[..n], start));
            }
        }
    }

    #[test]
    fn every_ascii_byte_at_every_place() {
        for b in 0..0x80u8 {
            for n in 1..=40 {
                for at in 0..n {
                    let mut id = vec![b'Q'; n];
                    id[at] = b;
                    for start in [0, at, n / 2] {
                        assert_eq!(xxh64_lowered(&id, start), reference(&id, start));
                    }
                }
            }
        }
    }

    #[test]
    fn lower_word_lowers_exactly_the_ascii_capitals() {
        for b in 0..0x80u8 {
            let w = u64::from_le_bytes([b, b'A', b'Z', b'@', b'[', b, 0, 0x7F]);
            let want = u64::from_le_bytes(
                [b, b'A', b'Z', b'@', b'[', b, 0, 0x7F].map(|b| b.to_ascii_lowercase()),
            );
            assert_eq!(lower_word(w), want, "byte {b:#x}");
        }
    }

    #[test]
    fn short_word_reads_every_byte() {
        let all: Vec<u8> = (1..=8).collect();
        for n in 0..8 {
            let mut want = [0u8; 8];
            want[..n].copy_from_slice(&all[..n]);
            assert_eq!(short_word(&all[..n]), u64::from_le_bytes(want));
        }
    }

    #[test]
    fn known_answers() {
        // The chapter's examples (`bucket_for`'s doctests) and the hash of nothing.
        assert_eq!(xxh64_lowered(b"", 0), 0xEF46_DB37_51D8_E999);
        assert_eq!(xxh64_lowered(b"Customers/1-A", 0) % (1 << 20), 982_173);
        assert_eq!(
            xxh64_lowered(b"Orders/2-A$Customers/1-A", 11) % (1 << 20),
            982_173
        );
        assert_eq!(xxh64_lowered(b"Orders/1-A", 0) % (1 << 20), 151_326);
    }

    proptest! {
        #[test]
        fn equals_xxh64_of_lowered_ascii((id, start) in ids(ASCII_UPPER)) {
            prop_assert_eq!(xxh64_lowered(&id, start), reference(&id, start));
        }

        #[test]
        fn equals_xxh64_of_any_ascii(id in prop::collection::vec(0..0x80u8, 0..=40), start in 0..=40usize) {
            let start = start.min(id.len());
            prop_assert_eq!(xxh64_lowered(&id, start), reference(&id, start));
        }

        #[test]
        fn equals_xxh64_of_lowered_strings(id in "[a-zA-Z0-9/$-]{0,40}") {
            let start = crate::anchor_start(&id.as_bytes().to_ascii_lowercase());
            prop_assert_eq!(xxh64_lowered(id.as_bytes(), start), reference(id.as_bytes(), start));
        }
    }
}
