//! The import readers agree where their formats overlap: the same documents written as
//! lines, CSV, NDJSON, a JSON list, a `.ravendbdump` export and ravenshard's own CSV export
//! (neutralised cells, `csv_export`) read back to the same IDs, sizes and collections.
//!
//! The documents are drawn from the input (`arbitrary`); each is written as RavenDB writes
//! an export (`{"Name": .., "@metadata": {"@id": .., "@collection": ..}}`), and its size is
//! the length of that JSON, which the lines and CSV carry as their size field. The lines
//! and CSV are compared when every document can be written as a line
//! (`Document::line_problem`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard::Document;
use ravenshard_fuzz::gzip;
use ravenshard_import::csv_export::{write_cell, EXPORT_HEADER};
use ravenshard_import::{import, Format};
use serde_json::{json, Value};

type Summary = Vec<(String, Option<u64>, Option<String>)>;

fn read(bytes: &[u8], format: Format) -> Summary {
    let imported = match import(bytes, format) {
        Ok(imported) => imported,
        Err(e) => panic!(
            "{format:?} refused what was written: {e}\n{}",
            String::from_utf8_lossy(bytes)
        ),
    };
    imported
        .documents
        .into_iter()
        .map(|d| (d.id, d.size, d.collection))
        .collect()
}

fn csv_field(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

fuzz_target!(|input: Vec<(String, Option<String>, String)>| {
    let documents: Vec<(String, Option<String>, Value)> = input
        .into_iter()
        .filter(|(id, _, _)| ravenshard::check_id(id).is_ok())
        .map(|(id, collection, name)| {
            let mut metadata = json!({"@id": id});
            if let Some(c) = collection.as_ref().filter(|c| !c.is_empty()) {
                metadata["@collection"] = json!(c);
            }
            let collection = collection.filter(|c| !c.is_empty());
            (id, collection, json!({"Name": name, "@metadata": metadata}))
        })
        .collect();
    let expected: Summary = documents
        .iter()
        .map(|(id, c, body)| (id.clone(), Some(body.to_string().len() as u64), c.clone()))
        .collect();
    let bodies: Vec<&Value> = documents.iter().map(|(_, _, body)| body).collect();
    let ndjson: String = bodies.iter().map(|b| format!("{b}\n")).collect();
    assert_eq!(read(ndjson.as_bytes(), Format::Ndjson), expected, "NDJSON");
    let list = serde_json::to_string(&bodies).expect("JSON values write");
    assert_eq!(read(list.as_bytes(), Format::Json), expected, "JSON list");
    let export = json!({"BuildVersion": 62000, "Docs": bodies, "Attachments": []});
    let dump = gzip(export.to_string().as_bytes());
    assert_eq!(read(&dump, Format::RavenDump), expected, "export");

    let lines: Vec<Document> = expected
        .iter()
        .map(|(id, size, collection)| Document {
            id: id.clone(),
            size: *size,
            collection: collection.clone(),
            body: None,
        })
        .collect();
    if lines.iter().any(|d| d.line_problem().is_some()) {
        return;
    }
    // A byte-order mark first, as a careful writer puts it: the readers drop one at the
    // start of a file, which would otherwise take it from a first ID that begins with one.
    let mut text = String::from("\u{feff}");
    let mut csv = String::from("\u{feff}id,size,collection\n");
    let mut own = String::from(EXPORT_HEADER);
    for d in &lines {
        d.write_line(&mut text);
        text.push('\n');
        let collection = d.collection.as_deref().unwrap_or("");
        let size = d.size.map(|s| s.to_string()).unwrap_or_default();
        csv.push_str(&format!(
            "{},{size},{}\n",
            csv_field(&d.id),
            csv_field(collection)
        ));
        write_cell(&mut own, &d.id);
        own.push_str(",0,0,");
        write_cell(&mut own, collection);
        own.push_str(&format!(",{size}\n"));
    }
    assert_eq!(read(text.as_bytes(), Format::Text), expected, "lines");
    assert_eq!(read(csv.as_bytes(), Format::Csv), expected, "CSV");
    assert_eq!(
        read(own.as_bytes(), Format::Csv),
        expected,
        "ravenshard's CSV export"
    );
});
