//! `--buckets FILE` of `plan` and `balance`: a cluster's own bucket statistics (saved
//! answers of `GET /databases/<db>/debug/sharding/buckets` and `.../debug/sharding/bucket`)
//! in place of a document list. A folder reads every `.json` file in it, by name.

use crate::Fatal;
use ravenshard::Topology;
use ravenshard_reshard::{BucketStatistics, Workload};
use std::fs;
use std::path::{Path, PathBuf};

/// The workload of the statistics in `paths` (files or folders), placed by `topology`; what
/// the merge found worth saying goes to stderr.
pub fn read(topology: &Topology, paths: &[PathBuf]) -> Result<Workload, Fatal> {
    let mut files = Vec::new();
    for path in paths {
        files.extend(json_files(path)?);
    }
    let statistics = read_statistics(&files)?;
    Workload::from_statistics(&statistics, topology).map_err(|e| Fatal::Usage(e.to_string()))
}

/// The answers of `files` merged into one set of statistics; what the merge found worth
/// saying goes to stderr.
pub fn read_statistics(files: &[PathBuf]) -> Result<BucketStatistics, Fatal> {
    let mut texts: Vec<(String, String)> = Vec::with_capacity(files.len());
    for file in files {
        let name = file.display().to_string();
        let text = fs::read_to_string(file).map_err(|e| Fatal::Io(name.clone(), e))?;
        texts.push((name, text));
    }
    let statistics = BucketStatistics::read(
        texts
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_str())),
    )
    .map_err(|e| Fatal::Usage(e.to_string()))?;
    for note in statistics.notes() {
        eprintln!("{note}");
    }
    Ok(statistics)
}

/// `path` itself, or the `.json` files of the folder `path`, by name.
pub fn json_files(path: &Path) -> Result<Vec<PathBuf>, Fatal> {
    let io = |e| Fatal::Io(path.display().to_string(), e);
    if !fs::metadata(path).map_err(io)?.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in fs::read_dir(path).map_err(io)? {
        let file = entry.map_err(io)?.path();
        if file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
            && file.is_file()
        {
            files.push(file);
        }
    }
    if files.is_empty() {
        return Err(Fatal::Usage(format!(
            "{}: the folder holds no .json file of bucket statistics",
            path.display()
        )));
    }
    files.sort();
    Ok(files)
}
