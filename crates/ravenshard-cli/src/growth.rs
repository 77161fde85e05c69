//! `ravenshard growth`: snapshots of a cluster's bucket statistics, taken at different
//! times, side by side (`ravenshard_reshard::growth`): which ranges of buckets grow, and
//! which shard takes the growth. Prints JSON.

use crate::{buckets, Fatal};
use ravenshard_reshard::{growth, Snapshot};
use serde_json::json;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Reads each of `snapshots` (a file, or a folder whose `.json` files are one snapshot),
/// lays them side by side and prints the grid with the `top` bins that grew most.
pub fn run(
    snapshots: &[PathBuf],
    file_times: bool,
    top: usize,
    by_bytes: bool,
) -> Result<ExitCode, Fatal> {
    let mut read = Vec::with_capacity(snapshots.len());
    for path in snapshots {
        read.push(snapshot(path, file_times)?);
    }
    let g = growth(read).map_err(|e| Fatal::Usage(e.to_string()))?;
    let out = json!({
        "width": g.width(),
        "snapshots": g.snapshots(),
        "bins": g.bins(),
        "growing": g.growing(top, by_bytes),
    });
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{out}").map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(ExitCode::SUCCESS)
}

/// One snapshot: the statistics of `path`'s files, timed by their newest file's
/// modification time when `file_times` is set.
fn snapshot(path: &Path, file_times: bool) -> Result<Snapshot, Fatal> {
    let files = buckets::json_files(path)?;
    let mut newest = None;
    if file_times {
        for file in &files {
            let name = file.display().to_string();
            let modified = fs::metadata(file)
                .and_then(|m| m.modified())
                .map_err(|e| Fatal::Io(name.clone(), e))?;
            let time = jiff::Timestamp::try_from(modified).map_err(|e| {
                Fatal::Usage(format!("{name}: its modification time cannot be read: {e}"))
            })?;
            newest = newest.max(Some(time));
        }
    }
    Ok(Snapshot {
        name: path.display().to_string(),
        taken: newest,
        statistics: buckets::read_statistics(&files)?,
    })
}
