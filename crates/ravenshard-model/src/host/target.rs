//! What the Resharding view asks of the workspace about a target configuration: the load
//! per bucket that plans are made from, the bins of the documents as the target places
//! them, and RavenDB's check of the prefixes it adds or removes against the IDs.

use super::{options_of, Answer, Host};
use crate::workspace::{Bin, Placement};
use ravenshard::Topology;
use ravenshard_reshard::check_prefix_changes;

impl Host {
    /// The bins of buckets `start..end` as `configuration` (JSON) places the documents: the
    /// workspace's own placement when the target keeps every document in its bucket, else
    /// the documents moved to the target (kept until the workspace or the target changes,
    /// so that the map's moves and zooms do not place them again).
    pub(super) fn histogram_of(
        &mut self,
        configuration: &str,
        start: u32,
        end: u32,
        bins: usize,
    ) -> Answer {
        let target = match Topology::from_json(configuration) {
            Ok(t) => t,
            Err(e) => return Answer::Refused(e.to_string()),
        };
        let bins: Vec<Bin> = match self.placed_by(configuration, &target) {
            Some(after) => after.histogram_by(&target, start, end, bins),
            None => self.placement.histogram_by(&target, start, end, bins),
        };
        Answer::Histogram(bins)
    }

    /// The documents as `target` places them, when it moves some to other buckets (it adds
    /// or removes prefixes, moves to another server version, or the design is on): moved
    /// from the workspace's placement (only the IDs under the changed prefixes are hashed
    /// again), or placed again. `None` when the target keeps every document in its bucket.
    fn placed_by(&mut self, configuration: &str, target: &Topology) -> Option<&Placement> {
        let current = self.placement.topology();
        let same_buckets = self.placement.options().design.is_none()
            && target.prefixes() == current.prefixes()
            && target.server_version() == current.server_version();
        if same_buckets {
            return None;
        }
        let cached = matches!(&self.after, Some((v, json, _)) if *v == self.version && json == configuration);
        if !cached {
            let p = &self.placement;
            let after = p
                .with_topology(target)
                .or_else(|_| p.placed_again(target, p.options()));
            // A target that cannot place bucket statistics shows no documents.
            let after = after.unwrap_or_else(|_| Placement::new(&[], target, &options_of(target)));
            self.after = Some((self.version, configuration.to_string(), after));
        }
        self.after.as_ref().map(|(_, _, after)| after)
    }

    /// RavenDB's check of the prefixes `configuration` (JSON) adds or removes against the
    /// documents' IDs: `None` when it may be applied, else why not. The IDs are lowered one
    /// at a time, and only when a prefix is added or removed.
    pub(super) fn check_prefixes(&self, configuration: &str) -> Answer {
        let target = match Topology::from_json(configuration) {
            Ok(t) => t,
            Err(e) => return Answer::Refused(e.to_string()),
        };
        let p = &self.placement;
        let ids = (0..p.len()).filter_map(|i| p.lower_id(i));
        let problem = check_prefix_changes(p.topology(), &target, ids).err();
        Answer::PrefixesChecked(problem.map(|e| e.to_string()))
    }
}
