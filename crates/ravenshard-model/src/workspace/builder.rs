//! A placement built a chunk of documents at a time, so that a page can build one of
//! millions of documents between paints, report progress and stop when asked.

use super::loads::{BucketLoad, Loads};
use super::used_buckets::SortedBuckets;
use super::{Document, EditError, Placement, PlacementOptions};
use ravenshard::Topology;
use std::collections::BTreeMap;
use std::ops::Bound;

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
    /// The per-bucket B-tree being packed a step at a time ([`pack_step`](Self::pack_step)).
    packing: Option<Packing>,
}

/// A per-bucket B-tree copied a step at a time into a list of its entries (room for all of
/// them made once), built from the list at once into packed nodes (a bulk build, several
/// times faster than an insertion per bucket, with full nodes: about 21 bytes a used bucket
/// against 41 for a tree grown by insertions), then the old tree freed a step at a time: no
/// step walks more than its budget of buckets but the build.
#[derive(Debug, Clone, Default)]
struct Packing {
    /// The used buckets copied so far, ascending.
    entries: SortedBuckets,
    /// The first bucket of each step's part of the old tree, for freeing it by parts.
    cuts: Vec<u32>,
    /// The old tree, once the copy is complete: freed a part at a time.
    old: Option<BTreeMap<u32, BucketLoad>>,
    /// Whether the copy is in force and the old tree freed.
    done: bool,
}

impl PlacementBuilder {
    /// An empty builder placing by `topology` with `options`.
    pub fn new(topology: &Topology, options: &PlacementOptions) -> PlacementBuilder {
        PlacementBuilder {
            placement: Placement::new(&[], topology, options),
            packing: None,
        }
    }

    /// Places `chunk` after the documents pushed so far.
    ///
    /// # Errors
    ///
    /// [`EditError`] when the placement would exceed its limits (documents or ID bytes);
    /// the documents pushed before are kept.
    pub fn push(&mut self, chunk: &[Document]) -> Result<(), EditError> {
        // A packing in progress is dropped: the tree in force is always a whole one.
        self.packing = None;
        self.placement.loads.stage();
        let end = self.placement.len();
        self.placement.splice(end..end, chunk)
    }

    /// Makes room for `documents` more documents of about `id_bytes` bytes of IDs in all,
    /// so that the per-document tables are not copied whole as they grow (at 10,000,000
    /// documents a doubling copies hundreds of megabytes in one go). Only a hint.
    pub fn reserve(&mut self, documents: usize, id_bytes: usize) {
        let store = std::sync::Arc::make_mut(&mut self.placement.store);
        store.reserve(documents, id_bytes.min(super::arena::MAX_ARENA));
        self.placement.duplicates.reserve(documents);
    }

    /// Makes room for `bodies` documents with a body, of `bytes` in all (bodies past the
    /// arena's limit are refused as [`push`](Self::push) would).
    pub fn reserve_bodies(&mut self, bodies: usize, bytes: usize) {
        let store = std::sync::Arc::make_mut(&mut self.placement.store);
        store.reserve_bodies(bodies, bytes.min(super::arena::MAX_ARENA));
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
    /// The per-bucket B-tree, grown one insertion at a time, has half-empty nodes scattered
    /// between the IDs; it is rebuilt from its sorted entries (packed nodes, O(used
    /// buckets)), since every render of the bucket map and every change of topology walks
    /// it: at 1,000,000 documents a 1,000-bin histogram took 3.9 ms and a shard-count change
    /// 8.9 ms before, against 0.9 ms and 3.8 ms for a placement made by [`Placement::new`].
    /// What [`pack_step`](Self::pack_step) did already is not done again.
    pub fn finish(mut self) -> Placement {
        // Copied before the old tree is freed, so the new nodes are not put in its holes.
        let mut packing = self.packing.take().unwrap_or_default();
        while !packing.step(&mut self.placement.loads, usize::MAX) {}
        self.placement
    }

    /// Does up to `budget` buckets of the work [`finish`](Self::finish) does, so that a
    /// page can spread it over several tasks (at 10,000,000 documents, a million used
    /// buckets take over 100 ms to copy and as long to free in wasm); `true` once all is
    /// done (then `finish` is O(1)). A [`push`](Self::push) meanwhile undoes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, PlacementBuilder};
    /// use ravenshard::Topology;
    ///
    /// let topology = Topology::with_shards(3).unwrap();
    /// let docs: Vec<Document> = (0..100).map(|i| Document::new(format!("orders/{i}-A"))).collect();
    /// let mut builder = PlacementBuilder::new(&topology, &Default::default());
    /// builder.push(&docs)?;
    /// let mut steps = 1;
    /// while !builder.pack_step(10) {
    ///     steps += 1;
    /// }
    /// assert!(steps > 10);
    /// let whole = Placement::new(&docs, &topology, &Default::default());
    /// let packed = builder.finish();
    /// assert_eq!(packed.shards(), whole.shards());
    /// assert_eq!(
    ///     format!("{:?}", packed.histogram(0, 1 << 20, 8)),
    ///     format!("{:?}", whole.histogram(0, 1 << 20, 8))
    /// );
    /// # Ok::<(), ravenshard_model::workspace::EditError>(())
    /// ```
    pub fn pack_step(&mut self, budget: usize) -> bool {
        let packing = self.packing.get_or_insert_with(Packing::default);
        packing.step(&mut self.placement.loads, budget.max(1))
    }
}

/// A placement (or a builder's) being freed a part at a time, so that a page drops one of
/// millions of documents without a long task: [`step`](Self::step) frees up to a budget
/// of its anchored groups (the part that takes long: hundreds of thousands of small
/// blocks), then dropping the rest is quick (a few large tables).
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::{Document, Freeing, Placement};
/// use ravenshard::Topology;
///
/// let docs: Vec<Document> = (0..1000)
///     .map(|i| Document::new(format!("orders/{i}-A$customers/{i}-A")))
///     .collect();
/// let placement = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
/// let mut freeing = Freeing::from(placement);
/// let mut steps = 1;
/// while !freeing.step(100) {
///     steps += 1;
/// }
/// assert!(steps >= 10);
/// drop(freeing);
/// ```
#[derive(Debug)]
pub struct Freeing(Placement);

impl From<Placement> for Freeing {
    fn from(placement: Placement) -> Freeing {
        Freeing(placement)
    }
}

impl From<PlacementBuilder> for Freeing {
    fn from(builder: PlacementBuilder) -> Freeing {
        Freeing(builder.placement)
    }
}

impl Freeing {
    /// Frees up to `budget` anchored groups; `true` once none is left (then dropping the
    /// rest is quick).
    pub fn step(&mut self, budget: usize) -> bool {
        self.0.groups.shed(budget.max(1))
    }
}

impl Packing {
    /// Copies (then frees) up to `budget` buckets of `loads` (the staged ones first: they
    /// are below the tree's); `true` when done, the packed copy then in `loads.buckets` and
    /// nothing staged.
    fn step(&mut self, loads: &mut Loads, budget: usize) -> bool {
        if self.done {
            return true;
        }
        if let Some(old) = &mut self.old {
            // Frees the part of the old tree before the next cut.
            let part = match self.cuts.pop() {
                Some(cut) => old.split_off(&cut),
                None => std::mem::take(old),
            };
            drop(part);
            if old.is_empty() {
                (self.old, self.done) = (None, true);
            }
            return self.done;
        }
        let (from, staged_from) = match self.entries.last() {
            Some(last) => (Bound::Excluded(last), last.saturating_add(1)),
            None => (Bound::Unbounded, 0),
        };
        if !self.entries.started() {
            self.entries.reserve_exact(loads.used_buckets());
        }
        let staged = loads.staged.iter().flat_map(|s| s.from(staged_from));
        let tree = loads.buckets.range((from, Bound::Unbounded));
        let range = staged.chain(tree.map(|(&b, &l)| (b, l)));
        let mut taken = 0;
        for (bucket, load) in range.take(budget) {
            if taken == 0 && !self.entries.is_empty() {
                self.cuts.push(bucket);
            }
            self.entries.push(bucket, load);
            taken += 1;
        }
        if taken == budget {
            return false;
        }
        // The copy is complete: the staged loads are freed before the packed tree is built
        // (so that the two are not held at once), it is put in force, and the old tree is
        // freed from its end.
        loads.staged = None;
        let fresh = std::mem::take(&mut self.entries).finish();
        self.old = Some(std::mem::replace(&mut loads.buckets, fresh).into_tree());
        false
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

    #[test]
    fn packing_in_steps_equals_packing_at_once() {
        let docs = Generator {
            documents: 5_000,
            anchored_share: 0.5,
            seed: 3,
        }
        .generate()
        .unwrap();
        let topology = Topology::with_shards(4).unwrap();
        let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
        for budget in [1, 7, 100, 4_999, 5_000, 100_000] {
            let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
            builder.push(&docs).unwrap();
            let mut steps = 1;
            while !builder.pack_step(budget) {
                steps += 1;
            }
            assert!(
                steps <= 2 * docs.len() / budget + 3,
                "budget {budget}: {steps} steps"
            );
            // Once done, nothing is left to do (finish does not copy the tree again).
            let done = builder
                .placement
                .loads
                .buckets
                .iter()
                .next()
                .map(|(_, l)| l as *const _);
            assert!(builder.pack_step(budget));
            assert_eq!(
                builder
                    .placement
                    .loads
                    .buckets
                    .iter()
                    .next()
                    .map(|(_, l)| l as *const _),
                done
            );
            assert_eq!(views(&builder.finish()), views(&whole), "budget {budget}");
        }
    }

    #[test]
    fn a_push_during_packing_or_a_finish_midway_loses_nothing() {
        let docs: Vec<Document> = (0..3_000)
            .map(|i| Document::new(format!("orders/{i}-A")))
            .collect();
        let topology = Topology::with_shards(3).unwrap();
        let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
        for steps in [0, 1, 5, 40, 400] {
            let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
            builder.push(&docs[..2_000]).unwrap();
            for _ in 0..steps {
                builder.pack_step(100);
            }
            builder.push(&docs[2_000..2_500]).unwrap();
            for _ in 0..steps {
                builder.pack_step(100);
            }
            builder.push(&docs[2_500..]).unwrap();
            for _ in 0..steps / 2 {
                builder.pack_step(100);
            }
            assert_eq!(views(&builder.finish()), views(&whole), "{steps} steps");
        }
    }

    #[test]
    fn prefixed_buckets_staged_or_not_equal_one_placement() {
        // Buckets below 2^20 are staged while building, the prefixes' (above) are not.
        let json = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
            "Prefixed": [{"Prefix": "eu/", "Shards": [1]}]}"#;
        let topology = Topology::from_json(json).unwrap();
        let docs: Vec<Document> = (0..6_000)
            .map(|i| match i % 3 {
                0 => Document::new(format!("eu/orders/{i}-A")),
                1 => Document::new(format!("orders/{i}-A$customers/{}-A", i % 50)),
                _ => Document::new(format!("orders/{i}-A")),
            })
            .collect();
        let all = |p: &Placement| format!("{}|{:?}", views(p), p.histogram(1 << 20, 2 << 20, 16));
        let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
        assert!(whole.histogram(1 << 20, 2 << 20, 1)[0].documents > 0);
        assert_eq!(all(&built(&docs, 1_000, &topology)), all(&whole), "at once");
        for budget in [1, 500, 100_000] {
            let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
            for part in docs.chunks(1_000) {
                builder.push(part).unwrap();
            }
            while !builder.pack_step(budget) {}
            assert_eq!(all(&builder.finish()), all(&whole), "budget {budget}");
        }
    }

    #[test]
    fn a_generation_reserved_by_its_id_bytes_never_grows_a_table() {
        // In wasm a table that outgrows its room is copied whole in one step: the arena of
        // 10,000,000 generated IDs (25 bytes on average, reserved at 24) took 705 ms. The
        // orders' bodies have an arena of their own, reserved the same way.
        for (documents, anchored_share) in [(30_000, 0.5), (20_000, 1.0), (9_999, 0.0)] {
            let generator = Generator {
                documents,
                anchored_share,
                seed: 5,
            };
            let mut made = generator.documents_iter().unwrap();
            let topology = Topology::with_shards(3).unwrap();
            let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
            builder.reserve(made.total(), made.counts().id_bytes());
            builder.reserve_bodies(made.counts().orders, made.counts().body_bytes());
            let room = builder.placement.store.heap_bytes();
            loop {
                let chunk: Vec<Document> = made.by_ref().take(2_000).collect();
                if chunk.is_empty() {
                    break;
                }
                builder.push(&chunk).unwrap();
            }
            assert_eq!(builder.len(), documents);
            // The size, group and collection columns are made when first needed, at the
            // full room reserved (4 bytes a document each), never grown.
            let grown = builder.placement.store.heap_bytes() - room;
            let column = 4 * builder.placement.store.buckets.capacity();
            let columns = if anchored_share > 0.0 { 3 } else { 2 };
            assert_eq!(grown, columns * column, "{documents}");
        }
    }

    #[test]
    fn the_first_edits_after_a_restore_reserved_at_its_exact_size_grow_no_table() {
        // A restore reserves the saved documents' exact ID and body bytes. Without room
        // for edits, the first edit after a reload of 10,000,000 documents copied the whole
        // ID arena in the page (wasm cannot remap a reallocation): one task of 191 ms.
        let documents: Vec<Document> = (0..20_000)
            .map(|i| Document {
                id: format!("orders/{i}-A$customers/{}-A", i % 700),
                size: Some(100 + i),
                collection: Some("Orders".into()),
                body: Some(format!("{{\"Company\":\"companies/{i}-A\"}}")),
            })
            .collect();
        let id_bytes = documents.iter().map(|d| d.id.len()).sum();
        let body_bytes = documents
            .iter()
            .flat_map(|d| &d.body)
            .map(String::len)
            .sum();
        let topology = Topology::with_shards(3).unwrap();
        let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
        builder.reserve(documents.len(), id_bytes);
        builder.reserve_bodies(documents.len(), body_bytes);
        for chunk in documents.chunks(3_000) {
            builder.push(chunk).unwrap();
        }
        let mut placement = builder.finish();
        let room = placement.store.heap_bytes();
        for step in 0..40 {
            let at = step * 401;
            // A character typed at the end of an ID, then a new line of a document.
            let mut typed = placement.document(at).unwrap();
            typed.id.push_str("-typed");
            placement.splice(at..at + 1, &[typed.clone()]).unwrap();
            typed.id.push_str("-new");
            placement.splice(at..at, &[typed]).unwrap();
            assert_eq!(
                placement.store.heap_bytes(),
                room,
                "edit {step} grew a table"
            );
        }
    }

    #[test]
    fn freeing_in_steps_frees_every_group() {
        let docs = Generator {
            documents: 20_000,
            anchored_share: 0.8,
            seed: 2,
        }
        .generate()
        .unwrap();
        let topology = Topology::with_shards(3).unwrap();
        let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
        builder.push(&docs).unwrap();
        let placement = builder.finish();
        let groups = placement.groups().len();
        assert!(groups > 500, "{groups} groups");
        let mut freeing = Freeing::from(placement.clone());
        let mut steps = 1;
        while !freeing.step(100) {
            steps += 1;
        }
        // The table, then the lists by hash (and the summaries, made above), 100 at a time.
        assert!(
            steps >= 2 * groups / 100,
            "{steps} steps for {groups} groups"
        );
        assert!(
            steps <= 3 * groups / 100 + 3,
            "{steps} steps for {groups} groups"
        );
        assert_eq!(freeing.0.groups.count(), 0);
        assert!(freeing.step(100));
    }

    #[test]
    fn plain_ids_stage_a_count_a_bucket_and_sizes_stage_the_rest() {
        let topology = Topology::with_shards(3).unwrap();
        let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
        let plain: Vec<Document> = (0..500)
            .map(|i| Document::new(format!("orders/{i}-A")))
            .collect();
        builder.push(&plain).unwrap();
        let staged = |b: &PlacementBuilder| b.placement.loads.heap_bytes();
        // A count (4 bytes) a bucket, and the prefixes' (none here) tree.
        assert_eq!(staged(&builder), 4 << 20);
        let mut sized = Document::new("orders/x");
        sized.size = Some(5 << 32);
        builder.push(std::slice::from_ref(&sized)).unwrap();
        // Then the bytes (8) and the documents with a size (4) too.
        assert_eq!(staged(&builder), 16 << 20);
        let mut docs = plain;
        docs.push(sized);
        let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
        assert_eq!(whole.totals().bytes, 5 << 32);
        assert_eq!(views(&builder.finish()), views(&whole));
    }

    #[test]
    fn sized_documents_stage_a_count_and_the_bytes_until_one_has_no_size() {
        let topology = Topology::with_shards(3).unwrap();
        let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
        let mut docs: Vec<Document> = (0..500)
            .map(|i| {
                let mut d = Document::new(format!("orders/{i}-A"));
                d.size = Some(i);
                d
            })
            .collect();
        builder.push(&docs).unwrap();
        let staged = |b: &PlacementBuilder| b.placement.loads.heap_bytes();
        assert_eq!(staged(&builder), 12 << 20);
        // A document without a size, in a bucket of sized ones and in one of its own.
        docs.push(Document::new("orders/x$orders/7-A"));
        docs.push(Document::new("orders/none"));
        builder.push(&docs[500..]).unwrap();
        assert_eq!(staged(&builder), 16 << 20);
        let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
        assert_eq!(views(&builder.finish()), views(&whole));
    }

    proptest! {
        #[test]
        fn chunks_with_sizes_equal_one_placement(
            docs in proptest::collection::vec(
                ("[a-c$/]{0,4}", proptest::option::of(prop_oneof![0u64..100, Just((1 << 32) + 5)])),
                0..60),
            chunk in 1usize..20,
        ) {
            let docs: Vec<Document> = docs
                .into_iter()
                .map(|(id, size)| {
                    let mut d = Document::new(id);
                    d.size = size;
                    d
                })
                .collect();
            let topology = Topology::with_shards(3).unwrap();
            let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
            prop_assert_eq!(views(&built(&docs, chunk, &topology)), views(&whole));
        }

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
        let whole = Placement::new(&docs, &topology, &PlacementOptions::default());
        println!("new: {:?}", start.elapsed());
        let ids: usize = docs.iter().map(|d| d.id.len()).sum();
        let bodies: usize = docs
            .iter()
            .filter_map(|d| d.body.as_ref())
            .map(String::len)
            .sum();
        let per = |bytes: usize| (bytes - ids) as f64 / docs.len() as f64;
        println!(
            "heap {:.1} B per document beyond its ID ({:.1} of them body bytes), {:.1} once the \
             bucket order is made",
            per(whole.heap_bytes()),
            bodies as f64 / docs.len() as f64,
            {
                whole.documents_in(0..1);
                per(whole.heap_bytes())
            }
        );
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

/// What the ignored timing tests below share: their size, read from the environment, and
/// the printout of their slowest steps.
#[cfg(test)]
mod step_timing {
    use std::time::Duration;

    /// The number in environment variable `name`, or `default`.
    pub(super) fn count(name: &str, default: usize) -> usize {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    }

    /// Prints the median and the 12 slowest of `steps` (`(time, documents after)`).
    pub(super) fn print_slowest(steps: &mut [(Duration, usize)]) {
        steps.sort();
        let median = steps.get(steps.len() / 2).map(|s| s.0);
        println!("place steps: median {median:?}, slowest (time, documents after):");
        for (time, at) in steps.iter().rev().take(12) {
            println!("  {time:?} at {at}");
        }
    }
}

#[cfg(test)]
mod generate_timing {
    use super::step_timing::{count, print_slowest};
    use super::*;
    use crate::sample::Generator;
    use std::time::{Duration, Instant};

    /// Each push of 2,000 generated documents (as the studio's job places them), the
    /// slowest printed with where they happened:
    /// `DOCS=10000000 cargo test --release -p ravenshard-model --lib -- --ignored generate_steps --nocapture`
    #[test]
    #[ignore]
    fn generate_steps() {
        let n = count("DOCS", 10_000_000);
        let generator = Generator {
            documents: n,
            anchored_share: 0.5,
            seed: 1,
        };
        let mut made = generator.documents_iter().unwrap();
        let topology = Topology::with_shards(3).unwrap();
        let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
        builder.reserve(n, n * 24);
        let mut documents: Vec<Document> = Vec::with_capacity(n);
        let mut steps: Vec<(Duration, usize)> = Vec::new();
        let start = Instant::now();
        loop {
            let from = documents.len();
            documents.extend(made.by_ref().take(2_000));
            if documents.len() == from {
                break;
            }
            let t = Instant::now();
            builder.push(&documents[from..]).unwrap();
            steps.push((t.elapsed(), builder.len()));
        }
        let total = start.elapsed();
        let place: Duration = steps.iter().map(|s| s.0).sum();
        println!("{n} generated: {total:?} in all, placing {place:?}");
        print_slowest(&mut steps);
    }
}

#[cfg(test)]
mod import_timing {
    use super::step_timing::{count, print_slowest};
    use super::*;
    use ravenshard_import::{Format, Importer};
    use std::time::{Duration, Instant};

    /// `cargo test --release -p ravenshard-model --lib -- --ignored ids_import_timing --nocapture`
    #[test]
    #[ignore]
    fn ids_import_timing() {
        let n = count("IDS", 10_000_000);
        let mut file = Vec::new();
        for i in 0..n {
            file.extend_from_slice(format!("orders/{i}-A\n").as_bytes());
        }
        let topology = Topology::with_shards(3).unwrap();
        let mut importer = Importer::new(Format::Text, Some(file.len() as u64));
        let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
        let mut documents: Vec<Document> = Vec::new();
        let (mut t_read, mut t_take, mut t_place) =
            (Duration::ZERO, Duration::ZERO, Duration::ZERO);
        let (mut worst_read, mut worst_step) = (Duration::ZERO, Duration::ZERO);
        let mut steps_taken: Vec<(Duration, usize)> = Vec::new();
        let start = Instant::now();
        for chunk in file.chunks(1 << 20) {
            let t = Instant::now();
            importer.push(chunk).unwrap();
            worst_read = worst_read.max(t.elapsed());
            t_read += t.elapsed();
            let t = Instant::now();
            let from = documents.len();
            let taken = importer.take_documents();
            if from == 0 {
                documents.reserve(n + n / 20);
                builder.reserve(n + n / 20, file.len());
            }
            documents.extend(taken);
            t_take += t.elapsed();
            let t = Instant::now();
            for step in documents[from..].chunks(2_000) {
                let s = Instant::now();
                builder.push(step).unwrap();
                steps_taken.push((s.elapsed(), builder.len()));
                worst_step = worst_step.max(s.elapsed());
            }
            t_place += t.elapsed();
        }
        print_slowest(&mut steps_taken);
        let t = Instant::now();
        let mut steps = 0;
        while !builder.pack_step(16_384) {
            steps += 1;
        }
        let t_pack = t.elapsed();
        let placement = builder.finish();
        let total = start.elapsed();
        println!(
            "{n} IDs: read {t_read:?} (worst 1 MiB {worst_read:?}), take {t_take:?}, place {t_place:?} (worst step {worst_step:?}), pack {t_pack:?} ({steps} steps), total {total:?} = {:.0} ns/ID",
            total.as_nanos() as f64 / n as f64
        );
        let t = Instant::now();
        drop(placement);
        println!("drop placement {:?}", t.elapsed());
        let t = Instant::now();
        drop(documents);
        println!("drop documents {:?}", t.elapsed());
    }
}
