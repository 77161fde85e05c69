//! [`use_answer`]: a view's question to the workspace's host, asked again when the
//! workspace changes, its last answer kept until the next one comes (so that a view does
//! not blink at each edit), with the progress of a job that answers it in steps.

use crate::workers::host::{self, Answered};
use ravenshard_model::host::Question;
use yew::prelude::*;

/// What a view knows of its question.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked<Q: Question> {
    /// The last answer, and the question it answers (maybe an earlier one: kept until the
    /// next answer comes).
    pub last: Option<(Q, Answered<Q::Answer>)>,
    /// The `version` the last answer was asked at.
    pub asked_at: Option<u64>,
    /// When a job answers the question asked now a step at a time: its progress
    /// `(done, total)`.
    pub progress: Option<(u64, u64)>,
}

impl<Q: Question> Asked<Q> {
    /// The last answer, whichever question it answers.
    pub fn answer(&self) -> Option<&Q::Answer> {
        self.last.as_ref().map(|(_, a)| &*a.answer)
    }
}

/// The answer to `question` (none: nothing to ask), asked again whenever `version` (the
/// host's version the page knows) or the question changes. Until the first answer comes
/// there is none; after, the last answer stays, with the question it answers, until the
/// next.
#[hook]
pub fn use_answer<Q: Question>(question: Option<Q>, version: u64) -> Asked<Q> {
    let answered = use_state(|| None::<(Q, u64, Answered<Q::Answer>)>);
    let progress = use_state(|| None::<(Q, (u64, u64))>);
    {
        let (answered, progress) = (answered.clone(), progress.clone());
        use_effect_with((question.clone(), version), move |(question, version)| {
            let version = *version;
            let id = question.clone().map(|question| {
                let asked = question.clone();
                let on_answer = Callback::from(move |a: Answered<Q::Answer>| {
                    answered.set(Some((asked.clone(), version, a)));
                });
                let asked = question.clone();
                let on_progress = Callback::from(move |done: (u64, u64)| {
                    progress.set(Some((asked.clone(), done)));
                });
                host::ask_with_progress(question, on_answer, Some(on_progress))
            });
            move || {
                if let Some(id) = id {
                    host::forget(id);
                }
            }
        });
    }
    let answered_now = matches!((&*answered, &question), (Some((q, _, _)), Some(now)) if q == now);
    let progress = match (&*progress, &question) {
        (Some((q, done)), Some(now)) if q == now && !answered_now => Some(*done),
        _ => None,
    };
    let (last, asked_at) = match &*answered {
        Some((q, at, a)) => (Some((q.clone(), a.clone())), Some(*at)),
        None => (None, None),
    };
    Asked {
        last,
        asked_at,
        progress,
    }
}
