//! The studio's save after changes ([`use_autosave`]), in the tab that writes the saved
//! studio: the one holding the Web Lock ([`WriterLock`]); another tab keeps its changes
//! and says so ([`Writer`]).

use crate::jobs::save::Saver;
use crate::jobs::saves_channel::SavesChannel;
use crate::jobs::writer_lock::WriterLock;
use crate::state::{Notice, NoticeAction, SaveTimer, SavedInTab, Writer};
use crate::views::state::State;
use crate::workers::save::StorageError;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What the page shows of its saving.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Autosave {
    /// Why the last save failed (the browser refused it), if it did.
    pub refused: Option<String>,
    /// What the page says while this tab does not save ([`Writer::banner`]).
    pub banner: Option<String>,
}

/// The saving's parts that live as long as the studio: the saver, the channel to the
/// other tabs and the watch on the writer's lock.
struct Machinery {
    flush: Rc<dyn Fn()>,
    _channel: Rc<SavesChannel>,
    _lock: WriterLock,
}

/// What the machinery changes in the page: the latest state waiting, the save timer, the
/// page's messages.
#[derive(Clone)]
struct Wiring {
    latest: Rc<RefCell<Option<State>>>,
    timer: Rc<RefCell<SaveTimer>>,
    writer: Rc<RefCell<Writer>>,
    refused: UseStateSetter<Option<String>>,
    banner: UseStateSetter<Option<String>>,
    on_notice: Callback<NoticeAction>,
}

impl Wiring {
    /// Shows what the writer says now, and `notice` if any.
    fn tell(&self, notice: Option<Notice>) {
        self.banner.set(self.writer.borrow().banner());
        if let Some(notice) = notice {
            self.on_notice.emit(NoticeAction::Notify(notice));
        }
    }

    /// Starts the saver, the channel and the lock (`restored`: the workspace's documents
    /// are the ones IndexedDB holds).
    fn start(self, restored: bool) -> Machinery {
        let saver = Rc::new(Saver::new(restored));
        let channel = Rc::new(SavesChannel::open({
            let wiring = self.clone();
            Callback::from(move |said: SavedInTab| {
                let notice = wiring.writer.borrow_mut().heard(&said);
                wiring.tell(notice);
            })
        }));
        let flush: Rc<dyn Fn()> = Rc::new({
            let (wiring, channel) = (self.clone(), Rc::clone(&channel));
            move || wiring.flush(&saver, &channel)
        });
        let lock = WriterLock::watch({
            let (wiring, flush) = (self, Rc::clone(&flush));
            Callback::from(move |writes: bool| {
                let notice = if writes {
                    wiring.writer.borrow_mut().granted()
                } else {
                    wiring.writer.borrow_mut().refused();
                    None
                };
                wiring.tell(notice);
                if wiring.writer.borrow().to_save() {
                    flush();
                }
            })
        });
        Machinery {
            flush,
            _channel: channel,
            _lock: lock,
        }
    }

    /// Saves the latest state, if this tab saves now (else it stays, for when it does);
    /// each save is told to the other tabs, and a refusal to the page.
    fn flush(&self, saver: &Rc<Saver>, channel: &Rc<SavesChannel>) {
        if !self.writer.borrow().may_save() {
            return;
        }
        self.timer.borrow_mut().saving();
        let Some(state) = self.latest.borrow_mut().take() else {
            return;
        };
        self.writer.borrow_mut().saving();
        self.tell(None);
        let summary = state.summary();
        let said = SavedInTab {
            database: summary.database.clone(),
            documents: summary.documents as u64,
        };
        let (refused, channel) = (self.refused.clone(), Rc::clone(channel));
        let done = Callback::from(move |done: Result<usize, StorageError>| {
            if done.is_ok() {
                channel.saved(&said);
            }
            refused.set(done.err().map(|e| {
                format!(
                    "The studio is not saved for the next visit: {e}. Export the documents to \
                     keep them."
                )
            }))
        });
        saver.save(state.settings(), done);
    }
}

/// Saves the studio [`SAVE_DELAY_MS`](crate::state::SAVE_DELAY_MS) after the last
/// change of the workspace, the configuration, the tab or a Readiness input, and no later than
/// [`SAVE_MAX_DELAY_MS`](crate::state::SAVE_MAX_DELAY_MS) after the first change not yet
/// saved ([`SaveTimer`]: typing that never pauses is saved too), and at once when the page
/// is hidden or left, so that a reload right after an edit keeps it. A state `restored`
/// from IndexedDB is saved only once changed. Only the tab holding the writer's lock saves
/// ([`Writer`]): another keeps its changes until it gets the lock, says so in its banner,
/// and asks before the page is left with changes it never saved.
#[hook]
pub fn use_autosave(state: &State, restored: bool, on_notice: &Callback<NoticeAction>) -> Autosave {
    let refused = use_state(|| None::<String>);
    let banner = use_state_eq(|| None::<String>);
    let wiring = Wiring {
        latest: use_mut_ref(|| None::<State>),
        timer: use_mut_ref(SaveTimer::default),
        writer: use_mut_ref(Writer::default),
        refused: refused.setter(),
        banner: banner.setter(),
        on_notice: on_notice.clone(),
    };
    let pending = use_mut_ref(|| None::<Timeout>);
    let unchanged = use_mut_ref(|| restored);
    let machinery = {
        let wiring = wiring.clone();
        use_memo((), move |_| wiring.start(restored))
    };
    use_leaving(&machinery.flush, &wiring.writer);
    {
        // The host's news after a change: the save waiting tells the other tabs of the
        // documents as the host holds them.
        let (latest, snapshot) = (wiring.latest.clone(), state.clone());
        use_effect_with(state.host().seq, move |_| {
            let mut latest = latest.borrow_mut();
            if latest.is_some() {
                *latest = Some(snapshot);
            }
        });
    }
    let key = (
        state.changes(),
        state.views().tab(),
        state.readiness().edits(),
    );
    let (snapshot, flush) = (state.clone(), Rc::clone(&machinery.flush));
    use_effect_with(key, move |_| {
        if std::mem::take(&mut *unchanged.borrow_mut()) {
            return;
        }
        *wiring.latest.borrow_mut() = Some(snapshot);
        wiring.writer.borrow_mut().changed();
        wiring.tell(None);
        let wait = wiring.timer.borrow_mut().changed(crate::jobs::bulk::now());
        *pending.borrow_mut() = Some(Timeout::new(wait, move || flush()));
    });
    Autosave {
        refused: (*refused).clone(),
        banner: (*banner).clone(),
    }
}

/// Saves at once when the page is hidden or left (`flush`), and asks the browser to
/// confirm leaving a page whose changes this tab never saved ([`Writer::leaving_loses`]).
#[hook]
fn use_leaving(flush: &Rc<dyn Fn()>, writer: &Rc<RefCell<Writer>>) {
    let (flush, writer) = (Rc::clone(flush), Rc::clone(writer));
    use_effect_with((), move |_| {
        let listeners = web_sys::window().map(|window| {
            let hidden = EventListener::new(&window, "pagehide", move |_| flush());
            let options = EventListenerOptions::enable_prevent_default();
            let leaving =
                EventListener::new_with_options(&window, "beforeunload", options, move |event| {
                    if writer.borrow().leaving_loses() {
                        event.prevent_default();
                    }
                });
            (hidden, leaving)
        });
        move || drop(listeners)
    });
}
