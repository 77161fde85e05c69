//! Warnings: things a RavenDB server accepts but a user planning a database should know.

use serde::Serialize;
use std::fmt;

/// Something about a document ID that is legal but probably not what was meant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Warning {
    /// The ID ends with `$`: the anchor is the empty string, shared by every such ID.
    EmptyAnchor,
    /// The ID contains a control character. RavenDB accepts it, but hashes the ones it
    /// escapes (`0x00`-`0x07`, `0x0B`, `0x0E`-`0x1F`) as the six characters `\u00XX`, and a
    /// database refuses those when its record's `SupportedFeatures` include
    /// `ThrowControlCharactersInIdentifier`, the default for databases created by RavenDB 7.x.
    ControlCharacter {
        /// Byte offset of the character in the ID.
        offset: usize,
        /// Its Unicode code point.
        code_point: u32,
    },
    /// The ID ends with `/` or `|`, which asks the server to generate the final ID, so the
    /// document will not be stored under (or hashed as) this ID.
    ServerGeneratedId {
        /// The trailing character.
        suffix: char,
    },
    /// The ID is white space only. A batch (a session's `SaveChanges`) stores it under that
    /// ID, hashed as any other; a single-document `PUT /docs?id=` refuses it ("Query string
    /// value 'id' must have a non empty value").
    BlankId,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::EmptyAnchor => write!(
                f,
                "the ID ends with '$', so it is anchored to the empty string: every ID ending \
                 with '$' shares bucket {}. Put the anchor's ID after the '$'.",
                crate::EMPTY_ANCHOR_BUCKET
            ),
            Warning::ControlCharacter { offset, code_point } => {
                let escaped = u8::try_from(*code_point).is_ok_and(crate::is_escaped_control);
                if escaped {
                    write!(
                        f,
                        "control character U+{code_point:04X} at byte {offset}: RavenDB hashes \
                         it as the six characters \\u{code_point:04X}, and a database refuses it \
                         when its record's SupportedFeatures include \
                         ThrowControlCharactersInIdentifier (the default for databases created by \
                         RavenDB 7.x; databases from 6.2 or earlier accept it). Remove it."
                    )
                } else {
                    write!(
                        f,
                        "control character U+{code_point:04X} at byte {offset}: RavenDB accepts \
                         and hashes it as it is, but it is invisible in most tools. Remove it \
                         unless it is meant."
                    )
                }
            }
            Warning::ServerGeneratedId { suffix } => write!(
                f,
                "the ID ends with '{suffix}', which asks the server to generate the final ID; \
                 the bucket shown is for this text, not for the ID the server will assign."
            ),
            Warning::BlankId => write!(
                f,
                "the ID is blank (white space only): a batch (session.SaveChanges) stores it \
                 under this ID, in the bucket shown, but a single-document PUT refuses it \
                 (\"Query string value 'id' must have a non empty value\"). Give the document a \
                 visible ID."
            ),
        }
    }
}

/// Something about a sharding configuration that is valid but probably unintended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ConfigWarning {
    /// A prefix comes after a shorter prefix it starts with, so it never matches: prefixes
    /// are tried in order and the first match wins.
    ShadowedPrefix {
        /// Path of the shadowed prefix.
        path: String,
        /// The prefix that never matches.
        prefix: String,
        /// The earlier prefix that matches first.
        by: String,
    },
    /// The prefixes' blocks were assigned in an order that may differ from RavenDB's: a
    /// prefix with non-ASCII characters is compared with the others by the server's ICU
    /// collation, which this build of the crate has only for ASCII (enable the
    /// `icu-collation` feature for the rest).
    PrefixOrderApproximate {
        /// Path of the prefix.
        path: String,
        /// The prefix.
        prefix: String,
    },
    /// A bucket range holds no bucket: the next range starts at the same bucket. RavenDB's
    /// `MoveBucket` leaves such a range when it moves the last bucket of a block to a new
    /// shard, and the server answers with the later range (`FindBucketShard`); so does this
    /// crate.
    EmptyRange {
        /// Path of the empty range.
        path: String,
        /// Its start, which is also the next range's.
        start: u32,
        /// The shard it names.
        shard: u32,
        /// Whether RavenDB refuses every bucket move while the range stays: the check
        /// `MoveBucket` runs after each move (`ValidateBucketsMapping`) passes two ranges with
        /// one start only when the later one is the list's last, as `MoveBucket` leaves them.
        refuses_moves: bool,
    },
    /// The last bucket range starts below the one before it, in an earlier block. RavenDB's
    /// `MoveBucket` appends such a range when it moves bucket 2^20 - 1 in a database with
    /// prefixes; the server's `FindBucketShard` then gives that shard the last range of the
    /// last block (not bucket 2^20 - 1, which stays where it was); so does this crate.
    TrailingRange {
        /// Path of the trailing range.
        path: String,
        /// Its start.
        start: u32,
        /// The shard it names, which answers for the last block's last range.
        shard: u32,
        /// The start of that last range.
        covers: u32,
        /// The shard that range names.
        instead_of: u32,
    },
    /// A prefix's block has no bucket range at all. RavenDB's `MoveBucket` leaves such a
    /// block when a block's buckets all move to the shard that ends the block before it and
    /// starts the one after; the server's `FindBucketShard` then answers for the block with
    /// the list's last range; so does this crate.
    BlockWithoutRanges {
        /// Path of the ranges.
        path: String,
        /// The prefix whose block it is.
        prefix: String,
        /// The block's first bucket.
        block_start: u32,
        /// The shard of the list's last range, which answers for the block.
        shard: u32,
    },
    /// A shard owns no bucket range, so it holds no documents (a new shard gets buckets
    /// only by resharding).
    ShardWithoutBuckets {
        /// Path of the shard.
        path: String,
        /// The shard number.
        shard: u32,
    },
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigWarning::ShadowedPrefix { path, prefix, by } => write!(
                f,
                "{path}: prefix '{prefix}' never matches because '{by}' comes first and matches \
                 every ID it would. Put the longer prefix first."
            ),
            ConfigWarning::PrefixOrderApproximate { path, prefix } => write!(
                f,
                "{path}: prefix '{prefix}' has non-ASCII characters, so the order in which the \
                 prefixes got their bucket blocks may differ from RavenDB's (which sorts them \
                 with ICU's root collation). Give the BucketRanges of the database RavenDB \
                 created, or use a build with the icu-collation feature."
            ),
            ConfigWarning::EmptyRange {
                path,
                start,
                shard,
                refuses_moves: false,
            } => write!(
                f,
                "{path}: the range of shard {shard} holds no bucket, because the next range \
                 also starts at {start} (RavenDB's MoveBucket leaves such a range after moving \
                 a block's last bucket). The later range owns bucket {start}, as RavenDB \
                 answers; the record can stay as it is."
            ),
            ConfigWarning::EmptyRange {
                path,
                start,
                shard,
                refuses_moves: true,
            } => write!(
                f,
                "{path}: the range of shard {shard} holds no bucket, because the next range \
                 also starts at {start}. The later range owns bucket {start}, as RavenDB \
                 answers, but RavenDB refuses every bucket move in this database while the \
                 empty range stays (\"Overlap detected between mappings\"): remove it from \
                 BucketRanges before resharding."
            ),
            ConfigWarning::TrailingRange {
                path,
                start,
                shard,
                covers,
                instead_of,
            } => write!(
                f,
                "{path}: the last range (shard {shard} from {start}) starts below the range \
                 before it, as RavenDB's MoveBucket leaves it after moving bucket {start}. \
                 RavenDB then sends the buckets of the range from {covers} to shard {shard} \
                 instead of {instead_of}, and bucket {start} stays where it was; ravenshard \
                 answers the same. Move the buckets back, or write the ranges in order, to \
                 mean something else."
            ),
            ConfigWarning::BlockWithoutRanges {
                path,
                prefix,
                block_start,
                shard,
            } => write!(
                f,
                "{path}: the block of prefix '{prefix}' (from bucket {block_start}) has no \
                 range, as RavenDB's MoveBucket can leave it; RavenDB then sends its buckets to \
                 shard {shard}, the shard of the list's last range, and so does ravenshard. Add \
                 a range starting at {block_start} to mean another shard."
            ),
            ConfigWarning::ShardWithoutBuckets { path, shard } => write!(
                f,
                "{path}: shard {shard} owns no bucket range and will hold no documents until \
                 buckets are moved to it."
            ),
        }
    }
}

/// A warning as data for people and for JSON: a stable `kind` and a readable `message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// Stable machine-readable kind, such as `empty_anchor`.
    pub kind: &'static str,
    /// The message, saying what to do.
    pub message: String,
}

impl From<&Warning> for Notice {
    fn from(w: &Warning) -> Notice {
        let kind = match w {
            Warning::EmptyAnchor => "empty_anchor",
            Warning::ControlCharacter { .. } => "control_character",
            Warning::ServerGeneratedId { .. } => "server_generated_id",
            Warning::BlankId => "blank_id",
        };
        Notice {
            kind,
            message: w.to_string(),
        }
    }
}

impl From<&ConfigWarning> for Notice {
    fn from(w: &ConfigWarning) -> Notice {
        let kind = match w {
            ConfigWarning::ShadowedPrefix { .. } => "shadowed_prefix",
            ConfigWarning::PrefixOrderApproximate { .. } => "prefix_order_approximate",
            ConfigWarning::EmptyRange { .. } => "empty_range",
            ConfigWarning::TrailingRange { .. } => "trailing_range",
            ConfigWarning::BlockWithoutRanges { .. } => "block_without_ranges",
            ConfigWarning::ShardWithoutBuckets { .. } => "shard_without_buckets",
        };
        Notice {
            kind,
            message: w.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Warning;

    #[test]
    fn control_character_warning_says_how_ravendb_treats_it() {
        let escaped = Warning::ControlCharacter {
            offset: 1,
            code_point: 0x1B,
        }
        .to_string();
        assert!(escaped.contains("\\u001B"), "{escaped}");
        assert!(
            escaped.contains("ThrowControlCharactersInIdentifier"),
            "{escaped}"
        );
        let tab = Warning::ControlCharacter {
            offset: 1,
            code_point: 9,
        }
        .to_string();
        assert!(tab.contains("hashes it as it is"), "{tab}");
    }
}
