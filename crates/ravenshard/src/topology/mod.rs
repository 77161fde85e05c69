//! The validated sharding topology: shards and their nodes, bucket ranges, prefixes.

mod order;
mod shard_table;
mod trailing;
mod validate;

use crate::config::{
    join_path, parse_configuration, DatabaseTopology, PrefixedShardingSetting, ShardBucketRange,
    ShardingConfiguration,
};
use crate::ServerVersion;
use crate::{bucket_for_with, bucket_of_lower, check_id, lower_id_with, ConfigError, IdError};
use crate::{ConfigWarning, NUMBER_OF_BUCKETS};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use shard_table::ShardTable;
use std::collections::BTreeMap;
use validate::{
    collect_warnings, parse_shard_number, split_block, validate_prefixes, validate_ranges,
};

/// The most prefixes a configuration can have: RavenDB's buckets are 32-bit signed
/// integers, so there are at most 2^31 / 2^20 = 2048 blocks, one of them the default.
pub const MAX_PREFIXES: usize = 2047;

/// The shard numbers in `order` (those that exist, once each), then the rest ascending.
fn in_order(shards: &Shards, order: &[u32]) -> Vec<u32> {
    let mut seen = std::collections::HashSet::with_capacity(order.len());
    let mut numbers: Vec<u32> = Vec::with_capacity(shards.len());
    for &n in order {
        if shards.contains(n) && seen.insert(n) {
            numbers.push(n);
        }
    }
    numbers.extend(shards.numbers().filter(|n| !seen.contains(n)));
    numbers
}

/// The range of `ranges` (ascending, validated) that holds `bucket`, if its block is owned.
/// Of ranges with one start (an empty range before it, as `MoveBucket` leaves), the last,
/// as RavenDB's `FindBucketShard` answers.
fn range_of(ranges: &[BucketRange], bucket: u32) -> Option<&BucketRange> {
    let block = bucket / NUMBER_OF_BUCKETS;
    let after = ranges.partition_point(|r| r.start <= bucket);
    let found = after.checked_sub(1).and_then(|i| ranges.get(i));
    match found {
        // The range found is in the bucket's block exactly when the block is owned and has a
        // range at or before the bucket.
        Some(range) if range.start / NUMBER_OF_BUCKETS == block => Some(range),
        // A prefix block whose first range starts late (validated: only a prefix's block):
        // its first buckets belong to that range, as FindBucketShard answers.
        _ => ranges
            .get(after)
            .filter(|r| r.start / NUMBER_OF_BUCKETS == block),
    }
}

/// The database name used when a configuration does not carry one.
pub const DEFAULT_DATABASE: &str = "db";

/// Buckets `start..end` belong to `shard`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BucketRange {
    /// First bucket of the range.
    pub start: u32,
    /// One past the last bucket of the range (the next range's start or the block's end).
    pub end: u32,
    /// The shard that owns the range.
    pub shard: u32,
}

/// A shard: its number and the nodes that hold it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shard {
    /// The shard number.
    pub number: u32,
    /// Tags of the member nodes (`["A", "B"]`).
    pub members: Vec<String>,
    #[serde(skip)]
    other: Map<String, Value>,
}

/// The shards of a topology, in ascending order of number, each number once. A sorted list
/// rather than a `BTreeMap<u32, Shard>`: one more B-tree key and value type is another copy
/// of the B-tree code in the studio's wasm (about 2 KB gzipped).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shards(Vec<Shard>);

impl Shards {
    /// The shards given, in any order; of two with the same number the later one stays (as
    /// inserting them into a map one by one would keep it).
    fn new(mut shards: Vec<Shard>) -> Shards {
        shards.sort_by_key(|s| s.number);
        let mut unique: Vec<Shard> = Vec::with_capacity(shards.len());
        for shard in shards {
            match unique.last_mut() {
                Some(last) if last.number == shard.number => *last = shard,
                _ => unique.push(shard),
            }
        }
        Shards(unique)
    }

    fn position(&self, number: u32) -> Option<usize> {
        self.0.binary_search_by_key(&number, |s| s.number).ok()
    }

    fn get(&self, number: u32) -> Option<&Shard> {
        self.0.get(self.position(number)?)
    }

    fn get_mut(&mut self, number: u32) -> Option<&mut Shard> {
        let position = self.position(number)?;
        self.0.get_mut(position)
    }

    /// Whether there is a shard with this number.
    pub(crate) fn contains(&self, number: u32) -> bool {
        self.position(number).is_some()
    }

    /// The shard numbers, ascending.
    pub(crate) fn numbers(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.0.iter().map(|s| s.number)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A prefixed sharding setting, with its block of buckets assigned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prefix {
    /// The prefix as configured (`"eu/"`).
    pub prefix: String,
    /// The shards that hold its documents.
    pub shards: Vec<u32>,
    /// The first bucket of its 2^20 block; added to the bucket of every ID it matches.
    pub bucket_range_start: u32,
    #[serde(skip)]
    lower: String,
    #[serde(skip)]
    other: Map<String, Value>,
}

impl Prefix {
    /// Whether a lowered ID ([`lower_id`](crate::lower_id)) starts with this prefix,
    /// lower-cased as a whole string ([`lower_invariant`](crate::casing::lower_invariant)),
    /// as RavenDB compares them (byte by byte, in UTF-8).
    pub fn matches_lower(&self, lower_id: &str) -> bool {
        lower_id.as_bytes().starts_with(self.lower.as_bytes())
    }
}

/// Where a document lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The final bucket, prefix offset included.
    pub bucket: u32,
    /// The shard that owns the bucket.
    pub shard: u32,
    /// Index of the matching prefix in [`Topology::prefixes`], if any.
    pub prefix: Option<usize>,
}

/// A validated RavenDB sharding topology.
///
/// # Examples
///
/// ```
/// use ravenshard::Topology;
///
/// let topology = Topology::with_shards(3).unwrap();
/// let location = topology.locate("orders/2-A$customers/1-A").unwrap();
/// assert_eq!((location.bucket, location.shard), (982173, 2));
/// assert_eq!(topology.fragment(2), "db$2");
///
/// let json = r#"{
///   "Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}, "2": {"Members": ["C"]}},
///   "Prefixed": [{"Prefix": "eu/", "Shards": [0]}, {"Prefix": "asia/", "Shards": [1, 2]}]
/// }"#;
/// let topology = Topology::from_json(json).unwrap();
/// assert_eq!(topology.locate("eu/0").unwrap().bucket, 1906271);
/// assert_eq!(topology.locate("asia/2").unwrap().shard, 2);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    database: String,
    shards: Shards,
    ranges: Vec<BucketRange>,
    /// The shards of the default block by chunk, derived from `ranges`.
    shard_table: ShardTable,
    prefixes: Vec<Prefix>,
    /// The range MoveBucket appends after the prefixes' blocks, if any (see `trailing`).
    trailing: Option<trailing::Trailing>,
    /// The ranges as written, when the lookups need ranges the list has not (a prefix's
    /// block with no range: see `trailing::fill_blocks`).
    written: Option<Vec<ShardBucketRange>>,
    warnings: Vec<ConfigWarning>,
    other: Map<String, Value>,
    server_version: ServerVersion,
}

impl Topology {
    /// `count` shards numbered from 0, with RavenDB's default bucket ranges and no nodes.
    pub fn with_shards(count: u32) -> Result<Topology, ConfigError> {
        if count > NUMBER_OF_BUCKETS {
            return Err(ConfigError::TooManyShards {
                path: "Shards".into(),
                count: count as usize,
            });
        }
        // Inserted one by one: collecting into a map sorts, one more copy of the sort.
        let mut shards = BTreeMap::new();
        for n in 0..count {
            shards.insert(n.to_string(), DatabaseTopology::default());
        }
        Topology::from_configuration(
            ShardingConfiguration {
                shards,
                ..Default::default()
            },
            DEFAULT_DATABASE,
            "",
        )
    }

    /// Reads a `ShardingConfiguration` or a database record with `"Sharding"` (see
    /// [`parse_configuration`](crate::config::parse_configuration)). The database name is
    /// the record's `DatabaseName`, else [`DEFAULT_DATABASE`].
    pub fn from_json(text: &str) -> Result<Topology, ConfigError> {
        let parsed = parse_configuration(text)?;
        let database = parsed.database.as_deref().unwrap_or(DEFAULT_DATABASE);
        let order: Vec<u32> = parsed
            .shard_order
            .iter()
            .filter_map(|key| parse_shard_number(key))
            .collect();
        Topology::from_configuration_in_order(parsed.sharding, database, &parsed.base_path, &order)
    }

    /// Validates a configuration. `base_path` is its JSON path, used in error messages.
    ///
    /// When `BucketRanges` is empty the ranges are created as RavenDB does at database
    /// creation: `2^20 / shards` buckets per shard in ascending shard order (see
    /// [`Topology::from_configuration_in_order`] for another order), then one 2^20 block per
    /// prefix in descending order of prefix in the server's collation (ICU's root
    /// collation, not ordinal: see the `order` module's notes in the source, and
    /// [`ConfigWarning::PrefixOrderApproximate`]), split over the prefix's shards in
    /// ascending order (whatever the order its `Shards` lists them in).
    pub fn from_configuration(
        config: ShardingConfiguration,
        database: &str,
        base_path: &str,
    ) -> Result<Topology, ConfigError> {
        Topology::from_configuration_in_order(config, database, base_path, &[])
    }

    /// [`Topology::from_configuration`], where a database being created gives its main
    /// block's ranges to the shards in `order` (the order its JSON lists `Shards` in, as
    /// RavenDB does; [`from_json`](Topology::from_json) passes it), then to any shard
    /// `order` leaves out, ascending.
    pub fn from_configuration_in_order(
        config: ShardingConfiguration,
        database: &str,
        base_path: &str,
        order: &[u32],
    ) -> Result<Topology, ConfigError> {
        let at = |rest: &str| join_path(base_path, rest);
        let mut numbered = Vec::with_capacity(config.shards.len());
        for (key, topology) in config.shards {
            let number = parse_shard_number(&key).ok_or_else(|| ConfigError::BadShardNumber {
                path: at(&format!("Shards.{key}")),
                key: key.clone(),
            })?;
            numbered.push(Shard {
                number,
                members: topology.members,
                other: topology.other,
            });
        }
        let shards = Shards::new(numbered);
        if shards.is_empty() {
            return Err(ConfigError::NoShards { path: at("Shards") });
        }
        if shards.len() > NUMBER_OF_BUCKETS as usize {
            return Err(ConfigError::TooManyShards {
                path: at("Shards"),
                count: shards.len(),
            });
        }
        let shard_order = order;
        let creating = config.bucket_ranges.is_empty();
        let mut prefixes = validate_prefixes(&config.prefixed, &shards, creating, &at)?;
        let mut approximate = None;
        let raw_ranges = if creating {
            let names: Vec<&str> = prefixes.iter().map(|p| p.prefix.as_str()).collect();
            approximate = order::approximate_prefix(&names).map(str::to_string);
            let order = order::creation_order(names.into_iter());
            let mut ranges = split_block(0, in_order(&shards, shard_order).into_iter());
            for (block, &index) in (1u32..).zip(order.iter()) {
                // validate_prefixes bounds the count, so this cannot overflow.
                let start = block * NUMBER_OF_BUCKETS;
                let prefix = &mut prefixes[index];
                prefix.bucket_range_start = start;
                let mut prefix_shards = prefix.shards.clone();
                prefix_shards.sort();
                ranges.extend(split_block(start, prefix_shards.into_iter()));
            }
            prefixes = order.iter().map(|&i| prefixes[i].clone()).collect();
            ranges
        } else {
            config.bucket_ranges
        };
        let (ascending, appended) = trailing::split(&raw_ranges);
        let (mut ranges, without) = validate_ranges(ascending, &shards, &prefixes, &at)?;
        let mut warnings = collect_warnings(&shards, &ranges, raw_ranges.len(), &prefixes, &at);
        let mut trailing = None;
        if let Some(range) = appended {
            let known = shards.contains(range.shard_number);
            let (read, warning) = trailing::apply(&mut ranges, &range, known, &at)?;
            trailing = Some(read);
            warnings.push(warning);
        }
        let mut written = None;
        if !without.is_empty() {
            written = Some(raw_ranges.clone());
            warnings.extend(trailing::fill_blocks(
                &mut ranges,
                &without,
                &prefixes,
                &raw_ranges,
                &at,
            ));
        }
        if let Some(prefix) = approximate {
            let index = prefixes
                .iter()
                .position(|p| p.prefix == prefix)
                .unwrap_or(0);
            warnings.push(ConfigWarning::PrefixOrderApproximate {
                path: at(&format!("Prefixed[{index}].Prefix")),
                prefix,
            });
        }
        let shard_table = ShardTable::new(|bucket| range_of(&ranges, bucket));
        Ok(Topology {
            database: database.to_string(),
            shards,
            ranges,
            shard_table,
            prefixes,
            trailing,
            written,
            warnings,
            other: config.other,
            server_version: ServerVersion::default(),
        })
    }

    /// The server version whose rule for control characters in IDs this topology follows
    /// (RavenDB 7.x unless set).
    pub fn server_version(&self) -> ServerVersion {
        self.server_version
    }

    /// Follows another server version's rule for control characters in IDs.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::{ServerVersion, Topology};
    ///
    /// let mut t = Topology::with_shards(3).unwrap();
    /// assert_eq!(t.bucket_for("é\u{1}"), Ok(426597));
    /// t.set_server_version(ServerVersion::V6_2);
    /// assert_ne!(t.bucket_for("é\u{1}"), Ok(426597));
    /// ```
    pub fn set_server_version(&mut self, version: ServerVersion) {
        self.server_version = version;
    }

    /// The configuration's keys this crate does not model as a topology (`ByContent`,
    /// `Orchestrator`, `BucketMigrations`...), as they were read.
    pub fn extra_keys(&self) -> &Map<String, Value> {
        &self.other
    }

    /// The sharded database's name (fragments are `<name>$<shard>`).
    pub fn database(&self) -> &str {
        &self.database
    }

    /// Renames the database.
    pub fn set_database(&mut self, name: &str) {
        self.database = name.to_string();
    }

    /// The shards, in ascending order of number.
    pub fn shards(&self) -> impl ExactSizeIterator<Item = &Shard> {
        self.shards.0.iter()
    }

    /// One shard by number.
    pub fn shard(&self, number: u32) -> Option<&Shard> {
        self.shards.get(number)
    }

    /// The bucket ranges in ascending order, with their ends, each naming the shard that
    /// answers for it (of a record that ends with a range `MoveBucket` appended after the
    /// prefixes' blocks, the last block's last range names that range's shard:
    /// [`ConfigWarning::TrailingRange`]).
    pub fn ranges(&self) -> &[BucketRange] {
        &self.ranges
    }

    /// The prefixes, in the order they are matched.
    pub fn prefixes(&self) -> &[Prefix] {
        &self.prefixes
    }

    /// Things that are valid but probably unintended (a prefix that can never match, a
    /// shard with no buckets).
    pub fn warnings(&self) -> &[ConfigWarning] {
        &self.warnings
    }

    /// One past the last bucket of the last block: 2^20 per block (the default block and,
    /// after it, the prefixes' blocks, which need not be contiguous once a prefix has been
    /// removed).
    pub fn bucket_space(&self) -> u64 {
        let last_block = self
            .ranges
            .last()
            .map_or(0, |r| r.start / NUMBER_OF_BUCKETS);
        (u64::from(last_block) + 1) * u64::from(NUMBER_OF_BUCKETS)
    }

    /// The fragment database that holds a shard: `<database>$<shard>`.
    pub fn fragment(&self, shard: u32) -> String {
        format!("{}${shard}", self.database)
    }

    /// The member nodes of a shard (empty for an unknown shard).
    pub fn members(&self, shard: u32) -> &[String] {
        self.shards
            .get(shard)
            .map(|s| s.members.as_slice())
            .unwrap_or(&[])
    }

    /// Sets the member nodes of a shard. Returns `false` if there is no such shard.
    pub fn set_members(&mut self, shard: u32, members: Vec<String>) -> bool {
        match self.shards.get_mut(shard) {
            Some(s) => {
                s.members = members;
                true
            }
            None => false,
        }
    }

    /// The bucket range that holds a bucket, or `None` for a bucket in a block that neither
    /// the default ranges nor a prefix own.
    pub fn range_of(&self, bucket: u32) -> Option<&BucketRange> {
        range_of(&self.ranges, bucket)
    }

    /// The shard that owns a bucket: the range in the same 2^20 block whose start is the
    /// greatest not above the bucket.
    pub fn shard_for_bucket(&self, bucket: u32) -> Option<u32> {
        match self.shard_table.shard(bucket) {
            Some(shard) => Some(shard),
            None => self.range_of(bucket).map(|r| r.shard),
        }
    }

    /// The index of the first prefix a lowered ID ([`lower_id`](crate::lower_id)) starts
    /// with.
    pub fn prefix_of_lower(&self, lower_id: &str) -> Option<usize> {
        self.prefixes.iter().position(|p| p.matches_lower(lower_id))
    }

    /// The first bucket of the block a lowered ID's bucket is counted from: the
    /// `BucketRangeStart` of the first prefix it starts with, else 0 (the default block).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::from_json(r#"{"Shards": {"0": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [0]}]}"#).unwrap();
    /// assert_eq!(t.prefix_block_start("eu/orders/1"), 1 << 20);
    /// assert_eq!(t.prefix_block_start("orders/1"), 0);
    /// ```
    pub fn prefix_block_start(&self, lower_id: &str) -> u32 {
        self.prefix_of_lower(lower_id)
            .map_or(0, |i| self.prefixes[i].bucket_range_start)
    }

    /// The final bucket of an ID: its hash bucket plus the `BucketRangeStart` of the first
    /// prefix it starts with. The prefix wins over anchoring: the hash still uses the
    /// anchor, but the block is the prefix's.
    pub fn bucket_for(&self, id: &str) -> Result<u32, IdError> {
        self.locate(id).map(|l| l.bucket)
    }

    /// The bucket and shard of an ID.
    pub fn locate(&self, id: &str) -> Result<Location, IdError> {
        let (bucket, prefix) = if self.prefixes.is_empty() {
            (bucket_for_with(id, self.server_version)?, None)
        } else {
            check_id(id)?;
            let lower = lower_id_with(id, self.server_version);
            let prefix = self.prefix_of_lower(&lower);
            let offset = prefix.map_or(0, |i| self.prefixes[i].bucket_range_start);
            (bucket_of_lower(lower.as_bytes()) + offset, prefix)
        };
        let shard = self
            .shard_for_bucket(bucket)
            .expect("a validated topology has a range at the start of every block");
        Ok(Location {
            bucket,
            shard,
            prefix,
        })
    }

    /// The configuration in RavenDB's `ShardingConfiguration` form.
    pub fn to_configuration(&self) -> ShardingConfiguration {
        let mut shards = BTreeMap::new();
        for s in self.shards.0.iter() {
            let topology = DatabaseTopology {
                members: s.members.clone(),
                other: s.other.clone(),
            };
            shards.insert(s.number.to_string(), topology);
        }
        let mut bucket_ranges: Vec<ShardBucketRange> = self
            .ranges
            .iter()
            .map(|r| ShardBucketRange {
                bucket_range_start: r.start,
                shard_number: r.shard,
            })
            .collect();
        trailing::write_back(&mut bucket_ranges, self.trailing);
        if let Some(written) = &self.written {
            bucket_ranges = written.clone();
        }
        ShardingConfiguration {
            shards,
            bucket_ranges,
            prefixed: self
                .prefixes
                .iter()
                .map(|p| PrefixedShardingSetting {
                    prefix: p.prefix.clone(),
                    shards: p.shards.clone(),
                    bucket_range_start: Some(p.bucket_range_start),
                    other: p.other.clone(),
                })
                .collect(),
            other: self.other.clone(),
        }
    }

    /// The configuration as RavenDB's `ShardingConfiguration` JSON (pretty-printed).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_configuration())
            .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_ranges_for_three_shards() {
        let t = Topology::with_shards(3).unwrap();
        let starts: Vec<u32> = t.ranges().iter().map(|r| r.start).collect();
        assert_eq!(starts, vec![0, 349525, 699050]);
        assert_eq!(t.ranges()[2].end, NUMBER_OF_BUCKETS);
        assert_eq!(t.shard_for_bucket(349524), Some(0));
        assert_eq!(t.shard_for_bucket(349525), Some(1));
        assert_eq!(t.shard_for_bucket(NUMBER_OF_BUCKETS), None);
    }

    #[test]
    fn creation_orders_prefixes_by_the_servers_collation_not_ordinally() {
        // Ordinal-ignore-case would put `users_x/` first ('_' > 'A'); ICU's root collation
        // puts punctuation before letters, so `usersa/` gets the first block.
        let json = r#"{"Shards": {"0": {}, "1": {}},
            "Prefixed": [{"Prefix": "users_x/", "Shards": [0]}, {"Prefix": "usersa/", "Shards": [1]}]}"#;
        let t = Topology::from_json(json).unwrap();
        let order: Vec<(&str, u32)> = t
            .prefixes()
            .iter()
            .map(|p| (p.prefix.as_str(), p.bucket_range_start / NUMBER_OF_BUCKETS))
            .collect();
        assert_eq!(order, vec![("usersa/", 1), ("users_x/", 2)]);
        assert_eq!(t.locate("usersa/1").unwrap().shard, 1);
        assert!(t.warnings().is_empty());
        // Given ranges, the prefixes keep their blocks whatever their order.
        let again = Topology::from_json(&t.to_json()).unwrap();
        assert_eq!(again.prefixes(), t.prefixes());
    }

    #[test]
    fn non_ascii_prefixes_at_creation_are_flagged_without_icu() {
        let json = r#"{"Shards": {"0": {}, "1": {}},
            "Prefixed": [{"Prefix": "é/", "Shards": [0]}, {"Prefix": "f/", "Shards": [1]}]}"#;
        let t = Topology::from_json(json).unwrap();
        let order: Vec<&str> = t.prefixes().iter().map(|p| p.prefix.as_str()).collect();
        let flagged = t.warnings().iter().any(
            |w| matches!(w, ConfigWarning::PrefixOrderApproximate { prefix, .. } if prefix == "é/"),
        );
        if cfg!(feature = "icu-collation") {
            // ICU: é sorts with e, before f; descending puts f/ first.
            assert_eq!(order, ["f/", "é/"]);
            assert!(!flagged);
        } else {
            assert!(flagged, "{:?}", t.warnings());
        }
        // A single prefix has nothing to be ordered against.
        let one = r#"{"Shards": {"0": {}}, "Prefixed": [{"Prefix": "é/", "Shards": [0]}]}"#;
        assert!(Topology::from_json(one).unwrap().warnings().is_empty());
    }

    #[test]
    fn creation_orders_prefixes_descending_ignoring_case() {
        let json = r#"{"Shards": {"0": {}, "1": {}},
            "Prefixed": [{"Prefix": "Users/", "Shards": [0]}, {"Prefix": "users/a/", "Shards": [1]}]}"#;
        let t = Topology::from_json(json).unwrap();
        let order: Vec<&str> = t.prefixes().iter().map(|p| p.prefix.as_str()).collect();
        assert_eq!(order, vec!["users/a/", "Users/"]);
        assert_eq!(t.prefixes()[0].bucket_range_start, NUMBER_OF_BUCKETS);
        assert_eq!(t.locate("USERS/A/1").unwrap().shard, 1);
        assert_eq!(t.locate("users/b/1").unwrap().shard, 0);
        assert!(t.warnings().is_empty());
    }

    #[test]
    fn prefix_wins_over_anchor() {
        let json =
            r#"{"Shards": {"0": {}, "1": {}}, "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#;
        let t = Topology::from_json(json).unwrap();
        let anchored = t.locate("eu/orders/1$customers/1-A").unwrap();
        assert_eq!(anchored.bucket, 982173 + NUMBER_OF_BUCKETS);
        assert_eq!(anchored.shard, 1);
        assert_eq!(t.locate("orders/1$eu/customers/1").unwrap().prefix, None);
    }

    #[test]
    fn round_trip_keeps_unknown_keys() {
        let json = r#"{"Shards": {"0": {"Members": ["A"], "Promotables": ["B"]}},
            "Orchestrator": {"Topology": {"Members": ["A"]}}}"#;
        let t = Topology::from_json(json).unwrap();
        let again = Topology::from_json(&t.to_json()).unwrap();
        assert_eq!(t, again);
        assert!(t.to_json().contains("Orchestrator"));
        assert!(t.to_json().contains("Promotables"));
    }
}
