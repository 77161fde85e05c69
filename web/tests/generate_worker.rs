//! Generations made in the studio's worker, in headless Chromium: the workspace is exactly
//! `Generator::generate` placed on the page (same IDs, sizes, collections, bodies, order);
//! a cancel terminates the worker and leaves the workspace as it was; a worker that panics
//! leaves the page usable with a message.
//!
//! The worker here is this test module itself (see `common::use_this_module_as_the_worker`).
#![cfg(target_arch = "wasm32")]

use ravenshard_model::host::question::Documents;
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::Placement;
use ravenshard_studio::jobs::bulk;
use ravenshard_studio::jobs::import::CancelToken;
use ravenshard_studio::state::Placer;
use ravenshard_studio::workers::{client, host, Channel, Reader, BATCH_DOCUMENTS};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

mod common;

use common::jobs::{self, placer, until, Seen};

wasm_bindgen_test_configure!(run_in_browser);

/// Orders placed by company (the generator's bodies name it).
const CONFIGURATION: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    "ByContent": {"Orders": {"Fields": ["Company"], "Range": 1000}}}"#;

fn digits(text: &str) -> String {
    text.chars().filter(char::is_ascii_digit).collect()
}

/// Starts `bulk::generate`; its reports go to the returned `Seen`.
fn start(generator: Generator, placer: Placer, token: &CancelToken) -> Rc<RefCell<Seen>> {
    common::use_this_module_as_the_worker();
    let (job, seen) = jobs::job("Generating", token);
    wasm_bindgen_futures::spawn_local(bulk::generate(generator, placer, job));
    seen
}

#[wasm_bindgen_test]
async fn a_generation_in_the_worker_is_the_one_made_on_the_page() {
    for (documents, anchored_share, seed) in [(BATCH_DOCUMENTS * 2 + 123, 0.3, 1), (60_001, 1.0, 9)]
    {
        let generator = Generator {
            documents,
            anchored_share,
            seed,
        };
        let placer = placer(CONFIGURATION);
        let seen = start(generator, placer, &CancelToken::default());
        until("the generation", || {
            let s = seen.borrow();
            s.loaded.is_some() || s.failed().is_some()
        })
        .await;
        let (failed, loaded) = {
            let s = seen.borrow();
            (s.failed(), s.loaded.clone())
        };
        assert_eq!(failed, None);
        let loaded = loaded.unwrap();
        let expected = generator.generate().unwrap();
        let (made, summary) = jobs::adopted(&loaded).await;
        assert_eq!(made.len(), documents);
        assert_eq!(
            made, expected,
            "same IDs, sizes, collections, bodies, order"
        );
        let whole = Placement::new(&expected, &loaded.placer.topology, &loaded.placer.options);
        assert_eq!(summary.totals, *whole.totals());
        assert_eq!(loaded.summary, None);
        assert!(
            client::instance(Channel::Import).is_none(),
            "the worker is terminated when done"
        );
    }
}

#[wasm_bindgen_test]
async fn settings_the_generator_refuses_stop_the_job_with_its_message() {
    let generator = Generator {
        documents: 100_000,
        anchored_share: 1.5,
        seed: 1,
    };
    let expected = generator.generate().unwrap_err().to_string();
    let seen = start(
        generator,
        placer(r#"{"Shards": {"0": {}}}"#),
        &CancelToken::default(),
    );
    until("the refusal", || seen.borrow().failed().is_some()).await;
    let s = seen.borrow();
    assert!(s.loaded.is_none());
    assert!(s.failed().unwrap().contains(&expected), "{:?}", s.failed());
}

#[wasm_bindgen_test]
async fn a_cancelled_generation_terminates_the_worker() {
    let token = CancelToken::default();
    let generator = Generator {
        documents: 2_000_000,
        ..Generator::default()
    };
    let seen = start(generator, placer(r#"{"Shards": {"0": {}}}"#), &token);
    jobs::cancel_when_working(&seen, &token).await;
}

#[wasm_bindgen_test]
async fn a_panicking_generation_worker_leaves_a_usable_page_with_a_message() {
    let studio = common::fresh_studio().await;
    let before = studio.text(".count-documents strong");
    studio.type_into("#gen-count", "2000000").await;
    studio.click("button.generate").await;
    studio
        .until("the worker", |_| {
            client::instance(Channel::Import).is_some()
        })
        .await;
    assert!(client::tell_panic::<Reader>());
    studio
        .until("the message", |s| {
            s.find(".notice").is_some_and(|n| {
                n.text_content()
                    .unwrap_or_default()
                    .contains("asked to panic")
            })
        })
        .await;
    let notice = studio.text(".notice");
    assert!(notice.contains("unchanged"), "{notice}");
    assert_eq!(studio.text(".count-documents strong"), before);
    // The page still generates: a new worker makes the next one.
    studio.type_into("#gen-count", "60000").await;
    studio.click("button.generate").await;
    studio
        .until("the next generation", |s| {
            digits(&s.text(".count-documents strong")) == "60000"
        })
        .await;
    // The host staged the batches as they came and adopted them: it holds the same
    // documents, and its figures are the page's (else an error notice says otherwise).
    until("the host", host::is_idle).await;
    let last = Documents {
        start: 59_999,
        end: 60_000,
    };
    let answered = host::answer(last).await.expect("the host answers");
    let made = Generator {
        documents: 60_000,
        anchored_share: 0.5,
        seed: 1,
    }
    .generate()
    .unwrap();
    assert_eq!(*answered.answer, [made[59_999].clone()]);
    assert!(
        studio.find(".notice.error, .notice.warning").is_none(),
        "{}",
        studio.text(".notices")
    );
    client::terminate();
}
