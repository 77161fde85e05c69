//! # ravenshard
//!
//! RavenDB-style sharding, computed exactly: which **bucket**, **shard** (fragment database)
//! and **nodes** a document ID lands on, and why.
//!
//! RavenDB 6.x splits a sharded database into [`NUMBER_OF_BUCKETS`] (2^20) buckets. A
//! document's bucket is XXH64 (seed 0) of its lower-cased ID ([`lower_id`]) modulo 2^20,
//! where a `$` after the first character **anchors** the ID: only the text after the last
//! `$` is hashed ([`anchor_start`]), so `orders/2-A$customers/1-A` shares a bucket with
//! `customers/1-A`. Buckets are grouped in **bucket ranges**, each owned by a **shard**; IDs
//! that start with a configured **prefix** get their own 2^20 block of buckets and so their
//! own shards ([`Topology`]).
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
pub mod lines;
pub mod read;
pub mod report;
mod topology;
mod warning;

pub use bucket::{
    anchor_start, bucket_for, bucket_of_lower, hash_of_lower, EMPTY_ANCHOR_BUCKET,
    NUMBER_OF_BUCKETS,
};
pub use casing::lower_id;
pub use document::{one_line, Document, DocumentLine};
pub use error::{ConfigError, IdError};
pub use explain::{explain, Explanation, PrefixStep};
pub use id::{check_id, validate_id, MAX_ID_BYTES};
pub use report::{report, Report, ReportBuilder, ReportOptions};
pub use topology::{
    BucketRange, Location, Prefix, Shard, Topology, DEFAULT_DATABASE, MAX_PREFIXES,
};
pub use warning::{ConfigWarning, Notice, Warning};
