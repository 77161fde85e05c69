//! # ravenshard-design
//!
//! What the [`ravenshard`] core does not ship because RavenDB does not (yet): the draft
//! "Sharding" chapter's design, always labelled as such. Resharding, which RavenDB ships,
//! is the `ravenshard-reshard` crate.
//!
//! - [`content`]: content-based sharding (`ByContent` rules, `$@<bucket>` IDs, `Range`,
//!   `Mutable`);
//! - [`rql`] and [`route`]: RQL queries and the shards the router sends them to;
//! - [`locality`]: transaction and `LoadDocument` checks.
//!
//! ```
//! use ravenshard::Topology;
//! use ravenshard_design::route::route;
//! use ravenshard_design::rql::parse;
//!
//! let topology = Topology::with_shards(3).unwrap();
//! let query = parse("from Orders where id() = 'orders/1-A'").unwrap();
//! let routed = route(&query, &topology, None);
//! assert_eq!(routed.shards, [0]);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod content;
pub mod locality;
pub mod route;
pub mod rql;
