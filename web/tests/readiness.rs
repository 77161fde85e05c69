//! The Readiness view in headless Chromium: a record pasted, the check run in its worker
//! over the studio's documents, the findings counted, grouped and filtered; a clean record
//! says that nothing blocks; bad input is named with its position and the text stays; the
//! texts (a record of several MB among them) are saved with the studio and shown again when
//! it opens next.
//!
//! The known answers are the check's own on the same fixtures
//! (`crates/ravenshard-check/fixtures`), with the studio's documents and configuration:
//! what `ravenshard check` reports for the same files.
#![cfg(target_arch = "wasm32")]

use ravenshard_check::{check, Inputs, Severity};
use ravenshard_model::sample::chapter_examples;
use ravenshard_studio::persist::{records, SavedReadiness};
use ravenshard_studio::state::ConfigState;
use ravenshard_studio::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlTextAreaElement;

mod common;

use common::{fresh_studio, Mounted};

wasm_bindgen_test_configure!(run_in_browser);

type Studio = Mounted<App>;

const EVERY: &str =
    include_str!("../../crates/ravenshard-check/fixtures/every-finding-record.json");
const CLEAN: &str = include_str!("../../crates/ravenshard-check/fixtures/clean-record.json");
const QUERIES: &str = include_str!("../../crates/ravenshard-check/fixtures/queries.rql");

/// The counts by severity `check` gives `record` and `queries` with the studio's
/// documents under its configuration (the studio opens on the chapter's examples, 3
/// shards on nodes A–D).
fn expected(record: &str, queries: Option<&str>) -> [usize; 4] {
    let config = ConfigState::default();
    let documents = chapter_examples();
    let report = check(&Inputs {
        queries,
        documents: Some(&documents),
        sharding: Some(config.topology().as_ref()),
        ..Inputs::record(record)
    })
    .unwrap();
    Severity::ALL.map(|s| report.count(s))
}

async fn run(studio: &Studio) {
    studio.click("#readiness-run").await;
    studio
        .until("the report", |s| {
            s.find("#readiness-summary").is_some()
                || s.find(".readiness-problem").is_some()
                || s.find(".readiness-failed").is_some()
        })
        .await;
}

fn counts(studio: &Studio) -> [usize; 4] {
    ["blocks", "changes", "note", "not-checked"].map(|key| {
        let text = studio.text(&format!(".readiness-count.{key}"));
        text.split(' ').next().unwrap().parse().unwrap()
    })
}

async fn fresh() -> Studio {
    let studio = fresh_studio().await;
    studio.click("#tab-readiness").await;
    studio
}

#[wasm_bindgen_test]
async fn a_record_with_blocking_features_is_counted_grouped_and_filtered() {
    let studio = fresh().await;
    assert!(studio.get("#readiness-run").has_attribute("disabled"));
    studio.type_into("#readiness-record", EVERY).await;
    studio.type_into("#readiness-queries", QUERIES).await;
    run(&studio).await;
    let want = expected(EVERY, Some(QUERIES));
    // The CLI on the same inputs (the studio's default configuration and its 12 documents
    // written to files): `ravenshard check --config studio-config.json --queries
    // queries.rql every-finding-record.json studio-docs.ndjson` prints "25 blocks, 20
    // changes, 9 note, 2 not checked".
    assert_eq!(want, [25, 20, 9, 2]);
    assert_eq!(counts(&studio), want);
    assert!(studio
        .text("#readiness-summary")
        .contains(&format!("{} findings block sharding", want[0])));
    assert!(studio
        .text("#readiness-summary")
        .contains(&format!("{} documents read", chapter_examples().len())));
    let shown = |s: &Studio| s.count(".readiness-finding") as usize;
    assert_eq!(shown(&studio), want.iter().sum::<usize>());
    assert_eq!(
        studio.count("#readiness-blocks .readiness-finding") as usize,
        want[0]
    );
    // Each finding says where, what to do and where the rule comes from.
    let first = studio.get("#readiness-blocks .readiness-finding");
    assert!(!first
        .query_selector(".readiness-where")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap()
        .is_empty());
    assert!(!first
        .query_selector(".readiness-source")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap()
        .is_empty());
    // Hide what blocks: the others stay.
    studio.fire("#readiness-show-blocks", "change").await;
    assert!(studio.find("#readiness-blocks").is_none());
    assert_eq!(shown(&studio), want[1..].iter().sum::<usize>());
    studio.fire("#readiness-show-blocks", "change").await;
    // One area: only its rules.
    studio.set("#readiness-area", "query", "change").await;
    let rules = studio.count(".readiness-finding[data-area=query]");
    assert!(rules > 0);
    assert_eq!(shown(&studio), rules as usize);
    // A routing finding links to the Queries view.
    studio
        .click(".readiness-finding[data-rule='query.all-shards'] .readiness-link")
        .await;
    assert!(studio.find("#tab-queries[aria-selected=true]").is_some());
}

#[wasm_bindgen_test]
async fn a_clean_record_says_nothing_blocks() {
    let studio = fresh().await;
    studio.type_into("#readiness-record", CLEAN).await;
    run(&studio).await;
    let want = expected(CLEAN, None);
    // The CLI on the same inputs: "0 blocks, 3 changes, 3 note, 0 not checked".
    assert_eq!(want, [0, 3, 3, 0]);
    assert_eq!(counts(&studio), want);
    assert!(
        studio
            .text("#readiness-summary")
            .contains("nothing blocks sharding"),
        "{}",
        studio.text("#readiness-summary")
    );
    assert!(studio.find("#readiness-blocks").is_none());
}

#[wasm_bindgen_test]
async fn bad_input_is_named_with_its_position_and_kept() {
    let studio = fresh().await;
    let broken = "{\"DatabaseName\": \"Shop\",\n  \"Indexes\": [}";
    studio.type_into("#readiness-record", broken).await;
    run(&studio).await;
    let problem = studio.text("#readiness-record-problem");
    assert!(problem.starts_with("record: line 2, column"), "{problem}");
    let area = studio.get("#readiness-record");
    assert_eq!(area.unchecked_ref::<HtmlTextAreaElement>().value(), broken);
    // A loads line that is not Collection.Field is named by its line.
    studio.type_into("#readiness-record", CLEAN).await;
    studio
        .type_into("#readiness-loads", "Orders.Company\nnot a relation")
        .await;
    run(&studio).await;
    let problem = studio.text("#readiness-loads-problem");
    assert!(problem.contains("line 2"), "{problem}");
    assert!(studio.find("#readiness-record-problem").is_none());
}

/// What IndexedDB's saved studio holds of the Readiness view, once `wanted` accepts it
/// (waiting up to ~20 s).
async fn saved_readiness(wanted: impl Fn(Option<&SavedReadiness>) -> bool) -> SavedReadiness {
    let mut last = None;
    for _ in 0..1000 {
        if let Ok(Some(stored)) = records::read_stored().await {
            let readiness = stored.read().unwrap().readiness;
            if wanted(readiness.as_ref()) {
                return readiness.unwrap_or_default();
            }
            last = Some(readiness.map(|r| (r.record.len(), r.queries)));
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("IndexedDB never held the texts wanted (last: record bytes and queries {last:?})");
}

/// The texts pasted are saved by the studio's own autosave, through the host's worker, and
/// shown again when the studio opens next (the App mounted again against the same
/// IndexedDB: a true reload would end the test's run); the restored view shows them and
/// waits to be checked. A record of several MB saves too.
#[wasm_bindgen_test]
async fn the_texts_survive_a_reload() {
    let studio = fresh().await;
    let pad = "x".repeat(4 << 20);
    let record = format!("{{\"DatabaseName\": \"Shop\", \"Pad\": \"{pad}\"}}");
    studio.type_into("#readiness-record", &record).await;
    studio.type_into("#readiness-queries", QUERIES).await;
    let saved = saved_readiness(|r| r.is_some_and(|r| !r.queries.is_empty())).await;
    assert_eq!(
        (saved.record.len(), saved.queries.as_str()),
        (record.len(), QUERIES)
    );
    assert!(saved.record == record && saved.indexes.is_empty() && saved.loads.is_empty());
    drop(studio);
    let studio = Studio::mount(()).await;
    studio.wait_for("#readiness-record").await;
    let value = |s: &Studio, selector: &str| {
        let area = s.get(selector);
        area.unchecked_ref::<HtmlTextAreaElement>().value()
    };
    assert!(
        value(&studio, "#readiness-record") == record,
        "the record is shown again"
    );
    assert_eq!(value(&studio, "#readiness-queries"), QUERIES);
    assert_eq!(value(&studio, "#readiness-loads"), "");
    assert!(
        studio.find("#readiness-summary").is_none(),
        "not checked yet"
    );
    assert!(!studio.get("#readiness-run").has_attribute("disabled"));
    // Emptied, the texts are saved as none.
    studio.type_into("#readiness-record", "").await;
    studio.type_into("#readiness-queries", "").await;
    saved_readiness(|r| r.is_none()).await;
}
