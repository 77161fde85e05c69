//! The documents a plan counts, read once from the line format (`id[<TAB>size...]`, read by
//! [`ravenshard::lines`]) or handed over one by one: their load per bucket, their lower-cased IDs (to check the prefixes a target adds or removes), and the
//! lines that could not be read.

use super::load::BucketLoad;
use super::note::PlanNote;
use super::ops::check_prefix_changes;
use super::plan::{plan, Plan, PlanOptions};
use super::ReshardError;
use ravenshard::lines::{split, Fields};
use ravenshard::report::InvalidId;
use ravenshard::{bucket_of_lower, check_id, lower_id_with, Topology};
use ravenshard_design::content::{locate_id, pinned_bucket, ContentDesign};
use std::collections::BTreeMap;

/// How many invalid lines a [`Workload`] lists (it counts them all).
pub const MAX_INVALID: usize = 100;

/// Documents read for plans and balances, as `ravenshard plan` and `ravenshard balance`
/// read their input.
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::{PlanOptions, Workload};
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
    /// Whether the load comes without IDs (bucket statistics): added prefixes cannot be
    /// checked.
    without_ids: bool,
}

impl Workload {
    /// Reads the documents of text in the line format ([`ravenshard::lines`]): `id`, or
    /// `id<TAB>size` with the size in bytes (the collection and body are not needed); blank
    /// lines are skipped. Each document is placed by `topology`, under the draft chapter's
    /// design when `design` is given (`…$@<n>` is in bucket `n`). A line whose ID is invalid
    /// or whose size is not a whole number of bytes is left out, counted and listed.
    pub fn read(text: &str, topology: &Topology, design: Option<&ContentDesign>) -> Workload {
        let mut reader = WorkloadReader::new(topology, design, true);
        for (number, line) in split(text) {
            // A rejected line is counted and listed by the reader.
            let _ = reader.add_line(number as u64, line);
        }
        reader.finish()
    }

    /// A workload of a load alone, without IDs.
    pub(crate) fn of_load(load: BucketLoad) -> Workload {
        Workload {
            load,
            without_ids: true,
            ..Workload::default()
        }
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
        let mut p = plan(current, target, &self.load, options)?;
        if self.without_ids {
            let unchecked = p.notes.iter().filter_map(|n| match n {
                PlanNote::PrefixAdded { prefix, .. } => Some(PlanNote::PrefixUnchecked {
                    prefix: prefix.clone(),
                }),
                _ => None,
            });
            let unchecked: Vec<PlanNote> = unchecked.collect();
            p.notes.extend(unchecked);
        }
        Ok(p)
    }
}

/// Reads a [`Workload`] a line at a time, for input that is not all in memory (the CLI
/// streams a file through it).
///
/// # Examples
///
/// ```
/// use ravenshard_reshard::WorkloadReader;
/// use ravenshard::Topology;
///
/// let t = Topology::with_shards(2).unwrap();
/// let mut reader = WorkloadReader::new(&t, None, false);
/// assert_eq!(reader.add_line(1, "orders/1-A\t120\r"), Ok(()));
/// assert!(reader.add_line(2, "orders/2-A\tten").unwrap_err().contains("'ten'"));
/// let w = reader.finish();
/// assert_eq!((w.load.total().bytes, w.invalid_count), (120, 1));
/// assert_eq!(w.lower_ids().count(), 0, "IDs are kept only when asked for");
/// ```
#[derive(Debug)]
pub struct WorkloadReader<'a> {
    topology: &'a Topology,
    design: Option<&'a ContentDesign>,
    keep_ids: bool,
    /// Documents placed and not summed yet: summed in batches ([`Sums`]), so that a reader
    /// of a small input never sets up the dense tables.
    placed: Vec<(u32, Option<u64>)>,
    sums: Sums,
    workload: Workload,
}

/// Documents placed before this many are summed per bucket: as many as a table has
/// entries, so that a reader of a block of lines (at most 2^19 lines a MiB) never sets one up.
const PENDING: usize = 1 << 20;

/// Documents and bytes per bucket: a table of 2^20 entries per block of buckets that holds
/// any (`bucket >> 20`: the default buckets, and one block per prefix), so memory does not
/// grow with the documents.
#[derive(Debug, Default)]
struct Sums {
    tables: BTreeMap<u32, Vec<(u64, u64)>>,
    without_size: u64,
}

impl Sums {
    /// Adds documents given as `(bucket, size)`.
    fn add(&mut self, placed: impl IntoIterator<Item = (u32, Option<u64>)>) {
        for (bucket, size) in placed {
            let table = self
                .tables
                .entry(bucket >> 20)
                .or_insert_with(|| vec![(0, 0); 1 << 20]);
            if let Some((docs, bytes)) = table.get_mut((bucket & 0xF_FFFF) as usize) {
                *docs += 1;
                // Saturating sums of sizes do not depend on the order they are added in.
                *bytes = bytes.saturating_add(size.unwrap_or(0));
            }
            self.without_size += u64::from(size.is_none());
        }
    }

    /// Adds what `other` summed.
    fn merge(&mut self, other: Sums) {
        for (block, table) in other.tables {
            match self.tables.get_mut(&block) {
                None => {
                    self.tables.insert(block, table);
                }
                Some(ours) => ours.iter_mut().zip(table).for_each(|(a, b)| {
                    a.0 += b.0;
                    a.1 = a.1.saturating_add(b.1);
                }),
            }
        }
        self.without_size += other.without_size;
    }

    /// The load of every bucket that holds documents.
    fn load(&self) -> BucketLoad {
        let buckets = self.tables.iter().flat_map(|(&block, table)| {
            let used = table.iter().zip(0u32..).filter(|((docs, _), _)| *docs > 0);
            used.map(move |(&(docs, bytes), i)| ((block << 20) + i, docs, bytes))
        });
        BucketLoad::from_sums(buckets, self.without_size)
    }
}

impl<'a> WorkloadReader<'a> {
    /// A reader placing documents by `topology` (and `design`); `keep_ids` keeps their
    /// lower-cased IDs, which checking prefix changes needs.
    pub fn new(
        topology: &'a Topology,
        design: Option<&'a ContentDesign>,
        keep_ids: bool,
    ) -> WorkloadReader<'a> {
        WorkloadReader {
            topology,
            design,
            keep_ids,
            placed: Vec::new(),
            sums: Sums::default(),
            workload: Workload::default(),
        }
    }

    /// Reads line `number` of the line format (1-based; a trailing `\r` is dropped, a blank
    /// line skipped). A line that cannot be read is counted, listed (the first
    /// [`MAX_INVALID`]) and its reason returned.
    pub fn add_line(&mut self, number: u64, line: &str) -> Result<(), String> {
        let Some(fields) = Fields::parse(line) else {
            return Ok(());
        };
        match fields.size() {
            Ok(size) => self.add(number, fields.id, size),
            Err(e) => Err(self.invalid(number, fields.id, e.to_string())),
        }
    }

    /// Adds document `id` of `size` bytes (when known), at 1-based position `number` of the
    /// input (a line, or the document's place in a list). A document that cannot be placed
    /// is counted, listed (the first [`MAX_INVALID`]) and its reason returned.
    pub fn add(&mut self, number: u64, id: &str, size: Option<u64>) -> Result<(), String> {
        // The lowered ID is built only when kept: the core's fast path places the others.
        let lower = match self.keep_ids {
            true => Some(lower_id_with(id, self.topology.server_version())),
            false => None,
        };
        match bucket(self.topology, self.design, id, lower.as_deref()) {
            Ok(bucket) => {
                self.placed.push((bucket, size));
                if self.placed.len() >= PENDING {
                    self.sums.add(self.placed.drain(..));
                }
                if let Some(lower) = lower {
                    self.workload.lower_ids.push_str(&lower);
                    self.workload.lower_ids.push('\n');
                }
                Ok(())
            }
            Err(error) => Err(self.invalid(number, id, error)),
        }
    }

    /// Counts and lists a document left out; its reason.
    fn invalid(&mut self, number: u64, id: &str, error: String) -> String {
        let w = &mut self.workload;
        w.invalid_count += 1;
        if w.invalid.len() < MAX_INVALID {
            w.invalid.push(InvalidId {
                line: number,
                id: id.chars().take(80).collect(),
                error: error.clone(),
            });
        }
        error
    }

    /// Appends what `part` read (a reader of the same topology, design and `keep_ids`, over
    /// the input that follows this one's), as if this reader had read it too: `lines_before`
    /// is the number of lines before `part`'s first, which its line numbers are counted
    /// from. Reading blocks of lines on several threads and merging them in input order
    /// gives the same [`Workload`] as one reader over all the lines.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_reshard::{Workload, WorkloadReader};
    /// use ravenshard::Topology;
    ///
    /// let t = Topology::with_shards(2).unwrap();
    /// let text = ["orders/1-A\t120", "bad\tten", "Users/4\t7", "\t5"];
    /// let mut first = WorkloadReader::new(&t, None, true);
    /// let _ = first.add_line(1, text[0]);
    /// let _ = first.add_line(2, text[1]);
    /// let mut second = WorkloadReader::new(&t, None, true);
    /// let _ = second.add_line(1, text[2]);
    /// let _ = second.add_line(2, text[3]);
    /// first.merge(second, 2);
    /// let merged = first.finish();
    /// assert_eq!(merged, Workload::read(&text.join("\n"), &t, None));
    /// assert_eq!(merged.invalid.iter().map(|i| i.line).collect::<Vec<_>>(), [2, 4]);
    /// ```
    pub fn merge(&mut self, part: WorkloadReader<'a>, lines_before: u64) {
        let (w, p) = (&mut self.workload, part.workload);
        self.sums.merge(part.sums);
        self.placed.extend(part.placed);
        if self.placed.len() >= PENDING {
            self.sums.add(self.placed.drain(..));
        }
        w.lower_ids.push_str(&p.lower_ids);
        w.invalid_count += p.invalid_count;
        let room = MAX_INVALID.saturating_sub(w.invalid.len());
        w.invalid
            .extend(p.invalid.into_iter().take(room).map(|mut invalid| {
                invalid.line += lines_before;
                invalid
            }));
    }

    /// The documents read.
    pub fn finish(self) -> Workload {
        Workload {
            load: match self.sums.tables.is_empty() {
                // A small input: its documents sorted, no table.
                true => BucketLoad::from_buckets(self.placed),
                false => {
                    let mut sums = self.sums;
                    sums.add(self.placed);
                    sums.load()
                }
            },
            ..self.workload
        }
    }
}

/// The bucket of `id` (lower-cased: `lower`, when the caller has it), as [`locate_id`]
/// places it.
fn bucket(
    topology: &Topology,
    design: Option<&ContentDesign>,
    id: &str,
    lower: Option<&str>,
) -> Result<u32, String> {
    if design.is_some() && pinned_bucket(id).is_some() {
        return locate_id(topology, design, id)
            .map(|l| l.bucket)
            .map_err(|e| e.to_string());
    }
    check_id(id).map_err(|e| e.to_string())?;
    match lower {
        Some(lower) => Ok(bucket_of_lower(lower.as_bytes()) + topology.prefix_block_start(lower)),
        None => topology.bucket_for(id).map_err(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums per bucket, in any order and merged, give the load of the documents themselves,
    /// sizes that saturate included, in the default block and a prefix's.
    #[test]
    fn sums_are_the_load_of_the_documents() {
        let documents: Vec<(u32, Option<u64>)> = (0..5000u32)
            .map(|i| {
                let bucket = (i * 7919) % 3001 + if i % 5 == 0 { 1 << 20 } else { 0 };
                let size = match i % 4 {
                    0 => None,
                    1 => Some(u64::MAX / 3),
                    _ => Some(u64::from(i)),
                };
                (bucket, size)
            })
            .collect();
        let expected = BucketLoad::from_buckets(documents.iter().copied());
        let (first, second) = documents.split_at(1234);
        let mut sums = Sums::default();
        sums.add(second.iter().copied());
        let mut earlier = Sums::default();
        earlier.add(first.iter().copied());
        earlier.merge(sums);
        assert_eq!(earlier.load(), expected);
        assert_eq!(expected.total().bytes, u64::MAX);
    }
}
