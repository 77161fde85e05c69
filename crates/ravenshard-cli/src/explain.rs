//! `ravenshard explain`: the steps from an ID to its shard, readable or as JSON.

use crate::Fatal;
use ravenshard::{explain, Explanation, Topology, NUMBER_OF_BUCKETS};
use std::process::ExitCode;

pub fn run(topology: Option<&Topology>, id: &str, json: bool) -> Result<ExitCode, Fatal> {
    let explanation = match explain(id, topology) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    if json {
        match serde_json::to_string_pretty(&explanation) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::FAILURE);
            }
        }
    } else {
        print!("{}", readable(&explanation, topology));
    }
    Ok(ExitCode::SUCCESS)
}

/// The explanation as aligned `step  value` lines.
pub fn readable(e: &Explanation, topology: Option<&Topology>) -> String {
    let mut out = String::new();
    let mut step = |name: &str, value: String| {
        out.push_str(&format!("{name:<13} {value}\n"));
    };
    step("id", e.id.clone());
    if let Some(made) = &e.server_made {
        step("stored as", made.final_id.clone());
        step("placement", made.placement.clone());
        step(
            "steps below",
            "for the text as given, which no document gets".into(),
        );
    }
    step("lower-case", e.lower_id.clone());
    step(
        "hashed part",
        if e.anchored {
            format!(
                "{:?} (after the last '$', bytes {}..{}): anchored",
                e.hashed, e.hashed_range[0], e.hashed_range[1]
            )
        } else {
            format!("{:?} (the whole ID; no anchor)", e.hashed)
        },
    );
    step("xxh64", format!("0x{} (seed 0)", e.hash));
    step(
        "raw bucket",
        format!("{} (hash mod {NUMBER_OF_BUCKETS})", e.raw_bucket),
    );
    match &e.prefix {
        Some(p) => step(
            "prefix",
            format!(
                "'{}' -> + {} = bucket {}",
                p.prefix, p.bucket_range_start, e.bucket
            ),
        ),
        None if topology.is_some_and(|t| !t.prefixes().is_empty()) => {
            step("prefix", "none matches".into())
        }
        None => {}
    }
    step("bucket", e.bucket.to_string());
    if let (Some(range), Some(shard)) = (e.range, e.shard) {
        step(
            "bucket range",
            format!("{}..{} (end exclusive)", range.start, range.end),
        );
        step("shard", shard.to_string());
        if let Some(fragment) = &e.fragment {
            let nodes = if e.nodes.is_empty() {
                "(no member nodes configured)".to_string()
            } else {
                format!("on nodes {}", e.nodes.join(", "))
            };
            step("fragment", format!("{fragment} {nodes}"));
        }
    } else {
        step(
            "shard",
            "give --shards N or --config FILE to see the shard".into(),
        );
    }
    for w in &e.warnings {
        step("warning", w.message.clone());
    }
    out
}
