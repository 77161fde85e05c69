//! A body an import does not keep (over [`MAX_BODY_BYTES`]) is counted and said, in every
//! format that carries bodies, whole or pruned to a design's fields, read at once or taken
//! as it comes (as the studio's worker reads).

use flate2::write::GzEncoder;
use flate2::Compression;
use ravenshard::document::Document;
use ravenshard_import::{
    BodiesDropped, FieldPaths, Format, ImportError, Imported, Importer, MAX_BODY_BYTES,
};
use std::io::Write;

/// A value that makes a body over [`MAX_BODY_BYTES`] by itself.
fn huge() -> String {
    "x".repeat(MAX_BODY_BYTES + 1)
}

/// `bytes` read in 1 MiB pushes, the documents taken after each (as the studio's worker
/// does), and those of `finish`.
fn read_taking(bytes: &[u8], importer: Importer) -> Result<(Vec<Document>, Imported), ImportError> {
    let mut importer = importer;
    let mut documents = Vec::new();
    for chunk in bytes.chunks(1 << 20) {
        importer.push(chunk)?;
        documents.extend(importer.take_documents());
    }
    let mut imported = importer.finish()?;
    documents.append(&mut imported.documents);
    Ok((documents, imported))
}

/// Reads `bytes` taking the documents as they come (and `whole` too: at once), and checks
/// that the document `big` kept no body, `small` kept its body, and that the one not kept
/// (`largest` bytes) is counted.
fn assert_dropped(
    bytes: &[u8],
    importer: impl Fn() -> Importer,
    largest: usize,
    fields: bool,
    whole: bool,
) {
    let (taken, imported) = read_taking(bytes, importer()).unwrap();
    let mut reads = vec![(taken, imported.bodies_dropped)];
    if whole {
        let mut at_once = importer();
        at_once.push(bytes).unwrap();
        let at_once = at_once.finish().unwrap();
        reads.push((at_once.documents, at_once.bodies_dropped));
    }
    for (documents, dropped) in reads {
        let ids: Vec<&str> = documents.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["big", "small"]);
        assert_eq!(documents[0].body, None);
        assert!(documents[0].size.is_some_and(|s| s > MAX_BODY_BYTES as u64));
        assert!(documents[1].body.is_some());
        let expected = BodiesDropped {
            documents: 1,
            largest,
            fields,
        };
        assert_eq!(dropped, expected);
    }
}

fn big_object(value: &str) -> String {
    format!(r#"{{"Notes":"{value}","@metadata":{{"@id":"big","@collection":"Orders"}}}}"#)
}

const SMALL: &str = r#"{"Customer":"customers/1","@metadata":{"@id":"small"}}"#;

#[test]
fn json_lists_count_a_body_over_the_limit() {
    let big = big_object(&huge());
    let file = format!("[{big},\n{SMALL}]");
    assert_dropped(
        file.as_bytes(),
        || Importer::new(Format::Json, None),
        big.len(),
        false,
        true,
    );
}

#[test]
fn ndjson_counts_a_body_over_the_limit() {
    let big = big_object(&huge());
    let file = format!("{big}\n{SMALL}\n");
    assert_dropped(
        file.as_bytes(),
        || Importer::new(Format::Ndjson, None),
        big.len(),
        false,
        false,
    );
}

#[test]
fn ravendb_exports_count_a_body_over_the_limit() {
    let big = big_object(&huge());
    let json = format!(r#"{{"BuildVersion":60000,"Docs":[{big},{SMALL}]}}"#);
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(json.as_bytes()).unwrap();
    let file = gz.finish().unwrap();
    assert_dropped(
        &file,
        || Importer::new(Format::RavenDump, None),
        big.len(),
        false,
        false,
    );
}

#[test]
fn text_lines_count_a_body_over_the_limit() {
    let body = format!(r#"{{"Notes":"{}"}}"#, huge());
    let file = format!("big\t{}\tOrders\t{body}\nsmall\t10\t\t{{}}\n", body.len());
    assert_dropped(
        file.as_bytes(),
        || Importer::new(Format::Text, None),
        body.len(),
        false,
        false,
    );
}

#[test]
fn kept_fields_count_only_what_they_keep() {
    let big = big_object(&huge());
    let file = format!("{big}\n{SMALL}\n");
    // The design reads the huge field: what would be kept of it is over the limit.
    let notes = || Importer::new(Format::Ndjson, None).keeping_fields(FieldPaths::new(["Notes"]));
    let kept = format!(r#"{{"Notes":"{}"}}"#, huge());
    assert_dropped(file.as_bytes(), notes, kept.len(), true, false);
    // A design that reads another field keeps that (nothing of the huge one): no loss.
    let customer =
        Importer::new(Format::Ndjson, None).keeping_fields(FieldPaths::new(["Customer"]));
    let (documents, imported) = read_taking(file.as_bytes(), customer).unwrap();
    assert!(imported.bodies_dropped.is_empty());
    assert_eq!(documents[0].body.as_deref(), Some("{}"));
}

#[test]
fn csv_and_id_only_imports_drop_nothing() {
    let file = format!("id,size,collection\nbig,{},Orders\n", u64::MAX);
    let (_, imported) = read_taking(file.as_bytes(), Importer::new(Format::Csv, None)).unwrap();
    assert!(imported.bodies_dropped.is_empty());
    let big = big_object(&huge());
    let without = Importer::new(Format::Ndjson, None).without_bodies();
    let (documents, imported) = read_taking(big.as_bytes(), without).unwrap();
    assert_eq!(
        (
            documents[0].body.as_deref(),
            imported.bodies_dropped.is_empty()
        ),
        (None, true)
    );
}

#[test]
fn bodies_held_at_once_over_the_limit_are_counted_too() {
    // Read at once (nothing taken), bodies under the limit each fill it together.
    let half = "x".repeat(MAX_BODY_BYTES / 2);
    let file = format!(
        "{}\n{}\n{}\n",
        big_object(&half),
        big_object(&half),
        big_object(&half)
    );
    let mut importer = Importer::new(Format::Ndjson, None);
    importer.push(file.as_bytes()).unwrap();
    let imported = importer.finish().unwrap();
    let kept = imported
        .documents
        .iter()
        .filter(|d| d.body.is_some())
        .count();
    assert_eq!((kept, imported.bodies_dropped.documents), (1, 2));
    let text = imported.bodies_dropped.to_string();
    assert!(text.contains("import the file in smaller parts"), "{text}");
}

#[test]
fn the_message_says_how_many_why_and_what_to_do() {
    let one = BodiesDropped {
        documents: 1,
        largest: 40 << 20,
        fields: true,
    };
    assert_eq!(
        one.to_string(),
        "1 document's body was not kept (the largest 41943040 bytes of those fields): an \
         import holds at most 32 MiB of bodies at once, and such a body alone is more. It \
         keeps its ID, size and collection and is placed by its ID alone, as a document \
         without the fields the design reads. To have them read, make the fields the design \
         reads of each such document smaller than 32 MiB and import the file again."
    );
    let two = BodiesDropped {
        documents: 2,
        largest: 40 << 20,
        fields: false,
    };
    assert!(two
        .to_string()
        .starts_with("2 documents' bodies were not kept (the largest 41943040 bytes): "));
    assert!(two
        .to_string()
        .contains("They keep their ID, size and collection and are placed"));
}
