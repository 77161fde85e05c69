//! The `BroadcastChannel` [`SAVES_CHANNEL`] on which the tab that writes the saved studio
//! tells the studio's other tabs each save ([`SavedInTab`]), and on which they hear it
//! ([`Writer::heard`](crate::state::Writer::heard)).

use crate::state::{SavedInTab, SAVES_CHANNEL};
use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::{BroadcastChannel, MessageEvent};
use yew::Callback;

/// This tab's end of the channel, open while it lives.
pub struct SavesChannel {
    channel: Option<BroadcastChannel>,
    _listener: Option<EventListener>,
}

impl SavesChannel {
    /// Opens the channel: `on_saved` hears each save another tab tells. A browser without
    /// `BroadcastChannel` gives a channel that tells and hears nothing.
    pub fn open(on_saved: Callback<SavedInTab>) -> SavesChannel {
        let channel = BroadcastChannel::new(SAVES_CHANNEL).ok();
        let listener = channel.as_ref().map(|channel| {
            EventListener::new(channel, "message", move |event| {
                let said = (event.dyn_ref::<MessageEvent>())
                    .and_then(|event| event.data().as_string())
                    .and_then(|message| SavedInTab::read(&message));
                if let Some(said) = said {
                    on_saved.emit(said);
                }
            })
        });
        SavesChannel {
            channel,
            _listener: listener,
        }
    }

    /// This tab's studio was saved (`said`): the other tabs are told.
    pub fn saved(&self, said: &SavedInTab) {
        if let Some(channel) = &self.channel {
            // A channel closed by the browser (the page is going away) tells nobody.
            let _ = channel.post_message(&said.message().into());
        }
    }
}

impl Drop for SavesChannel {
    fn drop(&mut self) {
        if let Some(channel) = &self.channel {
            channel.close();
        }
    }
}
