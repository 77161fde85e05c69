//! Imports read in the studio's worker, in headless Chromium: a gzip export and a text file
//! come back as the page's own `Importer` reads them (with the design's fields only); a
//! corrupt file gives the importer's message; a cancel terminates the worker; a worker that
//! panics leaves the page usable with a message.
//!
//! The worker here is this test module itself (see `common::use_this_module_as_the_worker`).
#![cfg(target_arch = "wasm32")]

use flate2::write::GzEncoder;
use flate2::Compression;
use ravenshard_import::{BodiesDropped, FieldPaths, Format, Importer, MAX_BODY_BYTES};
use ravenshard_model::workspace::{Document, Placement};
use ravenshard_studio::jobs::bulk;
use ravenshard_studio::jobs::import::CancelToken;
use ravenshard_studio::state::{Loaded, Placer};
use ravenshard_studio::workers::{client, Channel, Reader, BATCH_DOCUMENTS};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlInputElement;

mod common;

use common::jobs::{self, placer, until, Seen};

wasm_bindgen_test_configure!(run_in_browser);

/// Orders placed by customer (the chapter's rule), with a body the import must not keep.
const CONFIGURATION: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000}}}"#;

/// `orders` orders (their customers round robin, a long `Lines` field) and one entry
/// without an ID, as a RavenDB export's `Docs`.
fn export(orders: usize) -> String {
    let mut docs: Vec<String> = (1..=orders)
        .map(|o| {
            format!(
                r#"{{"Customer": "customers/{}-A", "Lines": "{}", "@metadata": {{"@id": "orders/{o}-A", "@collection": "Orders"}}}}"#,
                o % 50 + 1,
                "x".repeat(o % 300)
            )
        })
        .collect();
    docs.push(r#"{"Name": "no id"}"#.into());
    format!(
        r#"{{"BuildVersion": 60000, "Docs": [{}]}}"#,
        docs.join(",\n")
    )
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn blob(bytes: &[u8]) -> web_sys::Blob {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::Blob::new_with_u8_array_sequence(&parts).unwrap()
}

/// What the page's own importer reads of `bytes` (keeping `fields`).
fn on_the_page(bytes: &[u8], format: Format, fields: FieldPaths) -> Result<Vec<Document>, String> {
    let mut importer = Importer::new(format, None).keeping_fields(fields);
    let pushed = importer.push(bytes);
    pushed
        .and_then(|()| importer.finish())
        .map(|imported| imported.documents)
        .map_err(|e| format!("{e} (read as {format})"))
}

/// Starts `bulk::import` of `bytes` named `name`; its reports go to the returned `Seen`.
fn start(name: &str, bytes: &[u8], placer: Placer, token: &CancelToken) -> Rc<RefCell<Seen>> {
    let (job, seen) = jobs::job(&format!("Reading {name}"), token);
    let blob = blob(bytes);
    wasm_bindgen_futures::spawn_local(bulk::import(blob, name.to_string(), placer, job));
    seen
}

async fn import(name: &str, bytes: &[u8], placer: Placer) -> Result<Rc<Loaded>, String> {
    common::use_this_module_as_the_worker();
    let seen = start(name, bytes, placer, &CancelToken::default());
    until("the import", || {
        let s = seen.borrow();
        s.loaded.is_some() || s.failed().is_some()
    })
    .await;
    let s = seen.borrow();
    s.loaded
        .clone()
        .ok_or_else(|| s.failed().unwrap_or_default())
}

/// The worker tells a file's format from its name, else from its first bytes, a gzip
/// file's by inflating them, as `Format::detect` does natively: a CSV without an
/// extension keeps no fields (a CSV has no bodies), gzipped NDJSON and a JSON array
/// without one are read as such, and an empty file says what it was read as.
#[wasm_bindgen_test]
async fn the_worker_tells_the_format_from_the_name_or_the_first_bytes() {
    let design = placer(CONFIGURATION);
    let csv: String = std::iter::once("Id,Size\n".to_string())
        .chain((0..2_000).map(|i| format!("orders/{i}-A,{i}\n")))
        .collect();
    assert_eq!(Format::detect(Some("orders"), csv.as_bytes()), Format::Csv);
    let loaded = import("orders", csv.as_bytes(), design.clone())
        .await
        .unwrap();
    assert_eq!(loaded.documents, 2_000);
    assert_eq!(loaded.kept, None, "a CSV keeps no fields");
    let ndjson: String = (0..2_000)
        .map(|i| {
            format!("{{\"@metadata\": {{\"@id\": \"orders/{i}-A\"}}, \"Customer\": \"c/{i}\"}}\n")
        })
        .collect();
    let zipped = gzip(ndjson.as_bytes());
    assert_eq!(
        Format::detect(Some("orders.gz"), &zipped),
        Format::RavenDump
    );
    assert_eq!(Format::detect(Some("orders"), &zipped), Format::Ndjson);
    let expected = on_the_page(&zipped, Format::Ndjson, FieldPaths::new(["Customer"])).unwrap();
    let loaded = import("orders", &zipped, design.clone()).await.unwrap();
    assert_eq!(jobs::adopted(&loaded).await.0, expected);
    assert!(loaded.kept.is_some(), "NDJSON keeps the design's fields");
    assert_eq!(
        import("empty", b"[]", design).await.unwrap_err(),
        "no document IDs were found in it (read as JSON)"
    );
}

#[wasm_bindgen_test]
async fn a_gzip_export_and_a_text_file_read_in_the_worker_as_on_the_page() {
    let text = export(3000);
    let zipped = gzip(text.as_bytes());
    let design_placer = placer(CONFIGURATION);
    let fields = FieldPaths::new(["Customer"]);
    let expected = on_the_page(&zipped, Format::RavenDump, fields).unwrap();
    let loaded = import("orders.ravendbdump", &zipped, design_placer)
        .await
        .unwrap();
    let (documents, hosted) = jobs::adopted(&loaded).await;
    assert_eq!(documents, expected);
    assert_eq!(
        documents[0].body.as_deref(),
        Some(r#"{"Customer":"customers/2-A"}"#)
    );
    let summary = loaded.summary.as_deref().unwrap_or_default();
    assert!(
        summary
            .starts_with("Imported 3,000 documents from orders.ravendbdump. 1 entry was skipped")
            || summary.starts_with(
                "Imported 3000 documents from orders.ravendbdump. 1 entry was skipped"
            ),
        "{summary}"
    );
    let whole = Placement::new(&expected, &loaded.placer.topology, &loaded.placer.options);
    assert_eq!(hosted.totals, *whole.totals());

    // Without a design, no bodies; several batches, placed in order.
    let ids: String = (0..BATCH_DOCUMENTS * 2 + 5)
        .map(|i| format!("orders/{i}-A\t{i}\tOrders\n"))
        .collect();
    let expected = on_the_page(ids.as_bytes(), Format::Text, FieldPaths::default()).unwrap();
    let loaded = import(
        "ids.txt",
        ids.as_bytes(),
        placer(r#"{"Shards": {"0": {}, "1": {}}}"#),
    )
    .await
    .unwrap();
    let (documents, _) = jobs::adopted(&loaded).await;
    assert_eq!(documents.len(), BATCH_DOCUMENTS * 2 + 5);
    assert_eq!(documents, expected);
    assert!(
        client::instance(Channel::Import).is_none(),
        "the worker is terminated when done"
    );
}

#[wasm_bindgen_test]
async fn a_corrupt_file_gives_the_importers_message() {
    let plain = placer(r#"{"Shards": {"0": {}, "1": {}}}"#);
    let zipped = gzip(export(500).as_bytes());
    let mut corrupt = zipped.clone();
    let middle = corrupt.len() / 2;
    corrupt[middle..middle + 8].copy_from_slice(&[0xff; 8]);
    let expected = on_the_page(&corrupt, Format::RavenDump, FieldPaths::default()).unwrap_err();
    let message = import("export.ravendbdump", &corrupt, plain.clone())
        .await
        .unwrap_err();
    assert_eq!(message, expected);

    let bad = b"[\"a\",\n 7]";
    let expected = on_the_page(bad, Format::Json, FieldPaths::default()).unwrap_err();
    assert_eq!(
        import("bad.json", bad, plain.clone()).await.unwrap_err(),
        expected
    );
    assert!(expected.contains("line 2"), "{expected}");
    assert_eq!(
        import("empty.txt", b"\n\n", plain).await.unwrap_err(),
        "no document IDs were found in it (read as plain text)"
    );
}

/// A CSV file has no bodies, so its import lost no field: a design turned on later has
/// nothing to tell about it (no "import it again to read the field").
#[wasm_bindgen_test]
async fn a_csv_import_keeps_no_fields_to_tell_about() {
    let csv = b"id,size,collection\norders/1-A,1200,Orders\norders/2-A,700,Orders\n";
    let loaded = import("docs.csv", csv, placer(r#"{"Shards": {"0": {}, "1": {}}}"#))
        .await
        .unwrap();
    assert_eq!(loaded.documents, 2);
    assert_eq!(loaded.kept, None);
    let json = export(3);
    let loaded = import("orders.json", json.as_bytes(), placer(CONFIGURATION))
        .await
        .unwrap();
    let kept = loaded
        .kept
        .as_ref()
        .map(|k| k.fields.paths().collect::<Vec<_>>());
    assert_eq!(kept, Some(vec!["Customer"]));
}

/// A document whose kept fields are over the import's limit on bodies (`MAX_BODY_BYTES`)
/// is placed without them, and the import says so: how many, the largest, that they were
/// the design's fields (the notice's text is `KeptFields::dropped_notice`).
#[wasm_bindgen_test]
async fn a_body_over_the_limit_is_counted_not_dropped_silently() {
    let huge = "x".repeat(MAX_BODY_BYTES + 1);
    let meta =
        |n: u32| format!(r#""@metadata": {{"@id": "orders/{n}-A", "@collection": "Orders"}}"#);
    let file = format!(
        "{{\"Customer\": \"{huge}\", {}}}\n{{\"Customer\": \"customers/1-A\", {}}}\n",
        meta(1),
        meta(2)
    );
    let loaded = import("big.ndjson", file.as_bytes(), placer(CONFIGURATION))
        .await
        .unwrap();
    let (documents, _) = jobs::adopted(&loaded).await;
    assert_eq!(documents.len(), 2);
    assert_eq!(documents[0].body, None);
    assert_eq!(
        documents[1].body.as_deref(),
        Some(r#"{"Customer":"customers/1-A"}"#)
    );
    let kept = loaded.kept.as_ref().unwrap();
    let largest = format!(r#"{{"Customer":"{huge}"}}"#).len();
    let expected = BodiesDropped {
        documents: 1,
        largest,
        fields: true,
    };
    assert_eq!(kept.dropped, expected);
    let told = kept.dropped_notice().unwrap();
    assert!(
        told.starts_with("The import of big.ndjson: 1 document's body was not kept"),
        "{told}"
    );
}

/// A file whose entries were all skipped says how many and why the first was, so that the
/// user knows what to fix (not only that no ID was found).
#[wasm_bindgen_test]
async fn a_file_of_skipped_entries_says_why() {
    let plain = placer(r#"{"Shards": {"0": {}, "1": {}}}"#);
    let objects = br#"[{"Name": "a"}, {"Name": "b"}]"#;
    let message = import("people.json", objects, plain).await.unwrap_err();
    assert!(
        message.starts_with("no document IDs were found in it (read as JSON; 2 entries skipped"),
        "{message}"
    );
    assert!(
        message.contains("has no ID") && message.contains("Give it an ID"),
        "{message}"
    );
}

#[wasm_bindgen_test]
async fn a_cancelled_import_terminates_the_worker() {
    common::use_this_module_as_the_worker();
    let text: String = (0..400_000).map(|i| format!("orders/{i}-A\n")).collect();
    let token = CancelToken::default();
    let seen = start(
        "big.txt",
        text.as_bytes(),
        placer(r#"{"Shards": {"0": {}}}"#),
        &token,
    );
    jobs::cancel_when_working(&seen, &token).await;
}

/// Chooses a file through the workspace's `<input type=file>`, as a user does.
async fn choose(studio: &common::Mounted<ravenshard_studio::App>, name: &str, bytes: &[u8]) {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, name).unwrap();
    let transfer = web_sys::DataTransfer::new().unwrap();
    transfer.items().add_with_file(&file).unwrap();
    studio
        .get("#import-file")
        .unchecked_ref::<HtmlInputElement>()
        .set_files(transfer.files().as_ref());
    studio.fire("#import-file", "change").await;
}

#[wasm_bindgen_test]
async fn a_panicking_import_worker_leaves_a_usable_page_with_a_message() {
    let studio = common::fresh_studio().await;
    let before = studio.text(".count-documents strong");
    let text: String = (0..300_000).map(|i| format!("orders/{i}-A\n")).collect();
    choose(&studio, "big.txt", text.as_bytes()).await;
    until("the worker", || client::instance(Channel::Import).is_some()).await;
    assert!(client::tell_panic::<Reader>());
    studio.wait_for(".import-error").await;
    let error = studio.text(".import-error");
    assert!(
        error.contains("big.txt") && error.contains("asked to panic"),
        "{error}"
    );
    assert_eq!(studio.text(".count-documents strong"), before);
    // The page still imports: a new worker reads the next file.
    choose(&studio, "small.txt", b"a\nb\nc\n").await;
    studio
        .until("the next import", |s| {
            s.text(".count-documents strong") == "3"
        })
        .await;
    client::terminate();
}
