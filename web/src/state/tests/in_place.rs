//! Edits at scale: yew keeps the state it reduces (and each view keeps the properties it was
//! rendered with), so the studio's state changes its documents and their placement in place
//! ([`Live`]) instead of copying them per edit. These tests keep the previous state alive as
//! yew does and check that nothing is copied and that every view still equals a placement
//! made from scratch.

use super::{assert_placed_as_fresh, generated};
use crate::state::*;
use std::rc::Rc;
use yew::Reducible;

/// The page's text with `line` changed (one character typed at its end).
fn typed(state: &State, line: usize) -> String {
    let text = state.workspace().page().text().to_string();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[line].push('x');
    lines.join("\n")
}

/// Reduces `action` while `current` is kept (as yew keeps it); asserts that the placement
/// (the one store of the documents) was not copied.
fn in_place(current: &Rc<State>, action: Action) -> Rc<State> {
    let placement = Rc::as_ptr(&current.placement());
    let next = Rc::clone(current).reduce(action);
    assert_eq!(
        Rc::as_ptr(&next.placement()),
        placement,
        "the placement was copied"
    );
    next
}

#[test]
fn edits_and_shard_counts_change_the_kept_state_in_place_as_if_placed_again() {
    for tab in [Tab::Map, Tab::Shards, Tab::Documents, Tab::Reshard] {
        let mut current = Rc::new(generated());
        current = Rc::clone(&current).reduce(Action::View(ViewAction::SelectTab(tab)));
        // What a view renders with, kept across the edits.
        let shown = current.live_placement().clone();
        for step in 0..6 {
            let action = match step {
                2 => Action::Config(ConfigAction::SetShardCount("5".into())),
                4 => Action::Config(ConfigAction::SetShardCount("3".into())),
                _ => Action::Workspace(WorkspaceAction::SetText(typed(&current, 10 * step))),
            };
            let next = in_place(&current, action);
            assert_ne!(
                next.live_placement(),
                &shown,
                "{tab:?} {step}: views render again"
            );
            assert_placed_as_fresh(&next);
            current = next;
        }
    }
}

#[test]
fn an_edit_while_the_documents_are_read_copies_them_and_leaves_the_reader_unchanged() {
    let state = Rc::new(generated());
    // A save in progress keeps the placement whose documents it writes out.
    let saving = state.placement();
    let first = saving.document(0);
    let next = Rc::clone(&state).reduce(Action::Workspace(WorkspaceAction::SetText(typed(
        &state, 0,
    ))));
    assert_eq!(
        saving.document(0),
        first,
        "the reader's documents are unchanged"
    );
    let saved: Vec<_> = saving.documents(0..usize::MAX).collect();
    let now = super::all(next.workspace());
    assert_ne!(now[0], saved[0]);
    assert_eq!(now[1..], saved[1..]);
    assert_placed_as_fresh(&next);
}

#[test]
fn adding_a_shard_and_balancing_then_editing_keeps_the_placement_in_place() {
    let mut current = Rc::new(generated());
    for action in [ReshardAction::AddShard, ReshardAction::Balance] {
        current = Rc::clone(&current).reduce(Action::Reshard(action));
    }
    let view = current
        .reshard()
        .view()
        .expect("the view is computed on its tab");
    assert_eq!(view.plan.as_ref().unwrap().per_shard.len(), 4);
    let edit = Action::Workspace(WorkspaceAction::SetText(typed(&current, 1)));
    let next = in_place(&current, edit);
    assert_placed_as_fresh(&next);
}

#[test]
fn the_first_edits_after_a_restore_grow_no_table_of_the_placement() {
    // A restore reserves the saved documents' exact bytes (`restore::in_worker`); the
    // first edit after a reload of 10,000,000 documents then copied the whole ID arena in
    // the page (one task of 191 ms): the reserve keeps room for edits.
    let documents = super::all(generated().workspace());
    let mut restored = State::with_documents(Vec::new());
    let placer = restored.placer();
    let mut builder = placer.builder();
    let id_bytes = documents.iter().map(|d| d.id.len()).sum();
    let bodies: Vec<usize> = documents
        .iter()
        .flat_map(|d| &d.body)
        .map(String::len)
        .collect();
    builder.reserve(documents.len(), id_bytes);
    builder.reserve_bodies(bodies.len(), bodies.iter().sum());
    for chunk in documents.chunks(700) {
        builder.push(chunk).unwrap();
    }
    let loaded = Loaded {
        placement: builder.finish(),
        placer,
        summary: None,
        kept: None,
        job: None,
    };
    restored.apply(Action::Loaded(Rc::new(loaded)));
    let restored = super::paged(restored);
    let mut current = Rc::new(restored);
    // A grown ID arena doubles (`id_bytes` more); a new group or duplicate entry is small.
    let most = current.placement().heap_bytes() + id_bytes / 2;
    for line in [0, 7, 30] {
        let edit = Action::Workspace(WorkspaceAction::SetText(typed(&current, line)));
        current = in_place(&current, edit);
        assert!(current.placement().heap_bytes() < most, "line {line}");
    }
    assert_placed_as_fresh(&current);
}
