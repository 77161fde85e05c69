//! How many documents the studio holds: as many as fit in the page's memory, which wasm32
//! caps at 4 GiB, not a constant.

use ravenshard_model::sample::{Counts, Generator};

/// The memory a wasm32 page can address.
pub const WASM_MEMORY: u64 = 4 << 30;

/// What one document costs the studio beyond its ID's bytes: its row of the placement (the
/// one store of the documents in the page), its body when it has one (the generator's
/// orders carry a 29-byte one), its share of the aggregates and of the views' orders, and
/// the copies a job makes while it builds them. Measured as the page's wasm memory growth
/// beyond the IDs' bytes (`web/bench/studio.py --memory --docs 1000000 --ids 1000000`,
/// which only grows, so the jobs' high-water marks): 128 bytes per generated document
/// (about 135 before the build staged 12 bytes a bucket instead of 16, 154 before the
/// placement's compaction, 256 when the page kept a list of the documents beside it); an
/// import of plain IDs 59 at 1,000,000 and 32 at 10,000,000 (70 and 38 when the build
/// staged 16 bytes a bucket and kept a size column for IDs without sizes). The
/// generation's figure, the largest, rounded up for the allocator's slack.
pub const DOCUMENT_BYTES: u64 = 145;

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

/// The bytes of a generated ID on average, rounded up: the generator's count of its IDs'
/// bytes ([`Counts::id_bytes`], each number at the width of the largest) over its
/// documents (at least 1).
pub fn generated_id_bytes(counts: &Counts) -> u64 {
    let documents = counts.companies + counts.employees + counts.orders;
    (counts.id_bytes() as u64).div_ceil(documents.max(1) as u64)
}

/// Whether `generator`'s documents fit, judged by their IDs' exact bytes
/// ([`generated_id_bytes`]); its counts when they do.
///
/// # Errors
///
/// A message for the user when the generator is refused or its documents do not fit.
///
/// # Examples
///
/// ```
/// use ravenshard_model::sample::Generator;
/// use ravenshard_studio::state::limits::check_generation_fits;
///
/// let generator = Generator { documents: 1_000_000, anchored_share: 0.5, seed: 1 };
/// assert_eq!(check_generation_fits(&generator).unwrap().companies, 50_000);
/// ```
pub fn check_generation_fits(generator: &Generator) -> Result<Counts, String> {
    let counts = generator.counts().map_err(|e| e.to_string())?;
    let id_bytes = generated_id_bytes(&counts);
    check_fits("Generate", generator.documents as u64, id_bytes)?;
    Ok(counts)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generations_id_bytes_are_its_ids_not_a_guess() {
        for (documents, anchored_share) in [(1, 0.0), (999, 0.0), (20_000, 0.5), (30_001, 1.0)] {
            let generator = Generator {
                documents,
                anchored_share,
                seed: 3,
            };
            let made = generator.generate().unwrap();
            let bytes: usize = made.iter().map(|d| d.id.len()).sum();
            let mean = bytes as f64 / documents as f64;
            let counted = generated_id_bytes(&generator.counts().unwrap()) as f64;
            // At least the mean (never fewer bytes than the IDs take), at most a digit or
            // two more (the numbers counted at the width of the largest) and the rounding.
            assert!(
                counted >= mean && counted <= mean + 3.0,
                "{documents}: {mean} vs {counted}"
            );
        }
        // Anchored orders' IDs are longer than 24 bytes, the former guess for all.
        let all_anchored = Generator {
            documents: 1_000_000,
            anchored_share: 1.0,
            seed: 1,
        };
        assert!(generated_id_bytes(&all_anchored.counts().unwrap()) > 24);
    }
}
