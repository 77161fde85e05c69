//! Which of the studio's open tabs writes the saved studio. Tabs of the same browser share
//! one saved studio (IndexedDB keeps one), so one tab at a time writes it: the one holding
//! the browser's exclusive lock [`WRITER_LOCK`] (the Web Locks API, asked for by
//! `jobs::writer_lock`). The others are readers ([`Writer`]): they stay usable, save
//! nothing, keep the changes made in them and say so, and the first in line becomes the
//! writer when the writer's tab closes. The writer tells the others each save
//! ([`SavedInTab`], posted on the `BroadcastChannel` [`SAVES_CHANNEL`] by
//! `jobs::saves_channel`), so that a reader knows the saved studio is no longer the one it
//! shows, and does not save its older studio over it without a word.

use super::{Level, Notice};
use crate::numbers::group_digits;
use serde::{Deserialize, Serialize};

/// The name of the Web Lock the tab that writes the saved studio holds: the studio's
/// IndexedDB database's.
pub const WRITER_LOCK: &str = "ravenshard-studio";

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

/// Whether this tab writes the saved studio.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TabRole {
    /// It asked for [`WRITER_LOCK`] and has no answer yet.
    #[default]
    Asking,
    /// It holds the lock: it saves.
    Writer,
    /// Another tab holds the lock: this one saves nothing until it gets it.
    Reader,
}

/// This tab's part in saving the studio: its [`TabRole`], whether changes made here wait
/// unsaved, and whether another tab saved since this tab's studio was opened or saved.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::{TabRole, Writer};
///
/// let mut tab = Writer::default();
/// tab.refused();
/// tab.changed();
/// assert!(!tab.may_save(), "a reader saves nothing");
/// assert!(tab.leaving_loses(), "and keeps its changes, which leaving the page loses");
/// assert!(tab.banner().unwrap().contains("Another tab of this studio is saving it"));
/// tab.granted();
/// assert_eq!(tab.role(), TabRole::Writer);
/// assert!(tab.to_save(), "the writer's tab closed: the changes made here are saved");
/// tab.saving();
/// assert!(!tab.leaving_loses());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Writer {
    role: TabRole,
    /// Changes were made here that no save started with.
    held: bool,
    /// Another tab saved since this tab's studio was opened or last saved.
    behind: bool,
    /// This tab became the writer while behind: it saves nothing until the next change
    /// made in it (the saved studio is newer than this tab's).
    waiting: bool,
    /// Whether the notice of another tab's save was shown since this tab's last save.
    told: bool,
}

impl Writer {
    /// This tab's role.
    pub fn role(&self) -> TabRole {
        self.role
    }

    /// Another tab holds the lock: this tab is a reader until [`granted`](Self::granted).
    pub fn refused(&mut self) {
        if self.role == TabRole::Asking {
            self.role = TabRole::Reader;
        }
    }

    /// This tab holds the lock now (at once, a browser without Web Locks too, or once the
    /// writer's tab closed): the notice to show when it was a reader. A tab that is behind
    /// saves nothing until the next change made in it ([`may_save`](Self::may_save)).
    pub fn granted(&mut self) -> Option<Notice> {
        let was = std::mem::replace(&mut self.role, TabRole::Writer);
        if was != TabRole::Reader {
            return None;
        }
        self.waiting = self.behind;
        let text = match (self.behind, self.held) {
            (true, _) => "The tab that was saving this studio closed, and this tab saves it \
                 now. The studio that tab saved is newer than this tab's: this tab saved \
                 nothing over it. Reload the page to open it, or change something here to save \
                 this tab's studio in its place."
                .to_string(),
            (false, true) => "The tab that was saving this studio closed: this tab saves it \
                 now, with the changes made here."
                .to_string(),
            (false, false) => {
                "The tab that was saving this studio closed: this tab saves it now.".to_string()
            }
        };
        Some(Notice::new(
            if self.behind {
                Level::Warning
            } else {
                Level::Info
            },
            text,
        ))
    }

    /// A change was made in this tab (its save is due unless [`may_save`](Self::may_save)
    /// says otherwise): a writer waiting saves again.
    pub fn changed(&mut self) {
        if self.role == TabRole::Writer {
            self.waiting = false;
        }
        if !self.may_save() {
            self.held = true;
        }
    }

    /// Whether this tab saves its changes now: it is the writer, and not waiting for a
    /// change before it saves over a newer studio.
    pub fn may_save(&self) -> bool {
        self.role == TabRole::Writer && !self.waiting
    }

    /// Whether changes wait that this tab saves now (it just became the writer).
    pub fn to_save(&self) -> bool {
        self.held && self.may_save()
    }

    /// A save of this tab's studio starts: it holds every change made here so far, and the
    /// saved studio is this tab's again.
    pub fn saving(&mut self) {
        self.held = false;
        self.behind = false;
        self.told = false;
    }

    /// Another tab saved its studio (`other`): this tab is behind. A writer (a browser
    /// without Web Locks, or a tab of an older studio that does not ask for the lock) is
    /// told once until it saves again, since a reload would open that studio.
    pub fn heard(&mut self, other: &SavedInTab) -> Option<Notice> {
        self.behind = true;
        if self.role != TabRole::Writer || std::mem::replace(&mut self.told, true) {
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

    /// Whether leaving the page (a reload, closing the tab) loses changes made here: they
    /// were never saved.
    pub fn leaving_loses(&self) -> bool {
        self.held
    }

    /// What the page says while this tab does not save: `None` when it does.
    pub fn banner(&self) -> Option<String> {
        let head = match self.role {
            TabRole::Reader => {
                "Another tab of this studio is saving it, so this tab saves nothing."
            }
            TabRole::Writer if self.waiting => {
                "This tab saves the studio, but the saved studio is newer than this tab's \
                 (another tab saved it): this tab saved nothing over it."
            }
            TabRole::Writer | TabRole::Asking => return None,
        };
        let tail = match (self.role, self.held, self.behind) {
            (TabRole::Reader, true, _) => {
                "The changes made here are kept in this tab only, and saved when this tab \
                 becomes the one saving (when the other closes); export the documents to keep \
                 them now, since a reload here loses them."
            }
            (TabRole::Reader, false, true) => {
                "The saved studio changed there since this tab opened: reload the page to see \
                 it."
            }
            (TabRole::Reader, false, false) => {
                "Changes made here are kept in this tab until it becomes the one saving (when \
                 the other closes)."
            }
            (_, true, _) => {
                "Change something here to save this tab's studio in its place, or export the \
                 documents to keep the changes made here and reload the page to open the \
                 saved one."
            }
            (_, false, _) => {
                "Reload the page to open it, or change something here to save this tab's \
                 studio in its place."
            }
        };
        Some(format!("{head} {tail}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn other() -> SavedInTab {
        SavedInTab {
            database: "Shop".into(),
            documents: 1_234_567,
        }
    }

    /// The first tab gets the lock at once: it saves every change, shows no banner, and
    /// the changes made before the answer are saved then.
    #[test]
    fn the_first_tab_writes() {
        let mut tab = Writer::default();
        tab.changed();
        assert!(!tab.may_save(), "no answer yet");
        assert!(tab.leaving_loses());
        assert_eq!(tab.banner(), None, "no banner while asking");
        assert_eq!(tab.granted(), None, "nothing to say at once");
        assert!(tab.to_save());
        tab.saving();
        tab.changed();
        assert!(tab.may_save() && !tab.leaving_loses() && tab.banner().is_none());
    }

    /// A reader saves nothing, keeps its changes and says so; when it gets the lock and no
    /// other tab saved meanwhile, it saves them.
    #[test]
    fn a_reader_keeps_its_changes_until_it_writes() {
        let mut tab = Writer::default();
        tab.refused();
        assert_eq!(tab.role(), TabRole::Reader);
        let banner = tab.banner().unwrap();
        assert!(
            banner.contains("until it becomes the one saving"),
            "{banner}"
        );
        tab.changed();
        tab.changed();
        assert!(!tab.may_save() && !tab.to_save() && tab.leaving_loses());
        let banner = tab.banner().unwrap();
        assert!(banner.contains("kept in this tab only"), "{banner}");
        let notice = tab.granted().unwrap();
        assert_eq!(notice.level, Level::Info);
        assert!(
            notice.text.contains("with the changes made here"),
            "{}",
            notice.text
        );
        assert!(tab.to_save() && tab.banner().is_none());
        tab.refused();
        assert_eq!(tab.role(), TabRole::Writer, "a writer stays one");
    }

    /// A reader that heard another tab save does not save its older studio over the newer
    /// one when it gets the lock, until a change is made in it; leaving it loses the
    /// changes made here, and the page says so.
    #[test]
    fn a_reader_behind_does_not_save_over_the_newer_studio() {
        let mut tab = Writer::default();
        tab.refused();
        assert_eq!(tab.heard(&other()), None, "a reader shows it in its banner");
        assert!(tab.banner().unwrap().contains("reload the page to see it"));
        tab.changed();
        let notice = tab.granted().unwrap();
        assert_eq!(notice.level, Level::Warning);
        assert!(
            notice.text.contains("saved nothing over it"),
            "{}",
            notice.text
        );
        assert!(!tab.may_save() && !tab.to_save() && tab.leaving_loses());
        let banner = tab.banner().unwrap();
        assert!(banner.contains("newer than this tab's"), "{banner}");
        assert!(banner.contains("export the documents"), "{banner}");
        tab.changed();
        assert!(
            tab.may_save() && tab.to_save(),
            "a change here saves this tab's studio"
        );
        tab.saving();
        assert!(!tab.leaving_loses() && tab.banner().is_none());
    }

    /// A reader behind with nothing of its own becomes a writer that waits, and says how to
    /// open the newer studio.
    #[test]
    fn a_reader_behind_without_changes_waits() {
        let mut tab = Writer::default();
        tab.refused();
        tab.heard(&other());
        tab.granted();
        assert!(!tab.leaving_loses() && !tab.to_save());
        assert!(tab.banner().unwrap().contains("Reload the page to open it"));
    }

    /// A writer that hears another tab's save (one that does not ask for the lock) is told
    /// once until it saves again; the notice names the other studio.
    #[test]
    fn a_writer_is_told_of_another_tabs_save_once_until_it_saves() {
        let mut tab = Writer::default();
        tab.granted();
        let notice = tab.heard(&other()).unwrap();
        assert_eq!(notice.level, Level::Warning);
        assert!(
            notice
                .text
                .contains("database \"Shop\", 1,234,567 documents"),
            "{}",
            notice.text
        );
        for _ in 0..3 {
            assert_eq!(tab.heard(&other()), None);
        }
        tab.saving();
        assert!(tab.heard(&other()).is_some());
        let one = SavedInTab {
            documents: 1,
            ..other()
        };
        let mut tab = Writer::default();
        tab.granted();
        assert!(tab.heard(&one).unwrap().text.contains("1 document)"));
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
