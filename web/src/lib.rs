//! # ravenshard studio
//!
//! A yew single-page app over the `ravenshard` core: the user types document IDs and a
//! shard count and sees, for each ID, the part that is hashed, its bucket, its shard and its
//! fragment database, with per-shard totals.
//!
//! * [`state`]: small sub-states (configuration, workspace, views, design, resharding,
//!   notices), each a [`Reducible`](yew::Reducible) with its own action enum, put together
//!   by [`State`](state::State). All derived data is computed there, by the core; the
//!   reducers are pure and tested natively.
//! * [`components`]: function components that render a sub-state and turn DOM events into
//!   its actions, through `Properties` and `Callback`s. [`App`] wires them together;
//!   [`components::tabs`] maps each [`Tab`](state::Tab) to its view.
//!
//! The binary (`src/main.rs`) only renders [`App`] into the page; `trunk build` builds it
//! from the repository's `index.html`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod components;
pub mod editors;
pub mod state;
pub mod worker;

pub use components::App;
