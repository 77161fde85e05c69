//! The studio's typed text fields: [`Field`] keeps what the user typed, the value it stands
//! for and why it is refused, together; the parsers read the configuration's fields (shard
//! count, database name, nodes, replication factor, a shard's members). Each parser returns
//! the value or a message that says what to do.

use yew::AttrValue;

/// A typed text field: the text as typed, the value last accepted, and why the text is not
/// accepted when it is not. A refused text leaves the value as it was, so the studio keeps
/// working with the last good one while the field shows the problem.
///
/// ```
/// use ravenshard_studio::state::{parse_shard_count, Field};
///
/// let mut shards = Field::new("3", 3);
/// assert_eq!(shards.input("5000", parse_shard_count), None);
/// assert_eq!((shards.text().as_str(), *shards.value()), ("5000", 3));
/// assert!(shards.error().unwrap().contains("1 to 1024"));
/// assert_eq!(shards.input(" 4 ", parse_shard_count), Some(&4));
/// assert_eq!((shards.text().as_str(), shards.error()), (" 4 ", None));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Field<T> {
    text: AttrValue,
    value: T,
    error: Option<AttrValue>,
}

impl<T> Field<T> {
    /// A field showing `text`, which stands for `value`.
    pub fn new(text: impl Into<AttrValue>, value: T) -> Field<T> {
        Field {
            text: text.into(),
            value,
            error: None,
        }
    }

    /// The text as typed.
    pub fn text(&self) -> &AttrValue {
        &self.text
    }

    /// The value of the last text accepted.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// Why the text is not accepted, if it is not.
    pub fn error(&self) -> Option<&AttrValue> {
        self.error.as_ref()
    }

    /// Whether the text is accepted (the value stands for it).
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }

    /// The user typed `text`: `parse` turns it into the new value (returned), or says why
    /// it cannot, and the value stays.
    pub fn input(
        &mut self,
        text: impl Into<AttrValue>,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Option<&T> {
        self.text = text.into();
        self.check(parse)
    }

    /// Reads the text again, with rules that may have changed (a replication factor after
    /// the nodes changed).
    pub fn check(&mut self, parse: impl FnOnce(&str) -> Result<T, String>) -> Option<&T> {
        match parse(&self.text) {
            Ok(value) => {
                self.value = value;
                self.error = None;
                Some(&self.value)
            }
            Err(error) => {
                self.error = Some(error.into());
                None
            }
        }
    }

    /// Shows `text` for `value`, set by the studio rather than typed (a configuration
    /// applied from JSON sets the shard count field).
    pub fn set(&mut self, text: impl Into<AttrValue>, value: T) {
        *self = Field::new(text, value);
    }
}

/// The largest shard count the studio's shard field accepts (a configuration JSON may have
/// more).
pub const MAX_SHARDS: u32 = 1024;

/// The most nodes the nodes field accepts.
pub const MAX_NODES: usize = 64;

/// How many characters of a rejected value are quoted back (the rest is elided).
pub const PREVIEW_CHARS: usize = 60;

/// The first [`PREVIEW_CHARS`] characters of `text`, with `…` if there were more.
pub fn preview(text: &str) -> String {
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// Reads the shard count field: a whole number from 1 to [`MAX_SHARDS`].
pub fn parse_shard_count(text: &str) -> Result<u32, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("Enter a shard count from 1 to {MAX_SHARDS}."));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{}' is not a shard count. Enter a whole number from 1 to {MAX_SHARDS}.",
            preview(text)
        ));
    }
    match text.parse::<u32>() {
        Ok(0) => Err(format!(
            "A sharded database has at least 1 shard. Enter 1 to {MAX_SHARDS}."
        )),
        Ok(n) if n <= MAX_SHARDS => Ok(n),
        _ => Err(format!(
            "The studio plans up to {MAX_SHARDS} shards. Enter 1 to {MAX_SHARDS}."
        )),
    }
}

/// Reads the database name field: not blank, no `$` (it separates the name from the shard
/// number in a fragment's name). Surrounding spaces are dropped.
pub fn parse_database(text: &str) -> Result<String, String> {
    let name = text.trim();
    if name.is_empty() {
        Err("Enter a database name: fragments are named <database>$<shard>.".to_string())
    } else if name.contains('$') {
        Err(
            "A database name cannot contain '$': it separates the name from the shard number \
             in fragment names such as Orders$2."
                .to_string(),
        )
    } else {
        Ok(name.to_string())
    }
}

/// Reads a list of node tags (`A, B, C` or `A B C`): at least one, each made of letters
/// and digits, no repeats. `what` names the field in messages.
pub fn parse_tags(text: &str, what: &str) -> Result<Vec<String>, String> {
    let mut tags: Vec<String> = Vec::new();
    for tag in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
    {
        if !tag.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!(
                "'{}' is not a node tag. {what}: tags such as A, B, C, separated by commas.",
                preview(tag)
            ));
        }
        if tags.iter().any(|t| t.eq_ignore_ascii_case(tag)) {
            return Err(format!(
                "Node {tag} is listed twice. Each node of a cluster has its own tag."
            ));
        }
        tags.push(tag.to_ascii_uppercase());
    }
    if tags.is_empty() {
        return Err(format!("{what}: enter at least one node tag, such as A."));
    }
    if tags.len() > MAX_NODES {
        return Err(format!("The studio plans up to {MAX_NODES} nodes."));
    }
    Ok(tags)
}

/// Reads the nodes field.
pub fn parse_nodes(text: &str) -> Result<Vec<String>, String> {
    parse_tags(text, "Nodes")
}

/// Reads the replication factor field: a whole number from 1 to `nodes`.
pub fn parse_replication_factor(text: &str, nodes: usize) -> Result<u32, String> {
    let text = text.trim();
    match text.parse::<u32>() {
        Ok(0) => {
            Err("A replication factor of 0 leaves shards without nodes. Use at least 1.".into())
        }
        Ok(n) if n as usize <= nodes => Ok(n),
        Ok(n) => Err(format!(
            "Replication factor {n} needs {n} distinct nodes per shard, but there {} {nodes}. \
             Add nodes or use at most {nodes}.",
            if nodes == 1 { "is" } else { "are" }
        )),
        Err(_) => Err(format!(
            "'{}' is not a replication factor. Enter a whole number from 1 to {nodes}.",
            preview(text)
        )),
    }
}

/// Node tags `A`, `B`, ... `Z`, then `N27`...: the default tags of `count` nodes.
pub fn default_tags(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| match u8::try_from(i) {
            Ok(i) if i < 26 => char::from(b'A' + i).to_string(),
            _ => format!("N{}", i + 1),
        })
        .collect()
}

/// Splits `id` at a character range `[start, end)` into the text before, inside and after
/// it. Out-of-range bounds are clamped, so this never panics.
///
/// ```
/// use ravenshard_studio::state::split_chars;
///
/// assert_eq!(split_chars("Users/70$Users/4", [9, 16]), ("Users/70$", "Users/4", ""));
/// assert_eq!(split_chars("é$ü", [2, 3]), ("é$", "ü", ""));
/// ```
pub fn split_chars(id: &str, range: [usize; 2]) -> (&str, &str, &str) {
    let byte_at = |chars: usize| id.char_indices().nth(chars).map_or(id.len(), |(i, _)| i);
    let start = byte_at(range[0]);
    let end = byte_at(range[1]).max(start);
    (&id[..start], &id[start..end], &id[end..])
}
