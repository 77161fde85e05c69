//! Reading a document's ID-like string values straight from its JSON text, without building
//! a `serde_json::Value`: the advisor reads a million bodies, and most of what they hold is
//! not kept.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
use std::fmt;

/// Field names met so far, and the values collected from one document.
pub(super) struct Collector<'a> {
    /// Field paths by index.
    pub names: &'a mut Vec<String>,
    /// Field path → index.
    pub index: &'a mut HashMap<String, u32>,
    /// The path being read (`Lines.Product`).
    pub path: String,
    /// `(field index, value)` of the strings `keep` accepts, in document order.
    pub out: Vec<(u32, String)>,
    /// Which strings to keep.
    pub keep: fn(&str) -> bool,
}

impl Collector<'_> {
    /// Reads the values of one JSON object (its `@metadata` left out).
    pub fn read(&mut self, body: &str) -> Result<(), serde_json::Error> {
        let mut deserializer = serde_json::Deserializer::from_str(body);
        Walk { c: self, top: true }.deserialize(&mut deserializer)?;
        deserializer.end()
    }

    fn field(&mut self) -> u32 {
        if let Some(&i) = self.index.get(&self.path) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(self.path.clone());
        self.index.insert(self.path.clone(), i);
        i
    }
}

/// One JSON value at the collector's path.
struct Walk<'c, 'a> {
    c: &'c mut Collector<'a>,
    top: bool,
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A key, appended to the path.
struct Key<'p>(&'p mut String);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for Key<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<(), E> {
        if !self.0.is_empty() {
            self.0.push('.');
        }
        self.0.push_str(key);
        Ok(())
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        if (self.c.keep)(value) {
            let field = self.c.field();
            self.c.out.push((field, value.to_string()));
        }
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(Walk {
                c: &mut *self.c,
                top: false,
            })?
            .is_some()
        {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let len = self.c.path.len();
        while map.next_key_seed(Key(&mut self.c.path))?.is_some() {
            if self.top && self.c.path == "@metadata" {
                map.next_value::<IgnoredAny>()?;
            } else {
                map.next_value_seed(Walk {
                    c: &mut *self.c,
                    top: false,
                })?;
            }
            self.c.path.truncate(len);
        }
        Ok(())
    }
}
