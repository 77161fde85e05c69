//! The Resharding view's worker: the balance ([`Balancer`](balance::Balancer)) and the
//! plans and calls ([`Planner`](plan::Planner)), plain Rust.

pub mod balance;
pub mod plan;
