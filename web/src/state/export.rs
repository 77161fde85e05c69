//! What the studio exports from the placement in force: the report JSON (the CSV is
//! [`documents_csv`](super::documents_csv)).

use ravenshard_model::workspace::Placement;
use serde_json::{json, Value};

/// The most anchored groups (and invalid documents) the report lists.
pub const REPORT_GROUPS: usize = 100;

/// The most members of a group the report names.
pub const REPORT_MEMBERS: usize = 20;

/// The report JSON: totals, per-shard counts, bytes, nodes and balance, the nodes × shards
/// matrix, obese buckets and the largest anchored groups, all from `placement`, and the
/// configuration (and database) it was placed by.
pub fn report_json(placement: &Placement) -> String {
    let p = placement;
    // The largest groups one at a time from the groups' kept order (the summary of every
    // group, with its members, is about 200 ms natively at 10,000,000 documents).
    let groups: Vec<Value> = (0..REPORT_GROUPS as u32)
        .map_while(|rank| p.group(rank))
        .map(|g| {
            json!({
                "anchor": g.anchor,
                "anchor_is_document": g.anchor_is_document(),
                "documents": g.documents,
                "bytes": g.bytes,
                "bucket": g.bucket,
                "shard": g.shard,
                "obese": g.obese,
                "split": g.split,
                "advice": g.advice,
                "members": g.members.iter().take(REPORT_MEMBERS)
                    .filter_map(|&i| p.id(i as usize)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let nodes: Vec<Value> = p
        .matrix()
        .rows
        .iter()
        .map(|r| json!({"node": r.node, "documents": r.total_documents, "bytes": r.total_bytes}))
        .collect();
    let invalid: Vec<Value> = p
        .invalid()
        .iter()
        .take(REPORT_GROUPS)
        .map(|e| json!({"index": e.index, "id": p.id(e.index as usize), "error": e.message}))
        .collect();
    let configuration =
        serde_json::from_str::<Value>(&p.topology().to_json()).unwrap_or(Value::Null);
    let report = json!({
        "database": p.topology().database(),
        "totals": p.totals(),
        "document_balance": p.document_balance(),
        "byte_balance": p.byte_balance(),
        "shards": p.shards(),
        "nodes": nodes,
        "obese_threshold": p.obese_threshold(),
        "obese_buckets": p.obese_buckets(),
        "anchored_group_count": p.group_count(),
        "anchored_groups": groups,
        "invalid": invalid,
        "configuration": configuration,
    });
    serde_json::to_string_pretty(&report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
