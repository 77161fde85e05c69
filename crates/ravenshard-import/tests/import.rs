//! Reading document lists: every format, chunk boundaries, compression, errors.

use flate2::write::GzEncoder;
use flate2::Compression;
use proptest::prelude::*;
use ravenshard::document::Document;
use ravenshard::IdError;
use ravenshard_import::{
    import, Format, ImportError, ImportWarning, Imported, Importer, Location, MAX_WARNINGS,
};
use std::io::Write;

fn doc(id: &str, size: Option<u64>, collection: Option<&str>) -> Document {
    let mut d = Document::new(id);
    d.size = size;
    d.collection = collection.map(Into::into);
    d
}

/// The documents without their bodies (compared on their own).
fn heads(imported: &Imported) -> Vec<Document> {
    let mut documents = imported.documents.clone();
    for d in &mut documents {
        d.body = None;
    }
    documents
}

fn ids(imported: &Imported) -> Vec<&str> {
    imported.documents.iter().map(|d| d.id.as_str()).collect()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Imports `bytes` pushed in the pieces that `cuts` (ascending positions) make.
fn import_cut(bytes: &[u8], format: Format, cuts: &[usize]) -> Result<Imported, ImportError> {
    let mut importer = Importer::new(format, Some(bytes.len() as u64));
    let mut start = 0;
    for &cut in cuts.iter().chain([bytes.len()].iter()) {
        importer.push(&bytes[start..cut])?;
        start = cut;
    }
    importer.finish()
}

/// The result does not depend on where chunks end: split at every position, and byte by byte.
fn assert_chunking_does_not_matter(bytes: &[u8], format: Format) -> Result<Imported, ImportError> {
    let whole = import(bytes, format);
    for cut in 0..=bytes.len() {
        assert_eq!(import_cut(bytes, format, &[cut]), whole, "split at {cut}");
    }
    let every: Vec<usize> = (1..bytes.len()).collect();
    assert_eq!(import_cut(bytes, format, &every), whole, "byte by byte");
    whole
}

// ---------------------------------------------------------------------------------------
// Plain text

#[test]
fn text_lines_with_sizes_crlf_bom_and_blank_lines() {
    let text = "\u{feff}orders/1-A\t1200\r\n\r\n  \norders/2-A\ncustomers/1-A\t 7 \r\nÉté/1\t0";
    let imported = assert_chunking_does_not_matter(text.as_bytes(), Format::Text).unwrap();
    assert_eq!(
        imported.documents,
        [
            doc("orders/1-A", Some(1200), None),
            doc("orders/2-A", None, None),
            doc("customers/1-A", Some(7), None),
            doc("Été/1", Some(0), None),
        ]
    );
    assert_eq!(imported.skipped, 0);
}

#[test]
fn text_lines_are_the_editors_lines() {
    // id<TAB>size<TAB>collection<TAB>body, as the ID editor and share links write them.
    let text = "orders/1-A\t120\tOrders\t{\"Customer\": \"c\"}\nusers/4\t\tUsers\nx\t7\t \n";
    let imported = assert_chunking_does_not_matter(text.as_bytes(), Format::Text).unwrap();
    assert_eq!(
        heads(&imported),
        [
            doc("orders/1-A", Some(120), Some("Orders")),
            doc("users/4", None, Some("Users")),
            doc("x", Some(7), None),
        ]
    );
    assert_eq!(
        imported.documents[0].body.as_deref(),
        Some("{\"Customer\": \"c\"}")
    );
    let editor: Vec<Document> = Document::parse_lines(text)
        .map(|line| line.document)
        .collect();
    assert_eq!(imported.documents, editor);
}

#[test]
fn text_ids_keep_their_spaces_and_an_empty_size_is_no_size() {
    let imported = import(b" a b \nc\t\n", Format::Text).unwrap();
    assert_eq!(
        imported.documents,
        [doc(" a b ", None, None), doc("c", None, None)]
    );
}

#[test]
fn text_bad_sizes_name_their_line() {
    for (text, line, bad) in [
        ("a\nb\tbig\n", 2, "big"),
        ("a\t-1", 1, "-1"),
        ("a\t1.5", 1, "1.5"),
        ("a\t12x\tOrders", 1, "12x"),
        ("a\n\nb\t99999999999999999999", 3, "99999999999999999999"),
    ] {
        let err = assert_chunking_does_not_matter(text.as_bytes(), Format::Text).unwrap_err();
        assert_eq!(
            err,
            ImportError::BadSize {
                line,
                text: bad.into()
            },
            "{text:?}"
        );
        assert!(err
            .to_string()
            .starts_with(&format!("line {line}: the size")));
    }
}

#[test]
fn invalid_utf8_names_line_and_offset() {
    let err = assert_chunking_does_not_matter(b"ok\nab\xffc\n", Format::Text).unwrap_err();
    assert_eq!(err, ImportError::InvalidUtf8 { line: 2, offset: 5 });
    assert_eq!(
        err.to_string(),
        "line 2: invalid UTF-8 at byte 5. Save the file as UTF-8 and import it again."
    );
    // Latin-1 "é" in a CSV.
    let err = import(b"id,size\ncaf\xe9,1\n", Format::Csv).unwrap_err();
    assert_eq!(
        err,
        ImportError::InvalidUtf8 {
            line: 2,
            offset: 11
        }
    );
    // A multi-byte character split across chunks is fine.
    let text = "ünïcødé/1\n𐐀/2\n".as_bytes();
    let imported = assert_chunking_does_not_matter(text, Format::Text).unwrap();
    assert_eq!(ids(&imported), ["ünïcødé/1", "𐐀/2"]);
}

#[test]
fn invalid_ids_are_skipped_with_counted_warnings() {
    let long = "x".repeat(513);
    let text = format!("a\n\t5\n{long}\nb\n");
    let imported = assert_chunking_does_not_matter(text.as_bytes(), Format::Text).unwrap();
    assert_eq!(ids(&imported), ["a", "b"]);
    assert_eq!(imported.skipped, 2);
    assert_eq!(
        imported.warnings,
        [
            ImportWarning::InvalidId {
                at: Location::Line(2),
                error: IdError::Empty
            },
            ImportWarning::InvalidId {
                at: Location::Line(3),
                error: IdError::TooLong { bytes: 513 }
            },
        ]
    );
    assert!(imported.warnings[1]
        .to_string()
        .starts_with("line 3: skipped: Document ID cannot exceed 512 bytes"));
}

#[test]
fn warnings_are_capped_but_all_counted() {
    let text = "\t1\n".repeat(MAX_WARNINGS + 50) + "a\n";
    let imported = import(text.as_bytes(), Format::Text).unwrap();
    assert_eq!(ids(&imported), ["a"]);
    assert_eq!(imported.skipped, MAX_WARNINGS + 50);
    assert_eq!(imported.warnings.len(), MAX_WARNINGS);
}

// ---------------------------------------------------------------------------------------
// CSV

#[test]
fn csv_without_header() {
    let csv = "orders/1-A,1200,Orders\r\norders/2-A,,\r\ncustomers/1-A\r\nemployees/1-A,7, Employees \r\n";
    let imported = assert_chunking_does_not_matter(csv.as_bytes(), Format::Csv).unwrap();
    assert_eq!(
        imported.documents,
        [
            doc("orders/1-A", Some(1200), Some("Orders")),
            doc("orders/2-A", None, None),
            doc("customers/1-A", None, None),
            doc("employees/1-A", Some(7), Some("Employees")),
        ]
    );
}

#[test]
fn csv_headers_are_detected_and_name_columns() {
    for header in [
        "id,size,collection",
        "Id,Size,Collection",
        "@id",
        "ID,bytes",
    ] {
        let csv = format!("{header}\na,1,C\n");
        let imported = import(csv.as_bytes(), Format::Csv).unwrap();
        assert_eq!(ids(&imported), ["a"], "{header}");
    }
    // A second cell that is not a number marks a header; its columns are positional.
    let imported = import(b"Document,Length\na,5\n", Format::Csv).unwrap();
    assert_eq!(imported.documents, [doc("a", Some(5), None)]);
    // Named columns in any order; other columns are ignored.
    let csv = "Collection,Name,@id,Size\nOrders,\"Smith, J.\",orders/1-A,300\n";
    let imported = assert_chunking_does_not_matter(csv.as_bytes(), Format::Csv).unwrap();
    assert_eq!(
        imported.documents,
        [doc("orders/1-A", Some(300), Some("Orders"))]
    );
    // A header after a BOM.
    let imported = import("\u{feff}Id,Size\r\na,1\r\n".as_bytes(), Format::Csv).unwrap();
    assert_eq!(imported.documents, [doc("a", Some(1), None)]);
}

#[test]
fn csv_quoting_follows_rfc_4180() {
    let csv = "\"orders/1,A\",12,\"Orders\"\n\"say \"\"hi\"\"\",3\n\"multi\nline\",4,x\nlast,5";
    let imported = assert_chunking_does_not_matter(csv.as_bytes(), Format::Csv).unwrap();
    assert_eq!(
        imported.documents,
        [
            doc("orders/1,A", Some(12), Some("Orders")),
            doc("say \"hi\"", Some(3), None),
            doc("multi\nline", Some(4), Some("x")),
            doc("last", Some(5), None),
        ]
    );
}

#[test]
fn csv_errors_name_their_line() {
    let cases: [(&str, ImportError); 4] = [
        (
            "a,1\nb,x\n",
            ImportError::BadSize {
                line: 2,
                text: "x".into(),
            },
        ),
        (
            "a,1,c,d\n",
            ImportError::CsvTooManyFields { line: 1, fields: 4 },
        ),
        (
            "a,1\n\"b\n\nc,2\n",
            ImportError::CsvUnclosedQuote { line: 2 },
        ),
        (
            "\"a\nb\",1\nc,-2",
            ImportError::BadSize {
                line: 3,
                text: "-2".into(),
            },
        ),
    ];
    for (csv, expected) in cases {
        let err = assert_chunking_does_not_matter(csv.as_bytes(), Format::Csv).unwrap_err();
        assert_eq!(err, expected, "{csv:?}");
    }
    let err = import(b"a,1,c,d", Format::Csv).unwrap_err();
    assert!(err.to_string().contains("add a header row"), "{err}");
}

#[test]
fn csv_quotes_inside_and_after_fields_are_kept() {
    // A quote inside an unquoted field is text; text after a closing quote is kept, as
    // csv-core (and Python's csv) read it.
    let csv = "a\"b,1\n\"c\"d,2\n\"é\",\"3\"\n";
    let imported = assert_chunking_does_not_matter(csv.as_bytes(), Format::Csv).unwrap();
    assert_eq!(
        imported.documents,
        [
            doc("a\"b", Some(1), None),
            doc("cd", Some(2), None),
            doc("é", Some(3), None),
        ]
    );
    // An unclosed quote names the line where its record starts, wherever the file ends.
    for csv in ["a,1\n\n\"b\n\nc,2\n", "a\n\"b\"\"", "\"", "a\n\"b,\"\"\r\n"] {
        let err = assert_chunking_does_not_matter(csv.as_bytes(), Format::Csv).unwrap_err();
        let line = csv[..csv.find('"').unwrap()].matches('\n').count() + 1;
        assert_eq!(err, ImportError::CsvUnclosedQuote { line }, "{csv:?}");
    }
}

#[test]
fn csv_empty_ids_are_warnings() {
    let imported = import(b",5\n\"\",6\na\n", Format::Csv).unwrap();
    assert_eq!(ids(&imported), ["a"]);
    assert_eq!(imported.skipped, 2);
    assert_eq!(imported.warnings[1].location(), &Location::Line(2));
}

// ---------------------------------------------------------------------------------------
// JSON and NDJSON

#[test]
fn json_arrays_of_ids_and_documents() {
    let json = r#"
[
  "orders/1-A",
  { "Id": "orders/2-A", "Lines": [ { "Product": "products/1-A", "Note": "a \"]}\" b" } ] },
  { "id": "orders/3-A" },
  { "Company": "x", "@metadata": { "@id": "orders/4-A", "@collection": "Orders", "@flags": "HasRevisions" } },
  { "Name": "Ünïcode ✓" , "@metadata" : { "@id" : "products/1-A" } }
]
"#;
    let imported = assert_chunking_does_not_matter(json.as_bytes(), Format::Json).unwrap();
    assert_eq!(
        ids(&imported),
        [
            "orders/1-A",
            "orders/2-A",
            "orders/3-A",
            "orders/4-A",
            "products/1-A"
        ]
    );
    assert_eq!(imported.documents[0].size, None);
    assert_eq!(imported.documents[3].collection.as_deref(), Some("Orders"));
    // Sizes are the compact serialization's length.
    let values: Vec<serde_json::Value> = serde_json::from_str(json).unwrap();
    for (d, v) in imported.documents.iter().zip(&values).skip(1) {
        assert_eq!(
            d.size,
            Some(serde_json::to_string(v).unwrap().len() as u64),
            "{}",
            d.id
        );
    }
}

#[test]
fn json_documents_without_ids_are_warnings() {
    let imported = import(b"[{\"Name\": \"x\"},\n {\"Id\": 5}, \"a\"]", Format::Json).unwrap();
    assert_eq!(ids(&imported), ["a"]);
    assert_eq!(
        imported.warnings,
        [
            ImportWarning::MissingId {
                at: Location::Element {
                    path: "$[0]".into(),
                    line: 1
                }
            },
            ImportWarning::MissingId {
                at: Location::Element {
                    path: "$[1]".into(),
                    line: 2
                }
            },
        ]
    );
    assert_eq!(
        imported.warnings[1].to_string(),
        "$[1] (line 2): skipped: the document has no ID (a string in @metadata.@id, Id or id). \
         Give it an ID."
    );
}

#[test]
fn json_errors_have_path_line_and_column() {
    let cases: [(&str, &str, usize, usize); 8] = [
        ("[\"a\",\n  {\"Id\": \"b\",, }]", "$[1]", 2, 14),
        (
            "[\"a\",\n {\"@metadata\": {\"@id\": \"x\", \"@collection\": [1}}]",
            "$[1].@metadata.@collection",
            2,
            46,
        ),
        ("[\"a\" \"b\"]", "$", 1, 6),
        ("[\"a\",", "$", 1, 6),
        ("[\"a\", {\"Id\": \"b\"", "$[1]", 1, 17),
        ("", "$", 1, 1),
        ("[1]", "$[0]", 1, 2),
        ("[\"a\"]\n[\"b\"]", "$", 2, 1),
    ];
    for (json, path, line, column) in cases {
        let err = assert_chunking_does_not_matter(json.as_bytes(), Format::Json).unwrap_err();
        match &err {
            ImportError::Json {
                path: p,
                line: l,
                column: c,
                ..
            } => assert_eq!(
                (p.as_str(), *l, *c),
                (path, line, column),
                "{json:?}: {err}"
            ),
            other => panic!("{json:?}: {other:?}"),
        }
        assert!(
            err.to_string().starts_with(&format!(
                "{path}: invalid JSON at line {line}, column {column}"
            )),
            "{err}"
        );
    }
    assert_eq!(
        import(b"{\"a\": [1]}", Format::Json),
        Err(ImportError::NoDocsArray)
    );
    let err = import(b"name,size", Format::Json).unwrap_err();
    assert!(err.to_string().contains("expected '['"), "{err}");
}

#[test]
fn ndjson_lines() {
    let text = "\u{feff}{\"Id\": \"a\", \"x\": [1, 2]}\r\n\r\n\"b\"\n  {\"@metadata\": {\"@id\": \"c\", \"@collection\": \"Cs\"}}  \n{\"Name\": 1}";
    let imported = assert_chunking_does_not_matter(text.as_bytes(), Format::Ndjson).unwrap();
    // A document object keeps its JSON as its body (on one line); a bare ID has none.
    let bodies: Vec<Option<&str>> = imported
        .documents
        .iter()
        .map(|d| d.body.as_deref())
        .collect();
    assert_eq!(
        bodies,
        [
            Some("{\"Id\": \"a\", \"x\": [1, 2]}"),
            None,
            Some("{\"@metadata\": {\"@id\": \"c\", \"@collection\": \"Cs\"}}"),
        ]
    );
    assert_eq!(
        heads(&imported),
        [
            doc("a", Some(20), None),
            doc("b", None, None),
            doc("c", Some(44), Some("Cs")),
        ]
    );
    assert_eq!(
        imported.warnings,
        [ImportWarning::MissingId {
            at: Location::Line(5)
        }]
    );
    let err =
        assert_chunking_does_not_matter(b"\"a\"\n  {\"Id\": }\n", Format::Ndjson).unwrap_err();
    assert_eq!(
        err,
        ImportError::Json {
            path: "Id".into(),
            line: 2,
            column: 10,
            message: "expected value".into()
        }
    );
    let err = import(b"{\"Id\": \"a\"} {\"Id\": \"b\"}", Format::Ndjson).unwrap_err();
    assert!(
        matches!(
            err,
            ImportError::Json {
                line: 1,
                column: 13,
                ..
            }
        ),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// RavenDB exports

const COMPANY: &str = r#"{"Name":"Acme","@metadata":{"@collection":"Companies","@change-vector":"A:1","@id":"companies/1-A","@last-modified":"2024-01-01T00:00:00.0000000Z"}}"#;
const ORDER: &str = r#"{ "Total": 12.5, "Lines": [ { "Note": "a \"]}\" é" } ],
  "@metadata": {"@attachments":[{"Name":"a.png","Hash":"abc=","Size":6}],"@collection":"Orders","@id":"orders/1-A$companies/1-A","@flags":"HasAttachments"}}"#;

/// The length of `text`'s compact serialization.
fn compact(text: &str) -> Option<u64> {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    Some(serde_json::to_string(&value).unwrap().len() as u64)
}

/// An export as RavenDB 6 writes it: a database record, documents with an attachment stream
/// (raw bytes inside the JSON), and later sections that hold raw bytes too.
fn export_json() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(br#"{"BuildVersion":60025,"DatabaseRecord":{"DatabaseName":"Shop","Settings":{"x":"]}"}},"Docs":["#);
    out.extend_from_slice(COMPANY.as_bytes());
    out.extend_from_slice(
        br#",{"@metadata":{"@export-type":"Attachment"},"Hash":"abc=","Size":6,"Tag":"t"}"#,
    );
    out.extend_from_slice(b"\x00\"]}\xff{,\n");
    out.extend_from_slice(ORDER.as_bytes());
    out.extend_from_slice(br#"],"RevisionDocuments":[],"TimeSeries":[{"@metadata":{}}"#);
    out.extend_from_slice(b"\x01\x02\xff raw segment ]]}}");
    out.extend_from_slice(br#"],"Identities":[]}"#);
    out
}

#[test]
fn ravendb_export_round_trip() {
    let json = export_json();
    let gz = gzip(&json);
    let imported = assert_chunking_does_not_matter(&gz, Format::RavenDump).unwrap();
    let body: serde_json::Value =
        serde_json::from_str(imported.documents[1].body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body,
        serde_json::from_str::<serde_json::Value>(ORDER).unwrap()
    );
    assert_eq!(
        heads(&imported),
        [
            doc("companies/1-A", compact(COMPANY), Some("Companies")),
            doc("orders/1-A$companies/1-A", compact(ORDER), Some("Orders")),
        ]
    );
    assert_eq!(imported.skipped, 0);
    // The same JSON uncompressed (Zstd "no compression" exports are plain JSON), and
    // detected from the first bytes.
    assert_eq!(import(&json, Format::RavenDump), Ok(imported.clone()));
    assert_eq!(Format::detect(None, &gz[..16]), Format::RavenDump);
    assert_eq!(Format::detect(None, &json), Format::RavenDump);
    // Multi-member gzip (e.g. from pigz) reads the same.
    let (a, b) = json.split_at(100);
    let two = [gzip(a), gzip(b)].concat();
    assert_eq!(import(&two, Format::RavenDump), Ok(imported));
}

#[test]
fn ravendb_export_document_without_id_is_a_warning() {
    let json = br#"{"BuildVersion":60025,"Docs":[{"@metadata":{"@id":"a"}},{"@metadata":{"@collection":"X"}}]}"#;
    let imported = import(&gzip(json), Format::RavenDump).unwrap();
    assert_eq!(ids(&imported), ["a"]);
    assert_eq!(
        imported.warnings,
        [ImportWarning::MissingId {
            at: Location::Element {
                path: "Docs[1]".into(),
                line: 1
            }
        }]
    );
}

#[test]
fn ravendb_export_errors() {
    let json =
        br#"{"BuildVersion":60025,"Docs":[{"@metadata":{"@id":"a"}},{"@metadata":{"@id":"b"},}]}"#;
    let err = import(&gzip(json), Format::RavenDump).unwrap_err();
    assert!(
        matches!(&err, ImportError::Json { path, line: 1, column: 82, .. } if path == "Docs[1]"),
        "{err}"
    );
    assert_eq!(
        import(
            &gzip(br#"{"BuildVersion":60025,"Indexes":[]}"#),
            Format::RavenDump
        ),
        Err(ImportError::NoDocsArray)
    );
    assert_eq!(
        import(b"PK\x03\x04zip", Format::RavenDump),
        Err(ImportError::NotAnExport)
    );
    let err = import(b"(\xb5/\xfd\x00\x00", Format::RavenDump).unwrap_err();
    assert_eq!(err, ImportError::Zstd);
    assert!(err.to_string().contains("Export again with Gzip"), "{err}");
}

#[test]
fn corrupt_and_truncated_gzip() {
    let gz = gzip(&export_json());
    // Truncated in the header, the compressed data or the trailer: the file is incomplete.
    for cut in [2, 5, 10, 20, gz.len() / 2, gz.len() - 9, gz.len() - 1] {
        let err = import(&gz[..cut], Format::RavenDump).unwrap_err();
        assert_eq!(
            err,
            ImportError::GzipTruncated { offset: cut as u64 },
            "cut at {cut}"
        );
        assert!(err.to_string().contains("the file is incomplete"), "{err}");
    }
    // A damaged byte in the compressed data or the checksum.
    let mut bad = gz.clone();
    bad[15] ^= 0xff;
    let err = import(&bad, Format::RavenDump).unwrap_err();
    assert!(
        matches!(
            err,
            ImportError::Gzip { .. } | ImportError::GzipTruncated { .. } | ImportError::Json { .. }
        ),
        "{err:?}"
    );
    let mut bad_crc = gz.clone();
    let n = bad_crc.len();
    bad_crc[n - 6] ^= 0x01;
    let err = import(&bad_crc, Format::RavenDump).unwrap_err();
    assert!(
        matches!(
            err,
            ImportError::Gzip { .. } | ImportError::GzipTruncated { .. }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("gzip"), "{err}");
    // Garbage after the gzip data.
    let mut tail = gz.clone();
    tail.extend_from_slice(b"this is not another gzip member");
    let err = import(&tail, Format::RavenDump).unwrap_err();
    assert!(matches!(err, ImportError::Gzip { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("not a valid gzip file (.ravendbdump): corrupt data near compressed byte"),
        "{err}"
    );
}

#[test]
fn gzip_in_any_chunk_size_gives_the_same_documents() {
    let lines: String = (0..40_000u64)
        .map(|i| format!("orders/{i}-A\t{}\n", i * 7919 % 100_003))
        .collect();
    let (a, b) = lines.as_bytes().split_at(lines.len() / 3);
    // Two members, the second one spanning several 64 KiB chunks.
    let text = [gzip(a), gzip(b)].concat();
    assert!(text.len() > 3 * (64 << 10), "{}", text.len());
    let export = gzip(&export_json());
    for (bytes, format) in [(&text, Format::Text), (&export, Format::RavenDump)] {
        let whole = import(bytes, format).unwrap();
        for size in [1, 2, 3, 7, 64 << 10] {
            let mut importer = Importer::new(format, None);
            for chunk in bytes.chunks(size) {
                importer.push(chunk).unwrap();
            }
            assert_eq!(
                importer.finish().unwrap(),
                whole,
                "{format:?} in chunks of {size}"
            );
        }
    }
}

#[test]
fn any_format_may_be_gzipped() {
    let text = gzip(b"a\t1\nb\n");
    assert_eq!(ids(&import(&text, Format::Text).unwrap()), ["a", "b"]);
    let csv = gzip(b"id,size\na,1\n");
    assert_eq!(ids(&import(&csv, Format::Csv).unwrap()), ["a"]);
    assert_eq!(Format::detect(Some("ids.csv.gz"), &csv), Format::Csv);
}

// ---------------------------------------------------------------------------------------
// The importer itself

#[test]
fn progress_and_documents_so_far() {
    let text = b"a\nb\nc\n";
    let mut importer = Importer::new(Format::Text, Some(text.len() as u64));
    assert_eq!(importer.progress().fraction(), Some(0.0));
    importer.push(&text[..3]).unwrap();
    assert_eq!(importer.documents_so_far(), 1);
    assert_eq!(importer.progress().bytes_read, 3);
    assert_eq!(importer.progress().fraction(), Some(0.5));
    importer.push(&text[3..]).unwrap();
    assert_eq!(importer.documents_so_far(), 3);
    assert_eq!(importer.finish().unwrap().documents.len(), 3);
}

#[test]
fn json_documents_appear_while_the_file_is_coming() {
    let gz = gzip(&export_json());
    let mut importer = Importer::new(Format::RavenDump, None);
    let mut seen = Vec::new();
    for chunk in gz.chunks(64) {
        importer.push(chunk).unwrap();
        seen.push(importer.documents_so_far());
    }
    assert_eq!(importer.finish().unwrap().documents.len(), 2);
    assert!(seen.contains(&1), "{seen:?}");
}

#[test]
fn after_an_error_every_call_fails_the_same_way() {
    let mut importer = Importer::new(Format::Text, None);
    let err = importer.push(b"a\tx\n").unwrap_err();
    assert_eq!(importer.push(b"b\n"), Err(err.clone()));
    assert_eq!(importer.finish(), Err(err));
}

#[test]
fn detection_of_real_looking_files() {
    let cases: [(Option<&str>, &[u8], Format); 6] = [
        (Some("Export.ravendbdump"), b"\x1f\x8b", Format::RavenDump),
        (Some("ids.TXT"), b"a,b", Format::Text),
        (None, b"orders/1-A\norders/2-A\n", Format::Text),
        (None, b"Id,Size\norders/1-A,12\n", Format::Csv),
        (None, b"[\n  {\"Id\": \"a\"}\n]", Format::Json),
        (None, b"{\"Id\": \"a\"}\n", Format::Ndjson),
    ];
    for (name, bytes, format) in cases {
        assert_eq!(Format::detect(name, bytes), format, "{name:?} {bytes:?}");
    }
}

#[test]
fn a_hundred_thousand_lines_are_quick() {
    let text: String = (0..100_000)
        .map(|i| format!("orders/{i}-A\t{}\n", i % 5000))
        .collect();
    let started = std::time::Instant::now();
    let imported = import(text.as_bytes(), Format::Text).unwrap();
    let elapsed = started.elapsed();
    assert_eq!(imported.documents.len(), 100_000);
    println!("100,000 text lines: {elapsed:?}");
    // Generous, for debug builds on slow machines; release takes a few milliseconds.
    assert!(elapsed.as_secs() < 10, "{elapsed:?}");
}

// ---------------------------------------------------------------------------------------
// Properties

fn corpus() -> Vec<(Vec<u8>, Format)> {
    vec![
        (
            b"a\t1\r\nb\n\n\xef\xbb\xbfc\t\nd\tx\n".to_vec(),
            Format::Text,
        ),
        (
            "\u{feff}id,size\r\n\"a,\"\"b\",1\r\n\"c\nd\",\r\ne,2,Es"
                .as_bytes()
                .to_vec(),
            Format::Csv,
        ),
        (
            b"[\"a\", {\"Id\": \"b\", \"x\": \"]\\\"}\"}, {\"n\": 1}, \"\"]".to_vec(),
            Format::Json,
        ),
        (
            b"\"a\"\n{\"id\": \"b\"}\r\n\n{\"Id\": 1}\n".to_vec(),
            Format::Ndjson,
        ),
        (export_json(), Format::RavenDump),
        (gzip(&export_json()), Format::RavenDump),
        (gzip(b"x\ny\n"), Format::Text),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_chunking_gives_the_one_shot_result(
        which in 0usize..7,
        mut cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let (bytes, format) = &corpus()[which];
        let mut cuts: Vec<usize> = cuts.drain(..).map(|i| i.index(bytes.len() + 1)).collect();
        cuts.sort_unstable();
        prop_assert_eq!(import_cut(bytes, *format, &cuts), import(bytes, *format));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), f in 0usize..5) {
        let format = Format::ALL[f];
        let _ = import(&bytes, format);
        let _ = import(&gzip(&bytes), format);
        // Anything after the gzip magic: a random header; a valid header (with every
        // optional field announced, or none) followed by random deflate data.
        for head in [&b"\x1f\x8b"[..], b"\x1f\x8b\x08\x1e", b"\x1f\x8b\x08\x00\0\0\0\0\0\x03"] {
            let _ = import(&[head, &bytes].concat(), format);
        }
    }

    #[test]
    fn damaged_gzip_never_panics(at in any::<prop::sample::Index>(), xor in 1u8.., cut in any::<prop::sample::Index>()) {
        let mut gz = gzip(&export_json());
        let n = gz.len();
        gz[at.index(n)] ^= xor;
        let _ = import(&gz, Format::RavenDump);
        let _ = import(&gz[..cut.index(n + 1)], Format::RavenDump);
    }

    #[test]
    fn text_round_trips(lines in proptest::collection::vec(("[a-zA-Z0-9/$\\-é ]{1,20}", proptest::option::of(0u64..1 << 40)), 0..20)) {
        let lines: Vec<_> = lines.into_iter().filter(|(id, _)| !id.trim().is_empty()).collect();
        let text: String = lines
            .iter()
            .map(|(id, size)| match size {
                Some(s) => format!("{id}\t{s}\n"),
                None => format!("{id}\n"),
            })
            .collect();
        let imported = import(text.as_bytes(), Format::Text).unwrap();
        let expected: Vec<Document> = lines.iter().map(|(id, size)| doc(id, *size, None)).collect();
        prop_assert_eq!(imported.documents, expected);
    }
}
