//! `ravenshard plan` and `ravenshard balance`: the bucket moves between two configurations,
//! or to a balanced one, for the documents of a file or stdin (ID lines, an export, JSON,
//! NDJSON or CSV), as JSON. Documents that cannot be read are reported on stderr and left
//! out (exit status 1). With `--calls`, the plan's calls to the cluster instead (see
//! `calls.rs`).

use crate::input::{place, Entry, Input, InputFormat};
use crate::{read_design, read_topology, Fatal};
use ravenshard::{ServerVersion, Topology};
use ravenshard_design::content::ContentDesign;
use ravenshard_reshard::{
    balance, BalanceOptions, Measure, PlanOptions, ReshardError, Throughput, Workload,
    WorkloadReader,
};
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// Options shared by `plan` and `balance`.
pub struct Common<'a> {
    pub by: Measure,
    pub throughput: Option<Throughput>,
    pub calls: &'a crate::calls::CallArgs,
    pub file: Option<&'a Path>,
    pub format: InputFormat,
    /// Bucket statistics to read in place of documents (`--buckets`).
    pub buckets: &'a [std::path::PathBuf],
    /// `--threads`: ID lines are read on this many threads (`None`: every core).
    pub threads: Option<usize>,
    /// `--server-version`: whose rules place the documents.
    pub server_version: ServerVersion,
}

/// A configuration file read for `plan` or `balance`, following `--server-version`.
fn read_for(path: &Path, common: &Common) -> Result<Topology, Fatal> {
    let mut topology = read_topology(path)?;
    topology.set_server_version(common.server_version);
    Ok(topology)
}

pub fn run_plan(config: &Path, target: &Path, common: Common) -> Result<ExitCode, Fatal> {
    let current = read_for(config, &common)?;
    let design = read_design(config, &current)?;
    let target = read_for(target, &common)?;
    let keep_ids = current.prefixes() != target.prefixes();
    let documents = read_documents(&current, design.as_ref(), &common, keep_ids)?;
    let options = PlanOptions {
        measure: common.by,
        throughput: common.throughput,
        bucket_cost: common.calls.bucket_cost,
    };
    let p = documents
        .plan(&current, &target, &options)
        .map_err(reshard_error)?;
    common
        .calls
        .print(&current, &p, common.throughput, || print_json(&p))?;
    Ok(exit_code(&documents))
}

pub fn run_balance(
    config: &Path,
    weights: BalanceOptions,
    common: Common,
) -> Result<ExitCode, Fatal> {
    let current = read_for(config, &common)?;
    let design = read_design(config, &current)?;
    let documents = read_documents(&current, design.as_ref(), &common, false)?;
    let options = BalanceOptions {
        by: common.by,
        throughput: common.throughput,
        bucket_cost: common.calls.bucket_cost,
        ..weights
    };
    let b = balance(&current, &documents.load, &options).map_err(reshard_error)?;
    common
        .calls
        .print(&current, &b.plan, common.throughput, || print_json(&b))?;
    Ok(exit_code(&documents))
}

fn reshard_error(e: ReshardError) -> Fatal {
    Fatal::Usage(e.to_string())
}

fn print_json(value: &impl serde::Serialize) -> Result<(), Fatal> {
    let text =
        serde_json::to_string_pretty(value).map_err(|e| Fatal::Io("stdout".into(), e.into()))?;
    writeln!(io::stdout().lock(), "{text}").map_err(|e| Fatal::Io("stdout".into(), e))
}

/// Reads the documents of FILE or stdin, streaming, and sums them per bucket of
/// `topology`; a document that cannot be read is reported on stderr and left out.
fn read_documents(
    topology: &Topology,
    design: Option<&ContentDesign>,
    common: &Common,
    keep_ids: bool,
) -> Result<Workload, Fatal> {
    if !common.buckets.is_empty() {
        return crate::buckets::read(topology, common.buckets);
    }
    let input = Input::open(common.file, common.format)?;
    let pool = crate::blocks::Pool::new(common.threads)?;
    let input = match crate::workload_blocks::read(input, topology, design, keep_ids, &pool)? {
        Ok(workload) => return Ok(workload),
        Err(input) => input,
    };
    let name = input.name.clone();
    let mut reader = WorkloadReader::new(topology, design, keep_ids);
    let mut unreadable = 0;
    let skipped = input.read(|entry: Entry| {
        let read = match &entry {
            Entry::Line(number, Ok(text)) => reader.add_line(*number, text),
            Entry::Line(_, Err(e)) => {
                unreadable += 1;
                Err(e.to_string())
            }
            Entry::Document(number, d) => reader.add(*number, &d.id, d.size),
            Entry::Argument(number, id) => reader.add(*number, id, None),
        };
        if let Err(message) = read {
            eprintln!("{name}: {}: {message} (left out)", place(&entry));
        }
        Ok(())
    })?;
    let mut workload = reader.finish();
    // Counted so that the exit status says something was left out.
    workload.invalid_count += unreadable + skipped as u64;
    Ok(workload)
}

fn exit_code(documents: &Workload) -> ExitCode {
    if documents.invalid_count > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
