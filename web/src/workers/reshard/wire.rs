//! The plan's and the balance's options in the worker's codec. Their throughput is an
//! adjacently tagged enum (its JSON form, `{"unit": "bytes", "per_second": 5e7}`, which the
//! JS API shows), which bincode writes but cannot read back: here it crosses as [`Speed`],
//! a plain enum, and every other field as serde writes it. The options are taken apart
//! field by field, so a field added to them is a compile error here until it crosses too.

use ravenshard_reshard::{BalanceOptions, BucketCost, Measure, Objective, PlanOptions, Throughput};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// A [`Throughput`], externally tagged.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
enum Speed {
    /// Bytes per second.
    Bytes(f64),
    /// Documents per second.
    Docs(f64),
}

impl From<Throughput> for Speed {
    fn from(throughput: Throughput) -> Speed {
        match throughput {
            Throughput::Bytes(per_second) => Speed::Bytes(per_second),
            Throughput::Docs(per_second) => Speed::Docs(per_second),
        }
    }
}

impl From<Speed> for Throughput {
    fn from(speed: Speed) -> Throughput {
        match speed {
            Speed::Bytes(per_second) => Throughput::Bytes(per_second),
            Speed::Docs(per_second) => Throughput::Docs(per_second),
        }
    }
}

/// [`PlanOptions`] as a tuple (`#[serde(with = "wire::plan_options")]`).
pub mod plan_options {
    use super::*;

    type Fields = (Measure, Option<Speed>, BucketCost);

    /// Writes `options`.
    pub fn serialize<S: Serializer>(options: &PlanOptions, s: S) -> Result<S::Ok, S::Error> {
        let PlanOptions {
            measure,
            throughput,
            bucket_cost,
        } = *options;
        (measure, throughput.map(Speed::from), bucket_cost).serialize(s)
    }

    /// Reads options written by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PlanOptions, D::Error> {
        let (measure, throughput, bucket_cost) = Fields::deserialize(d)?;
        Ok(PlanOptions {
            measure,
            throughput: throughput.map(Throughput::from),
            bucket_cost,
        })
    }
}

/// [`BalanceOptions`] as a tuple (`#[serde(with = "wire::balance_options")]`).
pub mod balance_options {
    use super::*;

    type Fields = (
        Measure,
        BTreeMap<u32, f64>,
        f64,
        Option<u64>,
        Option<Speed>,
        BucketCost,
        Objective,
    );

    /// Writes `options`.
    pub fn serialize<S: Serializer>(options: &BalanceOptions, s: S) -> Result<S::Ok, S::Error> {
        let BalanceOptions {
            by,
            weights,
            threshold,
            max_buckets,
            throughput,
            bucket_cost,
            objective,
        } = options;
        let speed = throughput.map(Speed::from);
        (
            by,
            weights,
            threshold,
            max_buckets,
            speed,
            bucket_cost,
            objective,
        )
            .serialize(s)
    }

    /// Reads options written by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BalanceOptions, D::Error> {
        let (by, weights, threshold, max_buckets, speed, bucket_cost, objective) =
            Fields::deserialize(d)?;
        Ok(BalanceOptions {
            by,
            weights,
            threshold,
            max_buckets,
            throughput: speed.map(Throughput::from),
            bucket_cost,
            objective,
        })
    }
}
