//! `ravenshard store`: NDJSON documents stored under the draft chapter's content-based
//! design, one JSON answer a line, in constant memory.

use crate::lines::{for_each_line, utf8, Stop};
use crate::{read_design, read_topology, Fatal};
use ravenshard::content::{ContentDesign, JsonDocument};
use ravenshard::Topology;
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

/// Where a document went.
#[derive(Serialize)]
struct Placed<'a> {
    id: &'a str,
    bucket: u32,
    shard: u32,
}

/// Why a line could not be stored.
#[derive(Serialize)]
struct Refused<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    line: u64,
    error: String,
}

pub fn run(config: &Path, file: Option<&Path>) -> Result<ExitCode, Fatal> {
    let topology = read_topology(config)?;
    let design = read_design(config, &topology)?.ok_or_else(|| {
        Fatal::Usage(format!(
            "{}: the configuration has no ByContent section, so the draft chapter's \
             content-based design is off and there is nothing for `store` to apply. Add one, \
             for example \"ByContent\": {{\"Orders\": {{\"Fields\": [\"Customer\"]}}}}.",
            config.display()
        ))
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
    for_each_line(input, |line, bytes| {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let ok = store_line(&topology, &design, line, bytes, &mut out)?;
        failed |= !ok;
        Ok(())
    })
    .map_err(|stop| match stop {
        Stop::Read(e) => Fatal::Io(name, e),
        Stop::Sink(e) => Fatal::Io("stdout".into(), e),
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
    bytes: &[u8],
    out: &mut impl Write,
) -> io::Result<bool> {
    let document = utf8(bytes)
        .map_err(|e| e.to_string())
        .and_then(|text| JsonDocument::parse(text).map_err(|e| e.to_string()));
    let document = match document {
        Ok(document) => document,
        Err(message) => {
            let refused = Refused {
                id: None,
                line,
                error: format!("line {line}: {message}"),
            };
            return write_line(out, &refused).map(|()| false);
        }
    };
    match design.store(topology, &document.as_content()) {
        Ok(stored) => {
            let placed = Placed {
                id: &stored.id,
                bucket: stored.bucket,
                shard: stored.shard,
            };
            write_line(out, &placed).map(|()| true)
        }
        Err(e) => {
            let refused = Refused {
                id: Some(&document.id),
                line,
                error: e.to_string(),
            };
            write_line(out, &refused).map(|()| false)
        }
    }
}

fn write_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}
