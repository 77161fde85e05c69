//! The saved studio: what survives a reload, how it is laid out in IndexedDB, and the
//! records' reading and writing, the same in the page and in the workers.
//!
//! * [`codec`]: the settings ([`Saved`], versioned JSON) and the documents' text (line
//!   format, or JSON when a line would not read back the same).
//! * [`layout`]: how the documents are cut into parts and which parts a save rewrites.
//! * [`records`]: the IndexedDB database, its keys and its records.
//! * [`writer`]: writes documents out in parts under a save generation's keys.

pub mod codec;
pub mod layout;
pub mod records;
pub mod writer;

pub use codec::{
    documents_json, even_parts, lines_capacity, placement_lines_capacity, read_documents,
    read_layout, read_saved, settings_json, write_documents, write_lines, Layout, Saved,
    SavedReadiness, Stored, LINES_HEADER, PART_BYTES, PART_DOCUMENTS, SAVED_VERSION, SET_ASIDE_KEY,
    STORAGE_KEY,
};
pub use layout::{
    even_batches, plan_parts, segments_of, PartPlan, PartRef, Segment, MIN_PART_DOCUMENTS,
};
