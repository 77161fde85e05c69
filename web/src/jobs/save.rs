//! The save of the studio after changes ([`Saver`]): one at a time, in the workspace's
//! host's worker, over the documents it holds.

use crate::marks::{mark, measure, SAVE_MEASURE, SAVE_START};
use crate::persist::{Saved, STORAGE_KEY};
use crate::workers::host;
use crate::workers::save::StorageError;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::Callback;

/// Saves one after the other, so that an older save never lands after a newer one: while a
/// save runs, only the newest of the states asked for waits. Each save runs in the
/// workspace's host's worker, over its documents ([`Store`](crate::workers::save::Store)):
/// the page sends the settings and copies no document. What is written follows what
/// changed since the last save: nothing but the settings record when the documents are the
/// same (only the tab, a view or the configuration changed); the parts an edit touched
/// when documents were edited; everything otherwise (a job's workspace, a paste). A save an
/// edit stops is not started again: the edit's save goes on in the same run.
#[derive(Default)]
pub struct Saver {
    busy: Cell<bool>,
    next: RefCell<Option<Saved>>,
}

impl Saver {
    /// A saver; `restored`: the workspace's documents are the ones IndexedDB holds (a
    /// restored studio's), which the host is told once it holds them.
    pub fn new(restored: bool) -> Saver {
        if restored {
            host::restored();
        }
        Saver::default()
    }

    /// Saves `settings` and the documents the workspace's host holds (now, or after the
    /// save that runs); `done` hears how each save went (the bytes stored, or why not).
    pub fn save(self: &Rc<Self>, settings: Saved, done: Callback<Result<usize, StorageError>>) {
        *self.next.borrow_mut() = Some(settings);
        if self.busy.replace(true) {
            return;
        }
        let saver = Rc::clone(self);
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                if saver.next.borrow().is_none() {
                    break;
                }
                // The host saves what it holds once it made the changes sent before (a
                // job's documents may still be on their way to it): the save, and its
                // measure, start then, with the newest settings asked for meanwhile.
                host::caught_up().await;
                let Some(settings) = saver.next.borrow_mut().take() else {
                    break;
                };
                mark(SAVE_START);
                let Some(saved) = host::save(&settings).await else {
                    // Stopped by an edit: its save goes on from there.
                    continue;
                };
                if saved.is_ok() {
                    measure(SAVE_MEASURE, Some(SAVE_START));
                    if let Some(s) = local_storage() {
                        let _ = s.remove_item(STORAGE_KEY);
                    }
                }
                done.emit(saved);
            }
            saver.busy.set(false);
        });
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}
