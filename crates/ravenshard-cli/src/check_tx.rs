//! `ravenshard check-tx [--config FILE | --shards N] ID...`: can one local transaction
//! write these documents atomically? JSON; exit status 1 when an ID cannot be placed.

use crate::{topology_and_design, Fatal, TopologyArgs};
use ravenshard_design::locality::check_transaction;
use std::io::Write;
use std::process::ExitCode;

pub fn run(args: &TopologyArgs, ids: &[String]) -> Result<ExitCode, Fatal> {
    let (topology, design) = topology_and_design(args, "check-tx")?;
    let check = check_transaction(ids, &topology, design.as_ref());
    let text =
        serde_json::to_string_pretty(&check).map_err(|e| Fatal::Io("stdout".into(), e.into()))?;
    writeln!(std::io::stdout().lock(), "{text}").map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(if check.invalid.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
