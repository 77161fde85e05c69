//! How many documents the studio holds: as many as fit in the page's memory, which wasm32
//! caps at 4 GiB, not a constant.

/// The memory a wasm32 page can address.
pub const WASM_MEMORY: u64 = 4 << 30;

/// What one document costs the studio beyond its ID's bytes: its row of the placement (the
/// one store of the documents in the page), its body when it has one (the generator's
/// orders carry a 29-byte one), its share of the aggregates and of the views' orders, and
/// the copies a job makes while it builds them. Measured as the page's wasm memory growth
/// beyond the IDs' bytes (`web/bench/studio.py --memory --docs 1000000 --ids 1000000`,
/// which only grows, so the jobs' high-water marks): 154 bytes per generated document
/// (157 before the placement's compaction, 256 when the page kept a list of the documents
/// beside it); an import of plain IDs 70 at 1,000,000 and 38 at 10,000,000 (97 and 56
/// before). The generation's figure, the largest, rounded up for the allocator's slack.
pub const DOCUMENT_BYTES: u64 = 170;

/// The share of [`WASM_MEMORY`] the documents may take; the rest is the page's code, its
/// views and the allocator's slack.
const USABLE_PERCENT: u64 = 90;

/// How many documents whose IDs average `id_bytes` bytes fit in the page's memory.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::documents_that_fit;
///
/// assert!(documents_that_fit(20) > 15_000_000);
/// assert!(documents_that_fit(1000) < 4_000_000);
/// ```
pub fn documents_that_fit(id_bytes: u64) -> u64 {
    WASM_MEMORY / 100 * USABLE_PERCENT / (DOCUMENT_BYTES + id_bytes)
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// Whether `documents` documents whose IDs average `id_bytes` bytes fit; the message says
/// how many would.
///
/// # Errors
///
/// A message for the user when they do not fit.
pub fn check_fits(what: &str, documents: u64, id_bytes: u64) -> Result<(), String> {
    let fit = documents_that_fit(id_bytes);
    if documents <= fit {
        return Ok(());
    }
    let need = documents.saturating_mul(DOCUMENT_BYTES + id_bytes);
    Err(format!(
        "{what}: {documents} documents would need about {} of the page's memory, more than \
         the {} a browser tab gives WebAssembly (wasm32); about {fit} documents with IDs of \
         {id_bytes} bytes fit. Use fewer documents, or the ravenshard CLI for the whole set.",
        gib(need),
        gib(WASM_MEMORY / 100 * USABLE_PERCENT),
    ))
}

/// The shortest ID line an import counts on when it estimates a file's documents from its
/// size: a 20-byte ID and its line break.
const LINE_BYTES: u64 = 21;

/// How much bigger than the file a gzip file's content is assumed to be.
const GZIP_RATIO: u64 = 4;

/// Whether a file of `bytes` (gzip-compressed or not) can be imported, judged before
/// reading it from its size: a text file of 20-byte IDs holds `bytes / 21` documents.
///
/// # Errors
///
/// A message for the user, saying how big a file fits, when it is too big.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::check_import_size;
///
/// assert!(check_import_size(200_000_000, false).is_ok());
/// assert!(check_import_size(2_000_000_000, false).unwrap_err().contains("fit"));
/// ```
pub fn check_import_size(bytes: u64, gzip: bool) -> Result<(), String> {
    let content = if gzip {
        bytes.saturating_mul(GZIP_RATIO)
    } else {
        bytes
    };
    let documents = content / LINE_BYTES;
    check_fits("This file is too big to import", documents, LINE_BYTES - 1).map_err(|e| {
        let fit = documents_that_fit(LINE_BYTES - 1) * LINE_BYTES;
        let fit = if gzip { fit / GZIP_RATIO } else { fit };
        format!(
            "{e} Files up to about {} MB{} fit.",
            fit / 1_000_000,
            if gzip { " (compressed)" } else { "" }
        )
    })
}
