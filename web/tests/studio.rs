//! Browser tests: mount the real [`App`], type into it as a user would, read the DOM.
//!
//! Run with `cd web && CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown` (the runner reads `web/webdriver.json` for Chromium's flags).
#![cfg(target_arch = "wasm32")]

use ravenshard_studio::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, Event, EventInit, HtmlInputElement, HtmlTextAreaElement};
use yew::AppHandle;

wasm_bindgen_test_configure!(run_in_browser);

/// An `App` mounted in its own `<div>`; unmounted and removed on drop.
struct Studio {
    root: Element,
    handle: Option<AppHandle<App>>,
}

impl Studio {
    async fn mount() -> Studio {
        let document = gloo::utils::document();
        let root = document.create_element("div").unwrap();
        gloo::utils::body().append_child(&root).unwrap();
        let handle = yew::Renderer::<App>::with_root(root.clone()).render();
        yew::scheduler::flush().await;
        Studio {
            root,
            handle: Some(handle),
        }
    }

    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    fn get(&self, selector: &str) -> Element {
        self.find(selector)
            .unwrap_or_else(|| panic!("no element matches {selector:?}"))
    }

    fn text(&self, selector: &str) -> String {
        self.get(selector).text_content().unwrap_or_default()
    }

    fn count(&self, selector: &str) -> u32 {
        self.root.query_selector_all(selector).unwrap().length()
    }

    /// Sets a field's value and fires `input`, as typing does, then lets yew render.
    async fn type_into(&self, selector: &str, value: &str) {
        let element = self.get(selector);
        if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
            area.set_value(value);
        } else {
            element.unchecked_ref::<HtmlInputElement>().set_value(value);
        }
        let init = EventInit::new();
        init.set_bubbles(true);
        let event = Event::new_with_event_init_dict("input", &init).unwrap();
        element.dispatch_event(&event).unwrap();
        yew::scheduler::flush().await;
    }

    /// The text of one cell (`.bucket`, `.shard`...) of the row of an editor line.
    fn cell(&self, line: usize, class: &str) -> String {
        self.text(&format!("tr[data-line=\"{line}\"] td.{class}"))
            .trim()
            .to_string()
    }

    /// How many IDs the summary card of a shard shows.
    fn shard_documents(&self, shard: u32) -> String {
        self.text(&format!("li[data-shard=\"{shard}\"] .documents"))
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
        self.root.remove();
    }
}

#[wasm_bindgen_test]
async fn opens_on_the_sample_with_buckets_and_shards() {
    let studio = Studio::mount().await;
    assert_eq!(studio.count("tbody tr"), 10);
    // Line 2 is customers/1-A.
    assert_eq!(studio.text("tr[data-line=\"2\"] mark"), "customers/1-A");
    assert_eq!(studio.cell(2, "bucket"), "982173");
    assert_eq!(studio.cell(2, "shard"), "2");
    assert_eq!(studio.cell(2, "fragment"), "Orders$2");
    // Line 3 is anchored: only the part after '$' is marked, and it shares the bucket.
    assert_eq!(studio.text("tr[data-line=\"3\"] mark"), "customers/1-A");
    assert_eq!(studio.text("tr[data-line=\"3\"] .unhashed"), "orders/2-A$");
    assert_eq!(studio.cell(3, "bucket"), "982173");
    assert_eq!(studio.count("li.shard-card"), 3);
    let total: u32 = (0..3)
        .map(|s| studio.shard_documents(s).parse::<u32>().unwrap())
        .sum();
    assert_eq!(total, 10);
}

#[wasm_bindgen_test]
async fn typing_ids_updates_the_table() {
    let studio = Studio::mount().await;
    studio
        .type_into("#ids", "\ncustomers/1-A\n\nUsers/70$Users/4")
        .await;
    assert_eq!(studio.count("tbody tr"), 2);
    assert_eq!(studio.cell(2, "bucket"), "982173");
    assert_eq!(studio.cell(2, "shard"), "2");
    assert_eq!(studio.text("tr[data-line=\"4\"] mark"), "Users/4");
    assert_eq!(studio.shard_documents(2), "1");
    assert_eq!(studio.text(".count-ids strong"), "2");

    studio.type_into("#ids", "").await;
    assert_eq!(studio.count("tbody tr"), 0);
    assert!(
        studio.find(".empty").is_some(),
        "an empty editor says what to do"
    );
}

#[wasm_bindgen_test]
async fn shard_count_changes_the_shards() {
    let studio = Studio::mount().await;
    studio.type_into("#shard-count", "1").await;
    assert_eq!(studio.count("li.shard-card"), 1);
    assert_eq!(studio.shard_documents(0), "10");
    assert_eq!(studio.cell(2, "shard"), "0");
    assert_eq!(studio.cell(2, "fragment"), "Orders$0");
    assert_eq!(studio.cell(2, "bucket"), "982173");

    studio.type_into("#shard-count", "1024").await;
    assert_eq!(studio.cell(2, "shard"), "959");
    // Of 1024 shards, only those that hold IDs get a card: the sample's 10 IDs fall in 5
    // distinct buckets, on 5 shards.
    let note = studio.text(".shard-note");
    assert!(
        note.starts_with("5 of 1024 shards hold these IDs"),
        "{note}"
    );
    assert_eq!(studio.count("li.shard-card"), 5);
    assert_eq!(studio.shard_documents(959), "3");

    // Invalid counts are shown and not applied.
    studio.type_into("#shard-count", "5000").await;
    let error = studio.text("#shard-count-error");
    assert!(error.contains("1 to 1024"), "{error}");
    assert!(error.contains("Still showing 1024 shards"), "{error}");
    assert_eq!(studio.count("li.shard-card"), 5);
    assert_eq!(studio.cell(2, "shard"), "959");

    studio.type_into("#shard-count", "3").await;
    assert!(studio.find("#shard-count-error").is_none());
    assert_eq!(studio.cell(2, "shard"), "2");
}

#[wasm_bindgen_test]
async fn errors_and_warnings_show_on_their_line() {
    let studio = Studio::mount().await;
    let text = format!("customers/1-A\n{}\nUsers/4$", "x".repeat(513));
    studio.type_into("#ids", &text).await;
    assert_eq!(studio.count("tbody tr"), 3);
    assert!(studio.find("tr[data-line=\"2\"].invalid").is_some());
    let error = studio.cell(2, "error");
    assert!(error.contains("cannot exceed 512 bytes"), "{error}");
    assert!(error.contains("513 bytes"), "{error}");
    assert_eq!(studio.cell(1, "bucket"), "982173");
    let warning = studio.text("tr[data-line=\"3\"] .warning");
    assert!(warning.contains("ends with '$'"), "{warning}");
    assert_eq!(studio.text(".count-invalid strong"), "1");
    assert_eq!(studio.text(".count-warned strong"), "1");
}

#[wasm_bindgen_test]
async fn database_name_names_the_fragments() {
    let studio = Studio::mount().await;
    studio.type_into("#database", "Shop").await;
    assert_eq!(studio.cell(2, "fragment"), "Shop$2");
    assert_eq!(studio.text("li[data-shard=\"2\"] .fragment"), "Shop$2");
    studio.type_into("#database", "Shop$").await;
    assert!(studio.text("#database-error").contains("'$'"));
    assert_eq!(studio.cell(2, "fragment"), "Shop$2");
}

#[wasm_bindgen_test]
async fn a_huge_paste_renders_only_the_first_rows() {
    let studio = Studio::mount().await;
    let text: String = (0..1500).map(|i| format!("orders/{i}-A\n")).collect();
    studio.type_into("#ids", &text).await;
    assert_eq!(studio.count("tbody tr"), 1000);
    let note = studio.text(".cap-note");
    assert!(note.contains("first 1000 of 1500"), "{note}");
    assert_eq!(studio.text(".count-placed strong"), "1500");
}

#[wasm_bindgen_test]
async fn sample_and_clear_buttons() {
    let studio = Studio::mount().await;
    studio
        .get("button.clear")
        .unchecked_ref::<web_sys::HtmlElement>()
        .click();
    yew::scheduler::flush().await;
    assert_eq!(studio.count("tbody tr"), 0);
    assert_eq!(
        studio
            .get("#ids")
            .unchecked_ref::<HtmlTextAreaElement>()
            .value(),
        ""
    );
    studio
        .get("button.sample")
        .unchecked_ref::<web_sys::HtmlElement>()
        .click();
    yew::scheduler::flush().await;
    assert_eq!(studio.count("tbody tr"), 10);
}
