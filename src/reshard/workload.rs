//! The documents a plan counts, read once from `id[<TAB>size]` text: their load per
//! bucket, their lower-cased IDs (to check the prefixes a target adds or removes), and the
//! lines that could not be read.

use super::load::BucketLoad;
use super::ops::check_prefix_changes;
use super::plan::{plan, Plan, PlanOptions};
use super::ReshardError;
use crate::content::{locate_id, pinned_bucket, ContentDesign};
use crate::report::InvalidId;
use crate::{bucket_of_lower, check_id, lower_id, Topology};
use std::borrow::Cow;

/// How many invalid lines a [`Workload`] lists (it counts them all).
pub const MAX_INVALID: usize = 100;

/// Documents read for plans and balances, as `ravenshard plan` and `ravenshard balance`
/// read their input.
///
/// # Examples
///
/// ```
/// use ravenshard::reshard::{PlanOptions, Workload};
/// use ravenshard::Topology;
///
/// let current = Topology::with_shards(2).unwrap();
/// let w = Workload::read("orders/1-A\t120\r\n\ncustomers/1-A\nbad\tten\n", &current, None);
/// assert_eq!((w.load.total().docs, w.load.total().bytes), (2, 120));
/// assert_eq!((w.invalid_count, w.invalid[0].line), (1, 4));
/// assert_eq!(w.lower_ids().collect::<Vec<_>>(), ["orders/1-a", "customers/1-a"]);
/// let p = w.plan(&current, &current, &PlanOptions::default()).unwrap();
/// assert!(p.moves.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Workload {
    /// The documents and bytes of every bucket.
    pub load: BucketLoad,
    /// The lower-cased IDs of the documents read, each followed by `\n`.
    lower_ids: String,
    /// How many lines were left out.
    pub invalid_count: u64,
    /// The first [`MAX_INVALID`] of them, with their 1-based line numbers.
    pub invalid: Vec<InvalidId>,
}

impl Workload {
    /// Reads one document a line (`\n` or `\r\n`): `id`, or `id<TAB>size` with the size in
    /// bytes (fields after it are ignored); blank lines are skipped. Each document is placed
    /// by `topology`, under the draft chapter's design when `design` is given (`…$@<n>` is
    /// in bucket `n`). A line whose ID is invalid or whose size is not a whole number of
    /// bytes is left out, counted and listed.
    pub fn read(text: &str, topology: &Topology, design: Option<&ContentDesign>) -> Workload {
        let mut placed = Vec::with_capacity(text.len() / 24 + 1);
        let mut workload = Workload {
            lower_ids: String::with_capacity(text.len()),
            ..Workload::default()
        };
        // Lower-case all ASCII letters in one pass, as `bulk` does: an ASCII ID's lower-cased
        // form is then the same bytes of this text. Byte offsets are the same in both.
        let lower_text = text.to_ascii_lowercase();
        let mut start = 0;
        for (index, line) in text.split('\n').enumerate() {
            let at = start;
            start += line.len() + 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.bytes().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            let mut fields = line.split('\t');
            let id = fields.next().unwrap_or_default();
            let size = fields.next().map(str::trim_ascii).filter(|s| !s.is_empty());
            let lower = if id.is_ascii() {
                Cow::Borrowed(&lower_text[at..at + id.len()])
            } else {
                lower_id(id)
            };
            let read = size
                .map(parse_size)
                .transpose()
                .and_then(|size| Ok((bucket(topology, design, id, &lower)?, size)));
            match read {
                Ok(document) => {
                    placed.push(document);
                    workload.lower_ids.push_str(&lower);
                    workload.lower_ids.push('\n');
                }
                Err(error) => {
                    workload.invalid_count += 1;
                    if workload.invalid.len() < MAX_INVALID {
                        workload.invalid.push(InvalidId {
                            line: index as u64 + 1,
                            id: id.chars().take(80).collect(),
                            error,
                        });
                    }
                }
            }
        }
        workload.load = BucketLoad::from_buckets(placed);
        workload
    }

    /// The lower-cased IDs of the documents read, in input order.
    pub fn lower_ids(&self) -> impl Iterator<Item = &str> {
        self.lower_ids.split_terminator('\n')
    }

    /// The plan from `current` (the topology the documents were read with) to `target`,
    /// after checking the prefixes `target` adds or removes against the IDs
    /// ([`check_prefix_changes`]), as `ravenshard plan` does.
    pub fn plan(
        &self,
        current: &Topology,
        target: &Topology,
        options: &PlanOptions,
    ) -> Result<Plan, ReshardError> {
        check_prefix_changes(current, target, self.lower_ids())?;
        plan(current, target, &self.load, options)
    }
}

/// The bucket of `id` (lower-cased: `lower`), as [`locate_id`] places it.
fn bucket(
    topology: &Topology,
    design: Option<&ContentDesign>,
    id: &str,
    lower: &str,
) -> Result<u32, String> {
    if design.is_some() && pinned_bucket(id).is_some() {
        return locate_id(topology, design, id)
            .map(|l| l.bucket)
            .map_err(|e| e.to_string());
    }
    check_id(id).map_err(|e| e.to_string())?;
    let offset = topology
        .prefix_of_lower(lower)
        .map_or(0, |p| topology.prefixes()[p].bucket_range_start);
    Ok(bucket_of_lower(lower.as_bytes()) + offset)
}

/// A size field: digits only, at most `u64::MAX`.
fn parse_size(text: &str) -> Result<u64, String> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
        .ok_or_else(|| format!("the size '{text}' is not a whole number of bytes"))
}
