//! Where each sub-state's actions go ([`Dispatch`]): the callbacks a view is given.

use crate::state::{
    ConfigAction, DesignAction, Level, Loaded, Notice, NoticeAction, ViewAction, WorkspaceAction,
};
use crate::views::advisor::state::AdvisorAction;
use crate::views::readiness::state::ReadinessAction;
use crate::views::reshard::state::ReshardAction;
use crate::views::state::Action;
use std::rc::Rc;
use yew::Callback;

/// Where each sub-state's actions go: made once, so that a view's properties stay equal
/// from one render to the next.
#[derive(Clone, PartialEq)]
pub struct Dispatch {
    /// Actions that span sub-states.
    pub state: Callback<Action>,
    /// The configuration's.
    pub config: Callback<ConfigAction>,
    /// The workspace's.
    pub workspace: Callback<WorkspaceAction>,
    /// The views'.
    pub view: Callback<ViewAction>,
    /// The design's.
    pub design: Callback<DesignAction>,
    /// The Resharding view's.
    pub reshard: Callback<ReshardAction>,
    /// The notices'.
    pub notice: Callback<NoticeAction>,
    /// An error notice.
    pub error: Callback<String>,
    /// [`Action::UseReshardTarget`].
    pub use_reshard_target: Callback<()>,
    /// The Advisor view's (and its worker's replies).
    pub advisor: Callback<AdvisorAction>,
    /// The Readiness view's (and its worker's replies).
    pub readiness: Callback<ReadinessAction>,
    /// [`Action::ApplyConfiguration`]: `(label, JSON)`.
    pub apply_configuration: Callback<(String, String)>,
    /// [`Action::Loaded`]: a workspace a chunked job made.
    pub loaded: Callback<Rc<Loaded>>,
}

impl Dispatch {
    /// Where the actions go: `state`, which reduces the whole state.
    pub fn new(state: Callback<Action>) -> Dispatch {
        Dispatch {
            loaded: state.reform(Action::Loaded),
            config: state.reform(Action::Config),
            workspace: state.reform(Action::Workspace),
            view: state.reform(Action::View),
            design: state.reform(Action::Design),
            reshard: state.reform(Action::Reshard),
            notice: state.reform(Action::Notice),
            error: state.reform(|text| {
                Action::Notice(NoticeAction::Notify(Notice::new(Level::Error, text)))
            }),
            use_reshard_target: state.reform(|()| Action::UseReshardTarget),
            advisor: state.reform(Action::Advisor),
            readiness: state.reform(Action::Readiness),
            apply_configuration: state
                .reform(|(label, json)| Action::ApplyConfiguration { label, json }),
            state,
        }
    }
}
