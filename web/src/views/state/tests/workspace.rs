//! The workspace sub-state, on its own: the editor's text and pages, the generator and
//! imports.

use crate::state::*;
use ravenshard_model::sample::chapter_examples;
use ravenshard_model::workspace::Document;
use std::rc::Rc;
use yew::Reducible;

/// Reduces `action`, then gives the editor the page it asked for, as the workspace's host
/// does (read from the placement, which holds what the host holds).
fn reduce(workspace: WorkspaceState, action: WorkspaceAction) -> WorkspaceState {
    paged(reduce_only(workspace, action))
}

fn reduce_only(workspace: WorkspaceState, action: WorkspaceAction) -> WorkspaceState {
    Rc::unwrap_or_clone(Rc::new(workspace).reduce(action))
}

/// The page the editor asked for, given.
fn paged(w: WorkspaceState) -> WorkspaceState {
    let Some(wanted) = w.page_wanted() else {
        return w;
    };
    reduce_only(w.clone(), loaded(&w, wanted))
}

/// The host's answer to the page `wanted`.
fn loaded(w: &WorkspaceState, wanted: PageWanted) -> WorkspaceAction {
    let end = wanted.start.saturating_add(PAGE_LINES);
    WorkspaceAction::PageLoaded {
        token: wanted.token,
        start: wanted.start,
        documents: Rc::new(w.placement().documents(wanted.start..end).collect()),
    }
}

/// A page asked for is shown when it comes, unless the editor was edited meanwhile (the
/// edit was made on the page shown; the page that comes after would lose it) or another
/// page was asked for since.
#[test]
fn a_page_that_comes_after_an_edit_or_another_page_is_dropped() {
    let w = WorkspaceState::with_documents(numbered(2_500));
    let w = reduce_only(w, WorkspaceAction::MovePage(PageMove::Next));
    let wanted = w.page_wanted().expect("the next page is asked for");
    assert_eq!((wanted.start, w.page().start()), (1_000, 0));
    // Another page asked for before the first came: the first is dropped.
    let first = loaded(&w, wanted);
    let w = reduce_only(w, WorkspaceAction::MovePage(PageMove::Line(2_001)));
    let w = reduce_only(w, first);
    assert_eq!(w.page().start(), 0);
    let w = paged(w);
    assert_eq!((w.page().start(), w.page().len()), (2_000, 500));
    // An edit of the page shown before the page asked for came: dropped.
    let w = reduce_only(w, WorkspaceAction::MovePage(PageMove::Previous));
    let late = loaded(&w, w.page_wanted().unwrap());
    let text = format!("orders/new-A\n{}", w.page().text());
    let w = reduce_only(w, WorkspaceAction::SetText(text));
    assert_eq!(w.page_wanted(), None);
    let w = reduce_only(w, late);
    assert_eq!((w.page().start(), w.page().len()), (2_000, 501));
    assert!(w.page().text().starts_with("orders/new-A\norders/2000-A"));
}

/// Every document of the workspace, read from its placement.
fn all(w: &WorkspaceState) -> Vec<Document> {
    w.placement().documents(0..usize::MAX).collect()
}

fn chapter() -> WorkspaceState {
    WorkspaceState::with_documents(chapter_examples())
}

fn numbered(n: usize) -> Vec<Document> {
    (0..n)
        .map(|i| Document::new(format!("orders/{i}-A")))
        .collect()
}

#[test]
fn typing_ids_with_sizes_and_collections() {
    let text = "customers/1-A\t120\tCustomers\n\n  \r\nUsers/4\r\nbad\tx\n";
    let w = reduce(chapter(), WorkspaceAction::SetText(text.into()));
    let docs = all(&w);
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0].size, Some(120));
    assert_eq!(docs[0].collection.as_deref(), Some("Customers"));
    assert_eq!(docs[1].id, "Users/4");
    assert_eq!(docs[2].size, None);
    assert_eq!(w.parse_notes().len(), 1);
    assert!(w.parse_notes()[0].starts_with("Line 5"));
    assert_eq!(
        w.page().text().as_str(),
        text,
        "the editor keeps the text as typed"
    );
}

#[test]
fn unchanged_documents_keep_their_list() {
    let w = chapter();
    let before = w.outbox().last();
    let text = format!("{}\n\n", w.page().text());
    let w = reduce(w, WorkspaceAction::SetText(text));
    assert!(before == w.outbox().last());
}

#[test]
fn generator_fields_and_samples() {
    let w = reduce(chapter(), WorkspaceAction::SetGeneratorCount("5000".into()));
    let w = reduce(w, WorkspaceAction::SetGeneratorShare("100".into()));
    let w = reduce(w, WorkspaceAction::Generate);
    assert_eq!(all(&w).len(), 5000);
    let w = reduce(w, WorkspaceAction::SetGeneratorShare("150".into()));
    let error = w.anchored_percent().error().unwrap();
    assert!(error.contains("'150' is not an anchored share"), "{error}");
    assert_eq!(*w.anchored_percent().value(), 100.0);
    let before = w.outbox().last();
    let w = reduce(w, WorkspaceAction::Generate);
    assert!(
        before == w.outbox().last(),
        "not generated with a bad field"
    );
    let w = reduce(w, WorkspaceAction::SetGeneratorShare("30".into()));
    let w = reduce(w, WorkspaceAction::SetGeneratorCount("10000001".into()));
    assert!(w
        .generated()
        .error()
        .unwrap()
        .contains("Enter 1 to 10000000"));
    let w = reduce(w, WorkspaceAction::SetGeneratorCount("10000000".into()));
    assert!(w.generated().error().is_none());
    let w = reduce(w, WorkspaceAction::Clear);
    assert!(all(&w).is_empty());
    assert_eq!(w.page().text().as_str(), "");
    let w = reduce(w, WorkspaceAction::LoadChapterSample);
    assert_eq!(all(&w).len(), 12);
}

#[test]
fn a_failed_or_cancelled_import_leaves_the_workspace() {
    // (An import's documents come from a job, `Action::Loaded`: see `state::loaded`.)
    let started = WorkspaceAction::ImportStarted {
        name: "a.csv".into(),
    };
    let w = reduce(chapter(), started);
    assert_eq!(w.import().unwrap().fraction, Some(0.0));
    let before = w.outbox().last();
    let w = reduce(
        w,
        WorkspaceAction::ImportStarted {
            name: "b.json".into(),
        },
    );
    let w = reduce(
        w,
        WorkspaceAction::ImportFailed {
            name: "b.json".into(),
            message: "bad".into(),
        },
    );
    assert_eq!(
        w.import_error(),
        Some("b.json could not be read, so the workspace is unchanged: bad")
    );
    assert!(before == w.outbox().last());
    let w = reduce(w, WorkspaceAction::ImportStarted { name: "c".into() });
    assert!(w.import_error().is_none());
    let w = reduce(w, WorkspaceAction::ImportCancelled);
    assert!(w.import().is_none());
    assert!(w.notice().unwrap().text.contains("Import of c cancelled"));
    assert!(before == w.outbox().last());
}

#[test]
fn the_editor_shows_one_page_of_a_large_workspace() {
    let w = WorkspaceState::with_documents(numbered(2_500));
    let page = w.page();
    assert_eq!((page.start(), page.len()), (0, PAGE_LINES));
    assert!(page.text().starts_with("orders/0-A\norders/1-A\n"));
    assert_eq!(page.text().lines().count(), PAGE_LINES);

    let go = |w, to| reduce(w, WorkspaceAction::MovePage(to));
    let w = go(w, PageMove::Next);
    assert_eq!((w.page().start(), w.page().len()), (1_000, 1_000));
    let w = go(w, PageMove::Next);
    assert_eq!((w.page().start(), w.page().len()), (2_000, 500));
    // Next on the last page stays there; Previous goes back a page.
    let w = go(w, PageMove::Next);
    assert_eq!(w.page().start(), 2_000);
    let w = go(w, PageMove::Previous);
    assert_eq!(w.page().start(), 1_000);
    // A line goes to the page that holds it; past the end, the last page.
    let w = go(w, PageMove::Line(1_000));
    assert_eq!(w.page().start(), 0);
    let w = go(w, PageMove::Line(2_001));
    assert_eq!(w.page().start(), 2_000);
    let w = go(w, PageMove::Line(usize::MAX));
    assert_eq!(w.page().start(), 2_000);
    let w = go(w, PageMove::Line(0));
    assert_eq!(w.page().start(), 0);
}

#[test]
fn an_edit_of_a_page_replaces_only_its_documents() {
    let w = WorkspaceState::with_documents(numbered(2_500));
    let w = reduce(w, WorkspaceAction::MovePage(PageMove::Next));
    let before = w.outbox().last();
    // Unchanged documents (a blank line added) keep the list.
    let same = format!("{}\n\n", w.page().text());
    let w = reduce(w, WorkspaceAction::SetText(same));
    assert!(before == w.outbox().last());
    // Replace the page's 1,000 documents by three; the others stay, in order.
    let text = "customers/1-A\nbad\tx\norders/new-A";
    let w = reduce(w, WorkspaceAction::SetText(text.into()));
    let docs = all(&w);
    assert_eq!(docs.len(), 1_503);
    assert_eq!(docs[999].id, "orders/999-A");
    assert_eq!(docs[1_000].id, "customers/1-A");
    assert_eq!(docs[1_001].id, "bad");
    assert_eq!(docs[1_002].id, "orders/new-A");
    assert_eq!(docs[1_003].id, "orders/2000-A");
    assert_eq!((w.page().start(), w.page().len()), (1_000, 3));
    // Notes count the lines of the whole workspace.
    assert_eq!(w.parse_notes().len(), 1);
    assert!(w.parse_notes()[0].starts_with("Line 1002:"));
    // Moving pages starts over from the workspace's documents.
    let w = reduce(w, WorkspaceAction::MovePage(PageMove::Line(1_001)));
    assert_eq!(w.page().len(), 503);
    assert!(w
        .page()
        .text()
        .starts_with("customers/1-A\nbad\norders/new-A\n"));
    assert!(w.parse_notes().is_empty());
}

#[test]
fn a_huge_paste_is_cut_back_to_a_page() {
    let w = WorkspaceState::with_documents(numbered(10));
    let paste = documents_text(&numbered(MAX_PAGE_LINES + 1));
    let w = reduce_only(w, WorkspaceAction::SetText(paste));
    let told = &w.notice().unwrap().text;
    assert!(told.contains("shows 1000 lines at a time"), "{told}");
    assert!(told.ends_with("the rest of the 4001 documents."), "{told}");
    let w = paged(w);
    assert_eq!(all(&w).len(), MAX_PAGE_LINES + 1);
    assert_eq!((w.page().start(), w.page().len()), (0, PAGE_LINES));
    assert_eq!(w.page().text().lines().count(), PAGE_LINES);
    // Replacing the whole workspace opens its first page.
    let w = reduce(w, WorkspaceAction::MovePage(PageMove::Next));
    let w = reduce(w, WorkspaceAction::Clear);
    assert_eq!((w.page().start(), w.page().len()), (0, 0));
    assert!(w.page().is_whole(0));
}

#[test]
fn the_limits_follow_wasm32_memory() {
    // Ten million generated documents fit; IDs of 800 bytes each do not (about 4.0
    // million do: 3.6 GiB over 145 bytes a document and its ID).
    assert!(check_fits("Generate", 10_000_000, 24).is_ok());
    let error = check_fits("big.txt", 10_000_000, 800).unwrap_err();
    assert!(error.contains("about 4090444 documents"), "{error}");
    assert!(
        error.contains("4.0 GiB") || error.contains("3.6 GiB"),
        "{error}"
    );
    // A 200 MB file of IDs is imported; a 2 GB one is refused before it is read.
    assert!(check_import_size(200_000_000, false).is_ok());
    let error = check_import_size(2_000_000_000, false).unwrap_err();
    assert!(error.contains("Files up to about"), "{error}");
    assert!(check_import_size(200_000_000, true)
        .unwrap_err()
        .contains("compressed"));
}

/// An edit queues, for the workspace's host, the lines it replaced and nothing else (the
/// host follows the rows it made, as the placement follows the edit).
#[test]
fn an_edit_queues_the_lines_it_replaced() {
    let w = chapter();
    w.outbox().take();
    // The second line replaced by two.
    let mut lines: Vec<String> = w.page().text().lines().map(String::from).collect();
    lines.splice(1..2, ["a/1".to_string(), "a/2".to_string()]);
    let w = reduce(w, WorkspaceAction::SetText(lines.join("\n")));
    let queued = w.outbox().take();
    assert_eq!(queued.len(), 1);
    let insert = vec![Document::new("a/1"), Document::new("a/2")];
    let splice = ravenshard_model::host::Change::Splice {
        at: 1,
        remove: 1,
        insert,
    };
    assert_eq!(queued[0].1, splice);
    // The same text again changes nothing: nothing is queued.
    let text = w.page().text().to_string();
    let w = reduce(w, WorkspaceAction::SetText(text));
    assert_eq!(w.outbox().queued(), 0);
}
