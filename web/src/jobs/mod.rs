//! The studio's long operations, run from the page without blocking it: imports and
//! generations placed a batch at a time ([`bulk`], [`import`]), the CSV export
//! ([`export`]), the readiness check's run over the studio's documents ([`check`]), the
//! save after changes ([`save`]), and the browser glue they need
//! (downloads, the clipboard: [`browser`]); which of the studio's tabs writes the saved
//! studio ([`writer_lock`]) and how the writer tells the others it saved ([`saves_channel`]).

pub mod browser;
pub mod bulk;
pub mod check;
pub mod export;
pub mod import;
pub mod save;
pub mod saves_channel;
pub mod writer_lock;
