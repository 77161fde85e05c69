//! `ravenshard report`: where a list of documents lands.
//!
//! Memory stays flat however large the input: the report counts per bucket and per distinct
//! anchor (a hash and a count each), and finds the text, the members and the anchor document
//! of the groups it lists in a second pass over the input (a third when many groups tie for
//! the last places): stdin is read again from where it started when it is a file, else
//! copied to a temporary file as the first pass reads it. Entries that the importer skips (documents without an ID in an
//! export, say) are said on stderr, once.

use crate::blocks::Pool;
use crate::input::{Entry, Input, InputFormat, LineInput};
use crate::Fatal;
use ravenshard::lines::{for_each_id_in, id_field, NotUtf8};
use ravenshard::report::Found;
use ravenshard::{Report, ReportBuilder, ReportOptions, Topology};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `report` prints, and how it reads its input.
pub struct Options {
    pub json: bool,
    pub top: usize,
    pub obese: Option<u64>,
    pub format: InputFormat,
}

pub fn run(
    topology: Option<&Topology>,
    file: Option<&Path>,
    options: &Options,
    pool: &Pool,
) -> Result<ExitCode, Fatal> {
    let report_options = ReportOptions {
        top_buckets: options.top,
        top_groups: options.top,
        obese_threshold: options.obese,
        ..ReportOptions::default()
    };
    // Two passes: over the file, over stdin when it is a file (`< ids.txt`), read again from
    // where it started, or over a copy of stdin (a pipe) made as the first pass reads it.
    let spool;
    let (path, stdin, mut copy) = match (file, stdin_file()) {
        (Some(path), _) => (Some(path), None, None),
        (None, Some(stdin)) => (None, Some(stdin), None),
        (None, None) => {
            let (made, copy) = Spool::create()?;
            spool = made;
            (Some(spool.path.as_path()), None, Some(copy))
        }
    };
    let open = || -> Result<Input, Fatal> {
        let mut input = match (&stdin, path) {
            (Some((stdin, start)), _) => {
                let mut again = stdin.try_clone().map_err(stdin_error)?;
                again.seek(SeekFrom::Start(*start)).map_err(stdin_error)?;
                Input::from_source("stdin".into(), Box::new(again), options.format)?
            }
            (None, path) => Input::open(path, options.format)?,
        };
        if file.is_none() {
            input.name = "stdin".into();
        }
        Ok(input)
    };
    let mut builder = ReportBuilder::new(topology, report_options.clone());
    // ID lines are read one answer a line: a blank line is an empty (invalid) ID. They are
    // read a block at a time on the pool's threads, the builders of the blocks merged in
    // input order.
    let first = match copy.take() {
        Some(copy) => Input::from_source("stdin".into(), Box::new(copy), options.format)?,
        None => open()?,
    };
    let skipped = match first.lines() {
        Ok(lines) => {
            first_pass(lines, &mut builder, pool)?;
            0
        }
        Err(input) => input.read(|entry: Entry| {
            match entry {
                Entry::Line(_, Ok(line)) => builder.add(id_field(line)),
                Entry::Line(_, Err(e)) => builder.add_invalid("", &e),
                Entry::Document(_, document) => builder.add(&document.id),
                Entry::Argument(_, id) => builder.add(id),
            }
            Ok(())
        })?,
    };
    // The next passes find the groups the report lists: their anchors, members and
    // whether their anchor is a document.
    let mut listing = builder.listing();
    while let Some(wanted) = listing.wanted() {
        match open()?.quiet().lines() {
            Ok(mut lines) => {
                let reader = std::mem::replace(&mut lines.reader, Box::new(io::empty()));
                // Most lines are dismissed by their bytes, without reading them as text.
                let work = |block: &[u8]| wanted.look_at_lines(block);
                let sink = |found: Found| {
                    listing.add(found);
                    Ok(())
                };
                pool.run(reader, work, sink)
                    .map_err(|stop| lines.stopped(stop))?;
            }
            Err(input) => {
                let mut found = wanted.found();
                input.read(|entry: Entry| {
                    let id = match &entry {
                        Entry::Line(_, Ok(line)) => id_field(line),
                        Entry::Document(_, document) => &document.id,
                        Entry::Line(_, Err(_)) | Entry::Argument(..) => "",
                    };
                    wanted.look(&mut found, id);
                    Ok(())
                })?;
                listing.add(found);
            }
        }
        listing.end_pass();
    }
    let report = builder.finish(listing);
    let text = if options.json {
        serde_json::to_string_pretty(&report).unwrap_or_else(|e| format!("error: {e}"))
    } else {
        readable(&report)
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{text}").map_err(|e| Fatal::Io("stdout".into(), e))?;
    Ok(if report.invalid_count > 0 || skipped > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The first pass over ID lines, into `builder`, on the pool's threads: each block's
/// builder moves what it counted into its thread's builder, which counts the anchors into
/// `builder`'s table in large batches.
fn first_pass(
    mut lines: LineInput,
    builder: &mut ReportBuilder<'_>,
    pool: &Pool,
) -> Result<(), Fatal> {
    let reader = std::mem::replace(&mut lines.reader, Box::new(io::empty()));
    let whole = builder.part();
    let work = |counts: &mut ReportBuilder<'_>, block: &[u8]| {
        let mut part = whole.part();
        each_id(block, |id| match id {
            Ok(id) => part.add(id),
            Err(e) => part.add_invalid("", &e),
        });
        // Counted here, on the pool's threads, rather than where the blocks are merged.
        part.move_counts_to(counts);
        part
    };
    let sink = |part: ReportBuilder<'_>| {
        builder.merge(part);
        Ok(())
    };
    let counts = pool
        .run_with(reader, || whole.part(), work, sink)
        .map_err(|stop| lines.stopped(stop))?;
    for counts in counts {
        builder.merge(counts);
    }
    Ok(())
}

/// Calls `f` with the ID of every line of a block (the builders count lines, so no number
/// is needed).
fn each_id(block: &[u8], mut f: impl FnMut(Result<&str, NotUtf8>)) {
    let read = for_each_id_in(block, |_, id| {
        f(id);
        Ok::<(), std::convert::Infallible>(())
    });
    match read {
        Ok(_) => {}
        Err(never) => match never {},
    }
}

/// stdin and where it starts, when it is a file that can be read again (`< ids.txt`).
#[cfg(unix)]
fn stdin_file() -> Option<(File, u64)> {
    use std::os::fd::AsFd;
    let mut file = File::from(io::stdin().as_fd().try_clone_to_owned().ok()?);
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let start = file.stream_position().ok()?;
    Some((file, start))
}

/// stdin is spooled where it cannot be read as a file.
#[cfg(not(unix))]
fn stdin_file() -> Option<(File, u64)> {
    None
}

fn stdin_error(e: io::Error) -> Fatal {
    Fatal::Io("stdin".into(), e)
}

/// stdin copied to a temporary file, removed on drop.
struct Spool {
    path: PathBuf,
}

impl Spool {
    /// An empty spool, and stdin read through it: what is read is written to it.
    fn create() -> Result<(Spool, Copied<io::StdinLock<'static>>), Fatal> {
        let path = std::env::temp_dir().join(format!(
            "ravenshard-report-{}-{}.txt",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        let spool = Spool { path };
        let name = spool.path.display().to_string();
        let to = File::create(&spool.path).map_err(|e| Fatal::Io(name.clone(), e))?;
        let from = io::stdin().lock();
        Ok((spool, Copied { from, to, name }))
    }
}

/// A reader whose bytes are written to a file as they are read (in the large reads of the
/// first pass, so unbuffered).
struct Copied<R> {
    from: R,
    to: File,
    /// The file's name, for errors.
    name: String,
}

impl<R: Read> Read for Copied<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.from.read(buf)?;
        let read = buf.get(..n).unwrap_or_default();
        self.to
            .write_all(read)
            .map_err(|e| io::Error::new(e.kind(), format!("copying to {}: {e}", self.name)))?;
        Ok(n)
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The report as text for people.
pub fn readable(r: &Report) -> String {
    let mut out = format!("documents      {}\n", r.documents);
    if r.invalid_count > 0 {
        out += &format!("invalid IDs    {}\n", r.invalid_count);
        for i in &r.invalid {
            out += &format!("  line {}: {}\n", i.line, i.error);
        }
    }
    if !r.shards.is_empty() {
        out += "\nshard  fragment             documents   share  nodes\n";
        for s in &r.shards {
            out += &format!(
                "{:<6} {:<20} {:>9}  {:>5.1}%  {}\n",
                s.shard,
                s.fragment,
                s.documents,
                s.share * 100.0,
                s.nodes.join(",")
            );
        }
        if let Some(skew) = r.skew {
            out += &format!("skew (max/mean) {skew:.3}\n");
        }
    }
    out += &format!("\nbuckets used   {}\n", r.buckets_used);
    out += "fullest buckets:\n";
    for b in &r.top_buckets {
        out += &format!(
            "  {:>8}  {:>8} docs{}\n",
            b.bucket,
            b.documents,
            shard_text(b.shard)
        );
    }
    out += &format!(
        "obese threshold {} documents: {} bucket(s) hold more\n",
        r.obese_threshold, r.obese_bucket_count
    );
    for b in &r.obese_buckets {
        out += &format!(
            "  bucket {} holds {} documents{}: too big to move as one unit when resharding; \
             anchor fewer documents to it\n",
            b.bucket,
            b.documents,
            shard_text(b.shard)
        );
    }
    let unlisted = r.obese_bucket_count - r.obese_buckets.len() as u64;
    if unlisted > 0 {
        out += &format!("  ... and {unlisted} more (--top N lists more)\n");
    }
    out += &format!("\nanchored groups {}\n", r.anchored_group_count);
    for g in &r.anchored_groups {
        out += &format!(
            "  {:?}: {} document(s), bucket {}{}, anchor {}\n",
            g.anchor,
            g.count,
            g.bucket,
            shard_text(g.shard),
            if g.anchor_is_document {
                "is a document"
            } else {
                "is not among the documents"
            }
        );
    }
    out
}

fn shard_text(shard: Option<u32>) -> String {
    shard.map_or_else(String::new, |s| format!(" (shard {s})"))
}
