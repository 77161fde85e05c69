//! A large generation: the worker makes the documents a batch at a time and sends them as
//! an import's ([`crate::workers::import`]); the page reads them with the same client.

pub(crate) mod worker;
