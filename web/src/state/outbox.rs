//! The workspace's changes on their way to its host ([`Outbox`]): the reducers queue a
//! [`Change`] for each change of the documents or of the configuration that places them,
//! and the page sends the queue in order after each render
//! ([`worker::host::change`](crate::workers::host::change)). The reducers stay pure: they
//! only queue, and a test hands the queue to a [`Host`](ravenshard_model::host::Host) itself.

use ravenshard_model::host::Change;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

/// Changes not yet sent, numbered in order; shared by every copy of the state (yew keeps
/// the previous one), so that a change queued by one reducer is sent once.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::Outbox;
/// use ravenshard_model::host::Change;
///
/// let outbox = Outbox::default();
/// let copy = outbox.clone();
/// assert_eq!(outbox.push(Change::Replace { documents: Vec::new() }), 1);
/// assert_eq!(copy.queued(), 1);
/// let sent = copy.take();
/// assert_eq!(sent[0].0, 1);
/// assert_eq!((outbox.queued(), outbox.last()), (0, 1));
/// ```
#[derive(Clone, Default)]
pub struct Outbox(Rc<RefCell<Queue>>);

#[derive(Default)]
struct Queue {
    changes: VecDeque<(u64, Change)>,
    last: u64,
}

impl Outbox {
    /// Queues `change`; returns its number (one more than the last).
    pub fn push(&self, change: Change) -> u64 {
        let mut queue = self.0.borrow_mut();
        queue.last += 1;
        let seq = queue.last;
        queue.changes.push_back((seq, change));
        seq
    }

    /// The changes queued, in order, taken out of the queue.
    pub fn take(&self) -> Vec<(u64, Change)> {
        self.0.borrow_mut().changes.drain(..).collect()
    }

    /// Queues the changes `other` holds (a state made apart, taking this one's place), in
    /// order, numbered after this one's; `other` is left empty.
    pub fn take_from(&self, other: &Outbox) {
        if Rc::ptr_eq(&self.0, &other.0) {
            return;
        }
        for (_, change) in other.take() {
            self.push(change);
        }
    }

    /// Which queue it is (its address: the state's copies share one).
    pub fn id(&self) -> usize {
        Rc::as_ptr(&self.0) as *const () as usize
    }

    /// How many changes are queued.
    pub fn queued(&self) -> usize {
        self.0.borrow().changes.len()
    }

    /// The number of the last change queued (0: none yet).
    pub fn last(&self) -> u64 {
        self.0.borrow().last
    }
}

impl PartialEq for Outbox {
    /// The same queue.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for Outbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let queue = self.0.borrow();
        write!(
            f,
            "Outbox(last {}, {} queued)",
            queue.last,
            queue.changes.len()
        )
    }
}
