//! An import keeping only the design's fields places every document exactly as one keeping
//! whole bodies: the same buckets, generated IDs and rejections.

use proptest::prelude::*;
use ravenshard::Topology;
use ravenshard_design::content::ContentDesign;
use ravenshard_import::{FieldPaths, Format, Importer};
use ravenshard_model::workspace::{Document, Placement, PlacementOptions};

/// The chapter's rules: by a reference, by a nested numeric field, by a date, a convention.
const CONFIGURATION: &str = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
    "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000},
                  "Addresses": {"Fields": ["numeric(Address.Zip)", "Address.City"]},
                  "Events": {"Fields": ["ticks(At)"], "Mutable": true}},
    "IdConventions": {"Invoices": "{Id}${OrderId}"}}"#;

/// A value a field may hold: a string, a number, null, an array, an object.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        "(customers|orders)/[1-3]-A".prop_map(|s| format!("\"{s}\"")),
        (0u32..200_000).prop_map(|n| n.to_string()),
        Just("\"2024-01-05T10:00:00Z\"".into()),
        Just("null".into()),
        Just("[1, 2]".into()),
        Just(r#"{"Zip": 98101, "City": "Seattle"}"#.into()),
        Just("12.50".into()),
    ]
}

/// A document object of the export: an ID of a ruled collection (with `$`, `$@` or not)
/// and some of the fields the rules read, among others.
fn document() -> impl Strategy<Value = String> {
    let id =
        "(orders|addresses|events|invoices|users)/[1-9]-A(\\$|\\$customers/1-A|\\$@[0-9]{1,7})?";
    let names = ["Customer", "Address", "At", "OrderId", "Lines", "Name"];
    (id, prop::collection::vec((0..names.len(), value()), 0..6)).prop_map(move |(id, fields)| {
        let collection = id.split('/').next().unwrap_or_default();
        let mut text =
            format!(r#"{{"@metadata": {{"@id": "{id}", "@collection": "{collection}"}}"#);
        for (name, value) in fields {
            text.push_str(&format!(r#", "{}": {value}"#, names[name]));
        }
        text.push('}');
        text
    })
}

fn read(ndjson: &str, fields: Option<FieldPaths>) -> Vec<Document> {
    let mut importer = Importer::new(Format::Ndjson, None);
    if let Some(fields) = fields {
        importer = importer.keeping_fields(fields);
    }
    importer.push(ndjson.as_bytes()).unwrap();
    importer.finish().unwrap().documents
}

proptest! {
    #[test]
    fn pruned_bodies_place_as_whole_bodies(lines in prop::collection::vec(document(), 1..40)) {
        let topology = Topology::from_json(CONFIGURATION).unwrap();
        let design = ContentDesign::from_topology(&topology).unwrap().unwrap();
        let fields = FieldPaths::of_design(&design);
        prop_assert_eq!(
            fields.paths().collect::<Vec<_>>(),
            ["Address.City", "Address.Zip", "At", "Customer", "OrderId"]
        );
        let ndjson = lines.join("\n");
        let (whole, pruned) = (read(&ndjson, None), read(&ndjson, Some(fields)));
        let options = PlacementOptions { design: Some(design), ..Default::default() };
        let a = Placement::new(&whole, &topology, &options);
        let b = Placement::new(&pruned, &topology, &options);
        prop_assert_eq!(a.totals(), b.totals());
        for i in 0..whole.len() {
            prop_assert_eq!(&whole[i].size, &pruned[i].size);
            prop_assert!(pruned[i].body.as_ref().map_or(0, String::len)
                <= whole[i].body.as_ref().map_or(0, String::len));
            prop_assert_eq!(a.place(i), b.place(i), "{}", lines[i]);
            prop_assert_eq!(a.error(i), b.error(i), "{}", lines[i]);
            prop_assert_eq!(a.generated_id(i), b.generated_id(i));
        }
    }
}
