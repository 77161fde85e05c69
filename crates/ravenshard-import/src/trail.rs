//! The JSON path of the value a serde visitor is reading (`@metadata.@collection`, `Id[2]`),
//! so that an error inside a document can say where it is.
//!
//! A value read through [`Trail::at`] adds its key or index to the trail when it starts and
//! takes it off once read. An error stops the reading there, so the trail then ends at the
//! value that failed; an error between values (a missing comma or colon, a key that is not
//! a string) leaves it at their object or array.

use serde::de::{DeserializeSeed, Deserializer};
use std::cell::Cell;

/// The path of the value being read, relative to the value read first.
#[derive(Default)]
pub(super) struct Trail(Cell<String>);

/// One step of a path.
#[derive(Debug, Clone, Copy)]
pub(super) enum Segment<'k> {
    /// The value of this key of an object: `.key`.
    Key(&'k str),
    /// This element of an array: `[index]`.
    Index(usize),
}

impl Trail {
    /// `seed`, reading the value at `segment` below the current path.
    pub fn at<'t, 'k, S>(&'t self, segment: Segment<'k>, seed: S) -> At<'t, 'k, S> {
        At {
            trail: self,
            segment,
            seed,
        }
    }

    /// The path now; after an error, the path of the value that failed.
    pub fn path(&self) -> String {
        self.0.take()
    }

    /// Adds `segment`; the length to truncate back to.
    fn push(&self, segment: Segment) -> usize {
        let mut path = self.0.take();
        let len = path.len();
        match segment {
            Segment::Key(key) => {
                if len > 0 {
                    path.push('.');
                }
                path.push_str(key);
            }
            Segment::Index(index) => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
        self.0.set(path);
        len
    }

    fn truncate(&self, len: usize) {
        let mut path = self.0.take();
        path.truncate(len);
        self.0.set(path);
    }
}

/// A seed that reads its value at one more step of a [`Trail`].
pub(super) struct At<'t, 'k, S> {
    trail: &'t Trail,
    segment: Segment<'k>,
    seed: S,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for At<'_, '_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        let len = self.trail.push(self.segment);
        let value = self.seed.deserialize(deserializer)?;
        self.trail.truncate(len);
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::IgnoredAny;
    use std::marker::PhantomData;

    #[test]
    fn the_trail_ends_at_the_value_that_failed() {
        let ignore = PhantomData::<IgnoredAny>;
        let trail = Trail::default();
        let read = trail.at(Segment::Key("x"), ignore);
        assert!(read
            .deserialize(&mut serde_json::Deserializer::from_str("1"))
            .is_ok());
        assert_eq!(trail.path(), "");

        let read = trail.at(Segment::Key("Lines"), trail.at(Segment::Index(3), ignore));
        assert!(read
            .deserialize(&mut serde_json::Deserializer::from_str("tru"))
            .is_err());
        assert_eq!(trail.path(), "Lines[3]");
    }
}
