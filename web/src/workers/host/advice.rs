//! The advisor on the workspace in the host's worker: [`Advise`] answered by a job
//! ([`AdviceJob`](ravenshard_model::host::question::AdviceJob)) that reads the documents a
//! slice at a time, letting the page's other changes and questions in between, then
//! scores them, reporting its progress
//! ([`HostReply::Working`]) as a rows job does. The documents never leave the worker.

use crate::workers::host::protocol::HostReply;
use crate::workers::host::worker::HostWorker;
use crate::workers::transport::{Scope, PROGRESS_EVERY_MS};
use gloo::worker::HandlerId;
use ravenshard_model::host::question::Advise;
use ravenshard_model::host::{AnyAnswer, Host};
use std::cell::RefCell;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::rc::Rc;

/// Documents a step of an advice job reads (a few milliseconds of bodies).
const ADVICE_STEP: usize = 2_048;
/// How long an advice job reads before it lets other messages in.
const ADVICE_SLICE_MS: f64 = 12.0;

/// The advice questions asked and not forgotten: a job whose question is forgotten stops.
pub(crate) type Wanted = Rc<RefCell<HashSet<u64>>>;

/// Answers `question` (the page's `asked`) by an advice job, unless it is forgotten first.
pub(crate) async fn advise_in_steps(
    scope: Scope<HostWorker>,
    id: HandlerId,
    host: Rc<RefCell<Host>>,
    wanted: Wanted,
    (asked, question): (u64, Advise),
) {
    let working = |progress| scope.respond(id, HostReply::working(asked, progress));
    let job = host.borrow().advice_job(&question);
    let answer = match job {
        Err(e) => Err(e),
        Ok(mut job) => {
            working(job.progress());
            let mut reported = js_sys::Date::now();
            let mut report = |progress: (u64, u64)| {
                if js_sys::Date::now() - reported >= PROGRESS_EVERY_MS {
                    reported = js_sys::Date::now();
                    working(progress);
                }
            };
            loop {
                if !wanted.borrow().contains(&asked) {
                    return;
                }
                let began = js_sys::Date::now();
                let step = loop {
                    let step = host.borrow().step_advice(&mut job, ADVICE_STEP, &mut |p| {
                        report(p);
                        ControlFlow::Continue(())
                    });
                    if step.is_some() || js_sys::Date::now() - began >= ADVICE_SLICE_MS {
                        break step;
                    }
                };
                if let Some(answer) = step {
                    break answer;
                }
                report(job.progress());
                gloo::timers::future::TimeoutFuture::new(0).await;
            }
        }
    };
    if wanted.borrow_mut().remove(&asked) {
        let version = host.borrow().version();
        let answer = AnyAnswer::Advise(answer);
        scope.respond(
            id,
            HostReply::Answer {
                id: asked,
                version,
                answer,
            },
        );
    }
}
