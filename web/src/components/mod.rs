//! The studio's function components. Each takes `Properties` (data to show, `Callback`s to
//! report what the user did) and computes nothing itself: the numbers come from the
//! [`state`](crate::state), which gets them from the core.

mod app;
mod editor;
mod rule;
mod settings;
mod summary;
mod table;

pub use app::App;
pub use editor::{IdEditor, IdEditorProps};
pub use rule::Rule;
pub use settings::{Settings, SettingsProps};
pub use summary::{ShardSummary, ShardSummaryProps};
pub use table::{
    HighlightedId, HighlightedIdProps, ResultRow, ResultRowProps, ResultsTable, ResultsTableProps,
};

/// The inline style that gives a shard its colour (`--hue`, used by the style sheet), so a
/// shard looks the same in the table and in the summary.
pub fn shard_style(shard: u32) -> String {
    // Steps of 137° (near the golden angle) keep neighbouring shards far apart in hue.
    format!("--hue: {}", (u64::from(shard) * 137 + 205) % 360)
}
