//! [`use_answer`]: a view's question to the workspace's host, asked again when the
//! workspace changes, its last answer kept until the next one comes (so that a view does
//! not blink at each edit).

use crate::worker::host::{self, Answered};
use ravenshard_model::host::Question;
use yew::prelude::*;

/// The answer to `question` (none: nothing to ask), asked again whenever `version` (the
/// host's version the page knows) or the question changes. Until the first answer comes it
/// is `None`; after, the last answer stays, with the question it answers, until the next.
#[hook]
pub fn use_answer(question: Option<Question>, version: u64) -> Option<(Question, Answered)> {
    let answered = use_state(|| None::<(Question, Answered)>);
    {
        let answered = answered.clone();
        use_effect_with((question, version), move |(question, _)| {
            let id = question.clone().map(|question| {
                let asked = question.clone();
                let on_answer = Callback::from(move |a: Answered| {
                    answered.set(Some((asked.clone(), a)));
                });
                host::ask(question, on_answer)
            });
            move || {
                if let Some(id) = id {
                    host::forget(id);
                }
            }
        });
    }
    (*answered).clone()
}
