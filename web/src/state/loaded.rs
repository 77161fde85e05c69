//! A workspace made outside the reducer, a batch at a time (a generation, an import of a
//! million documents, a restore), whose documents the workspace's host staged as they came
//! and adopts when the job ends ([`Action::Loaded`](crate::views::state::Action::Loaded)): nothing is
//! placed on the page's thread, and a cancelled job leaves the workspace the user had.

use super::KeptFields;
use crate::numbers::group_digits;
use ravenshard::Topology;
use ravenshard_model::workspace::PlacementOptions;
use std::rc::Rc;

/// What a job places its documents by: the configuration in force when it starts.
#[derive(Debug, Clone)]
pub struct Placer {
    /// The topology.
    pub topology: Rc<Topology>,
    /// The configuration's revision (a later one is followed in place when handed over).
    pub revision: u64,
    /// The placement options (the chapter's design when on).
    pub options: Rc<PlacementOptions>,
}

impl PartialEq for Placer {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision && Rc::ptr_eq(&self.options, &other.options)
    }
}

/// A workspace made by a job, staged with the workspace's host: how many documents, what
/// to tell the user.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// How many documents the job made.
    pub documents: u64,
    /// The configuration they were placed by.
    pub placer: Placer,
    /// The notice to show (`Imported 1,000,000 documents from …`).
    pub summary: Option<String>,
    /// What an import kept of the documents' bodies (`None`: they are as made).
    pub kept: Option<KeptFields>,
    /// The job's number with the workspace's host, which staged its documents as they
    /// came ([`host::stage`](crate::workers::host::stage)): the host is told to adopt them.
    pub job: u64,
}

/// A job in progress, as the workspace panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Work {
    /// What is done (`Generating`, `Reading orders.json.gz`).
    pub label: String,
    /// Documents done so far.
    pub done: usize,
    /// How much is done, 0 to 1, when known.
    pub fraction: Option<f64>,
    /// Milliseconds left, estimated from the pace so far.
    pub left_ms: Option<f64>,
}

impl Work {
    /// The status line: `Generating — 400,000 documents, 40%, about 2 s left`.
    pub fn text(&self) -> String {
        let mut text = format!(
            "{} — {} documents",
            self.label,
            group_digits(self.done as u64)
        );
        if let Some(f) = self.fraction {
            text.push_str(&format!(", {:.0}%", f * 100.0));
        }
        if let Some(ms) = self.left_ms {
            text.push_str(&format!(", about {:.0} s left", (ms / 1000.0).ceil()));
        }
        text
    }
}

/// `Imported 3 documents from x.json. 1 entry was skipped (first: …).`
pub fn import_summary(name: &str, count: usize, skipped: usize, first: Option<String>) -> String {
    let s = if count == 1 { "" } else { "s" };
    let mut summary = format!("Imported {count} document{s} from {name}.");
    if skipped > 0 {
        let entries = if skipped == 1 {
            "entry was"
        } else {
            "entries were"
        };
        summary.push_str(&format!(" {skipped} {entries} skipped"));
        if let Some(first) = first {
            summary.push_str(&format!(" (first: {first})"));
        }
        summary.push('.');
    }
    summary
}

/// Why an import of a file `read as` a format made no document: how many entries were
/// skipped and why the first was, so that the user knows what to fix.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::nothing_imported;
///
/// assert_eq!(nothing_imported("plain text", 0, None), "no document IDs were found in it (read as plain text)");
/// assert_eq!(
///     nothing_imported("JSON", 2, Some("$[0] (line 1): skipped: the document has no ID".into())),
///     "no document IDs were found in it (read as JSON; 2 entries skipped, the first: $[0] \
///      (line 1): skipped: the document has no ID)"
/// );
/// ```
pub fn nothing_imported(read_as: &str, skipped: usize, first: Option<String>) -> String {
    let skipped = match (skipped, first) {
        (0, _) => String::new(),
        (1, first) => format!(
            "; 1 entry skipped{}",
            first.map(|f| format!(": {f}")).unwrap_or_default()
        ),
        (n, first) => format!(
            "; {n} entries skipped{}",
            first
                .map(|f| format!(", the first: {f}"))
                .unwrap_or_default()
        ),
    };
    format!("no document IDs were found in it (read as {read_as}{skipped})")
}
