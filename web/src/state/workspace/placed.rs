//! Bucket statistics in place of documents: read in the page for the notice, placed by the
//! workspace's host.

use super::{plural, WorkspaceState};
use crate::state::notices::{Level, Notice};
use ravenshard_model::host::Change;
use ravenshard_reshard::BucketStatistics;
use std::rc::Rc;

impl WorkspaceState {
    /// Bucket statistics were read: merged, they replace the documents (the host places
    /// them; when the configuration cannot, its news say why); if they cannot be read, the
    /// workspace is unchanged and the import's error says why.
    pub(super) fn statistics_imported(&mut self, names: &[String], texts: &[String]) {
        self.import = None;
        let files = names
            .iter()
            .zip(texts)
            .map(|(n, t)| (n.as_str(), t.as_str()));
        let statistics = match BucketStatistics::read(files) {
            Ok(s) => s,
            Err(e) => {
                self.import_error = Some(format!(
                    "The bucket statistics could not be read, so the workspace is unchanged: {e}"
                ));
                return;
            }
        };
        self.import_error = None;
        self.outbox.push(Change::Statistics {
            names: names.to_vec(),
            texts: texts.to_vec(),
        });
        let total = statistics.total();
        let ranges = statistics.ranges().len();
        let coarse = statistics.coarse_ranges();
        let mut summary = format!(
            "Imported bucket statistics from {} file{}: {} documents, {} bytes in {ranges} \
             range{}, {coarse} of them per range of buckets rather than per bucket. They have \
             no document IDs, and are not kept when the page reloads.",
            names.len(),
            plural(names.len()),
            total.docs,
            total.bytes,
            plural(ranges),
        );
        for note in statistics.notes() {
            summary.push(' ');
            summary.push_str(note);
        }
        self.adopt(0);
        // Bucket statistics have no documents: no page to ask for.
        self.page_wanted = None;
        self.statistics = Some(Rc::new(statistics));
        self.notice = Some(Notice::new(Level::Info, summary));
    }
}
