//! Reading typed values out of a parsed [`Value`], by hand, naming the JSON path of any value
//! that cannot be used: the walk behind the configuration, share-link and saved-studio
//! readers.
//!
//! The readers take what serde's derive would, in its words (`invalid type: string "x",
//! expected u32`): a struct's keys are exact, unknown keys are ignored, a missing key is
//! `missing field`, a missing or `null` `Option` is `None`. Reading a [`Value`] rather than
//! deriving `Deserialize` spares a WebAssembly build one generated deserializer per type
//! (the studio parses every JSON text to a [`Value`] anyway).
//!
//! # Examples
//!
//! ```
//! use ravenshard::read::{object, required, string, Path};
//!
//! let value = serde_json::json!({"name": 5});
//! let at = Path::Root;
//! let entries = object(value, at, "struct Named").unwrap();
//! let name = entries.into_iter().find(|(k, _)| k == "name").unwrap().1;
//! let e = string(name, at.key("name")).unwrap_err();
//! assert_eq!(e.to_string(), "name: invalid type: integer `5`, expected a string");
//! let e = required::<String>(None, at.key("person"), "name").unwrap_err();
//! assert_eq!(e.to_string(), "person: missing field `name`");
//! ```

use serde::de::{Error as _, Unexpected};
use serde_json::{Map, Value};
use std::fmt;

/// Why a value cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The JSON path of the offending value, relative to the value read (empty for that
    /// value itself): `BucketRanges[0].ShardNumber`, `documents[3].size`.
    pub path: String,
    /// What is wrong, in serde's words.
    pub message: String,
}

impl fmt::Display for ReadError {
    /// `path: message`, or the message alone for the value itself.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReadError {}

/// What a reader gives.
pub type Read<T> = Result<T, ReadError>;

/// A JSON path, kept on the stack while the walk descends and written out only for an error.
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    /// The value being read.
    Root,
    /// The value of a key of an object.
    Key(&'a Path<'a>, &'a str),
    /// An element of an array.
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    /// The value of `key` in the object at this path.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    /// Element `index` of the array at this path.
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// An error about the value at this path.
    pub fn error(&self, message: serde_json::Error) -> ReadError {
        ReadError {
            path: self.to_string(),
            message: message.to_string(),
        }
    }

    /// `invalid type: <what the value is>, expected <expected>`.
    pub fn invalid_type(&self, value: &Value, expected: &str) -> ReadError {
        self.error(serde_json::Error::invalid_type(
            unexpected(value),
            &expected,
        ))
    }
}

impl fmt::Display for Path<'_> {
    /// As `serde_path_to_error` wrote paths: keys joined by `.`, indices as `[i]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Path::Root => Ok(()),
            Path::Key(parent, key) => {
                parent.fmt(f)?;
                if !matches!(parent, Path::Root) {
                    f.write_str(".")?;
                }
                f.write_str(key)
            }
            Path::Index(parent, index) => {
                parent.fmt(f)?;
                write!(f, "[{index}]")
            }
        }
    }
}

/// The entries of an object; `expected` names the struct it should have been
/// (`struct Document`).
pub fn object(value: Value, at: Path, expected: &str) -> Read<Map<String, Value>> {
    match value {
        Value::Object(entries) => Ok(entries),
        other => Err(at.invalid_type(&other, expected)),
    }
}

/// An array read item by item; `null` is the empty list.
pub fn list<T>(value: Value, at: Path, item: fn(Value, Path) -> Read<T>) -> Read<Vec<T>> {
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, value)| item(value, at.index(i)))
            .collect(),
        other => Err(at.invalid_type(&other, "a sequence")),
    }
}

/// `None` for `null`, else the value read by `item`.
pub fn optional<T>(value: Value, at: Path, item: fn(Value, Path) -> Read<T>) -> Read<Option<T>> {
    match value {
        Value::Null => Ok(None),
        value => item(value, at).map(Some),
    }
}

/// A string.
pub fn string(value: Value, at: Path) -> Read<String> {
    match value {
        Value::String(text) => Ok(text),
        other => Err(at.invalid_type(&other, "a string")),
    }
}

/// `true` or `false`.
pub fn boolean(value: Value, at: Path) -> Read<bool> {
    match value {
        Value::Bool(b) => Ok(b),
        other => Err(at.invalid_type(&other, "a boolean")),
    }
}

/// A `u32`: a non-negative integer (`1.0` is a float, and refused as serde does).
pub fn number(value: Value, at: Path) -> Read<u32> {
    unsigned(value, at, "u32")
}

/// A `u64`, as [`number`] reads a `u32`.
pub fn big_number(value: Value, at: Path) -> Read<u64> {
    unsigned(value, at, "u64")
}

fn unsigned<T: TryFrom<u64>>(value: Value, at: Path, expected: &str) -> Read<T> {
    match unexpected(&value) {
        Unexpected::Unsigned(n) => T::try_from(n).map_err(|_| {
            at.error(serde_json::Error::invalid_value(
                Unexpected::Unsigned(n),
                &expected,
            ))
        }),
        signed @ Unexpected::Signed(_) => {
            Err(at.error(serde_json::Error::invalid_value(signed, &expected)))
        }
        _ => Err(at.invalid_type(&value, expected)),
    }
}

/// The value of a required field, or `missing field` at the object's path.
pub fn required<T>(value: Option<T>, at: Path, field: &'static str) -> Read<T> {
    value.ok_or_else(|| at.error(serde_json::Error::missing_field(field)))
}

/// What a value is, in the terms of serde's messages (as `serde_json` describes its values).
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(n), _, _) => Unexpected::Unsigned(n),
            (None, Some(n), _) => Unexpected::Signed(n),
            (None, None, Some(n)) => Unexpected::Float(n),
            (None, None, None) => Unexpected::Other("number"),
        },
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// `Deserialize` for each type goes through its reader: a [`Value`] first, then the reader,
/// so there is one reader. An error is `path: message` with the path inside the value.
#[macro_export]
#[doc(hidden)]
macro_rules! deserialize_through_the_reader {
    ($($type:ty => $read:path),* $(,)?) => {$(
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
                $read(value, $crate::read::Path::Root).map_err(<D::Error as serde::de::Error>::custom)
            }
        }
    )*};
}

#[doc(hidden)]
pub use crate::deserialize_through_the_reader;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_say_what_they_expected() {
        let at = Path::Root;
        let docs = at.key("documents");
        let third = docs.index(3);
        let size = third.key("size");
        let e = big_number(json!(-1), size).unwrap_err();
        assert_eq!(
            e.to_string(),
            "documents[3].size: invalid value: integer `-1`, expected u64"
        );
        assert_eq!(big_number(json!(u64::MAX), size), Ok(u64::MAX));
        assert_eq!(
            number(json!(u64::MAX), size).unwrap_err().message,
            format!("invalid value: integer `{}`, expected u32", u64::MAX)
        );
        assert_eq!(
            boolean(json!("yes"), at.key("custom"))
                .unwrap_err()
                .to_string(),
            "custom: invalid type: string \"yes\", expected a boolean"
        );
        assert_eq!(optional(json!(null), at, string), Ok(None));
        assert_eq!(optional(json!("x"), at, string), Ok(Some("x".into())));
        assert_eq!(list(json!(null), at, number), Ok(vec![]));
    }
}
