//! The saved studio's IndexedDB records, as the `saved` target reads a fuzz input, and the
//! studio's own reading and first save of them, natively.
//!
//! **The input:** records separated by the byte 0x1E; the first is the settings record's
//! bytes, each other one a key, the byte 0x1F and the record's bytes (a key stored twice:
//! the last one, as IndexedDB's `put` leaves it).
//!
//! **Reading** is the studio's: the records the settings' layout names
//! (`records::read_stored`, here over a map instead of IndexedDB), their text read by
//! `Stored::read` and the state made by `app::restore::with_tab`, as a restore at once does;
//! then the documents placed by a `Host`, as the host's worker does with the changes that
//! state queued. **Saving** is the studio's first save of that state, from the same pieces
//! the save's worker uses: the documents in batches (`even_batches`), each written in parts
//! (`even_parts`, `PartRef::write`) under one save generation, and the settings with their
//! `Layout`.

use ravenshard_model::host::Host;
use ravenshard_model::workspace::Document;
use ravenshard_studio::app::restore::with_tab;
use ravenshard_studio::persist::records::{DOCUMENTS_KEY, SETTINGS_KEY};
use ravenshard_studio::persist::{
    even_batches, even_parts, read_layout, settings_json, Layout, PartRef, Saved, Stored,
};
use std::collections::BTreeMap;

/// Separates the records of an input.
pub const RECORD: u8 = 0x1E;
/// Separates a record's key from its bytes.
pub const KEY: u8 = 0x1F;

/// The saved studio's records: the settings' bytes, if any, and the others by key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Records {
    /// The record under `settings`.
    pub settings: Option<Vec<u8>>,
    /// The other records.
    pub others: BTreeMap<String, Vec<u8>>,
}

impl Records {
    /// The records of a fuzz input (see the module's documentation).
    pub fn parse(data: &[u8]) -> Records {
        let mut records = data.split(|&b| b == RECORD);
        let settings = records.next().map(<[u8]>::to_vec);
        let mut others = BTreeMap::new();
        for record in records {
            let (key, bytes) = match record.iter().position(|&b| b == KEY) {
                Some(at) => (&record[..at], &record[at + 1..]),
                None => (record, &[][..]),
            };
            let key = String::from_utf8_lossy(key).into_owned();
            if key == SETTINGS_KEY {
                continue;
            }
            others.insert(key, bytes.to_vec());
        }
        Records { settings, others }
    }

    /// The fuzz input of these records (what [`parse`](Records::parse) reads back).
    pub fn to_input(&self) -> Vec<u8> {
        let mut out = self.settings.clone().unwrap_or_default();
        for (key, bytes) in &self.others {
            out.push(RECORD);
            out.extend_from_slice(key.as_bytes());
            out.push(KEY);
            out.extend_from_slice(bytes);
        }
        out
    }
}

/// A saved studio as the studio reads it: the settings it would save now and the documents
/// its host holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Studio {
    /// The state's settings (`State::settings`), without documents.
    pub settings: Saved,
    /// The documents as the host placed them, in order.
    pub documents: Vec<Document>,
    /// The save generation of the parts read, if their keys had one.
    pub generation: Option<u64>,
}

/// A record's text, as `records::from_bytes` reads the UTF-8 bytes the studio stores.
fn text(bytes: &[u8]) -> Result<String, String> {
    String::from_utf8(bytes.to_vec()).map_err(|e| format!("a record is not UTF-8 ({e})"))
}

/// Reads `records` as the studio restores a saved studio at once, or says why it cannot.
///
/// # Errors
///
/// The studio's message when the records are not a studio it reads; `Err` too when there is
/// no settings record.
pub fn read_studio(records: &Records) -> Result<Studio, String> {
    let settings = text(records.settings.as_deref().ok_or("no saved studio")?)?;
    let layout = read_layout(&settings);
    let parts = match layout.part_keys() {
        None => match records.others.get(DOCUMENTS_KEY) {
            Some(bytes) => vec![text(bytes)?],
            None => Vec::new(),
        },
        Some(keys) => keys
            .iter()
            .enumerate()
            .map(|(index, key)| match records.others.get(key) {
                Some(bytes) => text(bytes),
                None => Err(format!("the saved documents' part {index} is missing")),
            })
            .collect::<Result<_, _>>()?,
    };
    let state = Stored { settings, parts }.read().and_then(with_tab)?;
    let mut host = Host::default();
    for (_, change) in state.workspace().outbox().take() {
        if let Err(e) = host.apply(change) {
            panic!("the host refused what a saved studio that reads queued: {e}");
        }
    }
    let placement = host.placement();
    Ok(Studio {
        settings: state.settings(),
        documents: placement.documents(0..placement.len()).collect(),
        generation: layout.generation,
    })
}

/// The records the studio's first save of `studio` stores, under the save `generation`.
pub fn save(studio: &Studio, generation: u64) -> Records {
    let documents = &studio.documents;
    let mut others = BTreeMap::new();
    let mut parts = Vec::new();
    for batch in even_batches(0..documents.len()) {
        let batch = &documents[batch];
        for range in even_parts(batch) {
            let (part, text) = PartRef::write(generation, parts.len() as u32, &batch[range]);
            others.insert(part.key(), text.into_bytes());
            parts.push(part);
        }
    }
    let layout = Layout::of_parts(generation, parts);
    Records {
        settings: Some(settings_json(&studio.settings, &layout).into_bytes()),
        others,
    }
}
