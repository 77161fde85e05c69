//! The order in which a configuration's JSON lists its `Shards`. serde_json's maps are
//! sorted, but RavenDB reads `Shards` into a `Dictionary<int, DatabaseTopology>`, which keeps
//! the order it was read in, and its creation step gives the main block's bucket ranges to
//! the shards in that order (`ShardingStore.FillShardingConfiguration`): `{"2": …, "0": …}`
//! gives buckets 0..524288 to shard 2.

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// The keys of a JSON object, in order.
struct Keys(Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Keys, D::Error> {
        struct KeysVisitor;
        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = Keys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
            fn visit_unit<E>(self) -> Result<Keys, E> {
                Ok(Keys(Vec::new()))
            }
        }
        deserializer.deserialize_any(KeysVisitor)
    }
}

#[derive(Deserialize)]
struct Sharding {
    #[serde(rename = "Shards", default)]
    shards: Option<Keys>,
}

#[derive(Deserialize)]
struct Record {
    #[serde(rename = "Sharding", default)]
    sharding: Option<Sharding>,
}

/// The keys of `Shards` (of `Sharding` in a database record) in the order `text` lists them;
/// empty when `text` cannot be read so (its reader then says why).
pub(super) fn shard_keys_in_order(text: &str, in_record: bool) -> Vec<String> {
    let keys = match in_record {
        true => serde_json::from_str::<Record>(text)
            .ok()
            .and_then(|r| r.sharding?.shards),
        false => serde_json::from_str::<Sharding>(text)
            .ok()
            .and_then(|s| s.shards),
    };
    keys.map(|k| k.0).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::shard_keys_in_order;

    #[test]
    fn keys_come_in_the_order_written() {
        let bare = r#"{"Shards": {"2": {}, "0": {"Members": ["A"]}, "1": null}}"#;
        assert_eq!(shard_keys_in_order(bare, false), ["2", "0", "1"]);
        let record = r#"{"Shards": 1, "Sharding": {"Prefixed": [], "Shards": {"5": {}, "3": {}}}}"#;
        assert_eq!(shard_keys_in_order(record, true), ["5", "3"]);
        assert!(shard_keys_in_order("{", false).is_empty());
    }
}
