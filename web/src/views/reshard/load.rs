//! What the Resharding view asks the workspace's host: the load per bucket it plans from,
//! and the check of a target's prefix changes against the IDs. The answers go to the
//! view's state as actions ([`ReshardAction::Load`], [`ReshardAction::PrefixesChecked`]).

use crate::views::reshard::state::{ReshardAction, ReshardState};
use crate::widgets::answer::{use_answer, Asked};
use gloo::timers::callback::Timeout;
use ravenshard_model::host::question::{CheckPrefixes, Load};
use ravenshard_model::host::Question;
use std::rc::Rc;
use yew::prelude::*;

/// How long the documents rest after a change before the view asks the host for their load
/// again (edits in a row ask once: the load of 1,000,000 documents is about 12 MB, which the
/// page reads and passes on to the view's worker).
pub const LOAD_ASKED_AFTER_MS: u32 = 300;

/// Whether the workspace's change `changes` is the first this view saw, or has rested for
/// [`LOAD_ASKED_AFTER_MS`].
#[hook]
fn use_rested(changes: u64) -> bool {
    let rested = use_state(|| changes);
    {
        let rested = rested.clone();
        use_effect_with(changes, move |&now| {
            let timer = (*rested != now)
                .then(|| Timeout::new(LOAD_ASKED_AFTER_MS, move || rested.set(now)));
            move || drop(timer)
        });
    }
    *rested == changes
}

/// Which answer `asked` holds (its pointer), so that an effect runs once per answer without
/// comparing answers of megabytes.
fn answer_key<Q: Question>(asked: &Asked<Q>) -> Option<usize> {
    asked
        .last
        .as_ref()
        .map(|(_, a)| Rc::as_ptr(&a.answer) as usize)
}

/// Asks the host for the load while the view wants one, and for the check of a target's
/// prefixes while one waits; their answers go to `on`.
#[hook]
pub fn use_reshard_answers(r: &ReshardState, on: &Callback<ReshardAction>) {
    let changes = r.inputs().changes;
    let rested = use_rested(changes);
    let load = use_answer((r.load_wanted() && rested).then_some(Load), changes);
    {
        let (on, asked) = (on.clone(), load.clone());
        use_effect_with(answer_key(&load), move |_| {
            if let (Some((_, a)), Some(changes)) = (&asked.last, asked.asked_at) {
                let load = Rc::new((*a.answer).clone());
                on.emit(ReshardAction::Load { changes, load });
            }
        });
    }
    let checking = r.checking().map(|t| CheckPrefixes {
        configuration: t.to_json(),
    });
    let checked = use_answer(checking, changes);
    {
        let (on, asked) = (on.clone(), checked.clone());
        use_effect_with(answer_key(&checked), move |_| {
            let Some((CheckPrefixes { configuration }, a)) = &asked.last else {
                return;
            };
            let problem = match &*a.answer {
                Ok(problem) => problem.clone(),
                Err(unread) => Some(unread.to_string()),
            };
            let configuration = configuration.clone();
            on.emit(ReshardAction::PrefixesChecked {
                configuration,
                problem,
            });
        });
    }
}
