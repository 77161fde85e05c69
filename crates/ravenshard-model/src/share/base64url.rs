//! base64url (RFC 4648 §5), as compact share links use it: written without padding, read
//! with or without it, and strict otherwise (no other alphabet, no stray bits in the last
//! symbol).
//!
//! These few lines replace the `base64` crate, whose general-purpose engine cost the studio
//! about 4.5 KB of gzipped WebAssembly. They read and reject text exactly as that engine
//! (configured as the links were) did, with its error messages; the tests compare the two.

use std::fmt;

/// The URL-safe alphabet: `-` and `_` in place of `+` and `/`.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The padding symbol, tolerated at the end when reading.
const PAD: u8 = b'=';

/// Why a text is not base64url: the `base64` crate's `DecodeError`, whose messages the share
/// errors quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DecodeError {
    /// A byte that is not a symbol here (offset, byte).
    Byte(usize, u8),
    /// The last group has a single symbol (the count of symbols read).
    Length(usize),
    /// The last symbol carries bits beyond the data (offset, byte).
    LastSymbol(usize, u8),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeError::Byte(index, byte) => {
                write!(f, "Invalid symbol {byte}, offset {index}.")
            }
            DecodeError::Length(len) => write!(f, "Invalid input length: {len}"),
            DecodeError::LastSymbol(index, byte) => {
                write!(f, "Invalid last symbol {byte}, offset {index}.")
            }
        }
    }
}

/// Appends the base64url text of `bytes`, without padding, to `out`.
pub(super) fn encode(bytes: &[u8], out: &mut String) {
    out.reserve(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        // The chunk's bytes as the top of a 24-bit group; n bytes give n + 1 symbols.
        let group = (0..)
            .zip(chunk)
            .fold(0u32, |group, (i, &b)| group | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            let six = (group >> (18 - 6 * i)) & 63;
            out.push(char::from(ALPHABET[six as usize]));
        }
    }
}

/// The value (0 to 63) of a base64url symbol.
fn value(symbol: u8) -> Option<u8> {
    match symbol {
        b'A'..=b'Z' => Some(symbol - b'A'),
        b'a'..=b'z' => Some(symbol - b'a' + 26),
        b'0'..=b'9' => Some(symbol - b'0' + 52),
        b'-' => Some(62),
        b'_' => Some(63),
        _ => None,
    }
}

/// The bytes of base64url `text`. Every group of four symbols but the last must be whole;
/// the last has two to four symbols, optionally followed by padding, and no bits set beyond
/// its last byte. Errors name the first offending offset, as the `base64` crate did.
pub(super) fn decode(text: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let rem = text.len() % 4;
    if rem == 1 {
        if let Some(&last) = text.last() {
            if last != PAD && value(last).is_none() {
                return Err(DecodeError::Byte(text.len() - 1, last));
            }
        }
    }
    // The whole groups before the last group (which has 1 to 4 bytes).
    let body_len = text
        .len()
        .saturating_sub(rem)
        .saturating_sub(if rem == 0 { 4 } else { 0 });
    let (body, tail) = text.split_at(body_len);
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    for (start, group) in (0..).step_by(4).zip(body.chunks_exact(4)) {
        let mut bits = 0u32;
        for (at, &b) in (start..).zip(group) {
            let six = value(b).ok_or(DecodeError::Byte(at, b))?;
            bits = bits << 6 | u32::from(six);
        }
        out.extend_from_slice(&bits.to_be_bytes()[1..]);
    }

    // The last group: symbols, then at most padding (never in its first two places).
    let (mut bits, mut symbols, mut padding, mut last) = (0u32, 0usize, None, 0u8);
    for (at, &b) in (body_len..).zip(tail) {
        if b == PAD {
            if at - body_len < 2 {
                return Err(DecodeError::Byte(at, b));
            }
            padding.get_or_insert(at);
            continue;
        }
        if let Some(first) = padding {
            return Err(DecodeError::Byte(first, PAD));
        }
        let six = value(b).ok_or(DecodeError::Byte(at, b))?;
        bits |= u32::from(six) << (26 - 6 * symbols);
        symbols += 1;
        last = b;
    }
    if !text.is_empty() && symbols < 2 {
        return Err(DecodeError::Length(body_len + symbols));
    }
    let bytes = symbols * 6 / 8;
    if bits & (u32::MAX >> (bytes * 8)) != 0 {
        return Err(DecodeError::LastSymbol(body_len + symbols - 1, last));
    }
    out.extend_from_slice(&bits.to_be_bytes()[..bytes]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
    use base64::engine::DecodePaddingMode;
    use base64::{alphabet, Engine as _};
    use proptest::prelude::*;

    /// What the links used before: the `base64` crate, configured as they were.
    const CRATE: GeneralPurpose = GeneralPurpose::new(
        &alphabet::URL_SAFE,
        GeneralPurposeConfig::new()
            .with_encode_padding(false)
            .with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );

    fn ours(text: &[u8]) -> Result<Vec<u8>, String> {
        decode(text).map_err(|e| e.to_string())
    }

    fn crates(text: &[u8]) -> Result<Vec<u8>, String> {
        CRATE.decode(text).map_err(|e| e.to_string())
    }

    #[test]
    fn round_trips_and_matches_the_crate() {
        for len in 0..40usize {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let mut text = String::new();
            encode(&bytes, &mut text);
            assert_eq!(text, CRATE.encode(&bytes));
            assert_eq!(decode(text.as_bytes()), Ok(bytes));
        }
    }

    #[test]
    fn errors_read_as_the_crates() {
        for text in [
            "",
            "A",
            "AA",
            "AB",
            "AAA",
            "AAB",
            "AA=",
            "AA==",
            "AA===",
            "A===",
            "=",
            "==",
            "AAAA=",
            "AAAAA",
            "AAAA*",
            "AA*A",
            "AAAA AAAA",
            "AA=A",
            "AAA=A",
            "A+/A",
            "YWJj",
            "YWJ",
            "YWI",
            "YW==",
            "YWJjZA",
            "YWJjZB",
            "YWJjZA==",
            "YWJjZA=",
            "YQ=\n",
        ] {
            assert_eq!(ours(text.as_bytes()), crates(text.as_bytes()), "{text:?}");
        }
    }

    proptest! {
        #[test]
        fn any_text_decodes_as_with_the_crate(text in "[A-Za-z0-9_=+/*-]{0,14}") {
            prop_assert_eq!(ours(text.as_bytes()), crates(text.as_bytes()));
        }

        #[test]
        fn any_bytes_encode_as_with_the_crate(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
            let mut text = String::new();
            encode(&bytes, &mut text);
            prop_assert_eq!(text, CRATE.encode(&bytes));
        }
    }
}
