//! What the studio exports of a placement: the CSV of its documents and the report JSON.
//! The studio's worker writes them where the documents are; the page only offers the file.

use crate::workspace::Placement;
use ravenshard_import::csv_export::write_cell as csv_field;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The CSV export's header line, which also marks the file as ravenshard's export so that
/// its neutralised cells read back exactly
/// ([`csv_export`](ravenshard_import::csv_export)).
pub use ravenshard_import::csv_export::EXPORT_HEADER as CSV_HEADER;

/// The CSV of every document of `placement` (`id,bucket,shard,collection,size`, one line
/// each, in input order; empty cells for unknown values and for documents that are not
/// placed): [`CSV_HEADER`] and [`write_csv_rows`] of them all. A cell a spreadsheet would
/// read as a formula (it begins with `=`, `+`, `-`, `@`, a tab, a carriage return or a NUL)
/// is written with a `'` in front; ravenshard's CSV reader takes it off again. The studio
/// writes a large workspace's a range at a time instead.
///
/// # Examples
///
/// ```
/// use ravenshard_model::export::documents_csv;
/// use ravenshard_model::workspace::{Document, Placement};
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(3).unwrap();
/// let p = Placement::new(&[Document::new("customers/1-A"), Document::new("")], &t, &Default::default());
/// assert_eq!(documents_csv(&p), "id,bucket,shard,collection,size\ncustomers/1-A,982173,2,,\n,,,,\n");
///
/// let p = Placement::new(&[Document::new("=cmd"), Document::new("-1")], &t, &Default::default());
/// let csv = documents_csv(&p);
/// let ids: Vec<_> = csv.lines().map(|line| line.split(',').next().unwrap()).collect();
/// assert_eq!(ids, ["id", "'=cmd", "'-1"]);
/// ```
pub fn documents_csv(placement: &Placement) -> String {
    let mut out = String::from(CSV_HEADER);
    write_csv_rows(placement, 0..placement.len(), &mut out);
    out
}

/// Appends the CSV lines of documents `range` of `placement` to `out` (past the end:
/// none). A row is read without its group's rank, which the CSV does not show (the rank
/// would sort every anchored group first).
pub fn write_csv_rows(placement: &Placement, range: std::ops::Range<usize>, out: &mut String) {
    for index in range {
        let Some(row) = placement.row_unranked(index) else {
            continue;
        };
        csv_field(out, row.id);
        out.push(',');
        if let Some(bucket) = row.bucket {
            let _ = write!(out, "{bucket}");
        }
        out.push(',');
        if let Some(shard) = row.shard {
            let _ = write!(out, "{shard}");
        }
        out.push(',');
        csv_field(out, row.collection.unwrap_or_default());
        out.push(',');
        if let Some(size) = row.size {
            let _ = write!(out, "{size}");
        }
        out.push('\n');
    }
}

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
