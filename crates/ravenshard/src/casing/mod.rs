//! Case mapping as the RavenDB server applies it: lower-casing IDs (`DocumentIdWorker`) and
//! prefixes, and comparing prefixes ignoring case.
//!
//! RavenDB hashes the *lower-cased* ID. Its rule:
//!
//! - an all-ASCII ID has `A`-`Z` mapped to `a`-`z` and nothing else changed;
//! - an ID with any non-ASCII character is lower-cased one UTF-16 code unit at a time with
//!   .NET's `char.ToLowerInvariant`, which is the Unicode *simple* lower-case mapping with one
//!   exception: `U+0130` (`İ`, capital I with dot above) has no invariant mapping and stays
//!   as it is. Characters outside the Basic Multilingual Plane are two surrogate code units
//!   in UTF-16, neither of which has a mapping, so they are left as they are.
//!
//! The result is encoded as UTF-8; [`lower_id`](crate::lower_id) then escapes control
//! characters, and that is what gets hashed.
//!
//! A prefix is lower-cased as a whole string (`Prefix.ToLower()` under the server's
//! invariant culture, [`lower_invariant`]): the same mapping, but applied per code point, so
//! characters outside the BMP are lower-cased too.
//!
//! Rust's [`str::to_lowercase`] is a *full* mapping (`İ` becomes two characters, a final
//! sigma becomes `ς`) and follows the Unicode version of the toolchain, so it is not used.
//! The mappings are instead fixed tables ([`tables`](self) in the source), generated once
//! from Unicode [`UNICODE_VERSION`] by `examples/case_tables.rs`. The server takes its
//! mappings from its own ICU library, so characters whose case mapping was added to Unicode
//! after that library's version may be lower-cased differently there. The tests list every
//! difference between the tables and `char::to_lowercase`/`to_uppercase`.

mod bmp;
mod tables;

pub(crate) use bmp::lower_into;

pub use tables::UNICODE_VERSION;

use std::borrow::Cow;
use std::cmp::Ordering;
use tables::{LOWER, UPPER};

/// Lower-cases an ID as the RavenDB server does, before escaping: ASCII letters, or every
/// UTF-16 code unit with .NET's `char.ToLowerInvariant`.
///
/// Returns the input unchanged (borrowed) when it has nothing to lower-case.
///
/// # Examples
///
/// ```
/// use ravenshard::casing::lower_case;
///
/// assert_eq!(lower_case("Users/4"), "users/4");
/// assert_eq!(lower_case("ÉCOLE/3"), "école/3");
/// // U+0130 has no invariant lower-case mapping in .NET: it stays.
/// assert_eq!(lower_case("İstanbul/1"), "İstanbul/1");
/// // Characters outside the BMP are two UTF-16 code units with no mapping: they stay.
/// assert_eq!(lower_case("𐐀/1"), "𐐀/1");
/// ```
pub fn lower_case(id: &str) -> Cow<'_, str> {
    if id.is_ascii() {
        if id.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(id.to_ascii_lowercase())
        } else {
            Cow::Borrowed(id)
        }
    } else {
        let mut out = vec![0u8; id.len() * 3];
        match lower_into(id, &mut out) {
            Some(n) if out.get(..n) == Some(id.as_bytes()) => Cow::Borrowed(id),
            Some(n) => {
                out.truncate(n);
                // `lower_into` writes UTF-8; the per-character path is the fallback.
                String::from_utf8(out).map_or_else(
                    |_| Cow::Owned(id.chars().map(lower_char).collect()),
                    Cow::Owned,
                )
            }
            None => Cow::Owned(id.chars().map(lower_char).collect()),
        }
    }
}

/// The .NET invariant simple lower-case mapping of one character, applied per UTF-16 code
/// unit (`char.ToLowerInvariant`): characters outside the BMP and `U+0130` map to themselves.
///
/// # Examples
///
/// ```
/// use ravenshard::casing::lower_char;
///
/// assert_eq!(lower_char('Ω'), 'ω');
/// assert_eq!(lower_char('ẞ'), 'ß');
/// assert_eq!(lower_char('\u{0130}'), '\u{0130}');
/// assert_eq!(lower_char('𐐀'), '𐐀');
/// ```
#[inline]
pub fn lower_char(c: char) -> char {
    if c.is_ascii() {
        c.to_ascii_lowercase()
    } else {
        match u16::try_from(u32::from(c)) {
            Ok(unit) => char::from_u32(u32::from(bmp::lower_unit(unit))).unwrap_or(c),
            // Outside the BMP: two surrogate code units, neither mapped.
            Err(_) => c,
        }
    }
}

/// Lower-cases a string as .NET's `string.ToLower()` does under the invariant culture (the
/// server's culture), which RavenDB applies to prefixes: the simple mapping per code point,
/// so unlike [`lower_case`] it maps characters outside the BMP too; `U+0130` stays.
///
/// # Examples
///
/// ```
/// use ravenshard::casing::lower_invariant;
///
/// assert_eq!(lower_invariant("EU/"), "eu/");
/// assert_eq!(lower_invariant("𐐀/"), "𐐨/");
/// assert_eq!(lower_invariant("İ/"), "İ/");
/// ```
pub fn lower_invariant(s: &str) -> Cow<'_, str> {
    if s.chars().all(|c| mapped(&LOWER, c) == c) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().map(|c| mapped(&LOWER, c)).collect())
    }
}

/// .NET's `StringComparer.OrdinalIgnoreCase`, which RavenDB uses to find duplicate prefixes
/// and to insert a prefix added later: both strings upper-cased (simple mapping per code
/// point, `U+0131` and `U+017F` kept, as .NET's ordinal casing does), then compared by
/// UTF-16 code unit.
///
/// # Examples
///
/// ```
/// use ravenshard::casing::ordinal_ignore_case;
/// use std::cmp::Ordering;
///
/// assert_eq!(ordinal_ignore_case("EU/", "eu/"), Ordering::Equal);
/// assert_eq!(ordinal_ignore_case("eu/", "asia/"), Ordering::Greater);
/// // '_' (0x5F) sorts after 'A'-'Z' once upper-cased, though before 'a'.
/// assert_eq!(ordinal_ignore_case("_x/", "a/"), Ordering::Greater);
/// // Dotless i is not folded to I.
/// assert_ne!(ordinal_ignore_case("ı/", "I/"), Ordering::Equal);
/// ```
pub fn ordinal_ignore_case(a: &str, b: &str) -> Ordering {
    let upper = |s: &str| -> Vec<u16> {
        let mut out = Vec::with_capacity(s.len());
        let mut buf = [0u16; 2];
        for c in s.chars() {
            out.extend_from_slice(mapped(&UPPER, c).encode_utf16(&mut buf));
        }
        out
    };
    upper(a).cmp(&upper(b))
}

/// A run of a case mapping: code point `start + k × stride` (`k < count`) maps to itself
/// plus `delta`.
struct Run {
    start: u32,
    count: u32,
    stride: u32,
    delta: i32,
}

impl Run {
    const fn new(start: u32, count: u32, stride: u32, delta: i32) -> Run {
        Run {
            start,
            count,
            stride,
            delta,
        }
    }
}

/// `c` mapped by a table of runs (sorted by start), or `c` when no run holds it.
#[inline]
fn mapped(table: &[Run], c: char) -> char {
    let code = u32::from(c);
    let after = table.partition_point(|r| r.start <= code);
    let Some(run) = after.checked_sub(1).and_then(|i| table.get(i)) else {
        return c;
    };
    let offset = code - run.start;
    if offset % run.stride != 0 || offset / run.stride >= run.count {
        return c;
    }
    code.checked_add_signed(run.delta)
        .and_then(char::from_u32)
        .unwrap_or(c)
}

#[cfg(test)]
mod tests;
