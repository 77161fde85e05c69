//! `ravenshard check [--config C | --shards N] [--indexes I] [--queries Q] [--loads L]
//! RECORD [EXPORT]`: what of a database breaks or changes once sharded
//! (`ravenshard_check`). A report grouped by severity, or `--json`; exit status 0 when
//! nothing blocks, 1 when something does, 2 on bad input.

use crate::{Fatal, TopologyArgs};
use ravenshard_check::{check, CheckError, Finding, Inputs, Report, Severity};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The files `check` reads.
pub struct Files {
    pub record: PathBuf,
    pub export: Option<PathBuf>,
    pub indexes: Option<PathBuf>,
    pub queries: Option<PathBuf>,
    pub loads: Option<PathBuf>,
    pub json: bool,
}

fn read(path: &Path) -> Result<String, Fatal> {
    std::fs::read_to_string(path).map_err(|e| Fatal::Io(path.display().to_string(), e))
}

fn read_opt(path: Option<&Path>) -> Result<Option<String>, Fatal> {
    path.map(read).transpose()
}

pub fn run(topology: &TopologyArgs, files: &Files) -> Result<ExitCode, Fatal> {
    let layout = topology.load()?;
    let record = read(&files.record)?;
    let indexes = read_opt(files.indexes.as_deref())?;
    let queries = read_opt(files.queries.as_deref())?;
    let loads = read_opt(files.loads.as_deref())?;
    let export = match &files.export {
        Some(path) => {
            Some(std::fs::read(path).map_err(|e| Fatal::Io(path.display().to_string(), e))?)
        }
        None => None,
    };
    let inputs = Inputs {
        record: &record,
        indexes: indexes.as_deref(),
        queries: queries.as_deref(),
        loads: loads.as_deref(),
        export: export.as_deref(),
        documents: None,
        sharding: layout.as_ref(),
    };
    let report = check(&inputs).map_err(|e| bad_input(files, topology, &e))?;
    let text = match files.json {
        true => serde_json::to_string_pretty(&report)
            .map_err(|e| Fatal::Io("stdout".into(), e.into()))?,
        false => readable(&report),
    };
    writeln!(std::io::stdout().lock(), "{text}").map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(match report.blocks() {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    })
}

/// The message for bad input, naming the file it is in.
fn bad_input(files: &Files, topology: &TopologyArgs, e: &CheckError) -> Fatal {
    let file = match e.input() {
        "indexes" => files.indexes.as_deref(),
        "loads" => files.loads.as_deref(),
        "export" => files.export.as_deref(),
        "sharding" => topology.config.as_deref().or(Some(&files.record)),
        _ => Some(files.record.as_path()),
    };
    match file {
        Some(file) => Fatal::Usage(format!("{}: {e}", file.display())),
        None => Fatal::Usage(e.to_string()),
    }
}

/// The report for people: a summary line, then the findings grouped by severity.
pub fn readable(report: &Report) -> String {
    let mut out = String::new();
    let name = report.database.as_deref().unwrap_or("the database");
    let state = if report.sharded {
        "sharded"
    } else {
        "not sharded"
    };
    let layout = match report.shards {
        Some(n) => format!(", checked for {n} shards"),
        None => String::new(),
    };
    let _ = writeln!(out, "ravenshard check: {name} ({state}){layout}");
    let severities = Severity::ALL;
    let counts: Vec<String> = severities
        .iter()
        .map(|s| format!("{} {}", report.count(*s), s))
        .collect();
    let _ = writeln!(out, "{}", counts.join(", "));
    for severity in severities {
        let findings: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.severity == severity)
            .collect();
        if findings.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "\n{} ({})",
            severity.as_str().to_uppercase(),
            findings.len()
        );
        for finding in findings {
            let _ = writeln!(out, "- {} [{}]", finding.feature, finding.rule);
            let _ = writeln!(out, "  where: {}", finding.location);
            match finding.share {
                Some(share) => {
                    let _ = writeln!(
                        out,
                        "  what:  {} (share {:.1}%)",
                        finding.detail,
                        share * 100.0
                    );
                }
                None => {
                    let _ = writeln!(out, "  what:  {}", finding.detail);
                }
            }
            let _ = writeln!(out, "  do:    {}", finding.instead);
            let _ = writeln!(out, "  from:  {}", finding.source);
        }
    }
    out.trim_end().to_string()
}
