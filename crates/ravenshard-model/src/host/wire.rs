//! Documents in a message: each as a tuple `(id, size, collection, body)`, every field
//! written. [`Document`]'s own serde form leaves out missing fields (its JSON form), which a
//! codec without field names, such as the studio worker's bincode, cannot read back.

use crate::workspace::Document;
use serde::{Deserialize, Deserializer, Serializer};

/// One document's fields, in order.
type Fields = (String, Option<u64>, Option<String>, Option<String>);

/// Writes `documents` as tuples (`#[serde(with = "wire")]`).
pub fn serialize<S: Serializer>(documents: &[Document], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(
        documents
            .iter()
            .map(|d| (&d.id, d.size, &d.collection, &d.body)),
    )
}

/// Reads documents written by [`serialize`].
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Document>, D::Error> {
    let fields = Vec::<Fields>::deserialize(d)?;
    let documents = fields
        .into_iter()
        .map(|(id, size, collection, body)| Document {
            id,
            size,
            collection,
            body,
        });
    Ok(documents.collect())
}
