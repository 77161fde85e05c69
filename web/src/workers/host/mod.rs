//! The workspace's host: the worker that holds the documents' placement
//! ([`ravenshard_model::host::Host`]) for the page's whole life. [`client`] is the page's
//! side: changes in order, questions answered through callbacks, its news.

pub mod client;

pub use client::*;
