//! The studio's long operations, run from the page without blocking it: imports and
//! generations placed a batch at a time ([`bulk`], [`import`]), the CSV export
//! ([`export`]), the readiness check's run over the studio's documents ([`check`]), the
//! save after changes ([`save`]), and the browser glue they need
//! (downloads, the clipboard: [`browser`]; the other open tabs: [`other_tabs`]).

pub mod browser;
pub mod bulk;
pub mod check;
pub mod export;
pub mod import;
pub mod other_tabs;
pub mod save;
