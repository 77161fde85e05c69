//! # ravenshard-model
//!
//! The studio's model, shared by the studio, the CLI and the JS API: a
//! [`workspace`] of placed documents and the views derived from it, the readers of
//! RavenDB exports and document files ([`import`]), share links ([`share`]) and generated
//! samples ([`sample`]), the CSV and report exports ([`export`]), and the [`host`] that holds a workspace's documents for the
//! studio's worker, changed and read as plain data.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod advise;
pub mod batch;
pub mod export;
pub mod host;
pub mod import;
pub mod sample;
pub mod share;
pub mod workspace;
