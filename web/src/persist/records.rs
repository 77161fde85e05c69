//! The saved studio's records in IndexedDB (through `rexie`), read and written the same way
//! by the page and by the studio's worker (IndexedDB is the global scope's `indexedDB`,
//! which a dedicated worker has too).
//!
//! The database [`DATABASE`] has one object store, [`STORE`], holding the records of a
//! [`Stored`]: the settings under [`SETTINGS_KEY`] and the documents' parts under the keys
//! of the save that wrote them ([`layout_part_key`]; [`part_key`]s in studios saved
//! before), each the UTF-8 bytes of its text ([`to_bytes`]). Studios saved before
//! kept the documents in one record, [`DOCUMENTS_KEY`], still read. Records that cannot
//! be read are set aside under [`SET_ASIDE_PREFIX`] keys ([`set_aside`]), never
//! overwritten.

use crate::persist::{read_layout, Stored};
use rexie::{KeyRange, ObjectStore, Rexie, TransactionMode, TransactionResult};
use wasm_bindgen::{JsCast, JsValue};

/// The IndexedDB database of the studio.
pub const DATABASE: &str = "ravenshard-studio";
/// The version of [`DATABASE`] this studio opens.
pub const DATABASE_VERSION: u32 = 1;
/// The object store of the saved studio.
pub const STORE: &str = "studio";
/// The key of the settings record.
pub const SETTINGS_KEY: &str = "settings";
/// The key of the documents record of studios saved before the documents were kept in
/// parts (read, and removed at the next save).
pub const DOCUMENTS_KEY: &str = "documents";
/// The prefix of the keys of the documents' parts ([`part_key`]).
pub const PART_PREFIX: &str = "documents.";
/// The prefix of the keys records that could not be read are kept under.
pub const SET_ASIDE_PREFIX: &str = "unreadable.";

/// The key of the documents' part `index` (`documents.0`).
///
/// # Examples
///
/// ```
/// assert_eq!(ravenshard_studio::persist::records::part_key(3), "documents.3");
/// ```
pub fn part_key(index: usize) -> String {
    format!("{PART_PREFIX}{index}")
}

/// The key of the documents' part `index` written by the save `generation`
/// (`documents.1764000000000.0`; `None`: [`part_key`], as studios saved before keyed them).
///
/// # Examples
///
/// ```
/// use ravenshard_studio::persist::records::layout_part_key;
///
/// assert_eq!(layout_part_key(None, 3), "documents.3");
/// assert_eq!(layout_part_key(Some(17), 3), "documents.17.3");
/// ```
pub fn layout_part_key(generation: Option<u64>, index: usize) -> String {
    match generation {
        None => part_key(index),
        Some(generation) => format!("{PART_PREFIX}{generation}.{index}"),
    }
}

/// The part keys from `from` up to, not including, `to`.
fn key_range(from: &str, to: &str) -> Result<KeyRange, String> {
    KeyRange::bound(&from.into(), &to.into(), Some(false), Some(true)).map_err(|e| e.to_string())
}

/// The range of every part key (`documents.` up to, not including, `documents/`): what
/// a save's end looks through for the parts its layout does not name.
pub fn part_key_range() -> Result<KeyRange, String> {
    prefix_range(PART_PREFIX)
}

/// The keys that start with `prefix`, which ends with the `.` of a part key: from it up to,
/// not including, the same without the `.` and with `/` (the character after `.`).
fn prefix_range(prefix: &str) -> Result<KeyRange, String> {
    let end = format!("{}/", prefix.trim_end_matches('.'));
    key_range(prefix, &end)
}

/// The start of the keys of the parts the save `generation` writes.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::persist::records::{generation_prefix, layout_part_key};
///
/// assert!(layout_part_key(Some(17), 3).starts_with(&generation_prefix(17)));
/// assert!(!layout_part_key(Some(170), 3).starts_with(&generation_prefix(17)));
/// ```
pub fn generation_prefix(generation: u64) -> String {
    format!("{PART_PREFIX}{generation}.")
}

/// The range of the keys of the parts the save `generation` writes
/// ([`generation_prefix`], up to `documents.<generation>/`).
pub fn generation_key_range(generation: u64) -> Result<KeyRange, String> {
    prefix_range(&generation_prefix(generation))
}

/// What the browser said of a failed IndexedDB call.
pub fn reason(e: rexie::Error) -> String {
    match e {
        rexie::Error::IdbError(e) => e.to_string(),
        e => e.to_string(),
    }
}

/// Opens [`DATABASE`] (made on its first open).
pub async fn open() -> Result<Rexie, String> {
    Rexie::builder(DATABASE)
        .version(DATABASE_VERSION)
        .add_object_store(ObjectStore::new(STORE))
        .build()
        .await
        .map_err(reason)
}

/// Text as a `Uint8Array` of its UTF-8 bytes: one copy, where a JS string would be
/// transcoded to UTF-16 (over 100 ms for 13 MB in Chromium, in one task).
pub fn to_bytes(text: &str) -> JsValue {
    js_sys::Uint8Array::from(text.as_bytes()).into()
}

/// The text of a record: UTF-8 bytes as [`to_bytes`] keeps it, or a string.
pub fn from_bytes(value: JsValue) -> Result<String, String> {
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    if !value.is_instance_of::<js_sys::Uint8Array>() {
        return Err("a record is neither text nor bytes".into());
    }
    String::from_utf8(js_sys::Uint8Array::from(value).to_vec())
        .map_err(|e| format!("a record is not UTF-8 ({e})"))
}

/// Waits until `tx` is committed.
pub async fn commit(tx: rexie::Transaction) -> Result<(), String> {
    match tx.done().await.map_err(reason)? {
        TransactionResult::Committed => Ok(()),
        TransactionResult::Aborted => Err("the browser aborted the transaction".into()),
    }
}

/// The text of the record `key` in `db` (`None`: there is none), in a transaction of its
/// own: a reader that waits between records (the worker, for the page's placing) would
/// see a longer transaction close under it.
pub async fn get(db: &Rexie, key: &str) -> Result<Option<String>, String> {
    let tx = db
        .transaction(&[STORE], TransactionMode::ReadOnly)
        .map_err(reason)?;
    let store = tx.store(STORE).map_err(reason)?;
    read(&store, key).await
}

/// The text of the record `key` in `store` (`None`: there is none), read in the caller's
/// transaction.
pub async fn read(store: &rexie::Store, key: &str) -> Result<Option<String>, String> {
    match store.get(key.into()).await.map_err(reason)? {
        Some(value) => from_bytes(value).map(Some),
        None => Ok(None),
    }
}

/// The settings record, if [`DATABASE`] holds a studio.
pub async fn read_settings() -> Result<Option<String>, String> {
    let db = open().await?;
    let settings = get(&db, SETTINGS_KEY).await;
    db.close();
    settings
}

/// Every record of the saved studio, if [`DATABASE`] holds one (all in memory: the restore
/// of a small studio), read in one transaction: a save swapping its parts in meanwhile
/// (the tab that writes may be another) is seen whole or not at all, never as settings
/// that name a part it already removed.
pub async fn read_stored() -> Result<Option<Stored>, String> {
    let db = open().await?;
    let result = async {
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadOnly)
            .map_err(reason)?;
        let store = tx.store(STORE).map_err(reason)?;
        let Some(settings) = read(&store, SETTINGS_KEY).await? else {
            return Ok(None);
        };
        let parts = match read_layout(&settings).part_keys() {
            None => read(&store, DOCUMENTS_KEY).await?.into_iter().collect(),
            Some(keys) => {
                let mut parts = Vec::with_capacity(keys.len());
                for (index, key) in keys.iter().enumerate() {
                    let part = read(&store, key)
                        .await?
                        .ok_or_else(|| format!("the saved documents' part {index} is missing"))?;
                    parts.push(part);
                }
                parts
            }
        };
        Ok(Some(Stored { settings, parts }))
    }
    .await;
    db.close();
    result
}

/// Copies every record of the saved studio under a [`SET_ASIDE_PREFIX`] key (as stored:
/// nothing is read or converted), in one transaction; the next save replaces the records
/// themselves.
pub async fn set_aside() -> Result<(), String> {
    let db = open().await?;
    let result = async {
        let tx = db
            .transaction(&[STORE], TransactionMode::ReadWrite)
            .map_err(reason)?;
        let store = tx.store(STORE).map_err(reason)?;
        for key in store.get_all_keys(None, None).await.map_err(reason)? {
            let Some(name) = key.as_string() else {
                continue;
            };
            if name.starts_with(SET_ASIDE_PREFIX) {
                continue;
            }
            if let Some(value) = store.get(key).await.map_err(reason)? {
                let aside = JsValue::from(format!("{SET_ASIDE_PREFIX}{name}"));
                store.put(&value, Some(&aside)).await.map_err(reason)?;
            }
        }
        commit(tx).await
    }
    .await;
    db.close();
    result
}
