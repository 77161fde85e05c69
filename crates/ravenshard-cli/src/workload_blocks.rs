//! `plan` and `balance` on every core (`--threads`): ID lines are read a block at a time on
//! the pool's threads, each block by its own [`WorkloadReader`], and the readers are merged
//! in input order ([`WorkloadReader::merge`]), so the workload, the messages and the exit
//! status are the same whatever the number of threads. Other formats are read as before.

use crate::blocks::Pool;
use crate::input::Input;
use crate::Fatal;
use ravenshard::lines::for_each_line_in;
use ravenshard::Topology;
use ravenshard_design::content::ContentDesign;
use ravenshard_reshard::{Workload, WorkloadReader};

/// What one block of lines gave.
struct Part<'a> {
    reader: WorkloadReader<'a>,
    /// Lines left out: number within the block, and why.
    messages: Vec<(u64, String)>,
    /// Lines that are not UTF-8 (the reader does not see them; they count as left out).
    unreadable: u64,
    lines: u64,
}

/// The workload of `input` when it holds ID lines (read on `pool`'s threads; lines left
/// out said on stderr as `name: line N: why (left out)`), or the input back when it holds
/// another format.
pub fn read<'a>(
    input: Input,
    topology: &'a Topology,
    design: Option<&'a ContentDesign>,
    keep_ids: bool,
    pool: &Pool,
) -> Result<Result<Workload, Input>, Fatal> {
    let mut lines = match input.lines() {
        Ok(lines) => lines,
        Err(input) => return Ok(Err(input)),
    };
    let reader = std::mem::replace(&mut lines.reader, Box::new(std::io::empty()));
    let work = |block: &[u8]| {
        let mut part = Part {
            reader: WorkloadReader::new(topology, design, keep_ids),
            messages: Vec::new(),
            unreadable: 0,
            lines: 0,
        };
        let read = for_each_line_in(block, |number, line| {
            let read = match line {
                Ok(text) => part.reader.add_line(number, text),
                Err(e) => {
                    part.unreadable += 1;
                    Err(e.to_string())
                }
            };
            if let Err(message) = read {
                part.messages.push((number, message));
            }
            Ok::<(), std::convert::Infallible>(())
        });
        part.lines = match read {
            Ok(n) => n,
            Err(never) => match never {},
        };
        part
    };
    let mut whole = WorkloadReader::new(topology, design, keep_ids);
    let mut unreadable = 0;
    let mut before = 0;
    let sink = |part: Part<'a>| -> std::io::Result<()> {
        for (number, message) in &part.messages {
            eprintln!(
                "{}: line {}: {message} (left out)",
                lines.name,
                before + number
            );
        }
        whole.merge(part.reader, before);
        unreadable += part.unreadable;
        before += part.lines;
        Ok(())
    };
    pool.run(reader, work, sink)
        .map_err(|stop| lines.stopped(stop))?;
    let mut workload = whole.finish();
    workload.invalid_count += unreadable;
    Ok(Ok(workload))
}
