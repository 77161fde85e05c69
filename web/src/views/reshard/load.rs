//! When the Resharding view plans from a new load per bucket (the documents rested after a
//! change: [`ReshardAction::Load`]; the view's worker asks the host for the load), and what
//! the view asks the workspace's host: the check of a target's prefix changes against the
//! IDs ([`ReshardAction::PrefixesChecked`]).

use crate::views::reshard::state::{ReshardAction, ReshardState};
use crate::widgets::answer::{use_answer, Asked};
use gloo::timers::callback::Timeout;
use ravenshard_model::host::question::CheckPrefixes;
use ravenshard_model::host::Question;
use std::rc::Rc;
use yew::prelude::*;

/// How long the documents rest after a change before the view plans from their load again
/// (edits in a row plan once: the load of 1,000,000 documents is about 12 MB, which the
/// host makes and sends to the view's worker).
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

/// Tells the state when the documents rested while it wants a newer load, and asks the
/// host for the check of a target's prefixes while one waits; its answer goes to `on`.
#[hook]
pub fn use_reshard_answers(r: &ReshardState, on: &Callback<ReshardAction>) {
    let changes = r.inputs().changes;
    let rested = use_rested(changes);
    {
        let on = on.clone();
        let wanted = r.load_wanted() && rested;
        use_effect_with((wanted, changes), move |&(wanted, changes)| {
            if wanted {
                on.emit(ReshardAction::Load { changes });
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
