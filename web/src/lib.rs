//! # ravenshard studio
//!
//! A yew single-page app over the `ravenshard` core: the user types document IDs and a
//! shard count and sees, for each ID, the part that is hashed, its bucket, its shard and its
//! fragment database, with per-shard totals.
//!
//! The modules are layers; each imports only the ones below it (a native test, `src/layers.rs`, checks):
//!
//! * [`app`]: the root component ([`App`]): opens, saves and lays out the studio, the tab
//!   bar and the panels around the views.
//! * [`views`]: one folder per tab (`views/<tab>/`: its components and, if it has one, its
//!   sub-state with its actions), and the studio's whole state ([`views::state::State`]).
//! * [`widgets`]: reusable controls (the bucket map, the range editor, the JSON editor) and
//!   the DOM helpers of every component.
//! * [`jobs`]: long operations (import, generation, export, save) and their progress.
//! * [`workers`]: the studio's Web Workers, one folder per role, each with its client.
//! * [`persist`]: the saved studio's format, layout and records in IndexedDB.
//! * [`state`]: the sub-states every view shares, pure and tested natively.
//! * [`numbers`] and [`marks`]: numbers for people, and the bench's performance marks.
//!
//! Every function has at most 80 lines in its body (a native test, `src/lengths.rs`, checks):
//! a long component is split into hooks (`use_…`), smaller components and helpers.
//!
//! The binary (`src/main.rs`) only renders [`App`] into the page; `trunk build` builds it
//! from the repository's `index.html`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod app;
pub mod jobs;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod layers;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod lengths;
pub mod marks;
pub mod numbers;
pub mod persist;
pub mod state;
pub mod views;
pub mod widgets;
pub mod workers;

pub use app::App;
