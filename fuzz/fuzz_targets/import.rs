//! The import readers (`ravenshard_import::Importer`, what the CLI's `--import`, the
//! JS API and the studio's file import feed): plain lines, CSV, JSON, NDJSON and the
//! `.ravendbdump` scanner, with gzip framing. The first byte picks the format, the second the
//! chunk lengths.
//!
//! Properties: the file read in one push and in many small chunks gives the same answer;
//! the same file gzip-compressed gives the same documents; keeping no bodies changes no ID,
//! size or collection; every document's ID is one RavenDB accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard_fuzz::{chunks, gzip};
use ravenshard_import::{import, Format, ImportError, Imported, Importer};

const FORMATS: [Format; 5] = [
    Format::Text,
    Format::Csv,
    Format::Json,
    Format::Ndjson,
    Format::RavenDump,
];

fn chunked(data: &[u8], format: Format, seed: u8, bodies: bool) -> Result<Imported, ImportError> {
    let mut importer = Importer::new(format, Some(data.len() as u64));
    if !bodies {
        importer = importer.without_bodies();
    }
    for chunk in chunks(data, seed) {
        importer.push(chunk)?;
    }
    importer.finish()
}

fn summary(imported: &Imported) -> Vec<(&str, Option<u64>, Option<&str>)> {
    imported
        .documents
        .iter()
        .map(|d| (d.id.as_str(), d.size, d.collection.as_deref()))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let [pick, seed, file @ ..] = data else {
        return;
    };
    let format = FORMATS[usize::from(*pick) % FORMATS.len()];
    let whole = import(file, format);
    let pieces = chunked(file, format, *seed, true);
    match (&whole, &pieces) {
        // flate2 hands out nothing of a read that fails, so bytes inflated just before a
        // damaged part reach the reader only when they came in an earlier push: which of
        // the two errors is seen first depends on the chunks.
        (Err(ImportError::Gzip { .. }), Err(_)) | (Err(_), Err(ImportError::Gzip { .. })) => {}
        _ => assert_eq!(whole, pieces, "one push and chunks of {format:?} differ"),
    }
    let Ok(whole) = whole else {
        return;
    };
    for document in &whole.documents {
        assert!(
            ravenshard::check_id(&document.id).is_ok(),
            "{:?} was imported",
            document.id
        );
    }
    assert!(whole.skipped >= whole.warnings.len());
    let bare = chunked(file, format, seed.wrapping_add(1), false);
    match &bare {
        Ok(bare) => assert_eq!(summary(bare), summary(&whole), "without bodies"),
        Err(e) => panic!("read with bodies, refused without: {e}"),
    }
    if !file.starts_with(&[0x1f, 0x8b]) {
        match chunked(&gzip(file), format, *seed, true) {
            Ok(zipped) => assert_eq!(zipped.documents, whole.documents, "gzip of {format:?}"),
            Err(e) => panic!("read plain, refused gzip-compressed: {e}"),
        }
    }
});
