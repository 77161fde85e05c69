//! A batch of documents as one thread hands them to another (in the studio: an import's, a
//! generation's or a restore's worker to the page and the workspace's host, the page to
//! the save's worker): the IDs in one string
//! with their end offsets, sizes, collection numbers into a table of names, and the kept
//! bodies (the design's fields only) by position. One string and a few flat arrays, not a
//! `String` per document: bincode writes and reads each array with one copy.

use crate::workspace::{Document, Placement};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

/// At most this many documents a batch of an import or a generation (about 1 MB of IDs; the page turns one into
/// documents in a few milliseconds).
pub const BATCH_DOCUMENTS: usize = 32_768;

/// Documents read by the worker, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentBatch {
    /// Its number: 0 for an import's first batch, one more for each next.
    pub number: u64,
    /// The IDs, one after another.
    pub ids: String,
    /// Where each ID ends in `ids` (a byte offset).
    pub ends: Vec<u32>,
    /// Each document's size.
    pub sizes: Vec<Option<u64>>,
    /// Each document's collection: 0 for none, `i + 1` for `collections[i]`.
    pub collection_of: Vec<u32>,
    /// The collections' names.
    pub collections: Vec<String>,
    /// The bodies kept, by position in the batch.
    pub bodies: Vec<(u32, String)>,
    /// How far the file was read when the batch was made.
    pub read: Read,
}

/// How far a file was read: what its first `bytes` bytes held (documents read may still
/// be waiting in the worker for their batch), for the page's estimate of the whole file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Read {
    /// The file's bytes read (a generation's: the documents made).
    pub bytes: u64,
    /// The documents they held.
    pub documents: u64,
    /// Those documents' ID bytes.
    pub id_bytes: u64,
}

impl Read {
    /// The documents and ID bytes a file of `total` bytes holds at this density, and 5%
    /// more.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::batch::Read;
    ///
    /// let read = Read { bytes: 1000, documents: 100, id_bytes: 900 };
    /// assert_eq!(read.estimate(10_000), (1050, 9450));
    /// ```
    pub fn estimate(self, total: u64) -> (usize, usize) {
        let scale = total as f64 / self.bytes.max(1) as f64 * 1.05;
        let at = |n: u64| (n as f64 * scale).round() as usize;
        (at(self.documents), at(self.id_bytes))
    }
}

/// A batch whose arrays do not agree (a bug, or a page and a worker of different builds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamagedBatch {
    /// The batch's number.
    pub number: u64,
    /// What does not agree.
    pub problem: String,
}

impl fmt::Display for DamagedBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the worker's batch {} of documents is damaged ({}); reload the page and import \
             the file again",
            self.number, self.problem
        )
    }
}

impl std::error::Error for DamagedBatch {}

impl DocumentBatch {
    /// The batch numbered `number` of `documents`, made when the file was `read` so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::Document;
    /// use ravenshard_model::batch::DocumentBatch;
    ///
    /// let mut order = Document::new("orders/1-A");
    /// order.collection = Some("Orders".into());
    /// let documents = vec![order, Document::new("x")];
    /// let batch = DocumentBatch::of(0, &documents, Default::default());
    /// assert_eq!((batch.ids.as_str(), batch.collection_of.as_slice()), ("orders/1-Ax", &[1, 0][..]));
    /// assert_eq!(batch.into_documents(), Ok(documents));
    /// ```
    pub fn of(number: u64, documents: &[Document], read: Read) -> DocumentBatch {
        let mut batch = DocumentBatch::with_room(number, read, documents.len());
        batch
            .ids
            .reserve(documents.iter().map(|d| d.id.len()).sum());
        let mut numbers = HashMap::new();
        for d in documents {
            let (collection, body) = (d.collection.as_deref(), d.body.as_deref());
            batch.push(&mut numbers, &d.id, d.size, collection, body);
        }
        batch
    }

    /// The batch numbered `number` of `placement`'s documents `range` (clamped to it), read
    /// from its tables: the IDs' bytes, sizes, collections and kept bodies, copied, with no
    /// [`Document`] made (what the page sends the worker to save).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard::Topology;
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard_model::batch::DocumentBatch;
    ///
    /// let docs: Vec<Document> = (0..5).map(|i| Document::new(format!("orders/{i}-A"))).collect();
    /// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// let batch = DocumentBatch::of_placement(7, &p, 3..99);
    /// assert_eq!((batch.number, batch.into_documents()), (7, Ok(docs[3..].to_vec())));
    /// ```
    pub fn of_placement(number: u64, placement: &Placement, range: Range<usize>) -> DocumentBatch {
        let range = range.start.min(placement.len())..range.end.min(placement.len());
        let mut batch = DocumentBatch::with_room(number, Read::default(), range.len());
        let mut numbers = HashMap::new();
        for i in range {
            let id = placement.id(i).unwrap_or_default();
            let (size, collection) = (placement.size(i), placement.collection(i));
            batch.push(&mut numbers, id, size, collection, placement.body(i));
        }
        batch
    }

    /// An empty batch with room for `n` documents.
    fn with_room(number: u64, read: Read, n: usize) -> DocumentBatch {
        DocumentBatch {
            number,
            read,
            ends: Vec::with_capacity(n),
            sizes: Vec::with_capacity(n),
            collection_of: Vec::with_capacity(n),
            ..DocumentBatch::default()
        }
    }

    /// Appends one document; `numbers` numbers the collections seen.
    fn push<'a>(
        &mut self,
        numbers: &mut HashMap<&'a str, u32>,
        id: &str,
        size: Option<u64>,
        collection: Option<&'a str>,
        body: Option<&str>,
    ) {
        let position = self.ends.len() as u32;
        self.ids.push_str(id);
        self.ends.push(self.ids.len() as u32);
        self.sizes.push(size);
        let collection = collection.map_or(0, |name| {
            *numbers.entry(name).or_insert_with(|| {
                self.collections.push(name.to_string());
                self.collections.len() as u32
            })
        });
        self.collection_of.push(collection);
        if let Some(body) = body {
            self.bodies.push((position, body.to_string()));
        }
    }

    /// How many documents it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Puts the batch's documents in `documents` in place of the ones it held, reusing
    /// their IDs' and collections' strings: the page turns batch after batch into
    /// documents without an allocation (and a free) for each ID and each collection.
    ///
    /// # Errors
    ///
    /// [`DamagedBatch`] when the arrays do not agree; `documents` is then empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::Document;
    /// use ravenshard_model::batch::DocumentBatch;
    ///
    /// let mut order = Document::new("orders/1-A");
    /// order.collection = Some("Orders".into());
    /// let mut documents = vec![Document::new("x"); 3];
    /// DocumentBatch::of(0, &[order.clone()], Default::default()).fill(&mut documents)?;
    /// assert_eq!(documents, [order]);
    /// # Ok::<(), ravenshard_model::batch::DamagedBatch>(())
    /// ```
    pub fn fill(self, documents: &mut Vec<Document>) -> Result<(), DamagedBatch> {
        let filled = self.fill_in(documents);
        if filled.is_err() {
            documents.clear();
        }
        filled
    }

    fn fill_in(self, documents: &mut Vec<Document>) -> Result<(), DamagedBatch> {
        let damaged = |problem: &str| DamagedBatch {
            number: self.number,
            problem: problem.to_string(),
        };
        let n = self.ends.len();
        if self.sizes.len() != n || self.collection_of.len() != n {
            return Err(damaged("its arrays differ in length"));
        }
        documents.truncate(n);
        documents.resize_with(n, || Document::new(String::new()));
        let mut start = 0usize;
        for (i, document) in documents.iter_mut().enumerate() {
            let end = self.ends[i] as usize;
            let id = (self.ids.get(start..end))
                .ok_or_else(|| damaged("an ID's offsets are out of place"))?;
            start = end;
            document.id.clear();
            document.id.push_str(id);
            document.size = self.sizes[i];
            document.body = None;
            let Some(c) = self.collection_of[i].checked_sub(1) else {
                document.collection = None;
                continue;
            };
            let name = (self.collections.get(c as usize))
                .ok_or_else(|| damaged("a collection number is unknown"))?;
            match &mut document.collection {
                Some(kept) => {
                    kept.clear();
                    kept.push_str(name);
                }
                none => *none = Some(name.clone()),
            }
        }
        for (i, body) in self.bodies {
            let document = (documents.get_mut(i as usize))
                .ok_or_else(|| damaged("a body's position is out of range"))?;
            document.body = Some(body);
        }
        Ok(())
    }

    /// The documents again.
    ///
    /// # Errors
    ///
    /// [`DamagedBatch`] when the arrays do not agree.
    pub fn into_documents(self) -> Result<Vec<Document>, DamagedBatch> {
        let mut documents = Vec::new();
        self.fill(&mut documents)?;
        Ok(documents)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Documents in the line format (`id<TAB>size<TAB>collection<TAB>body`).
    fn documents(lines: &str) -> Vec<Document> {
        Document::parse_lines(lines).map(|l| l.document).collect()
    }

    /// Encodes and decodes as `gloo-worker`'s codec does.
    fn round_trip(batch: &DocumentBatch) -> DocumentBatch {
        let bytes = bincode::serialize(batch).expect("encodes");
        bincode::deserialize(&bytes).expect("decodes")
    }

    #[test]
    fn documents_survive_the_batch_and_the_workers_codec() {
        let documents = documents(
            "orders/1-A\t120\tOrders\t{\"Customer\":\"c/1\"}\né/ü\n\
             orders/2-A\t0\tOrders\ncompanies/1\t7\tCompanies\t{}",
        );
        assert_eq!(documents[1].body, None);
        assert_eq!(documents[3].body.as_deref(), Some("{}"));
        let read = Read {
            bytes: 999,
            documents: 4,
            id_bytes: 30,
        };
        let batch = DocumentBatch::of(3, &documents, read);
        assert_eq!(batch.collections, ["Orders", "Companies"]);
        assert_eq!(batch.collection_of, [1, 0, 1, 2]);
        assert_eq!(batch.len(), 4);
        let back = round_trip(&batch);
        assert_eq!(back, batch);
        assert_eq!(back.clone().into_documents(), Ok(documents));
        assert_eq!((back.number, back.read), (3, read));
        assert!(DocumentBatch::of(0, &[], Read::default())
            .into_documents()
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_damaged_batch_is_an_error_not_a_panic() {
        let documents = documents("é\t1\tA\t{}");
        let good = DocumentBatch::of(5, &documents, Read::default());
        let mut bad = good.clone();
        bad.ends[0] = 1; // inside the 'é'
        assert!(bad
            .clone()
            .into_documents()
            .unwrap_err()
            .to_string()
            .contains("batch 5"));
        let mut bad = good.clone();
        bad.collection_of[0] = 2;
        assert!(bad.clone().into_documents().is_err());
        let mut bad = good.clone();
        bad.bodies[0].0 = 1;
        assert!(bad.clone().into_documents().is_err());
        let mut bad = good.clone();
        bad.sizes.clear();
        assert!(bad.clone().into_documents().is_err());
        // Filling a list that held other documents gives the batch's alone (their strings
        // reused); a damaged batch leaves it empty.
        let mut list = vec![Document::new("x"); documents.len() + 5];
        list[0].collection = Some("A collection longer than any of the batch".into());
        list[1].body = Some("{}".into());
        good.clone().fill(&mut list).unwrap();
        assert_eq!(list, documents);
        let mut bad = good;
        bad.bodies[0].0 = 1;
        assert!(bad.fill(&mut list).is_err());
        assert!(list.is_empty());
    }

    #[test]
    fn a_placement_gives_back_the_batches_it_was_built_of() {
        // What a job's worker stores of its batches (as it sends them) must be what a
        // save copies of the placement they make.
        use crate::sample::Generator;
        use crate::workspace::{Placement, PlacementBuilder};
        use ravenshard::Topology;
        let generator = Generator {
            documents: 3_000,
            ..Default::default()
        };
        let mut made = generator.generate().expect("generates");
        made.extend(documents(
            "\n$\na$\norders/9-A$\t5000000000\tOrders\t{\"x\":1}\n\u{1}bad\t0\n\
             orders/9-A\t3\tOrders",
        ));
        let topology = Topology::with_shards(3).expect("three shards");
        let mut builder = PlacementBuilder::new(&topology, &Default::default());
        let batches: Vec<DocumentBatch> = made
            .chunks(1_000)
            .enumerate()
            .map(|(i, chunk)| DocumentBatch::of(i as u64, chunk, Read::default()))
            .collect();
        let mut at = Vec::new();
        for batch in &batches {
            at.push(builder.len());
            builder
                .push(&round_trip(batch).into_documents().expect("whole"))
                .expect("places");
        }
        let placement: Placement = builder.finish();
        for (batch, at) in batches.into_iter().zip(at) {
            let range = at..at + batch.len();
            let copied = DocumentBatch::of_placement(batch.number, &placement, range);
            assert_eq!(copied.into_documents(), batch.into_documents());
        }
    }
}
