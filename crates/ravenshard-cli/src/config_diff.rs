//! `ravenshard config-diff OLD NEW [--docs FILE]`: is a `ByContent` change safe?
//! Exit status 0 when it is, 1 when it needs attention, 2 on errors.

use crate::{read_design, read_topology, Fatal};
use ravenshard_design::content::{diff_designs, DiffDocument};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub fn run(old: &Path, new: &Path, docs: Option<&Path>) -> Result<ExitCode, Fatal> {
    let old_design = read_design(old, &read_topology(old)?)?;
    let new_design = read_design(new, &read_topology(new)?)?;
    let documents = match docs {
        Some(path) => read_documents(path)?,
        None => Vec::new(),
    };
    let diff = diff_designs(old_design.as_ref(), new_design.as_ref(), &documents);
    let text =
        serde_json::to_string_pretty(&diff).map_err(|e| Fatal::Io("stdout".into(), e.into()))?;
    writeln!(std::io::stdout().lock(), "{text}").map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(if diff.is_safe() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// NDJSON documents or `id[<TAB>size[<TAB>collection]]` lines ([`DiffDocument::read_all`]).
fn read_documents(path: &Path) -> Result<Vec<DiffDocument>, Fatal> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Fatal::Io(name.clone(), e))?;
    DiffDocument::read_all(&text).map_err(|e| {
        Fatal::Usage(format!(
            "{name} {e}. Fix the line, or give `id<TAB>size` lines instead."
        ))
    })
}
