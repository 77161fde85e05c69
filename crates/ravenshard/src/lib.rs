//! # ravenshard
//!
//! RavenDB-style sharding, computed exactly: which **bucket**, **shard** (fragment database)
//! and **nodes** a document ID lands on, and why.
//!
//! A sharded RavenDB database (6.0 and later) has [`NUMBER_OF_BUCKETS`] (2^20) buckets. A
//! document's bucket is XXH64 (seed 0) of its lowered ID ([`lower_id`]: lower-cased, control
//! characters escaped) modulo 2^20, where a `$` after the first character **anchors** the
//! ID: only the text after the last `$` is hashed ([`anchor_start`]), so
//! `orders/2-A$customers/1-A` shares a bucket with `customers/1-A`. Buckets are grouped in
//! **bucket ranges**, each owned by a **shard**; IDs that start with a configured
//! **prefix** get their own 2^20 block of buckets and so their own shards ([`Topology`]).
//! Prefixed sharding needs RavenDB 6.2 or later: the server refuses prefixes while any node
//! of the cluster runs an older version.
//!
//! Control characters `0x00`-`0x07`, `0x0B` and `0x0E`-`0x1F` are hashed as the six
//! characters `\u00XX` (upper-case hex), after lower-casing and before the anchor search:
//! `a\x01b` is hashed as `a\u0001b`. RavenDB 7.x does this for every ID; 6.2 only for
//! all-ASCII IDs ([`ServerVersion`], [`bucket_for_with`]). Databases created by 7.x refuse
//! such IDs by default ([`Warning::ControlCharacter`]).
//!
//! ```
//! use ravenshard::{bucket_for, Topology};
//!
//! assert_eq!(bucket_for("customers/1-A"), Ok(982173));
//! let topology = Topology::with_shards(3).unwrap();
//! assert_eq!(topology.locate("orders/1-A").unwrap().shard, 0);
//! ```
//!
//! The crate has no web dependencies; the JS API and the studio are thin layers over it.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bucket;
pub mod bulk;
pub mod casing;
pub mod config;
pub mod document;
mod error;
mod explain;
mod id;
pub mod json;
pub mod lines;
mod lowered;
pub mod report;
mod topology;
mod warning;
mod xxh64_lowered;

pub use bucket::{
    anchor_start, bucket_for, bucket_for_with, bucket_of_hash, bucket_of_lower, hash_of_key,
    hash_of_lower, hashed_chars, EMPTY_ANCHOR_BUCKET, NUMBER_OF_BUCKETS,
};
pub use document::{one_line, Document, DocumentLine};
pub use error::{ConfigError, IdError};
pub use explain::{explain, Explanation, PrefixStep, ServerMadeId};
pub use id::{check_id, is_blank_id, validate_id, MAX_ID_BYTES};
pub use lowered::{
    escape_controls, is_escaped_control, lower_id, lower_id_with, push_lower_id, ServerVersion,
    UnknownServerVersion,
};
pub use report::{report, HashIsKey, Report, ReportBuilder, ReportOptions};
pub use topology::{
    BucketRange, Location, Prefix, Shard, Topology, DEFAULT_DATABASE, MAX_PREFIXES,
};
pub use warning::{ConfigWarning, Notice, Warning};

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
