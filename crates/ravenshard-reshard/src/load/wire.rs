//! [`BucketLoad`] as plain data (serde): its arrays as they are, checked when read back, so
//! that a load crosses from the thread that holds the documents to the one that plans
//! without being summed again, and a damaged message is refused instead of read wrong.

use super::BucketLoad;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The arrays, borrowed to write them.
#[derive(Serialize)]
struct Written<'a> {
    buckets: &'a [u32],
    docs: &'a [u64],
    bytes: &'a [u64],
    without_size: u64,
    ends: &'a [u32],
}

/// The arrays, owned to read them back.
#[derive(Deserialize)]
struct Read {
    buckets: Vec<u32>,
    docs: Vec<u64>,
    bytes: Vec<u64>,
    without_size: u64,
    ends: Vec<u32>,
}

impl Serialize for BucketLoad {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Written {
            buckets: &self.buckets,
            docs: &self.docs,
            bytes: &self.bytes,
            without_size: self.without_size,
            ends: &self.ends,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for BucketLoad {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BucketLoad, D::Error> {
        let read = Read::deserialize(d)?;
        check(&read).map_err(D::Error::custom)?;
        Ok(BucketLoad {
            buckets: read.buckets,
            docs: read.docs,
            bytes: read.bytes,
            without_size: read.without_size,
            ends: read.ends,
        })
    }
}

/// What the arrays must be: buckets ascending and distinct (a prefix's buckets are above
/// 2^20, so any `u32` may be one); the sums one longer,
/// from 0 and never falling; each entry's last bucket (if any) from its first to before
/// the next entry's.
fn check(load: &Read) -> Result<(), String> {
    let n = load.buckets.len();
    if load.docs.len() != n + 1 || load.bytes.len() != n + 1 {
        return Err(format!(
            "a bucket load of {n} buckets needs {} sums of documents and of bytes, not {} and {}",
            n + 1,
            load.docs.len(),
            load.bytes.len()
        ));
    }
    if load.docs[0] != 0 || load.bytes[0] != 0 {
        return Err("a bucket load's sums must start at 0".into());
    }
    let rising = |sums: &[u64]| sums.windows(2).all(|w| w[0] <= w[1]);
    if !rising(&load.docs) || !rising(&load.bytes) {
        return Err("a bucket load's sums must never fall".into());
    }
    if !load.buckets.windows(2).all(|w| w[0] < w[1]) {
        return Err("a bucket load's buckets must be ascending and distinct".into());
    }
    if !load.ends.is_empty() {
        if load.ends.len() != n {
            return Err(format!(
                "a bucket load of {n} ranges needs {n} last buckets, not {}",
                load.ends.len()
            ));
        }
        let next = |i: usize| load.buckets.get(i + 1).map_or(u64::MAX, |&b| u64::from(b));
        let within =
            |i: usize| load.buckets[i] <= load.ends[i] && u64::from(load.ends[i]) < next(i);
        if !(0..n).all(within) {
            return Err("a bucket load's ranges must not overlap".into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Amount;

    fn round_trip(load: &BucketLoad) -> Result<BucketLoad, serde_json::Error> {
        serde_json::from_str(&serde_json::to_string(load)?)
    }

    #[test]
    fn a_load_reads_back_the_same_with_its_documents_without_a_size_and_its_ranges() {
        let buckets = BucketLoad::from_buckets([
            (7, Some(100)),
            (3, None),
            (1_048_575, Some(2)),
            (3 << 20, None),
        ]);
        assert_eq!(round_trip(&buckets).unwrap(), buckets);
        assert_eq!(round_trip(&buckets).unwrap().without_size(), 2);
        let amount = |docs, bytes| Amount { docs, bytes };
        let ranges = BucketLoad::from_ranges([(0, 9, amount(5, 50)), (10, 10, amount(1, 0))]);
        assert_eq!(round_trip(&ranges).unwrap(), ranges);
        assert_eq!(
            round_trip(&BucketLoad::default()).unwrap(),
            BucketLoad::default()
        );
    }

    #[test]
    fn a_damaged_load_is_refused_with_what_is_wrong() {
        let load = BucketLoad::from_buckets([(3, Some(1)), (7, Some(2))]);
        let json = serde_json::to_value(&load).unwrap();
        let damaged = |field: &str, value: serde_json::Value| {
            let mut json = json.clone();
            json[field] = value;
            serde_json::from_value::<BucketLoad>(json)
                .unwrap_err()
                .to_string()
        };
        assert!(damaged("docs", serde_json::json!([0, 1])).contains("needs 3 sums"));
        assert!(damaged("docs", serde_json::json!([1, 1, 2])).contains("start at 0"));
        assert!(damaged("bytes", serde_json::json!([0, 3, 2])).contains("never fall"));
        assert!(damaged("buckets", serde_json::json!([7, 3])).contains("ascending"));
        assert!(damaged("ends", serde_json::json!([3])).contains("2 last buckets"));
        assert!(damaged("ends", serde_json::json!([8, 7])).contains("overlap"));
    }
}
