//! A sharded record against the intended sharding: the changes RavenDB's `ShardingStore`
//! refuses. A shard cannot be removed while it holds buckets, and a prefix cannot be added
//! or removed while documents start with it (counted in the export, when there is one).

use crate::finding::{Finding, Location, Severity};
use crate::rules;
use ravenshard::{Document, Topology};
use std::collections::BTreeSet;

/// The prefixes of a topology, lower-cased.
fn prefixes(topology: &Topology) -> BTreeSet<String> {
    topology
        .prefixes()
        .iter()
        .map(|p| p.prefix.to_lowercase())
        .collect()
}

/// Compares the record's own layout with the intended one.
pub(crate) fn check(
    current: &Topology,
    intended: &Topology,
    documents: Option<&[Document]>,
    findings: &mut Vec<Finding>,
) {
    let kept: BTreeSet<u32> = intended.shards().map(|s| s.number).collect();
    let holding: BTreeSet<u32> = current.ranges().iter().map(|r| r.shard).collect();
    for shard in holding.difference(&kept) {
        let buckets: u64 = current
            .ranges()
            .iter()
            .filter(|r| r.shard == *shard)
            .map(|r| u64::from(r.end - r.start))
            .sum();
        findings.push(rules::REMOVE_SHARD_WITH_BUCKETS.finding(
            Severity::Blocks,
            Location::at_path("sharding", "Shards"),
            format!("the intended sharding drops shard {shard}, which holds {buckets} buckets in the record"),
        ));
    }
    let (before, after) = (prefixes(current), prefixes(intended));
    let changed = after
        .difference(&before)
        .map(|p| (p, "adds"))
        .chain(before.difference(&after).map(|p| (p, "removes")));
    for (prefix, change) in changed {
        let using = documents.map(|docs| {
            docs.iter()
                .filter(|d| ravenshard::lower_id(&d.id).starts_with(prefix.as_str()))
                .count()
        });
        let (severity, detail) = match using {
            Some(0) => (Severity::Note, format!("the intended sharding {change} the prefix '{prefix}': no document of the export starts with it")),
            Some(n) => (Severity::Blocks, format!("the intended sharding {change} the prefix '{prefix}', and {n} documents of the export start with it")),
            None => (Severity::Changes, format!("the intended sharding {change} the prefix '{prefix}': refused if any document starts with it (give an export to count them)")),
        };
        findings.push(rules::PREFIX_CHANGE_WITH_DOCUMENTS.finding(
            severity,
            Location::at_path("sharding", "Prefixed"),
            detail,
        ));
    }
}
