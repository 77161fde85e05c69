//! Document ID validation: what RavenDB rejects (errors) and what it accepts but a user
//! should hear about (warnings).

use crate::{IdError, Warning};

/// The longest document ID RavenDB accepts, in UTF-8 bytes.
pub const MAX_ID_BYTES: usize = 512;

/// Checks the rules RavenDB enforces on every document ID: not empty, at most
/// [`MAX_ID_BYTES`] bytes of UTF-8.
///
/// The limit counts the ID before control characters are escaped (an escaped ID may be
/// longer, see [`lower_id`](crate::lower_id)). The server itself checks the length in
/// UTF-16 code units and then the UTF-8 length of the *lower-cased* ID
/// (`DocumentIdWorker.GetLowerIdSliceAndStorageKeyForBackwardCompatibility`), which differs
/// from the ID's own length only for the few characters whose lower-case form is longer or
/// shorter in UTF-8 (`Ⱥ` U+023A, 2 bytes, becomes `ⱥ` U+2C65, 3 bytes; the Kelvin sign
/// becomes `k`); this check uses the ID's own length.
///
/// # Examples
///
/// ```
/// use ravenshard::{check_id, IdError};
///
/// assert!(check_id("orders/1-A").is_ok());
/// assert_eq!(check_id(""), Err(IdError::Empty));
/// let long = "x".repeat(513);
/// assert_eq!(
///     check_id(&long).unwrap_err().to_string(),
///     "Document ID cannot exceed 512 bytes, but the ID was 513 bytes. \
///      Shorten the ID (an anchor suffix counts towards the limit)."
/// );
/// ```
#[inline]
pub fn check_id(id: &str) -> Result<(), IdError> {
    match id.len() {
        0 => Err(IdError::Empty),
        n if n > MAX_ID_BYTES => Err(IdError::TooLong { bytes: n }),
        _ => Ok(()),
    }
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
    if let Some(suffix @ ('/' | '|')) = id.chars().last() {
        warnings.push(Warning::ServerGeneratedId { suffix });
    }
    Ok(warnings)
}
