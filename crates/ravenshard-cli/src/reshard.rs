//! `ravenshard plan` and `ravenshard balance`: the bucket moves between two configurations,
//! or to a balanced one, for the documents of a file or stdin (`id[<TAB>size]` lines), as
//! JSON. Lines that cannot be read are reported on stderr and left out (exit status 1).

use crate::lines::{for_each_line, utf8, Stop};
use crate::{read_design, read_topology, Fatal};
use ravenshard::Topology;
use ravenshard_design::content::ContentDesign;
use ravenshard_design::reshard::{
    balance, BalanceOptions, Measure, PlanOptions, ReshardError, Throughput, Workload,
    WorkloadReader,
};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::ExitCode;

/// Options shared by `plan` and `balance`.
pub struct Common<'a> {
    pub by: Measure,
    pub throughput: Option<Throughput>,
    pub file: Option<&'a Path>,
}

pub fn run_plan(config: &Path, target: &Path, common: Common) -> Result<ExitCode, Fatal> {
    let current = read_topology(config)?;
    let design = read_design(config, &current)?;
    let target = read_topology(target)?;
    let keep_ids = current.prefixes() != target.prefixes();
    let documents = read_documents(&current, design.as_ref(), common.file, keep_ids)?;
    let options = PlanOptions {
        measure: common.by,
        throughput: common.throughput,
    };
    let p = documents
        .plan(&current, &target, &options)
        .map_err(reshard_error)?;
    print_json(&p)?;
    Ok(exit_code(&documents))
}

pub fn run_balance(
    config: &Path,
    weights: BalanceOptions,
    common: Common,
) -> Result<ExitCode, Fatal> {
    let current = read_topology(config)?;
    let design = read_design(config, &current)?;
    let documents = read_documents(&current, design.as_ref(), common.file, false)?;
    let options = BalanceOptions {
        by: common.by,
        throughput: common.throughput,
        ..weights
    };
    let b = balance(&current, &documents.load, &options).map_err(reshard_error)?;
    print_json(&b)?;
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

/// Reads `id[<TAB>size[<TAB>...]]` lines from FILE or stdin, streaming, and sums them per
/// bucket of `topology`; a line that cannot be read is reported on stderr.
fn read_documents(
    topology: &Topology,
    design: Option<&ContentDesign>,
    file: Option<&Path>,
    keep_ids: bool,
) -> Result<Workload, Fatal> {
    let name = file.map_or("stdin".to_string(), |p| p.display().to_string());
    let input: Box<dyn BufRead> = match file {
        Some(path) => Box::new(BufReader::with_capacity(
            1 << 16,
            File::open(path).map_err(|e| Fatal::Io(name.clone(), e))?,
        )),
        None => Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock())),
    };
    let mut reader = WorkloadReader::new(topology, design, keep_ids);
    for_each_line(input, |line, bytes| {
        let read = utf8(bytes)
            .map_err(|e| e.to_string())
            .and_then(|text| reader.add_line(line, text));
        if let Err(message) = read {
            eprintln!("{name}: line {line}: {message}; the line is left out");
        }
        Ok(())
    })
    .map_err(|stop| match stop {
        Stop::Read(e) | Stop::Sink(e) => Fatal::Io(name.clone(), e),
    })?;
    Ok(reader.finish())
}

fn exit_code(documents: &Workload) -> ExitCode {
    if documents.invalid_count > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
