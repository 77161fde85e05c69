//! `ravenshard advise`: how to shape each collection's IDs, from an export with bodies
//! (see `ravenshard_advise`). The export is read in chunks; memory holds what the
//! advisor keeps per document, never the bodies.

use crate::Fatal;
use ravenshard::Topology;
use ravenshard_advise::{AdviseError, ExportReader, Workload};
use ravenshard_import::Format;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// What `advise` reads besides the topology.
pub struct Options<'a> {
    pub export: Option<&'a Path>,
    pub queries: Option<&'a Path>,
    pub loads: Option<&'a Path>,
}

fn read_text(path: Option<&Path>) -> Result<String, Fatal> {
    match path {
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| Fatal::Io(path.display().to_string(), e))
        }
        None => Ok(String::new()),
    }
}

fn advise_error(name: &str, format: Option<Format>, e: AdviseError) -> Fatal {
    match e {
        AdviseError::Import(e) => {
            Fatal::Import(name.to_string(), format.unwrap_or(Format::Text), e)
        }
        other => Fatal::Usage(other.to_string()),
    }
}

pub fn run(topology: &Topology, options: &Options<'_>) -> Result<ExitCode, Fatal> {
    let workload = Workload::parse(&read_text(options.queries)?, &read_text(options.loads)?)
        .map_err(|e| Fatal::Usage(e.to_string()))?;
    let (name, mut source): (String, Box<dyn Read>) = match options.export {
        Some(path) => {
            let name = path.display().to_string();
            let file = File::open(path).map_err(|e| Fatal::Io(name.clone(), e))?;
            (name, Box::new(file))
        }
        None => ("stdin".into(), Box::new(io::stdin().lock())),
    };
    let mut reader = ExportReader::new(None, None);
    let mut chunk = vec![0; 1 << 20];
    loop {
        let want = reader.next_chunk_len().min(chunk.len());
        let n = match source.read(chunk.get_mut(..want).unwrap_or_default()) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Fatal::Io(name, e)),
        };
        let pushed = reader.push(chunk.get(..n).unwrap_or_default());
        pushed.map_err(|e| advise_error(&name, reader.format(), e))?;
    }
    let format = reader.format();
    let advice = reader
        .finish(topology, &workload)
        .map_err(|e| advise_error(&name, format, e))?;
    if advice.skipped > 0 {
        eprintln!(
            "warning: {name}: {} entries skipped (no ID, or an ID RavenDB refuses)",
            advice.skipped
        );
    }
    if advice.bodies_dropped > 0 {
        eprintln!(
            "warning: {name}: {} documents too large to read: their references are unknown",
            advice.bodies_dropped
        );
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    serde_json::to_writer_pretty(&mut out, &advice)
        .map_err(io::Error::from)
        .and_then(|()| writeln!(out))
        .map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(ExitCode::SUCCESS)
}
