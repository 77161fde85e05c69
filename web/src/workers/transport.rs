//! What every worker role shares: a [`Role`] names its request and reply types, and
//! [`RoleWorker`] runs it as a `gloo-worker` worker (messages bincode-encoded). A request
//! arrives as an [`Input`]: the role's request, or the debug action [`Input::Panic`]; a
//! panic in the worker is reported to the page as the role's reply made of a [`Crashed`]
//! (by a panic hook, before the wasm instance stops), so the page can say so and start a
//! new worker. Each role's client can only receive its own role's replies.

use gloo::worker::{HandlerId, Worker, WorkerScope};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// The worker stopped (a panic, or it could not start): what it said. The page restarts
/// it on the next request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crashed {
    /// What it said.
    pub message: String,
}

/// A role's reply: one of its own, or that its worker stopped.
pub trait Reply: Serialize + DeserializeOwned + From<Crashed> + 'static {
    /// The crash it reports, if it is one.
    fn crashed(&self) -> Option<&Crashed>;
}

/// Which view a worker serves: each role has its own worker, so that one view's cancel or
/// crash does not stop the other's run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// The Advisor view.
    Advisor,
    /// The Readiness view.
    Check,
    /// The Resharding view.
    Reshard,
    /// An import of a document list, a generation, or the restore of the saved studio:
    /// one job that makes a workspace at a time.
    Import,
    /// The workspace's host: the worker that holds the documents' placement
    /// ([`ravenshard_model::host::Host`]) for the page's whole life.
    Workspace,
}

impl Channel {
    /// Every channel.
    pub const ALL: [Channel; 5] = [
        Channel::Advisor,
        Channel::Check,
        Channel::Reshard,
        Channel::Import,
        Channel::Workspace,
    ];

    /// The name of the role whose worker serves it, as the worker's loader registers it
    /// ([`register_worker`](super::register_worker)).
    pub const fn role(self) -> &'static str {
        match self {
            Channel::Advisor => "advisor",
            Channel::Check => "check",
            Channel::Reshard => "reshard",
            Channel::Import => "reading",
            Channel::Workspace => "host",
        }
    }
}

/// A worker role: its messages, and the state its worker holds (its own only).
pub trait Role: Sized + 'static {
    /// What the page asks it.
    type Request: Serialize + DeserializeOwned + 'static;
    /// What it answers.
    type Reply: Reply;
    /// The channel its worker serves.
    const CHANNEL: Channel;
    /// Its name, as the worker's loader registers it ([`Channel::role`]).
    const NAME: &'static str = Self::CHANNEL.role();

    /// The role's state in a new worker (`Self::default()` for every role but the save's,
    /// which answers through `scope`).
    fn start(scope: &Scope<Self>) -> Self;

    /// Handles `request` from the page's handler `id`.
    fn received(&mut self, scope: &Scope<Self>, request: Self::Request, id: HandlerId);
}

/// The scope a role's worker answers through.
pub type Scope<R> = WorkerScope<RoleWorker<R>>;

/// What the page sends a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Input<Q> {
    /// The role's request.
    Request(Q),
    /// Panic (a hidden debug action: the page must survive it).
    Panic,
}

/// A role run as a `gloo-worker` worker.
pub struct RoleWorker<R: Role>(R);

/// Sends a crash to the page's handler.
type Report = Box<dyn Fn(Crashed)>;

thread_local! {
    /// Where the panic hook reports.
    static REPORT: RefCell<Option<Report>> = const { RefCell::new(None) };
}

impl<R: Role> Worker for RoleWorker<R> {
    type Message = ();
    type Input = Input<R::Request>;
    type Output = R::Reply;

    fn create(scope: &Scope<R>) -> Self {
        std::panic::set_hook(Box::new(|info| {
            let crashed = Crashed {
                message: info.to_string(),
            };
            REPORT.with(|report| {
                if let Ok(report) = report.try_borrow() {
                    if let Some(report) = report.as_ref() {
                        report(crashed);
                    }
                }
            });
        }));
        RoleWorker(R::start(scope))
    }

    fn update(&mut self, _scope: &Scope<R>, _message: ()) {}

    fn connected(&mut self, scope: &Scope<R>, id: HandlerId) {
        let scope = scope.clone();
        let report = move |crashed| scope.respond(id, R::Reply::from(crashed));
        REPORT.with(|to| *to.borrow_mut() = Some(Box::new(report)));
    }

    fn received(&mut self, scope: &Scope<R>, input: Input<R::Request>, id: HandlerId) {
        match input {
            Input::Request(request) => self.0.received(scope, request, id),
            Input::Panic => panic!("the worker was asked to panic (the studio's debug action)"),
        }
    }
}

/// Implements [`Reply`] for a role's reply enum with a `Crashed(Crashed)` variant.
macro_rules! crash_reply {
    ($reply:ty) => {
        impl From<$crate::workers::transport::Crashed> for $reply {
            fn from(crashed: $crate::workers::transport::Crashed) -> Self {
                Self::Crashed(crashed)
            }
        }

        impl $crate::workers::transport::Reply for $reply {
            fn crashed(&self) -> Option<&$crate::workers::transport::Crashed> {
                if let Self::Crashed(crashed) = self {
                    Some(crashed)
                } else {
                    None
                }
            }
        }
    };
}
pub(crate) use crash_reply;

/// How often, at most, a worker reports progress.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

/// Encodes and decodes `value` as `gloo-worker`'s codec does (the protocols' tests).
#[cfg(test)]
pub(crate) fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> T {
    let bytes = bincode::serialize(value).expect("encodes");
    bincode::deserialize(&bytes).expect("decodes")
}
