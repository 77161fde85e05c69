//! The root of the studio: [`App`] opens the state (share link, saved studio or sample,
//! [`open`], [`restore`]), saves it in the tab that writes the saved studio (`autosave`),
//! and lays out the panels around the view shown
//! ([`ConfigPanel`], [`WorkspacePanel`], [`Notices`], the tab bar of [`tabs`]), each view
//! at its address in the URL fragment ([`routes`]).

mod autosave;
mod config;
mod masthead;
mod notices;
pub mod open;
pub mod restore;
pub mod routes;
pub mod share;
mod studio;
pub mod tabs;
mod workspace;

pub use config::{ConfigPanel, ConfigPanelProps};
pub use notices::{Notices, NoticesProps};
pub use studio::App;
pub use workspace::{WorkspacePanel, WorkspacePanelProps};
