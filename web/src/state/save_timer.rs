//! When the studio saves after changes: [`SAVE_DELAY_MS`] after the last one, so that a
//! burst of changes makes one save, but no later than [`SAVE_MAX_DELAY_MS`] after the
//! first change not yet saved, so that changes that never pause (typing, a key held)
//! are saved all the same. Pure; the page's hook runs the timer.

/// How long the studio waits after the last change before saving, in milliseconds.
pub const SAVE_DELAY_MS: u32 = 500;

/// The longest the studio waits after the first change not yet saved, in milliseconds.
pub const SAVE_MAX_DELAY_MS: u32 = 5_000;

/// The changes not yet saved: when the first of them came.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::{SaveTimer, SAVE_DELAY_MS};
///
/// let mut timer = SaveTimer::default();
/// assert_eq!(timer.changed(0.0), SAVE_DELAY_MS);
/// // Changes every 300 ms: each waits less, until the save is due.
/// assert_eq!(timer.changed(4_800.0), 200);
/// assert_eq!(timer.changed(5_100.0), 0);
/// timer.saving();
/// assert_eq!(timer.changed(5_200.0), SAVE_DELAY_MS);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SaveTimer {
    first: Option<f64>,
}

impl SaveTimer {
    /// A change at `now` (in milliseconds): how long to wait before saving, at most
    /// [`SAVE_DELAY_MS`] and never past [`SAVE_MAX_DELAY_MS`] after the first change not
    /// yet saved.
    pub fn changed(&mut self, now: f64) -> u32 {
        let first = *self.first.get_or_insert(now);
        let left = (first + f64::from(SAVE_MAX_DELAY_MS) - now).max(0.0);
        left.min(f64::from(SAVE_DELAY_MS)) as u32
    }

    /// The save of the changes so far starts: the next change waits afresh.
    pub fn saving(&mut self) {
        self.first = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pause of `SAVE_DELAY_MS` saves; changes that never pause save every
    /// `SAVE_MAX_DELAY_MS` at the latest.
    #[test]
    fn changes_that_never_pause_are_saved_by_the_deadline() {
        let mut timer = SaveTimer::default();
        let mut saved_at = Vec::new();
        let mut due = f64::INFINITY;
        for step in 0..100 {
            let now = f64::from(step) * 200.0;
            if now >= due {
                saved_at.push(due);
                timer.saving();
            }
            due = now + f64::from(timer.changed(now));
        }
        assert_eq!(saved_at, [5_000.0, 10_000.0, 15_000.0]);
        // A change after a pause waits the short delay.
        let mut timer = SaveTimer::default();
        assert_eq!(timer.changed(0.0), SAVE_DELAY_MS);
        assert_eq!(timer.changed(100.0), SAVE_DELAY_MS);
        assert_eq!(timer.changed(4_900.0), 100);
        assert_eq!(timer.changed(7_000.0), 0, "overdue: at once");
    }
}
