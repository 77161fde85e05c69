//! Browser tests of the editors: mount each component alone with a callback that records
//! what it emits, act on the DOM as a user would, check the DOM and the emitted JSON.
//!
//! Run with `cd web && CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown --test editors`.
#![cfg(target_arch = "wasm32")]

use ravenshard::Topology;
use ravenshard_design::content::{ContentDesign, ContentRule, Field};
use ravenshard_model::host::Change;
use ravenshard_model::workspace::Document;
use ravenshard_studio::widgets::{
    BucketMap, BucketMapProps, ConfigJson, ConfigJsonProps, ContentRulesEditor,
    ContentRulesEditorProps, MapDocuments, PrefixEditor, PrefixEditorProps, RangeEditor,
    RangeEditorProps,
};
use ravenshard_studio::workers::host::{self, HostNews};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::js_sys::{Array, Function, Object, Reflect};
use web_sys::{
    DomRect, Element, Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlTextAreaElement,
    KeyboardEvent, KeyboardEventInit, PointerEvent, PointerEventInit,
};
use yew::{function_component, html, use_state, BaseComponent, Callback, Html, Properties};

mod common;

use common::jobs::until;
use common::{fire, Mounted};

wasm_bindgen_test_configure!(run_in_browser);

/// `documents` placed by `topology` in a fresh host's worker (this test module), and what a
/// bucket map draws of them: the host's bins, at the version of that change.
async fn hosted(documents: &[Document], topology: &Topology) -> (MapDocuments, u64) {
    common::use_this_module_as_the_worker();
    let heard: Rc<Cell<(u32, u64)>> = Rc::default();
    let keep = Rc::clone(&heard);
    host::listen(Callback::from(move |news| {
        if let HostNews::Changed { changed, .. } = news {
            keep.set((keep.get().0 + 1, changed.version));
        }
    }));
    let configuration = topology.to_json();
    let database = topology.database().to_string();
    host::change(
        1,
        Change::Configure {
            configuration,
            database,
        },
    );
    let documents = documents.to_vec();
    host::change(2, Change::Replace { documents });
    until("the host's documents", || heard.get().0 == 2).await;
    let version = heard.get().1;
    let configuration = None;
    (
        MapDocuments::Host {
            version,
            configuration,
        },
        version,
    )
}

/// Waits until the host answered every question asked (a bucket map's bins after a zoom,
/// the bucket a click selects), then renders.
async fn settled() {
    until("the host's answers", host::is_idle).await;
    yew::scheduler::flush().await;
}

/// Mounts a bucket map and waits until it drew the host's bins of `version`.
async fn mounted_map(props: BucketMapProps, version: u64) -> Mounted<BucketMap> {
    let map = Mounted::<BucketMap>::mount(props).await;
    map.wait_for(&format!(".bucket-map[data-version=\"{version}\"]"))
        .await;
    map
}

/// A bucket map of `documents` placed by `topology`, lit as `lit_shards` says, that selects
/// nothing and highlights nothing, once it drew the host's bins.
async fn plain_map(
    documents: &[Document],
    topology: Rc<Topology>,
    lit_shards: Option<Rc<Vec<u32>>>,
) -> Mounted<BucketMap> {
    let (documents, version) = hosted(documents, &topology).await;
    let props = BucketMapProps {
        topology,
        documents,
        highlight: None,
        lit_shards,
        on_select_bucket: Callback::noop(),
    };
    mounted_map(props, version).await
}

/// Fires a bubbling mouse event at client coordinates (built through the page's
/// `MouseEvent` constructor).
fn mouse(element: &Element, kind: &str, client_x: f64, client_y: f64) {
    mouse_with_buttons(element, kind, client_x, client_y, 0);
}

/// [`mouse`] with `buttons` pressed (1: the primary button).
fn mouse_with_buttons(element: &Element, kind: &str, client_x: f64, client_y: f64, buttons: u16) {
    let init = Object::new();
    Reflect::set(&init, &"buttons".into(), &buttons.into()).unwrap();
    Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    Reflect::set(&init, &"clientX".into(), &client_x.into()).unwrap();
    Reflect::set(&init, &"clientY".into(), &client_y.into()).unwrap();
    let constructor: Function = Reflect::get(&gloo::utils::window(), &"MouseEvent".into())
        .unwrap()
        .unchecked_into();
    let args = Array::of2(&JsValue::from_str(kind), &init);
    let event: Event = Reflect::construct(&constructor, &args)
        .unwrap()
        .unchecked_into();
    element.dispatch_event(&event).unwrap();
}

/// Fires a wheel event (scrolling up by `delta_y` < 0 zooms in) at `client_x`.
fn wheel(element: &Element, client_x: f64, delta_y: f64) {
    let init = Object::new();
    Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    Reflect::set(&init, &"cancelable".into(), &true.into()).unwrap();
    Reflect::set(&init, &"clientX".into(), &client_x.into()).unwrap();
    Reflect::set(&init, &"deltaY".into(), &delta_y.into()).unwrap();
    let constructor: Function = Reflect::get(&gloo::utils::window(), &"WheelEvent".into())
        .unwrap()
        .unchecked_into();
    let args = Array::of2(&JsValue::from_str("wheel"), &init);
    let event: Event = Reflect::construct(&constructor, &args)
        .unwrap()
        .unchecked_into();
    element.dispatch_event(&event).unwrap();
    assert!(
        event.default_prevented(),
        "the map keeps the page from scrolling"
    );
}

/// Fires a bubbling pointer event (`pointerdown`, `pointermove`, `pointerup`...) of the
/// mouse (pointer 1, primary button held from down to up) at `client_x`.
fn pointer(element: &Element, kind: &str, client_x: i32) {
    let init = PointerEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_pointer_id(1);
    init.set_pointer_type("mouse");
    init.set_is_primary(true);
    init.set_button(if kind == "pointermove" { -1 } else { 0 });
    init.set_buttons(u16::from(kind != "pointerup"));
    init.set_client_x(client_x);
    let event = PointerEvent::new_with_event_init_dict(kind, &init).unwrap();
    element.dispatch_event(&event).unwrap();
}

/// Fires a bubbling `keydown` of `key` (with Shift when `shift`).
fn key_down(element: &Element, key: &str, shift: bool) {
    let init = KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_key(key);
    init.set_shift_key(shift);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    element.dispatch_event(&event).unwrap();
}

/// A callback that records what it is called with.
fn recorder<T: 'static>() -> (Callback<T>, Rc<RefCell<Vec<T>>>) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    (Callback::from(move |v| sink.borrow_mut().push(v)), seen)
}

/// The one configuration an editor emitted (else fails, with the editor's error message).
fn only_emission<C: BaseComponent>(editor: &Mounted<C>, emitted: &RefCell<Vec<String>>) -> String {
    let emitted = emitted.borrow();
    assert_eq!(
        emitted.len(),
        1,
        "{:?}",
        editor.find(".editor-error").map(|e| e.text_content())
    );
    emitted[0].clone()
}

fn three_shards() -> Rc<Topology> {
    Rc::new(Topology::with_shards(3).unwrap())
}

/// A prefix editor over `topology`, and what it emits.
async fn prefix_editor(
    topology: Rc<Topology>,
) -> (Mounted<PrefixEditor>, Rc<RefCell<Vec<String>>>) {
    let (on_change, emitted) = recorder::<String>();
    let editor = Mounted::<PrefixEditor>::mount(PrefixEditorProps {
        topology,
        on_change,
    })
    .await;
    (editor, emitted)
}

/// A range editor over three shards, and what it emits.
async fn range_editor() -> (Mounted<RangeEditor>, Rc<RefCell<Vec<String>>>) {
    let (on_change, emitted) = recorder::<String>();
    let editor = Mounted::<RangeEditor>::mount(RangeEditorProps {
        topology: three_shards(),
        on_change,
    })
    .await;
    (editor, emitted)
}

#[wasm_bindgen_test]
async fn bucket_map_draws_zooms_hovers_and_selects() {
    let topology = three_shards();
    let documents: Vec<Document> = (0..500)
        .map(|i| Document::new(format!("orders/{i}-A")))
        .collect();
    let (documents, version) = hosted(&documents, &topology).await;
    let (on_select_bucket, selected) = recorder::<u32>();
    let map = mounted_map(
        BucketMapProps {
            topology,
            documents,
            highlight: Some(Rc::new(vec![982173])),
            lit_shards: None,
            on_select_bucket,
        },
        version,
    )
    .await;

    let canvas: HtmlCanvasElement = map.get("canvas.map-canvas").unchecked_into();
    assert!(canvas.width() > 0 && canvas.height() > 0);
    let rect = canvas.get_bounding_client_rect();
    assert!(rect.width() > 0.0 && rect.height() > 0.0);
    assert_eq!(map.text(".axis-start"), "0");
    assert_eq!(map.text(".axis-end"), "1,048,575");
    assert!(map.text(".axis-highlight").contains("1 highlighted"));

    let whole = map.text(".map-range");
    assert!(whole.contains("1,048,576 buckets"), "{whole}");
    map.click("button.zoom-in").await;
    let zoomed = map.text(".map-range");
    assert_ne!(zoomed, whole);
    assert!(zoomed.contains("524,288 buckets"), "{zoomed}");
    assert_eq!(map.text(".axis-start"), "262,144");
    map.click("button.pan-right").await;
    assert_eq!(map.text(".axis-start"), "393,216");
    map.click("button.zoom-reset").await;
    assert_eq!(map.text(".map-range"), whole);
    settled().await;

    // Hover shows the bin's buckets, shard and documents.
    let (x, y) = (rect.left() + 0.5, rect.top() + 60.0);
    mouse(&canvas, "mousemove", x, y);
    yew::scheduler::flush().await;
    let tip = map.text(".map-tooltip");
    assert!(tip.starts_with("Buckets 0 – "), "{tip}");
    assert!(tip.contains("shard 0"), "{tip}");
    assert!(tip.contains("document"), "{tip}");
    // The canvas is patched, never replaced (its wheel listener stays attached).
    assert!(map.get("canvas.map-canvas") == *canvas.unchecked_ref::<Element>());
    mouse(&canvas, "mouseout", x, y);
    yew::scheduler::flush().await;
    assert!(map.find(".map-tooltip").is_none());

    // Clicking selects a bucket in the clicked bin.
    mouse(&canvas, "mousedown", x, y);
    mouse(&canvas, "click", x, y);
    settled().await;
    let first = selected.borrow().clone();
    assert_eq!(first.len(), 1);
    assert!(first[0] < 1 << 20);

    // The wheel zooms around the pointer: at the left edge, the view keeps bucket 0.
    wheel(&canvas, rect.left(), -200.0);
    yew::scheduler::flush().await;
    assert_eq!(map.text(".axis-start"), "0");
    assert!(map.text(".map-range").contains("524,288 buckets"));
    wheel(&canvas, rect.left(), 400.0);
    yew::scheduler::flush().await;
    assert_eq!(map.text(".map-range"), whole);

    // Density mode redraws without trouble.
    map.click("button.mode-density").await;
    assert_eq!(
        map.get("button.mode-density")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
async fn bucket_map_shows_each_prefix_block() {
    let json = r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#;
    let topology = Rc::new(Topology::from_json(json).unwrap());
    let map = plain_map(&[Document::new("eu/1")], topology, None).await;
    assert_eq!(
        map.root
            .query_selector_all(".block-select option")
            .unwrap()
            .length(),
        2
    );
    map.set(".block-select", "1048576", "change").await;
    assert_eq!(map.text(".axis-start"), "1,048,576");
    assert_eq!(map.text(".axis-end"), "2,097,151");
    assert!(map.find(".map-legend li[data-shard=\"1\"]").is_some());
    assert!(map.find(".map-legend li[data-shard=\"0\"]").is_none());
}

#[wasm_bindgen_test]
async fn bucket_map_pans_by_dragging_without_selecting() {
    let topology = three_shards();
    let (documents, version) = hosted(&[], &topology).await;
    let (on_select_bucket, selected) = recorder::<u32>();
    let map = mounted_map(
        BucketMapProps {
            topology,
            documents,
            highlight: None,
            lit_shards: None,
            on_select_bucket,
        },
        version,
    )
    .await;
    map.click("button.zoom-in").await;
    assert_eq!(map.text(".axis-start"), "262,144");
    let canvas = map.get("canvas.map-canvas");
    let rect = canvas.get_bounding_client_rect();
    let (x, y) = (rect.left() + rect.width() / 2.0, rect.top() + 50.0);
    mouse_with_buttons(&canvas, "mousedown", x, y, 1);
    mouse_with_buttons(&canvas, "mousemove", x - rect.width() / 4.0, y, 1);
    mouse_with_buttons(&canvas, "click", x - rect.width() / 4.0, y, 0);
    settled().await;
    // Dragging left by a quarter of the width shows buckets a quarter of the view higher.
    assert_eq!(map.text(".axis-start"), "393,216");
    assert!(selected.borrow().is_empty(), "a drag is not a click");
}

/// Waits until the heatmap drew the host's bins of a grid of `cells` cells.
async fn heat_drawn(map: &Mounted<BucketMap>, cells: u64) {
    settled().await;
    map.wait_for(&format!(".heatmap[data-cells=\"{cells}\"]"))
        .await;
}

/// The heatmap's hint: what a click on a cell does.
fn click_hint(map: &Mounted<BucketMap>) -> String {
    map.text(".heat-legend .hint")
}

#[wasm_bindgen_test]
async fn the_heatmap_drills_down_to_a_bucket_and_selects_it() {
    let topology = three_shards();
    // customers/1-A is in bucket 982,173 (shard 2 of 3): hover and click where it is drawn.
    let documents = [Document::new("customers/1-A"), Document::new("orders/1-A")];
    let (documents, version) = hosted(&documents, &topology).await;
    let (on_select_bucket, selected) = recorder::<u32>();
    let props = BucketMapProps {
        topology,
        documents,
        highlight: None,
        lit_shards: None,
        on_select_bucket,
    };
    let map = mounted_map(props, version).await;
    heat_drawn(&map, 8192).await;
    let canvas = map.get("canvas.heat-canvas");
    let label = canvas.get_attribute("aria-label").unwrap_or_default();
    assert!(
        label.contains("64 rows of 128 cells, 128 buckets each"),
        "{label}"
    );
    assert!(
        map.text(".heat-high").contains("1 documents"),
        "{}",
        map.text(".heat-high")
    );
    assert!(click_hint(&map).contains("zoom into"));
    // The cell of bucket b is b / 128 of a 128-column grid: row b / 16,384, column
    // (b / 128) % 128.
    let at = |bucket: u64, view_start: u64, per_cell: u64| {
        let rect = canvas.get_bounding_client_rect();
        let cell = (bucket - view_start) / per_cell;
        let (column, row) = ((cell % 128) as f64, (cell / 128) as f64);
        let rows = 64.0_f64.min(((1 << 20) / per_cell).div_ceil(128) as f64);
        (
            rect.left() + (column + 0.5) * rect.width() / 128.0,
            rect.top() + (row + 0.5) * rect.height() / rows,
        )
    };
    let (x, y) = at(982_173, 0, 128);
    mouse(&canvas, "mousemove", x, y);
    yew::scheduler::flush().await;
    let tip = map.text(".map-tooltip");
    assert!(tip.contains("Buckets 982,144 – 982,271"), "{tip}");
    assert!(
        tip.contains("shard 2") && tip.contains("1 document"),
        "{tip}"
    );
    mouse(&canvas, "mouseout", x, y);

    // A click zooms into the sixteenth that holds the cell: 983,040 / 16 = 65,536 buckets.
    mouse(&canvas, "click", x, y);
    heat_drawn(&map, 8192).await;
    assert_eq!(map.text(".axis-start"), "917,504");
    assert!(map.text(".map-range").contains("65,536 buckets"));
    let (x, y) = at(982_173, 917_504, 8);
    mouse(&canvas, "click", x, y);
    heat_drawn(&map, 4096).await;
    assert_eq!(map.text(".axis-start"), "978,944");
    assert!(click_hint(&map).contains("list its bucket"));
    assert!(
        selected.borrow().is_empty(),
        "drilling down selects nothing"
    );

    // Single buckets: a click selects the bucket under the pointer.
    let rect = canvas.get_bounding_client_rect();
    let cell = 982_173 - 978_944;
    let (x, y) = (
        rect.left() + ((cell % 128) as f64 + 0.5) * rect.width() / 128.0,
        rect.top() + ((cell / 128) as f64 + 0.5) * rect.height() / 32.0,
    );
    mouse(&canvas, "mousemove", x, y);
    yew::scheduler::flush().await;
    assert!(map.text(".map-tooltip").starts_with("Bucket 982,173"));
    mouse(&canvas, "click", x, y);
    assert_eq!(*selected.borrow(), vec![982_173]);
}

#[wasm_bindgen_test]
async fn bucket_map_zooms_down_to_a_single_bucket() {
    let topology = three_shards();
    let map = plain_map(&[], topology, None).await;
    for _ in 0..25 {
        map.click("button.zoom-in").await;
    }
    assert!(map.text(".map-range").contains("(1 bucket)"));
    assert_eq!(map.text(".axis-start"), map.text(".axis-end"));
}

#[wasm_bindgen_test]
async fn splitting_a_range_emits_one_more_range() {
    let (editor, emitted) = range_editor().await;
    assert_eq!(
        editor
            .root
            .query_selector_all(".range-table tbody tr")
            .unwrap()
            .length(),
        3
    );
    editor.click("tr[data-range=\"0\"] button.split").await;
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 1);
    let topology = Topology::from_json(&emitted[0]).expect("the emitted JSON is valid");
    assert_eq!(topology.ranges().len(), 4);
    assert_eq!(topology.ranges()[1].start, 174762);
    assert_eq!(topology.ranges()[1].shard, 0);
}

#[wasm_bindgen_test]
async fn splitting_at_a_typed_bucket_and_merging() {
    let (editor, emitted) = range_editor().await;
    editor
        .set("tr[data-range=\"2\"] input.split-at", "1000000", "input")
        .await;
    editor.click("tr[data-range=\"2\"] button.split").await;
    editor.click("tr[data-range=\"0\"] button.merge").await;
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 2);
    let split = Topology::from_json(&emitted[0]).unwrap();
    assert_eq!(split.ranges()[3].start, 1_000_000);
    let merged = Topology::from_json(&emitted[1]).unwrap();
    assert_eq!(merged.ranges().len(), 2);
    assert_eq!(merged.shard_for_bucket(500_000), Some(0));
}

#[wasm_bindgen_test]
async fn an_invalid_boundary_is_shown_and_not_emitted() {
    let (editor, emitted) = range_editor().await;
    // A start below the one before it overlaps (a start equal to it is an empty range, as
    // RavenDB's MoveBucket leaves them, and is read).
    editor
        .set("tr[data-range=\"2\"] input.range-start", "100", "change")
        .await;
    let error = editor.text(".editor-error .message");
    assert!(
        error.contains("BucketRanges[2].BucketRangeStart"),
        "{error}"
    );
    assert!(error.contains("overlaps"), "{error}");
    assert!(emitted.borrow().is_empty());
    editor
        .set("tr[data-range=\"1\"] input.range-start", "abc", "change")
        .await;
    assert!(editor
        .text(".editor-error .message")
        .contains("not a bucket number"));
    editor.click("button.revert").await;
    assert!(editor.find(".editor-error").is_none());
    assert!(emitted.borrow().is_empty());
}

/// The bar of a mounted range editor, and where a bucket of block 0 is on it (a whole pixel,
/// as pointer events have).
fn bar_of(editor: &Mounted<RangeEditor>) -> (DomRect, impl Fn(u32) -> i32) {
    let rect = editor.get(".range-bar").get_bounding_client_rect();
    assert!(rect.width() > 100.0, "the bar has a width");
    let (left, width) = (rect.left(), rect.width());
    (rect, move |bucket: u32| {
        (left + f64::from(bucket) / f64::from(1u32 << 20) * width).round() as i32
    })
}

/// The buckets a drag of `dx` pixels moves a boundary by on a bar `width` pixels wide.
fn buckets_for(dx: i32, width: f64) -> i64 {
    (f64::from(dx) / width * f64::from(1u32 << 20)).round() as i64
}

/// Drags boundary `index` from client x `from` to `to` and drops it there: the bucket the
/// preview showed before the drop.
async fn drag(editor: &Mounted<RangeEditor>, index: usize, from: i32, to: i32) -> String {
    let handle = editor.get(&format!(".range-boundary[data-boundary=\"{index}\"]"));
    pointer(&handle, "pointerdown", from);
    pointer(&handle, "pointermove", to);
    yew::scheduler::flush().await;
    let preview = editor.text(".boundary-preview");
    pointer(&handle, "pointerup", to);
    yew::scheduler::flush().await;
    preview
}

/// The start of range `index` in an emitted configuration.
fn start_of(json: &str, index: usize) -> u32 {
    Topology::from_json(json)
        .expect("the emitted JSON is valid")
        .ranges()[index]
        .start
}

#[wasm_bindgen_test]
async fn dragging_a_boundary_shows_it_live_and_emits_once_on_release() {
    let (editor, emitted) = range_editor().await;
    let handles = editor.root.query_selector_all(".range-boundary").unwrap();
    assert_eq!(
        handles.length(),
        2,
        "one handle per boundary between two ranges"
    );
    let handle = editor.get(".range-boundary[data-boundary=\"1\"]");
    assert_eq!(
        handle.get_attribute("aria-label").as_deref(),
        Some("Boundary at bucket 349,525: drag to move")
    );
    assert_eq!(handle.get_attribute("tabindex").as_deref(), Some("0"));
    assert_eq!(handle.get_attribute("role").as_deref(), Some("slider"));

    let (rect, x_of) = bar_of(&editor);
    let segment = editor.get(".range-segment[data-range=\"0\"]");
    let width_before = segment.get_attribute("style");
    let x0 = x_of(349_525);
    pointer(&handle, "pointerdown", x0);
    yew::scheduler::flush().await;
    assert!(editor.find(".range-boundary.dragging").is_some());
    assert_eq!(editor.text(".boundary-preview"), "349,525");

    // The boundary follows the pointer live; nothing is emitted while dragging.
    pointer(&handle, "pointermove", x0 + 100);
    yew::scheduler::flush().await;
    let live = 349_525 + buckets_for(100, rect.width());
    let preview: i64 = editor
        .text(".boundary-preview")
        .replace(',', "")
        .parse()
        .unwrap();
    assert!((preview - live).abs() <= 1, "{preview} vs {live}");
    assert_eq!(
        handle.get_attribute("aria-valuenow"),
        Some(preview.to_string())
    );
    assert_ne!(
        segment.get_attribute("style"),
        width_before,
        "the bar follows too"
    );
    pointer(&handle, "pointermove", x0 + 40);
    yew::scheduler::flush().await;
    assert!(emitted.borrow().is_empty());

    pointer(&handle, "pointerup", x0 + 40);
    yew::scheduler::flush().await;
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 1, "emitted once, on release");
    let dropped = i64::from(start_of(&emitted[0], 1));
    let expected = 349_525 + buckets_for(40, rect.width());
    assert!((dropped - expected).abs() <= 1, "{dropped} vs {expected}");
    assert_eq!(start_of(&emitted[0], 2), 699_050);
    assert!(editor.find(".boundary-preview").is_none());
    assert!(editor.find(".range-boundary.dragging").is_none());
}

#[wasm_bindgen_test]
async fn a_dragged_boundary_stays_between_its_neighbours() {
    let (editor, emitted) = range_editor().await;
    let (rect, x_of) = bar_of(&editor);
    let far_left = rect.left() as i32 - 500;
    let far_right = rect.right() as i32 + 500;

    assert_eq!(drag(&editor, 1, x_of(349_525), far_left).await, "1");
    assert_eq!(
        drag(&editor, 2, x_of(699_050), far_right).await,
        "1,048,575"
    );

    // Pressing and releasing without moving changes nothing.
    let first = editor.get(".range-boundary[data-boundary=\"1\"]");
    pointer(&first, "pointerdown", x_of(349_525));
    pointer(&first, "pointerup", x_of(349_525));
    yew::scheduler::flush().await;

    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 2);
    assert_eq!(start_of(&emitted[0], 1), 1, "range 0 keeps one bucket");
    assert_eq!(
        start_of(&emitted[1], 2),
        (1 << 20) - 1,
        "range 2 keeps one bucket"
    );
}

#[wasm_bindgen_test]
async fn escape_cancels_a_drag() {
    let (editor, emitted) = range_editor().await;
    let (_, x_of) = bar_of(&editor);
    let handle = editor.get(".range-boundary[data-boundary=\"1\"]");
    pointer(&handle, "pointerdown", x_of(349_525));
    pointer(&handle, "pointermove", x_of(500_000));
    yew::scheduler::flush().await;
    assert_ne!(editor.text(".boundary-preview"), "349,525");
    key_down(&handle, "Escape", false);
    yew::scheduler::flush().await;
    assert!(editor.find(".boundary-preview").is_none());
    assert_eq!(
        handle.get_attribute("aria-valuenow").as_deref(),
        Some("349525")
    );
    // The rest of the gesture is ignored.
    pointer(&handle, "pointermove", x_of(600_000));
    pointer(&handle, "pointerup", x_of(600_000));
    yew::scheduler::flush().await;
    assert!(emitted.borrow().is_empty());
    assert!(editor.find(".editor-error").is_none());
}

/// Properties of [`LiveRangeEditor`].
#[derive(Properties, PartialEq)]
struct LiveProps {
    on_change: Callback<String>,
}

/// A range editor whose emitted configurations are applied, as the studio applies them, and
/// passed on to `on_change`.
#[function_component(LiveRangeEditor)]
fn live_range_editor(props: &LiveProps) -> Html {
    let topology = use_state(three_shards);
    let on_change = {
        let topology = topology.clone();
        let record = props.on_change.clone();
        Callback::from(move |json: String| {
            if let Ok(applied) = Topology::from_json(&json) {
                topology.set(Rc::new(applied));
            }
            record.emit(json);
        })
    };
    html! { <RangeEditor topology={(*topology).clone()} {on_change} /> }
}

#[wasm_bindgen_test]
async fn arrow_keys_move_a_boundary() {
    let (on_change, emitted) = recorder::<String>();
    let editor = Mounted::<LiveRangeEditor>::mount(LiveProps { on_change }).await;
    let selector = ".range-boundary[data-boundary=\"1\"]";
    let handle = editor.get(selector);
    handle.unchecked_ref::<HtmlElement>().focus().unwrap();
    for (key, shift) in [
        ("ArrowRight", false),
        ("ArrowRight", false),
        ("ArrowLeft", true),
        ("Enter", false),
    ] {
        key_down(&handle, key, shift);
        yew::scheduler::flush().await;
    }
    let starts: Vec<u32> = emitted.borrow().iter().map(|j| start_of(j, 1)).collect();
    assert_eq!(starts, vec![349_526, 349_527, 349_527 - 10_485]);
    // Each move is applied and the same handle keeps the focus, so keys add up.
    assert!(editor.get(selector) == handle);
    assert!(gloo::utils::document().active_element() == Some(handle.clone()));
    assert_eq!(
        handle.get_attribute("aria-valuenow"),
        Some((349_527 - 10_485).to_string())
    );
}

#[wasm_bindgen_test]
async fn a_drop_in_an_invalid_draft_is_shown_not_emitted() {
    let (editor, emitted) = range_editor().await;
    editor
        .set("tr[data-range=\"2\"] input.range-start", "100", "change")
        .await;
    assert!(editor.text(".editor-error .message").contains("overlaps"));
    let (rect, x_of) = bar_of(&editor);

    // Moving another boundary leaves the draft invalid: shown, with the core's message.
    drag(&editor, 1, x_of(349_525), x_of(349_525) + 50).await;
    assert!(emitted.borrow().is_empty());
    let error = editor.text(".editor-error .message");
    assert!(
        error.contains("BucketRanges[2].BucketRangeStart"),
        "{error}"
    );
    let moved: i64 = editor
        .get("tr[data-range=\"1\"] input.range-start")
        .unchecked_into::<HtmlInputElement>()
        .value()
        .parse()
        .unwrap();
    let expected = 349_525 + buckets_for(50, rect.width());
    assert!((moved - expected).abs() <= 1, "{moved} vs {expected}");

    // Dragging the culprit past its neighbour makes it valid: emitted, the message goes.
    drag(&editor, 2, x_of(100), x_of(800_000)).await;
    assert!(editor.find(".editor-error").is_none());
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 1);
    assert!((i64::from(start_of(&emitted[0], 1)) - expected).abs() <= 1);
    assert!(start_of(&emitted[0], 2) > start_of(&emitted[0], 1));
}

#[wasm_bindgen_test]
async fn adding_a_prefix_gives_it_a_block() {
    let (editor, emitted) = prefix_editor(three_shards()).await;
    editor.set("input.new-prefix", "eu/", "input").await;
    editor
        .check("input.new-prefix-shard[data-shard=\"0\"]")
        .await;
    editor.click("button.add").await;
    let topology = Topology::from_json(&only_emission(&editor, &emitted)).unwrap();
    let location = topology.locate("eu/1").unwrap();
    assert_eq!(location.shard, 0);
    assert_eq!(location.prefix, Some(0));
    assert!(location.bucket >= 1 << 20);
}

#[wasm_bindgen_test]
async fn a_prefix_without_separator_shows_ravendbs_message() {
    let (editor, emitted) = prefix_editor(three_shards()).await;
    editor.set("input.new-prefix", "asia", "input").await;
    editor
        .check("input.new-prefix-shard[data-shard=\"1\"]")
        .await;
    editor.click("button.add").await;
    let error = editor.text(".editor-error");
    assert!(
        error.contains("Cannot add prefix 'asia' to ShardingConfiguration.Prefixed"),
        "{error}"
    );
    assert!(error.contains("must end with '/' or '-'"), "{error}");
    assert!(emitted.borrow().is_empty());
}

#[wasm_bindgen_test]
async fn prefixes_are_listed_edited_and_removed() {
    let json = r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [0]}]}"#;
    let (editor, emitted) = prefix_editor(Rc::new(Topology::from_json(json).unwrap())).await;
    assert!(editor.text("li[data-prefix=\"eu/\"]").contains("block 1"));
    // Taking its only shard away is refused with RavenDB's message, and the box is
    // checked again.
    let only = "li[data-prefix=\"eu/\"] input.prefix-shard[data-shard=\"0\"]";
    editor.click(only).await;
    let error = editor.text(".editor-error");
    assert!(error.contains("Prefixed[0].Shards"), "{error}");
    assert!(
        error.contains("PrefixedShardingSetting.Shards cannot be empty"),
        "{error}"
    );
    assert!(editor
        .get(only)
        .unchecked_into::<HtmlInputElement>()
        .checked());
    editor
        .click("li[data-prefix=\"eu/\"] input.prefix-shard[data-shard=\"1\"]")
        .await;
    editor.click("li[data-prefix=\"eu/\"] button.remove").await;
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 2);
    let wider = Topology::from_json(&emitted[0]).unwrap();
    assert_eq!(wider.prefixes()[0].shards, vec![0, 1]);
    let removed = Topology::from_json(&emitted[1]).unwrap();
    assert!(removed.prefixes().is_empty());
    assert_eq!(removed.ranges().len(), 2);
}

#[wasm_bindgen_test]
async fn config_json_applies_text_and_shows_the_error() {
    let topology = three_shards();
    let (on_apply, emitted) = recorder::<String>();
    let editor = Mounted::<ConfigJson>::mount(ConfigJsonProps {
        topology: topology.clone(),
        error: Some("Shards: the topology has no shards.".into()),
        on_apply,
    })
    .await;
    let area: HtmlTextAreaElement = editor.get("textarea").unchecked_into();
    assert_eq!(area.value(), topology.to_json());
    assert!(editor.text(".editor-error").contains("no shards"));
    editor.set("textarea", "{\"Shards\": {}}", "input").await;
    editor.click("button.apply").await;
    editor.click("button.revert").await;
    assert_eq!(area.value(), topology.to_json());
    editor.click("button.copy").await;
    yew::platform::time::sleep(std::time::Duration::from_millis(300)).await;
    yew::scheduler::flush().await;
    // Copying succeeds or fails depending on the browser's permissions; either is reported.
    assert!(editor.find(".config-json-status").is_some());
    assert_eq!(
        emitted.borrow().as_slice(),
        ["{\"Shards\": {}}".to_string()]
    );
}

#[wasm_bindgen_test]
async fn config_json_imports_a_file() {
    let (on_apply, emitted) = recorder::<String>();
    let editor = Mounted::<ConfigJson>::mount(ConfigJsonProps {
        topology: three_shards(),
        error: None,
        on_apply,
    })
    .await;
    let content = r#"{"Shards": {"0": {}}}"#;
    let file = gloo::file::File::new("imported.json", content);
    let file: &web_sys::File = file.as_ref();
    // Put the file in the input as a user picking it would (DataTransfer.items.add).
    let transfer = web_sys::DataTransfer::new().unwrap();
    let items = Reflect::get(&transfer, &"items".into()).unwrap();
    let add: Function = Reflect::get(&items, &"add".into())
        .unwrap()
        .unchecked_into();
    add.call1(&items, file).unwrap();
    let input: HtmlInputElement = editor.get("input.import-file").unchecked_into();
    input.set_files(transfer.files().as_ref());
    fire(&input, "change");
    for _ in 0..20 {
        yew::platform::time::sleep(std::time::Duration::from_millis(25)).await;
        if !emitted.borrow().is_empty() {
            break;
        }
    }
    yew::scheduler::flush().await;
    assert_eq!(emitted.borrow().as_slice(), [content.to_string()]);
    let area: HtmlTextAreaElement = editor.get("textarea").unchecked_into();
    assert_eq!(area.value(), content);
    assert!(editor
        .text(".config-json-status")
        .contains("Imported imported.json"));
}

/// A configuration with the chapter's `Orders` rule and keys the rules editor must keep.
const ORDERS_BY_CUSTOMER: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000, "Mutable": false}},
    "Indexes": {"Orders/Totals": ["Orders"]},
    "Orchestrator": {"Members": ["A"]}}"#;

/// A content rules editor over `json`, and what it emits.
async fn content_rules(json: &str) -> (Mounted<ContentRulesEditor>, Rc<RefCell<Vec<String>>>) {
    let (on_change, emitted) = recorder::<String>();
    let editor = Mounted::<ContentRulesEditor>::mount(ContentRulesEditorProps {
        topology: Rc::new(Topology::from_json(json).unwrap()),
        on_change,
    })
    .await;
    (editor, emitted)
}

/// The rules of an emitted configuration (empty when the design is off), and its topology.
fn emitted_rules(json: &str) -> (Vec<ContentRule>, Topology) {
    let topology = Topology::from_json(json).unwrap();
    let design = ContentDesign::from_topology(&topology).unwrap();
    (design.map(|d| d.rules).unwrap_or_default(), topology)
}

#[wasm_bindgen_test]
async fn content_rules_are_labelled_listed_and_added() {
    let (editor, emitted) = content_rules(ORDERS_BY_CUSTOMER).await;
    let banner = editor.text(".draft-banner");
    assert!(banner.contains("draft \"Sharding\" chapter"), "{banner}");
    assert!(banner.contains("not shipped RavenDB 7.x"), "{banner}");
    let fields: HtmlInputElement = editor
        .get("tr[data-rule=\"Orders\"] input.rule-fields")
        .unchecked_into();
    assert_eq!(fields.value(), "Customer");
    let range: HtmlInputElement = editor
        .get("tr[data-rule=\"Orders\"] input.rule-range")
        .unchecked_into();
    assert_eq!(range.value(), "1000");
    assert!(editor
        .text(".rules-help")
        .contains("block of that many buckets"));

    editor.type_into("input.new-rule-name", "Shipments").await;
    editor
        .type_into(
            "input.new-rule-fields",
            "Address.State, numeric(Address.ZipCode)",
        )
        .await;
    editor.type_into("input.new-rule-range", "16").await;
    editor.check("input.new-rule-mutable").await;
    editor.click("button.add").await;
    let json = only_emission(&editor, &emitted);
    assert!(json.contains("\"Shipments\""), "{json}");
    let (rules, topology) = emitted_rules(&json);
    let shipments = rules.iter().find(|r| r.name == "Shipments").unwrap();
    assert_eq!(
        shipments.fields,
        vec![
            Field::Path("Address.State".into()),
            Field::Numeric("Address.ZipCode".into())
        ]
    );
    assert_eq!((shipments.range, shipments.mutable), (16, true));
    assert!(rules.iter().any(|r| r.name == "Orders" && r.range == 1000));
    for key in ["Indexes", "Orchestrator"] {
        assert!(topology.extra_keys().contains_key(key), "{key} is kept");
    }
    // The form is emptied for the next rule.
    let name: HtmlInputElement = editor.get("input.new-rule-name").unchecked_into();
    assert_eq!(name.value(), "");
}

#[wasm_bindgen_test]
async fn a_bad_content_field_is_shown_and_not_emitted() {
    let (editor, emitted) = content_rules(ORDERS_BY_CUSTOMER).await;
    let row = "tr[data-rule=\"Orders\"]";
    editor
        .set(
            &format!("{row} input.rule-fields"),
            "Lines[].Product",
            "change",
        )
        .await;
    let error = editor.text(&format!("{row} .field-error"));
    assert!(error.contains("'Lines[].Product' has '['"), "{error}");
    assert!(error.contains("arrays cannot be sharded on"), "{error}");

    editor.type_into("input.new-rule-name", "Invoices").await;
    editor
        .type_into("input.new-rule-fields", "Lines[].Product")
        .await;
    editor.click("button.add").await;
    let error = editor.text(".rules-add .field-error");
    assert!(error.contains("'Lines[].Product' has '['"), "{error}");

    // A Range the core refuses is shown with its JSON path.
    editor
        .set(&format!("{row} input.rule-range"), "0", "change")
        .await;
    let error = editor.text(".content-rules-messages .editor-error");
    assert!(error.starts_with("ByContent.Orders.Range:"), "{error}");
    assert!(emitted.borrow().is_empty());

    // A good field is emitted, in the core's form.
    editor
        .set(
            &format!("{row} input.rule-fields"),
            "ticks( OrderedAt ), id()",
            "change",
        )
        .await;
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 1);
    let (rules, _) = emitted_rules(&emitted[0]);
    assert_eq!(
        rules[0].fields,
        vec![Field::Ticks("OrderedAt".into()), Field::Id]
    );
    assert!(
        emitted[0].contains("\"ticks(OrderedAt)\""),
        "{}",
        emitted[0]
    );
}

#[wasm_bindgen_test]
async fn content_rules_toggle_mutable_remove_and_turn_off() {
    let (editor, emitted) = content_rules(ORDERS_BY_CUSTOMER).await;
    let row = "tr[data-rule=\"Orders\"]";
    editor.click(&format!("{row} input.rule-mutable")).await;
    editor.click(&format!("{row} button.remove")).await;
    editor.click("button.design-off").await;
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 3);
    let (mutable, _) = emitted_rules(&emitted[0]);
    assert!(mutable[0].mutable);
    assert_eq!(mutable[0].range, 1000);
    let (removed, topology) = emitted_rules(&emitted[1]);
    assert!(removed.is_empty());
    assert!(topology.extra_keys().contains_key("ByContent"));
    let (off, topology) = emitted_rules(&emitted[2]);
    assert!(off.is_empty());
    assert!(!topology.extra_keys().contains_key("ByContent"));
    assert!(topology.extra_keys().contains_key("Indexes"));
    assert!(topology.extra_keys().contains_key("Orchestrator"));
}

#[wasm_bindgen_test]
async fn content_rules_turn_on_with_the_chapters_example() {
    let (editor, emitted) = content_rules(r#"{"Shards": {"0": {}, "1": {}}}"#).await;
    assert!(editor.find("table.rules-table").is_none());
    assert!(editor.text(".rules-head").contains("The design is off"));
    editor.click("button.design-on").await;
    let emitted = emitted.borrow();
    assert_eq!(emitted.len(), 1);
    let (rules, _) = emitted_rules(&emitted[0]);
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].name, "Orders");
    assert_eq!(rules[0].fields, vec![Field::Path("Customer".into())]);
}

/// The colour of one pixel of a canvas, as `#rrggbb` (CSS pixels, scaled to the canvas).
fn pixel(canvas: &HtmlCanvasElement, x: f64, y: f64) -> String {
    let ratio = f64::from(canvas.width()) / canvas.get_bounding_client_rect().width();
    let ctx: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let data = ctx
        .get_image_data(x * ratio, y * ratio, 1.0, 1.0)
        .unwrap()
        .data();
    format!("#{:02x}{:02x}{:02x}", data[0], data[1], data[2])
}

#[wasm_bindgen_test]
async fn the_map_colours_only_the_lit_shards() {
    let topology = Rc::new(Topology::with_shards(3).unwrap());
    let map = plain_map(&[], topology, Some(Rc::new(vec![2]))).await;
    let canvas: HtmlCanvasElement = map.get("canvas.map-canvas").unchecked_into();
    let width = canvas.get_bounding_client_rect().width();
    // Shard 0 (the first third of the block) is grey; shard 2 (the last third) has its colour.
    assert_eq!(
        pixel(&canvas, width * 0.1, 90.0),
        ravenshard_studio::widgets::UNOWNED_COLOUR
    );
    assert_eq!(
        pixel(&canvas, width * 0.9, 90.0),
        ravenshard_studio::widgets::shard_colour(2)
    );
}
