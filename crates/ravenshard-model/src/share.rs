//! A workspace and configuration as a URL fragment, and back: the studio's share links.
//!
//! # Two forms
//!
//! **Plain** (hand-writable): `key=value` pairs joined by `&`, every value percent-encoded
//! (RFC 3986), for example
//! `#shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4`. The keys are
//!
//! | key | value |
//! |---|---|
//! | `shards` | the shard count, 1 to 2^20 |
//! | `db` (or `database`) | the database name |
//! | `config` | a `ShardingConfiguration` JSON (or a database record), when the ranges, prefixes or nodes were edited |
//! | `ids` | one document per line: `id`, `id<TAB>size` or `id<TAB>size<TAB>collection` |
//!
//! In `ids`, lines are separated by LF (`%0A`); a CR before the LF is dropped, empty lines
//! are skipped, an empty size field means "unknown", and fields after the third are ignored.
//!
//! **Compact** (for large states): `z=` followed by the unpadded base64url text of the
//! raw-DEFLATE-compressed JSON of [`SharedState`]. Decoding inflates at most
//! [`MAX_INFLATED_BYTES`], so a malicious link cannot exhaust memory.
//!
//! # Decisions
//!
//! * `+` is **not** a space: RavenDB IDs may contain `+`, and `encodeURIComponent` writes a
//!   space as `%20`. Build links with `encodeURIComponent` or [`encode_plain`], not with
//!   `URLSearchParams`, which writes spaces as `+`.
//! * Keys match ASCII case-insensitively; unknown keys are ignored (so links from newer
//!   versions still open); a key given twice (`db` and `database` count as the same key) is an
//!   error, because silently picking one would show a state the sender did not mean.
//! * `z` cannot be combined with the plain keys.
//! * An empty value means absent: `db=` is no database name, an empty collection is none.
//! * IDs are not validated here: an invalid ID is part of the state and the studio shows it
//!   as invalid. The `config` text is not validated either; see [`SharedState::topology`].
//!
//! # Examples
//!
//! ```
//! use ravenshard_model::share::{decode_fragment, encode_fragment};
//!
//! let state = decode_fragment("#shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4").unwrap();
//! assert_eq!(state.shards, Some(3));
//! let ids: Vec<&str> = state.documents.iter().map(|d| d.id.as_str()).collect();
//! assert_eq!(ids, ["orders/1-A", "Users/70$Users/4"]);
//!
//! let fragment = encode_fragment(&state);
//! assert_eq!(fragment, "shards=3&ids=orders/1-A%0AUsers/70$Users/4");
//! assert_eq!(decode_fragment(&fragment).unwrap(), state);
//! ```

use crate::workspace::Document;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, Engine as _};
use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use ravenshard::json::{self, null_as_default};
use ravenshard::{ConfigError, Topology, NUMBER_OF_BUCKETS};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The most bytes a compact link may inflate to (64 MiB). Larger links are refused with
/// [`ShareError::TooLarge`].
pub const MAX_INFLATED_BYTES: usize = 64 * 1024 * 1024;

/// The most documents a share link carries: a larger workspace is shared as a file (the
/// CSV export). A link of 20,000 generated documents is about 280,000 characters, already
/// more than most places that take a link keep, and making it is a few tens of
/// milliseconds; 1,000,000 documents made a link of 14,000,000 characters in one task of
/// 2.7 s.
pub const MAX_LINK_DOCUMENTS: usize = 20_000;

/// The longest share link made, in characters: Chromium's limit for a URL (2 MB), the most
/// any browser opens. A link that compresses worse than expected is refused past it.
pub const MAX_LINK_CHARS: usize = 2_000_000;

/// The DEFLATE level of compact links: the best, 9 (what flate2's `Compression::best()`
/// asked of the same compressor, so links encode as they always have).
const LEVEL: u8 = 9;

/// [`encode_fragment`] uses the plain form when it is at most this many characters long.
pub const PLAIN_LIMIT: usize = 2000;

/// The compact form's base64url (RFC 4648 §5): written without padding, read with or
/// without it, and strict otherwise (no other alphabet, no stray bits in the last symbol).
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// What the plain form percent-encodes: every byte but letters, digits and `-._~/$:@`.
const ENCODED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/')
    .remove(b'$')
    .remove(b':')
    .remove(b'@');

/// What a share link carries: the studio's state.
///
/// As JSON (the compact form), every field may be missing or `null`, and other keys are
/// ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedState {
    /// The database name, when it is not the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// The shard count, when the topology is RavenDB's default one for that many shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<u32>,
    /// A `ShardingConfiguration` JSON, when the user edited ranges, prefixes or nodes. It
    /// takes precedence over [`shards`](Self::shards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    /// The documents, in order.
    #[serde(
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub documents: Vec<Document>,
}

impl SharedState {
    /// The topology the state describes: [`config`](Self::config) if given, else RavenDB's
    /// default topology for [`shards`](Self::shards) shards, else `None`; renamed to
    /// [`database`](Self::database) when that is given.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::share::decode_fragment;
    ///
    /// let state = decode_fragment("db=shop&shards=3").unwrap();
    /// let topology = state.topology().unwrap().unwrap();
    /// assert_eq!(topology.fragment(1), "shop$1");
    /// assert_eq!(decode_fragment("").unwrap().topology(), Ok(None));
    /// ```
    pub fn topology(&self) -> Result<Option<Topology>, ConfigError> {
        let mut topology = match (&self.config, self.shards) {
            (Some(config), _) => Topology::from_json(config)?,
            (None, Some(shards)) => Topology::with_shards(shards)?,
            (None, None) => return Ok(None),
        };
        if let Some(database) = &self.database {
            topology.set_database(database);
        }
        Ok(Some(topology))
    }
}

/// Why a share link cannot be opened (or a state cannot be written in the plain form).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShareError {
    /// A `%` is not followed by two hexadecimal digits.
    BadEscape {
        /// The key whose value (or the key itself) holds the escape.
        key: String,
        /// Byte offset of the `%` in the value as written.
        offset: usize,
    },
    /// A value is not UTF-8 once percent-decoded.
    NotUtf8 {
        /// The key whose value is not UTF-8.
        key: String,
        /// Byte offset of the first invalid byte in the decoded value.
        offset: usize,
    },
    /// A key appears twice.
    DuplicateKey {
        /// The key, as written the second time.
        key: String,
    },
    /// `shards` is not a whole number from 1 to 2^20.
    BadShards {
        /// The value as decoded.
        value: String,
    },
    /// A size in `ids` is not a whole number of bytes.
    BadSize {
        /// 1-based line of `ids`.
        line: usize,
        /// The size field as decoded.
        value: String,
    },
    /// The compact form `z` is combined with a plain key.
    MixedForms {
        /// The plain key.
        key: String,
    },
    /// The compact text is not base64url.
    BadBase64 {
        /// What the decoder said.
        message: String,
    },
    /// The compact data is not a raw DEFLATE stream.
    BadDeflate {
        /// What the decompressor said.
        message: String,
    },
    /// The compact data inflates to more than [`MAX_INFLATED_BYTES`].
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The inflated compact data is not the JSON of a [`SharedState`].
    BadJson {
        /// What the JSON parser said.
        message: String,
    },
    /// [`encode_plain`] was given a document the plain form cannot carry.
    NotPlain {
        /// Index of the document in [`SharedState::documents`].
        index: usize,
        /// Why: which field holds which character.
        reason: String,
    },
}

impl ShareError {
    /// The fragment key the error is about (`"ids"`, `"shards"`, `"z"`, ...).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::share::decode_fragment;
    ///
    /// assert_eq!(decode_fragment("shards=three").unwrap_err().key(), "shards");
    /// ```
    pub fn key(&self) -> &str {
        use ShareError::*;
        match self {
            BadEscape { key, .. }
            | NotUtf8 { key, .. }
            | DuplicateKey { key }
            | MixedForms { key } => key,
            BadShards { .. } => "shards",
            BadSize { .. } | NotPlain { .. } => "ids",
            BadBase64 { .. } | BadDeflate { .. } | TooLarge { .. } | BadJson { .. } => "z",
        }
    }
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ShareError::*;
        match self {
            BadEscape { key, offset } => write!(
                f,
                "share link, '{key}': the '%' at byte {offset} is not followed by two \
                 hexadecimal digits. Write a literal '%' as %25, or copy the whole link again."
            ),
            NotUtf8 { key, offset } => write!(
                f,
                "share link, '{key}': the percent-decoded value is not UTF-8 (first bad byte at \
                 {offset}). Percent-encode the UTF-8 bytes of the text, as encodeURIComponent does."
            ),
            DuplicateKey { key } => write!(
                f,
                "share link: '{key}' is given twice ('db' and 'database' are the same key). \
                 Keep one of them."
            ),
            BadShards { value } => write!(
                f,
                "share link, 'shards': '{value}' is not a shard count. Use a whole number from 1 \
                 to {NUMBER_OF_BUCKETS}, e.g. shards=3."
            ),
            BadSize { line, value } => write!(
                f,
                "share link, 'ids' line {line}: the size '{value}' is not a whole number of \
                 bytes. Write 'id', or 'id', a tab (%09) and the size in bytes."
            ),
            MixedForms { key } => write!(
                f,
                "share link: the compact form 'z' cannot be combined with '{key}'. Remove one \
                 of them."
            ),
            BadBase64 { message } => write!(
                f,
                "share link, 'z': the compact data is not base64url ({message}). The link was \
                 probably cut short or altered: copy the whole link again."
            ),
            BadDeflate { message } => write!(
                f,
                "share link, 'z': the compact data cannot be decompressed ({message}). The link \
                 was probably cut short or altered: copy the whole link again."
            ),
            TooLarge { limit } => write!(
                f,
                "share link, 'z': the compact data decompresses to more than {limit} bytes \
                 ({} MiB), the most a link may carry. Share the documents as a file instead.",
                limit / (1024 * 1024)
            ),
            BadJson { message } => write!(
                f,
                "share link, 'z': the decompressed data is not a shared state ({message}). The \
                 link may come from an incompatible version of the studio."
            ),
            NotPlain { index, reason } => write!(
                f,
                "document {index}: {reason}, which the plain share link form cannot carry. Use \
                 the compact form (encode_compact)."
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// Reads a share link's fragment, with or without the leading `#`, in either form.
///
/// # Examples
///
/// ```
/// use ravenshard_model::share::{decode_fragment, ShareError};
///
/// let state = decode_fragment("db=shop&ids=a%09120%09Orders%0Ab").unwrap();
/// assert_eq!(state.database.as_deref(), Some("shop"));
/// assert_eq!(state.documents[0].size, Some(120));
/// assert_eq!(state.documents[0].collection.as_deref(), Some("Orders"));
/// assert_eq!(state.documents[1].id, "b");
///
/// assert_eq!(
///     decode_fragment("#ids=100%"),
///     Err(ShareError::BadEscape { key: "ids".into(), offset: 3 })
/// );
/// ```
pub fn decode_fragment(fragment: &str) -> Result<SharedState, ShareError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut seen: Vec<(Key, String)> = Vec::new();
    let mut state = SharedState::default();
    let mut compact: Option<String> = None;
    for pair in fragment.split('&').filter(|p| !p.is_empty()) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        // A key that does not decode is no key this module knows: ignored like the rest.
        let Ok(key_name) = decode_text(raw_key, raw_key) else {
            continue;
        };
        let Some(key) = Key::parse(&key_name) else {
            continue;
        };
        if seen.iter().any(|(k, _)| *k == key) {
            return Err(ShareError::DuplicateKey { key: key_name });
        }
        let value = decode_text(raw_value, &key_name)?;
        match key {
            Key::Z => compact = Some(value),
            Key::Shards => state.shards = Some(parse_shards(&value)?),
            Key::Database => state.database = Some(value),
            Key::Config => state.config = Some(value),
            Key::Ids => state.documents = parse_ids(&value)?,
        }
        seen.push((key, key_name));
    }
    if let Some(data) = compact {
        if let Some((_, plain)) = seen.iter().find(|(k, _)| *k != Key::Z) {
            return Err(ShareError::MixedForms { key: plain.clone() });
        }
        state = decode_compact(&data)?;
        if let Some(shards) = state.shards {
            check_shards(shards)?;
        }
    }
    Ok(normalize(state))
}

/// Writes a state as a fragment (without the leading `#`): the plain form when it can carry
/// the state in at most [`PLAIN_LIMIT`] characters, else the shorter of the two forms.
///
/// # Examples
///
/// ```
/// use ravenshard_model::share::{decode_fragment, encode_fragment, SharedState};
/// use ravenshard_model::workspace::Document;
///
/// let small = SharedState { shards: Some(3), ..Default::default() };
/// assert_eq!(encode_fragment(&small), "shards=3");
///
/// let documents = (1..=500).map(|n| Document::new(format!("orders/{n}-A"))).collect();
/// let large = SharedState { documents, ..small };
/// let fragment = encode_fragment(&large);
/// assert!(fragment.starts_with("z="));
/// assert_eq!(decode_fragment(&fragment).unwrap(), large);
/// ```
pub fn encode_fragment(state: &SharedState) -> String {
    match plan_fragment(state) {
        FragmentPlan::Plain(plain) => plain,
        FragmentPlan::Compress { plain, json } => {
            finish_fragment(plain, &compress_to_vec(&json, LEVEL))
        }
    }
}

/// What [`encode_fragment`] does, in two steps, for a caller with its own raw-deflate
/// compressor (the studio uses the browser's `CompressionStream("deflate-raw")`, which
/// does not hold up the page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FragmentPlan {
    /// The plain form, short enough to use as it is.
    Plain(String),
    /// Deflate `json` (raw DEFLATE, RFC 1951) and give the result to [`finish_fragment`].
    Compress {
        /// The plain form, when the state has one (the shorter form wins).
        plain: Option<String>,
        /// The compact form's JSON.
        json: Vec<u8>,
    },
}

/// The first step of [`encode_fragment`]: the plain form if it is short enough, else the
/// JSON to compress.
///
/// # Examples
///
/// ```
/// use ravenshard_model::share::{decode_fragment, finish_fragment, plan_fragment, FragmentPlan, SharedState};
///
/// let small = SharedState { shards: Some(3), ..Default::default() };
/// assert_eq!(plan_fragment(&small), FragmentPlan::Plain("shards=3".into()));
///
/// let mut large = small.clone();
/// large.config = Some("{}".repeat(2000));
/// let FragmentPlan::Compress { plain, json } = plan_fragment(&large) else { panic!() };
/// // Any raw DEFLATE will do; stored blocks (no compression) are the simplest.
/// let stored = miniz_oxide::deflate::compress_to_vec(&json, 0);
/// let fragment = finish_fragment(plain, &stored);
/// assert_eq!(decode_fragment(&fragment).unwrap(), large);
/// ```
pub fn plan_fragment(state: &SharedState) -> FragmentPlan {
    match encode_plain(state) {
        Ok(plain) if plain.len() <= PLAIN_LIMIT => FragmentPlan::Plain(plain),
        plain => FragmentPlan::Compress {
            plain: plain.ok(),
            json: compact_json(state),
        },
    }
}

/// The second step of [`encode_fragment`]: the compact form of the deflated JSON, or the
/// plain form when that is not longer.
pub fn finish_fragment(plain: Option<String>, deflated: &[u8]) -> String {
    let mut compact = String::from("z=");
    BASE64URL.encode_string(deflated, &mut compact);
    match plain {
        Some(plain) if plain.len() <= compact.len() => plain,
        _ => compact,
    }
}

/// The JSON of the compact form.
fn compact_json(state: &SharedState) -> Vec<u8> {
    let state = normalize(state.clone());
    // Serializing plain structs with string keys, and writing to a Vec, cannot fail.
    serde_json::to_vec(&state).unwrap_or_default()
}

/// Writes a state in the plain form (without the leading `#`), keys in the order `db`,
/// `shards`, `config`, `ids`, absent values left out.
///
/// Besides letters, digits and `-._~`, the characters `/ $ : @` are written as they are
/// (they are legal in a fragment and common in IDs); everything else is percent-encoded.
///
/// Fails when a document cannot be written as a line (see
/// [`Document::line_problem`](crate::workspace::Document::line_problem)).
///
/// # Examples
///
/// ```
/// use ravenshard_model::share::{encode_plain, SharedState};
/// use ravenshard_model::workspace::Document;
///
/// let state = SharedState {
///     database: Some("my db".into()),
///     documents: vec![Document { id: "a+b&c".into(), size: Some(7), collection: None, body: None }],
///     ..Default::default()
/// };
/// assert_eq!(encode_plain(&state).unwrap(), "db=my%20db&ids=a%2Bb%26c%097");
///
/// let tabbed = SharedState { documents: vec![Document::new("a\tb")], ..Default::default() };
/// assert!(encode_plain(&tabbed).is_err());
/// ```
pub fn encode_plain(state: &SharedState) -> Result<String, ShareError> {
    let mut out = String::new();
    let mut pair = |key: &str, value: &str| {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(key);
        out.push('=');
        out.extend(utf8_percent_encode(value, ENCODED));
    };
    if let Some(database) = state.database.as_deref().filter(|d| !d.is_empty()) {
        pair("db", database);
    }
    if let Some(shards) = state.shards {
        pair("shards", &shards.to_string());
    }
    if let Some(config) = state.config.as_deref().filter(|c| !c.is_empty()) {
        pair("config", config);
    }
    if !state.documents.is_empty() {
        pair("ids", &ids_text(&state.documents)?);
    }
    Ok(out)
}

/// Writes a state in the compact form: `z=` and the unpadded base64url text of its
/// raw-DEFLATE-compressed JSON.
///
/// # Examples
///
/// ```
/// use ravenshard_model::share::{decode_fragment, encode_compact, SharedState};
/// use ravenshard_model::workspace::Document;
///
/// let state = SharedState { documents: vec![Document::new("a\tb")], ..Default::default() };
/// let fragment = encode_compact(&state);
/// assert!(fragment.starts_with("z="));
/// assert_eq!(decode_fragment(&fragment).unwrap(), state);
/// ```
pub fn encode_compact(state: &SharedState) -> String {
    finish_fragment(None, &compress_to_vec(&compact_json(state), LEVEL))
}

/// The keys of the plain form (and `z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Z,
    Shards,
    Database,
    Config,
    Ids,
}

impl Key {
    fn parse(name: &str) -> Option<Key> {
        const KEYS: [(&str, Key); 6] = [
            ("z", Key::Z),
            ("shards", Key::Shards),
            ("db", Key::Database),
            ("database", Key::Database),
            ("config", Key::Config),
            ("ids", Key::Ids),
        ];
        KEYS.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|&(_, key)| key)
    }
}

/// Empty strings mean absent.
fn normalize(mut state: SharedState) -> SharedState {
    state.database = state.database.filter(|d| !d.is_empty());
    state.config = state.config.filter(|c| !c.is_empty());
    for document in &mut state.documents {
        if document.collection.as_deref() == Some("") {
            document.collection = None;
        }
    }
    state
}

/// Percent-decodes `raw` (RFC 3986; `+` stays `+`) into UTF-8 text. `key` names the value in
/// errors. A `%` must be followed by two hexadecimal digits.
fn decode_text(raw: &str, key: &str) -> Result<String, ShareError> {
    let is_escape = |at: usize| {
        raw.as_bytes()
            .get(at + 1..at + 3)
            .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    };
    if let Some((offset, _)) = raw.match_indices('%').find(|&(at, _)| !is_escape(at)) {
        return Err(ShareError::BadEscape {
            key: key.to_string(),
            offset,
        });
    }
    match percent_decode_str(raw).decode_utf8() {
        Ok(text) => Ok(text.into_owned()),
        Err(e) => Err(ShareError::NotUtf8 {
            key: key.to_string(),
            offset: e.valid_up_to(),
        }),
    }
}

fn check_shards(shards: u32) -> Result<u32, ShareError> {
    if (1..=NUMBER_OF_BUCKETS).contains(&shards) {
        Ok(shards)
    } else {
        Err(ShareError::BadShards {
            value: shards.to_string(),
        })
    }
}

fn parse_shards(value: &str) -> Result<u32, ShareError> {
    let bad = || ShareError::BadShards {
        value: value.to_string(),
    };
    let trimmed = value.trim();
    if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    trimmed
        .parse::<u32>()
        .map_err(|_| bad())
        .and_then(|n| check_shards(n).map_err(|_| bad()))
}

/// The documents of an `ids` value.
fn parse_ids(text: &str) -> Result<Vec<Document>, ShareError> {
    Document::parse_lines(text)
        .map(|line| match line.bad_size {
            Some(value) => Err(ShareError::BadSize {
                line: line.line,
                value,
            }),
            None => Ok(line.document),
        })
        .collect()
}

/// The `ids` value of `documents`, or why one cannot be written as a line.
fn ids_text(documents: &[Document]) -> Result<String, ShareError> {
    let mut text = String::new();
    for (index, document) in documents.iter().enumerate() {
        if let Some(reason) = document.line_problem() {
            return Err(ShareError::NotPlain { index, reason });
        }
        if index > 0 {
            text.push('\n');
        }
        document.write_line(&mut text);
    }
    Ok(text)
}

/// The state in a compact `z` value.
fn decode_compact(data: &str) -> Result<SharedState, ShareError> {
    let compressed = BASE64URL
        .decode(data.trim())
        .map_err(|e| ShareError::BadBase64 {
            message: e.to_string(),
        })?;
    let too_large = ShareError::TooLarge {
        limit: MAX_INFLATED_BYTES,
    };
    // One byte more than the limit tells an exactly-full result from an oversized one.
    let json = decompress_to_vec_with_limit(&compressed, MAX_INFLATED_BYTES + 1).map_err(|e| {
        match e.status {
            TINFLStatus::HasMoreOutput => too_large.clone(),
            _ => ShareError::BadDeflate {
                message: e.to_string(),
            },
        }
    })?;
    if json.len() > MAX_INFLATED_BYTES {
        return Err(too_large);
    }
    let bad_json = |message: String| ShareError::BadJson { message };
    let value = serde_json::from_slice::<Value>(&json).map_err(|e| bad_json(e.to_string()))?;
    json::from_value(value, "SharedState").map_err(|e| bad_json(e.to_string()))
}
