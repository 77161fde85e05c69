//! Locality: which documents a local transaction or an index's `LoadDocument` can rely on
//! being together (the draft chapter's "Transactions in a sharded database" and "Indexing
//! related documents").
//!
//! A bucket always moves as a whole, so documents in one bucket stay together; documents in
//! different buckets of one shard are together only until resharding moves a bucket. With
//! the chapter's content-based design on (a [`ContentDesign`]), `$@<n>` IDs are in bucket
//! `n` exactly.
//!
//! # Examples
//!
//! ```
//! use ravenshard_design::locality::{check_transaction, TransactionVerdict};
//! use ravenshard::Topology;
//!
//! let topology = Topology::with_shards(3).unwrap();
//! let check = check_transaction(&["customers/1-A", "orders/1-A$customers/1-A"], &topology, None);
//! assert_eq!(check.verdict, TransactionVerdict::OneBucket);
//! ```

mod load;
mod transaction;

pub use load::{anchored_to, check_load, LoadCheck};
pub use transaction::{check_transaction, InvalidId, TransactionCheck, TransactionVerdict};

use crate::content::{asks_for_generated_id, ContentDesign, ContentError};
use ravenshard::Topology;
use serde::Serialize;

/// Where one document lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlacedId {
    /// The document ID.
    pub id: String,
    /// Its bucket (a prefix's block offset included).
    pub bucket: u32,
    /// The shard that owns the bucket.
    pub shard: u32,
}

/// Places a final ID: the design's rules (`$@<n>`) when it is on, the core's otherwise. With
/// the design on, an ID ending with `$` is not final: its bucket depends on its content.
///
/// # Examples
///
/// ```
/// use ravenshard_design::content::ContentDesign;
/// use ravenshard_design::locality::place;
/// use ravenshard::Topology;
///
/// let topology = Topology::with_shards(3).unwrap();
/// let design = ContentDesign::default();
/// assert_eq!(place("orders/1-A$@5", &topology, Some(&design)).unwrap().bucket, 5);
/// assert_ne!(place("orders/1-A$@5", &topology, None).unwrap().bucket, 5);
/// assert!(place("orders/1-A$", &topology, Some(&design)).is_err());
/// ```
pub fn place(
    id: &str,
    topology: &Topology,
    design: Option<&ContentDesign>,
) -> Result<PlacedId, ContentError> {
    let (bucket, shard) = match design {
        Some(_) if asks_for_generated_id(id) => {
            return Err(ContentError::NotFinal { id: id.to_string() })
        }
        Some(design) => {
            let (bucket, shard, _) = design.locate(topology, id)?;
            (bucket, shard)
        }
        None => {
            let location = topology.locate(id).map_err(|e| ContentError::BadId {
                id: id.to_string(),
                message: e.to_string(),
            })?;
            (location.bucket, location.shard)
        }
    };
    Ok(PlacedId {
        id: id.to_string(),
        bucket,
        shard,
    })
}

/// Serializes an error as its message.
fn as_message<S: serde::Serializer>(
    error: &ContentError,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(error)
}

/// `1, 2 and 3`.
fn list(items: &[u32]) -> String {
    let text: Vec<String> = items.iter().map(u32::to_string).collect();
    match text.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => text.concat(),
    }
}
