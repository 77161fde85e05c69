//! Typed errors. Every message says what is wrong, where, and what to do about it.

use std::fmt;

/// Why a document ID cannot be stored in a RavenDB database.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdError {
    /// The ID is the empty string.
    Empty,
    /// The ID is longer than [`MAX_ID_BYTES`](crate::MAX_ID_BYTES) in UTF-8.
    TooLong {
        /// The ID's length in UTF-8 bytes.
        bytes: usize,
    },
    /// The ID lower-cased is longer than [`MAX_ID_BYTES`](crate::MAX_ID_BYTES) in UTF-8,
    /// which is what RavenDB counts; its own length differs (see
    /// [`check_id`](crate::check_id)).
    TooLongLowerCased {
        /// The ID's length in UTF-8 bytes.
        bytes: usize,
        /// The lower-cased ID's length in UTF-8 bytes.
        lowered: usize,
    },
}

impl fmt::Display for IdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdError::Empty => write!(
                f,
                "Document ID cannot be empty. Give the document an ID, or end a collection \
                 prefix with '/' to let the server generate one (a batch gives a document with \
                 an empty ID a new GUID as its ID, so its bucket cannot be known in advance)."
            ),
            IdError::TooLong { bytes } => write!(
                f,
                "Document ID cannot exceed {} bytes, but the ID was {bytes} bytes. \
                 Shorten the ID (an anchor suffix counts towards the limit).",
                crate::MAX_ID_BYTES
            ),
            IdError::TooLongLowerCased { bytes, lowered } => write!(
                f,
                "Document ID cannot exceed {} bytes, but the ID was {bytes} bytes \
                 ({lowered} bytes lower-cased, which is what RavenDB counts). Shorten the ID \
                 (an anchor suffix counts towards the limit).",
                crate::MAX_ID_BYTES
            ),
        }
    }
}

impl std::error::Error for IdError {}

/// Why a sharding configuration cannot be used. Every variant carries the JSON path of the
/// offending value (for example `Sharding.Prefixed[1].Shards[0]`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The text is not valid JSON, or a value has the wrong type.
    Json {
        /// Where in the document the problem is.
        path: String,
        /// 1-based line of the problem (0 when only the path is known).
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What the JSON parser said.
        message: String,
    },
    /// The JSON is neither a `ShardingConfiguration` nor a database record with `Sharding`.
    NotAConfiguration,
    /// The topology has no shards.
    NoShards {
        /// Path of the `Shards` object.
        path: String,
    },
    /// More shards than there are buckets to give them.
    TooManyShards {
        /// Path of the `Shards` object.
        path: String,
        /// How many shards were asked for.
        count: usize,
    },
    /// More prefixes than there are 2^20 blocks for them.
    TooManyPrefixes {
        /// Path of `Prefixed`.
        path: String,
        /// How many prefixes were given.
        count: usize,
    },
    /// A key of `Shards` is not a shard number.
    BadShardNumber {
        /// Path of the key.
        path: String,
        /// The key as written.
        key: String,
    },
    /// A prefix does not end with `/` or `-`.
    PrefixMustEndWithSeparator {
        /// Path of the prefix.
        path: String,
        /// The prefix as written.
        prefix: String,
    },
    /// A prefix has an empty `Shards` list.
    PrefixWithoutShards {
        /// Path of the prefix's `Shards`.
        path: String,
        /// The prefix as written.
        prefix: String,
    },
    /// A prefix names a shard that the topology lacks.
    PrefixUnknownShard {
        /// Path of the shard number.
        path: String,
        /// The prefix as written.
        prefix: String,
        /// The shard it names.
        shard: u32,
    },
    /// The same prefix appears twice, in the same or in different casing.
    PrefixExists {
        /// Path of the second occurrence.
        path: String,
        /// The prefix as written the second time.
        prefix: String,
    },
    /// `BucketRanges` is given but a prefix has no usable `BucketRangeStart`.
    PrefixBadRangeStart {
        /// Path of the prefix's `BucketRangeStart`.
        path: String,
        /// The prefix as written.
        prefix: String,
        /// The start given, if any.
        start: Option<u32>,
    },
    /// A bucket range names a shard that the topology lacks.
    RangeUnknownShard {
        /// Path of the range's `ShardNumber`.
        path: String,
        /// The shard it names.
        shard: u32,
    },
    /// A bucket range starts at or below the start of the range before it.
    RangesOverlap {
        /// Path of the range's `BucketRangeStart`.
        path: String,
        /// Its start.
        start: u32,
        /// The start of the range before it.
        previous: u32,
    },
    /// A 2^20 block (the default block or a prefix's) has no range that starts at its start.
    RangeGap {
        /// Path of `BucketRanges`.
        path: String,
        /// The block's first bucket.
        block_start: u32,
        /// Who owns the block: `default` or the prefix.
        owner: String,
    },
    /// A bucket range starts in a 2^20 block that no prefix owns.
    RangeOutsideBlocks {
        /// Path of the range's `BucketRangeStart`.
        path: String,
        /// Its start.
        start: u32,
    },
    /// A range in a prefix's block names a shard that is not among the prefix's shards.
    RangeOutsidePrefixShards {
        /// Path of the range's `ShardNumber`.
        path: String,
        /// The prefix that owns the block.
        prefix: String,
        /// The shard the range names.
        shard: u32,
    },
}

impl ConfigError {
    /// The JSON path of the offending value, if the error has one.
    pub fn path(&self) -> Option<&str> {
        use ConfigError::*;
        match self {
            NotAConfiguration => None,
            Json { path, .. }
            | NoShards { path }
            | TooManyShards { path, .. }
            | TooManyPrefixes { path, .. }
            | BadShardNumber { path, .. }
            | PrefixMustEndWithSeparator { path, .. }
            | PrefixWithoutShards { path, .. }
            | PrefixUnknownShard { path, .. }
            | PrefixExists { path, .. }
            | PrefixBadRangeStart { path, .. }
            | RangeUnknownShard { path, .. }
            | RangesOverlap { path, .. }
            | RangeGap { path, .. }
            | RangeOutsideBlocks { path, .. }
            | RangeOutsidePrefixShards { path, .. } => Some(path),
        }
    }
}

const PREFIXED: &str = "ShardingConfiguration.Prefixed";

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ConfigError::*;
        match self {
            Json { path, line: 0, message, .. } => {
                write!(f, "{path}: {message}. Fix the value there.")
            }
            Json { path, line, column, message } => write!(
                f,
                "{path}: invalid JSON at line {line}, column {column}: {message}. Fix the JSON there."
            ),
            NotAConfiguration => write!(
                f,
                "$: expected a ShardingConfiguration (an object with \"Shards\") or a database \
                 record with a \"Sharding\" section"
            ),
            NoShards { path } => write!(
                f,
                "{path}: the topology has no shards. Add at least one shard, e.g. \"Shards\": {{\"0\": {{\"Members\": [\"A\"]}}}}."
            ),
            TooManyShards { path, count } => write!(
                f,
                "{path}: {count} shards is more than the {} buckets they would share. Use fewer shards.",
                crate::NUMBER_OF_BUCKETS
            ),
            TooManyPrefixes { path, count } => write!(
                f,
                "{path}: {count} prefixes, but buckets are 32-bit signed integers, so there is \
                 room for at most {} prefix blocks of 2^20 buckets. Merge prefixes.",
                crate::topology::MAX_PREFIXES
            ),
            BadShardNumber { path, key } => write!(
                f,
                "{path}: '{key}' is not a shard number. Shard keys are non-negative integers such as \"0\"."
            ),
            PrefixMustEndWithSeparator { path, prefix } => write!(
                f,
                "{path}: Cannot add prefix '{prefix}' to {PREFIXED}. In order to define sharding \
                 by prefix, the prefix string must end with '/' or '-' characters."
            ),
            PrefixWithoutShards { path, prefix } => write!(
                f,
                "{path}: Cannot add prefix '{prefix}' to {PREFIXED}. \
                 PrefixedShardingSetting.Shards cannot be empty."
            ),
            PrefixUnknownShard { path, prefix, shard } => write!(
                f,
                "{path}: Cannot assign shard number {shard} to prefix {prefix}, there's no shard \
                 '{shard}' in sharding topology! Add the shard or remove it from the prefix."
            ),
            PrefixExists { path, prefix } => write!(
                f,
                "{path}: Cannot add prefix '{prefix}' to {PREFIXED}. Prefix '{prefix}' already \
                 exists in different casing. Prefixes match case-insensitively: keep one."
            ),
            PrefixBadRangeStart { path, prefix, start } => match start {
                None => write!(
                    f,
                    "{path}: prefix '{prefix}' has no BucketRangeStart while BucketRanges is \
                     given. Give it the start of its 2^20 block, or remove BucketRanges to have \
                     them created as at database creation."
                ),
                Some(s) => write!(
                    f,
                    "{path}: prefix '{prefix}' has BucketRangeStart {s}, which is not the start of \
                     a free 2^20 block. Use a multiple of {} from {} to {} that no other prefix uses.",
                    crate::NUMBER_OF_BUCKETS,
                    crate::NUMBER_OF_BUCKETS,
                    crate::topology::MAX_PREFIXES as u32 * crate::NUMBER_OF_BUCKETS
                ),
            },
            RangeUnknownShard { path, shard } => write!(
                f,
                "{path}: the bucket range names shard {shard}, which is not in Shards. Add the \
                 shard or give the range to an existing one."
            ),
            RangesOverlap { path, start, previous } => write!(
                f,
                "{path}: the bucket range starting at {start} overlaps the one before it (starting \
                 at {previous}). BucketRanges must be in strictly ascending order of BucketRangeStart."
            ),
            RangeGap { path, block_start, owner } => write!(
                f,
                "{path}: no bucket range starts at {block_start}, the first bucket of the {owner} \
                 block, so its first buckets have no shard. Add a range starting at {block_start}."
            ),
            RangeOutsideBlocks { path, start } => write!(
                f,
                "{path}: the bucket range starting at {start} lies in block {}, which no prefix \
                 owns. Ranges start below {} or in a prefix's block.",
                start / crate::NUMBER_OF_BUCKETS,
                crate::NUMBER_OF_BUCKETS
            ),
            RangeOutsidePrefixShards { path, prefix, shard } => write!(
                f,
                "{path}: the bucket range lies in the block of prefix '{prefix}' but names shard \
                 {shard}, which is not among that prefix's Shards. Add the shard to the prefix or \
                 give the range to one of its shards."
            ),
        }
    }
}

impl std::error::Error for ConfigError {}
