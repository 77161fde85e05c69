//! Edits at scale: each edit and change of configuration reaches the workspace's host,
//! which changes its placement in place; after each, the placement equals one made from
//! scratch, and the first edits after a restore grow no table of it.

use super::{assert_placed_as_fresh, generated};
use crate::state::*;
use crate::views::reshard::state::*;
use crate::views::state::*;
use std::rc::Rc;
use yew::Reducible;

/// The page's text with `line` changed (one character typed at its end).
fn typed(state: &State, line: usize) -> String {
    let text = state.workspace().page().text().to_string();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[line].push('x');
    lines.join("\n")
}

#[test]
fn edits_and_shard_counts_are_placed_as_if_placed_again() {
    for tab in [Tab::Map, Tab::Shards, Tab::Documents, Tab::Reshard] {
        let mut current = Rc::new(generated());
        current = Rc::clone(&current).reduce(Action::View(ViewAction::SelectTab(tab)));
        for step in 0..6 {
            let action = match step {
                2 => Action::Config(ConfigAction::SetShardCount("5".into())),
                4 => Action::Config(ConfigAction::SetShardCount("3".into())),
                _ => Action::Workspace(WorkspaceAction::SetText(typed(&current, 10 * step))),
            };
            let before = current.host().version;
            current = Rc::clone(&current).reduce(action);
            assert!(
                current.host().version > before,
                "{tab:?} {step}: the host changed"
            );
            assert_placed_as_fresh(&current);
        }
    }
}

#[test]
fn adding_a_shard_and_balancing_then_editing_is_placed_as_fresh() {
    let mut current = Rc::new(generated());
    let load = current.placement().bucket_load();
    let balance = ReshardAction::Balance(Rc::new(load.clone()));
    for action in [ReshardAction::AddShard, balance] {
        current = Rc::clone(&current).reduce(Action::Reshard(action));
    }
    for action in crate::views::state::testing::worker_round_trip(current.reshard(), &load) {
        current = Rc::clone(&current).reduce(Action::Reshard(action));
    }
    let view = current
        .reshard()
        .view()
        .expect("the view is computed on its tab");
    assert_eq!(view.plan.as_ref().unwrap().per_shard.len(), 4);
    let edit = Action::Workspace(WorkspaceAction::SetText(typed(&current, 1)));
    let next = Rc::clone(&current).reduce(edit);
    assert_placed_as_fresh(&next);
}

#[test]
fn the_first_edits_after_a_restore_grow_no_table_of_the_placement() {
    // A restore reserves the saved documents' exact bytes (`restore::in_worker`); the
    // first edit after a reload of 10,000,000 documents then copied the whole ID arena
    // (one task of 191 ms): the reserve keeps room for edits.
    let documents = super::all(&generated());
    let mut restored = State::with_documents(Vec::new());
    let id_bytes: usize = documents.iter().map(|d| d.id.len()).sum();
    let loaded = restored.loaded(&documents, restored.placer());
    restored.apply(Action::Loaded(Rc::new(loaded)));
    let restored = super::paged(restored);
    let mut current = Rc::new(restored);
    // A grown ID arena doubles (`id_bytes` more); a new group or duplicate entry is small.
    let most = current.placement_heap_bytes() + id_bytes / 2;
    for line in [0, 7, 30] {
        let edit = Action::Workspace(WorkspaceAction::SetText(typed(&current, line)));
        current = Rc::clone(&current).reduce(edit);
        assert!(current.placement_heap_bytes() < most, "line {line}");
    }
    assert_placed_as_fresh(&current);
}
