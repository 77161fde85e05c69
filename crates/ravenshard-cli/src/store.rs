//! `ravenshard store`: NDJSON documents stored under the draft chapter's content-based
//! design, one JSON answer a line, in constant memory.

use crate::{read_design, read_topology, Fatal};
use ravenshard::lines::{for_each_line, is_blank, NotUtf8, Stop};
use ravenshard::Topology;
use ravenshard_design::content::{ContentDesign, ContentError, StoreAnswer};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

pub fn run(config: &Path, file: Option<&Path>) -> Result<ExitCode, Fatal> {
    let topology = read_topology(config)?;
    let design = read_design(config, &topology)?.ok_or_else(|| {
        Fatal::Content(
            config.display().to_string(),
            Box::new(ContentError::DesignOff),
        )
    })?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let (input, name): (Box<dyn BufRead>, String) = match file {
        Some(path) => {
            let name = path.display().to_string();
            let file = File::open(path).map_err(|e| Fatal::Io(name.clone(), e))?;
            (Box::new(BufReader::with_capacity(1 << 16, file)), name)
        }
        None => (
            Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock())),
            "stdin".into(),
        ),
    };
    let mut failed = false;
    for_each_line(input, |number, line| {
        if line.is_ok_and(is_blank) {
            return Ok(());
        }
        failed |= !store_line(&topology, &design, number, line, &mut out)?;
        Ok(())
    })
    .map_err(|stop| match stop {
        Stop::Read(e) => Fatal::Io(name, e),
        Stop::By(e) => Fatal::Io("stdout".into(), e),
    })?;
    out.flush().map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Stores one line and writes its answer; `false` when the answer is an error.
fn store_line(
    topology: &Topology,
    design: &ContentDesign,
    line: u64,
    text: Result<&str, NotUtf8>,
    out: &mut impl Write,
) -> io::Result<bool> {
    let answer = match text {
        Ok(text) => design.store_line(topology, line, text),
        Err(e) => StoreAnswer::unreadable(line, e),
    };
    serde_json::to_writer(&mut *out, &answer).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(answer.is_stored())
}
