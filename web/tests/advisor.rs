//! The Advisor view and the studio's workers in headless Chromium: a run goes to the
//! advisor's worker and back, its anchor rewrites the workspace's IDs, a worker that
//! panics leaves a usable page with a message and is started again, and the workspace's
//! generated documents with bodies are advised on by the host's worker, with no file.
//!
//! The worker here is this test module itself (`common::use_this_module_as_the_worker`):
//! each role's worker loads it and registers its role (`register_worker`), as the built
//! studio's workers load the page's module.
#![cfg(target_arch = "wasm32")]

use ravenshard_studio::workers::{client, host, Channel};
use ravenshard_studio::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};

mod common;

use common::{fresh_studio, Mounted};

wasm_bindgen_test_configure!(run_in_browser);

type Studio = Mounted<App>;

/// 200 companies, `orders` orders naming them round robin, as NDJSON.
fn ndjson(orders: usize) -> String {
    let mut text = String::new();
    for c in 1..=200 {
        text += &format!("{{\"Name\": \"C{c}\", \"@metadata\": {{\"@id\": \"companies/{c}-A\", \"@collection\": \"Companies\"}}}}\n");
    }
    for o in 1..=orders {
        text += &format!(
            "{{\"Company\": \"companies/{}-A\", \"@metadata\": {{\"@id\": \"orders/{o}-A\", \"@collection\": \"Orders\"}}}}\n",
            o % 200 + 1
        );
    }
    text
}

fn files(name: &str, text: &str) -> web_sys::DataTransfer {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(text.as_bytes()));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, name).unwrap();
    let transfer = web_sys::DataTransfer::new().unwrap();
    transfer.items().add_with_file(&file).unwrap();
    transfer
}

/// Chooses a file through an `<input type=file>`, as a user does.
async fn choose(studio: &Studio, input: &str, name: &str, text: &str) {
    let transfer = files(name, text);
    let element = studio.get(input);
    element
        .unchecked_ref::<HtmlInputElement>()
        .set_files(transfer.files().as_ref());
    studio.fire(input, "change").await;
}

async fn fresh() -> Studio {
    let studio = fresh_studio().await;
    studio.click("#tab-advisor").await;
    studio
}

async fn advise(studio: &Studio) {
    advise_by(studio, "#advisor-run").await;
}

/// Clicks the run `button` and waits for the advice.
async fn advise_by(studio: &Studio, button: &str) {
    studio.click(button).await;
    studio
        .until("the advice", |s| {
            s.find(".advisor-collection").is_some() || s.find(".advisor-failed").is_some()
        })
        .await;
    assert!(
        studio.find(".advisor-failed").is_none(),
        "{}",
        studio.text(".advisor-failed")
    );
}

/// Applies the anchor on Company of the collection `section`, and waits for `notice`.
async fn apply_anchor(studio: &Studio, section: &str, notice: &str) {
    let button = "button.advisor-apply[data-candidate=\"anchor on Company\"]";
    studio.click(&format!("{section} {button}")).await;
    studio
        .until("the rewrite", |s| s.text(".notices").contains(notice))
        .await;
}

#[wasm_bindgen_test]
async fn the_advisor_runs_in_the_worker_and_its_anchor_rewrites_the_workspace() {
    let studio = fresh().await;
    assert!(studio.get("#advisor-run").has_attribute("disabled"));
    let text = ndjson(2000);
    // The same export in the workspace (the Documents panel's import) and in the advisor.
    choose(&studio, "#import-file", "orders.ndjson", &text).await;
    studio
        .until("the import", |s| s.text(".doc-count").starts_with("2,200 "))
        .await;
    choose(&studio, "#advisor-file", "orders.ndjson", &text).await;
    assert!(studio.text(".advisor-file-name").contains("orders.ndjson"));
    studio
        .type_into(
            "#advisor-queries",
            "from Orders where Company = 'companies/1-A'",
        )
        .await;
    studio.type_into("#advisor-loads", "Orders.Company").await;
    advise(&studio).await;
    let orders = "section.advisor-collection[data-collection=\"Orders\"]";
    // With a query on Company, the draft's content rule routes it to one shard and wins.
    let recommended = studio.text(&format!("{orders} thead th.recommended"));
    assert!(
        recommended.starts_with("content on Company"),
        "{recommended}"
    );
    let reason = studio.text(&format!("{orders} .reason"));
    assert!(
        reason.contains("Recommended: content on Company.") && reason.contains("draft"),
        "{reason}"
    );
    assert!(studio
        .find(&format!("{orders} thead th[data-strategy=\"anchor\"]"))
        .is_some());
    assert!(studio
        .text(&format!("{orders} .references"))
        .contains("Company → Companies (100.0%, loaded)"));
    assert_eq!(studio.count(&format!("{orders} thead th.recommended")), 1);
    assert!(studio.count(&format!("{orders} .mini-bar")) >= 6);
    // Apply the anchor: the worker sends the rewrites, the workspace takes them.
    let notice = "Applied anchor on Company (Orders): 2000 IDs rewritten.";
    apply_anchor(&studio, orders, notice).await;
    studio.click("#tab-documents").await;
    let editor = studio
        .get("#ids")
        .unchecked_into::<HtmlTextAreaElement>()
        .value();
    assert!(editor.contains("orders/1-A$companies/2-A"), "{editor}");
    client::terminate();
}

#[wasm_bindgen_test]
async fn a_panicking_worker_leaves_a_usable_page_with_a_message_and_starts_again() {
    let studio = fresh().await;
    studio.click("#advisor-debug-panic").await;
    studio
        .until("the crash message", |s| s.find(".advisor-crash").is_some())
        .await;
    assert!(
        studio.text(".advisor-crash").contains("asked to panic"),
        "{}",
        studio.text(".advisor-crash")
    );
    assert!(studio
        .text(".notices")
        .contains("The studio's worker stopped"));
    assert!(client::instance(Channel::Advisor).is_none());
    // The page still answers: the Documents view follows typed IDs.
    studio.click("#tab-documents").await;
    studio
        .type_into("#ids", "orders/1-A\ncompanies/1-A\n")
        .await;
    studio
        .until("the typed IDs", |s| s.text(".doc-count").starts_with("2 "))
        .await;
    // And a new worker advises.
    studio.click("#tab-advisor").await;
    choose(&studio, "#advisor-file", "orders.ndjson", &ndjson(30)).await;
    advise(&studio).await;
    assert!(studio.find(".advisor-crash").is_none());
    assert!(client::instance(Channel::Advisor).is_some());
    client::terminate();
}

#[wasm_bindgen_test]
async fn a_run_can_be_cancelled_and_run_again() {
    let studio = fresh().await;
    choose(&studio, "#advisor-file", "orders.ndjson", &ndjson(60_000)).await;
    studio.click("#advisor-run").await;
    assert!(studio.find("#advisor-cancel").is_some());
    studio.click("#advisor-cancel").await;
    assert!(studio.text(".advisor-failed").contains("Cancelled"));
    assert!(client::instance(Channel::Advisor).is_none());
    assert!(!studio.get("#advisor-run").has_attribute("disabled"));
    choose(&studio, "#advisor-file", "orders.ndjson", &ndjson(30)).await;
    advise(&studio).await;
    client::terminate();
}

#[wasm_bindgen_test]
async fn generated_documents_with_bodies_are_advised_on_in_the_workspace_without_a_file() {
    let studio = fresh().await;
    // The chapter's examples: two orders have a body.
    assert_eq!(
        studio.text("#advisor-run-workspace"),
        "Advise on the workspace's 2 documents with bodies"
    );
    studio.type_into("#gen-count", "6000").await;
    studio.click("button.generate").await;
    studio
        .until("the generation", |s| {
            s.text(".count-documents strong").replace(',', "") == "6000"
        })
        .await;
    studio.click("#tab-advisor").await;
    let offer = studio.text("#advisor-run-workspace");
    assert!(
        offer.starts_with("Advise on the workspace's ")
            && offer.ends_with(" documents with bodies"),
        "{offer}"
    );
    studio.type_into("#advisor-loads", "Orders.Company").await;
    advise_by(&studio, "#advisor-run-workspace").await;
    assert!(
        studio
            .text(".advice-summary")
            .starts_with("6,000 documents in 3 collections"),
        "{}",
        studio.text(".advice-summary")
    );
    let orders = "section.advisor-collection[data-collection=\"Orders\"]";
    let references = studio.text(&format!("{orders} .references"));
    assert!(
        references.contains("Company → Companies (100.0%, loaded)"),
        "{references}"
    );
    assert_eq!(studio.count(&format!("{orders} thead th.recommended")), 1);
    // The documents stayed in the host's worker: the advisor's was never started.
    assert!(client::instance(Channel::Advisor).is_none());
    // Its anchor is applied from the host's documents.
    apply_anchor(&studio, orders, "Applied anchor on Company (Orders): ").await;
    studio.until("the host", |_| host::is_idle()).await;
    let notices = studio.text(".notices");
    assert!(notices.contains(" IDs rewritten."), "{notices}");
    client::terminate();
}
