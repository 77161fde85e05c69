//! The save and the restore of the studio in the studio's workers, in headless Chromium: a
//! saved studio restores equal (documents, configuration, view), old formats still read, a
//! cancelled restore and a worker that panics while restoring leave a usable studio (with
//! a message) and the saved records untouched, damaged records are set aside; a save
//! stores all or nothing, and one whose placement is replaced stops without holding it; a
//! save after an edit writes only what it touched, and one an edit stopped goes on (or is
//! saved again if its worker stopped meanwhile); the host's saves write the workspace's
//! documents from its own copy (a job's workspace included); the
//! writer tab's save while another tab restores makes that restore read the newer studio
//! (on from the parts both name), a save whose parts went is saved again whole, never a
//! damaged saved studio, and a save's end removes every part no layout names. Every save
//! here is the studio's own: the host's, through a `Saver`.
//!
//! The worker here is this test module itself (see `common::use_this_module_as_the_worker`).
#![cfg(target_arch = "wasm32")]

use ravenshard_model::host::question::Documents;
use ravenshard_model::host::Change;
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::Document;
use ravenshard_studio::app::open;
use ravenshard_studio::app::restore::{self, Restored, CHUNKED_RESTORE_DOCUMENTS};
use ravenshard_studio::jobs::import::CancelToken;
use ravenshard_studio::persist::records::{self, to_bytes};
use ravenshard_studio::persist::{read_layout, read_saved, Saved, Stored};
use ravenshard_studio::state::{Level, Work};
use ravenshard_studio::views::state::State;
use ravenshard_studio::workers::host::{self, HostNews};
use ravenshard_studio::workers::save;
use ravenshard_studio::workers::{client, Channel, Read, Reader, Reading, ReadingReply};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

mod common;

use common::jobs::until;

wasm_bindgen_test_configure!(run_in_browser);

const SETTINGS: &str = r#"{"version": 1, "database": "Shop", "nodes": "A, B, C", "replication_factor": "2", "config": "{\"Shards\": {\"0\": {}, \"1\": {}, \"2\": {}, \"3\": {}}}", "custom": true, "documents": [], "tab": "nodes"}"#;

/// More documents than the page reads at once, with collections, sizes, bodies and a
/// document that makes its part JSON.
fn documents() -> Vec<Document> {
    many(CHUNKED_RESTORE_DOCUMENTS + 12_345)
}

/// Enough documents that the worker is still reading (it stays 3 batches ahead) when the
/// page has placed the first.
const MANY: usize = 200_000;

/// `count` generated documents, one of which makes its part JSON.
fn many(count: usize) -> Vec<Document> {
    let generator = Generator {
        documents: count,
        anchored_share: 0.4,
        seed: 7,
    };
    let mut documents = generator.generate().unwrap();
    documents[20_000].id = "tab\there".into();
    documents
}

/// Replaces IndexedDB's records by `records` (key, text).
async fn put(records: &[(String, String)]) {
    common::forget_saved().await.unwrap();
    add(records).await;
}

/// Adds `records` (key, text) to IndexedDB's.
async fn add(records: &[(String, String)]) {
    let db = records::open().await.unwrap();
    let tx = db
        .transaction(&[records::STORE], rexie::TransactionMode::ReadWrite)
        .unwrap();
    let store = tx.store(records::STORE).unwrap();
    for (key, text) in records {
        let key = JsValue::from(key.as_str());
        store.put(&to_bytes(text), Some(&key)).await.unwrap();
    }
    records::commit(tx).await.unwrap();
    db.close();
}

/// Saves `stored` as the studio does.
async fn put_stored(stored: &Stored) {
    let mut records = vec![(records::SETTINGS_KEY.to_string(), stored.settings.clone())];
    for (i, part) in stored.parts.iter().enumerate() {
        records.push((records::part_key(i), part.clone()));
    }
    put(&records).await;
}

/// Opens the studio as the page does (the workers load this test module).
async fn open(cancel: CancelToken) -> (State, bool, Progress) {
    common::use_this_module_as_the_worker();
    web_sys::window().unwrap().location().set_hash("").unwrap();
    let seen: Progress = Rc::default();
    let on_progress = {
        let seen = Rc::clone(&seen);
        yew::Callback::from(move |w| seen.borrow_mut().push(w))
    };
    let (state, saved) = open::open_state(on_progress, cancel).await;
    (state, saved, seen)
}

/// The documents of `state`, as its host holds them once it made the changes queued (the
/// restore staged them with it).
async fn restored_documents(state: &State) -> Vec<Document> {
    for (seq, change) in state.workspace().outbox().take() {
        host::change(seq, change);
    }
    until("the host's changes", host::is_idle).await;
    let mut documents = Vec::new();
    loop {
        let start = documents.len() as u64;
        let end = start + ravenshard_model::host::MAX_LISTED;
        let asked = Documents { start, end };
        let answered = host::answer(asked).await.expect("the host answers");
        let more = Rc::unwrap_or_clone(answered.answer);
        if more.is_empty() {
            return documents;
        }
        documents.extend(more);
    }
}

fn notices(state: &State) -> String {
    let list = state.notices().list();
    list.iter()
        .map(|n| n.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The settings without the tab and the kept fields (what a studio restores them as).
fn settings(state: &State) -> Saved {
    Saved {
        tab: None,
        kept: None,
        readiness: None,
        ..state.settings()
    }
}

#[wasm_bindgen_test]
async fn a_saved_studio_restores_equal_through_the_worker() {
    let documents = documents();
    let expected = read_saved(SETTINGS).unwrap();
    let stored = Stored::new(&expected, &documents);
    put_stored(&stored).await;
    let (state, saved, seen) = open(CancelToken::default()).await;
    assert!(saved, "the restored studio is the one IndexedDB holds");
    assert_eq!(notices(&state), "");
    assert!(
        client::instance(Channel::Import).is_none(),
        "the worker is gone"
    );
    assert_eq!(restored_documents(&state).await, documents);
    assert_eq!(state.settings().tab.as_deref(), Some("nodes"));
    // The configuration as the studio writes it.
    let config = ravenshard::Topology::from_json(&expected.config)
        .unwrap()
        .to_json();
    assert_eq!(
        settings(&state),
        Saved {
            tab: None,
            config,
            ..expected
        }
    );
    let seen = seen.borrow();
    assert!(
        seen.iter()
            .all(|w| w.label == "Restoring the saved studio" && w.done <= documents.len()),
        "progress with the count done"
    );
}

#[wasm_bindgen_test]
async fn old_saves_in_one_record_are_read_by_the_worker() {
    let documents = documents();
    let mut old = read_saved(SETTINGS).unwrap();
    old.tab = None;
    // Before parts: the settings without a layout, the documents in one record, in the
    // line format or as JSON.
    let settings = serde_json::to_string(&old).unwrap();
    for text in [
        ravenshard_studio::persist::write_documents(&documents[..25_000]),
        ravenshard_studio::persist::documents_json(&documents),
    ] {
        let count = ravenshard_studio::persist::read_documents(&text)
            .unwrap()
            .len();
        put(&[
            (records::SETTINGS_KEY.into(), settings.clone()),
            (records::DOCUMENTS_KEY.into(), text),
        ])
        .await;
        let (state, saved, _) = open(CancelToken::default()).await;
        assert!(saved);
        assert_eq!(notices(&state), "");
        assert_eq!(restored_documents(&state).await, documents[..count]);
        assert_eq!(state.settings().database, "Shop");
    }
}

/// Waits until the restore's worker runs and reported progress.
async fn until_restoring(seen: &RefCell<Vec<Work>>) {
    until("the worker", || client::instance(Channel::Import).is_some()).await;
    until("the first progress", || !seen.borrow().is_empty()).await;
}

/// Where [`open_later`] leaves the studio it opened.
type Opened = Rc<RefCell<Option<State>>>;
/// The progress reported while the studio opens.
type Progress = Rc<RefCell<Vec<Work>>>;

/// Opens the studio in a task of its own: its state, once open, goes to the returned slot,
/// its progress to the other.
fn open_later(cancel: &CancelToken) -> (Opened, Progress) {
    common::use_this_module_as_the_worker();
    // The test runner's own fragment (`#wbg_style=…`) would be read as a share link.
    web_sys::window().unwrap().location().set_hash("").unwrap();
    let (opened, seen): (Opened, Progress) = Default::default();
    let (slot, progress, cancel) = (Rc::clone(&opened), Rc::clone(&seen), cancel.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let on_progress = yew::Callback::from(move |w| progress.borrow_mut().push(w));
        let (state, _) = open::open_state(on_progress, cancel).await;
        *slot.borrow_mut() = Some(state);
    });
    (opened, seen)
}

/// The saved records are as `stored` put them.
async fn untouched(stored: &Stored) {
    let kept = self::stored().await;
    assert_eq!(kept.settings, stored.settings);
    assert!(kept.parts == stored.parts, "the saved parts are untouched");
}

#[wasm_bindgen_test]
async fn a_cancelled_restore_leaves_a_usable_studio_and_the_records() {
    let stored = Stored::new(&read_saved(SETTINGS).unwrap(), &many(MANY));
    put_stored(&stored).await;
    let cancel = CancelToken::default();
    let (opened, seen) = open_later(&cancel);
    until_restoring(&seen).await;
    cancel.cancel();
    until("the studio", || opened.borrow().is_some()).await;
    let state = opened.borrow_mut().take().unwrap();
    assert!(restored_documents(&state).await.is_empty());
    assert_eq!(state.settings().database, "Shop", "the settings are kept");
    assert!(notices(&state).contains("Restoring was cancelled"));
    until("the worker's end", || {
        client::instance(Channel::Import).is_none()
    })
    .await;
    untouched(&stored).await;
}

#[wasm_bindgen_test]
async fn a_worker_that_panics_while_restoring_leaves_a_usable_studio_with_a_message() {
    let stored = Stored::new(&read_saved(SETTINGS).unwrap(), &many(MANY));
    put_stored(&stored).await;
    let (opened, seen) = open_later(&CancelToken::default());
    until_restoring(&seen).await;
    assert!(client::tell_panic::<Reader>());
    until("the studio", || opened.borrow().is_some()).await;
    let state = opened.borrow_mut().take().unwrap();
    assert!(restored_documents(&state).await.is_empty());
    assert_eq!(state.settings().database, "Shop");
    let notice = state.notices().list()[0].clone();
    assert_eq!(notice.level, Level::Warning);
    assert!(
        notice
            .text
            .contains("Restoring stopped: the studio's worker stopped")
            && notice.text.contains("asked to panic")
            && notice.text.contains(&format!(
                "{} documents",
                ravenshard_studio::numbers::count(MANY as u64)
            )),
        "{}",
        notice.text
    );
    untouched(&stored).await;
    // The next restore works.
    let (state, _, _) = open(CancelToken::default()).await;
    assert_eq!(restored_documents(&state).await.len(), MANY);
}

/// Saves a studio named "Newer" of a little over `CHUNKED_RESTORE_DOCUMENTS` documents as
/// the tab that writes does (its own generation's keys; its end removes every part its
/// layout does not name), and gives its documents.
async fn another_tab_saves() -> Vec<Document> {
    let mut newer = read_saved(SETTINGS).unwrap();
    newer.database = "Newer".into();
    let documents = many(CHUNKED_RESTORE_DOCUMENTS + 1_000);
    host_holds(documents.clone()).await;
    saved_once(&newer).await;
    documents
}

/// The worker reads a part per transaction, so another tab's save can end between two
/// of them: the worker, held after its first batches (the page placed none), then finds
/// the next part removed and says which ([`ReadingReply::PartMissing`]), not that the studio is
/// damaged.
#[wasm_bindgen_test]
async fn a_part_another_save_removed_while_the_worker_read_is_reported_missing() {
    common::use_this_module_as_the_worker();
    let stored = Stored::new(&read_saved(SETTINGS).unwrap(), &many(MANY));
    put_stored(&stored).await;
    let keys = read_layout(&stored.settings).part_keys().unwrap();
    let mut reading = Reading::restore(Some(keys.clone()), Read::default());
    let mut batches = 0;
    while batches == 0 {
        if let Some(ReadingReply::Batch { .. }) = reading.next().await {
            batches += 1;
        }
    }
    another_tab_saves().await;
    reading.placed(keys.len() as u64);
    let missing = loop {
        match reading.next().await.unwrap() {
            ReadingReply::PartMissing { key, .. } => break key,
            ReadingReply::Batch { .. } | ReadingReply::Progress(_) => batches += 1,
            other => panic!("{other:?}"),
        }
    };
    assert!(batches < keys.len(), "{batches} batches of {}", keys.len());
    assert!(keys.contains(&missing), "{missing}");
    drop(reading);
}

/// A restore of settings another tab's save replaced (their parts are gone) reads the
/// settings again and opens the newer studio, with a note; nothing is set aside (before,
/// the missing part made the restore fail and set the records aside as unreadable).
#[wasm_bindgen_test]
async fn a_restore_whose_parts_another_save_replaced_restores_the_newer_studio() {
    common::use_this_module_as_the_worker();
    let stored = Stored::new(&read_saved(SETTINGS).unwrap(), &many(MANY));
    put_stored(&stored).await;
    let documents = another_tab_saves().await;
    let mut notices = Vec::new();
    let on_progress = yew::Callback::from(|_: Work| {});
    let state = open::from_settings(
        stored.settings.clone(),
        &mut notices,
        &on_progress,
        &CancelToken::default(),
    )
    .await
    .unwrap();
    assert_eq!(state.settings().database, "Newer");
    assert_eq!(restored_documents(&state).await, documents);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].text.contains("this tab restored the newer one"));
    let aside = keys().await;
    assert!(
        !aside
            .iter()
            .any(|k| k.starts_with(records::SET_ASIDE_PREFIX)),
        "nothing set aside: {aside:?}"
    );
}

/// Saves the studio of `saved_fresh` again with its last document edited, as this tab or
/// another would (the save keeps every part but the last): the documents it saved.
async fn saved_again_with_the_last_edited(settings: &Saved, first: &[Document]) -> Vec<Document> {
    let at = first.len() - 1;
    let changed = Document::new("customers/9-A");
    host_change(Change::Splice {
        at: at as u64,
        remove: 1,
        insert: vec![changed.clone()],
    })
    .await;
    saved_once(settings).await;
    let mut documents = first.to_vec();
    documents[at] = changed;
    documents
}

/// A restore whose settings another tab's save of an edit outdated reads on in the newer
/// studio from the part the edit replaced (the parts before it are the same records),
/// instead of starting again ([`Restored::Outdated`]): the studio restored is the newer
/// one, with the note, nothing set aside, and the progress never goes back.
#[wasm_bindgen_test]
async fn a_restore_outdated_by_an_edit_reads_on_from_the_part_it_replaced() {
    let (settings, first) = saved_fresh().await;
    let old = stored().await.settings;
    let old_parts = read_layout(&old).parts.unwrap();
    let expected = saved_again_with_the_last_edited(&settings, &first).await;
    let now = read_layout(&stored().await.settings);
    let kept = now.parts.as_ref().unwrap();
    assert_eq!(kept[..kept.len() - 1], old_parts[..old_parts.len() - 1]);
    let seen: Progress = Rc::default();
    let on_progress = {
        let seen = Rc::clone(&seen);
        yew::Callback::from(move |w| seen.borrow_mut().push(w))
    };
    let cancel = CancelToken::default();
    let Restored::Newer(state) = restore::restore(&old, &on_progress, &cancel).await else {
        panic!("the restore did not read on in the newer studio");
    };
    assert_eq!(restored_documents(&state).await, expected);
    let done: Vec<usize> = seen.borrow().iter().map(|w| w.done).collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    // The studio opens on it with a note.
    let mut notices = Vec::new();
    let state = open::from_settings(old, &mut notices, &on_progress, &cancel)
        .await
        .unwrap();
    assert_eq!(restored_documents(&state).await, expected);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].text.contains("this tab restored the newer one"));
    assert!(!keys()
        .await
        .iter()
        .any(|k| k.starts_with(records::SET_ASIDE_PREFIX)));
}

/// A save's end removes every part no layout names, whatever its generation: only the tab
/// holding the writer's lock saves, so no part of another tab's save in progress is there
/// to keep (a tab closed during its save, a page left, leaves such parts).
#[wasm_bindgen_test]
async fn a_saves_end_removes_every_part_no_layout_names() {
    let (settings, first) = saved_fresh().await;
    let now = js_sys::Date::now() as u64;
    let young = records::layout_part_key(Some(now - 60_000), 0);
    let old = records::layout_part_key(Some(now - 3_600_000), 0);
    add(&[(young, "x".into()), (old, "x".into())]).await;
    // This page saves an edit: the part it replaced is no longer named either.
    saved_again_with_the_last_edited(&settings, &first).await;
    let stored = stored().await;
    let named = read_layout(&stored.settings).part_keys().unwrap();
    let unnamed: Vec<String> = (keys().await.into_iter())
        .filter(|k| k.starts_with(records::PART_PREFIX) && !named.contains(k))
        .collect();
    assert_eq!(unnamed, Vec::<String>::new());
    assert_eq!(stored.read().unwrap().documents.len(), first.len());
}

/// A run of the restore's worker given the parts after those read, and what they held,
/// sends the rest of the documents with counts that go on from there.
#[wasm_bindgen_test]
async fn a_restore_run_that_reads_on_counts_on() {
    let (_, first) = saved_fresh().await;
    let layout = read_layout(&stored().await.settings);
    let (parts, keys) = (layout.parts.clone().unwrap(), layout.part_keys().unwrap());
    let at = parts.len() - 1;
    let documents: u64 = parts[..at].iter().map(|p| u64::from(p.documents)).sum();
    let id_bytes = parts[..at].iter().map(|p| p.id_bytes).sum();
    let before = Read {
        bytes: documents,
        documents,
        id_bytes,
    };
    let mut reading = Reading::restore(Some(keys[at..].to_vec()), before);
    let (mut rest, mut last) = (Vec::new(), Read::default());
    loop {
        match reading.next().await.unwrap() {
            ReadingReply::Batch { batch, .. } => {
                last = batch.read;
                rest.extend(batch.into_documents().unwrap());
                reading.placed(u64::MAX);
            }
            ReadingReply::Progress(_) => {}
            ReadingReply::Restored { .. } => break,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(rest, first[documents as usize..]);
    let all_bytes: u64 = first.iter().map(|d| d.id.len() as u64).sum();
    assert_eq!(
        (last.documents, last.id_bytes),
        (first.len() as u64, all_bytes)
    );
}

/// A part the settings name that is not stored, with no save in between, is damage: the
/// records are set aside, as a part that cannot be read is.
#[wasm_bindgen_test]
async fn a_missing_part_the_settings_still_name_is_set_aside() {
    let stored = Stored::new(&read_saved(SETTINGS).unwrap(), &documents());
    let mut records = vec![(records::SETTINGS_KEY.to_string(), stored.settings.clone())];
    for (i, part) in stored.parts.iter().enumerate().filter(|(i, _)| *i != 2) {
        records.push((records::part_key(i), part.clone()));
    }
    put(&records).await;
    let (state, saved, _) = open(CancelToken::default()).await;
    assert!(!saved);
    let text = notices(&state);
    assert!(
        text.contains("the saved documents' record \"documents.2\" is missing")
            && text.contains("It was set aside"),
        "{text}"
    );
    let aside = format!("{}{}", records::SET_ASIDE_PREFIX, records::SETTINGS_KEY);
    assert!(keys().await.contains(&aside));
    client::terminate();
}

#[wasm_bindgen_test]
async fn a_damaged_part_read_by_the_worker_is_set_aside() {
    let stored = Stored::new(&read_saved(SETTINGS).unwrap(), &documents());
    let mut damaged = stored.clone();
    damaged.parts[2] = "ravenshard documents lines 1\na\tx1\n".into();
    put_stored(&damaged).await;
    let (state, saved, _) = open(CancelToken::default()).await;
    assert!(!saved);
    let text = notices(&state);
    assert!(
        text.contains("line 1: size \"x1\"") && text.contains("record \"documents.2\""),
        "{text}"
    );
    assert!(text.contains("It was set aside"), "{text}");
    let db = records::open().await.unwrap();
    let aside = format!("{}{}", records::SET_ASIDE_PREFIX, records::part_key(2));
    assert_eq!(
        records::get(&db, &aside).await.unwrap().as_deref(),
        Some(damaged.parts[2].as_str())
    );
    let aside = format!("{}{}", records::SET_ASIDE_PREFIX, records::SETTINGS_KEY);
    assert_eq!(
        records::get(&db, &aside).await.unwrap().as_deref(),
        Some(damaged.settings.as_str())
    );
    db.close();
    client::terminate();
}

/// The keys IndexedDB holds.
async fn keys() -> Vec<String> {
    let db = records::open().await.unwrap();
    let tx = db
        .transaction(&[records::STORE], rexie::TransactionMode::ReadOnly)
        .unwrap();
    let keys = tx
        .store(records::STORE)
        .unwrap()
        .get_all_keys(None, None)
        .await;
    db.close();
    keys.unwrap()
        .iter()
        .filter_map(JsValue::as_string)
        .collect()
}

/// The saved studio IndexedDB holds.
async fn stored() -> Stored {
    records::read_stored()
        .await
        .unwrap()
        .expect("the saved studio reads back")
}

/// The documents' parts the saved studio's layout names, in order.
async fn stored_parts() -> Vec<ravenshard_studio::persist::PartRef> {
    read_layout(&stored().await.settings).parts.unwrap()
}

/// A fresh IndexedDB holding a saved studio of `documents()`, saved from the host's copy
/// (which holds them then): its settings and documents.
async fn saved_fresh() -> (Saved, Vec<Document>) {
    common::use_this_module_as_the_worker();
    common::forget_saved().await.unwrap();
    let settings = read_saved(SETTINGS).unwrap();
    let first = documents();
    host_holds(first.clone()).await;
    saved_once(&settings).await;
    (settings, first)
}

thread_local! {
    /// The changes sent to the host so far (their numbers).
    static CHANGES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Makes `change` in the workspace's host (this module's worker) and waits until it did.
async fn host_change(change: Change) {
    let heard: Rc<std::cell::Cell<bool>> = Rc::default();
    let keep = Rc::clone(&heard);
    host::listen(yew::Callback::from(move |news| {
        if let HostNews::Changed { .. } = news {
            keep.set(true);
        }
    }));
    let seq = CHANGES.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    host::change(seq, change);
    until("the host's change", || heard.get()).await;
}

/// The workspace's host holds `documents`.
async fn host_holds(documents: Vec<Document>) {
    host_change(Change::Replace { documents }).await;
}

/// Saves the host's documents with a new `Saver` and waits until that save ended, well.
async fn saved_once(settings: &Saved) {
    let saver = Rc::new(ravenshard_studio::jobs::save::Saver::new(false));
    let (ended, done) = saves_ended();
    saver.save(settings.clone(), done);
    common::jobs::eventually("the save", || async {
        (!ended.borrow().is_empty()).then_some(())
    })
    .await;
    assert!(ended.borrow()[0].is_ok(), "{:?}", ended.borrow());
}

/// How each save of a `Saver` ended (the error as text), and the callback that hears it.
type SavesEnded = Rc<RefCell<Vec<Result<usize, String>>>>;

fn saves_ended() -> (SavesEnded, yew::Callback<Result<usize, save::StorageError>>) {
    let ended = SavesEnded::default();
    let done = {
        let ended = Rc::clone(&ended);
        yew::Callback::from(move |r: Result<usize, save::StorageError>| {
            ended.borrow_mut().push(r.map_err(|e| e.to_string()))
        })
    };
    (ended, done)
}

/// A save of the host's documents stores all or nothing and reads back; one whose
/// documents are replaced meanwhile stops without holding it, and the next swaps its parts
/// in and removes every other.
#[wasm_bindgen_test]
async fn a_save_in_the_worker_stores_all_or_nothing_and_reads_back() {
    use ravenshard_studio::jobs::save::Saver;
    common::use_this_module_as_the_worker();
    common::forget_saved().await.unwrap();
    let settings = read_saved(SETTINGS).unwrap();
    let first = documents();
    host_holds(first.clone()).await;
    let saver = Rc::new(Saver::new(false));
    let (ended, done) = saves_ended();
    saver.save(settings.clone(), done.clone());
    let saves = |n: usize| {
        let ended = Rc::clone(&ended);
        move || ended.borrow().len() >= n
    };
    until("the save", saves(1)).await;
    let bytes = ended.borrow()[0].clone().unwrap();
    let stored = self::stored().await;
    assert_eq!(bytes, stored.len());
    let back = stored.read().unwrap();
    assert_eq!(back.documents, first);
    assert_eq!(back.database, "Shop");
    let layout = read_layout(&stored.settings);
    assert!(layout.generation.is_some());
    assert_eq!(keys().await.len(), 1 + stored.parts.len());
    // A save whose documents are replaced meanwhile stops without holding it: the save in
    // force stays, whole.
    host_holds(many(MANY)).await;
    let before = keys().await.len();
    saver.save(settings.clone(), done.clone());
    common::jobs::eventually("the first parts stored", || async {
        (keys().await.len() >= before + 2).then_some(())
    })
    .await;
    host_holds(first[..100].to_vec()).await;
    gloo::timers::future::TimeoutFuture::new(300).await;
    assert_eq!(ended.borrow().len(), 1, "{:?}", ended.borrow());
    assert_eq!(self::stored().await, stored);
    // The next save swaps its parts in and removes every other (the stopped save's too).
    saver.save(settings.clone(), done);
    until("the next save", saves(2)).await;
    assert!(ended.borrow()[1].is_ok(), "{:?}", ended.borrow());
    let stored = self::stored().await;
    assert_eq!(stored.read().unwrap().documents, first[..100]);
    assert_eq!(keys().await.len(), 2);
    // A studio saved this way opens again.
    let (state, _, _) = open(CancelToken::default()).await;
    assert_eq!(restored_documents(&state).await, first[..100]);
}

/// A save after an edit writes only the part the edit touched and keeps the others' records;
/// the studio reads back as edited. A save whose kept parts are gone (the records were
/// replaced in between: the storage cleared, or a tab of an older studio that does not ask
/// for the writer's lock) saves whole, and removes the other studio's parts.
#[wasm_bindgen_test]
async fn a_save_after_an_edit_writes_only_the_parts_it_touched() {
    let (settings, first) = saved_fresh().await;
    let parts = stored_parts().await;
    assert!(parts.len() >= 3, "{parts:?}");
    let at = first.len() / 2;
    host_change(Change::Splice {
        at: at as u64,
        remove: 1,
        insert: vec![Document::new("customers/9-A")],
    })
    .await;
    saved_once(&settings).await;
    let now = stored_parts().await;
    let kept = now.iter().filter(|p| parts.contains(p)).count();
    assert_eq!(kept, parts.len() - 1, "one part written again: {now:?}");
    let mut expected = first.clone();
    expected[at] = Document::new("customers/9-A");
    assert_eq!(stored().await.read().unwrap().documents, expected);
    assert_eq!(keys().await.len(), 1 + now.len(), "no part left unnamed");
    // Another studio's records replace these: the kept parts are gone, so the next save
    // writes everything, and only its own parts remain.
    put_stored(&Stored::new(&settings, &first[..10])).await;
    host_change(Change::Splice {
        at: 0,
        remove: 1,
        insert: Vec::new(),
    })
    .await;
    saved_once(&settings).await;
    let whole = stored_parts().await;
    assert!(whole.iter().all(|p| !now.contains(p)), "{whole:?}");
    assert_eq!(stored().await.read().unwrap().documents, expected[1..]);
    assert_eq!(keys().await.len(), 1 + whole.len());
}

/// The save's batches of 10,000,000 documents, cut in wasm32 (where `usize` is 32 bits:
/// a product of 10,000,000 documents and 611 batches overflowed it, and a batch went
/// missing from the save), cover every document once.
#[wasm_bindgen_test]
fn ten_million_documents_make_batches_that_cover_them_all() {
    use ravenshard_studio::persist::{even_batches, PART_DOCUMENTS};
    let batches = even_batches(0..10_000_000);
    assert_eq!(batches.len(), 611);
    let mut at = 0;
    for batch in &batches {
        assert_eq!(batch.start, at);
        assert!(batch.len() <= PART_DOCUMENTS && batch.len() >= PART_DOCUMENTS - 20);
        at = batch.end;
    }
    assert_eq!(at, 10_000_000);
}

/// A save an edit stops (the placement replaced while its batches are sent) is not
/// started again at the edit's save: that save goes on in the same run, sending again
/// only the batch the edit touched and what was not sent yet; the studio reads back as
/// edited and no record is left that the layout does not name.
#[wasm_bindgen_test]
async fn a_save_stopped_by_an_edit_goes_on_from_where_it_stopped() {
    use ravenshard_studio::jobs::save::Saver;
    common::use_this_module_as_the_worker();
    common::forget_saved().await.unwrap();
    let settings = read_saved(SETTINGS).unwrap();
    let first = many(MANY);
    host_holds(first.clone()).await;
    let saver = Rc::new(Saver::new(false));
    let (ended, done) = saves_ended();
    saver.save(settings.clone(), done.clone());
    // Once the worker stored a few parts, the first document is edited.
    common::jobs::eventually("the first parts stored", || async {
        (keys().await.len() >= 3).then_some(())
    })
    .await;
    host_edit_first().await;
    saver.save(settings.clone(), done);
    common::jobs::eventually("the save's end", || async {
        (!ended.borrow().is_empty()).then_some(())
    })
    .await;
    assert_eq!(
        ended.borrow().len(),
        1,
        "one save ended: {:?}",
        ended.borrow()
    );
    assert!(ended.borrow()[0].is_ok(), "{:?}", ended.borrow());
    let stored = stored().await;
    let mut expected = first.clone();
    expected[0] = Document::new("customers/9-A");
    assert_eq!(stored.read().unwrap().documents, expected);
    let parts = read_layout(&stored.settings).parts.unwrap();
    assert!(
        parts.iter().all(|p| p.generation == parts[0].generation),
        "one run"
    );
    // The first batch was sent again after others of the run: the parts' indices are out
    // of order, and the first batch's first parts, replaced, count among those written.
    let last = parts.iter().map(|p| p.index).max().unwrap();
    assert!(
        parts.windows(2).any(|w| w[0].index > w[1].index),
        "{parts:?}"
    );
    assert!(last as usize >= parts.len(), "{parts:?}");
    assert_eq!(keys().await.len(), 1 + parts.len(), "no part left unnamed");
}

/// Edits the host's first document to `customers/9-A`.
async fn host_edit_first() {
    let insert = vec![Document::new("customers/9-A")];
    host_change(Change::Splice {
        at: 0,
        remove: 1,
        insert,
    })
    .await;
}

/// A job's workspace (an import's) is staged with the host as the page places it, adopted,
/// and saved from the host's copy: the page copies none of its documents, and the studio
/// reads back as imported.
#[wasm_bindgen_test]
async fn a_jobs_workspace_is_saved_from_the_hosts_copy() {
    use common::jobs::{job, placer};
    use ravenshard_studio::jobs::bulk;
    let (settings, _) = saved_fresh().await;
    let ids: String = (0..MANY).map(|i| format!("orders/{i}-A\n")).collect();
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(ids.as_bytes()));
    let file = web_sys::Blob::new_with_u8_array_sequence(&parts).unwrap();
    let configuration = r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#;
    let (made, seen) = job("Reading ids.txt", &CancelToken::default());
    let run = bulk::import(file, "ids.txt".into(), placer(configuration), made);
    wasm_bindgen_futures::spawn_local(run);
    until("the import", || seen.borrow().loaded.is_some()).await;
    let loaded = seen.borrow().loaded.clone().unwrap();
    let job = loaded.job;
    host_change(Change::Adopt {
        job,
        documents: MANY as u64,
    })
    .await;
    saved_once(&settings).await;
    let stored = stored().await;
    let documents = stored.read().unwrap().documents;
    assert_eq!(documents.len(), MANY);
    assert!(documents
        .iter()
        .enumerate()
        .all(|(i, d)| d.id == format!("orders/{i}-A")));
    let parts = read_layout(&stored.settings).parts.unwrap();
    assert_eq!(keys().await.len(), 1 + parts.len(), "no part left unnamed");
}

/// A generation's workspace, adopted by the host and edited there, is saved as edited.
#[wasm_bindgen_test]
async fn a_generations_workspace_edited_in_the_host_is_saved_as_edited() {
    use common::jobs::{job, placer};
    use ravenshard_studio::jobs::bulk;
    let (settings, _) = saved_fresh().await;
    let generator = Generator {
        documents: MANY,
        anchored_share: 0.4,
        seed: 5,
    };
    let configuration = r#"{"Shards": {"0": {}, "1": {}, "2": {}}}"#;
    let (made, seen) = job("Generating", &CancelToken::default());
    wasm_bindgen_futures::spawn_local(bulk::generate(generator, placer(configuration), made));
    until("the generation", || seen.borrow().loaded.is_some()).await;
    let loaded = seen.borrow().loaded.clone().unwrap();
    let job = loaded.job;
    host_change(Change::Adopt {
        job,
        documents: MANY as u64,
    })
    .await;
    let edited = Document::new("customers/9-A");
    host_change(Change::Splice {
        at: 50_000,
        remove: 1,
        insert: vec![edited.clone()],
    })
    .await;
    saved_once(&settings).await;
    let mut expected = generator.generate().unwrap();
    expected[50_000] = edited;
    let stored = stored().await;
    assert_eq!(stored.read().unwrap().documents, expected);
    let parts = read_layout(&stored.settings).parts.unwrap();
    assert_eq!(keys().await.len(), 1 + parts.len(), "no part left unnamed");
}

/// A save of `MANY` documents over a fresh saved studio, stopped by an edit of the first
/// document once its first parts are stored (nothing asks for the edit's save yet).
struct StoppedSave {
    settings: Saved,
    saver: Rc<ravenshard_studio::jobs::save::Saver>,
    ended: SavesEnded,
    done: yew::Callback<Result<usize, save::StorageError>>,
}

impl StoppedSave {
    async fn new() -> StoppedSave {
        let (settings, _) = saved_fresh().await;
        host_holds(many(MANY)).await;
        let saver = Rc::new(ravenshard_studio::jobs::save::Saver::new(false));
        let (ended, done) = saves_ended();
        let before = keys().await.len();
        saver.save(settings.clone(), done.clone());
        common::jobs::eventually("the first parts stored", || async {
            (keys().await.len() >= before + 2).then_some(())
        })
        .await;
        host_edit_first().await;
        gloo::timers::future::TimeoutFuture::new(300).await;
        assert!(ended.borrow().is_empty(), "{:?}", ended.borrow());
        StoppedSave {
            settings,
            saver,
            ended,
            done,
        }
    }

    /// Asks for the edit's save and checks that one save ended, well: the studio reads
    /// back as edited and no part is left unnamed.
    async fn saved_as_edited(self) {
        (self.saver).save(self.settings.clone(), self.done);
        let ended = self.ended;
        common::jobs::eventually("the edit's save", || async {
            (!ended.borrow().is_empty()).then_some(())
        })
        .await;
        assert_eq!(ended.borrow().len(), 1, "{:?}", ended.borrow());
        assert!(ended.borrow()[0].is_ok(), "{:?}", ended.borrow());
        let mut expected = many(MANY);
        expected[0] = Document::new("customers/9-A");
        let stored = records::read_stored()
            .await
            .unwrap()
            .expect("the saved studio reads back");
        assert_eq!(stored.read().unwrap().documents, expected);
        let parts = read_layout(&stored.settings).parts.unwrap();
        assert_eq!(keys().await.len(), 1 + parts.len(), "no part left unnamed");
    }
}

/// A save an edit stopped, whose worker then stops (a panic, out of memory), is saved again
/// from what IndexedDB holds at the edit's save, once the new worker holds the documents
/// again (the studio sends them after a crash), not failed with a message: the studio
/// reads back as edited.
#[wasm_bindgen_test]
async fn a_stopped_save_whose_worker_stops_meanwhile_is_saved_again() {
    let stopped = StoppedSave::new().await;
    // The host's worker panics while the save waits; the studio gives the next one the
    // documents again.
    host::panic();
    until("the crash", || !host::is_running()).await;
    let mut edited = many(MANY);
    edited[0] = Document::new("customers/9-A");
    host_holds(edited).await;
    stopped.saved_as_edited().await;
}

/// Removes every part that the layout in force does not name (the parts of a save in
/// progress are named by none until its end), as a tab of an older studio that does not
/// ask for the writer's lock does at its save's end, or a user clearing the storage.
async fn unnamed_parts_removed() -> usize {
    let named: Vec<String> = records::read_stored()
        .await
        .unwrap()
        .map(|stored| {
            read_layout(&stored.settings)
                .part_keys()
                .unwrap_or_default()
        })
        .unwrap_or_default();
    let unnamed: Vec<String> = (keys().await.into_iter())
        .filter(|key| key.starts_with(records::PART_PREFIX) && !named.contains(key))
        .collect();
    let db = records::open().await.unwrap();
    let tx = db
        .transaction(&[records::STORE], rexie::TransactionMode::ReadWrite)
        .unwrap();
    let store = tx.store(records::STORE).unwrap();
    for key in &unnamed {
        store.delete(JsValue::from(key.as_str())).await.unwrap();
    }
    records::commit(tx).await.unwrap();
    db.close();
    unnamed.len()
}

/// A save whose parts were removed before its end does not name them: its end finds them
/// missing, and the studio is saved again whole, so the saved studio always reads back.
#[wasm_bindgen_test]
async fn a_save_whose_parts_were_removed_meanwhile_is_saved_again() {
    let stopped = StoppedSave::new().await;
    assert!(unnamed_parts_removed().await >= 2);
    stopped.saved_as_edited().await;
}
