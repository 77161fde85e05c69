//! The studio's views, one folder per tab: `views/<tab>/` holds the tab's components and,
//! when it has one, its sub-state with its actions (pure, tested natively). [`state`] puts
//! every sub-state together ([`State`](state::State), [`Action`](state::Action)).
//!
//! Views use [`widgets`](crate::widgets), [`jobs`](crate::jobs), the
//! [`workers`](crate::workers)' clients and the shared [`state`](crate::state); nothing
//! below imports a view.

pub mod advisor;
pub mod content;
pub mod documents;
pub mod explain;
pub mod groups;
pub mod map;
pub mod nodes;
pub mod queries;
pub mod ranges;
pub mod reshard;
pub mod shards;
pub mod state;
