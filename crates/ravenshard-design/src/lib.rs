//! # ravenshard-design
//!
//! What the [`ravenshard`] core does not ship because RavenDB does not (yet): the draft
//! "Sharding" chapter's design, and resharding.
//!
//! - [`content`]: content-based sharding (`ByContent` rules, `$@<bucket>` IDs, `Range`,
//!   `Mutable`), labelled as the draft's design;
//! - [`rql`] and [`route`]: RQL queries and the shards the router sends them to;
//! - [`locality`]: transaction and `LoadDocument` checks;
//! - [`reshard`]: plans from one configuration to another, balancing, and RavenDB's bucket
//!   migration step by step.
//!
//! ```
//! use ravenshard::Topology;
//! use ravenshard_design::reshard::add_shard;
//!
//! let current = Topology::with_shards(3).unwrap();
//! let (target, _notes) = add_shard(&current, vec![]).unwrap();
//! assert_eq!(target.shards().len(), 4);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod content;
pub mod locality;
pub mod reshard;
pub mod route;
pub mod rql;
