//! Merging the ranges of several bucket statistics answers into disjoint ranges: the same
//! range from different shards is summed, the same range saved twice is read once, a finer
//! range replaces the coarser one it lies in, and anything else that overlaps is an error.

use super::statistics::{BucketStatistics, StatisticsError, StatisticsRange};

/// Merges ranges read from any number of answers.
pub(crate) fn merge(mut all: Vec<StatisticsRange>) -> Result<BucketStatistics, StatisticsError> {
    // Ascending start, the widest first: a range's container comes before it.
    all.sort_by(|a, b| (a.from_bucket, b.to_bucket).cmp(&(b.from_bucket, a.to_bucket)));
    let mut spans: Vec<StatisticsRange> = Vec::new();
    let mut group: Vec<StatisticsRange> = Vec::new();
    for r in all {
        if let Some(first) = group.first() {
            if (first.from_bucket, first.to_bucket) != (r.from_bucket, r.to_bucket) {
                spans.push(sum(std::mem::take(&mut group)));
            }
        }
        add_part(&mut group, r)?;
    }
    if !group.is_empty() {
        spans.push(sum(group));
    }
    resolve(spans)
}

/// Adds `r` to the answers for one span: a part from other shards, or a copy of a part.
fn add_part(group: &mut Vec<StatisticsRange>, r: StatisticsRange) -> Result<(), StatisticsError> {
    for part in group.iter() {
        let same_shards = part.shards == r.shards || part.shards.is_empty() || r.shards.is_empty();
        let same_figures = (part.docs, part.bytes) == (r.docs, r.bytes);
        if same_shards && same_figures {
            return Ok(());
        }
        if part.shards.iter().any(|s| r.shards.contains(s)) || same_shards {
            return Err(StatisticsError::Inconsistent {
                at: part.source.clone(),
                other: r.source,
                reason: format!(
                    "the same buckets {}..={} for shard(s) {:?} and {:?} with different figures \
                     ({} documents, {} bytes and {} documents, {} bytes)",
                    part.from_bucket,
                    part.to_bucket,
                    part.shards,
                    r.shards,
                    part.docs,
                    part.bytes,
                    r.docs,
                    r.bytes
                ),
            });
        }
    }
    group.push(r);
    Ok(())
}

/// The parts of one span (answers of different shards) summed, as RavenDB's orchestrator
/// sums them.
fn sum(mut group: Vec<StatisticsRange>) -> StatisticsRange {
    let mut total = group.remove(0);
    for part in group {
        total.docs += part.docs;
        total.bytes = total.bytes.saturating_add(part.bytes);
        total.buckets_used += part.buckets_used;
        total.shards.extend(part.shards);
        total.last_modified = total.last_modified.max(part.last_modified);
    }
    total.shards.sort_unstable();
    total.shards.dedup();
    total
}

/// Keeps the finest ranges: a range holding finer ones is replaced by them (a note says when
/// their figures differ from it). Ranges overlapping without one holding the other are an
/// error.
fn resolve(spans: Vec<StatisticsRange>) -> Result<BucketStatistics, StatisticsError> {
    // `open`: the chain of ranges holding the current one, each with the figures of the
    // finer ranges found inside it so far.
    let mut open: Vec<(StatisticsRange, u64, u64, bool)> = Vec::new();
    let mut kept: Vec<StatisticsRange> = Vec::new();
    let mut notes = Vec::new();
    for r in spans {
        while open
            .last()
            .is_some_and(|(o, ..)| o.to_bucket < r.from_bucket)
        {
            close(&mut open, &mut kept, &mut notes);
        }
        if let Some((o, ..)) = open.last() {
            if r.to_bucket > o.to_bucket {
                return Err(StatisticsError::Inconsistent {
                    at: o.source.clone(),
                    other: r.source,
                    reason: format!(
                        "buckets {}..={} and {}..={} overlap without one holding the other",
                        o.from_bucket, o.to_bucket, r.from_bucket, r.to_bucket
                    ),
                });
            }
            if let Some(last) = open.last_mut() {
                last.3 = true;
            }
        }
        open.push((r, 0, 0, false));
    }
    while !open.is_empty() {
        close(&mut open, &mut kept, &mut notes);
    }
    kept.sort_by_key(|r| r.from_bucket);
    Ok(BucketStatistics::from_parts(kept, notes))
}

/// Closes the innermost open range: kept when nothing finer lies in it, else replaced by
/// what lies in it; its figures count towards the range holding it.
fn close(
    open: &mut Vec<(StatisticsRange, u64, u64, bool)>,
    kept: &mut Vec<StatisticsRange>,
    notes: &mut Vec<String>,
) {
    let Some((r, docs, bytes, resolved)) = open.pop() else {
        return;
    };
    let (up_docs, up_bytes) = if resolved {
        if (docs, bytes) != (r.docs, r.bytes) {
            notes.push(format!(
                "{}: buckets {}..={} hold {} documents, {} bytes, but the finer ranges inside \
                 them hold {docs} documents, {bytes} bytes; the finer figures are used (the \
                 answers were taken at different times, or the drill-down covered part of the \
                 range or one shard only)",
                r.source, r.from_bucket, r.to_bucket, r.docs, r.bytes
            ));
        }
        (docs, bytes)
    } else {
        let figures = (r.docs, r.bytes);
        kept.push(r);
        figures
    };
    if let Some(parent) = open.last_mut() {
        parent.1 += up_docs;
        parent.2 = parent.2.saturating_add(up_bytes);
    }
}
