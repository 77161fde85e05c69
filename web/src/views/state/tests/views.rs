//! The views sub-state, on its own, over a placement of the chapter's examples.

use crate::state::*;
use ravenshard::Topology;
use ravenshard_model::sample::chapter_examples;
use ravenshard_model::workspace::{Document, Placement, RowView, SortKey, Summary};
use std::rc::Rc;
use yew::Reducible;

fn reduce(views: ViewsState, action: ViewAction) -> ViewsState {
    Rc::unwrap_or_clone(Rc::new(views).reduce(action))
}

fn placed(documents: &[Document]) -> Placement {
    let config = ConfigState::default();
    Placement::new(documents, config.topology(), &Default::default())
}

/// The placement of the chapter's examples.
fn examples() -> Placement {
    placed(&chapter_examples())
}

/// What the views are told of `p`.
fn told(p: &Placement) -> (Rc<Summary>, Rc<Topology>) {
    (Rc::new(p.summary()), Rc::new(p.topology().clone()))
}

fn chapter() -> ViewsState {
    let p = examples();
    let (summary, topology) = told(&p);
    ViewsState::new(summary, topology, p.id(2).unwrap().to_string())
}

/// The rows of the views' query over the chapter's examples (what the workspace's host
/// answers the documents view).
fn rows(views: &ViewsState) -> RowView {
    examples().rows(views.query())
}

#[test]
fn opens_on_the_documents_and_explains_the_anchored_order() {
    let views = chapter();
    assert_eq!(views.tab(), Tab::Documents);
    assert_eq!(rows(&views).len(), 12);
    assert_eq!(views.explain_id(), "orders/2-A$customers/1-A");
    let e = views.explanation().unwrap();
    assert_eq!(e.as_ref().as_ref().unwrap().hashed, "customers/1-a");
}

#[test]
fn documents_view_filters_and_sorts() {
    let views = reduce(chapter(), ViewAction::SetFilterText("users".into()));
    assert_eq!(rows(&views).len(), 6);
    let views = reduce(views, ViewAction::SetFilterText(String::new()));
    let views = reduce(views, ViewAction::SetFilterShard(Some(2)));
    let on_two = examples().shards()[2].documents as usize;
    assert_eq!(rows(&views).len(), on_two);
    let views = reduce(views, ViewAction::SetFilterShard(Some(99)));
    assert_eq!(views.query().shard, None);
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    assert!(!views.query().descending);
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    assert!(views.query().descending);
    let first = rows(&views).indices()[0] as usize;
    assert_eq!(examples().id(first), Some("Users/72$Users/4"));
}

#[test]
fn groups_select_and_show_documents() {
    let views = chapter();
    let groups = examples().groups().to_vec();
    assert_eq!(groups[0].anchor, "users/4");
    assert_eq!(groups[0].documents, 4);
    let views = reduce(views, ViewAction::SelectGroup(Some(0)));
    assert_eq!(views.selected_group(), Some(0));
    let views = reduce(views, ViewAction::SelectGroup(Some(999)));
    assert_eq!(views.selected_group(), None);
    let views = reduce(views, ViewAction::SelectTab(Tab::Groups));
    let views = reduce(views, ViewAction::ShowGroupDocuments(0));
    assert_eq!(views.tab(), Tab::Documents);
    assert_eq!(rows(&views).len(), 4);
    // A new placement resets the group filter and selection.
    let one = placed(&[Document::new("orders/1-A")]);
    let (summary, topology) = told(&one);
    let views = reduce(views, ViewAction::Placed(summary, topology));
    assert_eq!((views.query().group, views.selected_group()), (None, None));
    assert_eq!(one.rows(views.query()).len(), 1);
}

#[test]
fn buckets_are_selected_within_the_bucket_space() {
    let views = reduce(chapter(), ViewAction::SelectBucket(Some(982173)));
    assert_eq!(views.selected_bucket(), Some(982173));
    let views = reduce(views, ViewAction::SelectBucket(Some(1 << 20)));
    assert_eq!(views.selected_bucket(), None);
}

#[test]
fn explain_an_id() {
    let views = reduce(
        chapter(),
        ViewAction::ExplainDocument("Users/70$Users/4".into()),
    );
    assert_eq!(views.tab(), Tab::Explain);
    assert_eq!(views.explain_id(), "Users/70$Users/4");
    let e = views.explanation().unwrap();
    let e = e.as_ref().as_ref().unwrap();
    assert_eq!(e.hashed, "users/4");
    assert_eq!(e.nodes, views.topology().members(e.shard.unwrap()));
    let views = reduce(views, ViewAction::SetExplainId(String::new()));
    assert!(views.explanation().is_none());
    let views = reduce(views, ViewAction::SetExplainId("x".repeat(600)));
    assert!(views.explanation().unwrap().is_err());
}

#[test]
fn members_changed_keeps_the_query_and_explains_with_the_new_nodes() {
    let views = reduce(chapter(), ViewAction::SetFilterText("users".into()));
    let query = views.query().clone();
    let mut placement = examples();
    placement.set_members(2, vec!["Z".into()]);
    let (summary, topology) = told(&placement);
    let views = reduce(views, ViewAction::MembersChanged(summary, topology));
    assert_eq!(views.query(), &query);
    let e = views.explanation().unwrap();
    assert_eq!(e.as_ref().as_ref().unwrap().nodes, ["Z"]);
}

/// Cancel goes back to the query whose rows the documents view shows (it names it: the
/// rows themselves are the workspace's host's).
#[test]
fn a_cancel_goes_back_to_the_query_shown() {
    let views = reduce(chapter(), ViewAction::SetFilterText("orders".into()));
    let shown = views.query().clone();
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    assert_eq!(views.query().sort, SortKey::Id);
    let views = reduce(views, ViewAction::CancelRows(shown.clone()));
    assert_eq!(views.query(), &shown);
}
