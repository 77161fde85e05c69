//! The page's side of the workspace's host ([`Channel::Workspace`]): changes sent in
//! order, questions answered through a callback each, and the host's news (a change made
//! or refused, a crash) sent where [`listen`] said.
//!
//! The host's worker is started by the first request and lives as long as the page; after
//! a crash the next request starts a new one, which holds no documents until the page
//! sends them again.

use crate::persist::Saved;
use crate::workers::client;
use crate::workers::host::protocol::{HostReply, HostRequest};
use crate::workers::host::worker::HostWorker;
use crate::workers::save::engine::StorageError;
use crate::workers::transport::{Channel, Crashed};
use ravenshard_model::batch::DocumentBatch;
use ravenshard_model::host::{AnyAnswer, Change, ChangeError, Changed, Question, Staging};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use yew::Callback;

/// What the host tells the page besides answers.
#[derive(Debug, Clone, PartialEq)]
pub enum HostNews {
    /// The change `seq` was made.
    Changed {
        /// The change's number.
        seq: u64,
        /// What it did.
        changed: Rc<Changed>,
    },
    /// The change `seq` was not made: the workspace is as it was.
    Refused {
        /// The change's number.
        seq: u64,
        /// Why.
        error: ChangeError,
    },
    /// The host's worker stopped (a panic, or it ran out of memory): the questions asked
    /// are not answered, and a new worker holds no documents.
    Crashed {
        /// What it said.
        message: String,
    },
}

/// An answer, and the workspace's version it is of.
#[derive(Debug, PartialEq)]
pub struct Answered<A> {
    /// The host's version when it answered.
    pub version: u64,
    /// The answer.
    pub answer: Rc<A>,
}

impl<A> Clone for Answered<A> {
    fn clone(&self) -> Self {
        Answered {
            version: self.version,
            answer: Rc::clone(&self.answer),
        }
    }
}

/// Where the answer to a question goes: its own answer, taken out of the host's reply.
type OnAnswer = Box<dyn Fn(u64, AnyAnswer)>;

/// Where a save's outcome goes ([`save`]).
type SaveOutcome = futures::channel::oneshot::Sender<Option<Result<u64, StorageError>>>;

thread_local! {
    static NEWS: RefCell<Option<Callback<HostNews>>> = const { RefCell::new(None) };
    /// What sends the changes the page queued (its outbox), called before each question.
    static BEFORE_ASK: RefCell<Option<Callback<()>>> = const { RefCell::new(None) };
    static ASKED: RefCell<HashMap<u64, OnAnswer>> = RefCell::new(HashMap::new());
    /// Where the progress of a question answered by a job goes.
    static PROGRESS: RefCell<HashMap<u64, Callback<(u64, u64)>>> = RefCell::new(HashMap::new());
    /// The questions a job is answering (they reported progress).
    static WORKING: RefCell<HashSet<u64>> = RefCell::new(HashSet::new());
    static LAST_ID: Cell<u64> = const { Cell::new(0) };
    /// The saves asked of the host, by number, and where their outcome goes.
    static SAVES: RefCell<HashMap<u64, SaveOutcome>> = RefCell::new(HashMap::new());
    /// The last job number given ([`next_job`]).
    static NEXT_JOB: Cell<u64> = const { Cell::new(0) };
    /// Changes sent that the host has not answered yet (made or refused).
    static PENDING: Cell<u64> = const { Cell::new(0) };
    /// Who waits for the host to answer every change sent ([`caught_up`]).
    static CATCHING_UP: RefCell<Vec<futures::channel::oneshot::Sender<()>>> =
        const { RefCell::new(Vec::new()) };
}

/// The host's news go to `on_news` from now on.
pub fn listen(on_news: Callback<HostNews>) {
    NEWS.with(|n| *n.borrow_mut() = Some(on_news));
}

/// `send_queued` is called before each question is sent: it sends the changes the page
/// queued, so that every answer is of the workspace after them (a view that asks in the
/// render that queued an edit gets the edited workspace at once, not at its next
/// question).
pub fn before_ask(send_queued: Callback<()>) {
    BEFORE_ASK.with(|b| *b.borrow_mut() = Some(send_queued));
}

/// Sends the change `seq` (numbered by the page, in order).
pub fn change(seq: u64, change: Change) {
    PENDING.with(|p| p.set(p.get() + 1));
    send(HostRequest::Change { seq, change });
}

/// A number for a job that stages its documents with the host ([`stage`]), unlike any
/// given before in this page.
pub fn next_job() -> u64 {
    NEXT_JOB.with(|n| {
        n.set(n.get() + 1);
        n.get()
    })
}

/// Sends a batch of the job `job`'s documents, placed by the host apart from the workspace
/// until the job's workspace is adopted ([`Change::Adopt`]); `start` with its first batch.
pub fn stage(job: u64, start: Option<Staging>, batch: DocumentBatch) {
    send(HostRequest::Stage { job, start, batch });
}

/// The job `job` stopped: the host drops what it staged.
pub fn unstage(job: u64) {
    send(HostRequest::Unstage { job });
}

/// Saves `settings` and the host's documents to IndexedDB, in the host's worker: the bytes
/// stored or why not, `None` when an edit stopped the save (the next goes on from it). A
/// host's worker that stops first is a [`StorageError::Stopped`].
pub async fn save(settings: &Saved) -> Option<Result<usize, StorageError>> {
    let settings = settings.clone();
    let (sender, receiver) = futures::channel::oneshot::channel();
    let id = next_job();
    SAVES.with(|s| s.borrow_mut().insert(id, sender));
    send_queued();
    let generation = crate::workers::save::client::next_generation();
    send(HostRequest::Save {
        id,
        settings,
        generation,
    });
    match receiver.await {
        Ok(result) => result.map(|r| r.map(|bytes| bytes as usize)),
        Err(_) => Some(Err(StorageError::Stopped {
            reason: "the studio's worker stopped".into(),
        })),
    }
}

/// Tells the host that the documents it holds, once it made the changes queued, are the
/// ones IndexedDB holds (a restored studio's).
pub fn restored() {
    send_queued();
    send(HostRequest::Restored);
}

/// Sends the changes the page queued, then resolves once the host made (or refused) every
/// change sent: at once when it has, or when its worker stops. A job's last change (its
/// documents' adoption) waits there until the host placed all the batches it staged.
pub async fn caught_up() {
    send_queued();
    if PENDING.with(Cell::get) == 0 {
        return;
    }
    let (sender, receiver) = futures::channel::oneshot::channel();
    CATCHING_UP.with(|c| c.borrow_mut().push(sender));
    let _ = receiver.await;
}

/// Wakes [`caught_up`]'s waiters once no change is pending.
fn wake_caught_up() {
    if PENDING.with(Cell::get) == 0 {
        for sender in CATCHING_UP.with(|c| std::mem::take(&mut *c.borrow_mut())) {
            let _ = sender.send(());
        }
    }
}

/// Sends the changes the page queued ([`before_ask`]).
fn send_queued() {
    let send_queued = BEFORE_ASK.with(|b| b.borrow().clone());
    if let Some(send_queued) = send_queued {
        send_queued.emit(());
    }
}

/// Asks `question`; the answer goes to `on_answer` (unless [`forget`] is called first).
/// Returns the question's number.
pub fn ask<Q: Question>(question: Q, on_answer: Callback<Answered<Q::Answer>>) -> u64 {
    ask_with_progress(question, on_answer, None)
}

/// [`ask`], and when a job answers it a step at a time (the rows of a large workspace),
/// its progress `(done, total)` goes to `on_progress`.
pub fn ask_with_progress<Q: Question>(
    question: Q,
    on_answer: Callback<Answered<Q::Answer>>,
    on_progress: Option<Callback<(u64, u64)>>,
) -> u64 {
    let on_answer = move |version, answer| {
        let answer = Rc::new(answer);
        on_answer.emit(Answered { version, answer });
    };
    ask_owned(question, on_answer, on_progress)
}

/// Asks `question`; its answer, owned, goes to `on_answer` with the host's version.
fn ask_owned<Q: Question>(
    question: Q,
    on_answer: impl Fn(u64, Q::Answer) + 'static,
    on_progress: Option<Callback<(u64, u64)>>,
) -> u64 {
    let id = LAST_ID.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    // The host answers a question with the answer of its own name (`AnyQuestion::answer`).
    let on_answer: OnAnswer = Box::new(move |version, answer| {
        if let Some(answer) = Q::answer_of(answer) {
            on_answer(version, answer);
        }
    });
    ASKED.with(|a| a.borrow_mut().insert(id, on_answer));
    send_queued();
    if let Some(on_progress) = on_progress {
        PROGRESS.with(|p| p.borrow_mut().insert(id, on_progress));
    }
    let question = question.into();
    send(HostRequest::Ask { id, question });
    id
}

/// Asks `question` and waits for the answer; `None` when the host's worker stopped first.
pub async fn answer<Q: Question>(question: Q) -> Option<Answered<Q::Answer>> {
    answer_of(question, false).await
}

/// [`answer`] for a job that shows its own progress (an export): [`is_idle`] does not wait
/// for it, as it does not for a question a job answers.
pub async fn answer_in_background<Q: Question>(question: Q) -> Option<Answered<Q::Answer>> {
    answer_of(question, true).await
}

async fn answer_of<Q: Question>(question: Q, background: bool) -> Option<Answered<Q::Answer>> {
    let (version, answer) = owned_answer(question, background).await?;
    let answer = Rc::new(answer);
    Some(Answered { version, answer })
}

/// The host's version and its answer to `question`, owned; `None` when the host's worker
/// stopped first. A `background` question is one [`is_idle`] does not wait for.
async fn owned_answer<Q: Question>(question: Q, background: bool) -> Option<(u64, Q::Answer)> {
    let (sender, receiver) = futures::channel::oneshot::channel();
    let sender = RefCell::new(Some(sender));
    let on_answer = move |version, answer| {
        if let Some(sender) = sender.borrow_mut().take() {
            let _ = sender.send((version, answer));
        }
    };
    let id = ask_owned(question, on_answer, None);
    if background {
        WORKING.with(|w| w.borrow_mut().insert(id));
    }
    receiver.await.ok()
}

/// Why a walk of the host's pages ([`walk_pages`]) ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Walked<E> {
    /// Every page was read, or the host had no more: the documents read.
    Done(u64),
    /// The documents changed between two pages (their answers would mix two states): walk
    /// again.
    Changed,
    /// The host's worker stopped before it answered: walk again.
    Stopped,
    /// The walker's `stopped` flag was set (its job was cancelled).
    Cancelled,
    /// The walker refused a page: why.
    Refused(E),
}

/// Asks the host for the pages `question(start, end)` of `total` documents, `page` at a
/// time, all at the version of the first answer, in the background ([`answer_in_background`]),
/// and hands each answer (owned) to `on_page`, which says how many documents it held (0:
/// no more) or why the walk stops. Setting `stopped` ends the walk at the next answer.
pub async fn walk_pages<Q: Question, E>(
    total: u64,
    page: u64,
    question: impl Fn(u64, u64) -> Q,
    mut on_page: impl FnMut(Q::Answer) -> Result<u64, E>,
    stopped: &Cell<bool>,
) -> Walked<E> {
    let (mut at, mut version) = (0, None);
    while at < total {
        let answered = owned_answer(question(at, (at + page).min(total)), true).await;
        if stopped.get() {
            return Walked::Cancelled;
        }
        let Some((now, answer)) = answered else {
            return Walked::Stopped;
        };
        if *version.get_or_insert(now) != now {
            return Walked::Changed;
        }
        match on_page(answer) {
            Ok(0) => break,
            Ok(read) => at += read,
            Err(why) => return Walked::Refused(why),
        }
    }
    Walked::Done(at)
}

/// The answer to the question `id` is no longer wanted (its view is gone or asks another):
/// a job making it stops.
pub fn forget(id: u64) {
    ASKED.with(|a| a.borrow_mut().remove(&id));
    PROGRESS.with(|p| p.borrow_mut().remove(&id));
    if WORKING.with(|w| w.borrow_mut().remove(&id)) {
        send(HostRequest::Forget { id });
    }
}

/// Asks the host to panic (the studio's debug action): the page must survive it.
pub fn panic() {
    client::panic::<HostWorker>(Callback::from(route));
}

/// Whether the host answered every change sent and every question still wanted, but
/// those a job is answering (their views show its progress): what a test waits for before
/// it reads a view that asks the host.
pub fn is_idle() -> bool {
    let waiting = ASKED.with(|a| {
        let working = WORKING.with(|w| w.borrow().clone());
        a.borrow().keys().filter(|id| !working.contains(id)).count()
    });
    waiting == 0 && PENDING.with(Cell::get) == 0
}

/// The host's worker was stopped: no answer or news of it will come.
pub(crate) fn stopped() {
    // Their senders dropped: the saves hear that the worker stopped.
    SAVES.with(|s| s.borrow_mut().clear());
    ASKED.with(|a| a.borrow_mut().clear());
    PROGRESS.with(|p| p.borrow_mut().clear());
    WORKING.with(|w| w.borrow_mut().clear());
    PENDING.with(|p| p.set(0));
    wake_caught_up();
}

/// Starts the host's worker if none runs (a new one holds no documents until the page
/// sends them).
pub fn start() {
    client::start::<HostWorker>(Callback::from(route));
}

/// Whether the host's worker runs.
pub fn is_running() -> bool {
    client::instance(Channel::Workspace).is_some()
}

fn send(request: HostRequest) {
    client::send::<HostWorker>(request, Callback::from(route));
}

fn news(news: HostNews) {
    let sink = NEWS.with(|n| n.borrow().clone());
    if let Some(sink) = sink {
        sink.emit(news);
    }
}

fn answered_change() {
    PENDING.with(|p| p.set(p.get().saturating_sub(1)));
    wake_caught_up();
}

/// Sends a reply of the host where it goes.
fn route(reply: HostReply) {
    match reply {
        HostReply::Answer {
            id,
            version,
            answer,
        } => {
            let asked = ASKED.with(|a| a.borrow_mut().remove(&id));
            PROGRESS.with(|p| p.borrow_mut().remove(&id));
            WORKING.with(|w| w.borrow_mut().remove(&id));
            if let Some(on_answer) = asked {
                on_answer(version, answer);
            }
        }
        HostReply::Working { id, done, total } => {
            if !ASKED.with(|a| a.borrow().contains_key(&id)) {
                return;
            }
            WORKING.with(|w| w.borrow_mut().insert(id));
            let on_progress = PROGRESS.with(|p| p.borrow().get(&id).cloned());
            if let Some(on_progress) = on_progress {
                on_progress.emit((done, total));
            }
        }
        HostReply::Changed { seq, changed } => {
            answered_change();
            news(HostNews::Changed {
                seq,
                changed: Rc::new(*changed),
            });
        }
        HostReply::ChangeRefused { seq, error } => {
            answered_change();
            news(HostNews::Refused { seq, error });
        }
        HostReply::Crashed(Crashed { message }) => {
            stopped();
            news(HostNews::Crashed { message });
        }
        HostReply::Saved { id, result } => {
            if let Some(sender) = SAVES.with(|s| s.borrow_mut().remove(&id)) {
                let _ = sender.send(result);
            }
        }
    }
}
