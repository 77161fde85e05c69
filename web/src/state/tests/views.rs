//! The views sub-state, on its own, over a placement of the chapter's examples.

use crate::state::*;
use ravenshard_model::sample::chapter_examples;
use ravenshard_model::workspace::{Document, Placement, SortKey};
use std::rc::Rc;
use yew::Reducible;

fn reduce(views: ViewsState, action: ViewAction) -> ViewsState {
    Rc::unwrap_or_clone(Rc::new(views).reduce(action))
}

fn placed(documents: &[Document]) -> Live<Placement> {
    let config = ConfigState::default();
    Live::new(Placement::new(
        documents,
        config.topology(),
        &Default::default(),
    ))
}

fn chapter() -> ViewsState {
    ViewsState::new(placed(&chapter_examples()))
}

#[test]
fn opens_on_the_documents_and_explains_the_anchored_order() {
    let views = chapter();
    assert_eq!(views.tab(), Tab::Documents);
    assert_eq!(views.rows().len(), 12);
    assert_eq!(views.explain_id(), "orders/2-A$customers/1-A");
    let e = views.explanation().unwrap();
    assert_eq!(e.as_ref().as_ref().unwrap().hashed, "customers/1-a");
}

#[test]
fn documents_view_filters_and_sorts() {
    let views = reduce(chapter(), ViewAction::SetFilterText("users".into()));
    assert_eq!(views.rows().len(), 6);
    let views = reduce(views, ViewAction::SetFilterText(String::new()));
    let views = reduce(views, ViewAction::SetFilterShard(Some(2)));
    let on_two = views.placement().shards()[2].documents as usize;
    assert_eq!(views.rows().len(), on_two);
    let views = reduce(views, ViewAction::SetFilterShard(Some(99)));
    assert_eq!(views.query().shard, None);
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    assert!(!views.query().descending);
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    assert!(views.query().descending);
    let first = views.rows().indices()[0] as usize;
    assert_eq!(views.placement().id(first), Some("Users/72$Users/4"));
    // The IDs shown, for the transaction check.
    let views = reduce(views, ViewAction::SetFilterText("users/".into()));
    assert_eq!(views.shown_ids(2), "Users/72$Users/4\nUsers/71$Users/4\n");
}

#[test]
fn groups_select_and_show_documents() {
    let views = chapter();
    let groups = views.placement().groups().to_vec();
    assert_eq!(groups[0].anchor, "users/4");
    assert_eq!(groups[0].documents, 4);
    let views = reduce(views, ViewAction::SelectGroup(Some(0)));
    assert_eq!(views.selected_group(), Some(0));
    let views = reduce(views, ViewAction::SelectGroup(Some(999)));
    assert_eq!(views.selected_group(), None);
    let views = reduce(views, ViewAction::SelectTab(Tab::Groups));
    let views = reduce(views, ViewAction::ShowGroupDocuments(0));
    assert_eq!(views.tab(), Tab::Documents);
    assert_eq!(views.rows().len(), 4);
    // A new placement resets the group filter and selection.
    let views = reduce(
        views,
        ViewAction::Placed(placed(&[Document::new("orders/1-A")])),
    );
    assert_eq!((views.query().group, views.selected_group()), (None, None));
    assert_eq!(views.rows().len(), 1);
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
    let views = reduce(chapter(), ViewAction::ExplainDocument(7));
    assert_eq!(views.tab(), Tab::Explain);
    assert_eq!(views.explain_id(), "Users/70$Users/4");
    let e = views.explanation().unwrap();
    let e = e.as_ref().as_ref().unwrap();
    assert_eq!(e.hashed, "users/4");
    assert_eq!(
        e.nodes,
        views.placement().topology().members(e.shard.unwrap())
    );
    let views = reduce(views, ViewAction::SetExplainId(String::new()));
    assert!(views.explanation().is_none());
    let views = reduce(views, ViewAction::SetExplainId("x".repeat(600)));
    assert!(views.explanation().unwrap().is_err());
    // No such document: nothing changes.
    let views = reduce(views, ViewAction::ExplainDocument(99));
    assert_eq!(views.explain_id().len(), 600);
}

#[test]
fn members_changed_keeps_the_rows_and_explains_with_the_new_nodes() {
    let views = reduce(chapter(), ViewAction::SetFilterText("users".into()));
    let rows = views.rows();
    let mut placement = (*views.placement()).clone();
    placement.set_members(2, vec!["Z".into()]);
    let views = reduce(views, ViewAction::MembersChanged(Live::new(placement)));
    assert!(Rc::ptr_eq(&rows, &views.rows()));
    let e = views.explanation().unwrap();
    assert_eq!(e.as_ref().as_ref().unwrap().nodes, ["Z"]);
}

/// The chapter's examples, whose rows needing a pass over the documents are made by a job
/// (as a large placement's are).
fn sliced() -> ViewsState {
    chapter().with_sliced_from(0)
}

/// What the documents view's job does: the model's rows job run to its end, handed over.
fn made_by_a_job(views: &ViewsState) -> ViewAction {
    let (query, version) = views.rows_wanted().expect("rows wanted");
    let p = views.placement();
    let mut job = p.rows_job(&query);
    let rows = loop {
        if let Some(rows) = job.step(&p, 3).expect("the same placement") {
            break rows;
        }
    };
    ViewAction::RowsMade {
        version,
        query,
        rows: Rc::new(rows),
    }
}

#[test]
fn a_large_placements_sort_and_filter_are_made_by_a_job_and_shown_when_made() {
    let views = sliced();
    // Input order needs no pass: at hand.
    assert_eq!(views.rows_wanted(), None);
    let shown = views.rows().indices();
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    let (query, _) = views.rows_wanted().expect("a sort by ID is wanted");
    assert_eq!(query.sort, SortKey::Id);
    // Meanwhile the rows shown before stay.
    assert_eq!(views.rows().indices(), shown);
    let views = reduce(
        views,
        ViewAction::RowsProgress {
            version: 0,
            query: query.clone(),
            done: 3,
            total: 36,
        },
    );
    assert_eq!(views.rows_progress(), Some((3, 36)));
    let made = made_by_a_job(&views);
    let views = reduce(views, made);
    assert_eq!(views.rows_wanted(), None);
    assert_eq!(views.rows_progress(), None);
    assert_eq!(*views.rows(), views.placement().rows(&query));
    // The order is kept by the placement: the other direction is at hand.
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    assert!(views.query().descending);
    assert_eq!(views.rows_wanted(), None);
    // A filter is a pass: wanted again.
    let views = reduce(views, ViewAction::SetFilterText("users".into()));
    assert!(views.rows_wanted().is_some());
    let made = made_by_a_job(&views);
    let views = reduce(views, made);
    assert_eq!(views.rows().len(), 6);
}

#[test]
fn a_late_jobs_rows_are_dropped() {
    let views = reduce(sliced(), ViewAction::SortBy(SortKey::Id));
    let stale = made_by_a_job(&views);
    // The user sorts by size before the sort by ID is made.
    let views = reduce(views, ViewAction::SortBy(SortKey::Size));
    let views = reduce(views, stale);
    assert_eq!(
        views.rows_wanted().map(|(q, _)| q.sort),
        Some(SortKey::Size)
    );
    // The documents change before the job's rows come: rows of the old version are dropped
    // (a filter, which a placement never keeps, so that the rows are wanted again after).
    let views = reduce(views, ViewAction::SetFilterText("users".into()));
    let made = made_by_a_job(&views);
    let mut edited = views.placement_handle();
    edited.update(|p| p.set_members(0, vec!["B".into()]));
    let views = reduce(views, ViewAction::Placed(edited));
    let views = reduce(views, made);
    assert!(views.rows_wanted().is_some());
    let progress = ViewAction::RowsProgress {
        version: 0,
        query: views.query().clone(),
        done: 1,
        total: 2,
    };
    let views = reduce(views, progress);
    assert_eq!(views.rows_progress(), None);
}

#[test]
fn a_cancelled_job_goes_back_to_the_rows_shown_before() {
    let views = reduce(sliced(), ViewAction::SetFilterText("orders".into()));
    let made = made_by_a_job(&views);
    let views = reduce(views, made);
    let before = views.rows().indices();
    assert!(!before.is_empty());
    let views = reduce(views, ViewAction::SortBy(SortKey::Id));
    let views = reduce(views, ViewAction::CancelRows);
    assert_eq!(views.rows_wanted(), None);
    assert_eq!(views.query().text, "orders");
    assert_eq!(views.query().sort, SortKey::Index);
    assert_eq!(views.rows().indices(), before);
    // When the documents changed since, Cancel shows every document in input order.
    let views = reduce(views, ViewAction::SortBy(SortKey::Size));
    let mut edited = views.placement_handle();
    edited.update(|p| p.set_members(0, vec!["B".into()]));
    let views = reduce(views, ViewAction::Placed(edited));
    let views = reduce(views, ViewAction::CancelRows);
    assert_eq!(
        views.query(),
        &ravenshard_model::workspace::RowQuery::default()
    );
    assert_eq!(views.rows().len(), 12);
}

/// The ID editor's edit of documents `at..at + removed`, as the studio's state tells the
/// views of it.
fn edited(
    views: ViewsState,
    handle: &mut Live<Placement>,
    at: usize,
    removed: usize,
    insert: &[Document],
) -> ViewsState {
    handle
        .update(|p| p.splice(at..at + removed, insert))
        .unwrap();
    let edit = LastEdit {
        version: handle.version(),
        at,
        removed,
        inserted: insert.len(),
    };
    reduce(views, ViewAction::Edited(handle.clone(), edit))
}

#[test]
fn a_filtered_view_follows_an_edit_without_a_job() {
    let views = reduce(sliced(), ViewAction::SetFilterText("users".into()));
    let made = made_by_a_job(&views);
    let views = reduce(views, made);
    assert_eq!(views.rows().len(), 6);
    // Line 2 becomes a user, and a user is added at the start.
    let mut handle = views.placement_handle();
    let typed = [Document::new("Users/9")];
    let views = edited(views, &mut handle, 2, 1, &typed);
    assert_eq!(views.rows_wanted(), None, "followed, not made again");
    let query = views.query().clone();
    assert_eq!(*views.rows(), views.placement().rows(&query));
    let views = edited(views, &mut handle, 0, 0, &typed);
    assert_eq!(views.rows_wanted(), None);
    assert_eq!(*views.rows(), views.placement().rows(&query));
    assert_eq!(views.rows().len(), 8);
    // Two changes since the rows were made (an edit the views were not told of): made
    // again, by a job.
    handle.update(|p| p.splice(0..1, &[])).unwrap();
    let views = edited(views, &mut handle, 0, 1, &[]);
    assert!(views.rows_wanted().is_some());
}
