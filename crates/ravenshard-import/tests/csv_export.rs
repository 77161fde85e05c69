//! ravenshard's own CSV export read back: neutralised cells, the header that marks the file,
//! and foreign CSVs whose leading `'` is data.

use proptest::prelude::*;
use ravenshard_import::csv_export::{restore_cell, write_cell, EXPORT_HEADER};
use ravenshard_import::{import, Format, Imported, Importer};

/// An export of `(id, collection)` rows as the studio writes one (bucket, shard and size as
/// numbers that do not matter here).
fn export(rows: &[(&str, &str)]) -> String {
    let mut out = String::from(EXPORT_HEADER);
    for (id, collection) in rows {
        write_cell(&mut out, id);
        out.push_str(",7,1,");
        write_cell(&mut out, collection);
        out.push_str(",12\n");
    }
    out
}

fn read(csv: &str) -> Imported {
    import(csv.as_bytes(), Format::Csv).unwrap()
}

fn ids(imported: &Imported) -> Vec<&str> {
    imported.documents.iter().map(|d| d.id.as_str()).collect()
}

#[test]
fn formula_cells_are_written_with_a_quote_mark() {
    let csv = export(&[
        ("-1", "Orders"),
        ("=cmd|'/c calc'!A1", "@evil"),
        ("+1", "-"),
        ("@SUM(A1,A2)", ""),
        ("\tx", "Orders"),
        ("\rx", "Orders"),
        ("'-1", "Orders"),
        ("'plain", "Orders"),
        ("orders/1-A", "Orders"),
        ("<img src=x onerror=alert(1)>", "Orders"),
    ]);
    assert_eq!(
        csv,
        "id,bucket,shard,collection,size\n\
         '-1,7,1,Orders,12\n\
         '=cmd|'/c calc'!A1,7,1,'@evil,12\n\
         '+1,7,1,'-,12\n\
         \"'@SUM(A1,A2)\",7,1,,12\n\
         '\tx,7,1,Orders,12\n\
         \"'\rx\",7,1,Orders,12\n\
         ''-1,7,1,Orders,12\n\
         'plain,7,1,Orders,12\n\
         orders/1-A,7,1,Orders,12\n\
         <img src=x onerror=alert(1)>,7,1,Orders,12\n"
    );
    // No cell of the file, unquoted, begins with a formula character.
    for line in csv.lines().skip(1) {
        let first = line.trim_start_matches('"').chars().next().unwrap();
        assert!(!"=+-@\t\r".contains(first), "{line:?}");
    }
}

#[test]
fn an_export_reads_back_to_the_ids_and_collections_written() {
    let imported = read(&export(&[
        ("-1", "Orders"),
        ("=cmd", "@evil"),
        ("'-1", "-x"),
        ("'plain", "'Orders"),
        ("\rx", "Orders"),
    ]));
    assert_eq!(ids(&imported), ["-1", "=cmd", "'-1", "'plain", "\rx"]);
    let collections: Vec<_> = imported
        .documents
        .iter()
        .map(|d| d.collection.as_deref())
        .collect();
    assert_eq!(
        collections,
        [
            Some("Orders"),
            Some("@evil"),
            Some("-x"),
            Some("'Orders"),
            Some("Orders")
        ]
    );
    assert!(imported.documents.iter().all(|d| d.size == Some(12)));
}

#[test]
fn a_foreign_csv_keeps_its_leading_quote_marks() {
    // Another header (here: another case, another column) is not ravenshard's export.
    for header in [
        "id",
        "ID,bucket,shard,collection,size",
        "id,bucket,shard,collection,size,x",
    ] {
        let csv = format!("{header}\n'-1\n'=cmd\n-2\n");
        assert_eq!(ids(&read(&csv)), ["'-1", "'=cmd", "-2"], "{header}");
    }
    // Without a header, too.
    assert_eq!(ids(&read("'-1,5\n'@x,6\n")), ["'-1", "'@x"]);
}

#[test]
fn an_export_edited_in_a_spreadsheet_reads_the_same() {
    // A spreadsheet that saves the cells as shown keeps the header and the quote marks;
    // one that drops a quote mark leaves the cell as it was (`-1` stays `-1`).
    let csv = "id,bucket,shard,collection,size\n'-1,,,,\n-1,,,,\n";
    assert_eq!(ids(&read(csv)), ["-1", "-1"]);
}

#[test]
fn restore_undoes_write_for_cells_without_csv_quoting() {
    for cell in [
        "", "'", "''", "-", "'-", "''-", "x", "'x", "=1+2", "@", "\t", "\0a",
    ] {
        let mut out = String::new();
        write_cell(&mut out, cell);
        assert_eq!(restore_cell(&out), cell, "{out:?}");
    }
}

/// IDs that begin with what a spreadsheet reads as a formula, quote marks, CSV's own
/// characters, or anything else.
fn id() -> impl Strategy<Value = String> {
    ("['=+@\\t\\r\\x00\\-,\"\n x]{0,4}", any::<String>())
        .prop_map(|(head, tail)| head + &tail)
        .prop_filter("an ID RavenDB takes", |id| ravenshard::check_id(id).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Writing an export and reading it back, in any chunks, gives the same IDs and
    /// collections.
    #[test]
    fn write_then_read_is_the_identity(
        rows in prop::collection::vec((id(), "['=+@\\-]{0,2}[A-Za-z]{1,6}"), 1..8),
        chunk in 1usize..64,
    ) {
        let rows: Vec<(&str, &str)> = rows.iter().map(|(i, c)| (i.as_str(), c.as_str())).collect();
        let csv = export(&rows);
        let mut importer = Importer::new(Format::Csv, None);
        for piece in csv.as_bytes().chunks(chunk) {
            importer.push(piece).unwrap();
        }
        let imported = importer.finish().unwrap();
        prop_assert_eq!(imported.skipped, 0);
        let read: Vec<(&str, &str)> = imported
            .documents
            .iter()
            .map(|d| (d.id.as_str(), d.collection.as_deref().unwrap_or_default()))
            .collect();
        prop_assert_eq!(read, rows);
    }

    /// A CSV that is not ravenshard's export reads its cells as written.
    #[test]
    fn a_foreign_csv_reads_as_written(ids in prop::collection::vec(id(), 1..8)) {
        let mut csv = String::from("id,size\n");
        for id in &ids {
            // Quoted as RFC 4180 says, never neutralised.
            csv.push('"');
            csv.push_str(&id.replace('"', "\"\""));
            csv.push_str("\",1\n");
        }
        let imported = read(&csv);
        let read: Vec<&str> = imported.documents.iter().map(|d| d.id.as_str()).collect();
        prop_assert_eq!(read, ids.iter().map(String::as_str).collect::<Vec<_>>());
    }
}
