//! The Resharding view's worker: the balance ([`Balancer`](balance::Balancer)) and the
//! plans and calls ([`Planner`](plan::Planner)), plain Rust; [`protocol`] holds its
//! messages, `worker` its side.

pub mod balance;
pub mod plan;
pub mod protocol;
pub(crate) mod wire;
pub(crate) mod worker;

pub use protocol::{
    BalanceRequest, Balanced, DrainRequest, LoadData, ReshardReply, ReshardRequest,
};
pub use worker::Reshard;
