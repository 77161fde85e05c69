//! The Resharding view's side of its worker ([`Reshard`]): it holds the load last sent
//! and the last plan.

use crate::workers::reshard::balance::Balancer;
use crate::workers::reshard::plan::Planner;
use crate::workers::reshard::protocol::{BalanceRequest, ReshardReply, ReshardRequest};
use crate::workers::transport::{Channel, Role, Scope};
use gloo::worker::HandlerId;
use std::cell::RefCell;
use std::rc::Rc;

/// The Resharding view's worker: the load and the balance's state ([`Balancer`]), and the
/// last plan, for the walk-through's steps and the calls ([`Planner`]).
#[derive(Default)]
pub struct Reshard {
    balancer: Rc<RefCell<Balancer>>,
    planner: Planner,
}

impl Role for Reshard {
    type Request = ReshardRequest;
    type Reply = ReshardReply;
    const CHANNEL: Channel = Channel::Reshard;

    fn start(_scope: &Scope<Self>) -> Self {
        Self::default()
    }

    fn received(&mut self, scope: &Scope<Self>, request: ReshardRequest, id: HandlerId) {
        match request {
            ReshardRequest::Plan(request) => {
                let run = request.run;
                let planned = self.planner.plan(&mut self.balancer.borrow_mut(), &request);
                let planned = Box::new(planned);
                scope.respond(id, ReshardReply::Planned { run, planned });
            }
            ReshardRequest::Calls(request) => {
                let file = self
                    .planner
                    .calls(&mut self.balancer.borrow_mut(), &request);
                scope.respond(id, ReshardReply::Calls(file));
            }
            ReshardRequest::Balance(request) => self.balance(scope, id, request),
            ReshardRequest::Drain(request) => {
                let reply = self.balancer.borrow_mut().drain(&request);
                scope.respond(id, reply);
            }
        }
    }
}

impl Reshard {
    /// Answers the balance at once, then the comparison in a later task (a newer balance
    /// asked meanwhile makes it moot).
    fn balance(&self, scope: &Scope<Self>, id: HandlerId, request: BalanceRequest) {
        let reply = self.balancer.borrow_mut().balance(&request);
        let balanced = matches!(reply, ReshardReply::Balanced { .. });
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
}
