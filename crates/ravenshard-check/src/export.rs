//! Reading the export: the one module that uses `ravenshard_model::import` (it moves to
//! `ravenshard_import` with the crates' split; retarget it here).

use crate::error::CheckError;
use ravenshard::Document;
use ravenshard_model::import::{FieldPaths, Format, Importer};

/// The export's documents, keeping of each body only the values at `fields`.
pub(crate) fn read(bytes: &[u8], fields: &[&str]) -> Result<Vec<Document>, CheckError> {
    let head = bytes
        .get(..bytes.len().min(ravenshard_model::import::DETECT_BYTES))
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
