//! What the fuzz targets share: the reference model of a bucket, the cutting of an input
//! into the chunks a reader is fed, and the saved studio's records ([`saved`]).

pub mod saved;

use std::fmt::Write as _;
use xxhash_rust::xxh64::xxh64;

/// The bucket of a document ID as RavenDB 7.x computes it, written the straightforward way
/// (no word-at-a-time hashing, no stack buffers): `None` when RavenDB refuses the ID (empty,
/// or over 512 bytes of UTF-8).
///
/// Lower-case (ASCII letters only in an all-ASCII ID, else each character by the .NET
/// invariant simple mapping, `ravenshard::casing::lower_char`), then escape the control
/// characters 0x00-0x07, 0x0B and 0x0E-0x1F as `\u00XX`, then hash with XXH64 (seed 0)
/// what follows the last `$` at an index above 0, modulo 2^20.
pub fn model_bucket(id: &str) -> Option<u32> {
    if id.is_empty() || id.len() > 512 {
        return None;
    }
    let lower: String = if id.is_ascii() {
        id.to_ascii_lowercase()
    } else {
        id.chars().map(ravenshard::casing::lower_char).collect()
    };
    let mut escaped = String::with_capacity(lower.len());
    for c in lower.chars() {
        match u32::from(c) {
            n @ (0x00..=0x07 | 0x0B | 0x0E..=0x1F) => {
                let _ = write!(escaped, "\\u{n:04X}");
            }
            _ => escaped.push(c),
        }
    }
    let bytes = escaped.as_bytes();
    let start = match bytes[1..].iter().rposition(|&b| b == b'$') {
        Some(i) => i + 2,
        None => 0,
    };
    Some((xxh64(&bytes[start..], 0) % (1 << 20)) as u32)
}

/// Cuts `data` into chunks whose lengths are drawn from `seed` (1 to 256 bytes each), so
/// that a reader fed them sees every boundary a file reader could give it.
pub fn chunks(data: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    let mut state = u32::from(seed) | 1;
    while !rest.is_empty() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let len = ((state >> 16) as usize % 256 + 1).min(rest.len());
        let (head, tail) = rest.split_at(len);
        out.push(head);
        rest = tail;
    }
    out
}

/// Gzip of `data` (one member), as RavenDB writes a `.ravendbdump`.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder
        .write_all(data)
        .expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_model_gives_the_known_buckets() {
        assert_eq!(super::model_bucket("customers/1-A"), Some(982173));
        assert_eq!(
            super::model_bucket("orders/2-A$customers/1-A"),
            Some(982173)
        );
        assert_eq!(super::model_bucket("a\u{1}b"), Some(231705));
        assert_eq!(super::model_bucket(""), None);
    }
}
