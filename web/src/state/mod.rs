//! The sub-states every view shares, each a [`Reducible`](yew::Reducible) with its own
//! action enum, and the plain data they are made of. Pure and tested natively; the studio's
//! whole state ([`State`](crate::views::state::State)) puts them together with each view's
//! own.
//!
//! * [`ConfigState`] ([`ConfigAction`]): the configuration fields and the topology in force.
//! * [`WorkspaceState`] ([`WorkspaceAction`]): the documents, the ID editor's page, the
//!   generator and imports.
//! * [`ViewsState`] ([`ViewAction`]): the tab, filters, sort, selections and Explain; the
//!   view's address in the URL fragment is read by [`route`].
//! * [`DesignState`] ([`DesignAction`]): the chapter's design, the router and the checks.
//! * [`NoticesState`] ([`NoticeAction`]): the messages at the top.
//! * [`Writer`]: whether this tab writes the saved studio, or another of its tabs does.
//!
//! The documents are the workspace's host's, in the studio's worker: the workspace queues
//! each change for it ([`Outbox`]). Typed fields are [`Field`]s: text, error and value
//! together.

pub mod config;
pub mod design;
pub mod documents;
pub mod editor;
pub mod export;
pub mod inputs;
pub mod kept;
pub mod limits;
pub mod loaded;
pub mod notices;
pub mod outbox;
pub mod route;
pub mod save_timer;
pub mod tab;
pub mod tab_keys;
pub mod views;
pub mod workspace;
pub mod writer;

pub use config::{
    read_configuration, ConfigAction, ConfigProblem, ConfigState, DEFAULT_DATABASE, DEFAULT_NODES,
    DEFAULT_REPLICATION_FACTOR, DEFAULT_SHARDS,
};
pub use design::{DesignAction, DesignState, DEFAULT_QUERY, MAX_TRANSACTION_IDS};
pub use documents::{documents_text, parse_documents, parse_documents_at};
pub use editor::{Page, PageMove, Splice, MAX_PAGE_LINES, PAGE_LINES};
pub use export::{documents_csv, report_json, write_csv_rows, CSV_HEADER};
pub use inputs::{
    default_tags, parse_database, parse_nodes, parse_replication_factor, parse_shard_count,
    parse_tags, preview, split_chars, Field, MAX_NODES, MAX_SHARDS, PREVIEW_CHARS,
};
pub use kept::{KeptFields, SavedKept};
pub use limits::{check_fits, check_import_size, documents_that_fit, DOCUMENT_BYTES, WASM_MEMORY};
pub use loaded::{import_summary, nothing_imported, Loaded, Placer, Work};
pub use notices::{Level, Notice, NoticeAction, NoticesState};
pub use outbox::Outbox;
pub use save_timer::{SaveTimer, SAVE_DELAY_MS, SAVE_MAX_DELAY_MS};
pub use tab::Tab;
pub use views::{Metric, ViewAction, ViewsState};
pub use workspace::{
    ImportStatus, PageWanted, WorkspaceAction, WorkspaceState, DEFAULT_ANCHORED_PERCENT,
    DEFAULT_GENERATED, MAX_GENERATED,
};
pub use writer::{SavedInTab, TabRole, Writer, SAVES_CHANNEL, WRITER_LOCK};
