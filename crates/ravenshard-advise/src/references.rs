//! Finding a collection's references: fields whose values are IDs of documents in the
//! export.

use super::read::{Kept, Read};
use super::{Reference, Workload};
use std::collections::HashMap;

/// A field counts as a reference when at least this share of the documents with an
/// ID-like value in it name a document of the export (or when a load names it).
pub const MIN_MATCHING: f64 = 0.5;

#[derive(Default)]
struct FieldStats {
    with_value: u64,
    matching: u64,
    targets: HashMap<u32, u64>,
}

/// The first value of `field` in `document` that is the ID of a document of the export.
pub(super) fn referenced(document: &Kept, field: u32) -> Option<(usize, &str)> {
    let mut named = document.values.iter().zip(&document.named).enumerate();
    named
        .find(|(_, ((f, _), target))| *f == field && target.is_some())
        .map(|(i, ((_, v), _))| (i, v.as_str()))
}

/// The references of `collection` (its documents `documents`), most covering first, with
/// their field indices.
pub(super) fn references(
    read: &Read,
    collection: &str,
    documents: &[&Kept],
    workload: &Workload,
) -> Vec<(u32, Reference)> {
    let mut stats: HashMap<u32, FieldStats> = HashMap::new();
    for document in documents {
        let mut seen: Vec<u32> = Vec::new();
        for ((field, _), named) in document.values.iter().zip(&document.named) {
            if seen.contains(field) {
                continue;
            }
            let entry = stats.entry(*field).or_default();
            if let Some(target) = *named {
                seen.push(*field);
                entry.matching += 1;
                *entry.targets.entry(target).or_default() += 1;
            }
        }
        let mut fields: Vec<u32> = document.values.iter().map(|(f, _)| *f).collect();
        fields.dedup();
        fields.sort_unstable();
        fields.dedup();
        for field in fields {
            stats.entry(field).or_default().with_value += 1;
        }
    }
    let total = documents.len().max(1) as f64;
    let mut found: Vec<(u32, Reference)> = stats
        .into_iter()
        .filter_map(|(field, s)| {
            let name = &read.fields[field as usize];
            let loaded = workload.loads_field(collection, name);
            let is_reference =
                s.matching > 0 && s.matching as f64 >= MIN_MATCHING * s.with_value as f64;
            if !is_reference && !loaded {
                return None;
            }
            let target = s
                .targets
                .iter()
                .max_by_key(|(c, n)| (**n, std::cmp::Reverse(**c)))
                .map_or(String::new(), |(c, _)| {
                    read.collections[*c as usize].clone()
                });
            Some((
                field,
                Reference {
                    field: name.clone(),
                    collection: target,
                    coverage: s.matching as f64 / total,
                    loaded,
                },
            ))
        })
        .collect();
    found.sort_by(|(_, a), (_, b)| {
        b.coverage
            .total_cmp(&a.coverage)
            .then_with(|| a.field.cmp(&b.field))
    });
    found
}
