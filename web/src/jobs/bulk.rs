//! Jobs that make a workspace of up to millions of documents without freezing the page: a
//! large generation and an import, whose documents the studio's worker makes (or reads of
//! the file) and sends in batches (the restore of the saved studio, [`crate::app::restore`],
//! takes the worker's batches the same way). The page hands each batch to the workspace's
//! host as it comes (`Made`: [`host::stage`]), which places it apart from the workspace,
//! and reports the progress, giving the event loop back every [`SLICE_MS`] milliseconds (to
//! paint it and to notice Cancel); when the job ends the host adopts what it staged
//! ([`Action::Loaded`](crate::views::state::Action::Loaded)): nothing is placed on the page's
//! thread, and a cancelled job leaves the workspace as it was.

use super::import::{read_slice, CancelToken, SNIFF_BYTES};
use crate::state::limits::check_generation_fits;
use crate::state::{check_import_size, import_summary, nothing_imported};
use crate::state::{KeptFields, Loaded, Placer};
use crate::state::{Work, WorkspaceAction};
use crate::workers::{host, Crashed, DocumentBatch, Reading, ReadingReply};
use ravenshard_import::{BodiesDropped, FieldPaths, Format};
use ravenshard_model::host::Staging;
use ravenshard_model::sample::Generator;
use std::rc::Rc;
use web_sys::Blob;
use yew::Callback;

/// Generations of more documents than this run as a chunked job; smaller ones are made
/// at once (a few tens of milliseconds).
pub const CHUNKED_FROM: usize = 50_000;

/// The longest the job runs before giving the event loop back, in milliseconds.
pub const SLICE_MS: f64 = 25.0;

/// The progress line is updated at most this often, in milliseconds (the job still gives
/// the event loop back every [`SLICE_MS`]). Each update lays the page out again: in a
/// trace of the 10,000,000-ID import, 15-20 ms of main-thread time a frame, paid at every
/// slice (over 700 frames) when the line was updated at each.
pub const REPORT_MS: f64 = 100.0;

/// Gives the event loop back (a zero-delay timeout: the browser paints and handles input
/// before the job goes on). A `MessageChannel` message, which skips the 4 ms a nested
/// timeout waits, made the 10,000,000-ID import slower, not faster, in an A/B run.
pub async fn yield_now() {
    gloo::timers::future::TimeoutFuture::new(0).await;
}

/// Milliseconds since the page started.
pub(crate) fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Runs `f` between performance marks, adding the measure `ravenshard-job-{stage}` (the
/// bench, `web/bench/studio.py --bulk`, sums them per stage).
fn timed<T>(stage: &str, f: impl FnOnce() -> T) -> T {
    let name = format!("ravenshard-job-{stage}");
    let start = format!("{name}-start");
    crate::marks::mark(&start);
    let result = f();
    crate::marks::measure(&name, Some(&start));
    result
}

/// Where a job reports and whether it is still wanted.
pub struct Job {
    token: CancelToken,
    generation: u64,
    on_workspace: Callback<WorkspaceAction>,
    on_loaded: Callback<Rc<Loaded>>,
    label: String,
    started: f64,
    slice: f64,
    /// When the progress line was last updated.
    reported: f64,
}

impl Job {
    /// A job named `label` (`Generating`); the jobs running before stop.
    pub fn new(
        label: String,
        token: CancelToken,
        on_workspace: Callback<WorkspaceAction>,
        on_loaded: Callback<Rc<Loaded>>,
    ) -> Job {
        token.cancel();
        let started = now();
        Job {
            generation: token.generation(),
            token,
            on_workspace,
            on_loaded,
            label,
            started,
            slice: started,
            reported: f64::NEG_INFINITY,
        }
    }

    fn wanted(&self) -> bool {
        self.token.generation() == self.generation
    }

    /// Yields to the browser when the slice is used up, reporting `done` documents
    /// (`fraction` of the job) if the last report is [`REPORT_MS`] old. `false`: the job
    /// was cancelled.
    async fn breathe(&mut self, done: usize, fraction: Option<f64>) -> bool {
        if now() - self.slice < SLICE_MS {
            return self.wanted();
        }
        if now() - self.reported >= REPORT_MS {
            self.reported = now();
            let elapsed = now() - self.started;
            let left_ms = fraction
                .filter(|f| *f > 0.02 && elapsed > 300.0)
                .map(|f| elapsed * (1.0 - f) / f);
            self.on_workspace.emit(WorkspaceAction::Working(Work {
                label: self.label.clone(),
                done,
                fraction,
                left_ms,
            }));
        }
        yield_now().await;
        self.slice = now();
        self.wanted()
    }

    /// Stops with a notice (the workspace is unchanged).
    fn stop(&self, why: String) {
        if self.wanted() {
            self.on_workspace.emit(WorkspaceAction::WorkStopped(why));
        }
    }

    /// Stops an import that failed: the import's error says why (the workspace is
    /// unchanged).
    fn fail(&self, name: &str, message: String) {
        if self.wanted() {
            let name = name.to_string();
            let action = WorkspaceAction::ImportFailed { name, message };
            self.on_workspace.emit(action);
        }
    }

    /// Hands the job's workspace over: the host adopts what it staged.
    pub(crate) async fn finish(
        self,
        mut made: Made,
        summary: Option<String>,
        kept: Option<KeptFields>,
    ) {
        // The render of the new workspace starts a task of its own.
        yield_now().await;
        if !self.wanted() {
            return;
        }
        let Some(job) = made.hand_over_job() else {
            return;
        };
        let loaded = Loaded {
            documents: made.documents,
            placer: made.placer.clone(),
            summary,
            kept,
            job,
        };
        timed("handover", || self.on_loaded.emit(Rc::new(loaded)));
    }
}

/// What a job made so far: its batches, each handed to the workspace's host as it came
/// ([`host::stage`]), which places them apart from the workspace until the job's workspace
/// is handed over ([`Change::Adopt`](ravenshard_model::host::Change::Adopt)). Dropped
/// before (the job cancelled or failed), it tells the host to drop them.
pub(crate) struct Made {
    placer: Placer,
    /// How many documents were staged.
    documents: u64,
    /// The job's number with the host, until handed over.
    job: Option<u64>,
    /// What the host is told with the first batch (sent then).
    start: Option<Staging>,
}

impl Made {
    /// Nothing made yet, to be placed by `placer`.
    pub(crate) fn new(placer: Placer) -> Made {
        let start = Staging {
            configuration: placer.topology.to_json(),
            database: placer.topology.database().to_string(),
            documents: 0,
            id_bytes: 0,
            bodies: 0,
            body_bytes: 0,
        };
        Made {
            placer,
            documents: 0,
            job: Some(host::next_job()),
            start: Some(start),
        }
    }

    /// How many documents were staged.
    pub(crate) fn len(&self) -> u64 {
        self.documents
    }

    /// Has the host make room for `documents` whose IDs hold `id_bytes` (so that its tables
    /// are not copied whole as they double: a task of half a second at 10,000,000).
    pub(crate) fn reserve(&mut self, documents: usize, id_bytes: usize) {
        if let Some(start) = self.start.as_mut() {
            (start.documents, start.id_bytes) = (documents as u64, id_bytes as u64);
        }
    }

    /// Has the host make room for `bodies` bodies of `bytes` in all.
    pub(crate) fn reserve_bodies(&mut self, bodies: usize, bytes: usize) {
        if let Some(start) = self.start.as_mut() {
            (start.bodies, start.body_bytes) = (bodies as u64, bytes as u64);
        }
    }

    /// Hands `batch` to the host, which places it apart until the job's workspace is
    /// handed over (the job's start with the first).
    fn stage(&mut self, batch: DocumentBatch) {
        if let Some(job) = self.job {
            self.documents += batch.len() as u64;
            timed("stage", || host::stage(job, self.start.take(), batch));
        }
    }

    /// The job's number with the host, no longer dropped with `Made` (its workspace is
    /// handed over).
    fn hand_over_job(&mut self) -> Option<u64> {
        self.job.take()
    }

    /// Goes on placing by `placer` instead, when it places documents as the one before
    /// (the same topology and options, as settings read again may give); `false` (nothing
    /// changed) when it does not.
    pub(crate) fn follow(&mut self, placer: Placer) -> bool {
        let same =
            *placer.topology == *self.placer.topology && *placer.options == *self.placer.options;
        if same {
            self.placer = placer;
        }
        same
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        if let Some(job) = self.job.take() {
            host::unstage(job);
        }
    }
}

/// Makes `generator`'s documents in the studio's worker, which sends them in batches as an
/// import's, and places each batch as it arrives (the same code as the import's,
/// `receive`): making and placing overlap, and the page's thread only places. A cancel or
/// a worker's panic terminates the worker and leaves the workspace as it was.
pub async fn generate(generator: Generator, placer: Placer, mut job: Job) {
    let counts = match check_generation_fits(&generator) {
        Ok(counts) => counts,
        Err(message) => return job.stop(message),
    };
    let total = generator.documents;
    let mut out = Made::new(placer);
    // Room for the IDs' bytes as made, not an average: an arena that outgrows its room is
    // copied whole (a place step of 705 ms at 10,000,000 documents, whose IDs average 25
    // bytes); the same for the orders' bodies.
    out.reserve(total, counts.id_bytes());
    out.reserve_bodies(counts.orders, counts.body_bytes());
    let mut reading = Reading::generate(generator);
    match receive(&mut job, &mut reading, &mut out, total as f64, false).await {
        Received::All { .. } => {}
        Received::Stopped => return,
        Received::Missing(key) => return job.stop(not_a_restore(&key)),
        Received::Failed { message, crashed } => {
            let message = if crashed {
                format!(
                    "the studio's worker stopped while making the documents ({message}); the \
                     workspace is unchanged: generate again"
                )
            } else {
                message
            };
            return job.stop(format!("Generate stopped: {message}"));
        }
    }
    drop(reading);
    job.finish(out, None, None).await;
}

/// Imports `blob` named `name` as documents: the studio's worker reads it (inflates and
/// parses it, keeping of each document only the fields the design in force reads), and the
/// page places each batch as it arrives (`receive`), so that reading and placing overlap;
/// the worker stays at most [`BATCHES_AHEAD`](crate::workers::BATCHES_AHEAD) batches ahead.
/// A cancel or a failure terminates the worker and leaves the workspace as it was.
pub async fn import(blob: Blob, name: String, placer: Placer, mut job: Job) {
    let total = blob.size();
    let head = match read_slice(&blob, 0.0, total.min(SNIFF_BYTES)).await {
        Ok(head) => head,
        Err(e) => return job.fail(&name, e),
    };
    if let Err(message) = check_import_size(total as u64, head.starts_with(&[0x1f, 0x8b])) {
        return job.fail(&name, message);
    }
    let kept = (placer.options.design.as_ref())
        .map(FieldPaths::of_design)
        .unwrap_or_default();
    // Freed in parts if the import stops (`Made`).
    let mut out = Made::new(placer);
    let mut reading = match Reading::start(&blob, &name, &kept) {
        Ok(reading) => reading,
        Err(e) => return job.fail(&name, e),
    };
    let received = receive(&mut job, &mut reading, &mut out, total, true).await;
    let (format, skipped, warning, dropped) = match received {
        Received::All {
            format,
            skipped,
            warning,
            bodies_dropped,
        } => (format, skipped, warning, bodies_dropped),
        Received::Stopped => return,
        Received::Missing(key) => return job.fail(&name, not_a_restore(&key)),
        Received::Failed {
            message,
            crashed: false,
        } => return job.fail(&name, message),
        Received::Failed {
            message,
            crashed: true,
        } => {
            let message = format!(
                "the studio's worker stopped while reading it ({message}); the workspace \
                 is unchanged: import the file again"
            );
            return job.fail(&name, message);
        }
    };
    drop(reading);
    if out.len() == 0 {
        let read_as = format.map_or_else(|| "an unknown format".into(), |f| f.to_string());
        let why = nothing_imported(&read_as, skipped as usize, warning);
        return job.fail(&name, why);
    }
    let summary = import_summary(&name, out.len() as usize, skipped as usize, warning);
    let kept = format.and_then(|format| KeptFields::of_import(name, format, kept));
    let kept = kept.map(|k| k.with_dropped(dropped));
    job.finish(out, Some(summary), kept).await;
}

/// What to say when the worker answers an import or a generation as a restore (a part
/// missing): a fault of the studio, said rather than left as a job that never ends.
fn not_a_restore(key: &str) -> String {
    format!(
        "the studio's worker answered as if restoring (record \"{key}\" missing), a fault \
         of the studio; the workspace is unchanged"
    )
}

/// How the worker's run of an import or a generation ended ([`receive`]).
pub(crate) enum Received {
    /// Every batch was placed; the format the worker read an import's file as, how many
    /// entries the import skipped, why the first was, and the documents whose body it could
    /// not keep.
    All {
        format: Option<Format>,
        skipped: u64,
        warning: Option<String>,
        bodies_dropped: BodiesDropped,
    },
    /// Cancelled, another run took the worker over, or the placing stopped (and said why).
    Stopped,
    /// The run failed (its message), or the worker stopped (`crashed`: what it said).
    Failed { message: String, crashed: bool },
    /// A restore found the part of this record missing ([`ReadingReply::PartMissing`]).
    Missing(String),
}

/// Places the documents of `reading`'s batches by `out`'s builder as they arrive (and
/// notes in `out`'s save, if it has one, where each batch is and the parts the worker
/// stored of it), telling the worker how many are placed (it stays a few batches ahead)
/// and yielding between slices.
/// `total` is what the run's [`Read::bytes`](crate::workers::Read) come to (a file's bytes, a
/// generation's documents), for the fraction done; `estimate`: make room in the placement
/// at the first batch's density ([`Made::reserve`]; a generation makes room before, knowing its
/// count).
pub(crate) async fn receive(
    job: &mut Job,
    reading: &mut Reading,
    out: &mut Made,
    total: f64,
    estimate: bool,
) -> Received {
    let fraction = |done: u64| Some((done as f64 / total.max(1.0)).min(1.0));
    loop {
        let Some(reply) = reading.next().await else {
            return Received::Stopped;
        };
        if !job.wanted() {
            return Received::Stopped;
        }
        match reply {
            ReadingReply::Progress(progress) => {
                if !job
                    .breathe(out.len() as usize, fraction(progress.done))
                    .await
                {
                    return Received::Stopped;
                }
            }
            ReadingReply::Batch { batch, .. } => {
                let (number, read) = (batch.number, fraction(batch.read.bytes));
                if estimate && out.len() == 0 {
                    let (expected, id_bytes) = batch.read.estimate(total as u64);
                    out.reserve(expected, id_bytes);
                }
                out.stage(batch);
                if !job.breathe(out.len() as usize, read).await {
                    return Received::Stopped;
                }
                reading.placed(number + 1);
            }
            ReadingReply::Imported {
                format,
                skipped,
                warning,
                bodies_dropped,
                ..
            } => {
                return Received::All {
                    format: format.parse().ok(),
                    skipped,
                    warning,
                    bodies_dropped,
                }
            }
            ReadingReply::Generated { .. } | ReadingReply::Restored { .. } => {
                let (warning, bodies_dropped) = (None, BodiesDropped::default());
                return Received::All {
                    format: None,
                    skipped: 0,
                    warning,
                    bodies_dropped,
                };
            }
            ReadingReply::Failed { message, .. } => {
                return Received::Failed {
                    message,
                    crashed: false,
                }
            }
            ReadingReply::Crashed(Crashed { message }) => {
                return Received::Failed {
                    message,
                    crashed: true,
                }
            }
            ReadingReply::PartMissing { key, .. } => return Received::Missing(key),
        }
    }
}
