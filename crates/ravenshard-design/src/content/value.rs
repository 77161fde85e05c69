//! The content bucket of a document: what its rule's fields say its bucket should be.

use super::{dotnet_ticks, ContentError, ContentRule, Field};
use ravenshard::{bucket_for, bucket_of_hash, hash_of_key, lower_id, NUMBER_OF_BUCKETS};
use serde_json::Value;

/// The fields a rule read from a document, and the bucket they give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentValue {
    /// The values as text, for messages: `'customers/1-A'`, `'WA' + 'Seattle'`.
    pub text: String,
    /// The content bucket (0 to 2^20 - 1), before `Range` is applied.
    pub bucket: u32,
}

/// The value at a dotted path of a JSON document (`Address.ZipCode`).
pub fn field_value<'a>(body: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(body, |value, name| value.get(name))
}

/// The bucket of `id` as if no rule applied: the ID pipeline, with a trailing `$` (a request
/// for a generated ID) left out.
pub(super) fn own_bucket(id: &str) -> Result<u32, ContentError> {
    let own = id.strip_suffix('$').unwrap_or(id);
    bucket_for(own).map_err(|e| ContentError::BadId {
        id: id.to_string(),
        message: e.to_string(),
    })
}

/// An integer (in decimal digits, optionally signed) modulo 2^20, non-negative, whatever
/// its length.
fn digits_mod(text: &str) -> Option<u32> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let m = u64::from(NUMBER_OF_BUCKETS);
    let r = digits
        .bytes()
        .fold(0u64, |r, d| (r * 10 + u64::from(d - b'0')) % m);
    Some(if negative && r != 0 {
        (m - r) as u32
    } else {
        r as u32
    })
}

/// What one field reads: its text (for several fields) and, for a single field, its bucket.
struct Read {
    text: String,
    shown: String,
    bucket: u32,
}

fn read(field: &Field, id: &str, body: Option<&Value>, rule: &str) -> Result<Read, ContentError> {
    enum Kind {
        Hash,
        Numeric,
        Ticks,
    }
    let (path, reader) = match field {
        Field::Id => {
            let bucket = own_bucket(id)?;
            return Ok(Read {
                text: bucket.to_string(),
                shown: format!("id() = {bucket}"),
                bucket,
            });
        }
        Field::Path(p) => (p, Kind::Hash),
        Field::Numeric(p) => (p, Kind::Numeric),
        Field::Ticks(p) => (p, Kind::Ticks),
    };
    let body = body.ok_or_else(|| ContentError::NoBody {
        id: id.to_string(),
        rule: rule.to_string(),
    })?;
    let bad = |problem: String| ContentError::BadField {
        id: id.to_string(),
        path: field.to_string(),
        problem,
    };
    let value = field_value(body, path)
        .ok_or_else(|| bad("is missing: the document has no such property".into()))?;
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Array(_) => "an array (arrays cannot be sharded on)",
        Value::Object(_) => "an object (name one of its properties)",
        _ => "",
    };
    if !kind.is_empty() {
        return Err(bad(format!(
            "is {kind}; a content field must be a string or a number"
        )));
    }
    match reader {
        Kind::Hash => {
            let text = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let bucket = bucket_for(&text).map_err(|e| bad(format!("cannot be hashed: {e}")))?;
            Ok(Read {
                shown: format!("'{text}'"),
                text,
                bucket,
            })
        }
        Kind::Numeric => {
            let text = match value {
                Value::String(s) => s.trim().to_string(),
                other => other.to_string(),
            };
            let bucket = digits_mod(&text).ok_or_else(|| {
                bad(format!(
                    "is {value}, not an integer, so numeric() cannot use it"
                ))
            })?;
            Ok(Read {
                shown: format!("numeric({text}) = {bucket}"),
                text: bucket.to_string(),
                bucket,
            })
        }
        Kind::Ticks => {
            let Value::String(date) = value else {
                return Err(bad(format!("is {value}, not an ISO-8601 date-time string")));
            };
            let ticks = dotnet_ticks(date).map_err(bad)?;
            let bucket = (ticks % i64::from(NUMBER_OF_BUCKETS)) as u32;
            Ok(Read {
                shown: format!("ticks('{date}') = {bucket}"),
                text: bucket.to_string(),
                bucket,
            })
        }
    }
}

/// The content of a document under `rule`: one field gives its own bucket (a string
/// through the ID pipeline); several are concatenated as text, lowered as an ID is
/// ([`lower_id`]: lower-cased, control characters escaped) and hashed without an anchor step.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::{content_value, ContentRule, Field};
/// use serde_json::json;
///
/// let rule = ContentRule { name: "Orders".into(), fields: vec![Field::Path("Customer".into())], range: 1, mutable: false };
/// let body = json!({"Customer": "customers/1-A"});
/// assert_eq!(content_value(&rule, "orders/1-A$", Some(&body)).unwrap().bucket, 982173);
/// ```
pub fn content_value(
    rule: &ContentRule,
    id: &str,
    body: Option<&Value>,
) -> Result<ContentValue, ContentError> {
    let reads = rule
        .fields
        .iter()
        .map(|field| read(field, id, body, &rule.name))
        .collect::<Result<Vec<_>, _>>()?;
    let shown: Vec<&str> = reads.iter().map(|r| r.shown.as_str()).collect();
    let text = shown.join(" + ");
    let bucket = match reads.as_slice() {
        [one] => one.bucket,
        _ => {
            let joined: String = reads.iter().map(|r| r.text.as_str()).collect();
            bucket_of_hash(hash_of_key(lower_id(&joined).as_bytes()))
        }
    };
    Ok(ContentValue { text, bucket })
}

/// The bucket a rule with `range` gives a document whose own bucket is `own` and whose
/// content bucket is `content`: `base + own % span`, where `base = content - content % range`
/// and `span = min(range, 2^20 - base)`.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::ranged_bucket;
///
/// // The chapter: orders/1-A (151326) belonging to customers/1-A (982173).
/// assert_eq!(ranged_bucket(151326, 982173, 1), 982173);
/// assert_eq!(ranged_bucket(151326, 982173, 1000), 982326);
/// assert_eq!(ranged_bucket(151326, 982173, 10000), 981326);
/// ```
pub fn ranged_bucket(own: u32, content: u32, range: u32) -> u32 {
    let range = range.max(1);
    let base = content - content % range;
    let span = range.min(NUMBER_OF_BUCKETS - base);
    base + own % span
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_strings_of_any_length() {
        assert_eq!(digits_mod("1048577"), Some(1));
        assert_eq!(digits_mod("-1"), Some(1_048_575));
        assert_eq!(digits_mod("+98052"), Some(98052));
        assert_eq!(
            digits_mod("123456789012345678901234567890"),
            Some((123456789012345678901234567890u128 % 1048576) as u32)
        );
        assert_eq!(digits_mod("1.5"), None);
        assert_eq!(digits_mod(""), None);
        assert_eq!(digits_mod("-"), None);
    }
}
