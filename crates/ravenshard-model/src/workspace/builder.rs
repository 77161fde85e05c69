//! A placement built a chunk of documents at a time, so that a page can build one of
//! millions of documents between paints, report progress and stop when asked.

use super::{Document, EditError, Placement, PlacementOptions};
use ravenshard::Topology;

/// Builds a [`Placement`] from documents given a chunk at a time: each
/// [`push`](Self::push) places the chunk's documents after those pushed before
/// ([`Placement::splice`] at the end, O(k log n) for a chunk of `k`), and
/// [`finish`](Self::finish) gives the placement, equal to [`Placement::new`] of all the
/// documents in order. Dropping the builder before it finishes (a cancelled import) leaves
/// whatever placement the caller had untouched.
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{Document, Placement, PlacementBuilder};
/// use ravenshard::Topology;
///
/// let topology = Topology::with_shards(3).unwrap();
/// let docs: Vec<Document> = (0..10).map(|i| Document::new(format!("orders/{i}-A"))).collect();
/// let mut builder = PlacementBuilder::new(&topology, &Default::default());
/// for chunk in docs.chunks(4) {
///     builder.push(chunk)?;
/// }
/// assert_eq!(builder.len(), 10);
/// let whole = Placement::new(&docs, &topology, &Default::default());
/// assert_eq!(builder.finish().shards(), whole.shards());
/// # Ok::<(), ravenshard_model::workspace::EditError>(())
/// ```
#[derive(Debug, Clone)]
pub struct PlacementBuilder {
    placement: Placement,
}

impl PlacementBuilder {
    /// An empty builder placing by `topology` with `options`.
    pub fn new(topology: &Topology, options: &PlacementOptions) -> PlacementBuilder {
        PlacementBuilder {
            placement: Placement::new(&[], topology, options),
        }
    }

    /// Places `chunk` after the documents pushed so far.
    ///
    /// # Errors
    ///
    /// [`EditError`] when the placement would exceed its limits (documents or ID bytes);
    /// the documents pushed before are kept.
    pub fn push(&mut self, chunk: &[Document]) -> Result<(), EditError> {
        let end = self.placement.len();
        self.placement.splice(end..end, chunk)
    }

    /// Makes room for `documents` more documents of about `id_bytes` bytes of IDs in all,
    /// so that the per-document tables are not copied whole as they grow (at 10,000,000
    /// documents a doubling copies hundreds of megabytes in one go). Only a hint.
    pub fn reserve(&mut self, documents: usize, id_bytes: usize) {
        let store = std::sync::Arc::make_mut(&mut self.placement.store);
        store.reserve(documents, id_bytes.min(super::store::MAX_ARENA));
        self.placement.duplicates.reserve(documents);
    }

    /// How many documents were pushed.
    pub fn len(&self) -> usize {
        self.placement.len()
    }

    /// Whether nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.placement.is_empty()
    }

    /// The placement of every document pushed, in order.
    ///
    /// The per-bucket B-tree, grown one insertion at a time, has half-empty nodes; it is
    /// rebuilt from its sorted entries (packed nodes, O(used buckets)), since every render
    /// of the bucket map and every change of topology walks it: at 1,000,000 documents a
    /// 1,000-bin histogram took 3.9 ms and a shard-count change 8.9 ms before, against
    /// 0.9 ms and 3.8 ms for a placement made by [`Placement::new`].
    pub fn finish(mut self) -> Placement {
        // Copied before the old tree is freed, so the new nodes are not put in its holes.
        let loads = &mut self.placement.loads;
        loads.buckets = loads.buckets.iter().map(|(&b, &l)| (b, l)).collect();
        self.placement
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::Generator;
    use proptest::prelude::*;

    /// Everything the views read, as comparable text.
    fn views(p: &Placement) -> String {
        let rows: Vec<_> = (0..p.len()).map(|i| format!("{:?}", p.row(i))).collect();
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            p.totals(),
            p.shards(),
            p.blocks(),
            p.groups(),
            p.duplicates(),
            p.invalid(),
            p.obese_buckets(),
            p.histogram(0, 1 << 20, 64),
            p.documents_in(0..u32::MAX),
            rows,
        )
    }

    fn built(docs: &[Document], chunk: usize, topology: &Topology) -> Placement {
        let mut builder = PlacementBuilder::new(topology, &PlacementOptions::default());
        builder.reserve(docs.len(), docs.len() * 8);
        for part in docs.chunks(chunk.max(1)) {
            builder.push(part).unwrap();
        }
        builder.finish()
    }

    #[test]
    fn generated_documents_in_chunks_equal_one_placement() {
        let docs = Generator {
            documents: 20_000,
            anchored_share: 0.5,
            seed: 7,
        }
        .generate()
        .unwrap();
        let topology = Topology::with_shards(5).unwrap();
        let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
        for chunk in [1_000, 4_096, 20_000] {
            assert_eq!(
                views(&built(&docs, chunk, &topology)),
                views(&whole),
                "chunk {chunk}"
            );
        }
    }

    proptest! {
        #[test]
        fn any_chunking_equals_one_placement(
            ids in proptest::collection::vec("[a-cA-C$/]{0,6}", 0..60),
            chunk in 1usize..20,
        ) {
            let docs: Vec<Document> = ids.into_iter().map(Document::new).collect();
            let topology = Topology::with_shards(3).unwrap();
            let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
            prop_assert_eq!(views(&built(&docs, chunk, &topology)), views(&whole));
        }
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    use crate::sample::Generator;

    /// `cargo test --release -p ravenshard-model --lib -- --ignored builder_timing --nocapture`
    #[test]
    #[ignore]
    fn builder_timing() {
        let docs = Generator {
            documents: 1_000_000,
            anchored_share: 0.5,
            seed: 1,
        }
        .generate()
        .unwrap();
        let topology = Topology::with_shards(3).unwrap();
        let start = std::time::Instant::now();
        let _ = Placement::new(&docs, &topology, &PlacementOptions::default());
        println!("new: {:?}", start.elapsed());
        for chunk in [10_000, 50_000] {
            let start = std::time::Instant::now();
            let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
            let mut worst = std::time::Duration::ZERO;
            for part in docs.chunks(chunk) {
                let t = std::time::Instant::now();
                builder.push(part).unwrap();
                worst = worst.max(t.elapsed());
            }
            println!(
                "chunks of {chunk}: {:?}, worst push {worst:?}",
                start.elapsed()
            );
        }
    }
}
