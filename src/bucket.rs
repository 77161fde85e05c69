//! The bucket of a document ID: lower-case, anchor, XXH64, modulo 2^20.

use crate::{check_id, lower_id, IdError, MAX_ID_BYTES};
use xxhash_rust::xxh64::xxh64;

/// How many buckets a sharded RavenDB database has: 2^20 = 1,048,576.
pub const NUMBER_OF_BUCKETS: u32 = 1 << 20;

/// The bucket of every ID that ends with `$` (the hash of the empty string).
pub const EMPTY_ANCHOR_BUCKET: u32 = 584_089;

/// Where the hashed part of a lower-cased ID begins: just after the last `$` at an index
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

/// The 64-bit XXH64 (seed 0) hash RavenDB computes for a lower-cased ID: of the hashed
/// part only (see [`anchor_start`]).
#[inline]
pub fn hash_of_lower(lower: &[u8]) -> u64 {
    xxh64(&lower[anchor_start(lower)..], 0)
}

/// The bucket of an already lower-cased ID, before any prefix offset.
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
    (hash_of_lower(lower) % u64::from(NUMBER_OF_BUCKETS)) as u32
}

/// The bucket (0..2^20) of a document ID, as a RavenDB 6.x server computes it, before any
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
/// ```
#[inline]
pub fn bucket_for(id: &str) -> Result<u32, IdError> {
    check_id(id)?;
    let bytes = id.as_bytes();
    // One branch-free pass (vectorised) instead of two short-circuiting ones.
    let (mut upper, mut high) = (false, false);
    for &b in bytes {
        upper |= b.wrapping_sub(b'A') < 26;
        high |= b >= 0x80;
    }
    if high {
        return Ok(bucket_of_lower(lower_id(id).as_bytes()));
    }
    // ASCII: lower-casing keeps every byte in place, so the anchor can be found first and
    // only the hashed part lower-cased, in a small stack buffer.
    let tail = &bytes[anchor_start(bytes)..];
    let hash = if !upper {
        xxh64(tail, 0)
    } else if tail.len() <= SHORT {
        xxh64(lower_ascii(tail, &mut [0u8; SHORT]), 0)
    } else {
        xxh64(lower_ascii(tail, &mut [0u8; MAX_ID_BYTES]), 0)
    };
    Ok((hash % u64::from(NUMBER_OF_BUCKETS)) as u32)
}

/// Most IDs fit a buffer this small, which is cheaper to set up than a 512-byte one.
const SHORT: usize = 48;

#[inline]
fn lower_ascii<'b>(from: &[u8], buffer: &'b mut [u8]) -> &'b [u8] {
    let lower = &mut buffer[..from.len()];
    for (to, from) in lower.iter_mut().zip(from) {
        *to = from.to_ascii_lowercase();
    }
    lower
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_anchor_bucket_is_the_hash_of_nothing() {
        assert_eq!(
            (xxh64(b"", 0) % u64::from(NUMBER_OF_BUCKETS)) as u32,
            EMPTY_ANCHOR_BUCKET
        );
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
