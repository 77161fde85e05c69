//! Lower-casing a document ID the way the RavenDB server does (`DocumentIdWorker`).
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
//! The result is encoded as UTF-8 and that is what gets hashed.
//!
//! Rust's [`str::to_lowercase`] is a *full* mapping (`İ` becomes two characters, a final
//! sigma becomes `ς`, `𐐀` becomes `𐐨`), so it must not be used for this.

use std::borrow::Cow;

/// Lower-cases a document ID exactly as the RavenDB server does before hashing it.
///
/// Returns the input unchanged (borrowed) when it has nothing to lower-case.
///
/// # Examples
///
/// ```
/// use ravenshard::lower_id;
///
/// assert_eq!(lower_id("Users/4"), "users/4");
/// assert_eq!(lower_id("ÉCOLE/3"), "école/3");
/// // U+0130 has no invariant lower-case mapping in .NET: it stays.
/// assert_eq!(lower_id("İstanbul/1"), "İstanbul/1");
/// // Characters outside the BMP are two UTF-16 code units with no mapping: they stay.
/// assert_eq!(lower_id("𐐀/1"), "𐐀/1");
/// ```
pub fn lower_id(id: &str) -> Cow<'_, str> {
    if id.is_ascii() {
        if id.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(id.to_ascii_lowercase())
        } else {
            Cow::Borrowed(id)
        }
    } else if id.chars().all(|c| lower_char(c) == c) {
        Cow::Borrowed(id)
    } else {
        Cow::Owned(id.chars().map(lower_char).collect())
    }
}

/// The .NET invariant simple lower-case mapping of one character, applied per UTF-16 code
/// unit: characters outside the BMP and `U+0130` map to themselves.
///
/// # Examples
///
/// ```
/// use ravenshard::casing::lower_char;
///
/// assert_eq!(lower_char('Ω'), 'ω');
/// assert_eq!(lower_char('ẞ'), 'ß');
/// assert_eq!(lower_char('\u{0130}'), '\u{0130}');
/// ```
pub fn lower_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if c == '\u{0130}' || u32::from(c) > 0xFFFF {
        return c;
    }
    // For every BMP character except U+0130, Unicode's full lower-case mapping
    // (SpecialCasing.txt, unconditional part) is a single character equal to the simple
    // mapping (UnicodeData.txt field 13). Rust's `char::to_lowercase` applies no
    // conditional (Final_Sigma, language-specific) rules. build.rs writes that mapping as
    // runs (tests below compare it with `char::to_lowercase` for every code point).
    mapped(&LOWER, c)
}

/// A run of a case mapping: code point `start + k × stride` (`k < count`) maps to itself
/// plus `delta`.
struct Run {
    start: u32,
    count: u32,
    stride: u32,
    delta: i32,
}

include!(concat!(env!("OUT_DIR"), "/case_tables.rs"));

/// `c` mapped by a table of runs (sorted by start), or `c` when no run holds it.
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

/// .NET's `StringComparer.OrdinalIgnoreCase`, which RavenDB uses to order and compare
/// prefixes: both strings upper-cased (simple mapping, BMP only), then compared by UTF-16
/// code unit.
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
/// ```
pub fn ordinal_ignore_case(a: &str, b: &str) -> std::cmp::Ordering {
    let upper = |s: &str| -> Vec<u16> {
        let mut out = Vec::with_capacity(s.len());
        let mut buf = [0u16; 2];
        for c in s.chars() {
            let c = if u32::from(c) <= 0xFFFF {
                mapped(&UPPER, c)
            } else {
                c
            };
            out.extend_from_slice(c.encode_utf16(&mut buf));
        }
        out
    };
    upper(a).cmp(&upper(b))
}

/// The Unicode version of the case-mapping tables this build uses.
///
/// RavenDB uses the tables of the ICU (or Windows) library on the server; characters whose
/// case mapping was added to Unicode after that version may be lower-cased differently.
pub const UNICODE_VERSION: (u8, u8, u8) = char::UNICODE_VERSION;

#[cfg(test)]
mod tests {
    #[test]
    fn the_generated_tables_equal_the_toolchains_mappings() {
        for code in 0..=0xFFFFu32 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let mut lower = c.to_lowercase();
            let expected = match (lower.next(), lower.next()) {
                _ if c == '\u{0130}' => c,
                (Some(single), None) => single,
                _ => c,
            };
            assert_eq!(super::lower_char(c), expected, "lower U+{code:04X}");
            let mut upper = c.to_uppercase();
            let expected = match (upper.next(), upper.next()) {
                (Some(u), None) if u32::from(u) <= 0xFFFF => u,
                _ => c,
            };
            assert_eq!(
                super::mapped(&super::UPPER, c),
                expected,
                "upper U+{code:04X}"
            );
        }
        assert!(
            super::LOWER.len() + super::UPPER.len() < 1000,
            "{} runs",
            super::LOWER.len() + super::UPPER.len()
        );
    }

    use super::*;

    #[test]
    fn ascii_fast_path_only_maps_letters() {
        assert_eq!(lower_id("Orders/1-A$Customers/7"), "orders/1-a$customers/7");
        assert!(matches!(lower_id("orders/1-a"), Cow::Borrowed(_)));
    }

    #[test]
    fn simple_mapping_not_full_mapping() {
        // Full mapping would give "i\u{307}".
        assert_eq!(lower_id("\u{0130}"), "\u{0130}");
        // Final sigma is a conditional rule that .NET does not apply.
        assert_eq!(lower_id("ΟΔΟΣ"), "οδοσ");
        // Deseret capital letter: outside the BMP, untouched.
        assert_eq!(lower_id("\u{10400}"), "\u{10400}");
        // Straße: ß has no simple upper/lower change; capital sharp s maps to ß.
        assert_eq!(lower_id("STRASSE/ẞ"), "strasse/ß");
        // Title-case digraph maps to lower-case digraph.
        assert_eq!(lower_id("ǅ"), "ǆ");
        // Kelvin sign maps to ASCII k.
        assert_eq!(lower_id("\u{212A}"), "k");
    }

    #[test]
    fn lower_case_can_change_the_utf8_length() {
        // U+023A (2 bytes) lower-cases to U+2C65 (3 bytes).
        assert_eq!(lower_id("\u{023A}").len(), 3);
    }
}
