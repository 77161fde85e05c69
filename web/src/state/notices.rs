//! The notices at the top of the studio: what happened (an import, a link copied), what was
//! set aside, what could not be done. The newest [`MAX_NOTICES`] are kept.

use std::rc::Rc;
use yew::Reducible;

/// The most notices shown at once; a new one pushes out the oldest.
pub const MAX_NOTICES: usize = 4;

/// How serious a notice is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Something happened as asked.
    Info,
    /// Something was left out or set aside.
    Warning,
    /// Something could not be done.
    Error,
}

/// A dismissible message at the top of the studio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// How serious it is.
    pub level: Level,
    /// What it says.
    pub text: String,
}

impl Notice {
    /// A notice of `level` saying `text`.
    pub fn new(level: Level, text: impl Into<String>) -> Notice {
        Notice {
            level,
            text: text.into(),
        }
    }
}

/// What can happen to the notices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoticeAction {
    /// Show a notice.
    Notify(Notice),
    /// Dismiss the notice at this position.
    Dismiss(usize),
}

/// The notices shown, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoticesState {
    list: Vec<Notice>,
}

impl NoticesState {
    /// The notices, oldest first.
    pub fn list(&self) -> &[Notice] {
        &self.list
    }

    /// Shows `notice`, dropping the oldest when [`MAX_NOTICES`] are shown.
    pub fn push(&mut self, notice: Notice) {
        if self.list.len() >= MAX_NOTICES {
            self.list.remove(0);
        }
        self.list.push(notice);
    }

    fn apply(&mut self, action: NoticeAction) {
        match action {
            NoticeAction::Notify(notice) => self.push(notice),
            NoticeAction::Dismiss(index) => {
                if index < self.list.len() {
                    self.list.remove(index);
                }
            }
        }
    }
}

impl Reducible for NoticesState {
    type Action = NoticeAction;

    fn reduce(self: Rc<Self>, action: NoticeAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_are_capped_and_dismissed() {
        let mut notices = Rc::new(NoticesState::default());
        for i in 0..10 {
            let notice = Notice::new(Level::Info, format!("n{i}"));
            notices = notices.reduce(NoticeAction::Notify(notice));
        }
        assert_eq!(notices.list().len(), MAX_NOTICES);
        assert_eq!(notices.list()[3].text, "n9");
        assert_eq!(notices.list()[0].text, "n6");
        let notices = notices.reduce(NoticeAction::Dismiss(3));
        let notices = notices.reduce(NoticeAction::Dismiss(99));
        assert_eq!(notices.list().len(), 3);
        assert_eq!(notices.list()[2].text, "n8");
    }
}
