//! The tab bar's keys, as the WAI-ARIA Authoring Practices' tabs pattern has them: Left and
//! Right move to the previous and the next tab (wrapping around), Home and End to the first
//! and the last, across the groups (a key past a group's last tab shows the next group's
//! first). Which tab a key leads to depends only on [`Tab::all`]'s order, so a new view
//! needs nothing here.

use super::tab::Tab;

impl Tab {
    /// The tab `key` (a `KeyboardEvent.key`) moves to from this one, if it is one of the
    /// tab bar's keys.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_studio::state::Tab;
    /// assert_eq!(Tab::Documents.moved_by_key("ArrowRight"), Some(Tab::Groups));
    /// assert_eq!(Tab::Documents.moved_by_key("ArrowLeft"), Tab::all().last());
    /// assert_eq!(Tab::Shards.moved_by_key("Home"), Some(Tab::Documents));
    /// assert_eq!(Tab::Shards.moved_by_key("Enter"), None);
    /// ```
    pub fn moved_by_key(self, key: &str) -> Option<Tab> {
        let all: Vec<Tab> = Tab::all().collect();
        let at = all.iter().position(|&t| t == self)?;
        let to = match key {
            "ArrowRight" => (at + 1) % all.len(),
            "ArrowLeft" => (at + all.len() - 1) % all.len(),
            "Home" => 0,
            "End" => all.len() - 1,
            _ => return None,
        };
        all.get(to).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::Tab;

    #[test]
    fn right_and_left_visit_every_tab_in_order_and_wrap_around() {
        let all: Vec<Tab> = Tab::all().collect();
        for (i, &tab) in all.iter().enumerate() {
            let next = all[(i + 1) % all.len()];
            assert_eq!(tab.moved_by_key("ArrowRight"), Some(next));
            assert_eq!(next.moved_by_key("ArrowLeft"), Some(tab));
        }
    }

    #[test]
    fn home_and_end_go_to_the_ends_and_other_keys_nowhere() {
        let (first, last) = (Tab::all().next(), Tab::all().last());
        for tab in Tab::all() {
            assert_eq!(tab.moved_by_key("Home"), first);
            assert_eq!(tab.moved_by_key("End"), last);
            for key in ["ArrowUp", "ArrowDown", "Enter", " ", "Tab", "a", "Right"] {
                assert_eq!(tab.moved_by_key(key), None, "{key:?}");
            }
        }
        assert_eq!(last.and_then(|t| t.moved_by_key("ArrowRight")), first);
    }
}
