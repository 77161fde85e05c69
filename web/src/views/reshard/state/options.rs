//! The balance form's fields: what balancing counts and optimizes, its threshold, cap and
//! weights, the estimate's throughput and cost per bucket, and the node the calls go to.

use super::ReshardState;
use crate::state::inputs::Field;
use ravenshard_reshard::{BalanceOptions, BucketCost, Objective, PlanOptions, Throughput};
use std::collections::BTreeMap;

/// The throughput the estimate opens with.
pub const DEFAULT_THROUGHPUT: &str = "20MB/s";

/// The cost of a bucket's migration the estimate opens with.
pub const DEFAULT_BUCKET_COST: &str = "40ms";

/// The node the calls go to, until the user gives one.
pub const DEFAULT_CLUSTER_URL: &str = "http://127.0.0.1:8080";

/// The balance threshold the view opens with, in percent.
pub const DEFAULT_THRESHOLD: &str = "5";

/// The balance form's fields.
#[derive(Debug, Clone)]
pub(super) struct OptionFields {
    pub(super) weights: Field<BTreeMap<u32, f64>>,
    pub(super) threshold: Field<f64>,
    pub(super) max_buckets: Field<Option<u64>>,
    pub(super) throughput: Field<Option<Throughput>>,
    pub(super) bucket_cost: Field<BucketCost>,
    pub(super) objective: Objective,
    pub(super) url: String,
}

impl Default for OptionFields {
    fn default() -> Self {
        OptionFields {
            weights: Field::new("", BTreeMap::new()),
            threshold: Field::new(DEFAULT_THRESHOLD, 5.0),
            max_buckets: Field::new("", None),
            throughput: Field::new(
                DEFAULT_THROUGHPUT,
                Throughput::parse(DEFAULT_THROUGHPUT).ok(),
            ),
            bucket_cost: Field::new(DEFAULT_BUCKET_COST, BucketCost::DEFAULT),
            objective: Objective::Contiguous,
            url: DEFAULT_CLUSTER_URL.into(),
        }
    }
}

impl OptionFields {
    /// The weights typed (`0=1,1=2`); the plan shown does not count them.
    pub(super) fn set_weights(&mut self, text: String) -> bool {
        self.weights.input(text, parse_weights);
        false
    }

    /// The threshold typed, in percent; the plan shown does not count it.
    pub(super) fn set_threshold(&mut self, text: String) -> bool {
        self.threshold.input(text, parse_threshold);
        false
    }

    /// The cap on buckets moved typed (empty: none); the plan shown does not count it.
    pub(super) fn set_max_buckets(&mut self, text: String) -> bool {
        self.max_buckets.input(text, parse_max_buckets);
        false
    }

    /// The throughput typed: the plan's estimate counts it.
    pub(super) fn set_throughput(&mut self, text: String) -> bool {
        self.throughput.input(text, parse_throughput);
        true
    }

    /// The cost of a bucket's migration typed: the plan's estimate counts it.
    pub(super) fn set_bucket_cost(&mut self, text: String) -> bool {
        self.bucket_cost.input(text, parse_bucket_cost);
        true
    }

    /// What balancing optimizes; the plan shown does not count it.
    pub(super) fn set_objective(&mut self, objective: Objective) -> bool {
        self.objective = objective;
        false
    }

    /// The node the calls go to; the plan shown does not count it.
    pub(super) fn set_url(&mut self, url: String) -> bool {
        self.url = url;
        false
    }
}

fn parse_bucket_cost(text: &str) -> Result<BucketCost, String> {
    BucketCost::parse(text).map_err(|e| format!("Cost per bucket: {e}"))
}

fn parse_weights(text: &str) -> Result<BTreeMap<u32, f64>, String> {
    BalanceOptions::parse_weights(text).map_err(|e| format!("Weights: {e}"))
}

fn parse_threshold(text: &str) -> Result<f64, String> {
    match text.trim() {
        "" => Ok(0.0),
        text => text
            .parse::<f64>()
            .ok()
            .filter(|t| (0.0..=100.0).contains(t))
            .ok_or_else(|| format!("Threshold: '{text}' is not a percentage from 0 to 100.")),
    }
}

fn parse_max_buckets(text: &str) -> Result<Option<u64>, String> {
    match text.trim() {
        "" => Ok(None),
        text => text.parse::<u64>().map(Some).map_err(|_| {
            format!("Max buckets: '{text}' is not a whole number; leave it empty for no cap.")
        }),
    }
}

fn parse_throughput(text: &str) -> Result<Option<Throughput>, String> {
    match text.trim() {
        "" => Ok(None),
        text => Throughput::parse(text)
            .map(Some)
            .map_err(|e| format!("Throughput: {e}")),
    }
}

impl ReshardState {
    /// The weights field.
    pub fn weights(&self) -> &Field<BTreeMap<u32, f64>> {
        &self.fields.weights
    }

    /// The threshold field (percent).
    pub fn threshold(&self) -> &Field<f64> {
        &self.fields.threshold
    }

    /// The cap on buckets moved.
    pub fn max_buckets(&self) -> &Field<Option<u64>> {
        &self.fields.max_buckets
    }

    /// The throughput field of the estimate.
    pub fn throughput(&self) -> &Field<Option<Throughput>> {
        &self.fields.throughput
    }

    /// The cost-per-bucket field of the estimate.
    pub fn bucket_cost(&self) -> &Field<BucketCost> {
        &self.fields.bucket_cost
    }

    /// What balancing optimizes.
    pub fn objective(&self) -> Objective {
        self.fields.objective
    }

    /// The URL of the node the calls go to.
    pub fn cluster_url(&self) -> &str {
        &self.fields.url
    }

    /// How the plan counts and estimates: a throughput only while its field is valid.
    pub(super) fn plan_options(&self) -> PlanOptions {
        let throughput = self.fields.throughput.is_valid();
        PlanOptions {
            measure: self.by,
            throughput: throughput
                .then(|| *self.fields.throughput.value())
                .flatten(),
            bucket_cost: *self.fields.bucket_cost.value(),
        }
    }

    /// Why the first option field that cannot be used cannot.
    pub fn option_error(&self) -> Option<&str> {
        let f = &self.fields;
        [
            f.weights.error(),
            f.threshold.error(),
            f.max_buckets.error(),
            f.throughput.error(),
            f.bucket_cost.error(),
        ]
        .into_iter()
        .flatten()
        .next()
        .map(|e| e.as_str())
    }

    /// The balance options from the fields, or what is wrong with them.
    pub(super) fn options(&self) -> Result<BalanceOptions, String> {
        if let Some(error) = self.option_error() {
            return Err(error.to_string());
        }
        let f = &self.fields;
        Ok(BalanceOptions {
            by: self.by,
            weights: f.weights.value().clone(),
            threshold: *f.threshold.value(),
            max_buckets: *f.max_buckets.value(),
            throughput: *f.throughput.value(),
            bucket_cost: *f.bucket_cost.value(),
            objective: f.objective,
        })
    }
}
