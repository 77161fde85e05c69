//! The anchored groups' order of a large workspace, made in slices after the workspace is
//! made or changed ([`GroupsRanking`](ravenshard_model::workspace::GroupsRanking)): the
//! first view to read a group's rank (the Groups view, the documents table's group column,
//! the report) then finds it made, instead of sorting every group in one task (about
//! 125 ms for the 400,000 groups of ten million generated documents). A view that reads a
//! rank before the job is done sorts them itself, as without the job; an edit of the
//! documents ends the job (the next placement starts another if the order was dropped).

use super::bulk::{in_slices, JobHandle};
use crate::state::Live;
use ravenshard_model::workspace::Placement;
use std::cell::Cell;
use std::rc::Rc;

/// Groups from which the order is made in slices: fewer are sorted in a few milliseconds
/// when first read.
pub const RANKED_IN_SLICES_FROM: usize = 20_000;

/// Groups' worth of work a step does (about a millisecond in wasm): the job checks the
/// clock between steps.
const STEP: usize = 4_096;

/// Starts ranking the anchored groups of `placement` (at the handle's version) when they
/// are many and not ranked yet; the job ends when the handle is dropped.
pub fn start(placement: &Live<Placement>) -> Option<JobHandle> {
    let p = placement.get();
    if p.groups_ranked() || p.group_count() < RANKED_IN_SLICES_FROM {
        return None;
    }
    drop(p);
    let handle = JobHandle::default();
    wasm_bindgen_futures::spawn_local(run(placement.clone(), handle.stopped()));
    Some(handle)
}

async fn run(placement: Live<Placement>, stopped: Rc<Cell<bool>>) {
    let mut job = placement.get().rank_groups();
    in_slices(&placement, &stopped, |p| job.step(p, STEP).then_some(())).await;
}
