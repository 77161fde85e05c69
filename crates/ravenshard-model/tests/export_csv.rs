//! The studio's CSV export read back by ravenshard's CSV reader: the same documents, with
//! every cell a spreadsheet would take for a formula neutralised in the file.

use proptest::prelude::*;
use ravenshard::{bucket_for, Topology};
use ravenshard_import::{import, Format};
use ravenshard_model::export::documents_csv;
use ravenshard_model::workspace::{Document, Placement};

fn doc(id: &str, size: Option<u64>, collection: Option<&str>) -> Document {
    let mut d = Document::new(id);
    d.size = size;
    d.collection = collection.map(Into::into);
    d
}

fn placed(documents: &[Document]) -> Placement {
    Placement::new(
        documents,
        &Topology::with_shards(3).unwrap(),
        &Default::default(),
    )
}

#[test]
fn formula_ids_and_markup_in_the_export() {
    let documents = [
        doc("-1", Some(5), Some("Orders")),
        doc("=cmd|'/c calc'!A1", None, Some("@x")),
        doc("<img src=x onerror=alert(1)>", Some(1), None),
    ];
    let csv = documents_csv(&placed(&documents));
    let bucket = |id| bucket_for(id).unwrap();
    let shard = |id| Topology::with_shards(3).unwrap().locate(id).unwrap().shard;
    assert_eq!(
        csv,
        format!(
            "id,bucket,shard,collection,size\n\
             '-1,{},{},Orders,5\n\
             '=cmd|'/c calc'!A1,{},{},'@x,\n\
             <img src=x onerror=alert(1)>,{},{},,1\n",
            bucket("-1"),
            shard("-1"),
            bucket("=cmd|'/c calc'!A1"),
            shard("=cmd|'/c calc'!A1"),
            bucket("<img src=x onerror=alert(1)>"),
            shard("<img src=x onerror=alert(1)>"),
        )
    );
    let back = import(csv.as_bytes(), Format::Csv).unwrap();
    assert_eq!(back.documents, documents);
}

fn id() -> impl Strategy<Value = String> {
    ("['=+@\\t\\r\\-,\"\n x]{0,3}", any::<String>())
        .prop_map(|(head, tail)| head + &tail)
        .prop_filter("an ID RavenDB takes", |id| ravenshard::check_id(id).is_ok())
}

fn document() -> impl Strategy<Value = Document> {
    (
        id(),
        proptest::option::of(0u64..1 << 40),
        "(['=+@\\-]?[A-Za-z]{1,6})?",
    )
        .prop_map(|(id, size, collection)| {
            let collection = Some(collection).filter(|c| !c.is_empty());
            Document {
                id,
                size,
                collection,
                body: None,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The export of any documents (IDs and collections that begin with formula characters
    /// included) reads back to the same documents.
    #[test]
    fn export_then_import_is_the_identity(documents in prop::collection::vec(document(), 1..10)) {
        let csv = documents_csv(&placed(&documents));
        let back = import(csv.as_bytes(), Format::Csv).unwrap();
        prop_assert_eq!(back.skipped, 0);
        prop_assert_eq!(&back.documents, &documents);
    }
}
