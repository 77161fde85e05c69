//! A JSON value as itself in a human-readable format (the CLI's and the JS API's JSON),
//! and as its text in a binary one: a value is read back only by a self-describing
//! format, which bincode (the studio's worker messages) is not.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Writes `value` (`#[serde(with = "json_text")]`).
pub fn serialize<S: Serializer>(value: &Option<Value>, s: S) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() {
        value.serialize(s)
    } else {
        value.as_ref().map(Value::to_string).serialize(s)
    }
}

/// Reads a value written by [`serialize`].
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    if d.is_human_readable() {
        return Option::<Value>::deserialize(d);
    }
    let text = Option::<String>::deserialize(d)?;
    let value = text.map(|text| serde_json::from_str(&text));
    value.transpose().map_err(D::Error::custom)
}
