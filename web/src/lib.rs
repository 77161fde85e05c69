//! # ravenshard studio
//!
//! A yew single-page app over the `ravenshard` core: the user types document IDs and a
//! shard count and sees, for each ID, the part that is hashed, its bucket, its shard and its
//! fragment database, with per-shard totals.
//!
//! * [`state`]: the one [`State`](state::State), changed only by
//!   [`Action`](state::Action)s through its [`Reducible`](yew::Reducible) implementation.
//!   All derived data is computed there, by the core; it is pure and tested natively.
//! * [`components`]: function components that render a state and turn DOM events into
//!   actions, through `Properties` and `Callback`s. [`App`] wires them together.
//!
//! The binary (`src/main.rs`) only renders [`App`] into the page; `trunk build` builds it
//! from the repository's `index.html`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod components;
pub mod editors;
pub mod state;

pub use components::App;
