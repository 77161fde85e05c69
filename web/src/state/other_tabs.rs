//! Studios open in other tabs of the same browser share one saved studio (IndexedDB keeps
//! one): the last tab to save is the one a reload opens. So that no tab's work is replaced
//! without a word, each tab tells the others when it saved ([`SavedInTab`], posted on the
//! browser's `BroadcastChannel` [`SAVES_CHANNEL`] by `components::other_tabs`), and a tab
//! that hears it says so once ([`SaveOwner`]) until it saves again.

use super::{Level, Notice};
use crate::numbers::group_digits;
use serde::{Deserialize, Serialize};

/// The name of the `BroadcastChannel` the studio's tabs tell each other their saves on.
pub const SAVES_CHANNEL: &str = "ravenshard-studio-saves";

/// What a tab tells the others when its studio was saved.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::SavedInTab;
///
/// let said = SavedInTab { database: "Orders".into(), documents: 1_000 };
/// assert_eq!(SavedInTab::read(&said.message()), Some(said));
/// assert_eq!(SavedInTab::read("not a studio's message"), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedInTab {
    /// The saved studio's database name.
    pub database: String,
    /// How many documents it holds.
    pub documents: u64,
}

impl SavedInTab {
    /// The message posted on [`SAVES_CHANNEL`] (JSON).
    pub fn message(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The save a message says; `None`: not a studio's message (another page of the same
    /// origin may use a channel of that name), which is ignored.
    pub fn read(message: &str) -> Option<SavedInTab> {
        serde_json::from_str(message).ok()
    }
}

/// Whether the saved studio is still this tab's, as far as this tab heard.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::{SavedInTab, SaveOwner};
///
/// let mut owner = SaveOwner::default();
/// let other = SavedInTab { database: "Orders".into(), documents: 1_000 };
/// assert!(owner.heard(&other).is_some(), "the first save of another tab is told");
/// assert!(owner.heard(&other).is_none(), "once, not at each of its saves");
/// owner.saved_here();
/// assert!(owner.heard(&other).is_some(), "told again once this tab saved in between");
/// ```
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SaveOwner {
    replaced: bool,
}

impl SaveOwner {
    /// This tab's studio was saved: it is the one a reload opens.
    pub fn saved_here(&mut self) {
        self.replaced = false;
    }

    /// Another tab saved its studio (`other`): the notice to show, the first time since
    /// this tab's own save or since it opened.
    pub fn heard(&mut self, other: &SavedInTab) -> Option<Notice> {
        if std::mem::replace(&mut self.replaced, true) {
            return None;
        }
        let documents = group_digits(other.documents);
        let plural = if other.documents == 1 { "" } else { "s" };
        Some(Notice::new(
            Level::Warning,
            format!(
                "Another tab saved its studio (database \"{}\", {documents} document{plural}) \
                 in place of this one: a reload opens that one. Change something here to \
                 save this tab's studio in its place, or export its documents (Export CSV) \
                 to keep both.",
                other.database
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A save of another tab is told once; this tab's save makes the next one told again;
    /// the notice names the other studio.
    #[test]
    fn another_tabs_saves_are_told_once_until_this_tab_saves() {
        let mut owner = SaveOwner::default();
        let other = SavedInTab {
            database: "Shop".into(),
            documents: 1_234_567,
        };
        let notice = owner.heard(&other).unwrap();
        assert_eq!(notice.level, Level::Warning);
        assert!(
            notice
                .text
                .contains("database \"Shop\", 1,234,567 documents"),
            "{}",
            notice.text
        );
        for _ in 0..3 {
            assert_eq!(owner.heard(&other), None);
        }
        owner.saved_here();
        owner.saved_here();
        assert!(owner.heard(&other).is_some());
        let one = SavedInTab {
            documents: 1,
            ..other
        };
        assert!(SaveOwner::default()
            .heard(&one)
            .unwrap()
            .text
            .contains("1 document)"));
    }

    /// Messages of other pages on a channel of the same name are not read as saves.
    #[test]
    fn other_messages_are_not_saves() {
        for message in [
            "",
            "{}",
            "[1]",
            "{\"database\": 3, \"documents\": 1}",
            "null",
        ] {
            assert_eq!(SavedInTab::read(message), None, "{message}");
        }
        let said = SavedInTab {
            database: "a \"quoted\" name".into(),
            documents: u64::MAX,
        };
        assert_eq!(SavedInTab::read(&said.message()), Some(said));
    }
}
