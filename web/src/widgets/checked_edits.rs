//! The editors' way to report an edit: check the edited configuration with the core, emit
//! it when it is valid, show the core's message when not.

use ravenshard::config::ShardingConfiguration;
use ravenshard::Topology;
use std::rc::Rc;
use yew::prelude::*;

/// Checks an edited configuration against the topology it edits: its JSON, or the core's
/// message.
pub(crate) type Check = fn(&Topology, ShardingConfiguration) -> Result<String, String>;

/// Checks an edited configuration and emits it, or shows why not (`None`: the edit had no
/// meaning and nothing is emitted); `true` when emitted.
pub(crate) type Submit = Rc<dyn Fn(Option<ShardingConfiguration>) -> bool>;

/// What [`use_checked_edits`] gives an editor.
pub(crate) struct CheckedEdits {
    /// The message of the last edit the core refused, until the next edit or topology.
    pub error: UseStateHandle<Option<String>>,
    /// Bumped on every edit, so that inputs keyed by it are rebuilt from the topology.
    pub revision: u32,
    /// Reports an edit.
    pub submit: Submit,
}

/// An editor's edits of `topology`: each is checked with `check` and emitted through
/// `on_change` when valid; the error is cleared when the topology changes.
#[hook]
pub(crate) fn use_checked_edits(
    topology: &Rc<Topology>,
    on_change: &Callback<String>,
    check: Check,
) -> CheckedEdits {
    let error = use_state(|| None::<String>);
    let revision = use_state(|| 0u32);
    {
        let error = error.clone();
        use_effect_with(topology.clone(), move |_| error.set(None));
    }
    let submit: Submit = {
        let (topology, on_change) = (topology.clone(), on_change.clone());
        let (error, revision) = (error.clone(), revision.clone());
        Rc::new(move |config: Option<ShardingConfiguration>| {
            revision.set(revision.wrapping_add(1));
            let Some(config) = config else {
                return false;
            };
            emit_checked(check(&topology, config), &error, &on_change)
        })
    };
    CheckedEdits {
        error,
        revision: *revision,
        submit,
    }
}

/// Reports a checked edit as the editors do: a valid configuration (`Ok`, its JSON) is
/// emitted through `on_change` and clears `error`; an invalid one (`Err`, the core's
/// message) is shown in `error` and not emitted. `true` when emitted.
fn emit_checked(
    checked: Result<String, String>,
    error: &UseStateHandle<Option<String>>,
    on_change: &Callback<String>,
) -> bool {
    match checked {
        Ok(json) => {
            error.set(None);
            on_change.emit(json);
            true
        }
        Err(message) => {
            error.set(Some(message));
            false
        }
    }
}
