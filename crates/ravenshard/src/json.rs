//! Reading JSON with serde's derive, naming the JSON path of any value that cannot be read
//! (`Sharding.Prefixed[0].Shards[1]: invalid type: floating point `1.5`, expected u32`).
//!
//! The configuration, the share link's state and the studio's saved state are parsed to a
//! [`Value`] first (a text that is not JSON is told apart from JSON of the wrong shape), then
//! read with [`from_value`]. Their types derive `Deserialize`: keys are exact, unknown keys
//! are ignored (or kept, where a type has a `#[serde(flatten)]` map), a missing key is
//! `missing field`, a missing or `null` `Option` is `None`, and a list or map that may be
//! `null` reads through [`null_as_default`].
//!
//! One leniency comes with serde_json: a derived struct without a flattened map also reads
//! from an array of its fields in order (`[0, 1]` as `{"BucketRangeStart": 0,
//! "ShardNumber": 1}`). Nothing is lost that way, and [`from_value`] refuses an array where
//! the whole value should be an object, so that a wrong file is named as such.

use serde::de::{Deserialize, Deserializer, Error as _, Unexpected};
use serde_json::Value;
use std::borrow::Borrow;

/// The deepest nesting of arrays and objects a JSON text may have here (127): serde_json's
/// own limit, which keeps a deeply nested text from exhausting the stack. Every reader of
/// JSON text (configurations, documents, statistics, share links) parses with serde_json, so
/// every one of them refuses deeper text, and [`message`] says so in words; the imports,
/// which keep a document's text without parsing all of it, check it with [`depth_past`].
pub const MAX_DEPTH: usize = 127;

/// serde_json's message for a text it cannot parse, without its trailing
/// ` at line L column C` (the readers say where in their own terms), and with its depth
/// limit ([`MAX_DEPTH`]) explained.
///
/// # Examples
///
/// ```
/// use ravenshard::json::{message, MAX_DEPTH};
///
/// let e = serde_json::from_str::<serde_json::Value>("[1,]").unwrap_err();
/// assert_eq!(message(&e), "trailing comma");
/// let deep = "[".repeat(MAX_DEPTH + 1);
/// let e = serde_json::from_str::<serde_json::Value>(&deep).unwrap_err();
/// assert_eq!(
///     message(&e),
///     "arrays and objects nested deeper than 127 levels, the most a JSON text may have \
///      here. Flatten the JSON (RavenDB documents rarely nest past a few levels)"
/// );
/// let deepest = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
/// assert!(serde_json::from_str::<serde_json::Value>(&deepest).is_ok());
/// ```
pub fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => text.as_str(),
    };
    if text == "recursion limit exceeded" {
        return too_deep();
    }
    text.to_string()
}

/// What a reader says of JSON nested past [`MAX_DEPTH`], and what to do.
pub fn too_deep() -> String {
    format!(
        "arrays and objects nested deeper than {MAX_DEPTH} levels, the most a JSON text may \
         have here. Flatten the JSON (RavenDB documents rarely nest past a few levels)"
    )
}

/// The byte offset of the first `[` or `{` of a JSON text that opens a level past
/// [`MAX_DEPTH`], if one does: for readers that keep a value's text without parsing all of it
/// (serde_json skips what it ignores without a depth limit), so that what they accept is what
/// every other reader can parse. Brackets inside strings do not count.
///
/// # Examples
///
/// ```
/// use ravenshard::json::{depth_past, MAX_DEPTH};
///
/// let deepest = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
/// assert_eq!(depth_past(deepest.as_bytes()), None);
/// assert_eq!(depth_past(format!("[{deepest}]").as_bytes()), Some(MAX_DEPTH));
/// assert_eq!(depth_past(format!("[\"{deepest}\"]").as_bytes()), None);
/// ```
pub fn depth_past(text: &[u8]) -> Option<usize> {
    // Most values have fewer brackets than the limit: one fast count tells.
    if text.iter().filter(|&&b| b == b'[' || b == b'{').count() <= MAX_DEPTH {
        return None;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in text.iter().enumerate() {
        match (in_string, b) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') => in_string = false,
            (true, _) => {}
            (false, b'"') => in_string = true,
            (false, b'[' | b'{') => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            (false, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Why a JSON value cannot be read: serde's message and the JSON path of the offending
/// value. It displays as `path: message`, or as the message alone for the value itself.
pub type Error = serde_path_to_error::Error<serde_json::Error>;

/// Reads a `T` from `value` (a [`Value`], or a `&Value` to read it without taking it) with
/// its derived `Deserialize`, naming the JSON path of what cannot be read. `name` is the
/// struct's name, for the message when `value` is an array; an empty `name` takes arrays.
///
/// # Examples
///
/// ```
/// use ravenshard::config::ShardBucketRange;
/// use ravenshard::json::from_value;
/// use serde_json::json;
///
/// let range: ShardBucketRange =
///     from_value(json!({"BucketRangeStart": 0, "ShardNumber": 2}), "ShardBucketRange").unwrap();
/// assert_eq!(range.shard_number, 2);
///
/// let e = from_value::<Vec<ShardBucketRange>>(json!([{"BucketRangeStart": -1}]), "").unwrap_err();
/// assert_eq!(e.to_string(), "[0].BucketRangeStart: invalid value: integer `-1`, expected u32");
/// let e = from_value::<ShardBucketRange>(json!([0, 2]), "ShardBucketRange").unwrap_err();
/// assert_eq!(e.to_string(), "invalid type: sequence, expected struct ShardBucketRange");
/// ```
pub fn from_value<'de, T: Deserialize<'de>>(
    value: impl Borrow<Value> + Deserializer<'de, Error = serde_json::Error>,
    name: &str,
) -> Result<T, Error> {
    if value.borrow().is_array() && !name.is_empty() {
        let expected = format!("struct {name}");
        let e = serde_json::Error::invalid_type(Unexpected::Seq, &expected.as_str());
        return Err(Error::new(serde_path_to_error::Track::new().path(), e));
    }
    serde_path_to_error::deserialize(value)
}

/// The JSON path of an [`Error`] as the messages write it: keys joined by `.`, indices as
/// `[i]` (`Prefixed[0].Shards[1]`), and empty for the value itself.
///
/// # Examples
///
/// ```
/// use ravenshard::json::{from_value, path};
/// use serde_json::json;
///
/// let e = from_value::<Vec<u32>>(json!([1, "2"]), "").unwrap_err();
/// assert_eq!(path(&e), "[1]");
/// let e = from_value::<u32>(json!(-1), "").unwrap_err();
/// assert_eq!(path(&e), "");
/// ```
pub fn path(error: &Error) -> String {
    if error.path().iter().next().is_none() {
        String::new()
    } else {
        error.path().to_string()
    }
}

/// `deserialize_with` for a list or map that may be missing (with `#[serde(default)]`) or
/// `null`: both read as the empty default.
///
/// # Examples
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Topology {
///     #[serde(default, deserialize_with = "ravenshard::json::null_as_default")]
///     members: Vec<String>,
/// }
///
/// let t: Topology = serde_json::from_str(r#"{"members": null}"#).unwrap();
/// assert!(t.members.is_empty());
/// ```
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}
