//! Writes documents out in parts and stores them in IndexedDB under the keys of a save
//! generation (`PartWriter`): the save's worker for the page's batches, and the worker of
//! an import for the documents it reads, as it sends them to the page.

use crate::persist::records::{self, commit, reason, to_bytes, STORE};
use crate::persist::{even_parts, PartRef};
use ravenshard_model::workspace::Document;
use rexie::{Rexie, TransactionMode};
use wasm_bindgen::JsValue;

/// Writes the parts of one save generation (`documents.<generation>.<index>`), numbering
/// them from 0 in the order written.
pub(crate) struct PartWriter {
    generation: u64,
    db: Option<Rexie>,
    next_index: u32,
}

impl PartWriter {
    /// A writer of the parts of `generation` (the database is opened at the first write).
    pub(crate) fn new(generation: u64) -> PartWriter {
        PartWriter {
            generation,
            db: None,
            next_index: 0,
        }
    }

    /// The generation it writes.
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether it wrote a part.
    pub(crate) fn wrote(&self) -> bool {
        self.next_index > 0
    }

    /// Writes `documents` out in parts ([`even_parts`], [`PartRef::write`]) and stores
    /// them in one transaction: the parts, in order.
    ///
    /// # Errors
    ///
    /// The browser's reason when it could not open the database or store the parts.
    pub(crate) async fn write(&mut self, documents: &[Document]) -> Result<Vec<PartRef>, String> {
        let mut records: Vec<(String, String)> = Vec::new();
        let mut parts = Vec::new();
        for range in even_parts(documents) {
            let (part, text) = PartRef::write(self.generation, self.next_index, &documents[range]);
            self.next_index += 1;
            records.push((part.key(), text));
            parts.push(part);
        }
        self.put(&records).await?;
        Ok(parts)
    }

    /// The database, opened at the first call.
    pub(crate) async fn db(&mut self) -> Result<&Rexie, String> {
        if self.db.is_none() {
            self.db = Some(records::open().await?);
        }
        self.db
            .as_ref()
            .ok_or_else(|| "the browser could not open the database".to_string())
    }

    /// Stores `records` (key, text) in one transaction.
    async fn put(&mut self, records: &[(String, String)]) -> Result<(), String> {
        let db = self.db().await?;
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadWrite)
            .map_err(reason)?;
        let store = tx.store(STORE).map_err(reason)?;
        for (key, text) in records {
            let key = JsValue::from_str(key);
            store
                .put(&to_bytes(text), Some(&key))
                .await
                .map_err(reason)?;
        }
        commit(tx).await
    }

    /// Closes the database (if opened).
    pub(crate) fn close(&mut self) {
        if let Some(db) = self.db.take() {
            db.close();
        }
    }
}

impl Drop for PartWriter {
    fn drop(&mut self) {
        self.close();
    }
}
