//! Questions of the Resharding view: the bucket map's bins (of the workspace's own
//! configuration, or of a target, placing the documents as it would), the load per bucket
//! that plans are made from, and RavenDB's check of the prefixes a target adds or removes
//! against the IDs.

use super::{ConfigurationError, Question};
use crate::host::{options_of, Host};
use crate::workspace::{Bin, Placement};
use ravenshard::Topology;
use ravenshard_reshard::{check_prefix_changes, BucketLoad};
use serde::{Deserialize, Serialize};

/// The bucket map's bins of buckets `start..end`, in bucket order, under the workspace's
/// own configuration (`None`) or another one (the Resharding view's target, as JSON),
/// which places the documents as it would (moving those under the prefixes it adds or
/// removes).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Histogram {
    /// The other configuration's JSON.
    pub configuration: Option<String>,
    /// The first bucket.
    pub start: u32,
    /// One past the last.
    pub end: u32,
    /// How many bins.
    pub bins: u32,
}

impl Question for Histogram {
    type Answer = Result<Vec<Bin>, ConfigurationError>;

    fn answer(&self, host: &mut Host) -> Result<Vec<Bin>, ConfigurationError> {
        let bins = usize::try_from(self.bins).unwrap_or(usize::MAX);
        let Some(json) = &self.configuration else {
            return Ok(host.placement.histogram(self.start, self.end, bins));
        };
        let target = Topology::from_json(json).map_err(|e| ConfigurationError(e.to_string()))?;
        Ok(match host.placed_by(json, &target) {
            Some(after) => after.histogram_by(&target, self.start, self.end, bins),
            None => host
                .placement
                .histogram_by(&target, self.start, self.end, bins),
        })
    }
}

/// What each used bucket holds (the Resharding view plans and balances from it): about
/// 630,000 entries, 12 MB, at 1,000,000 documents.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Load;

impl Question for Load {
    type Answer = BucketLoad;

    fn answer(&self, host: &mut Host) -> BucketLoad {
        host.placement.bucket_load()
    }
}

/// RavenDB's check of the prefixes another configuration (JSON) adds or removes: it
/// refuses both while a document's ID starts with the prefix. The answer is why the
/// changes cannot be made, `None` when they can; the IDs are lowered one at a time, and
/// only when a prefix is added or removed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckPrefixes {
    /// The other configuration's JSON.
    pub configuration: String,
}

impl Question for CheckPrefixes {
    type Answer = Result<Option<String>, ConfigurationError>;

    fn answer(&self, host: &mut Host) -> Result<Option<String>, ConfigurationError> {
        let target = Topology::from_json(&self.configuration)
            .map_err(|e| ConfigurationError(e.to_string()))?;
        let p = &host.placement;
        let ids = (0..p.len()).filter_map(|i| p.lower_id(i));
        let problem = check_prefix_changes(p.topology(), &target, ids).err();
        Ok(problem.map(|e| e.to_string()))
    }
}

impl Host {
    /// The documents as `target` places them, when it moves some to other buckets (it adds
    /// or removes prefixes, moves to another server version, or the design is on): moved
    /// from the workspace's placement (only the IDs under the changed prefixes are hashed
    /// again), or placed again, and kept until the workspace or the target changes (so
    /// that the map's moves and zooms do not place them again). `None` when the target
    /// keeps every document in its bucket.
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
}
