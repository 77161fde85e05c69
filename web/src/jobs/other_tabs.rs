//! The studio's side of [`state::other_tabs`](crate::state::other_tabs): a
//! `BroadcastChannel` on which this tab tells the studio's other tabs that it saved, and
//! hears theirs.

use crate::state::{NoticeAction, SaveOwner, SavedInTab, SAVES_CHANNEL};
use gloo::events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{BroadcastChannel, MessageEvent};
use yew::Callback;

/// This tab's channel to the studio's other tabs, open while it lives.
pub struct OtherTabs {
    channel: Option<BroadcastChannel>,
    owner: Rc<RefCell<SaveOwner>>,
    _listener: Option<EventListener>,
}

impl OtherTabs {
    /// Opens the channel: when another tab saved its studio, `on_notice` hears the notice
    /// to show (once until this tab saves). A browser without `BroadcastChannel` gives a
    /// channel that tells nothing, and the studio saves as before.
    pub fn open(on_notice: Callback<NoticeAction>) -> OtherTabs {
        let owner = Rc::new(RefCell::new(SaveOwner::default()));
        let channel = BroadcastChannel::new(SAVES_CHANNEL).ok();
        let listener = channel.as_ref().map(|channel| {
            let owner = Rc::clone(&owner);
            EventListener::new(channel, "message", move |event| {
                let said = (event.dyn_ref::<MessageEvent>())
                    .and_then(|event| event.data().as_string())
                    .and_then(|message| SavedInTab::read(&message));
                if let Some(notice) = said.and_then(|said| owner.borrow_mut().heard(&said)) {
                    on_notice.emit(NoticeAction::Notify(notice));
                }
            })
        });
        OtherTabs {
            channel,
            owner,
            _listener: listener,
        }
    }

    /// This tab's studio was saved (`said`): the other tabs are told.
    pub fn saved(&self, said: &SavedInTab) {
        self.owner.borrow_mut().saved_here();
        if let Some(channel) = &self.channel {
            // A channel closed by the browser (the page is going away) tells nobody.
            let _ = channel.post_message(&said.message().into());
        }
    }
}

impl Drop for OtherTabs {
    fn drop(&mut self) {
        if let Some(channel) = &self.channel {
            channel.close();
        }
    }
}
