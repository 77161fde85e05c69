//! The workspace's placement following the configuration, and bucket statistics placed in
//! place of documents.

use super::{plural, WorkspaceState};
use crate::state::live::Live;
use crate::state::notices::{Level, Notice};
use ravenshard::Topology;
use ravenshard_design::reshard::BucketStatistics;
use ravenshard_model::host::Change;
use ravenshard_model::workspace::{Placement, PlacementOptions};
use std::rc::Rc;

impl WorkspaceState {
    /// Places the documents (or the bucket statistics) by `topology` with `options`: in
    /// place when only the topology changed and the placement can follow it
    /// ([`Placement::set_topology`], no ID hashed again), else placed again from the
    /// placement's own tables. Bucket statistics the topology cannot place give an empty
    /// placement, and a notice says why.
    pub(super) fn configure(&mut self, topology: &Rc<Topology>, options: &Rc<PlacementOptions>) {
        self.outbox.push(super::configure(topology));
        if let Some(statistics) = &self.statistics {
            let placement = match Placement::from_statistics(statistics, topology, options) {
                Ok(p) => p,
                Err(e) => {
                    self.notice = Some(Notice::new(
                        Level::Error,
                        format!(
                            "The configuration in force cannot place the bucket statistics, \
                             so the views are empty: {e}"
                        ),
                    ));
                    Placement::new(&[], topology, options)
                }
            };
            self.placement = Live::new(placement);
            return;
        }
        let (same_options, same_topology) = {
            let p = self.placement.get();
            (p.options() == &**options, p.topology() == &**topology)
        };
        if same_options && same_topology {
            return;
        }
        if same_options && self.placement.update(|p| p.set_topology(topology)).is_ok() {
            return;
        }
        let again = self.placement.get().placed_again(topology, options);
        match again {
            Ok(p) => self.placement = Live::new(p),
            Err(e) => {
                let text = format!("The documents could not be placed again: {e}.");
                self.notice = Some(Notice::new(Level::Error, text));
            }
        }
    }

    /// Bucket statistics were read: merged, they replace the documents; if they cannot be
    /// read, the workspace is unchanged and the import's error says why.
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
        let statistics = Rc::new(statistics);
        let placement = self.placement.get();
        let (topology, options) = (
            Rc::new(placement.topology().clone()),
            Rc::new(placement.options().clone()),
        );
        drop(placement);
        self.adopt(Live::new(Placement::new(&[], &topology, &options)));
        // Bucket statistics have no documents: no page to ask for.
        self.page_wanted = None;
        self.statistics = Some(statistics);
        self.notice = None;
        self.configure(&topology, &options);
        // When the configuration cannot place them, the notice says so after the summary.
        self.notice = Some(match self.notice.take() {
            Some(problem) => Notice::new(problem.level, format!("{summary} {}", problem.text)),
            None => Notice::new(Level::Info, summary),
        });
    }
}
