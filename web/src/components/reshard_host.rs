//! What the Resharding view asks the workspace's host: the load per bucket it plans from,
//! and the check of a target's prefix changes against the IDs. The answers go to the
//! view's state as actions ([`ReshardAction::Load`], [`ReshardAction::PrefixesChecked`]).

use super::answer::{use_answer, Asked};
use crate::state::{ReshardAction, ReshardState};
use ravenshard_model::host::{Answer, Question};
use std::rc::Rc;
use yew::prelude::*;

/// Which answer `asked` holds (its pointer), so that an effect runs once per answer without
/// comparing answers of megabytes.
fn answer_key(asked: &Asked) -> Option<usize> {
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
    let load = use_answer(r.load_wanted().then_some(Question::Load), changes);
    {
        let (on, asked) = (on.clone(), load.clone());
        use_effect_with(answer_key(&load), move |_| {
            if let (Some((_, a)), Some(changes)) = (&asked.last, asked.asked_at) {
                if let Answer::Load(load) = &*a.answer {
                    let load = Rc::new(load.clone());
                    on.emit(ReshardAction::Load { changes, load });
                }
            }
        });
    }
    let checking = r.checking().map(|t| Question::CheckPrefixes {
        configuration: t.to_json(),
    });
    let checked = use_answer(checking, changes);
    {
        let (on, asked) = (on.clone(), checked.clone());
        use_effect_with(answer_key(&checked), move |_| {
            let Some((Question::CheckPrefixes { configuration }, a)) = &asked.last else {
                return;
            };
            let problem = match &*a.answer {
                Answer::PrefixesChecked(problem) => problem.clone(),
                Answer::Refused(message) => Some(message.clone()),
                _ => return,
            };
            let configuration = configuration.clone();
            on.emit(ReshardAction::PrefixesChecked {
                configuration,
                problem,
            });
        });
    }
}
