//! Restoring the saved studio on load. A small one (under [`CHUNKED_RESTORE_DOCUMENTS`]
//! documents) is read and placed at once by the page; a larger one is read by the studio's
//! worker, which opens IndexedDB itself, parses the saved parts and sends the documents in
//! batches, and the page places them as an import's ([`bulk`](crate::jobs::bulk)'s `receive`),
//! with progress (the count done, an estimate) and Cancel. The worker only reads: a
//! cancel, or a worker that stopped (a panic), leaves the saved records as they were.

use super::open::RESTORE_TRIES;
use crate::jobs::bulk::{receive, yield_now, Job, Made, Received};
use crate::jobs::import::CancelToken;
use crate::persist::records;
use crate::persist::{read_layout, read_saved, Layout, Saved};
use crate::state::{Loaded, Tab};
use crate::state::{ViewAction, Work, WorkspaceAction};
use crate::views::state::{Action, State};
use crate::workers::{Read, Reading};
use std::cell::RefCell;
use std::rc::Rc;
use yew::Callback;

/// Saved studios of fewer documents than this are read and placed at once by the page (a
/// few tens of milliseconds); more are read by the worker, a batch at a time.
pub const CHUNKED_RESTORE_DOCUMENTS: usize = 30_000;

/// The progress line's label while the saved studio is restored.
pub const RESTORE_LABEL: &str = "Restoring the saved studio";

/// What restoring the saved studio gave.
pub enum Restored {
    /// The studio.
    State(State),
    /// The user cancelled: nothing was changed.
    Cancelled,
    /// The restore stopped (the worker stopped, the browser could not read or the
    /// documents do not fit): why. The records were not found wanting, so they are kept
    /// as they are.
    Stopped(String),
    /// Why the records cannot be used (nothing was changed): set them aside.
    Failed(String),
    /// The saved studio changed while it was read (another save replaced parts the
    /// settings read named): nothing is wrong with it; read the settings again.
    Outdated,
    /// The studio another save (in another tab) stored while this one was read: the
    /// restore read on in it from the first part it names differently.
    Newer(State),
}

/// Restores the studio whose settings record is `settings`: its documents at once when
/// few, else in the worker, reporting through `on_progress` and stopping when `cancel` is
/// cancelled.
pub async fn restore(
    settings: &str,
    on_progress: &Callback<Work>,
    cancel: &CancelToken,
) -> Restored {
    let layout = read_layout(settings);
    let few = layout.document_parts.is_some() && layout.document_count < CHUNKED_RESTORE_DOCUMENTS;
    if few {
        at_once().await
    } else {
        in_worker(settings, layout, on_progress, cancel).await
    }
}

/// Reads every record and makes the studio of them at once.
async fn at_once() -> Restored {
    match records::read_stored().await {
        Ok(Some(stored)) => match stored.read().and_then(with_tab) {
            Ok(state) => Restored::State(state),
            Err(why) => Restored::Failed(why),
        },
        // Removed since the page read the settings: read them again.
        Ok(None) => Restored::Outdated,
        Err(e) => Restored::Stopped(format!("the browser could not read the saved studio ({e})")),
    }
}

/// The state of saved settings, on the tab they name: with [`Stored::read`](crate::persist::Stored::read),
/// the studio's reading of a saved studio (the fuzz target `saved` drives it natively).
pub fn with_tab(saved: Saved) -> Result<State, String> {
    let tab = saved.tab.as_deref().and_then(Tab::from_key);
    let mut state = State::from_saved(saved)?;
    if let Some(tab) = tab {
        state.apply(Action::View(ViewAction::SelectTab(tab)));
    }
    Ok(state)
}

/// Where a restore's job leaves a value (why it stopped, what it made).
type Slot<T> = Rc<RefCell<Option<T>>>;

/// A job of the restore: its progress goes to `on_progress`; why its placing stopped,
/// and the placement it made, are kept for [`in_worker`].
fn restore_job(
    cancel: &CancelToken,
    on_progress: &Callback<Work>,
) -> (Job, Slot<String>, Slot<Rc<Loaded>>) {
    let stopped: Slot<String> = Rc::default();
    let loaded: Slot<Rc<Loaded>> = Rc::default();
    let on_workspace = {
        let (stopped, on_progress) = (Rc::clone(&stopped), on_progress.clone());
        Callback::from(move |action| match action {
            WorkspaceAction::Working(work) => on_progress.emit(work),
            WorkspaceAction::WorkStopped(why) => *stopped.borrow_mut() = Some(why),
            _ => {}
        })
    };
    let on_loaded = {
        let loaded = Rc::clone(&loaded);
        Callback::from(move |made| *loaded.borrow_mut() = Some(made))
    };
    let job = Job::new(
        RESTORE_LABEL.into(),
        cancel.clone(),
        on_workspace,
        on_loaded,
    );
    (job, stopped, loaded)
}

/// What a restore that found a part not stored does next.
enum Next {
    /// Reads on in the newer settings (another save replaced the part): their record, its
    /// layout, and the index of the first part of it to read (the parts before it are the
    /// ones read).
    ReadOn(String, Layout, usize),
    /// Ends with this.
    End(Restored),
}

/// Why the part of the record `key` of `layout` is not stored: another save replaced it
/// since the page read the settings (the settings stored now no longer name it; the
/// worker reads a part per transaction), so the restore reads on in the newer studio
/// from that part when it names the same parts before it, else starts again
/// ([`Restored::Outdated`]); or the saved studio is damaged.
async fn missing(key: &str, layout: &Layout) -> Next {
    match records::read_settings().await {
        Ok(Some(now)) => {
            let newer = read_layout(&now);
            if newer
                .part_keys()
                .is_some_and(|keys| keys.iter().any(|k| k == key))
            {
                let why = format!("the saved documents' record \"{key}\" is missing");
                return Next::End(Restored::Failed(why));
            }
            match layout.read_on(&newer, key) {
                Some(at) => Next::ReadOn(now, newer, at),
                None => Next::End(Restored::Outdated),
            }
        }
        Ok(None) => Next::End(Restored::Outdated),
        Err(e) => Next::End(Restored::Stopped(format!(
            "the browser could not read the saved studio ({e})"
        ))),
    }
}

/// What a run of the restore's worker that did not read every part ends the restore with.
fn ended(received: Received, stopped: &Slot<String>) -> Restored {
    match received {
        Received::Failed {
            message,
            crashed: true,
        } => Restored::Stopped(format!(
            "the studio's worker stopped while reading it ({message})"
        )),
        Received::Failed { message, .. } => Restored::Failed(message),
        _ => match stopped.borrow_mut().take() {
            Some(why) => Restored::Stopped(why),
            None => Restored::Cancelled,
        },
    }
}

/// What the parts of `layout` before `at` hold, as the worker counts what it read.
fn read_before(layout: &Layout, at: usize) -> Read {
    let parts = layout.parts.as_deref().unwrap_or_default();
    let before = parts.get(..at).unwrap_or_default();
    let documents: u64 = before.iter().map(|p| u64::from(p.documents)).sum();
    Read {
        bytes: documents,
        documents,
        id_bytes: before.iter().map(|p| p.id_bytes).sum(),
    }
}

/// Has the worker read the saved documents (`layout`) and places them as they come. When
/// another save (in another tab) replaced a part meanwhile, reads on in the newer studio
/// from that part if the two name the same parts before it and place documents alike
/// ([`Restored::Newer`]), up to [`RESTORE_TRIES`] times; else the restore starts again
/// ([`Restored::Outdated`]).
async fn in_worker(
    settings: &str,
    mut layout: Layout,
    on_progress: &Callback<Work>,
    cancel: &CancelToken,
) -> Restored {
    let mut state = match read_saved(settings).and_then(with_tab) {
        Ok(state) => state,
        Err(why) => return Restored::Failed(why),
    };
    let (mut job, stopped, loaded) = restore_job(cancel, on_progress);
    // Freed in parts if the restore stops.
    let mut out = Made::new(state.placer());
    if layout.document_count > 0 {
        out.reserve(layout.document_count, layout.id_bytes);
        out.reserve_bodies(layout.bodies, layout.body_bytes);
    }
    let (mut keys, mut read, mut runs) = (layout.part_keys(), Read::default(), 1);
    loop {
        let mut reading = Reading::restore(keys, read);
        let total = layout.document_count.max(1) as f64;
        let key = match receive(&mut job, &mut reading, &mut out, total, false).await {
            Received::All { .. } => break,
            Received::Missing(key) => key,
            other => return ended(other, &stopped),
        };
        drop(reading);
        let (now, newer, at) = match missing(&key, &layout).await {
            Next::ReadOn(now, newer, at) if runs < RESTORE_TRIES => (now, newer, at),
            Next::ReadOn(..) => return Restored::Outdated,
            Next::End(restored) => return restored,
        };
        read = read_before(&newer, at);
        let Ok(newer_state) = read_saved(&now).and_then(with_tab) else {
            return Restored::Outdated;
        };
        if out.len() != read.documents || !out.follow(newer_state.placer()) {
            return Restored::Outdated;
        }
        keys = newer
            .part_keys()
            .map(|keys| keys.into_iter().skip(at).collect());
        (state, layout, runs) = (newer_state, newer, runs + 1);
    }
    job.finish(out, None, state.kept().cloned()).await;
    let Some(made) = loaded.borrow_mut().take() else {
        return Restored::Cancelled;
    };
    state.apply(Action::Loaded(made));
    // The first render of the studio starts a task of its own.
    yield_now().await;
    if runs > 1 {
        Restored::Newer(state)
    } else {
        Restored::State(state)
    }
}
