//! The performance marks and measures the studio sets for `web/bench/studio.py` (the
//! User Timing API; ignored where the browser has none).

/// The performance mark set before the studio is written out for a save.
pub const SAVE_START: &str = "ravenshard-save-start";
/// The performance measure of writing the documents out and storing them part by part,
/// from [`SAVE_START`].
pub const SERIALIZE_MEASURE: &str = "ravenshard-serialize";
/// The performance measure of a save, from [`SAVE_START`] until IndexedDB holds it.
pub const SAVE_MEASURE: &str = "ravenshard-save";
/// The performance measure from the page's start until IndexedDB gave the saved studio.
pub const READ_MEASURE: &str = "ravenshard-restore-read";
/// The performance measure from the page's start until the saved studio is read back.
pub const RESTORE_MEASURE: &str = "ravenshard-restore";

/// Sets the performance mark `name` (for `web/bench/studio.py`; ignored if the browser
/// has no Performance API).
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// Adds the performance measure `name`, from the mark `start` (or the page's start) to now.
pub fn measure(name: &str, start: Option<&str>) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = match start {
            Some(start) => performance.measure_with_start_mark(name, start),
            None => performance.measure(name),
        };
    }
}
