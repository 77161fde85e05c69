//! Reading the export and scoring the advisor's candidates on it: the one module that uses
//! `ravenshard_import` and `ravenshard_advise`.

use crate::error::CheckError;
use ravenshard::Document;
use ravenshard_import::{FieldPaths, Format, Importer};

/// The export's documents, keeping of each body only the values at `fields`.
pub(crate) fn read(bytes: &[u8], fields: &[&str]) -> Result<Vec<Document>, CheckError> {
    let head = bytes
        .get(..bytes.len().min(ravenshard_import::DETECT_BYTES))
        .unwrap_or_default();
    let format = Format::from_content(head);
    let mut importer = Importer::new(format, Some(bytes.len() as u64))
        .keeping_fields(FieldPaths::new(fields.iter().copied()));
    let mut rest = bytes;
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at(importer.next_chunk_len().clamp(1, rest.len()));
        importer
            .push(chunk)
            .map_err(|e| CheckError::Export(format!("(read as {format}) {e}")))?;
        rest = tail;
    }
    let imported = importer
        .finish()
        .map_err(|e| CheckError::Export(format!("(read as {format}) {e}")))?;
    Ok(imported.documents)
}

/// One of the advisor's candidate placements for a collection (`ravenshard advise`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    /// The collection, as the advisor names it.
    pub collection: String,
    /// `none`, `anchor`, `prefix` or `content`.
    pub strategy: String,
    /// The field it reads, if any.
    pub field: Option<String>,
    /// The share of the collection's documents in the bucket of the document their field
    /// names.
    pub colocated: Option<f64>,
    /// Whether the advisor recommends it, and why.
    pub recommended: Option<String>,
}

/// The advisor's candidates for the collections that load, scored on the export under
/// `topology` with the relations as its `LoadDocument` workload.
pub(crate) fn candidates(
    bytes: &[u8],
    topology: &ravenshard::Topology,
    loads: &str,
) -> Result<Vec<Candidate>, CheckError> {
    use ravenshard_advise::{advise, Workload};
    let workload = Workload::parse("", loads).map_err(|e| CheckError::Export(e.to_string()))?;
    let advice =
        advise(bytes, None, topology, &workload).map_err(|e| CheckError::Export(e.to_string()))?;
    let mut out = Vec::new();
    for collection in advice.collections {
        for candidate in &collection.candidates {
            let chosen = collection.recommended.strategy == candidate.strategy
                && collection.recommended.field == candidate.field;
            out.push(Candidate {
                collection: collection.collection.clone(),
                strategy: candidate.strategy.to_string(),
                field: candidate.field.clone(),
                colocated: candidate.colocated,
                recommended: chosen.then(|| collection.recommended.reason.clone()),
            });
        }
    }
    Ok(out)
}
