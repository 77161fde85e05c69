//! The Resharding view's worker: the balance ([`Balancer`](balance::Balancer)) and the
//! plans and calls ([`Planner`](plan::Planner)), plain Rust; [`protocol`] holds its
//! messages (with the page, and with the workspace's host for the load per bucket),
//! `worker` its side, [`client`] the page's.

pub mod balance;
pub mod plan;
pub mod protocol;
pub(crate) mod wire;
pub(crate) mod worker;

pub mod client;

pub use protocol::{
    BalanceRequest, Balanced, DrainRequest, LoadAsk, LoadData, LoadSent, ReshardReply,
    ReshardRequest,
};
pub use worker::Reshard;
