//! `ravenshard plan` and `ravenshard balance`: the bucket moves between two configurations,
//! or to a balanced one, for the documents of a file or stdin (`id[<TAB>size]` lines), as
//! JSON. Lines that cannot be read are reported on stderr and left out (exit status 1).

use crate::lines::{for_each_line, utf8, Stop};
use crate::{read_design, read_topology, Fatal};
use ravenshard::content::{locate_id, ContentDesign};
use ravenshard::reshard::{
    balance, check_prefix_changes, plan, BalanceOptions, BucketLoad, Measure, PlanOptions,
    ReshardError, Throughput,
};
use ravenshard::{lower_id, Topology};
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
    check_prefix_changes(
        &current,
        &target,
        documents.lower_ids.iter().map(String::as_str),
    )
    .map_err(reshard_error)?;
    let options = PlanOptions {
        measure: common.by,
        throughput: common.throughput,
    };
    let p = plan(&current, &target, &documents.load, &options).map_err(reshard_error)?;
    print_json(&p)?;
    Ok(documents.exit_code())
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
    Ok(documents.exit_code())
}

fn reshard_error(e: ReshardError) -> Fatal {
    Fatal::Usage(e.to_string())
}

fn print_json(value: &impl serde::Serialize) -> Result<(), Fatal> {
    let text =
        serde_json::to_string_pretty(value).map_err(|e| Fatal::Io("stdout".into(), e.into()))?;
    writeln!(io::stdout().lock(), "{text}").map_err(|e| Fatal::Io("stdout".into(), e))
}

struct Documents {
    load: BucketLoad,
    /// Lower-cased IDs, kept only when prefixes change.
    lower_ids: Vec<String>,
    skipped: u64,
}

impl Documents {
    fn exit_code(&self) -> ExitCode {
        if self.skipped > 0 {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// Reads `id[<TAB>size[<TAB>...]]` lines and sums them per bucket of `topology`.
fn read_documents(
    topology: &Topology,
    design: Option<&ContentDesign>,
    file: Option<&Path>,
    keep_ids: bool,
) -> Result<Documents, Fatal> {
    let name = file.map_or("stdin".to_string(), |p| p.display().to_string());
    let input: Box<dyn BufRead> = match file {
        Some(path) => Box::new(BufReader::with_capacity(
            1 << 16,
            File::open(path).map_err(|e| Fatal::Io(name.clone(), e))?,
        )),
        None => Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock())),
    };
    let mut placed: Vec<(u32, Option<u64>)> = Vec::new();
    let mut lower_ids = Vec::new();
    let mut skipped = 0u64;
    for_each_line(input, |line, bytes| {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let mut fields = bytes.split(|&b| b == b'\t');
        let id = fields.next().unwrap_or_default();
        let size = fields
            .next()
            .map(|s| s.trim_ascii())
            .filter(|s| !s.is_empty());
        let read = utf8(id).map_err(|e| e.to_string()).and_then(|id| {
            let size = match size {
                None => None,
                Some(text) => Some(parse_size(text)?),
            };
            let location = locate_id(topology, design, id).map_err(|e| e.to_string())?;
            Ok((id, location.bucket, size))
        });
        match read {
            Ok((id, bucket, size)) => {
                placed.push((bucket, size));
                if keep_ids {
                    lower_ids.push(lower_id(id).into_owned());
                }
            }
            Err(message) => {
                skipped += 1;
                eprintln!("{name}: line {line}: {message}; the line is left out");
            }
        }
        Ok(())
    })
    .map_err(|stop| match stop {
        Stop::Read(e) | Stop::Sink(e) => Fatal::Io(name.clone(), e),
    })?;
    Ok(Documents {
        load: BucketLoad::from_buckets(placed),
        lower_ids,
        skipped,
    })
}

fn parse_size(text: &[u8]) -> Result<u64, String> {
    std::str::from_utf8(text)
        .ok()
        .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| {
            format!(
                "the size '{}' is not a whole number of bytes",
                String::from_utf8_lossy(text)
            )
        })
}
