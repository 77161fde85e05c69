//! The page's side of the Resharding view's worker: a request goes to it as to any role's
//! ([`client::send`]), and its worker and the workspace's host's get a channel of their own
//! ([`peer::pair`]), over which the worker asks the host for the load per bucket.

use crate::workers::reshard::protocol::{ReshardReply, ReshardRequest};
use crate::workers::reshard::worker::Reshard;
use crate::workers::transport::Channel;
use crate::workers::{client, host, peer};
use yew::Callback;

/// Sends `request` to the Resharding view's worker (started if none runs, as the host's
/// is), its replies to `on_reply`, and pairs it with the host's worker unless the two
/// running are paired.
pub fn send(request: ReshardRequest, on_reply: Callback<ReshardReply>) {
    client::send::<Reshard>(request, on_reply);
    if !host::is_running() {
        host::start();
    }
    peer::pair(Channel::Workspace, Channel::Reshard);
}
