//! What the tests of the jobs that make a workspace in the worker (an import, a generation)
//! need: a placer of a configuration, a job whose reports are kept, a wait.

use ravenshard::Topology;
use ravenshard_design::content::ContentDesign;
use ravenshard_model::workspace::PlacementOptions;
use ravenshard_studio::jobs::bulk::Job;
use ravenshard_studio::jobs::import::CancelToken;
use ravenshard_studio::state::{Loaded, Placer, WorkspaceAction};
use std::cell::RefCell;
use std::rc::Rc;

/// The placer of `configuration` (JSON), with its content design.
pub fn placer(configuration: &str) -> Placer {
    let topology = Topology::from_json(configuration).unwrap();
    let design = ContentDesign::from_topology(&topology).unwrap();
    Placer {
        topology: Rc::new(topology),
        revision: 1,
        options: Rc::new(PlacementOptions {
            design,
            ..Default::default()
        }),
    }
}

/// A job's reports.
#[derive(Default)]
pub struct Seen {
    pub actions: Vec<WorkspaceAction>,
    pub loaded: Option<Rc<Loaded>>,
}

impl Seen {
    /// Why the job stopped (an import's failure, or a notice), if it did.
    pub fn failed(&self) -> Option<String> {
        self.actions.iter().find_map(|a| match a {
            WorkspaceAction::ImportFailed { message, .. } => Some(message.clone()),
            WorkspaceAction::WorkStopped(why) => Some(why.clone()),
            _ => None,
        })
    }

    /// Whether it reported progress.
    pub fn working(&self) -> bool {
        self.actions
            .iter()
            .any(|a| matches!(a, WorkspaceAction::Working(_)))
    }
}

/// A job named `label`, stopped by `token`, whose reports go to the returned `Seen`.
pub fn job(label: &str, token: &CancelToken) -> (Job, Rc<RefCell<Seen>>) {
    let seen = Rc::new(RefCell::new(Seen::default()));
    let on_workspace = {
        let seen = Rc::clone(&seen);
        yew::Callback::from(move |a| seen.borrow_mut().actions.push(a))
    };
    let on_loaded = {
        let seen = Rc::clone(&seen);
        yew::Callback::from(move |l| seen.borrow_mut().loaded = Some(l))
    };
    let job = Job::new(label.into(), token.clone(), on_workspace, on_loaded);
    (job, seen)
}

/// Waits (at most ~60 s) until `done` holds.
pub async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..3000 {
        if done() {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("timed out waiting for {what}");
}

/// Waits (at most ~10 s) until `poll` gives something, and returns it.
pub async fn eventually<T, F: std::future::Future<Output = Option<T>>>(
    what: &str,
    poll: impl Fn() -> F,
) -> T {
    for _ in 0..500 {
        if let Some(found) = poll().await {
            return found;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("timed out waiting for {what}");
}

/// Cancels the job reporting to `seen` by `token` once its worker runs and it reported
/// progress, then checks that the worker is terminated and that the job neither loaded
/// nor failed (a cancel is not a failure).
pub async fn cancel_when_working(seen: &RefCell<Seen>, token: &CancelToken) {
    use ravenshard_studio::workers::{client, Channel};
    until("the worker", || client::instance(Channel::Import).is_some()).await;
    until("the first progress", || seen.borrow().working()).await;
    token.cancel();
    until("the worker's end", || {
        client::instance(Channel::Import).is_none()
    })
    .await;
    gloo::timers::future::TimeoutFuture::new(200).await;
    let s = seen.borrow();
    assert!(s.loaded.is_none());
    assert_eq!(s.failed(), None, "a cancel is not a failure");
}

/// The host's documents after it adopted what `loaded`'s job staged, placed by the job's
/// configuration (the host is this test module's worker), and its summary of them.
pub async fn adopted(
    loaded: &Loaded,
) -> (
    Vec<ravenshard_model::workspace::Document>,
    ravenshard_model::workspace::Summary,
) {
    use ravenshard_model::host::question::{Documents, MAX_LISTED};
    use ravenshard_model::host::Change;
    use ravenshard_studio::workers::host::{self, HostNews};
    let summary: Rc<RefCell<Option<ravenshard_model::workspace::Summary>>> = Rc::default();
    let keep = Rc::clone(&summary);
    host::listen(yew::Callback::from(move |news| match news {
        HostNews::Changed { changed, .. } => *keep.borrow_mut() = Some(changed.summary.clone()),
        news => panic!("the host did not adopt the job's documents: {news:?}"),
    }));
    // The host places by the configuration in force: the job's.
    let topology = &loaded.placer.topology;
    let configuration = topology.to_json();
    let database = topology.database().to_string();
    let configure = Change::Configure {
        configuration,
        database,
    };
    host::change(u64::MAX / 2 + 2 * loaded.job, configure);
    let (job, documents) = (loaded.job, loaded.documents);
    host::change(u64::MAX / 2 + 2 * job + 1, Change::Adopt { job, documents });
    until("the adoption", || {
        summary.borrow().is_some() && host::is_idle()
    })
    .await;
    let mut all = Vec::new();
    loop {
        let start = all.len() as u64;
        let question = Documents {
            start,
            end: start + MAX_LISTED,
        };
        let answered = host::answer(question).await.expect("the host answers");
        let more = Rc::unwrap_or_clone(answered.answer);
        if more.is_empty() {
            break;
        }
        all.extend(more);
    }
    let summary = summary.borrow_mut().take().unwrap();
    (all, summary)
}
