//! The question of the draft chapter's design: what it does to the workspace.

use super::documents::clamp;
use super::{Page, Question};
use crate::host::Host;
use crate::workspace::Unplaced;
use serde::{Deserialize, Serialize};

/// What the draft chapter's design does to the workspace: the first `most` IDs it
/// generated and writes it rejected, with how many of each there are.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Content {
    /// How many of each to list (at most [`MAX_LISTED`](super::MAX_LISTED)).
    pub most: u64,
}

/// A document whose ID the design generated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneratedId {
    /// Its index in the workspace.
    pub index: u32,
    /// The ID as given (ending in `$`).
    pub given: String,
    /// The ID the server would give it.
    pub id: String,
    /// Its bucket, when placed.
    pub bucket: Option<u32>,
    /// Its shard, when placed.
    pub shard: Option<u32>,
}

/// A write the design rejected, or an ID it refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// The document's index in the workspace.
    pub index: u32,
    /// Why (the design's message).
    pub message: String,
}

/// What the design does to the workspace, in input order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Designed {
    /// The IDs it generated.
    pub generated: Page<GeneratedId>,
    /// The writes it rejected (or IDs it refused).
    pub rejected: Page<Rejected>,
}

impl Question for Content {
    type Answer = Designed;

    fn answer(&self, host: &mut Host) -> Designed {
        let (p, most) = (host.placement(), clamp(self.most));
        let generated = p.generated();
        let listed = generated.iter().take(most).map(|(index, id)| {
            let place = p.place(*index as usize);
            GeneratedId {
                index: *index,
                given: p.id(*index as usize).unwrap_or_default().to_string(),
                id: id.clone(),
                bucket: place.map(|x| x.bucket),
                shard: place.map(|x| x.shard),
            }
        });
        let rejected = p
            .invalid()
            .iter()
            .filter(|d| matches!(d.reason, Unplaced::Content(_)));
        let rejected_total = rejected.clone().count() as u64;
        let rejected = rejected.take(most).map(|d| Rejected {
            index: d.index,
            message: d.message.clone(),
        });
        Designed {
            generated: Page {
                total: generated.len() as u64,
                items: listed.collect(),
            },
            rejected: Page {
                total: rejected_total,
                items: rejected.collect(),
            },
        }
    }
}
