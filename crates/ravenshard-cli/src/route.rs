//! `ravenshard route [--config FILE | --shards N] '<RQL>'`: which shards a query goes to,
//! and why (JSON on one line). Routing by content needs a configuration with `ByContent`
//! (the draft chapter's design); without it only `id()` narrows a query.

use crate::{topology_and_design, Fatal, TopologyArgs};
use ravenshard_design::route::route_text;
use std::io::Write;
use std::process::ExitCode;

pub fn run(args: &TopologyArgs, query: &str) -> Result<ExitCode, Fatal> {
    let (topology, design) = topology_and_design(args, "route")?;
    let route = route_text(query, &topology, design.as_ref())
        .map_err(|e| Fatal::Usage(format!("the query: {e}")))?;
    let text = serde_json::to_string(&route).map_err(|e| Fatal::Io("stdout".into(), e.into()))?;
    writeln!(std::io::stdout().lock(), "{text}").map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(ExitCode::SUCCESS)
}
