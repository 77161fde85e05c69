//! `ravenshard`: RavenDB sharding for lists of document IDs, at native speed.

mod explain;
mod lines;
mod report;

use clap::{Args, Parser, Subcommand};
use ravenshard::{ConfigError, Topology};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
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
    /// Print `id<TAB>bucket[<TAB>shard]` for each ID (arguments, or one per line on stdin).
    Bucket {
        #[command(flatten)]
        topology: TopologyArgs,
        /// Document IDs; read from stdin, one per line, when none are given.
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
        /// File of IDs, one per line (`id<TAB>size` allowed); stdin when absent.
        file: Option<PathBuf>,
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
}

/// What stops a command: said once on stderr, with exit status 2.
#[derive(Debug)]
enum Fatal {
    Io(String, io::Error),
    Config(String, ConfigError),
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Io(what, e) => write!(f, "{what}: {e}"),
            Fatal::Config(what, e) => write!(f, "{what}: {e}"),
        }
    }
}

impl TopologyArgs {
    fn load(&self) -> Result<Option<Topology>, Fatal> {
        let mut topology = match (&self.config, self.shards) {
            (Some(path), _) => {
                let name = path.display().to_string();
                let text = std::fs::read_to_string(path).map_err(|e| Fatal::Io(name.clone(), e))?;
                Some(Topology::from_json(&text).map_err(|e| Fatal::Config(name, e))?)
            }
            (None, Some(n)) => Some(
                Topology::with_shards(n).map_err(|e| Fatal::Config(format!("--shards {n}"), e))?,
            ),
            (None, None) => None,
        };
        if let (Some(t), Some(name)) = (topology.as_mut(), &self.database) {
            t.set_database(name);
        }
        if let Some(t) = &topology {
            for warning in t.warnings() {
                eprintln!("warning: {warning}");
            }
        }
        Ok(topology)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bucket { topology, ids } => topology.load().and_then(|t| bucket(t.as_ref(), ids)),
        Command::Explain { topology, json, id } => topology
            .load()
            .and_then(|t| explain::run(t.as_ref(), &id, json)),
        Command::Report {
            topology,
            json,
            top,
            obese,
            file,
        } => topology
            .load()
            .and_then(|t| report::run(t.as_ref(), file.as_deref(), json, top, obese)),
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

/// Streams IDs to `id<TAB>bucket[<TAB>shard]` lines; invalid IDs go to stderr with their
/// line number and make the exit status 1.
fn bucket(topology: Option<&Topology>, ids: Vec<String>) -> Result<ExitCode, Fatal> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut failed = false;
    let mut emit = |line: u64, id: Result<&str, lines::NotUtf8>| -> io::Result<()> {
        let located = id.map_err(|e| e.to_string()).and_then(|id| {
            let found = match topology {
                Some(t) => t.locate(id).map(|l| (l.bucket, Some(l.shard))),
                None => ravenshard::bucket_for(id).map(|b| (b, None)),
            };
            found.map(|f| (id, f)).map_err(|e| e.to_string())
        });
        match located {
            Ok((id, (bucket, shard))) => {
                out.write_all(id.as_bytes())?;
                write_column(&mut out, bucket)?;
                if let Some(shard) = shard {
                    write_column(&mut out, shard)?;
                }
                out.write_all(b"\n")
            }
            Err(message) => {
                failed = true;
                eprintln!("line {line}: {message}");
                Ok(())
            }
        }
    };
    let stdout_error = |e: io::Error| Fatal::Io("stdout".into(), e);
    if ids.is_empty() {
        let stdin = io::BufReader::with_capacity(1 << 16, io::stdin().lock());
        lines::for_each_id(stdin, &mut emit).map_err(|stop| match stop {
            lines::Stop::Read(e) => Fatal::Io("stdin".into(), e),
            lines::Stop::Sink(e) => stdout_error(e),
        })?;
    } else {
        for (i, id) in ids.iter().enumerate() {
            emit(i as u64 + 1, Ok(id)).map_err(stdout_error)?;
        }
    }
    out.flush().map_err(stdout_error)?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes `<TAB>n` without the formatting machinery: this is the CLI's hot loop.
fn write_column(out: &mut impl Write, mut n: u32) -> io::Result<()> {
    let mut digits = [0u8; 11];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    at -= 1;
    digits[at] = b'\t';
    out.write_all(&digits[at..])
}
