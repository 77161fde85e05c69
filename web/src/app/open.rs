//! The saved studio in IndexedDB (through `rexie`, [`records`]): opened on load, saved
//! after changes.
//!
//! The database [`DATABASE`] has one object store, [`STORE`](crate::persist::records::STORE), holding the records of a
//! [`Stored`](crate::persist::Stored): the settings under [`SETTINGS_KEY`] and the documents' parts under the keys
//! of the save that wrote them. A save ([`Saver`](crate::jobs::save::Saver)) runs in the workspace's host's worker,
//! which writes its documents out a part at a time, stores them and swaps them in with the
//! settings in one transaction ([`Store`](crate::workers::save::Store)): the page copies none of them. On load the page reads the
//! settings; the documents are read by the studio's worker ([`restore`]). Studios saved
//! before kept the documents in one record, [`DOCUMENTS_KEY`](crate::persist::records::DOCUMENTS_KEY), still read. A studio saved
//! before in `localStorage` (under [`STORAGE_KEY`]) is read when IndexedDB has none, and
//! removed from `localStorage` once IndexedDB holds it. Records that cannot be read are set
//! aside under [`SET_ASIDE_PREFIX`] keys ([`records::set_aside`]), never overwritten.

use super::restore::{self, with_tab, Restored};
use crate::jobs::import::CancelToken;
use crate::marks::{measure, READ_MEASURE, RESTORE_MEASURE};
use crate::numbers::group_digits;
use crate::persist::records::{self, DATABASE, PART_PREFIX, SETTINGS_KEY, SET_ASIDE_PREFIX};
use crate::persist::{read_layout, read_saved, Saved, SET_ASIDE_KEY, STORAGE_KEY};
use crate::state::route::shared_state;
use crate::state::{Level, Notice, NoticeAction, Work};
use crate::views::state::{Action, State};
use crate::workers::save::StorageError;
use ravenshard_model::share::decode_fragment;
use yew::Callback;

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The state the studio opens on: a share link in the URL fragment
/// ([`shared_state`]) wins, then the studio
/// saved in IndexedDB, then one saved in `localStorage` by an older studio, then the
/// chapter's examples. Problems are reported as notices; a saved studio that cannot be read
/// is set aside. A large saved studio is read by the worker and placed a batch at a time
/// ([`restore`]), its progress reported through `on_progress`, until `cancel` is
/// cancelled: then (or when the worker stops) the studio opens on the saved settings
/// without documents, and the saved copy is kept untouched until the user changes
/// something. The flag says whether the state is the one IndexedDB holds (so that it need
/// not be saved again until it changes).
pub async fn open_state(on_progress: Callback<Work>, cancel: CancelToken) -> (State, bool) {
    let mut notices: Vec<Notice> = Vec::new();
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    // The state of `#/<view>?<state>`, or of an older link's `#<state>`.
    if let Some(shared) = shared_state(&hash) {
        match decode_fragment(shared) {
            Ok(shared) => return (State::from_shared(shared), false),
            Err(e) => notices.push(Notice::new(
                Level::Error,
                format!("The link in the address bar cannot be opened: {e}"),
            )),
        }
    }
    // A Cancel clicked while the settings are read counts too.
    let generation = cancel.generation();
    let settings = records::read_settings().await;
    measure(READ_MEASURE, None);
    let mut saved = false;
    let restored = match settings {
        Ok(Some(settings)) if cancel.generation() != generation => {
            Some(without_documents(&settings, None, &mut notices))
        }
        Ok(Some(settings)) => from_settings(settings, &mut notices, &on_progress, &cancel).await,
        Ok(None) => None,
        Err(reason) => {
            let e = StorageError::Unreadable { reason };
            notices.push(Notice::new(
                Level::Warning,
                format!("Your saved studio could not be restored: {e}."),
            ));
            None
        }
    };
    let mut state = restored
        .inspect(|_| saved = true)
        .or_else(|| from_local_storage(&mut notices))
        .unwrap_or_default();
    measure(RESTORE_MEASURE, None);
    for notice in notices {
        state.apply(Action::Notice(NoticeAction::Notify(notice)));
    }
    (state, saved)
}

/// The studio when its restore was cancelled or stopped (`why`): the saved settings (if
/// they can be read) without documents; the notice says the saved copy is kept until
/// something changes.
fn without_documents(settings: &str, why: Option<&str>, notices: &mut Vec<Notice>) -> State {
    let count = group_digits(read_layout(settings).document_count as u64);
    let (level, head) = match why {
        None => (Level::Info, "Restoring was cancelled".to_string()),
        Some(why) => (Level::Warning, format!("Restoring stopped: {why}")),
    };
    notices.push(Notice::new(
        level,
        format!(
            "{head}, so the studio opened without documents. The saved studio ({count} \
             documents) is kept in this browser, untouched, until you change something \
             here: then this studio is saved in its place. Reload the page to restore it."
        ),
    ));
    // Without the documents, nothing is left of the import that made them.
    let without_documents = |saved: Saved| Saved {
        kept: None,
        ..saved
    };
    read_saved(settings)
        .map(without_documents)
        .and_then(with_tab)
        .unwrap_or_else(|_| State::with_documents(Vec::new()))
}

/// How many times the studio reads the saved settings again when another save replaced
/// the documents while they were read ([`Restored::Outdated`]), before it opens without
/// them.
pub const RESTORE_TRIES: usize = 3;

/// The state of the saved studio whose settings record is `settings` ([`restore`]);
/// records that cannot be used are set aside. When another save (in another tab) replaced
/// the documents while they were read, the restore reads on in the newer studio from the
/// first part it replaced, or, when the two differ more, the settings are read again and
/// the studio they name is restored from its start, up to [`RESTORE_TRIES`] times. What
/// happened is told in `notices`.
pub async fn from_settings(
    mut settings: String,
    notices: &mut Vec<Notice>,
    on_progress: &Callback<Work>,
    cancel: &CancelToken,
) -> Option<State> {
    let mut tries = 1;
    let why = loop {
        match restore::restore(&settings, on_progress, cancel).await {
            Restored::State(state) => return Some(state),
            Restored::Newer(state) => {
                notices.push(restored_newer());
                return Some(state);
            }
            Restored::Cancelled => return Some(without_documents(&settings, None, notices)),
            Restored::Stopped(why) => {
                return Some(without_documents(&settings, Some(&why), notices))
            }
            Restored::Failed(why) => break why,
            Restored::Outdated if tries < RESTORE_TRIES => {}
            Restored::Outdated => {
                let why = format!(
                    "the saved studio was replaced {RESTORE_TRIES} times while it was read \
                     (another tab is saving it)"
                );
                return Some(without_documents(&settings, Some(&why), notices));
            }
        }
        tries += 1;
        settings = match records::read_settings().await {
            Ok(Some(newer)) => newer,
            Ok(None) => return None,
            Err(reason) => {
                let why = format!("the browser could not read the saved studio ({reason})");
                return Some(without_documents(&settings, Some(&why), notices));
            }
        };
        if tries == 2 {
            notices.push(restored_newer());
        }
    };
    let aside = match records::set_aside().await {
        Ok(()) => format!(
            "It was set aside (IndexedDB \"{DATABASE}\", keys \"{SET_ASIDE_PREFIX}{SETTINGS_KEY}\" \
             and \"{SET_ASIDE_PREFIX}{PART_PREFIX}*\")"
        ),
        Err(_) => "It could not be set aside and will be replaced at the next save".into(),
    };
    notices.push(Notice::new(
        Level::Warning,
        format!(
            "Your saved studio could not be restored: {why}. {aside} and the studio opened \
             on the chapter's examples."
        ),
    ));
    None
}

/// What the studio says when it restored a studio another tab saved while this one read
/// the saved studio.
fn restored_newer() -> Notice {
    Notice::new(
        Level::Info,
        "The saved studio was saved again (in another tab) while this one read it: this tab \
         restored the newer one."
            .to_string(),
    )
}

/// The state an older studio saved in `localStorage`, moved to IndexedDB at the next save;
/// one that cannot be read is set aside under [`SET_ASIDE_KEY`].
fn from_local_storage(notices: &mut Vec<Notice>) -> Option<State> {
    let storage = local_storage()?;
    let text = storage.get_item(STORAGE_KEY).ok().flatten()?;
    match read_saved(&text).and_then(State::from_saved) {
        Ok(state) => Some(state),
        Err(reason) => {
            let _ = storage.set_item(SET_ASIDE_KEY, &text);
            let _ = storage.remove_item(STORAGE_KEY);
            notices.push(Notice::new(
                Level::Warning,
                format!(
                    "Your saved studio could not be restored: {reason}. It was set aside \
                     (localStorage key \"{SET_ASIDE_KEY}\") and the studio opened on the \
                     chapter's examples."
                ),
            ));
            None
        }
    }
}
