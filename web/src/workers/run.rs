//! The worker's side: [`StudioWorker`] answers [`Request`]s. A panic is reported to the
//! page as [`Reply::Crashed`] by a panic hook before the wasm instance stops, so the page
//! can say so and start a new worker.

use crate::persist::Saved;
use crate::workers::protocol::{
    AdviseRequest, BalanceRequest, HostRequest, Reply, Request, Stage, PROGRESS_EVERY_MS,
};
use crate::workers::reshard::balance::Balancer;
use crate::workers::reshard::plan::Planner;
use crate::workers::save::client::Transport;
use crate::workers::save::engine::{unchanged_since, Documents, StorageError, Store};
use gloo::worker::{HandlerId, Worker, WorkerScope};
use ravenshard::Topology;
use ravenshard_advise::{ExportReader, ReadExport, Workload};
use ravenshard_import::Format;
use ravenshard_model::host::{Host, Question, What};
use ravenshard_model::workspace::{DocumentsMark, Placement};
use ravenshard_model::workspace::{RowQuery, RowsJob};
use std::cell::Cell;
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

thread_local! {
    /// Where the panic hook reports: the scope and the page's handler.
    static REPORT_TO: RefCell<Option<(WorkerScope<StudioWorker>, HandlerId)>> =
        const { RefCell::new(None) };
}

/// The studio's worker. It keeps the export last advised on, for [`Request::Rewrites`],
/// the load last sent and the last plan, for [`Request::Plan`] and [`Request::Balance`],
/// and how many batches of an import or a
/// generation the page placed ([`Request::ImportPlaced`]).
pub struct StudioWorker {
    export: Rc<RefCell<Option<(u64, ReadExport)>>>,
    balancer: Rc<RefCell<Balancer>>,
    /// The last plan, for the walk-through's steps and the calls.
    planner: Planner,
    placed: Rc<Cell<(u64, u64)>>,
    /// The save's requests, handled in order (started at the first).
    saves: Option<crate::workers::save::Saves>,
    /// The workspace, in the host's worker ([`Channel::Workspace`](super::Channel)).
    host: Option<Rc<RefCell<Host>>>,
    /// The rows job running ([`rows_in_steps`]), and the questions waiting for its rows.
    rows: Rc<RefCell<Option<RowsWanted>>>,
    /// The saves of the host's documents (started at the first).
    store: Option<Rc<Store>>,
}

impl Worker for StudioWorker {
    type Message = ();
    type Input = Request;
    type Output = Reply;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        std::panic::set_hook(Box::new(|info| {
            let message = info.to_string();
            REPORT_TO.with(|to| {
                if let Ok(to) = to.try_borrow() {
                    if let Some((scope, id)) = to.as_ref() {
                        scope.respond(*id, Reply::Crashed { message });
                    }
                }
            });
        }));
        StudioWorker {
            export: Rc::default(),
            balancer: Rc::default(),
            planner: Planner::default(),
            placed: Rc::default(),
            saves: None,
            host: None,
            rows: Rc::default(),
            store: None,
        }
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _message: ()) {}

    fn connected(&mut self, scope: &WorkerScope<Self>, id: HandlerId) {
        REPORT_TO.with(|to| *to.borrow_mut() = Some((scope.clone(), id)));
    }

    fn received(&mut self, scope: &WorkerScope<Self>, request: Request, id: HandlerId) {
        match request {
            Request::Advise(request) => {
                let (scope, export) = (scope.clone(), Rc::clone(&self.export));
                wasm_bindgen_futures::spawn_local(async move {
                    let run = request.run;
                    let reply = match advise(&scope, id, request, &export).await {
                        Ok(json) => Reply::Advice { run, json },
                        Err(message) => Reply::Failed { run, message },
                    };
                    scope.respond(id, reply);
                });
            }
            Request::Rewrites {
                run,
                collection,
                field,
            } => scope.respond(id, self.rewrites(run, collection, field)),
            Request::Import(request) => {
                let (scope, placed) = (scope.clone(), Rc::clone(&self.placed));
                wasm_bindgen_futures::spawn_local(async move {
                    let reply =
                        crate::workers::import::worker::import(&scope, id, request, &placed).await;
                    scope.respond(id, reply);
                });
            }
            Request::Generate(request) => {
                let (scope, placed) = (scope.clone(), Rc::clone(&self.placed));
                wasm_bindgen_futures::spawn_local(async move {
                    let reply =
                        crate::workers::generate::worker::generate(&scope, id, request, &placed)
                            .await;
                    scope.respond(id, reply);
                });
            }
            Request::Restore(request) => {
                let (scope, placed) = (scope.clone(), Rc::clone(&self.placed));
                wasm_bindgen_futures::spawn_local(async move {
                    let reply =
                        crate::workers::restore::worker::restore(&scope, id, request, &placed)
                            .await;
                    scope.respond(id, reply);
                });
            }
            Request::ImportPlaced { run, batches } => self.placed.set((run, batches)),
            request @ (Request::SaveBatch { .. }
            | Request::SaveEnd { .. }
            | Request::SaveDrop { .. }) => self
                .saves
                .get_or_insert_with(|| crate::workers::save::Saves::start(scope))
                .push(id, request),
            Request::Panic | Request::PanicReshard | Request::PanicImport | Request::PanicSave => {
                panic!("the worker was asked to panic (the studio's debug action)")
            }
            Request::Host(request) => self.host(scope, id, request),
            Request::Plan(request) => {
                let run = request.run;
                let planned = self.planner.plan(&mut self.balancer.borrow_mut(), &request);
                let planned = Box::new(planned);
                scope.respond(id, Reply::Planned { run, planned });
            }
            Request::Calls(request) => {
                let file = self
                    .planner
                    .calls(&mut self.balancer.borrow_mut(), &request);
                scope.respond(id, Reply::Calls(file));
            }
            Request::Balance(request) => self.balance(scope, id, request),
            Request::Drain(request) => {
                let reply = self.balancer.borrow_mut().drain(&request);
                scope.respond(id, reply);
            }
        }
    }
}

impl StudioWorker {
    /// A request to the workspace's host: the rows of a large workspace that need a pass
    /// over its documents are made in steps; everything else is answered at once.
    fn host(&mut self, scope: &WorkerScope<Self>, id: HandlerId, request: HostRequest) {
        let host = Rc::clone(self.host.get_or_insert_with(Rc::default));
        match request {
            HostRequest::Forget { id: asked } => {
                if let Some(wanted) = self.rows.borrow_mut().as_mut() {
                    wanted.waiting.retain(|(waiting, _)| *waiting != asked);
                }
            }
            HostRequest::Save {
                id: save,
                settings,
                generation,
                own,
            } => {
                crate::workers::save::client::note_given(&own);
                let store = self.store(scope);
                let scope = scope.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let result = save_host(&store, host, &settings, generation).await;
                    scope.respond(id, Reply::HostSaved { id: save, result });
                });
            }
            HostRequest::Restored => self.store(scope).restored(host.borrow().placement()),
            HostRequest::Ask {
                id: asked,
                question: question @ Question::Rows { .. },
            } if in_steps(&host.borrow(), &question) => {
                self.rows_in_steps(scope, id, host, asked, question);
            }
            request => {
                let reply = hosted(&mut host.borrow_mut(), request);
                let changed = matches!(&reply, Some(Reply::Changed { changed, .. }) if changed.what != What::Nothing);
                if let Some(reply) = reply {
                    scope.respond(id, reply);
                }
                if changed {
                    wasm_bindgen_futures::spawn_local(rank_in_steps(host));
                }
            }
        }
    }

    /// The host's saves, over the save's machinery in this worker (started at the first).
    fn store(&mut self, scope: &WorkerScope<Self>) -> Rc<Store> {
        let saves = self
            .saves
            .get_or_insert_with(|| crate::workers::save::Saves::start(scope))
            .clone();
        let store = self
            .store
            .get_or_insert_with(|| Rc::new(Store::new(Transport::Local(saves))));
        Rc::clone(store)
    }

    /// Makes the rows of a large workspace that need a pass over its documents by a job in
    /// steps: the running one when it makes the same query's rows at this version (another
    /// window of them, asked while scrolling), else a new one.
    fn rows_in_steps(
        &self,
        scope: &WorkerScope<Self>,
        id: HandlerId,
        host: Rc<RefCell<Host>>,
        asked: u64,
        question: Question,
    ) {
        let Question::Rows { query, .. } = &question else {
            return;
        };
        let version = host.borrow().version();
        let working = |(done, total): (u64, u64)| {
            let reply = Reply::Working {
                id: asked,
                done,
                total,
            };
            scope.respond(id, reply);
        };
        let mut rows = self.rows.borrow_mut();
        if let Some(wanted) = rows.as_mut() {
            if wanted.version == version && wanted.query == *query {
                working(wanted.progress);
                wanted.waiting.push((asked, question));
                return;
            }
        }
        let job = host.borrow().rows_job(query);
        let progress = job.progress();
        working(progress);
        *rows = Some(RowsWanted {
            version,
            query: query.clone(),
            progress,
            waiting: vec![(asked, question)],
        });
        drop(rows);
        let run = rows_in_steps(scope.clone(), id, host, Rc::clone(&self.rows), job);
        wasm_bindgen_futures::spawn_local(run);
    }

    /// Answers the balance at once, then the comparison in a later task (a newer balance
    /// asked meanwhile makes it moot).
    fn balance(&self, scope: &WorkerScope<Self>, id: HandlerId, request: BalanceRequest) {
        let reply = self.balancer.borrow_mut().balance(&request);
        let balanced = matches!(reply, Reply::Balanced { .. });
        scope.respond(id, reply);
        if balanced {
            let (scope, balancer) = (scope.clone(), Rc::clone(&self.balancer));
            wasm_bindgen_futures::spawn_local(async move {
                gloo::timers::future::TimeoutFuture::new(0).await;
                let compared = balancer.borrow().compare(&request);
                if let Some(reply) = compared {
                    scope.respond(id, reply);
                }
            });
        }
    }

    fn rewrites(&self, run: u64, collection: String, field: String) -> Reply {
        match self.export.borrow().as_ref() {
            Some((advised, export)) if *advised == run => {
                let rewrites = export
                    .anchor_rewrites(&collection, &field)
                    .into_iter()
                    .map(|r| (r.from, r.to))
                    .collect();
                Reply::Rewrites {
                    run,
                    collection,
                    field,
                    rewrites,
                }
            }
            _ => Reply::Failed {
                run,
                message: "the worker no longer holds this export (it was restarted): run the advisor again, then apply.".into(),
            },
        }
    }
}

/// From this many documents on, rows that need a pass over the documents are made by a
/// job in steps ([`rows_in_steps`]): the studio's threshold for the page's rows job.
const ROWS_IN_STEPS_FROM: usize = crate::state::views::SLICED_ROWS_FROM;
/// Documents a step of a rows job reads (about a millisecond).
const ROWS_STEP: usize = 4_096;
/// How long a rows job runs before it lets other messages in.
const ROWS_SLICE_MS: f64 = 12.0;

/// Ranks the anchored groups of a workspace with many a slice at a time after a change
/// ([`Host::rank_groups`]), letting other messages in between, so that the first
/// question that reads a rank finds the order made; a newer change ends the job.
async fn rank_in_steps(host: Rc<RefCell<Host>>) {
    let (job, version) = {
        let host = host.borrow();
        (host.rank_groups(), host.version())
    };
    let Some(mut job) = job else {
        return;
    };
    while host.borrow().version() == version {
        let began = js_sys::Date::now();
        while js_sys::Date::now() - began < ROWS_SLICE_MS {
            if host.borrow().step_ranking(&mut job, ROWS_STEP) {
                return;
            }
        }
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
}

/// Whether the rows `question` asks for are made by a job in steps.
fn in_steps(host: &Host, question: &Question) -> bool {
    let Question::Rows { query, .. } = question else {
        return false;
    };
    host.placement().len() >= ROWS_IN_STEPS_FROM && !host.rows_at_hand(query)
}

/// The rows job running in the host's worker: the query and version it makes the rows
/// of, how far it is, and the questions waiting for them (each a window of the rows).
struct RowsWanted {
    version: u64,
    query: RowQuery,
    progress: (u64, u64),
    waiting: Vec<(u64, Question)>,
}

/// Makes the rows a slice at a time, letting the page's other changes and questions in
/// between, reporting its progress to each question waiting ([`Reply::Working`]), then
/// answers them all. It stops without a word when no question waits any longer (the page
/// asks another query), another job took its place, or the workspace changes (the page
/// asks again at the new version).
async fn rows_in_steps(
    scope: WorkerScope<StudioWorker>,
    id: HandlerId,
    host: Rc<RefCell<Host>>,
    rows: Rc<RefCell<Option<RowsWanted>>>,
    mut job: RowsJob,
) {
    let version = host.borrow().version();
    let query = job.query().clone();
    let ours = |w: &RowsWanted| w.version == version && w.query == query;
    let mut reported = js_sys::Date::now();
    loop {
        let wanted = matches!(&*rows.borrow(), Some(w) if ours(w) && !w.waiting.is_empty());
        if !wanted || host.borrow().version() != version {
            if matches!(&*rows.borrow(), Some(w) if ours(w)) {
                *rows.borrow_mut() = None;
            }
            return;
        }
        let began = js_sys::Date::now();
        let made = loop {
            match host.borrow_mut().step_rows(&mut job, ROWS_STEP) {
                Ok(false) if js_sys::Date::now() - began < ROWS_SLICE_MS => {}
                Ok(false) => break None,
                Ok(true) => break Some(true),
                Err(_) => break Some(false),
            }
        };
        if let Some(done) = made {
            let waiting = rows.borrow_mut().take().map(|w| w.waiting);
            for (asked, question) in waiting.into_iter().flatten().filter(|_| done) {
                let request = HostRequest::Ask {
                    id: asked,
                    question,
                };
                if let Some(reply) = hosted(&mut host.borrow_mut(), request) {
                    scope.respond(id, reply);
                }
            }
            return;
        }
        let (done, total) = job.progress();
        let waiting: Vec<u64> = match rows.borrow_mut().as_mut() {
            Some(w) => {
                w.progress = (done, total);
                w.waiting.iter().map(|(asked, _)| *asked).collect()
            }
            None => Vec::new(),
        };
        if js_sys::Date::now() - reported >= PROGRESS_EVERY_MS {
            reported = js_sys::Date::now();
            for asked in waiting {
                scope.respond(
                    id,
                    Reply::Working {
                        id: asked,
                        done,
                        total,
                    },
                );
            }
        }
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
}

/// The host's reply to `request`: what a change did (or why it was refused), or the
/// answer to a question at the version now; none to a forgotten question.
/// The host's documents, as a save reads them: no longer once edited or replaced since the
/// save planned.
struct HostDocuments(Rc<RefCell<Host>>);

impl Documents for HostDocuments {
    fn read<R>(&self, since: Option<&DocumentsMark>, f: impl FnOnce(&Placement) -> R) -> Option<R> {
        let host = self.0.try_borrow().ok()?;
        let placement = host.placement();
        unchanged_since(placement, since).then(|| f(placement))
    }
}

/// Saves `settings` (JSON) and `host`'s documents with `store`.
async fn save_host(
    store: &Store,
    host: Rc<RefCell<Host>>,
    settings: &str,
    generation: u64,
) -> Option<Result<u64, StorageError>> {
    let settings: Saved = match serde_json::from_str(settings) {
        Ok(settings) => settings,
        Err(e) => {
            let reason = format!("the page's settings do not read ({e})");
            return Some(Err(StorageError::Refused { bytes: 0, reason }));
        }
    };
    let saved = store
        .save(&settings, &HostDocuments(host), Some(generation))
        .await?;
    Some(saved.map(|bytes| bytes as u64))
}

fn hosted(host: &mut Host, request: HostRequest) -> Option<Reply> {
    let reply = match request {
        HostRequest::Change { seq, change } => match host.apply(change) {
            Ok(changed) => Reply::Changed {
                seq,
                changed: Box::new(changed),
            },
            Err(error) => Reply::ChangeRefused { seq, error },
        },
        HostRequest::Ask { id, question } => {
            let answer = host.answer(&question);
            let version = host.version();
            Reply::Answer {
                id,
                version,
                answer,
            }
        }
        HostRequest::Forget { .. } | HostRequest::Save { .. } | HostRequest::Restored => {
            return None
        }
        HostRequest::Stage { job, start, batch } => {
            host.stage(job, start, batch);
            return None;
        }
        HostRequest::Unstage { job } => {
            host.unstage(job);
            return None;
        }
        HostRequest::Panic => {
            panic!("the workspace's host was asked to panic (the studio's debug action)")
        }
    };
    Some(reply)
}

/// Sends [`Reply::Progress`] at most every [`PROGRESS_EVERY_MS`].
pub(super) struct Reporter<'s> {
    scope: &'s WorkerScope<StudioWorker>,
    id: HandlerId,
    run: u64,
    stage: Stage,
    began: f64,
    last: f64,
}

impl<'s> Reporter<'s> {
    /// Reports `run`'s `stage` to `id`, from now.
    pub(super) fn new(
        scope: &'s WorkerScope<StudioWorker>,
        id: HandlerId,
        run: u64,
        stage: Stage,
    ) -> Reporter<'s> {
        Reporter {
            scope,
            id,
            run,
            stage,
            began: js_sys::Date::now(),
            last: 0.0,
        }
    }

    fn stage(&mut self, stage: Stage) {
        self.stage = stage;
        self.began = js_sys::Date::now();
        self.last = 0.0;
    }

    pub(super) fn report(&mut self, done: u64, total: Option<u64>, force: bool) {
        let now = js_sys::Date::now();
        if !force && now - self.last < PROGRESS_EVERY_MS {
            return;
        }
        self.last = now;
        let progress = Reply::Progress {
            run: self.run,
            stage: self.stage,
            done,
            total,
            elapsed_ms: (now - self.began).max(0.0) as u64,
        };
        self.scope.respond(self.id, progress);
    }
}

/// What a JavaScript exception says.
fn js_message(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => e.as_string().unwrap_or_else(|| format!("{e:?}")),
    }
}

/// The chunks of the file at `url`, read by `fetch` (a blob URL of the page).
pub(super) struct Chunks {
    reader: web_sys::ReadableStreamDefaultReader,
}

impl Chunks {
    pub(super) async fn open(url: &str) -> Result<Chunks, String> {
        let global: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
        let failed =
            |e: JsValue| format!("the worker could not read the file ({})", js_message(&e));
        let response = JsFuture::from(global.fetch_with_str(url))
            .await
            .map_err(failed)?;
        let response: web_sys::Response = response.unchecked_into();
        let body = response
            .body()
            .ok_or("the worker could not read the file (it has no body)")?;
        let reader = body.get_reader().unchecked_into();
        Ok(Chunks { reader })
    }

    pub(super) async fn next(&self) -> Result<Option<Vec<u8>>, String> {
        let result = JsFuture::from(self.reader.read())
            .await
            .map_err(|e| format!("the worker could not read the file ({})", js_message(&e)))?;
        let done = js_sys::Reflect::get(&result, &"done".into()).unwrap_or(JsValue::TRUE);
        if done.as_bool().unwrap_or(true) {
            return Ok(None);
        }
        let value = js_sys::Reflect::get(&result, &"value".into()).unwrap_or(JsValue::NULL);
        Ok(Some(js_sys::Uint8Array::new(&value).to_vec()))
    }
}

/// Reads the export, then advises: the advice's JSON, or why not.
async fn advise(
    scope: &WorkerScope<StudioWorker>,
    id: HandlerId,
    request: AdviseRequest,
    kept: &RefCell<Option<(u64, ReadExport)>>,
) -> Result<String, String> {
    let topology = Topology::from_json(&request.configuration)
        .map_err(|e| format!("the configuration in force: {e}"))?;
    let workload = Workload::parse(&request.queries, &request.loads).map_err(|e| e.to_string())?;
    kept.borrow_mut().take();
    let mut reporter = Reporter::new(scope, id, request.run, Stage::Reading);
    let export = read(&request, &mut reporter).await?;
    reporter.stage(Stage::Scoring);
    let total = export.documents() as u64;
    reporter.report(0, Some(total), true);
    let advice = export
        .advise(&topology, &workload, &mut |p| {
            reporter.report(p.done, Some(p.total), false);
            ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    reporter.report(total, Some(total), true);
    let json = serde_json::to_string(&advice).map_err(|e| e.to_string())?;
    *kept.borrow_mut() = Some((request.run, export));
    Ok(json)
}

/// Reads the export chunk by chunk.
async fn read(request: &AdviseRequest, reporter: &mut Reporter<'_>) -> Result<ReadExport, String> {
    let name = &request.name;
    let chunks = Chunks::open(&request.url).await?;
    let mut reader: Option<ExportReader> = None;
    let mut bytes = 0u64;
    let in_file = |e: &dyn std::fmt::Display, format: Option<Format>| match format {
        Some(format) => format!("{name}: {e} (read as {format})"),
        None => format!("{name}: {e}"),
    };
    while let Some(chunk) = chunks.next().await? {
        let reader = reader.get_or_insert_with(|| {
            let format = Format::detect(Some(name), &chunk);
            ExportReader::new(Some(format), Some(request.size))
        });
        // A stream's chunk can be the whole file: push it in the importer's slices,
        // reporting after each.
        let mut rest = chunk.as_slice();
        while !rest.is_empty() {
            let (part, tail) = rest.split_at(reader.next_chunk_len().clamp(1, rest.len()));
            reader
                .push(part)
                .map_err(|e| in_file(&e, reader.format()))?;
            bytes += part.len() as u64;
            reporter.report(bytes, Some(request.size), false);
            rest = tail;
        }
    }
    reporter.report(bytes, Some(request.size), true);
    let reader = reader.unwrap_or_else(|| ExportReader::new(Some(Format::Text), Some(0)));
    let format = reader.format();
    reader.read().map_err(|e| in_file(&e, format))
}
