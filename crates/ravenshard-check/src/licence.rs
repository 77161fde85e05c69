//! Licence and topology notes, as `docs/sharding/overview.mdx` (Licensing) states them,
//! only where the record or the layout shows the nodes.

use crate::finding::{Finding, Location, Severity};
use crate::rules;
use ravenshard::Topology;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Adds the notes.
pub(crate) fn check(
    record: &Map<String, Value>,
    layout: Option<&Topology>,
    findings: &mut Vec<Finding>,
) {
    let members = record
        .get("Topology")
        .and_then(|t| t.get("Members"))
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let per_shard = layout.map_or(0, |t| {
        t.shards()
            .map(|s| t.members(s.number).len())
            .max()
            .unwrap_or(0)
    });
    if members > 1 || per_shard > 1 {
        let detail = match per_shard > 1 {
            true => format!("the layout puts up to {per_shard} nodes on a shard"),
            false => format!("the database is on {members} nodes (Topology.Members)"),
        };
        findings.push(rules::REPLICATION_FACTOR.finding(
            Severity::Note,
            Location::at_path(
                if per_shard > 1 { "sharding" } else { "record" },
                if per_shard > 1 {
                    "Shards"
                } else {
                    "Topology.Members"
                },
            ),
            format!("{detail}: a Developer licence restricts the shard replication factor to 1"),
        ));
    }
    let nodes: BTreeSet<&String> = layout
        .map(|t| t.shards().flat_map(|s| t.members(s.number)).collect())
        .unwrap_or_default();
    if nodes.len() > 1 {
        findings.push(rules::SHARDS_ON_NODES.finding(
            Severity::Note,
            Location::at_path("sharding", "Shards"),
            format!(
                "the shards are on {} nodes; on a Community or Professional licence all shards must be on the same node",
                nodes.len()
            ),
        ));
    }
}
