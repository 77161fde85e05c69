//! Browser tests: mount the real [`App`], type into it as a user would, read the DOM.
//!
//! Run with `cd web && CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown` (the runner reads `web/webdriver.json` for Chromium's flags).
#![cfg(target_arch = "wasm32")]

use ravenshard_studio::marks;
use ravenshard_studio::numbers::count;
use ravenshard_studio::persist::records;
use ravenshard_studio::persist::{Saved, SET_ASIDE_KEY, STORAGE_KEY};
use ravenshard_studio::state::route::shared_state;
use ravenshard_studio::state::{SavedInTab, SAVES_CHANNEL};
use ravenshard_studio::App;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};

mod common;

use common::jobs::eventually;
use common::Mounted;

wasm_bindgen_test_configure!(run_in_browser);

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// No saved studio anywhere: neither in IndexedDB nor in `localStorage`.
async fn forget() {
    storage().clear().unwrap();
    common::forget_saved().await.unwrap();
}

/// No saved studio and no link; the workers load this test module.
async fn clean() {
    common::use_this_module_as_the_worker();
    forget().await;
    web_sys::window().unwrap().location().set_hash("").unwrap();
}

/// Waits (at most ~10 s) until IndexedDB holds a studio of `documents` documents, and
/// returns it.
async fn saved_with(documents: usize) -> Saved {
    saved_where(|saved| saved.documents.len() == documents).await
}

/// The first saved studio IndexedDB holds that `wanted` accepts (waiting up to 10 s).
async fn saved_where(wanted: impl Fn(&Saved) -> bool) -> Saved {
    let mut last = None;
    for _ in 0..500 {
        if let Ok(Some(stored)) = records::read_stored().await {
            let saved = stored.read().unwrap();
            if wanted(&saved) {
                return saved;
            }
            last = Some((saved.documents.len(), saved.tab));
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("IndexedDB never held the studio wanted (last: documents and tab {last:?})");
}

type Studio = Mounted<App>;

impl Mounted<App> {
    /// Mounts on a clean slate: no saved studio, no link.
    async fn fresh() -> Studio {
        clean().await;
        Studio::open().await
    }

    /// Mounts and waits until the saved studio (if any) is restored and shown.
    async fn open() -> Studio {
        let studio = Studio::mount(()).await;
        studio.wait_for(".studio").await;
        studio
    }

    /// The text of one cell (`.bucket`, `.shard`...) of the row of a document (0-based).
    fn cell(&self, index: usize, class: &str) -> String {
        self.text(&format!(".dt-row[data-index=\"{index}\"] .{class}"))
            .trim()
            .to_string()
    }

    /// Replaces the first ID of the editor's page by `id`, the rest unchanged.
    async fn retype_first_id(&self, id: &str) {
        let text = self
            .get("#ids")
            .unchecked_into::<HtmlTextAreaElement>()
            .value();
        let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
        self.type_into("#ids", &format!("{id}\n{rest}")).await;
    }

    /// How many documents the card of a shard shows.
    fn shard_documents(&self, shard: u32) -> String {
        self.text(&format!("li.shard-card[data-shard=\"{shard}\"] .documents"))
    }
}

#[wasm_bindgen_test]
async fn opens_on_the_chapter_examples() {
    let studio = Studio::fresh().await;
    assert_eq!(studio.count(".dt-row"), 12);
    assert_eq!(
        studio.text(".dt-row[data-index=\"1\"] mark"),
        "customers/1-A"
    );
    assert_eq!(studio.cell(1, "bucket"), "982173");
    assert_eq!(studio.cell(1, "shard"), "2");
    assert_eq!(studio.cell(1, "fragment"), "Orders$2");
    // Anchored: only the part after '$' is marked, and it shares the bucket.
    assert_eq!(
        studio.text(".dt-row[data-index=\"2\"] mark"),
        "customers/1-A"
    );
    assert_eq!(
        studio.text(".dt-row[data-index=\"2\"] .unhashed"),
        "orders/2-A$"
    );
    assert_eq!(studio.cell(2, "bucket"), "982173");
    assert_eq!(studio.text(".count-documents strong"), "12");
}

#[wasm_bindgen_test]
async fn typing_ids_updates_the_table_and_counts() {
    let studio = Studio::fresh().await;
    studio
        .type_into("#ids", "\ncustomers/1-A\t100\n\nUsers/70$Users/4")
        .await;
    assert_eq!(studio.count(".dt-row"), 2);
    assert_eq!(studio.cell(0, "bucket"), "982173");
    assert_eq!(studio.cell(0, "shard"), "2");
    assert_eq!(studio.text(".dt-row[data-index=\"1\"] mark"), "Users/4");
    assert_eq!(studio.text(".count-documents strong"), "2");
    studio.type_into("#filter", "users").await;
    assert_eq!(studio.count(".dt-row"), 1);

    studio.type_into("#ids", "").await;
    assert_eq!(studio.count(".dt-row"), 0);
    assert!(studio.find(".documents-view .empty").is_some());
}

#[wasm_bindgen_test]
async fn shard_count_changes_the_cards() {
    let studio = Studio::fresh().await;
    studio.click("#tab-shards").await;
    assert_eq!(studio.count("li.shard-card"), 3);
    studio.type_into("#shard-count", "1").await;
    assert_eq!(studio.count("li.shard-card"), 1);
    assert_eq!(studio.shard_documents(0), "12");
    studio.type_into("#shard-count", "5000").await;
    assert!(studio.text("#shard-count-error").contains("1 to 1024"));
    assert_eq!(studio.count("li.shard-card"), 1);
    studio.type_into("#shard-count", "4").await;
    assert_eq!(studio.count("li.shard-card"), 4);
    assert!(studio.find("#shard-count-error").is_none());
    // Nodes × shards follows.
    studio.click("#tab-nodes").await;
    assert_eq!(studio.count("table.matrix tbody tr"), 4);
}

#[wasm_bindgen_test]
async fn groups_and_explain() {
    let studio = Studio::fresh().await;
    studio.click("#tab-groups").await;
    assert!(studio.text("tr[data-group=\"0\"]").contains("users/4"));
    studio.click("tr[data-group=\"0\"] .show-docs").await;
    assert_eq!(studio.count(".dt-row"), 4);
    studio.click(".dt-row[data-index=\"7\"]").await;
    assert!(studio.find(".pipeline").is_some());
    assert!(studio.text(".pipeline").contains("users/4"));
    studio.type_into("#explain-id", &"x".repeat(600)).await;
    assert!(studio
        .text(".explain-view .field-error")
        .contains("512 bytes"));
}

/// The Group column names each row's anchor (its tooltip the group's size) and follows the
/// edits that reorder the groups; the groups view lists them largest first, and filtering
/// by one names it.
#[wasm_bindgen_test]
async fn the_group_column_follows_edits() {
    let studio = Studio::fresh().await;
    let title = |i: usize| {
        let code = studio.get(&format!(".dt-row[data-index=\"{i}\"] .c-group code"));
        code.get_attribute("title").unwrap_or_default()
    };
    // Two groups of 2 documents, then one more document in the second.
    let ids = "a/1$users/4\na/2$Users/4\nb/1$users/5\nusers/5";
    studio.type_into("#ids", &format!("{ids}\nc/1")).await;
    assert_eq!(studio.cell(1, "c-group"), "users/4");
    assert_eq!(studio.cell(3, "c-group"), "users/5");
    assert_eq!(studio.cell(4, "c-group"), "");
    assert_eq!(title(0), "Anchored group of 2 documents");
    // Two groups of 2: by anchor.
    studio.click("#tab-groups").await;
    assert!(studio.text("tr[data-group=\"0\"]").contains("users/4"));
    studio.click("#tab-documents").await;
    studio
        .type_into("#ids", &format!("{ids}\nb/2$users/5"))
        .await;
    assert_eq!(studio.cell(4, "c-group"), "users/5");
    assert_eq!(title(3), "Anchored group of 3 documents");
    studio.click("#tab-groups").await;
    assert!(studio.text("tr[data-group=\"0\"]").contains("users/5"));
    studio.click("tr[data-group=\"0\"] .show-docs").await;
    assert_eq!(studio.count(".dt-row"), 3);
    assert!(studio.text(".filters .chip").contains("Group users/5"));
}

/// Picks files (several at once when given), through the file picker, as a user does.
async fn import_files(studio: &Studio, files: &[(&str, &[u8])]) {
    let transfer = web_sys::DataTransfer::new().unwrap();
    for (name, bytes) in files {
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(*bytes));
        let file = web_sys::File::new_with_u8_array_sequence(&parts, name).unwrap();
        transfer.items().add_with_file(&file).unwrap();
    }
    let input = studio.get("#import-file");
    input
        .unchecked_ref::<HtmlInputElement>()
        .set_files(transfer.files().as_ref());
    studio.fire("#import-file", "change").await;
}

async fn import_bytes(studio: &Studio, name: &str, bytes: &[u8]) {
    import_files(studio, &[(name, bytes)]).await;
}

#[wasm_bindgen_test]
async fn imports_csv_and_ndjson() {
    let studio = Studio::fresh().await;
    import_bytes(
        &studio,
        "docs.csv",
        b"id,size,collection\norders/1-A,1200,Orders\ncustomers/1-A,700,Customers\n",
    )
    .await;
    studio.wait_for(".notice.info").await;
    assert_eq!(studio.text(".count-documents strong"), "2");
    assert_eq!(studio.cell(1, "bucket"), "982173");
    assert!(studio
        .text(".notice.info")
        .contains("Imported 2 documents from docs.csv"));

    import_bytes(
        &studio,
        "docs.ndjson",
        b"\"orders/1-A\"\n{\"@metadata\": {\"@id\": \"Users/70$Users/4\", \"@collection\": \"Users\"}}\n\"Users/4\"\n",
    )
    .await;
    studio.wait_for(".notice.info:nth-child(2)").await;
    assert_eq!(studio.text(".count-documents strong"), "3");
    assert_eq!(studio.cell(1, "c-collection"), "Users");

    // An unreadable file says why and leaves the workspace as it was.
    import_bytes(&studio, "bad.json", b"[\"a\",\n 7]").await;
    studio.wait_for(".import-error").await;
    assert!(studio
        .text(".import-error")
        .contains("bad.json could not be read"));
    assert_eq!(studio.text(".count-documents strong"), "3");
}

/// A large import is saved by the workspace's host from its own copy of the documents (the
/// page copies none of them), and the studio restores them.
#[wasm_bindgen_test]
async fn a_large_import_is_saved_from_the_hosts_copy() {
    let studio = Studio::fresh().await;
    let ids: String = (0..40_000).map(|i| format!("orders/{i}-A\n")).collect();
    import_bytes(&studio, "ids.txt", ids.as_bytes()).await;
    let saved = saved_with(40_000).await;
    assert_eq!(saved.documents[39_999].id, "orders/39999-A");
    drop(studio);
    let studio = Studio::open().await;
    assert_eq!(studio.text(".count-documents strong"), "40,000");
}

/// The worker that holds the documents stops (a panic here; out of memory in life): the
/// page says so, restores the last saved studio into a new worker, and stays usable.
#[wasm_bindgen_test]
async fn a_host_that_stops_leaves_a_usable_studio_restored_from_the_last_save() {
    use ravenshard_studio::workers::host;
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "3000").await;
    studio.click("button.generate").await;
    saved_with(3000).await;
    // Typed after the save: lost with the worker.
    studio.type_into("#ids", "users/1").await;
    host::panic();
    studio
        .until("the restore", |s| {
            let told = s.find(".notices").and_then(|e| e.text_content());
            told.is_some_and(|t| t.contains("last saved studio is restored"))
                && s.text(".count-documents strong") == "3,000"
        })
        .await;
    // Usable: an edit of the editor's page (its first 1,000 documents, now two) reaches
    // the new worker.
    studio.type_into("#ids", "users/1\nusers/2").await;
    studio
        .until("the edit", |s| s.text(".count-documents strong") == "2,002")
        .await;
}

#[wasm_bindgen_test]
async fn a_share_link_opens_its_workspace() {
    forget().await;
    web_sys::window()
        .unwrap()
        .location()
        .set_hash("shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4")
        .unwrap();
    let studio = Studio::open().await;
    assert_eq!(studio.count(".dt-row"), 2);
    assert_eq!(studio.text(".dt-row[data-index=\"1\"] mark"), "Users/4");
    assert!(studio.text(".notice").contains("shared link"));
    drop(studio);
    web_sys::window().unwrap().location().set_hash("").unwrap();
}

#[wasm_bindgen_test]
async fn a_large_share_link_is_compressed_by_the_browser_and_opens() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "3000").await;
    studio.click("button.generate").await;
    studio.click(".share-link").await;
    let location = web_sys::window().unwrap().location();
    // The state is the query of the view's address.
    for _ in 0..250 {
        if location.hash().unwrap().starts_with("#/documents?z=") {
            break;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    let hash = location.hash().unwrap();
    assert!(
        hash.starts_with("#/documents?z="),
        "{}",
        &hash[..hash.len().min(40)]
    );
    let state = shared_state(&hash).unwrap();
    let shared = ravenshard_model::share::decode_fragment(state).unwrap();
    assert_eq!(shared.documents.len(), 3000);
    drop(studio);
    // Opening the link shows its documents.
    let studio = Studio::open().await;
    assert_eq!(studio.text(".count-documents strong"), "3,000");
    drop(studio);
    location.set_hash("").unwrap();
}

#[wasm_bindgen_test]
async fn the_studio_survives_a_reload() {
    let studio = Studio::fresh().await;
    studio.type_into("#ids", "customers/1-A").await;
    studio.type_into("#database", "Shop").await;
    let saved = saved_with(1).await;
    assert_eq!(saved.database, "Shop");
    drop(studio);
    assert!(
        storage().get_item(STORAGE_KEY).unwrap().is_none(),
        "IndexedDB, not localStorage"
    );
    let studio = Studio::open().await;
    assert_eq!(studio.count(".dt-row"), 1);
    assert_eq!(studio.cell(0, "fragment"), "Shop$2");
}

/// Another tab of the studio, as the page sees it: a `BroadcastChannel` of the studio's
/// name, and the messages it heard.
struct OtherTab {
    channel: web_sys::BroadcastChannel,
    heard: std::rc::Rc<std::cell::RefCell<Vec<SavedInTab>>>,
    _listener: gloo::events::EventListener,
}

impl OtherTab {
    fn open() -> OtherTab {
        let channel = web_sys::BroadcastChannel::new(SAVES_CHANNEL).unwrap();
        let heard = std::rc::Rc::<std::cell::RefCell<Vec<SavedInTab>>>::default();
        let listener = {
            let heard = std::rc::Rc::clone(&heard);
            gloo::events::EventListener::new(&channel, "message", move |event| {
                let data = event.unchecked_ref::<web_sys::MessageEvent>().data();
                heard
                    .borrow_mut()
                    .push(SavedInTab::read(&data.as_string().unwrap()).unwrap());
            })
        };
        OtherTab {
            channel,
            heard,
            _listener: listener,
        }
    }

    fn saves(&self, database: &str, documents: u64) {
        let said = SavedInTab {
            database: database.into(),
            documents,
        };
        self.channel.post_message(&said.message().into()).unwrap();
    }
}

/// Two tabs share one saved studio: each save is told to the other tabs, and a tab told
/// that another saved in place of it says so, once until it saves again.
#[wasm_bindgen_test]
async fn a_tab_is_told_when_another_saved_in_place_of_it() {
    let studio = Studio::fresh().await;
    let other = OtherTab::open();
    studio.type_into("#database", "Shop").await;
    studio.type_into("#ids", "customers/1-A").await;
    saved_with(1).await;
    let said = SavedInTab {
        database: "Shop".into(),
        documents: 1,
    };
    eventually("the save told", || async {
        other.heard.borrow().contains(&said).then_some(())
    })
    .await;
    let told = |studio: &Studio| {
        (0..studio.count(".notice"))
            .filter(|i| {
                studio
                    .text(&format!(".notice:nth-child({})", i + 1))
                    .contains("Another tab saved its studio")
            })
            .count()
    };
    assert_eq!(told(&studio), 0, "its own save is not told to itself");
    other.saves("Orders", 12);
    other.saves("Orders", 13);
    studio.until("the notice", |s| told(s) == 1).await;
    let notice = studio.text(".notice.warning");
    assert!(
        notice.contains("database \"Orders\", 12 documents") && notice.contains("Export CSV"),
        "{notice}"
    );
    // Told once: the other tab's second save said nothing more.
    gloo::timers::future::TimeoutFuture::new(100).await;
    assert_eq!(told(&studio), 1);
    // This tab saves again: the other tab is told, and its next save is told here again.
    studio
        .type_into("#ids", "customers/1-A\ncustomers/2-A")
        .await;
    saved_with(2).await;
    eventually("the second save told", || async {
        (other.heard.borrow().last().map(|s| s.documents) == Some(2)).then_some(())
    })
    .await;
    other.saves("Orders", 14);
    studio.until("the second notice", |s| told(s) == 2).await;
}

#[wasm_bindgen_test]
async fn leaving_the_page_saves_at_once() {
    let studio = Studio::fresh().await;
    // The save's worker loaded (the studio starts it; this test's worker is the whole
    // test module, much slower to load than the studio's).
    studio.type_into("#ids", "a").await;
    saved_with(1).await;
    studio.type_into("#ids", "a\nb\nc").await;
    common::fire_at(&web_sys::window().unwrap(), "pagehide");
    // Well before the debounced save (500 ms after the change) would run.
    for _ in 0..15 {
        if let Ok(Some(stored)) = records::read_stored().await {
            if stored.read().unwrap().documents.len() == 3 {
                return;
            }
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("leaving the page did not save the change at once");
}

/// Changes that never pause (one every 200 ms, each putting the 500 ms save off again)
/// are saved all the same, `SAVE_MAX_DELAY_MS` after the first of them; before, nothing
/// was saved until the typing paused, and a tab closed meanwhile lost it all.
#[wasm_bindgen_test]
async fn changes_that_never_pause_are_saved_by_the_deadline() {
    let studio = Studio::fresh().await;
    // The save's worker loaded (as in `leaving_the_page_saves_at_once`).
    studio.type_into("#ids", "a").await;
    saved_with(1).await;
    let now = || web_sys::window().unwrap().performance().unwrap().now();
    let (started, mut text) = (now(), String::from("a"));
    for i in 0..40 {
        text.push_str(&format!("\nb{i}"));
        studio.type_into("#ids", &text).await;
        gloo::timers::future::TimeoutFuture::new(200).await;
        let stored = records::read_stored().await.unwrap().unwrap();
        let saved = stored.read().unwrap().documents.len();
        if saved > 1 {
            let after = now() - started;
            let max = f64::from(ravenshard_studio::state::SAVE_MAX_DELAY_MS);
            assert!(
                after >= max - 300.0 && after < max + 2_000.0,
                "saved after {after} ms"
            );
            return;
        }
    }
    panic!("changes every 200 ms were never saved while they went on");
}

/// A true page reload would end wasm-bindgen-test's run, so the reload here is the page's
/// next start: the App is unmounted and mounted again against the same IndexedDB database.
#[wasm_bindgen_test]
async fn a_generated_workspace_of_20000_documents_survives_a_reload() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "20000").await;
    studio.click("button.generate").await;
    assert_eq!(studio.text(".count-documents strong"), "20,000");
    let first = studio.cell(0, "id-text");
    studio.click("#tab-shards").await;
    let shards: Vec<String> = (0..3).map(|s| studio.shard_documents(s)).collect();
    studio.click("#tab-nodes").await;
    // The save after the generation may start before the tabs are chosen (a loaded
    // machine): the one that names the tab follows it.
    let saved =
        saved_where(|s| s.documents.len() == 20_000 && s.tab.as_deref() == Some("nodes")).await;
    assert_eq!(saved.tab.as_deref(), Some("nodes"));
    drop(studio);
    let saves = || {
        let performance = web_sys::window().unwrap().performance().unwrap();
        performance
            .get_entries_by_name(marks::SAVE_MEASURE)
            .length()
    };
    let before = saves();
    let studio = Studio::open().await;
    assert_eq!(studio.text(".count-documents strong"), "20,000");
    assert!(
        studio.find(".view-nodes").is_some(),
        "the tab shown is restored"
    );
    gloo::timers::future::TimeoutFuture::new(700).await;
    assert_eq!(
        saves(),
        before,
        "a restored studio is saved again only once changed"
    );
    studio.click("#tab-shards").await;
    let restored: Vec<String> = (0..3).map(|s| studio.shard_documents(s)).collect();
    assert_eq!(restored, shards);
    studio.click("#tab-documents").await;
    assert_eq!(studio.cell(0, "id-text"), first);
}

/// Cancel while a large saved studio is restored: the studio opens without documents, says
/// so, and the saved copy stays untouched until something changes.
#[wasm_bindgen_test]
async fn a_cancelled_restore_opens_empty_and_keeps_the_saved_copy_until_a_change() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "200000").await;
    studio.click("button.generate").await;
    studio.type_into("#database", "Shop").await;
    saved_with(200_000).await;
    drop(studio);
    let studio = Studio::mount(()).await;
    // Once the worker's documents are being placed.
    studio.wait_for(".studio-restoring progress").await;
    studio.click(".cancel-restore").await;
    studio.wait_for(".studio").await;
    assert_eq!(studio.text(".count-documents strong"), "0");
    let notice = studio.text(".notice");
    assert!(notice.contains("Restoring was cancelled"), "{notice}");
    assert!(notice.contains("200,000 documents"), "{notice}");
    assert_eq!(
        studio
            .get("#database")
            .unchecked_into::<HtmlInputElement>()
            .value(),
        "Shop",
        "the saved settings are kept"
    );
    // Well after a save would have run: the saved copy is untouched.
    gloo::timers::future::TimeoutFuture::new(900).await;
    let kept = records::read_stored()
        .await
        .unwrap()
        .unwrap()
        .read()
        .unwrap();
    assert_eq!(kept.documents.len(), 200_000);
    // The first change is saved in its place.
    studio.type_into("#ids", "customers/1-A").await;
    assert_eq!(saved_with(1).await.database, "Shop");
}

#[wasm_bindgen_test]
async fn a_studio_saved_in_local_storage_is_read_once_and_moved() {
    clean().await;
    let old = r#"{"version": 1, "database": "Shop", "nodes": "A, B, C, D", "replication_factor": "2", "config": "{\"Shards\": {\"0\": {}, \"1\": {}, \"2\": {}}}", "documents": [{"id": "customers/1-A"}, {"id": "orders/1-A", "size": 3}]}"#;
    storage().set_item(STORAGE_KEY, old).unwrap();
    let studio = Studio::open().await;
    assert_eq!(studio.text(".count-documents strong"), "2");
    assert_eq!(saved_with(2).await.database, "Shop");
    // The page removes the old copy once the save's worker says it stored the new one,
    // a moment after IndexedDB holds it.
    studio
        .until("the old copy's removal", |_| {
            storage().get_item(STORAGE_KEY).unwrap().is_none()
        })
        .await;
    drop(studio);
    let studio = Studio::open().await;
    assert_eq!(studio.text(".count-documents strong"), "2");
}

#[wasm_bindgen_test]
async fn a_refused_save_says_so_with_the_size_and_offers_export() {
    clean().await;
    // A newer version of the database than the studio opens: the browser refuses every
    // open (VersionError), as it refuses a store that is full.
    rexie::Rexie::builder(records::DATABASE)
        .version(records::DATABASE_VERSION + 1)
        .build()
        .await
        .unwrap()
        .close();
    let studio = Studio::open().await;
    assert!(studio
        .text(".notice.warning")
        .contains("could not be restored"));
    studio.wait_for(".not-saved").await;
    let text = studio.text(".not-saved");
    assert!(text.contains("not saved for the next visit"), "{text}");
    assert!(
        text.contains("refused to store") && text.contains(" KB"),
        "{text}"
    );
    assert_eq!(studio.text(".not-saved .export-unsaved"), "Export CSV");
    drop(studio);
    forget().await;
}

#[wasm_bindgen_test]
async fn unreadable_saved_records_are_set_aside() {
    clean().await;
    let studio = Studio::open().await;
    studio.type_into("#ids", "a\nb").await;
    saved_with(2).await;
    drop(studio);
    // The first part of the save in force.
    let settings = records::read_stored().await.unwrap().unwrap().settings;
    let generation = ravenshard_studio::persist::read_layout(&settings).generation;
    let part = ravenshard_studio::persist::records::layout_part_key(generation, 0);
    let db = rexie::Rexie::builder(records::DATABASE)
        .version(records::DATABASE_VERSION)
        .build()
        .await
        .unwrap();
    let tx = db
        .transaction(&[records::STORE], rexie::TransactionMode::ReadWrite)
        .unwrap();
    let store = tx.store(records::STORE).unwrap();
    let key = JsValue::from(part.as_str());
    store.put(&"garbage".into(), Some(&key)).await.unwrap();
    tx.done().await.unwrap();
    db.close();
    let studio = Studio::open().await;
    assert!(studio.text(".notice.warning").contains("does not know"));
    assert_eq!(studio.count(".dt-row"), 12, "opens on the examples");
    let db = rexie::Rexie::builder(records::DATABASE)
        .build()
        .await
        .unwrap();
    let tx = db
        .transaction(&[records::STORE], rexie::TransactionMode::ReadOnly)
        .unwrap();
    let aside = format!("{}{part}", records::SET_ASIDE_PREFIX);
    let kept = tx
        .store(records::STORE)
        .unwrap()
        .get(aside.into())
        .await
        .unwrap();
    assert_eq!(
        ravenshard_studio::persist::records::from_bytes(kept.unwrap()).unwrap(),
        "garbage",
        "kept as it was stored"
    );
    db.close();
}

#[wasm_bindgen_test]
async fn a_corrupt_saved_state_is_reported_and_set_aside() {
    clean().await;
    storage().set_item(STORAGE_KEY, "{not json").unwrap();
    let studio = Studio::open().await;
    assert!(studio
        .text(".notice.warning")
        .contains("could not be restored"));
    assert_eq!(studio.count(".dt-row"), 12, "opens on the examples");
    assert_eq!(
        storage().get_item(SET_ASIDE_KEY).unwrap().as_deref(),
        Some("{not json")
    );
    studio.click(".notice.warning .dismiss").await;
    assert!(studio.find(".notice.warning").is_none());
    drop(studio);

    forget().await;
    storage()
        .set_item(STORAGE_KEY, r#"{"version": 7}"#)
        .unwrap();
    let studio = Studio::open().await;
    assert!(studio.text(".notice.warning").contains("version 7"));
}

#[wasm_bindgen_test]
async fn a_config_json_error_is_shown_by_the_state() {
    // SetConfigJson is wired by the lead; the state's behaviour is tested natively. Here:
    // member edits show in the matrix.
    let studio = Studio::fresh().await;
    studio.type_into("#nodes", "A, B").await;
    studio.click("#tab-nodes").await;
    assert_eq!(studio.count("table.matrix tbody tr"), 2);
    studio.type_into("#replication-factor", "3").await;
    assert!(studio
        .text("#replication-factor-error")
        .contains("at most 2"));
}

#[wasm_bindgen_test]
async fn a_large_workspace_renders_only_a_slice() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "100000").await;
    studio.click("button.generate").await;
    // Over 50,000 documents, a generation runs a chunk at a time.
    shown(&studio, "100,000", 120).await;
    assert!(studio.count(".dt-row") <= 64, "{}", studio.count(".dt-row"));
    let body = studio.get(".dt-body");
    // The style sheet is not loaded in tests: give the scroller its height here.
    body.set_attribute("style", "height: 400px; overflow-y: auto")
        .unwrap();
    body.set_scroll_top(28 * 50_000);
    studio.fire(".dt-body", "scroll").await;
    assert!(studio.find(".dt-row[data-index=\"50000\"]").is_some());

    // The editor holds one page of 1,000 lines, with a pager.
    let page = || {
        studio
            .get("#ids")
            .unchecked_into::<HtmlTextAreaElement>()
            .value()
    };
    assert_eq!(page().lines().count(), 1_000);
    assert!(studio.text(".pager").contains("lines 1–1,000 of 100,000"));
    studio.click(".pager .page-next").await;
    assert!(studio
        .text(".pager")
        .contains("lines 1,001–2,000 of 100,000"));
    let second = page();
    // An edit replaces the page's documents only.
    studio.type_into("#ids", "customers/1-A").await;
    assert_eq!(studio.text(".count-documents strong"), "99,001");
    studio.type_into("#filter", "customers/").await;
    // A filter of 99,001 documents is a job made in slices.
    studio
        .until("the filter", |s| rows_state(s) == "ready")
        .await;
    assert_eq!(studio.count(".dt-row"), 1);
    assert_eq!(studio.cell(1_000, "bucket"), "982173");
    assert!(studio
        .text(".pager")
        .contains("lines 1,001–1,001 of 99,001"));
    studio.type_into("#page-line", "99001").await;
    studio.fire("#page-line", "change").await;
    assert!(studio
        .text(".pager")
        .contains("lines 99,001–99,001 of 99,001"));
    assert_ne!(page(), second);

    // Anchored groups: 100 listed, then 100 more on request.
    studio.click("#tab-groups").await;
    assert_eq!(studio.count("tr.group"), 100);
    studio.click(".groups-view .show-more").await;
    assert_eq!(studio.count("tr.group"), 200);
}

#[wasm_bindgen_test]
async fn ranges_tab_applies_a_configuration_and_the_map_lists_a_bucket() {
    let studio = Studio::fresh().await;
    studio.click("#tab-ranges").await;
    assert!(studio.find(".range-editor").is_some() || studio.find(".prefix-editor").is_some());
    // Pin "customers/" to shard 0 with a prefix, through the JSON editor.
    let json = r#"{"Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}, "2": {"Members": ["C"]}},
        "Prefixed": [{"Prefix": "customers/", "Shards": [0]}]}"#;
    studio.type_into(".config-json-text", json).await;
    studio.click(".config-json .apply").await;
    studio.click("#tab-documents").await;
    // customers/1-A: bucket 982173 in the prefix's block, on shard 0.
    assert_eq!(studio.cell(1, "bucket"), (982173 + (1 << 20)).to_string());
    assert_eq!(studio.cell(1, "shard"), "0");
    assert_eq!(studio.cell(1, "fragment"), "Orders$0");

    // An invalid configuration is shown and not applied.
    studio.click("#tab-ranges").await;
    studio
        .type_into(
            ".config-json-text",
            r#"{"Shards": {"0": {}}, "Prefixed": [{"Prefix": "eu", "Shards": [0]}]}"#,
        )
        .await;
    studio.click(".config-json .apply").await;
    assert!(studio
        .text(".config-json")
        .contains("must end with '/' or '-'"));
    studio.click("#tab-documents").await;
    assert_eq!(studio.cell(1, "shard"), "0");

    // The map draws, and selecting a bucket lists its documents.
    studio.click("#tab-map").await;
    assert!(studio.find("canvas.map-canvas").is_some());
    assert!(studio.find(".bucket-documents").is_none());
}

#[wasm_bindgen_test]
async fn the_chapters_design_rules_routing_and_transactions() {
    let studio = Studio::fresh().await;
    // Queries: without ByContent only id() narrows a query.
    studio.click("#tab-queries").await;
    assert!(studio.text(".design-note").contains("shipped RavenDB 7.x"));
    assert_eq!(studio.text(".route-count"), "3 of 3 shards");
    studio
        .type_into("#rql", "from Orders where id() = 'orders/1-A'")
        .await;
    assert_eq!(studio.text(".route-count"), "1 of 3 shards");
    assert_eq!(studio.count(".route-shard.dim"), 2);
    // The bucket map shows the routed shard in colour and marks the ID's bucket.
    assert!(studio.find(".route-map canvas.map-canvas").is_some());
    assert!(studio
        .text(".route-map .axis-highlight")
        .contains("1 highlighted"));
    studio.type_into("#rql", "from Orders where").await;
    assert!(studio.text(".rql-error").contains("line 1"));
    // The transaction check opens on the chapter's anchored order and its customer.
    assert!(studio.find(".tx-verdict.one-bucket").is_some());
    studio
        .type_into("#tx-ids", "orders/1-A\ncustomers/1-A")
        .await;
    assert!(studio.find(".tx-verdict.several-shards").is_some());

    // Content rules: turn the design on (Orders by Customer).
    studio.click("#tab-content").await;
    studio.click(".design-on").await;
    // orders/1-A is outside customers/1-A's bucket: its write is rejected.
    assert!(studio
        .text(".rejected-list")
        .contains("Rejected: 'orders/1-A'"));
    assert!(studio.text(".count-invalid strong").contains('1'));
    // Now the router follows the rule.
    studio.click("#tab-queries").await;
    studio
        .type_into("#rql", "from Orders where Customer = 'customers/1-A'")
        .await;
    assert_eq!(studio.text(".route-count"), "1 of 3 shards");
    assert!(studio.text(".design-note").contains("draft"));
    // A generated ID, typed with its body.
    studio
        .type_into(
            "#ids",
            "orders/9-A$\t\tOrders\t{\"Customer\":\"customers/1-A\"}",
        )
        .await;
    studio.click("#tab-content").await;
    assert!(studio.text(".final-id").starts_with("orders/9-A$@982"));
}

#[wasm_bindgen_test]
async fn the_resharding_view_plans_the_edited_documents_once_the_edits_rest() {
    let studio = Studio::resharding_3000().await;
    assert!(studio.text(".docs-moved strong").ends_with("of 3,000"));
    // A line added: the host's load is asked again 300 ms after the last edit, and the
    // plan follows it.
    let text = studio
        .get("#ids")
        .unchecked_into::<HtmlTextAreaElement>()
        .value();
    let added = format!("{}\nextra/1", text.trim_end());
    studio.type_into("#ids", &added).await;
    studio
        .until("the plan of the edited documents", |s| {
            s.text(".docs-moved strong").ends_with("of 3,001")
        })
        .await;
    assert!(studio.find(".notice.error").is_none());
}

#[wasm_bindgen_test]
async fn resharding_drains_a_shard_in_the_worker_then_removes_it() {
    let studio = Studio::resharding_3000().await;
    // The chosen shard is the last one: 2.
    studio.click("button.drain-shard").await;
    studio
        .until("the drain and its plan", |s| {
            s.find(".balancing").is_none() && s.text(".buckets-moved strong") != "0"
        })
        .await;
    assert!(studio
        .text(".reshard-bars .bar-row[data-shard=\"2\"] .bar-value")
        .ends_with("→ 0"));
    assert!(studio.find(".target-problem").is_none());
    studio.click("button.remove-shard").await;
    assert!(studio.find(".target-problem").is_none());
    assert_eq!(
        studio.count(".reshard-bars .bar-row"),
        3,
        "shard 2 shown as removed"
    );
    assert!(studio.text(".plan-notes").contains("Shard 2"));
    assert!(studio.find(".notice.error").is_none());
}

#[wasm_bindgen_test]
async fn resharding_adds_a_shard_balances_and_steps_through_the_migration() {
    let studio = Studio::resharding_3000().await;
    assert!(studio
        .text(".plan-notes")
        .contains("No bucket changes shard"));
    assert_eq!(studio.text(".buckets-moved strong"), "0");
    studio.click("button.add-shard").await;
    assert!(studio
        .text(".plan-notes")
        .contains("Shard 3 is new and owns no buckets"));
    assert_eq!(studio.count(".reshard-bars .bar-row"), 4);
    studio.set("input.threshold", "0", "input").await;
    studio.balance().await;
    assert!(studio.find(".option-error").is_none());
    let moved = studio.text(".docs-moved strong");
    assert!(moved.ends_with("of 3,000"), "{moved}");
    assert!(studio.count(".moves tbody tr") >= 1);
    assert!(studio
        .text(".reshard-bars .bar-row[data-shard=\"3\"] .bar-value")
        .starts_with("0 → 7"));
    // Two bucket maps, before and after: each a heatmap over its strip.
    assert_eq!(studio.count(".reshard-compare canvas.heat-canvas"), 2);
    assert_eq!(studio.count(".reshard-compare canvas"), 4);
    // The walk-through: Moving, then Moved, with the configuration as RavenDB holds it.
    assert_eq!(studio.text(".step-head .phase"), "Moving");
    let head = studio.text(".step-head");
    let (source, destination) = head
        .split_once(": shard ")
        .and_then(|(_, rest)| rest.split_once(" → shard "))
        .map(|(from, rest)| {
            (
                from.to_string(),
                rest.split(' ').next().unwrap_or("").to_string(),
            )
        })
        .expect("the step names its shards");
    assert!(studio
        .text(".routes")
        .contains(&format!("Writes → {source} ")));
    assert!(studio
        .text(".step-config")
        .contains("\"Status\": \"Moving\""));
    studio.click(".step-control .next").await;
    assert_eq!(studio.text(".step-head .phase"), "Moved");
    studio.click(".step-control .next").await;
    assert_eq!(studio.text(".step-head .phase"), "OwnershipTransferred");
    let routes = studio.text(".routes");
    assert!(
        routes.contains(&format!("Writes → {destination} Orders${destination}")),
        "{routes}"
    );
    // Removing a shard that owns buckets gives RavenDB's message.
    studio.set("select.shard-pick", "0", "change").await;
    studio.click("button.remove-shard").await;
    assert!(studio
        .text(".target-problem")
        .contains("first you need to migrate all its buckets to another shard"));
    // A prefix that documents start with: the host checks the IDs and RavenDB refuses it;
    // the balanced target stays.
    let with_orders = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
        "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
            {"BucketRangeStart": 349525, "ShardNumber": 1},
            {"BucketRangeStart": 699050, "ShardNumber": 2},
            {"BucketRangeStart": 1048576, "ShardNumber": 1}],
        "Prefixed": [{"Prefix": "orders/", "Shards": [1], "BucketRangeStart": 1048576}]}"#;
    studio
        .type_into(".target-editors .config-json-text", with_orders)
        .await;
    studio.click(".target-editors .config-json .apply").await;
    let problem = studio.text(".target-problem");
    assert!(
        problem.contains(
            "There are existing documents in database 'Orders' that start with 'orders/'"
        ),
        "{problem}"
    );
    assert_eq!(studio.count(".reshard-bars .bar-row"), 4);
    // Using the target makes it the configuration in force.
    studio.click("button.apply-target").await;
    studio.click("#tab-shards").await;
    assert_eq!(studio.count("li.shard-card"), 4);
}

// Downloads: the studio offers a file by clicking an `<a download>` it does not attach to
// the page. These catch such clicks instead of letting the browser save the file.
#[wasm_bindgen(inline_js = "
let taken = [];
export function catch_downloads() {
    taken = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
        if (this.download) { taken.push([this.download, this.href]); } else { click.call(this); }
    };
    return () => { HTMLAnchorElement.prototype.click = click; };
}
export function caught_downloads() { return JSON.stringify(taken); }
export async function text_at(url) { return await (await fetch(url)).text(); }
")]
extern "C" {
    /// Starts catching downloads; call the function it returns to stop.
    fn catch_downloads() -> js_sys::Function;
    /// The downloads caught, as JSON `[[name, url], ...]`.
    fn caught_downloads() -> String;
    #[wasm_bindgen(catch)]
    async fn text_at(url: &str) -> Result<JsValue, JsValue>;
}

impl Mounted<App> {
    /// 3,000 generated documents on the Resharding tab.
    async fn resharding_3000() -> Studio {
        let studio = Studio::fresh().await;
        studio.set("#gen-count", "3000", "input").await;
        studio.click("button.generate").await;
        studio.click("#tab-reshard").await;
        studio
    }

    /// 3,000 generated documents on the Resharding tab, a shard added and balanced.
    async fn balanced_with_a_new_shard() -> Studio {
        let studio = Studio::resharding_3000().await;
        studio.click("button.add-shard").await;
        studio.set("input.threshold", "0", "input").await;
        studio.balance().await;
        studio
    }

    fn disabled(&self, selector: &str) -> bool {
        self.get(selector).has_attribute("disabled")
    }

    /// The walk-through's step field (from 1) and its last step.
    fn step(&self) -> (String, String) {
        let input = self.get("input.step");
        let max = input.get_attribute("max").unwrap_or_default();
        (input.unchecked_into::<HtmlInputElement>().value(), max)
    }
}

#[wasm_bindgen_test]
async fn the_walk_through_goes_to_the_first_the_last_and_the_next_bucket() {
    let studio = Studio::balanced_with_a_new_shard().await;
    let (at, last) = studio.step();
    assert_eq!(at, "1");
    let last_step: u64 = last.parse().unwrap();
    assert!(last_step >= 8, "{last}");
    assert!(studio.disabled(".step-control .first"));
    assert!(!studio.disabled(".step-control .last"));
    studio.click(".step-control .next").await;
    assert_eq!(studio.step().0, "2");
    assert_eq!(studio.text(".step-head .phase"), "Moved");
    // Next bucket: the first step of the bucket after, whatever the phase.
    studio.click(".step-control .next-bucket").await;
    assert_eq!(studio.step().0, "5");
    assert_eq!(studio.text(".step-head .phase"), "Moving");
    assert!(!studio.disabled(".step-control .first"));
    studio.click(".step-control .last").await;
    assert_eq!(studio.step().0, last);
    assert_eq!(studio.text(".step-head .phase"), "Cleaned up");
    assert!(studio.disabled(".step-control .last"));
    assert!(studio.disabled(".step-control .next-bucket"));
    assert!(studio.disabled(".step-control .next"));
    studio.click(".step-control .first").await;
    assert_eq!(studio.step().0, "1");
    assert_eq!(studio.text(".step-head .phase"), "Moving");
}

#[wasm_bindgen_test]
async fn the_moves_table_shows_each_shard_in_its_colour() {
    let studio = Studio::balanced_with_a_new_shard().await;
    let rows = studio.count(".moves tbody tr");
    assert!(rows >= 1);
    assert_eq!(studio.count(".moves tbody td .shard-badge"), 2 * rows);
    for side in ["from", "to"] {
        let cell = studio.get(&format!(".moves tbody tr td.{side}"));
        let style = cell.get_attribute("style").unwrap_or_default();
        assert!(style.starts_with("--shard: "), "{side}: {style:?}");
    }
    // A shard has the colour of its bar: the same in every view.
    for side in ["from", "to"] {
        let cell = studio.get(&format!(".moves tbody tr td.{side}"));
        let shard = cell.text_content().unwrap_or_default();
        let bar = studio.get(&format!(".reshard-bars .bar-row[data-shard=\"{shard}\"]"));
        assert_eq!(cell.get_attribute("style"), bar.get_attribute("style"));
    }
    let shards: Vec<String> = (0..rows)
        .map(|i| studio.text(&format!(".moves tbody tr:nth-child({}) td.to", i + 1)))
        .collect();
    assert!(
        shards.iter().any(|s| s == "3"),
        "moves to the new shard: {shards:?}"
    );
}

#[wasm_bindgen_test]
async fn the_target_downloads_as_json() {
    let studio = Studio::balanced_with_a_new_shard().await;
    let stop = catch_downloads();
    studio.click("button.download-target").await;
    stop.call0(&JsValue::NULL).unwrap();
    let caught: Vec<(String, String)> = serde_json::from_str(&caught_downloads()).unwrap();
    assert_eq!(caught.len(), 1, "{caught:?}");
    let (name, url) = &caught[0];
    assert_eq!(name, "Orders-target.json");
    let text = text_at(url).await.unwrap().as_string().unwrap();
    let target = ravenshard::Topology::from_json(&text).unwrap();
    assert_eq!(target.shards().len(), 4);
    assert!(target.ranges().iter().any(|r| r.shard == 3), "{text}");
    assert!(studio.find(".notice.error").is_none());
}

#[wasm_bindgen_test]
async fn the_plan_shows_both_terms_and_downloads_its_calls() {
    let studio = Studio::balanced_with_a_new_shard().await;
    // A contiguous balance to a new shard moves about a quarter of 2^20 buckets: at 40 ms
    // each, the buckets take the time, and the view says so.
    assert!(studio
        .text(".estimate-buckets")
        .starts_with("+ buckets 2 h"));
    assert!(studio.find(".estimate-warning").is_some());
    assert_eq!(studio.count("table.objectives tbody tr"), 2);
    let contiguous = studio.text("table.objectives tr.contiguous .migrations");
    let fewest = studio.text("table.objectives tr.fewest-migrations .migrations");
    let number = |t: &str| t.replace(',', "").parse::<u64>().unwrap();
    assert!(
        number(&fewest) < number(&contiguous),
        "{fewest} vs {contiguous}"
    );
    // Few migrations: balance the new shard again, with the other objective.
    studio.click("button.reset-target").await;
    studio.click("button.add-shard").await;
    studio.click(".objective .fewest-migrations").await;
    studio.balance().await;
    assert_eq!(studio.text(".buckets-moved strong"), fewest);
    studio
        .set("input.cluster-url", "https://a.example.com", "input")
        .await;
    let stop = catch_downloads();
    studio.click("button.download-calls-json").await;
    studio.click("button.download-calls-sh").await;
    // The worker writes the files: they come after the clicks.
    let caught_now = || serde_json::from_str::<Vec<(String, String)>>(&caught_downloads()).unwrap();
    studio
        .until("the calls' files", |_| caught_now().len() >= 2)
        .await;
    stop.call0(&JsValue::NULL).unwrap();
    let caught = caught_now();
    assert_eq!(caught.len(), 2, "{caught:?}");
    assert_eq!(caught[0].0, "Orders-calls.json");
    let json: serde_json::Value =
        serde_json::from_str(&text_at(&caught[0].1).await.unwrap().as_string().unwrap()).unwrap();
    assert_eq!(json["url"], "https://a.example.com");
    assert!(json["calls"][0]["path"]
        .as_str()
        .unwrap()
        .starts_with("/admin/resharding/start?database=Orders&fromBucket="));
    assert_eq!(caught[1].0, "Orders-calls.sh");
    let script = text_at(&caught[1].1).await.unwrap().as_string().unwrap();
    assert!(script.starts_with("#!/bin/sh\n"));
    assert!(script.contains("URL='https://a.example.com'"));
    // A download and a plan asked at once of the view's worker: both answers arrive (one
    // callback takes all of the channel's replies).
    let stop = catch_downloads();
    let json = studio.get("button.download-calls-json");
    json.unchecked_ref::<web_sys::HtmlElement>().click();
    studio.click("button.add-shard").await;
    studio
        .until("the calls' file", |_| caught_now().len() == 1)
        .await;
    stop.call0(&JsValue::NULL).unwrap();
    assert!(studio.find(".planning").is_none());
    assert!(studio
        .text(".plan-notes")
        .contains("Shard 4 is new and owns no buckets"));
    assert!(studio.find(".notice.error").is_none());
}

#[wasm_bindgen_test]
async fn buckets_too_big_for_a_fair_share_are_listed() {
    let studio = Studio::fresh().await;
    // 300 orders anchored to one company: one bucket with half the documents, more than the
    // fair share (200) of each of 3 shards.
    let mut text: String = (0..300)
        .map(|i| format!("orders/{i}-A$companies/1-A\n"))
        .collect();
    text.extend((0..300).map(|i| format!("employees/{i}-A\n")));
    studio.type_into("#ids", &text).await;
    studio.click("#tab-reshard").await;
    assert!(studio.find(".obstacles").is_none());
    studio.set("input.threshold", "0", "input").await;
    studio.balance().await;
    assert!(studio
        .text(".obstacles .warning")
        .starts_with("1 bucket holds more than a fair share"));
    assert_eq!(studio.count(".obstacle-list li"), 1);
    let item = studio.get(".obstacle-list li");
    let bucket = ravenshard::bucket_for("companies/1-A").unwrap();
    assert_eq!(item.get_attribute("data-bucket"), Some(bucket.to_string()));
    let line = item.text_content().unwrap_or_default();
    assert!(line.contains(": 300 docs, 0 B ("), "{line}");
    assert!(line.ends_with("× a fair share)"), "{line}");
    let shard = studio.text(".obstacle-list li .shard-badge");
    let style = item.get_attribute("style").unwrap_or_default();
    assert!(style.starts_with("--shard: "), "{style}");
    let start = format!("Bucket {} on shard {shard}:", count(bucket));
    assert!(line.starts_with(&start), "{line}");
}

#[wasm_bindgen_test]
async fn bucket_statistics_import_as_a_workspace_of_statistics() {
    let studio = Studio::fresh().await;
    let range = |from: u32, to: u32, shard: u32, docs: u32| {
        format!(
            r#""{from}": {{"ShardNumbers": [{shard}], "FromBucket": {from}, "ToBucket": {to},
            "NumberOfBuckets": 1, "RangeSize": {docs}0, "DocumentsCount": {docs}}}"#
        )
    };
    let shard0 = format!(
        r#"{{"TotalSizeHumane": "-", "TotalSize": 9000, "BucketRanges": {{{}, {}}}}}"#,
        range(0, 32767, 0, 600),
        range(32768, 65535, 0, 300)
    );
    let shard2 = format!(
        r#"{{"TotalSizeHumane": "-", "TotalSize": 1000, "BucketRanges": {{{}}}}}"#,
        range(720896, 720896, 2, 100)
    );
    import_files(
        &studio,
        &[
            ("shard0.json", shard0.as_bytes()),
            ("shard2.json", shard2.as_bytes()),
        ],
    )
    .await;
    studio.wait_for(".notice.info").await;
    assert!(studio
        .text(".notice.info")
        .starts_with("Imported bucket statistics from 2 files: 1000 documents"));
    assert!(studio
        .text(".doc-count")
        .starts_with("bucket statistics: 1,000 documents"));
    assert!(studio
        .text(".statistics-note")
        .contains("bucket statistics, which have no document IDs"));
    studio.click("#tab-shards").await;
    assert!(studio
        .text(".statistics-note")
        .contains("2 of 3 figures are per range of buckets"));
    studio.click("#tab-reshard").await;
    studio.set("input.threshold", "0", "input").await;
    studio.balance().await;
    let notes = studio.text(".plan-notes");
    assert!(
        notes.contains("a range is counted at its first bucket"),
        "{notes}"
    );
    assert!(
        notes.contains("debug/sharding/buckets?fromBucket="),
        "{notes}"
    );
}

/// Waits (at most `seconds`) until the studio shows `documents` documents.
async fn shown(studio: &Studio, documents: &str, seconds: u32) {
    for _ in 0..seconds * 20 {
        let text = studio
            .find(".count-documents strong")
            .and_then(|e| e.text_content());
        if text.as_deref() == Some(documents) {
            common::settle().await;
            return;
        }
        gloo::timers::future::TimeoutFuture::new(50).await;
        yew::scheduler::flush().await;
    }
    panic!("{documents} documents never shown");
}

/// A generation of more than 50,000 documents runs a chunk at a time: its progress is
/// shown (count, share), and Cancel stops it with the workspace as it was.
#[wasm_bindgen_test]
async fn a_large_generation_shows_progress_and_can_be_cancelled() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "400000").await;
    studio.click("button.generate").await;
    studio.wait_for(".work-progress").await;
    let status = studio.text(".work-text");
    assert!(status.starts_with("Generating — "), "{status}");
    assert!(status.contains('%'), "{status}");
    studio.click(".cancel-work").await;
    assert!(studio.find(".work-progress").is_none());
    gloo::timers::future::TimeoutFuture::new(500).await;
    yew::scheduler::flush().await;
    assert!(studio.find(".work-progress").is_none(), "the job stopped");
    assert_eq!(studio.text(".count-documents strong"), "12");
    assert!(studio.text(".notices").contains("Cancelled"));
}

/// A chunked generation is shown when complete, saved (by the workspace's host, the page
/// copying none of its documents), and restored a chunk at a time on the next start.
#[wasm_bindgen_test]
async fn a_large_generated_workspace_is_shown_and_survives_a_reload() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "60000").await;
    studio.click("button.generate").await;
    studio.wait_for(".work-progress").await;
    shown(&studio, "60,000", 120).await;
    assert!(studio.find(".work-progress").is_none());
    let first = studio.cell(0, "id-text");
    studio.click("#tab-shards").await;
    let shards: Vec<String> = (0..3).map(|s| studio.shard_documents(s)).collect();
    saved_with(60_000).await;
    drop(studio);
    let studio = Studio::mount(()).await;
    shown(&studio, "60,000", 120).await;
    studio.click("#tab-shards").await;
    let restored: Vec<String> = (0..3).map(|s| studio.shard_documents(s)).collect();
    assert_eq!(restored, shards);
    studio.click("#tab-documents").await;
    assert_eq!(studio.cell(0, "id-text"), first);
}

impl Mounted<App> {
    /// A fresh studio with `documents` generated documents, once they are shown.
    async fn generated(documents: u64) -> Studio {
        let studio = Studio::fresh().await;
        studio.type_into("#gen-count", &documents.to_string()).await;
        studio.click("button.generate").await;
        let shown = count_text(documents);
        studio
            .until("the generation", |s| {
                s.text(".count-documents strong") == shown
            })
            .await;
        studio
    }
}

/// The IDs of the documents view's rows on screen, top to bottom.
fn shown_ids(studio: &Studio) -> Vec<String> {
    let rows = studio
        .root
        .query_selector_all(".dt-row .id-text, .dt-row .c-id mark")
        .unwrap();
    let mut ids = Vec::new();
    for i in 0..rows.length() {
        if let Some(row) = rows.item(i).and_then(|n| n.parent_element()) {
            let id = row.text_content().unwrap_or_default();
            if ids.last() != Some(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

/// A count as the studio writes it (thousands separated by commas).
fn count_text(n: u64) -> String {
    ravenshard_studio::numbers::count(n)
}

fn rows_state(studio: &Studio) -> String {
    studio
        .get(".documents-view")
        .get_attribute("data-rows")
        .unwrap_or_default()
}

/// From 50,000 documents on, a sort or a filter is made by a job a slice at a time: the
/// view says so (and the rows shown before stay) until the rows are made; Cancel goes back.
#[wasm_bindgen_test]
async fn a_large_sort_and_filter_are_made_in_slices_with_progress_and_cancel() {
    let studio = Studio::generated(50000).await;
    assert_eq!(rows_state(&studio), "ready");
    studio.click(".dt-head button.c-id").await;
    assert_eq!(rows_state(&studio), "working", "the sort is a job");
    assert!(studio
        .text(".rows-working")
        .contains("Sorting 50,000 documents by ID"));
    studio.until("the sort", |s| rows_state(s) == "ready").await;
    let ids = shown_ids(&studio);
    assert!(ids.len() > 10, "{ids:?}");
    let lowered: Vec<String> = ids.iter().map(|id| id.to_lowercase()).collect();
    let mut sorted = lowered.clone();
    sorted.sort();
    assert_eq!(lowered, sorted, "sorted by ID");
    studio.type_into("#filter", "companies/1").await;
    assert_eq!(rows_state(&studio), "working", "the filter is a job");
    studio
        .until("the filter", |s| rows_state(s) == "ready")
        .await;
    let count = studio.text(".row-count");
    assert!(
        count.ends_with(" of 50,000") && !count.starts_with("0 "),
        "{count}"
    );
    assert!(shown_ids(&studio)
        .iter()
        .all(|id| id.to_lowercase().contains("companies/1")));
    // An edit while the filter is set is followed at once, without a job.
    let kept: u64 = count
        .split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    let ids = studio
        .get("#ids")
        .unchecked_into::<HtmlTextAreaElement>()
        .value();
    studio
        .type_into("#ids", &format!("companies/1-new\n{ids}"))
        .await;
    assert_eq!(rows_state(&studio), "ready", "followed, not filtered again");
    assert_eq!(
        studio.text(".row-count"),
        format!("{} of 50,001", count_text(kept + 1))
    );
    // Cancel a sort by size: the filtered rows by ID come back.
    let before = shown_ids(&studio);
    studio.click(".dt-head button.c-size").await;
    assert_eq!(rows_state(&studio), "working");
    studio.click(".rows-cancel").await;
    assert_eq!(rows_state(&studio), "ready");
    assert!(studio.find(".dt-head button.c-size.sorted").is_none());
    assert!(studio.find(".dt-head button.c-id.sorted").is_some());
    assert_eq!(shown_ids(&studio), before);
}

/// From 100,000 documents on, the CSV is written by a job a slice at a time (the button
/// says how far it is, and a second click stops it), then offered as one file.
#[wasm_bindgen_test]
async fn a_large_csv_export_is_written_in_slices_and_can_be_stopped() {
    let studio = Studio::generated(100000).await;
    let first = studio.cell(0, "id-text");
    let stop = catch_downloads();
    // Started, then stopped by a second click: no file.
    studio.click(".export-csv").await;
    studio
        .until("the export's progress", |s| {
            s.find(".export-csv.working").is_some()
        })
        .await;
    assert!(studio.text(".export-csv").starts_with("Writing the CSV…"));
    studio.click(".export-csv").await;
    studio
        .until("the export to stop", |s| {
            s.find(".export-csv.working").is_none()
        })
        .await;
    gloo::timers::future::TimeoutFuture::new(300).await;
    assert_eq!(caught_downloads(), "[]");
    // Started again and left to finish: one file, every document.
    studio.click(".export-csv").await;
    studio
        .until("the file", |_| caught_downloads() != "[]")
        .await;
    stop.call0(&JsValue::NULL).unwrap();
    assert_eq!(studio.text(".export-csv"), "Export CSV");
    let caught: Vec<(String, String)> = serde_json::from_str(&caught_downloads()).unwrap();
    assert_eq!(caught.len(), 1);
    assert_eq!(caught[0].0, "Orders-documents.csv");
    let text = text_at(&caught[0].1).await.unwrap().as_string().unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("id,bucket,shard,collection,size"));
    assert!(lines.next().unwrap().starts_with(&format!("{first},")));
    assert_eq!(text.lines().count(), 100_001);
}

/// A workspace too big for a share link makes none: the banner says so and offers the CSV.
#[wasm_bindgen_test]
async fn a_workspace_too_big_for_a_link_is_offered_as_a_file() {
    let studio = Studio::generated(20001).await;
    let location = web_sys::window().unwrap().location();
    studio.click(".share-link").await;
    studio.wait_for(".share-refused").await;
    assert!(studio
        .text(".share-refused")
        .contains("too big for a share link (20,001 documents; a link holds at most 20,000)"));
    let hash = location.hash().unwrap();
    assert_eq!(shared_state(&hash), None, "no link is made: {hash}");
    let stop = catch_downloads();
    studio.click(".share-refused .export-refused").await;
    studio
        .until("the file", |_| caught_downloads() != "[]")
        .await;
    stop.call0(&JsValue::NULL).unwrap();
    assert!(caught_downloads().contains("Orders-documents.csv"));
    studio.click(".share-refused .dismiss").await;
    assert!(studio.find(".share-refused").is_none());
}

/// The saved studio's settings record and the generation of its documents' parts.
async fn saved_settings() -> (Saved, Option<u64>) {
    let stored = records::read_stored().await.unwrap().unwrap();
    let layout = ravenshard_studio::persist::read_layout(&stored.settings);
    (stored.read().unwrap(), layout.generation)
}

/// A change of tab (or of any setting) while the documents are the ones saved writes the
/// settings record alone: the documents' parts are not written again (every document was
/// sent to the worker again before: 19-28 s at 10,000,000 documents).
#[wasm_bindgen_test]
async fn a_change_of_tab_saves_the_settings_without_the_documents() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "3000").await;
    studio.click("button.generate").await;
    saved_with(3000).await;
    let (_, generation) = saved_settings().await;
    assert!(generation.is_some());
    studio.click("#tab-nodes").await;
    for _ in 0..250 {
        if saved_settings().await.0.tab.as_deref() == Some("nodes") {
            break;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    let (settings, again) = saved_settings().await;
    assert_eq!(settings.tab.as_deref(), Some("nodes"));
    assert_eq!(again, generation, "the documents' parts are the same");
    drop(studio);
    // The studio opens again with its documents, on the tab saved last; a tab changed
    // after the restore is saved the same way.
    let studio = Studio::open().await;
    assert_eq!(studio.text(".count-documents strong"), "3,000");
    assert!(studio.find(".view-nodes").is_some());
    studio.click("#tab-shards").await;
    for _ in 0..250 {
        if saved_settings().await.0.tab.as_deref() == Some("shards") {
            break;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    assert_eq!(
        saved_settings().await,
        (saved_settings().await.0, generation)
    );
    // An edit of the documents saves them whole again: a new generation of parts (the
    // editor's page of 1,000 lines replaced by one line).
    studio.type_into("#ids", "customers/1-A").await;
    saved_with(2001).await;
    assert_ne!(saved_settings().await.1, generation);
    // The saved studio removed meanwhile (another tab cleared it): the next change saves
    // the documents whole again.
    common::forget_saved().await.unwrap();
    studio.click("#tab-nodes").await;
    saved_with(2001).await;
}

/// The saved studio's documents' parts, as its settings record names them.
async fn saved_parts() -> Vec<ravenshard_studio::persist::PartRef> {
    let stored = records::read_stored().await.unwrap().unwrap();
    let layout = ravenshard_studio::persist::read_layout(&stored.settings);
    layout.parts.expect("a save names its parts")
}

/// The keys of every documents' record IndexedDB holds, sorted.
async fn part_records() -> Vec<String> {
    use ravenshard_studio::persist::records;
    let db = records::open().await.unwrap();
    let tx = db
        .transaction(&[records::STORE], rexie::TransactionMode::ReadOnly)
        .unwrap();
    let store = tx.store(records::STORE).unwrap();
    let keys = store.get_all_keys(None, None).await.unwrap();
    db.close();
    let mut keys: Vec<String> = keys
        .iter()
        .filter_map(JsValue::as_string)
        .filter(|k| k.starts_with(records::PART_PREFIX))
        .collect();
    keys.sort();
    keys
}

/// An edit saves only the parts of the documents it touched: the other parts keep their
/// records, no record is left that the layout does not name, and the studio restores
/// equal. When the parts a save would keep are gone (another tab cleared the storage),
/// it saves every part again. A restored studio's edit keeps the restored parts.
#[wasm_bindgen_test]
async fn an_edit_saves_only_the_parts_it_touched() {
    let studio = Studio::fresh().await;
    studio.type_into("#gen-count", "40000").await;
    studio.click("button.generate").await;
    let generated = saved_with(40_000).await;
    let parts = saved_parts().await;
    assert!(parts.len() >= 3, "{parts:?}");
    // The first ID of the editor's page changed: the first part is written again.
    studio.retype_first_id("customers/1-A").await;
    let edited = eventually("the edit's save", || async {
        Some(saved_parts().await).filter(|now| *now != parts)
    })
    .await;
    assert!(
        edited.ends_with(&parts[1..]),
        "the untouched parts are kept: {edited:?}"
    );
    let written = &edited[..edited.len() + 1 - parts.len()];
    assert!(
        written.iter().all(|p| p.generation > parts[0].generation),
        "{written:?}"
    );
    let mut keys: Vec<String> = edited.iter().map(|p| p.key()).collect();
    keys.sort();
    assert_eq!(
        part_records().await,
        keys,
        "no record the layout does not name"
    );
    let saved = saved_with(40_000).await;
    assert_eq!(saved.documents[0].id, "customers/1-A");
    assert_eq!(saved.documents[1..], generated.documents[1..]);
    // The storage cleared meanwhile: the next edit's save keeps nothing, and writes all.
    common::forget_saved().await.unwrap();
    studio.retype_first_id("customers/2-A").await;
    let stored = eventually("the whole save", || async {
        records::read_stored().await.ok()?
    })
    .await;
    let whole = ravenshard_studio::persist::read_layout(&stored.settings)
        .parts
        .unwrap_or_default();
    assert!(whole.len() >= 3, "{whole:?}");
    assert!(whole.iter().all(|p| p.generation == whole[0].generation));
    assert!(whole
        .iter()
        .all(|p| !parts.contains(p) && !edited.contains(p)));
    drop(studio);
    let studio = Studio::open().await;
    assert_eq!(studio.text(".count-documents strong"), "40,000");
    let back = saved_with(40_000).await;
    assert_eq!(back.documents[0].id, "customers/2-A");
    assert_eq!(back.documents[1..], generated.documents[1..]);
    // The restored studio's first edit is saved the same way (its parts read from the
    // settings record at that save).
    studio.retype_first_id("customers/3-A").await;
    let restored = eventually("the restored studio's save", || async {
        Some(saved_parts().await).filter(|now| *now != whole)
    })
    .await;
    assert!(restored.ends_with(&whole[1..]), "{restored:?}");
    assert_eq!(saved_with(40_000).await.documents[0].id, "customers/3-A");
}
