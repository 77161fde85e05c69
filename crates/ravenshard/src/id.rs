//! Document ID validation: what RavenDB rejects (errors) and what it accepts but a user
//! should hear about (warnings).

use crate::{IdError, Warning};

/// The longest document ID RavenDB accepts, in UTF-8 bytes.
pub const MAX_ID_BYTES: usize = 512;

/// Checks the rules RavenDB enforces on every document ID: not empty, at most
/// [`MAX_ID_BYTES`] bytes of UTF-8 *once lower-cased*.
///
/// The server counts the lower-cased UTF-8 ID (`DocumentIdWorker`, the storage key of the
/// document on its shard), before control characters are escaped (an escaped ID may be
/// longer, see [`lower_id`](crate::lower_id)). For an all-ASCII ID that is its own length;
/// a few characters change length when lower-cased (`Ⱥ` U+023A, 2 bytes, becomes `ⱥ`, 3
/// bytes; the Kelvin sign, 3 bytes, becomes `k`), so `"Ⱥ"` 171 times (342 bytes) is too long
/// and the Kelvin sign 172 times (516 bytes) is not. The orchestrator's routing
/// (`ShardHelper`) hashes such an over-long non-ASCII ID, but no shard stores it.
///
/// An ID of white space only (`" "`, `"\u{a0}"`) is *blank*, not empty: RavenDB hashes and
/// stores it (see [`Warning::BlankId`](crate::Warning::BlankId)).
///
/// # Examples
///
/// ```
/// use ravenshard::{check_id, IdError};
///
/// assert!(check_id("orders/1-A").is_ok());
/// assert!(check_id(" ").is_ok());
/// assert_eq!(check_id(""), Err(IdError::Empty));
/// let long = "x".repeat(513);
/// assert_eq!(
///     check_id(&long).unwrap_err().to_string(),
///     "Document ID cannot exceed 512 bytes, but the ID was 513 bytes. \
///      Shorten the ID (an anchor suffix counts towards the limit)."
/// );
/// assert!(check_id(&"\u{212A}".repeat(172)).is_ok());
/// assert_eq!(
///     check_id(&"\u{23A}".repeat(171)),
///     Err(IdError::TooLongLowerCased { bytes: 342, lowered: 513 })
/// );
/// ```
#[inline]
pub fn check_id(id: &str) -> Result<(), IdError> {
    match id.len() {
        0 => Err(IdError::Empty),
        // No character grows by more than half when lower-cased (2 bytes to 3).
        n if n <= MAX_ID_BYTES * 2 / 3 => Ok(()),
        n if id.is_ascii() => match n > MAX_ID_BYTES {
            true => Err(IdError::TooLong { bytes: n }),
            false => Ok(()),
        },
        n => match lowered_len(id) {
            lowered if lowered <= MAX_ID_BYTES => Ok(()),
            lowered if lowered == n => Err(IdError::TooLong { bytes: n }),
            lowered => Err(IdError::TooLongLowerCased { bytes: n, lowered }),
        },
    }
}

/// The UTF-8 length of the ID lower-cased (before control characters are escaped).
fn lowered_len(id: &str) -> usize {
    id.chars()
        .map(|c| crate::casing::lower_char(c).len_utf8())
        .sum()
}

/// Whether the ID is blank: not empty, and white space only (.NET's `char.IsWhiteSpace`,
/// which is Unicode's `White_Space`, as Rust's `char::is_whitespace`).
///
/// # Examples
///
/// ```
/// use ravenshard::is_blank_id;
///
/// assert!(is_blank_id(" ") && is_blank_id("\u{a0}\u{3000}"));
/// assert!(!is_blank_id("") && !is_blank_id(" a"));
/// ```
pub fn is_blank_id(id: &str) -> bool {
    !id.is_empty() && id.chars().all(char::is_whitespace)
}

/// Checks an ID and lists the warnings it deserves.
///
/// # Examples
///
/// ```
/// use ravenshard::{validate_id, Warning};
///
/// assert_eq!(validate_id("orders/1-A"), Ok(vec![]));
/// assert_eq!(validate_id("orders/1-A$"), Ok(vec![Warning::EmptyAnchor]));
/// assert_eq!(
///     validate_id("a\tb"),
///     Ok(vec![Warning::ControlCharacter { offset: 1, code_point: 9 }])
/// );
/// ```
pub fn validate_id(id: &str) -> Result<Vec<Warning>, IdError> {
    check_id(id)?;
    let mut warnings: Vec<Warning> = id
        .char_indices()
        .filter(|(_, c)| c.is_control())
        .map(|(offset, c)| Warning::ControlCharacter {
            offset,
            code_point: u32::from(c),
        })
        .collect();
    if id.len() > 1 && id.ends_with('$') {
        warnings.push(Warning::EmptyAnchor);
    }
    if is_blank_id(id) {
        warnings.push(Warning::BlankId);
    }
    if let Some(suffix @ ('/' | '|')) = id.chars().last() {
        warnings.push(Warning::ServerGeneratedId { suffix });
    }
    Ok(warnings)
}
