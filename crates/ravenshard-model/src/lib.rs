//! # ravenshard-model
//!
//! The studio's model: a [`workspace`] of placed documents and the views derived from it,
//! share links ([`share`]) and generated samples ([`sample`]), the CSV and report exports
//! ([`export`]), and the [`host`] that holds a workspace's documents for the studio's
//! worker, changed and read as plain data. The documents come from the readers of
//! `ravenshard-import`, shared with the CLI and the JS API, which do not build this crate.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod batch;
pub mod export;
pub mod host;
pub mod sample;
pub mod share;
pub mod workspace;
