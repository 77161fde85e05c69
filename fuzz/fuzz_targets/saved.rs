//! The saved studio read back from IndexedDB (`persist`, `app::restore`): the records of an
//! input (`ravenshard_fuzz::saved::Records`) read as the studio restores them, natively.
//!
//! Properties: reading never panics (a damaged or foreign save is an error the studio sets
//! aside); a saved studio that reads, saved again as the studio saves, reads back to the same
//! settings and documents, and saving that gives the same bytes again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ravenshard_fuzz::saved::{read_studio, save, Records};

fuzz_target!(|data: &[u8]| {
    let Ok(first) = read_studio(&Records::parse(data)) else {
        return;
    };
    let generation = first.generation.unwrap_or(1_764_000_000_000);
    let written = save(&first, generation);
    let second = match read_studio(&written) {
        Ok(second) => second,
        Err(e) => panic!(
            "the studio's own save does not read ({e}):\n{}",
            String::from_utf8_lossy(&written.to_input())
        ),
    };
    assert_eq!(second.settings, first.settings, "settings");
    assert_eq!(second.documents, first.documents, "documents");
    assert_eq!(save(&second, generation), written, "a second save");
});
