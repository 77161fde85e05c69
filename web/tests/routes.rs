//! Browser tests of the views' addresses (yew-router's `HashRouter`): an address opens its
//! view, a tab or a group sets it, Back goes back a view, a share link with an address
//! opens both, an older share link (no address) still opens, and an address that names no
//! view is replaced.
//!
//! Run with `cd web && CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown --test routes`.
#![cfg(target_arch = "wasm32")]

use ravenshard_studio::state::Tab;
use ravenshard_studio::App;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

mod common;

use common::{studio_at, Mounted};

wasm_bindgen_test_configure!(run_in_browser);

/// The URL fragment.
fn hash() -> String {
    gloo::utils::window().location().hash().unwrap()
}

/// Waits until the address is `want`.
async fn address_is(studio: &Mounted<App>, want: &str) {
    studio
        .until(&format!("the address {want}"), |_| hash() == want)
        .await;
}

/// Checks that the panel shows `tab`'s view, its tab selected and its group's tabs shown.
fn shows(studio: &Mounted<App>, tab: Tab) {
    let panel = studio.get("#view-panel");
    let view = format!("view-{}", tab.key());
    assert!(
        panel.class_name().split(' ').any(|c| c == view),
        "{}",
        panel.class_name()
    );
    let selected = studio.get(&format!("#tab-{}", tab.key()));
    assert_eq!(
        selected.get_attribute("aria-selected").as_deref(),
        Some("true")
    );
    for t in Tab::all() {
        let hidden = studio
            .get(&format!("#tab-{}", t.key()))
            .has_attribute("hidden");
        assert_eq!(hidden, t.group() != tab.group(), "{t:?} beside {tab:?}");
    }
    let group = studio.get(&format!("#group-{}", tab.group().key()));
    assert_eq!(group.get_attribute("aria-current").as_deref(), Some("true"));
    assert_eq!(studio.count(".tab-group[aria-current]"), 1);
}

#[wasm_bindgen_test]
async fn an_address_opens_its_view_and_every_view_has_one() {
    let studio = studio_at("#/map").await;
    shows(&studio, Tab::Map);
    assert_eq!(hash(), "#/map");
    drop(studio);
    for tab in Tab::all() {
        let studio = studio_at(&format!("#/{}", tab.key())).await;
        shows(&studio, tab);
    }
}

#[wasm_bindgen_test]
async fn a_tab_or_a_group_sets_the_address_and_back_goes_back_a_view() {
    let studio = studio_at("").await;
    shows(&studio, Tab::Documents);
    address_is(&studio, "#/documents").await;
    studio.click("#tab-explain").await;
    address_is(&studio, "#/explain").await;
    shows(&studio, Tab::Explain);
    studio.click("#group-operate").await;
    address_is(&studio, "#/reshard").await;
    shows(&studio, Tab::Reshard);
    studio.click("#tab-readiness").await;
    address_is(&studio, "#/readiness").await;
    let history = gloo::utils::window().history().unwrap();
    history.back().unwrap();
    address_is(&studio, "#/reshard").await;
    studio
        .until("the Resharding view", |s| s.find(".view-reshard").is_some())
        .await;
    shows(&studio, Tab::Reshard);
    history.back().unwrap();
    address_is(&studio, "#/explain").await;
    studio
        .until("the Explain view", |s| s.find(".view-explain").is_some())
        .await;
    shows(&studio, Tab::Explain);
    history.forward().unwrap();
    studio
        .until("the Resharding view again", |s| {
            s.find(".view-reshard").is_some()
        })
        .await;
    assert_eq!(hash(), "#/reshard");
}

#[wasm_bindgen_test]
async fn a_share_link_with_an_address_opens_its_view_and_its_state() {
    let link = "shards=5&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4";
    let studio = studio_at(&format!("#/shards?{link}")).await;
    shows(&studio, Tab::Shards);
    assert_eq!(studio.text(".count-shards strong"), "5");
    assert_eq!(studio.text(".count-documents strong"), "2");
    assert!(studio.text(".notice").contains("shared link"));
    // Another view keeps the state in the address: a reload opens the same link there.
    studio.click("#tab-map").await;
    address_is(&studio, &format!("#/map?{link}")).await;
    drop(studio);
    let studio = studio_at(&hash()).await;
    shows(&studio, Tab::Map);
    assert_eq!(studio.text(".count-shards strong"), "5");
}

#[wasm_bindgen_test]
async fn an_older_share_link_still_opens_and_gets_an_address() {
    let link = "shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4";
    let studio = studio_at(&format!("#{link}")).await;
    shows(&studio, Tab::Documents);
    assert_eq!(studio.count(".dt-row"), 2);
    assert_eq!(studio.text(".count-shards strong"), "3");
    address_is(&studio, &format!("#/documents?{link}")).await;
}

#[wasm_bindgen_test]
async fn an_address_that_names_no_view_is_replaced_by_the_view_shown() {
    let studio = studio_at("#/heatmap").await;
    address_is(&studio, "#/documents").await;
    shows(&studio, Tab::Documents);
    let notice = studio.text(".notice");
    assert!(notice.contains("names no view"), "{notice}");
    assert!(notice.contains("#/map"), "{notice}");
}
