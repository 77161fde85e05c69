//! Can a local transaction over these documents be atomic, and will it stay so?

use super::{as_message, list, place, PlacedId};
use crate::content::{ContentDesign, ContentError};
use ravenshard::Topology;
use serde::Serialize;

/// How far apart a transaction's documents are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TransactionVerdict {
    /// One bucket: a local transaction is atomic and stays so.
    OneBucket,
    /// One shard, several buckets: atomic today, not guaranteed after resharding.
    OneShard,
    /// Several shards: needs a cluster-wide transaction.
    SeveralShards,
    /// No valid ID was given.
    NoDocuments,
}

/// An ID that cannot be placed, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvalidId {
    /// The ID as given.
    pub id: String,
    /// Why it cannot be placed.
    #[serde(serialize_with = "as_message")]
    pub error: ContentError,
}

/// The transaction check of a set of IDs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TransactionCheck {
    /// How far apart the valid IDs are.
    pub verdict: TransactionVerdict,
    /// What that means, in words.
    pub message: String,
    /// The valid IDs, in the order given, with their buckets and shards.
    pub documents: Vec<PlacedId>,
    /// The IDs that cannot be placed.
    pub invalid: Vec<InvalidId>,
    /// The distinct buckets, ascending.
    pub buckets: Vec<u32>,
    /// The distinct shards, ascending.
    pub shards: Vec<u32>,
}

/// Checks whether a local transaction writing `ids` is atomic: one bucket (atomic, and stays
/// so), one shard but several buckets (atomic today, not after resharding moves a bucket),
/// or several shards (needs a cluster-wide transaction). With a design, `$@<n>` pins bucket
/// `n` and an ID ending with `$` is reported invalid (its bucket is not known yet).
///
/// # Examples
///
/// ```
/// use ravenshard_design::locality::{check_transaction, TransactionVerdict};
/// use ravenshard::Topology;
///
/// let topology = Topology::with_shards(3).unwrap();
/// // customers/6-A (bucket 16312) and orders/1-A (151326) are both on shard 0.
/// let check = check_transaction(&["customers/6-A", "orders/1-A"], &topology, None);
/// assert_eq!(check.verdict, TransactionVerdict::OneShard);
/// assert_eq!(check.buckets, [16312, 151326]);
/// let check = check_transaction(&["customers/1-A", "orders/1-A", ""], &topology, None);
/// assert_eq!(check.verdict, TransactionVerdict::SeveralShards);
/// assert_eq!(check.invalid.len(), 1);
/// ```
pub fn check_transaction<S: AsRef<str>>(
    ids: &[S],
    topology: &Topology,
    design: Option<&ContentDesign>,
) -> TransactionCheck {
    let mut documents = Vec::new();
    let mut invalid = Vec::new();
    for id in ids {
        let id = id.as_ref();
        match place(id, topology, design) {
            Ok(placed) => documents.push(placed),
            Err(error) => invalid.push(InvalidId {
                id: id.to_string(),
                error,
            }),
        }
    }
    let distinct = |of: fn(&PlacedId) -> u32| {
        let mut values: Vec<u32> = documents.iter().map(of).collect();
        values.sort();
        values.dedup();
        values
    };
    let buckets = distinct(|p| p.bucket);
    let shards = distinct(|p| p.shard);
    let (verdict, mut message) = match (buckets.as_slice(), shards.as_slice()) {
        ([], _) => (
            TransactionVerdict::NoDocuments,
            "No valid ID to check: give the IDs the transaction writes.".to_string(),
        ),
        ([bucket], _) => (
            TransactionVerdict::OneBucket,
            format!(
                "All {} documents are in bucket {bucket} (shard {}): a local transaction is \
                 atomic and stays so, because a bucket always moves as a whole.",
                documents.len(),
                list(&shards)
            ),
        ),
        (_, [shard]) => (
            TransactionVerdict::OneShard,
            format!(
                "The documents are on shard {shard} but in {} buckets ({}): a local \
                 transaction is atomic today, but not guaranteed after resharding moves a \
                 bucket. Anchor them to one document ('<id>$<anchor id>') to share a bucket, \
                 or use a cluster-wide transaction.",
                buckets.len(),
                list(&buckets)
            ),
        ),
        _ => (
            TransactionVerdict::SeveralShards,
            format!(
                "The documents are on {} shards ({}): a local transaction is not atomic across \
                 shards, so this needs a cluster-wide transaction (or anchor the documents to \
                 one bucket).",
                shards.len(),
                list(&shards)
            ),
        ),
    };
    if !invalid.is_empty() {
        message.push_str(&format!(
            " {} of the IDs cannot be placed and are left out (see invalid).",
            invalid.len()
        ));
    }
    TransactionCheck {
        verdict,
        message,
        documents,
        invalid,
        buckets,
        shards,
    }
}
