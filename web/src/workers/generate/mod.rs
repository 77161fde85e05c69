//! A large generation: the worker makes the documents a batch at a time and sends them as
//! an import's ([`crate::workers::import`]); the page reads them with the same client.
//! [`protocol`] holds its request.

pub mod protocol;
pub(crate) mod worker;

pub use protocol::GenerateRequest;
