//! A large value the studio's states share and change in place: the documents and their
//! placement.
//!
//! yew keeps the previous state while a reducer makes the next one, and views keep the
//! properties they were rendered with, so an `Rc<Placement>` held by the state is never the
//! only one: `Rc::make_mut` would copy a million documents' tables for a one-character edit.
//! A [`Live`] is a handle on one cell that every copy of the state shares: an
//! [`update`](Live::update) changes the value in place and gives the handle a new version,
//! so the handles of the previous state compare unequal to the new one (views render again)
//! while no copy is made. [`get`](Live::get) lends the value as an `Rc` for a render or a
//! computation; while such an `Rc` is kept (a save in progress), an update copies the value
//! once instead of changing it under its reader.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// A shared value changed in place, compared by cell and version.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::Live;
///
/// let mut live = Live::new(vec![1, 2, 3]);
/// let before = live.clone();
/// live.update(|v| v.push(4));
/// assert_ne!(live, before); // the views of `before` render again...
/// assert_eq!(*before.get(), [1, 2, 3, 4]); // ...from the one value, changed in place
/// assert_eq!(live.version(), 1);
/// ```
pub struct Live<T> {
    cell: Rc<RefCell<Cell<T>>>,
    /// The version of the value when this handle last saw it change.
    version: u64,
}

struct Cell<T> {
    value: Rc<T>,
    version: u64,
}

impl<T> Live<T> {
    /// A new cell holding `value`, at version 0.
    pub fn new(value: T) -> Live<T> {
        Live::from_rc(Rc::new(value))
    }

    /// A new cell holding `value`, at version 0.
    pub fn from_rc(value: Rc<T>) -> Live<T> {
        Live {
            cell: Rc::new(RefCell::new(Cell { value, version: 0 })),
            version: 0,
        }
    }

    /// The value now (the latest version, whichever handle asks). Keep the `Rc` only as
    /// long as needed: an update while it is kept copies the value.
    pub fn get(&self) -> Rc<T> {
        Rc::clone(&self.cell.borrow().value)
    }

    /// The version this handle saw last (0 when made, one more per update through any
    /// handle of the cell, as seen by the handle that updated).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Whether no update was made (through any handle) since this handle's version: what
    /// a job that reads the value over several tasks checks before each.
    pub fn is_latest(&self) -> bool {
        self.cell.borrow().version == self.version
    }

    /// Whether `other` is a handle on the same cell (whatever the versions).
    pub fn same_cell(&self, other: &Live<T>) -> bool {
        Rc::ptr_eq(&self.cell, &other.cell)
    }
}

impl<T: Clone> Live<T> {
    /// Changes the value in place (a copy only while a [`get`](Live::get)'s `Rc` is kept)
    /// and moves this handle to the new version.
    pub fn update<R>(&mut self, change: impl FnOnce(&mut T) -> R) -> R {
        let mut cell = self.cell.borrow_mut();
        let result = change(Rc::make_mut(&mut cell.value));
        cell.version += 1;
        self.version = cell.version;
        result
    }
}

impl<T> Clone for Live<T> {
    fn clone(&self) -> Self {
        Live {
            cell: Rc::clone(&self.cell),
            version: self.version,
        }
    }
}

impl<T> PartialEq for Live<T> {
    /// The same cell at the same version.
    fn eq(&self, other: &Self) -> bool {
        self.same_cell(other) && self.version == other.version
    }
}

impl<T> fmt::Debug for Live<T> {
    /// The version only (the value may hold a million documents).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Live")
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl<T: Default> Default for Live<T> {
    fn default() -> Self {
        Live::new(T::default())
    }
}
