//! Questions of the documents themselves: a page of them, their IDs, their CSV lines, the
//! report, a bucket's documents and the first used bucket of a range.

use super::{Page, Question, MAX_LISTED};
use crate::host::Host;
use crate::workspace::Document;
use serde::{Deserialize, Serialize};

/// `n`, at most [`MAX_LISTED`], as a length.
pub(super) fn clamp(n: u64) -> usize {
    usize::try_from(n.min(MAX_LISTED)).unwrap_or(0)
}

/// `start..end`, at most [`MAX_LISTED`] long and cut at `len`.
fn window(start: u64, end: u64, len: usize) -> std::ops::Range<usize> {
    let start = usize::try_from(start).unwrap_or(usize::MAX);
    let end = start.saturating_add(clamp(end.saturating_sub(start as u64)));
    start.min(len)..end.min(len)
}

/// Documents `start..end` (at most [`MAX_LISTED`]; fewer past the end): the ID editor's
/// page, a share link's documents.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Documents {
    /// The first.
    pub start: u64,
    /// One past the last.
    pub end: u64,
}

impl Question for Documents {
    type Answer = Vec<Document>;

    fn answer(&self, host: &mut Host) -> Vec<Document> {
        let p = host.placement();
        p.documents(window(self.start, self.end, p.len())).collect()
    }
}

/// The IDs of these documents, `None` for an index past the documents.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ids {
    /// The documents' indices.
    pub indices: Vec<u64>,
}

impl Question for Ids {
    type Answer = Vec<Option<String>>;

    fn answer(&self, host: &mut Host) -> Vec<Option<String>> {
        let p = host.placement();
        let id = |i: &u64| p.id(usize::try_from(*i).ok()?).map(str::to_string);
        self.indices.iter().map(id).collect()
    }
}

/// The CSV lines of documents `start..end` (at most [`MAX_LISTED`] of them), without the
/// header ([`export::write_csv_rows`](crate::export::write_csv_rows)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Csv {
    /// The first document.
    pub start: u64,
    /// One past the last.
    pub end: u64,
}

impl Question for Csv {
    type Answer = String;

    fn answer(&self, host: &mut Host) -> String {
        let p = host.placement();
        let mut text = String::new();
        crate::export::write_csv_rows(p, window(self.start, self.end, p.len()), &mut text);
        text
    }
}

/// The report JSON ([`export::report_json`](crate::export::report_json)).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Report;

impl Question for Report {
    type Answer = String;

    fn answer(&self, host: &mut Host) -> String {
        crate::export::report_json(host.placement())
    }
}

/// The first bucket of `start..end` that holds a placed document, if any.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FirstUsedBucket {
    /// The first bucket.
    pub start: u32,
    /// One past the last.
    pub end: u32,
}

impl Question for FirstUsedBucket {
    type Answer = Option<u32>;

    fn answer(&self, host: &mut Host) -> Option<u32> {
        host.placement().first_used_bucket(self.start..self.end)
    }
}

/// The first `most` documents of a bucket, in input order, with how many it holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BucketDocuments {
    /// The bucket.
    pub bucket: u32,
    /// How many to list (at most [`MAX_LISTED`]).
    pub most: u64,
}

/// A document listed with its index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedDocument {
    /// Its index in the workspace.
    pub index: u32,
    /// Its ID as given.
    pub id: String,
}

impl Question for BucketDocuments {
    type Answer = Page<ListedDocument>;

    fn answer(&self, host: &mut Host) -> Page<ListedDocument> {
        let p = host.placement();
        let indices = p.documents_in_bucket(self.bucket);
        let documents = indices.iter().take(clamp(self.most));
        let documents = documents.filter_map(|&index| {
            let id = p.id(index as usize)?.to_string();
            Some(ListedDocument { index, id })
        });
        Page {
            total: indices.len() as u64,
            items: documents.collect(),
        }
    }
}
