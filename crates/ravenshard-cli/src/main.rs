//! `ravenshard`: RavenDB sharding for lists of document IDs, at native speed.

mod advise;
mod blocks;
mod buckets;
mod calls;
mod check;
mod check_tx;
mod config_diff;
mod explain;
mod growth;
mod input;
mod report;
mod reshard;
mod route;
mod store;
mod workload_blocks;

use blocks::Pool;
use clap::{Args, Parser, Subcommand};
use input::{Entry, Input, InputFormat};
use ravenshard::{ConfigError, ServerVersion, Topology};
use ravenshard_design::content::{locate_id, ContentDesign, ContentError};
use ravenshard_import::{Format, ImportError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where documents of a RavenDB sharded database live: bucket, shard, nodes, and why.
#[derive(Parser)]
#[command(name = "ravenshard", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print `id<TAB>bucket[<TAB>shard]` for each ID: the arguments, or the documents of
    /// --file or stdin (ID lines, a RavenDB export, JSON, NDJSON or CSV; see --format).
    /// With a configuration that has `ByContent` (the draft chapter's design), `...$@<n>`
    /// is in bucket n.
    Bucket {
        #[command(flatten)]
        topology: TopologyArgs,
        /// Read the documents from FILE instead of stdin.
        #[arg(long, value_name = "FILE", conflicts_with = "ids")]
        file: Option<PathBuf>,
        #[command(flatten)]
        input: FormatArgs,
        #[command(flatten)]
        threads: ThreadArgs,
        /// Document IDs; when none are given, the documents of --file or stdin.
        ids: Vec<String>,
    },
    /// Show every step from an ID to its bucket, shard and nodes.
    Explain {
        #[command(flatten)]
        topology: TopologyArgs,
        /// Print the steps as JSON.
        #[arg(long)]
        json: bool,
        /// The document ID.
        id: String,
    },
    /// Documents per shard and bucket, anchored groups and obese buckets.
    Report {
        #[command(flatten)]
        topology: TopologyArgs,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// How many of the fullest buckets and largest anchored groups to list.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Flag buckets with more documents than this [default: 1% of the documents or
        /// 10,000, whichever is smaller].
        #[arg(long)]
        obese: Option<u64>,
        #[command(flatten)]
        input: FormatArgs,
        #[command(flatten)]
        threads: ThreadArgs,
        /// The documents: ID lines (`id[<TAB>size...]`), a RavenDB export
        /// (`.ravendbdump`), JSON, NDJSON or CSV, plain or gzip-compressed (see --format);
        /// stdin when absent.
        file: Option<PathBuf>,
    },
    /// Store NDJSON documents under the draft chapter's content-based design (`ByContent`):
    /// print `{"id", "bucket", "shard"}` or `{"id", "line", "error"}` per document.
    Store {
        /// The sharding configuration; it must have a `ByContent` section.
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        /// NDJSON documents with `@metadata.@id` (and optionally `@metadata.@collection`);
        /// stdin when absent.
        file: Option<PathBuf>,
    },
    /// Compare two configurations' `ByContent` rules (the draft chapter's design): is every
    /// valid document still valid? Exit status 0 when safe, 1 when it needs attention.
    ConfigDiff {
        /// The configuration in use.
        old: PathBuf,
        /// The configuration to change to.
        new: PathBuf,
        /// The workspace's documents: NDJSON, or `id[<TAB>size[<TAB>collection]]` lines.
        #[arg(long, value_name = "FILE")]
        docs: Option<PathBuf>,
    },
    /// Which shards a query (RQL) goes to, and why (JSON). Routing by content follows the
    /// draft chapter's design and needs a configuration with ByContent.
    Route {
        #[command(flatten)]
        topology: TopologyArgs,
        /// The query, e.g. "from Orders where Customer = 'customers/1-A'".
        query: String,
    },
    /// How to shape each collection's IDs (JSON): references between collections and
    /// candidate placements (none, anchor, prefix, the draft's content rule) scored on an
    /// export with bodies (`.ravendbdump`, NDJSON or JSON), and a recommendation.
    Advise {
        #[command(flatten)]
        topology: TopologyArgs,
        /// RQL queries, one a line, routed under each candidate.
        #[arg(long, value_name = "FILE")]
        queries: Option<PathBuf>,
        /// LoadDocument relations, `Collection.Field` one a line.
        #[arg(long, value_name = "FILE")]
        loads: Option<PathBuf>,
        /// The export; stdin when absent.
        export: Option<PathBuf>,
    },
    /// The bucket moves from one configuration to another: runs of buckets that change
    /// shard, documents and bytes moved, per-shard totals before and after, skew (JSON).
    Plan {
        /// The configuration in use.
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        /// The configuration to reach.
        #[arg(long, value_name = "FILE")]
        target: PathBuf,
        #[command(flatten)]
        common: ReshardArgs,
    },
    /// Propose a balanced configuration and the moves to reach it (JSON).
    Balance {
        /// The configuration in use.
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        /// Per-shard weights, `shard=weight` pairs: `0=1,1=2` gives shard 1 twice the share
        /// of shard 0; 0 empties a shard. Shards not listed weigh 1.
        #[arg(long, value_name = "LIST")]
        weights: Option<String>,
        /// Leave shards within this percentage of their fair share alone.
        #[arg(long, value_name = "PCT", default_value_t = 5.0)]
        threshold: f64,
        /// The most buckets to move.
        #[arg(long, value_name = "N")]
        max_buckets: Option<u64>,
        /// `contiguous` (few ranges) or `fewest-migrations` (the fullest buckets first:
        /// far fewer bucket migrations, more ranges).
        #[arg(long, value_name = "OBJECTIVE", default_value = "contiguous", value_parser = calls::parse_objective)]
        objective: ravenshard_reshard::Objective,
        #[command(flatten)]
        common: ReshardArgs,
    },
    /// Before you shard: what of the database breaks, gets slower or needs changing, from
    /// its record (GET /admin/databases?name=<db>), index definitions, queries, loads and an
    /// export. A report grouped by severity (or --json); exit status 0 when nothing blocks,
    /// 1 when something does, 2 on bad input.
    Check {
        #[command(flatten)]
        topology: TopologyArgs,
        /// Index definitions on their own (GET /databases/<db>/indexes).
        #[arg(long, value_name = "FILE")]
        indexes: Option<PathBuf>,
        /// RQL queries, one a line; `stream:` or `delete:` before a query says how it runs.
        #[arg(long, value_name = "FILE")]
        queries: Option<PathBuf>,
        /// LoadDocument relations, `Collection.Field` one a line.
        #[arg(long, value_name = "FILE")]
        loads: Option<PathBuf>,
        /// Print the findings as JSON.
        #[arg(long)]
        json: bool,
        /// The database record's JSON.
        record: PathBuf,
        /// An export with bodies (.ravendbdump, NDJSON or JSON) for the data checks.
        export: Option<PathBuf>,
    },
    /// Bucket statistics over time (JSON): snapshots of `GET
    /// /databases/<db>/debug/sharding/buckets` saved at different times, side by side in
    /// ranges of buckets, with each snapshot's documents and bytes by shard and the ranges
    /// that grew most. Ordered by the latest LastModified of each (or --file-times).
    Growth {
        /// Time each snapshot by its newest file's modification time instead.
        #[arg(long)]
        file_times: bool,
        /// How many of the ranges that grew most to list.
        #[arg(long, value_name = "N", default_value_t = 10)]
        top: usize,
        /// Rank the ranges by documents gained or by bytes.
        #[arg(long, value_enum, default_value = "docs")]
        by: By,
        /// The snapshots, two or more: each a saved answer, or a folder whose .json files
        /// (per-shard answers, drill-downs) are one snapshot.
        #[arg(required = true, num_args = 2..)]
        snapshots: Vec<PathBuf>,
    },
    /// Can one local transaction write these documents atomically? (JSON)
    CheckTx {
        #[command(flatten)]
        topology: TopologyArgs,
        /// The document IDs the transaction writes.
        #[arg(required = true)]
        ids: Vec<String>,
    },
}

#[derive(Args)]
struct TopologyArgs {
    /// A ShardingConfiguration JSON, or a database record with "Sharding".
    #[arg(long, value_name = "FILE", conflicts_with = "shards")]
    config: Option<PathBuf>,
    /// N shards with RavenDB's default bucket ranges.
    #[arg(long, value_name = "N")]
    shards: Option<u32>,
    /// The database name, for fragment names (`<database>$<shard>`).
    #[arg(long, value_name = "NAME")]
    database: Option<String>,
    /// The RavenDB server whose rules to follow: `7` (7.x) or `6.2` (6.2.x, which hashes the
    /// control characters of non-ASCII IDs unescaped).
    #[arg(long, value_name = "VERSION", default_value = "7", value_parser = parse_server_version)]
    server_version: ServerVersion,
}

fn parse_server_version(text: &str) -> Result<ServerVersion, String> {
    text.parse()
        .map_err(|e: ravenshard::UnknownServerVersion| e.to_string())
}

#[derive(Args)]
struct ReshardArgs {
    /// The RavenDB server whose rules to follow in placing the documents: `7` (7.x) or
    /// `6.2` (6.2.x, which hashes the control characters of non-ASCII IDs unescaped).
    #[arg(long, value_name = "VERSION", default_value = "7", value_parser = parse_server_version)]
    server_version: ServerVersion,
    /// Even out and count documents or bytes (sizes come from `id<TAB>size` lines, CSV's
    /// size column, or a document's JSON length in exports, JSON and NDJSON).
    #[arg(long, value_enum, default_value = "docs")]
    by: By,
    /// Migration speed for a time estimate: `50MB/s`, `800KB/s` or `20000docs/s`.
    #[arg(long, value_name = "RATE", value_parser = parse_throughput)]
    throughput: Option<ravenshard_reshard::Throughput>,
    #[command(flatten)]
    input: FormatArgs,
    #[command(flatten)]
    calls: calls::CallArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    /// The documents: ID lines (`id[<TAB>size...]`), a RavenDB export (`.ravendbdump`),
    /// JSON, NDJSON or CSV, plain or gzip-compressed (see --format); stdin when absent.
    file: Option<PathBuf>,
    /// The cluster's own bucket statistics in place of documents: saved answers of
    /// `GET /databases/<db>/debug/sharding/buckets` (and drill-downs, per-shard answers,
    /// `.../debug/sharding/bucket?bucket=N`); repeatable; a folder reads every .json in it.
    /// --config is then the database record they were taken with.
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    buckets: Vec<PathBuf>,
}

#[derive(Args)]
struct FormatArgs {
    /// How to read the documents (gzip-compressed input is recognised and inflated
    /// whatever the format).
    #[arg(long, value_enum, default_value = "auto")]
    format: InputFormat,
}

#[derive(Args)]
struct ThreadArgs {
    /// Threads for ID lines [default: the machine's cores]. The output is the same, byte
    /// for byte, whatever the number.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum By {
    Docs,
    Bytes,
}

fn parse_throughput(text: &str) -> Result<ravenshard_reshard::Throughput, String> {
    ravenshard_reshard::Throughput::parse(text).map_err(|e| e.to_string())
}

impl ReshardArgs {
    fn common(&self) -> reshard::Common<'_> {
        reshard::Common {
            by: match self.by {
                By::Docs => ravenshard_reshard::Measure::Docs,
                By::Bytes => ravenshard_reshard::Measure::Bytes,
            },
            throughput: self.throughput,
            calls: &self.calls,
            file: self.file.as_deref(),
            format: self.input.format,
            buckets: &self.buckets,
            threads: self.threads.threads,
            server_version: self.server_version,
        }
    }
}

/// What stops a command: said once on stderr, with exit status 2.
#[derive(Debug)]
enum Fatal {
    Io(String, io::Error),
    Config(String, ConfigError),
    Content(String, Box<ContentError>),
    Import(String, Format, ImportError),
    Usage(String),
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Io(what, e) => write!(f, "{what}: {e}"),
            Fatal::Config(what, e) => write!(f, "{what}: {e}"),
            Fatal::Content(what, e) => write!(f, "{what}: {e}"),
            Fatal::Import(what, format, e) => write!(
                f,
                "{what} (read as {format}; --format chooses another): {e}"
            ),
            Fatal::Usage(message) => f.write_str(message),
        }
    }
}

impl TopologyArgs {
    fn load(&self) -> Result<Option<Topology>, Fatal> {
        let mut topology = match (&self.config, self.shards) {
            (Some(path), _) => Some(read_topology(path)?),
            (None, Some(n)) => {
                let t = Topology::with_shards(n)
                    .map_err(|e| Fatal::Config(format!("--shards {n}"), e))?;
                warn(&t);
                Some(t)
            }
            (None, None) => None,
        };
        if let (Some(t), Some(name)) = (topology.as_mut(), &self.database) {
            t.set_database(name);
        }
        if let Some(t) = topology.as_mut() {
            t.set_server_version(self.server_version);
        }
        Ok(topology)
    }
}

/// Reads a configuration file; its warnings go to stderr.
fn read_topology(path: &Path) -> Result<Topology, Fatal> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Fatal::Io(name.clone(), e))?;
    let topology = Topology::from_json(&text).map_err(|e| Fatal::Config(name, e))?;
    warn(&topology);
    Ok(topology)
}

fn warn(topology: &Topology) {
    for warning in topology.warnings() {
        eprintln!("warning: {warning}");
    }
}

/// The draft chapter's design in a configuration: `None` when it has no `ByContent`.
fn read_design(path: &Path, topology: &Topology) -> Result<Option<ContentDesign>, Fatal> {
    ContentDesign::from_topology(topology)
        .map_err(|e| Fatal::Content(path.display().to_string(), Box::new(e)))
}

/// The topology `command` needs (from `--config` or `--shards`) and, with `--config`, the
/// chapter's design when the configuration has `ByContent`.
fn topology_and_design(
    args: &TopologyArgs,
    command: &str,
) -> Result<(Topology, Option<ContentDesign>), Fatal> {
    let topology = args.load()?.ok_or_else(|| {
        Fatal::Usage(format!(
            "{command} needs the shards: give --config FILE (a sharding configuration) or \
             --shards N."
        ))
    })?;
    let design = match &args.config {
        Some(path) => read_design(path, &topology)?,
        None => None,
    };
    Ok((topology, design))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bucket {
            topology,
            file,
            input,
            threads,
            ids,
        } => topology.load().and_then(|t| {
            let design = match (&t, &topology.config) {
                (Some(t), Some(path)) => read_design(path, t)?,
                _ => None,
            };
            let input_args = input;
            let input = match ids.is_empty() {
                true => Some(Input::open(file.as_deref(), input_args.format)?),
                false => None,
            };
            let pool = Pool::new(threads.threads)?;
            let version = topology.server_version;
            bucket(t.as_ref(), design.as_ref(), version, ids, input, &pool)
        }),
        Command::Explain { topology, json, id } => topology
            .load()
            .and_then(|t| explain::run(t.as_ref(), &id, json)),
        Command::Report {
            topology,
            json,
            top,
            obese,
            input,
            threads,
            file,
        } => topology.load().and_then(|t| {
            let options = report::Options {
                json,
                top,
                obese,
                format: input.format,
            };
            let pool = Pool::new(threads.threads)?;
            report::run(t.as_ref(), file.as_deref(), &options, &pool)
        }),
        Command::Store { config, file } => store::run(&config, file.as_deref()),
        Command::ConfigDiff { old, new, docs } => config_diff::run(&old, &new, docs.as_deref()),
        Command::CheckTx { topology, ids } => check_tx::run(&topology, &ids),
        Command::Growth {
            file_times,
            top,
            by,
            snapshots,
        } => growth::run(&snapshots, file_times, top, matches!(by, By::Bytes)),
        Command::Check {
            topology,
            indexes,
            queries,
            loads,
            json,
            record,
            export,
        } => check::run(
            &topology,
            &check::Files {
                record,
                export,
                indexes,
                queries,
                loads,
                json,
            },
        ),
        Command::Route { topology, query } => route::run(&topology, &query),
        Command::Advise {
            topology,
            queries,
            loads,
            export,
        } => topology.load().and_then(|t| {
            let t =
                t.ok_or_else(|| Fatal::Usage("advise needs --shards N or --config FILE.".into()))?;
            let options = advise::Options {
                export: export.as_deref(),
                queries: queries.as_deref(),
                loads: loads.as_deref(),
            };
            advise::run(&t, &options)
        }),
        Command::Plan {
            config,
            target,
            common,
        } => reshard::run_plan(&config, &target, common.common()),
        Command::Balance {
            config,
            weights,
            threshold,
            max_buckets,
            objective,
            common,
        } => ravenshard_reshard::BalanceOptions::parse_weights(weights.as_deref().unwrap_or(""))
            .map_err(|e| Fatal::Usage(format!("--weights: {e}")))
            .and_then(|weights| {
                let options = ravenshard_reshard::BalanceOptions {
                    weights,
                    threshold,
                    max_buckets,
                    objective,
                    ..Default::default()
                };
                reshard::run_balance(&config, options, common.common())
            }),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`ravenshard bucket < ids | head`): not an error.
        Err(Fatal::Io(_, e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Streams IDs to `id<TAB>bucket[<TAB>shard]` lines; invalid IDs go to stderr with where
/// they are and make the exit status 1. With the design on, only IDs whose last `$` is
/// followed by `@` take its path (a pinned bucket, [`locate_id`]); the rest keep the core's
/// fast one. An empty line is an empty ID (an error), a line of white space a blank ID (an
/// answer), so every line gets an answer or an error. ID
/// lines are answered a block at a time on the pool's threads, in input order.
fn bucket(
    topology: Option<&Topology>,
    design: Option<&ContentDesign>,
    version: ServerVersion,
    ids: Vec<String>,
    input: Option<Input>,
    pool: &Pool,
) -> Result<ExitCode, Fatal> {
    let place = |id: &str| -> Result<(u32, Option<u32>), String> {
        match topology {
            // Only the design's IDs need its path: the core's is the hot loop.
            Some(t) if design.is_none() => t
                .locate(id)
                .map(|l| (l.bucket, Some(l.shard)))
                .map_err(|e| e.to_string()),
            Some(t) => locate_id(t, design, id)
                .map(|l| (l.bucket, Some(l.shard)))
                .map_err(|e| e.to_string()),
            None => ravenshard::bucket_for_with(id, version)
                .map(|b| (b, None))
                .map_err(|e| e.to_string()),
        }
    };
    let mut out = output();
    let mut failed = false;
    let mut skipped = 0;
    match input.map(Input::lines) {
        None => {
            let mut buffer = Vec::new();
            for (i, id) in ids.iter().enumerate() {
                if let Err(message) = answer(&mut buffer, id, &place) {
                    failed = true;
                    let entry = Entry::Argument(i as u64 + 1, id);
                    eprintln!("ravenshard bucket: {}: {message}", input::place(&entry));
                }
            }
            out.write_all(&buffer).map_err(stdout_error)?;
        }
        Some(Ok(mut lines)) => {
            let reader = std::mem::replace(&mut lines.reader, Box::new(io::empty()));
            let mut first = 0;
            // Output buffers go back for reuse once written: fresh ones would be page
            // faults and zeroed pages, on every thread, for every block.
            let spare = std::sync::Mutex::new(Vec::new());
            let work = |block: &[u8]| {
                let out = spare.lock().ok().and_then(|mut spare| spare.pop());
                answer_block(block, out.unwrap_or_default(), &place)
            };
            let sink = |mut answers: Answers| -> io::Result<()> {
                out.write_all(&answers.out)?;
                answers.out.clear();
                if let Ok(mut spare) = spare.lock() {
                    spare.push(std::mem::take(&mut answers.out));
                }
                for (line, message) in &answers.errors {
                    failed = true;
                    eprintln!("{}: line {}: {message}", lines.name, first + line);
                }
                first += answers.lines;
                Ok(())
            };
            pool.run(reader, work, sink)
                .map_err(|stop| lines.stopped(stop))?;
        }
        Some(Err(input)) => {
            let name = input.name.clone();
            let mut buffer = Vec::with_capacity(1 << 16);
            skipped = input.read(|entry: Entry| {
                let id = match &entry {
                    Entry::Document(_, document) => Ok(document.id.as_str()),
                    Entry::Argument(_, id) => Ok(*id),
                    Entry::Line(_, line) => line
                        .map(ravenshard::lines::id_field)
                        .map_err(|e| e.to_string()),
                };
                if let Err(message) = id.and_then(|id| answer(&mut buffer, id, &place)) {
                    failed = true;
                    eprintln!("{name}: {}: {message}", input::place(&entry));
                }
                if buffer.len() >= 1 << 16 {
                    out.write_all(&buffer)?;
                    buffer.clear();
                }
                Ok(())
            })?;
            out.write_all(&buffer).map_err(stdout_error)?;
        }
    }
    out.flush().map_err(stdout_error)?;
    Ok(if failed || skipped > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The answers for one block of ID lines.
struct Answers {
    /// `id<TAB>bucket[<TAB>shard]` lines.
    out: Vec<u8>,
    /// The invalid lines: number within the block, and why.
    errors: Vec<(u64, String)>,
    /// How many lines the block holds.
    lines: u64,
}

fn answer_block(
    block: &[u8],
    mut out: Vec<u8>,
    place: &impl Fn(&str) -> Result<(u32, Option<u32>), String>,
) -> Answers {
    out.reserve(block.len() + block.len() / 2);
    let mut errors = Vec::new();
    let lines = ravenshard::lines::for_each_id_in(block, |number, id| {
        if let Err(message) = id
            .map_err(|e| e.to_string())
            .and_then(|id| answer(&mut out, id, place))
        {
            errors.push((number, message));
        }
        Ok::<(), std::convert::Infallible>(())
    });
    let lines = match lines {
        Ok(n) => n,
        Err(never) => match never {},
    };
    Answers { out, errors, lines }
}

/// Appends `id<TAB>bucket[<TAB>shard]\n` for a placed ID (integers through `itoa`: this is
/// the CLI's hot loop), or says why it cannot be placed.
fn answer(
    out: &mut Vec<u8>,
    id: &str,
    place: &impl Fn(&str) -> Result<(u32, Option<u32>), String>,
) -> Result<(), String> {
    let (bucket, shard) = place(id)?;
    extend_short(out, id.as_bytes());
    // The rest of the line is written in place, in room made by one fixed-size append and
    // cut to its length: no call to copy a few bytes, and no reload of bytes just stored.
    let start = out.len();
    out.extend_from_slice(&[0; Tail::MAX]);
    let mut tail = Tail {
        bytes: out.get_mut(start..).unwrap_or_default(),
        len: 0,
    };
    tail.number(bucket);
    if let Some(shard) = shard {
        tail.number(shard);
    }
    tail.push(b'\n');
    let end = start + tail.len;
    out.truncate(end);
    Ok(())
}

/// Appends `bytes` to `out` as `extend_from_slice` does, but a short slice by two
/// overlapping copies of a fixed size, which the compiler inlines: a call to `memcpy` for
/// every ID of a few bytes was a tenth of `bucket`'s time.
#[inline]
fn extend_short(out: &mut Vec<u8>, bytes: &[u8]) {
    match bytes.len() {
        8..=16 => extend_overlapping::<8>(out, bytes),
        17..=32 => extend_overlapping::<16>(out, bytes),
        33..=64 => extend_overlapping::<32>(out, bytes),
        _ => out.extend_from_slice(bytes),
    }
}

/// `bytes` (`N` to `2N` long) appended as its first and last `N` bytes.
#[inline]
fn extend_overlapping<const N: usize>(out: &mut Vec<u8>, bytes: &[u8]) {
    let (Some(first), Some(last)) = (bytes.first_chunk::<N>(), bytes.last_chunk::<N>()) else {
        return out.extend_from_slice(bytes);
    };
    let end = out.len() + bytes.len();
    out.extend_from_slice(first);
    out.truncate(end - N);
    out.extend_from_slice(last);
}

/// `<TAB>bucket[<TAB>shard]\n`, at most 1 + 10 + 1 + 10 + 1 bytes, written into `bytes`.
struct Tail<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

impl Tail<'_> {
    /// The room a tail needs.
    const MAX: usize = 24;

    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    /// A tab and the number's digits.
    fn number(&mut self, n: u32) {
        self.push(b'\t');
        // A shard number is almost always one digit: no call for it.
        if let Ok(digit) = u8::try_from(n) {
            if digit < 10 {
                return self.push(b'0' + digit);
            }
        }
        let mut digits = itoa::Buffer::new();
        for &b in digits.format(n).as_bytes() {
            self.push(b);
        }
    }
}

/// Where `bucket` writes, in large buffers: stdout itself, not through std's line buffer,
/// which would look for the last newline of every buffer on the thread that reads the
/// input and writes the answers.
fn output() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(io::stdout().lock())
}

fn stdout_error(e: io::Error) -> Fatal {
    Fatal::Io("stdout".into(), e)
}
