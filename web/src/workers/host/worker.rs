//! The host's side of its worker ([`HostWorker`]): it holds the workspace
//! ([`Host`]), answers changes and questions in order, makes the rows of a large
//! workspace in steps, saves the host's documents to IndexedDB ([`Store`]), and sends the
//! Resharding view's worker the load per bucket it asks for, over their own channel
//! ([`Link`]).

use crate::persist::Saved;
use crate::workers::host::advice;
use crate::workers::host::protocol::{HostReply, HostRequest};
use crate::workers::peer::Link;
use crate::workers::reshard::{LoadAsk, LoadData, LoadSent};
use crate::workers::save::engine::{unchanged_since, Documents, StorageError, Store};
use crate::workers::save::Saves;
use crate::workers::transport::{Channel, Role, Scope, PROGRESS_EVERY_MS};
use gloo::worker::HandlerId;
use ravenshard_model::host::question::Rows;
use ravenshard_model::host::{AnyAnswer, AnyQuestion, Host, What};
use ravenshard_model::workspace::{DocumentsMark, Placement};
use ravenshard_model::workspace::{RowQuery, RowsJob};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The workspace's host's worker: the workspace, the rows job running and the questions
/// waiting for it, the advice questions its jobs answer, the saves of the host's documents
/// (started at the first), and the load the Resharding view's worker asked for (`Loads`).
#[derive(Default)]
pub struct HostWorker {
    host: Rc<RefCell<Host>>,
    /// The rows job running ([`rows_in_steps`]), and the questions waiting for its rows.
    rows: Rc<RefCell<Option<RowsWanted>>>,
    /// The advice questions a job answers, until answered or forgotten.
    advice: advice::Wanted,
    store: Option<Rc<Store>>,
    loads: Rc<Loads>,
}

/// The Resharding view's worker's asks for the load per bucket ([`LoadAsk`]), over their
/// own channel: each answered once the host made the page's change it names.
#[derive(Default)]
struct Loads {
    /// The page's number of the last change the host made or refused.
    seq: Cell<u64>,
    /// The latest change a load was asked at, until it is sent.
    asked: Cell<Option<u64>>,
}

impl Loads {
    /// Sends the load asked, if the host made the change it was asked at.
    fn answer(&self, host: &Host) {
        let at = self.seq.get();
        if self.asked.get().is_some_and(|asked| asked <= at) {
            self.asked.set(None);
            let load = LoadData::of(&host.placement().bucket_load());
            Link::<LoadSent, LoadAsk>::to(Channel::Reshard).send(&LoadSent { at, load });
        }
    }
}

impl Role for HostWorker {
    type Request = HostRequest;
    type Reply = HostReply;
    const CHANNEL: Channel = Channel::Workspace;

    fn start(_scope: &Scope<Self>) -> Self {
        let worker = Self::default();
        let (loads, host) = (Rc::clone(&worker.loads), Rc::clone(&worker.host));
        let forgotten = Rc::clone(&worker.loads);
        Link::<LoadSent, LoadAsk>::open(
            Channel::Reshard,
            move |ask: LoadAsk| {
                let asked = loads.asked.get().map_or(ask.at, |a| a.max(ask.at));
                loads.asked.set(Some(asked));
                loads.answer(&host.borrow());
            },
            // A new Resharding worker: the asks of the one before are moot.
            move || forgotten.asked.set(None),
        );
        worker
    }

    /// The rows of a large workspace that need a pass over its documents and the advice
    /// are made in steps; everything else is answered at once.
    fn received(&mut self, scope: &Scope<Self>, request: HostRequest, id: HandlerId) {
        let host = Rc::clone(&self.host);
        match request {
            HostRequest::Forget { id: asked } => {
                if let Some(wanted) = self.rows.borrow_mut().as_mut() {
                    wanted.waiting.retain(|(waiting, _)| *waiting != asked);
                }
                self.advice.borrow_mut().remove(&asked);
            }
            HostRequest::Save {
                id: save,
                settings,
                generation,
            } => {
                let store = self.store();
                let scope = scope.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let result = save_host(&store, host, &settings, generation).await;
                    scope.respond(id, HostReply::Saved { id: save, result });
                });
            }
            HostRequest::Restored => self.store().restored(host.borrow().placement()),
            HostRequest::Ask {
                id: asked,
                question: AnyQuestion::Rows(question),
            } if in_steps(&host.borrow(), &question) => {
                self.rows_in_steps(scope, id, host, asked, question);
            }
            HostRequest::Ask {
                id: asked,
                question: AnyQuestion::Advise(question),
            } => {
                self.advice.borrow_mut().insert(asked);
                let wanted = Rc::clone(&self.advice);
                let job = (asked, question);
                let run = advice::advise_in_steps(scope.clone(), id, host, wanted, job);
                wasm_bindgen_futures::spawn_local(run);
            }
            request => {
                if let HostRequest::Change { seq, .. } = &request {
                    self.loads.seq.set(*seq);
                }
                let reply = hosted(&mut host.borrow_mut(), request);
                let changed = matches!(&reply, Some(HostReply::Changed { changed, .. }) if changed.what != What::Nothing);
                if let Some(reply) = reply {
                    scope.respond(id, reply);
                }
                // After the page's reply: the load waits for it, not the page for the load.
                self.loads.answer(&host.borrow());
                if changed {
                    wasm_bindgen_futures::spawn_local(rank_in_steps(host));
                }
            }
        }
    }
}

impl HostWorker {
    /// The host's saves, over the save's machinery in this worker (started at the first).
    fn store(&mut self) -> Rc<Store> {
        let store = self
            .store
            .get_or_insert_with(|| Rc::new(Store::new(Saves::local())));
        Rc::clone(store)
    }

    /// Makes the rows of a large workspace that need a pass over its documents by a job in
    /// steps: the running one when it makes the same query's rows at this version (another
    /// window of them, asked while scrolling), else a new one.
    fn rows_in_steps(
        &self,
        scope: &Scope<Self>,
        id: HandlerId,
        host: Rc<RefCell<Host>>,
        asked: u64,
        question: Rows,
    ) {
        let query = &question.query;
        let version = host.borrow().version();
        let working = |progress| scope.respond(id, HostReply::working(asked, progress));
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
fn in_steps(host: &Host, question: &Rows) -> bool {
    host.placement().len() >= ROWS_IN_STEPS_FROM && !host.rows_at_hand(&question.query)
}

/// The rows job running in the host's worker: the query and version it makes the rows
/// of, how far it is, and the questions waiting for them (each a window of the rows).
struct RowsWanted {
    version: u64,
    query: RowQuery,
    progress: (u64, u64),
    waiting: Vec<(u64, Rows)>,
}

/// Makes the rows a slice at a time, letting the page's other changes and questions in
/// between, reporting its progress to each question waiting ([`HostReply::Working`]), then
/// answers them all. It stops without a word when no question waits any longer (the page
/// asks another query), another job took its place, or the workspace changes (the page
/// asks again at the new version).
async fn rows_in_steps(
    scope: Scope<HostWorker>,
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
                let mut host = host.borrow_mut();
                let answer = AnyAnswer::Rows(host.answer(&question));
                let version = host.version();
                let reply = HostReply::Answer {
                    id: asked,
                    version,
                    answer,
                };
                scope.respond(id, reply);
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
                scope.respond(id, HostReply::working(asked, (done, total)));
            }
        }
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
}

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

/// Saves `settings` and `host`'s documents with `store`.
async fn save_host(
    store: &Store,
    host: Rc<RefCell<Host>>,
    settings: &Saved,
    generation: u64,
) -> Option<Result<u64, StorageError>> {
    let saved = store
        .save(settings, &HostDocuments(host), Some(generation))
        .await?;
    Some(saved.map(|bytes| bytes as u64))
}

/// The host's reply to `request`: what a change did (or why it was refused), or the
/// answer to a question at the version now; none to a forgotten question.
fn hosted(host: &mut Host, request: HostRequest) -> Option<HostReply> {
    let reply = match request {
        HostRequest::Change { seq, change } => match host.apply(change) {
            Ok(changed) => HostReply::Changed {
                seq,
                changed: Box::new(changed),
            },
            Err(error) => HostReply::ChangeRefused { seq, error },
        },
        HostRequest::Ask { id, question } => {
            let answer = question.answer(host);
            let version = host.version();
            HostReply::Answer {
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
    };
    Some(reply)
}
