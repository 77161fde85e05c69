//! The Resharding view's side of its worker ([`Reshard`]): it holds the load the
//! workspace's host sent last and the last plan. A request over a later change of the
//! workspace than the load held waits while the worker asks the host for the load
//! ([`LoadAsk`]) over their own channel ([`Link`]); the host sends it there
//! ([`LoadSent`]), not through the page.

use crate::workers::peer::Link;
use crate::workers::reshard::balance::Balancer;
use crate::workers::reshard::plan::Planner;
use crate::workers::reshard::protocol::{
    BalanceRequest, LoadAsk, LoadSent, ReshardReply, ReshardRequest,
};
use crate::workers::transport::{Channel, Role, Scope};
use gloo::worker::HandlerId;
use std::cell::RefCell;
use std::rc::Rc;

/// The Resharding view's worker: its state (`Held`), shared with the link to the host.
pub struct Reshard {
    held: Rc<RefCell<Held>>,
    link: Link<LoadAsk, LoadSent>,
}

/// The load and the balance's state ([`Balancer`]), the last plan, for the walk-through's
/// steps and the calls ([`Planner`]), and the requests waiting for a newer load.
#[derive(Default)]
struct Held {
    balancer: Rc<RefCell<Balancer>>,
    planner: Planner,
    /// Requests over a later change than the load held, in the order they came.
    waiting: Vec<(HandlerId, ReshardRequest)>,
    /// The change whose load was asked of the host last, until a load as new comes.
    asked: Option<u64>,
}

impl Role for Reshard {
    type Request = ReshardRequest;
    type Reply = ReshardReply;
    const CHANNEL: Channel = Channel::Reshard;

    fn start(scope: &Scope<Self>) -> Self {
        let held: Rc<RefCell<Held>> = Rc::default();
        let (on_load, scope) = (Rc::clone(&held), scope.clone());
        let on_connect = Rc::clone(&held);
        let link = Link::open(
            Channel::Workspace,
            move |sent: LoadSent| loaded(&on_load, &scope, sent),
            move || {
                // A new host (or the first port): what was asked of the one before is
                // asked again.
                let asked = on_connect.borrow().asked;
                if let Some(at) = asked {
                    Link::<LoadAsk, LoadSent>::to(Channel::Workspace).send(&LoadAsk { at });
                }
            },
        );
        Reshard { held, link }
    }

    fn received(&mut self, scope: &Scope<Self>, request: ReshardRequest, id: HandlerId) {
        let at = request.load();
        let mut held = self.held.borrow_mut();
        let kept = held.balancer.borrow().kept();
        if kept.is_some_and(|kept| kept >= at) {
            drop(held);
            return run(&self.held, scope, id, request);
        }
        held.waiting.push((id, request));
        if held.asked.is_none_or(|asked| asked < at) {
            held.asked = Some(at);
            self.link.send(&LoadAsk { at });
        }
    }
}

/// The host sent its load: it is kept, and the requests it is new enough for run.
fn loaded(held: &Rc<RefCell<Held>>, scope: &Scope<Reshard>, sent: LoadSent) {
    let LoadSent { at, load } = sent;
    let ready = {
        let mut held = held.borrow_mut();
        held.balancer.borrow_mut().keep(at, load.load());
        if held.asked.is_some_and(|asked| asked <= at) {
            held.asked = None;
        }
        let (ready, waiting) = std::mem::take(&mut held.waiting)
            .into_iter()
            .partition(|(_, request)| request.load() <= at);
        held.waiting = waiting;
        ready
    };
    for (id, request) in ready {
        run(held, scope, id, request);
    }
}

/// Answers `request` of the page's handler `id` from the load held.
fn run(held: &Rc<RefCell<Held>>, scope: &Scope<Reshard>, id: HandlerId, request: ReshardRequest) {
    let mut held = held.borrow_mut();
    let Held {
        balancer, planner, ..
    } = &mut *held;
    match request {
        ReshardRequest::Plan(request) => {
            let run = request.run;
            let planned = Box::new(planner.plan(&balancer.borrow(), &request));
            scope.respond(id, ReshardReply::Planned { run, planned });
        }
        ReshardRequest::Calls(request) => {
            let file = planner.calls(&balancer.borrow(), &request);
            scope.respond(id, ReshardReply::Calls(file));
        }
        ReshardRequest::Balance(request) => balance(balancer, scope, id, request),
        ReshardRequest::Drain(request) => {
            let reply = balancer.borrow_mut().drain(&request);
            scope.respond(id, reply);
        }
    }
}

/// Answers the balance at once, then the comparison in a later task (a newer balance asked
/// meanwhile makes it moot).
fn balance(
    balancer: &Rc<RefCell<Balancer>>,
    scope: &Scope<Reshard>,
    id: HandlerId,
    request: BalanceRequest,
) {
    let reply = balancer.borrow_mut().balance(&request);
    let balanced = matches!(reply, ReshardReply::Balanced { .. });
    scope.respond(id, reply);
    if balanced {
        let (scope, balancer) = (scope.clone(), Rc::clone(balancer));
        wasm_bindgen_futures::spawn_local(async move {
            gloo::timers::future::TimeoutFuture::new(0).await;
            let compared = balancer.borrow().compare(&request);
            if let Some(reply) = compared {
                scope.respond(id, reply);
            }
        });
    }
}
