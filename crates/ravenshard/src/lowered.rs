//! RavenDB's lowered ID: the ID lower-cased ([`casing`](crate::casing)) and its control
//! characters escaped, which is what the server searches for `$`, matches prefixes against
//! and hashes (`DocumentIdWorker.GetLoweredIdSliceFromId`).
//!
//! # Control characters
//!
//! Each byte `0x00`-`0x07`, `0x0B` and `0x0E`-`0x1F` of the lower-cased UTF-8 ID becomes the
//! six characters `\u00XX` (upper-case hex); `\b`, `\t`, `\n`, `\f`, `\r`, `"` and `\` stay as
//! they are (Sparrow's `StringUtils.FindEscapedPositionsAndEscapeControlsForBackwardCompatibility`,
//! RavenDB-25738). So `a\x01b` is hashed as `a\u0001b`. The expansion comes after the
//! 512-byte limit (which counts the unexpanded ID, see [`check_id`](crate::check_id)) and
//! before the anchor search: a `$` is never part of an escape, so anchors are unchanged.
//!
//! RavenDB 7.x escapes every ID. RavenDB 6.2 escapes all-ASCII IDs only: an ID with any
//! non-ASCII character is hashed as lower-cased, control characters and all
//! ([`ServerVersion::V6_2`]). Databases created by 7.x refuse IDs with these control
//! characters by default (see [`Warning::ControlCharacter`](crate::Warning::ControlCharacter)).

use crate::casing::lower_case;
use std::borrow::Cow;

/// Which RavenDB server's rule for control characters in IDs to follow.
///
/// # Examples
///
/// ```
/// use ravenshard::{bucket_for_with, ServerVersion};
///
/// assert_eq!(bucket_for_with("a\u{1}b", ServerVersion::V7), Ok(231705));
/// // The ASCII path is the same in 6.2; the non-ASCII path skips the escaping.
/// assert_eq!(bucket_for_with("a\u{1}b", ServerVersion::V6_2), Ok(231705));
/// assert_ne!(bucket_for_with("é\u{1}", ServerVersion::V6_2), bucket_for_with("é\u{1}", ServerVersion::V7));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ServerVersion {
    /// RavenDB 6.2 (checked against 6.2.4): control characters are escaped in all-ASCII IDs
    /// only.
    V6_2,
    /// RavenDB 7.x (checked against 7.2.7), the default: control characters are escaped in
    /// every ID.
    #[default]
    V7,
}

impl ServerVersion {
    /// The name the CLI and the JS API take: `"6.2"` or `"7"`.
    pub const fn name(self) -> &'static str {
        match self {
            ServerVersion::V6_2 => "6.2",
            ServerVersion::V7 => "7",
        }
    }
}

impl std::fmt::Display for ServerVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A server version that is neither `6.2` nor `7`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownServerVersion(pub String);

impl std::fmt::Display for UnknownServerVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown RavenDB server version '{}': give 6.2 (6.2.x) or 7 (7.x); the rules \
             differ only in how control characters of non-ASCII IDs are hashed",
            self.0
        )
    }
}

impl std::error::Error for UnknownServerVersion {}

/// Reads `6.2` or `7` (also `6.2.4`, `7.1`, `7.1.5`: the rule is the same within a minor
/// version line).
///
/// # Examples
///
/// ```
/// use ravenshard::ServerVersion;
///
/// assert_eq!("6.2".parse(), Ok(ServerVersion::V6_2));
/// assert_eq!("7.1.5".parse(), Ok(ServerVersion::V7));
/// assert!("6.0".parse::<ServerVersion>().is_err());
/// ```
impl std::str::FromStr for ServerVersion {
    type Err = UnknownServerVersion;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        if t == "6.2" || t.starts_with("6.2.") {
            Ok(ServerVersion::V6_2)
        } else if t == "7" || t.starts_with("7.") {
            Ok(ServerVersion::V7)
        } else {
            Err(UnknownServerVersion(text.to_string()))
        }
    }
}

/// Whether RavenDB escapes this byte of a lower-cased ID as `\u00XX`: `0x00`-`0x07`, `0x0B`,
/// `0x0E`-`0x1F` (not `\b`, `\t`, `\n`, `\f`, `\r`).
///
/// # Examples
///
/// ```
/// use ravenshard::is_escaped_control;
///
/// assert!(is_escaped_control(0x01) && is_escaped_control(0x0B) && is_escaped_control(0x1F));
/// assert!(!is_escaped_control(b'\t') && !is_escaped_control(b'\n') && !is_escaped_control(0x7F));
/// ```
#[inline]
pub const fn is_escaped_control(b: u8) -> bool {
    b < 0x08 || b == 0x0B || (b >= 0x0E && b < 0x20)
}

/// Whether any byte is below `0x20` (a control character, escaped or not): eight bytes at a
/// time, as the check runs on every ID and almost never finds one.
#[inline]
pub(crate) fn has_control_byte(bytes: &[u8]) -> bool {
    use crate::xxh64_lowered::ONES;
    let mut words = bytes.chunks_exact(8);
    let mut below = 0u64;
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let w = u64::from_le_bytes(w);
        // High bit set in some byte exactly when some byte is below 0x20.
        below |= w.wrapping_sub(ONES * 0x20) & !w;
    }
    below & (ONES * 0x80) != 0 || words.remainder().iter().any(|&b| b < 0x20)
}

/// Escapes the control characters of a lower-cased ID as RavenDB does (see the module
/// documentation); borrowed when there are none.
///
/// # Examples
///
/// ```
/// use ravenshard::escape_controls;
///
/// assert_eq!(escape_controls("a\u{1}b"), "a\\u0001b");
/// assert_eq!(escape_controls("x\u{1b}\u{1f}y"), "x\\u001B\\u001Fy");
/// assert_eq!(escape_controls("tab\tstays"), "tab\tstays");
/// ```
pub fn escape_controls(lower: &str) -> Cow<'_, str> {
    let bytes = lower.as_bytes();
    if !has_control_byte(bytes) || !bytes.iter().any(|&b| is_escaped_control(b)) {
        return Cow::Borrowed(lower);
    }
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(lower.len() + 16);
    for c in lower.chars() {
        match u8::try_from(c) {
            Ok(b) if is_escaped_control(b) => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xF)]));
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The ID as the RavenDB 7.x server lowers it before the anchor search, prefix matching and
/// hashing: lower-cased ([`lower_case`](crate::casing::lower_case)), then its control
/// characters escaped ([`escape_controls`]).
///
/// Returns the input unchanged (borrowed) when it has nothing to change.
///
/// # Examples
///
/// ```
/// use ravenshard::lower_id;
///
/// assert_eq!(lower_id("Users/4"), "users/4");
/// assert_eq!(lower_id("ÉCOLE/3"), "école/3");
/// assert_eq!(lower_id("İstanbul/1"), "İstanbul/1");
/// assert_eq!(lower_id("A\u{1}B"), "a\\u0001b");
/// ```
pub fn lower_id(id: &str) -> Cow<'_, str> {
    lower_id_with(id, ServerVersion::V7)
}

/// [`lower_id`] under a given server version's rule.
///
/// # Examples
///
/// ```
/// use ravenshard::{lower_id_with, ServerVersion};
///
/// assert_eq!(lower_id_with("É\u{1}", ServerVersion::V7), "é\\u0001");
/// assert_eq!(lower_id_with("É\u{1}", ServerVersion::V6_2), "é\u{1}");
/// assert_eq!(lower_id_with("E\u{1}", ServerVersion::V6_2), "e\\u0001");
/// ```
pub fn lower_id_with(id: &str, version: ServerVersion) -> Cow<'_, str> {
    let lower = lower_case(id);
    if version == ServerVersion::V6_2 && !id.is_ascii() {
        return lower;
    }
    match escape_controls(&lower) {
        Cow::Borrowed(_) => lower,
        Cow::Owned(escaped) => Cow::Owned(escaped),
    }
}

/// Appends [`lower_id_with`]`(id, version)` to `out`, without allocating for ASCII IDs.
///
/// # Examples
///
/// ```
/// use ravenshard::{push_lower_id, ServerVersion};
///
/// let mut out = String::from("x|");
/// push_lower_id(&mut out, "Orders/1-A", ServerVersion::V7);
/// push_lower_id(&mut out, "A\u{2}", ServerVersion::V7);
/// assert_eq!(out, "x|orders/1-aa\\u0002");
/// ```
pub fn push_lower_id(out: &mut String, id: &str, version: ServerVersion) {
    if id.is_ascii() && !has_control_byte(id.as_bytes()) {
        let start = out.len();
        out.push_str(id);
        if let Some(tail) = out.get_mut(start..) {
            tail.make_ascii_lowercase();
        }
    } else {
        out.push_str(&lower_id_with(id, version));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_escaped_byte_and_no_other() {
        for b in 0u8..=0x7F {
            let id = format!("a{}b", char::from(b));
            let expected = if is_escaped_control(b) {
                format!("a\\u{:04X}b", b)
            } else {
                id.to_ascii_lowercase()
            };
            assert_eq!(lower_id(&id), expected, "byte {b:#04x}");
        }
        let escaped: Vec<u8> = (0u8..0x20).filter(|&b| is_escaped_control(b)).collect();
        assert_eq!(escaped.len(), 27);
    }

    #[test]
    fn control_byte_scan_sees_every_position() {
        for len in 1..20 {
            for at in 0..len {
                let mut bytes = vec![b'x'; len];
                bytes[at] = 0x1F;
                assert!(has_control_byte(&bytes), "{len} {at}");
                bytes[at] = 0x20;
                assert!(!has_control_byte(&bytes), "{len} {at}");
            }
        }
        assert!(!has_control_byte("ÿÿÿÿÿÿÿÿ€".as_bytes()));
    }

    #[test]
    fn escapes_come_after_lower_casing() {
        let once = lower_id("A\u{0}\u{1b}Б\u{7}").into_owned();
        assert_eq!(once, "a\\u0000\\u001Bб\\u0007");
        // The hex digits are upper-case, so lowering the result again changes it: an ID
        // that spells out `\u001B` is not the ID with the control character.
        assert_eq!(lower_id(&once), "a\\u0000\\u001bб\\u0007");
        assert_eq!(escape_controls(&once), once);
    }
}
