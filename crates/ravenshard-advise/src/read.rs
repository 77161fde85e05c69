//! Reading an export for the advisor: each document is reduced, as it arrives, to what
//! scoring needs (its ID, size, collection and the ID-like string values of its fields);
//! its body is dropped at once.

use super::fields::Collector;
use super::AdviseError;
use ravenshard::document::Document;
use ravenshard::{lower_id, MAX_ID_BYTES};
use ravenshard_import::{Format, Importer};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// What the advisor keeps of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Kept {
    /// The ID as stored.
    pub id: String,
    /// Its size in bytes (0 when unknown).
    pub size: u64,
    /// Index into [`Read::collections`].
    pub collection: u32,
    /// `(field index into Read::fields, value)`: string values that may be IDs, in
    /// document order (arrays included, nested paths dotted: `Lines.Product`).
    pub values: Vec<(u32, String)>,
    /// Per value, the collection of the document of the export it names (`None` when it
    /// names none): found once, when the export has been read ([`Read::resolve`]).
    pub named: Vec<Option<u32>>,
}

/// Everything read from an export.
#[derive(Debug, Default)]
pub(super) struct Read {
    pub documents: Vec<Kept>,
    pub collections: Vec<String>,
    pub fields: Vec<String>,
    /// Lower-cased ID → collection index, for every document of the export.
    pub ids: HashMap<String, u32>,
    /// Entries the importer skipped (no ID, an ID RavenDB refuses).
    pub skipped: usize,
    /// Documents whose body the importer did not keep.
    pub bodies_dropped: usize,
    collection_index: HashMap<String, u32>,
    field_index: HashMap<String, u32>,
}

impl Read {
    fn intern(names: &mut Vec<String>, index: &mut HashMap<String, u32>, name: &str) -> u32 {
        if let Some(&i) = index.get(name) {
            return i;
        }
        let i = names.len() as u32;
        names.push(name.to_string());
        index.insert(name.to_string(), i);
        i
    }

    /// Keeps what scoring needs of `document`, then drops it.
    fn add(&mut self, document: Document) {
        let Document {
            id,
            size,
            collection,
            body,
        } = document;
        self.add_parts(id, size, collection.as_deref(), body.as_deref());
    }

    /// Keeps what scoring needs of the document `id` (its size, collection and body as
    /// known), reading its body's ID-like values.
    fn add_parts(
        &mut self,
        id: String,
        size: Option<u64>,
        collection: Option<&str>,
        body: Option<&str>,
    ) {
        let collection = match collection {
            Some(name) => Read::intern(&mut self.collections, &mut self.collection_index, name),
            None => {
                let name = collection_of_id(&id);
                Read::intern(&mut self.collections, &mut self.collection_index, &name)
            }
        };
        let mut values = Vec::new();
        if let Some(body) = body {
            let mut collector = Collector {
                names: &mut self.fields,
                index: &mut self.field_index,
                path: String::new(),
                out: Vec::new(),
                keep: looks_like_id,
            };
            // The importer has read the body as a JSON object already.
            if collector.read(body).is_ok() {
                values = collector.out;
                // A document naming itself (its `Id` field) is no reference.
                let own = lower_id(&id);
                values.retain(|(_, v)| lower_id(v) != own);
            }
        }
        self.ids.insert(lower_id(&id).into_owned(), collection);
        self.documents.push(Kept {
            size: size.unwrap_or(0),
            id,
            collection,
            values,
            named: Vec::new(),
        });
    }
}

impl Read {
    /// Finds, for every value, the document of the export it names (IDs compared as
    /// RavenDB compares them, lower-cased).
    fn resolve(&mut self) {
        let ids = &self.ids;
        for document in &mut self.documents {
            document.named = document
                .values
                .iter()
                .map(|(_, v)| ids.get(lower_id(v).as_ref()).copied())
                .collect();
        }
    }
}

/// A string that may be a document ID: it holds a `/` (RavenDB's `collection/number`
/// form), has no white space and fits an ID.
fn looks_like_id(s: &str) -> bool {
    s.len() <= MAX_ID_BYTES && s.contains('/') && !s.contains(char::is_whitespace)
}

/// The collection an ID implies when the document names none: its text before the first
/// `/`, `@empty` when it has none (RavenDB's collection of documents without one).
fn collection_of_id(id: &str) -> String {
    match id.split_once('/') {
        Some((c, _)) if !c.is_empty() => c.to_string(),
        _ => "@empty".to_string(),
    }
}

/// Reads an export chunk by chunk, keeping only what the advisor needs.
///
/// # Examples
///
/// ```
/// use ravenshard_advise::{ExportReader, Workload};
/// use ravenshard::Topology;
///
/// let mut reader = ExportReader::new(None, None);
/// reader.push(br#"{"Id": "companies/1-A", "@metadata": {"@collection": "Companies"}}
/// {"Id": "orders/1-A", "Company": "companies/1-A", "@metadata": {"@collection": "Orders"}}
/// "#)?;
/// let advice = reader.finish(&Topology::with_shards(3).unwrap(), &Workload::default())?;
/// assert_eq!(advice.documents, 2);
/// # Ok::<(), ravenshard_advise::AdviseError>(())
/// ```
#[derive(Debug)]
pub struct ExportReader {
    format: Option<Format>,
    total: Option<u64>,
    importer: Option<Importer>,
    read: Read,
}

impl ExportReader {
    /// A reader for `format` (`None`: recognised from the first chunk, see
    /// [`Format::from_content`]); `total_len` is the file's length, if known.
    pub fn new(format: Option<Format>, total_len: Option<u64>) -> ExportReader {
        ExportReader {
            format,
            total: total_len,
            importer: None,
            read: Read::default(),
        }
    }

    /// Reads the next chunk: chunks of [`ExportReader::next_chunk_len`] bytes keep each
    /// call short.
    ///
    /// # Errors
    ///
    /// The first problem in the file, as the importer says it ([`ImportError`](ravenshard_import::ImportError)).
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), AdviseError> {
        let (format, total) = (self.format, self.total);
        let importer = self.importer.get_or_insert_with(|| {
            Importer::new(format.unwrap_or_else(|| Format::from_content(chunk)), total)
        });
        importer.push(chunk).map_err(AdviseError::Import)?;
        for document in importer.take_documents() {
            self.read.add(document);
        }
        Ok(())
    }

    /// The format being read: the one given, else the one recognised from the first chunk
    /// (`None` before it).
    pub fn format(&self) -> Option<Format> {
        self.importer.as_ref().map(Importer::format).or(self.format)
    }

    /// How many bytes to push next (the importer's advice).
    pub fn next_chunk_len(&self) -> usize {
        self.importer
            .as_ref()
            .map_or(64 << 10, Importer::next_chunk_len)
    }

    /// How many documents have been read so far.
    pub fn documents_so_far(&self) -> usize {
        self.read.documents.len()
    }

    /// Reads what is left, then advises: see [`advise`](super::advise).
    ///
    /// # Errors
    ///
    /// A truncated or malformed file ([`AdviseError::Import`]), a bad query
    /// ([`AdviseError::Query`]) or a bad load ([`AdviseError::Load`]).
    pub fn finish(
        self,
        topology: &ravenshard::Topology,
        workload: &super::Workload,
    ) -> Result<super::Advice, AdviseError> {
        self.read()?
            .advise(topology, workload, &mut |_| ControlFlow::Continue(()))
    }

    /// Reads what is left and keeps what was read, to advise on it (under one topology
    /// or several) and to rewrite IDs as a candidate says ([`ReadExport`]).
    ///
    /// # Errors
    ///
    /// A truncated or malformed file ([`AdviseError::Import`]).
    pub fn read(mut self) -> Result<ReadExport, AdviseError> {
        let importer = match self.importer.take() {
            Some(importer) => importer,
            None => Importer::new(self.format.unwrap_or(Format::Text), self.total),
        };
        let imported = importer.finish().map_err(AdviseError::Import)?;
        self.read.skipped = imported.skipped;
        self.read.bodies_dropped = imported.bodies_dropped.documents;
        for document in imported.documents {
            self.read.add(document);
        }
        self.read.resolve();
        Ok(ReadExport { read: self.read })
    }
}

/// Reads documents a caller already holds (the studio's workspace), one at a time, keeping
/// what the advisor needs of each, as [`ExportReader`] keeps it of an export's documents:
/// no export text is written or parsed, only each body's JSON. A document whose ID RavenDB
/// refuses ([`check_id`](ravenshard::check_id)) is skipped, as the importer skips it; a
/// document without a body still counts (its ID can be named by others), with no
/// references of its own. Bodies are not held to the importer's
/// [`MAX_BODY_BYTES`](ravenshard_import::MAX_BODY_BYTES): the caller holds them already.
///
/// # Examples
///
/// ```
/// use ravenshard_advise::{DocumentReader, Strategy, Workload};
/// use ravenshard::Topology;
/// use std::ops::ControlFlow;
///
/// let mut reader = DocumentReader::new();
/// for c in 1..=200 {
///     reader.add(&format!("companies/{c}-A"), None, Some("Companies"), None);
/// }
/// for o in 1..=2000 {
///     let body = format!(r#"{{"Company": "companies/{}-A"}}"#, o % 200 + 1);
///     reader.add(&format!("orders/{o}-A"), Some(120), Some("Orders"), Some(&body));
/// }
/// reader.add("", None, None, None); // RavenDB refuses an empty ID: skipped
/// let (topology, workload) = (Topology::with_shards(3).unwrap(), Workload::default());
/// let advice = reader.read().advise(&topology, &workload, &mut |_| ControlFlow::Continue(()))?;
/// assert_eq!((advice.documents, advice.skipped), (2200, 1));
/// let orders = advice.collections.iter().find(|c| c.collection == "Orders").unwrap();
/// assert_eq!(orders.recommended.strategy, Strategy::Anchor);
/// assert_eq!(orders.references[0].field, "Company");
/// # Ok::<(), ravenshard_advise::AdviseError>(())
/// ```
#[derive(Debug, Default)]
pub struct DocumentReader {
    read: Read,
}

impl DocumentReader {
    /// A reader of no documents yet.
    pub fn new() -> DocumentReader {
        DocumentReader::default()
    }

    /// Reads one document: its ID as stored, its size, its collection
    /// (`@metadata.@collection`; `None`: the ID's text before its first `/`) and its body
    /// (JSON, its `@metadata` left out when read), as far as they are known.
    pub fn add(
        &mut self,
        id: &str,
        size: Option<u64>,
        collection: Option<&str>,
        body: Option<&str>,
    ) {
        if ravenshard::check_id(id).is_err() {
            self.read.skipped += 1;
            return;
        }
        self.read.add_parts(id.to_string(), size, collection, body);
    }

    /// How many documents have been read so far (the skipped ones left out).
    pub fn documents_so_far(&self) -> usize {
        self.read.documents.len()
    }

    /// The documents read, to advise on ([`ReadExport::advise`]).
    pub fn read(mut self) -> ReadExport {
        self.read.resolve();
        ReadExport { read: self.read }
    }
}

/// An export read to the end: what the advisor keeps of each document (its ID, size,
/// collection and the ID-like values of its fields).
///
/// # Examples
///
/// ```
/// use ravenshard_advise::{ExportReader, Workload};
/// use ravenshard::Topology;
/// use std::ops::ControlFlow;
///
/// let mut reader = ExportReader::new(None, None);
/// reader.push(br#"{"Id": "companies/1-A", "@metadata": {"@collection": "Companies"}}
/// {"Id": "orders/1-A", "Company": "companies/1-A", "@metadata": {"@collection": "Orders"}}
/// "#)?;
/// let export = reader.read()?;
/// let mut seen = Vec::new();
/// let advice = export.advise(&Topology::with_shards(3).unwrap(), &Workload::default(), &mut |p| {
///     seen.push(p);
///     ControlFlow::Continue(())
/// })?;
/// assert_eq!(advice.documents, 2);
/// assert_eq!(seen.last().map(|p| p.done), Some(2));
/// let rewrites = export.anchor_rewrites("Orders", "Company");
/// assert_eq!(rewrites[0].to, "orders/1-A$companies/1-A");
/// # Ok::<(), ravenshard_advise::AdviseError>(())
/// ```
#[derive(Debug)]
pub struct ReadExport {
    read: Read,
}

impl ReadExport {
    /// Documents read.
    pub fn documents(&self) -> usize {
        self.read.documents.len()
    }

    /// Advises on the export under `topology` and `workload` (see [`advise`](super::advise)),
    /// telling `progress` how far it is after each candidate; `progress` answering
    /// [`ControlFlow::Break`] cancels it.
    ///
    /// # Errors
    ///
    /// [`AdviseError::Cancelled`] when `progress` cancelled.
    pub fn advise(
        &self,
        topology: &ravenshard::Topology,
        workload: &super::Workload,
        progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<super::Advice, AdviseError> {
        super::score::advise_read(&self.read, topology, workload, progress)
    }

    /// The IDs the `anchor` candidate on `field` gives the documents of `collection`:
    /// each document whose `field` names a document of the export, anchored to it
    /// (`orders/1-A$companies/7-A`, an existing anchor replaced), in the export's order.
    /// Documents without such a value, or already so anchored, are left out.
    pub fn anchor_rewrites(&self, collection: &str, field: &str) -> Vec<Rewrite> {
        let read = &self.read;
        let (Some(c), Some(f)) = (
            read.collections.iter().position(|n| n == collection),
            read.fields.iter().position(|n| n == field),
        ) else {
            return Vec::new();
        };
        read.documents
            .iter()
            .filter(|d| d.collection as usize == c)
            .filter_map(|d| {
                let (_, target) = super::references::referenced(d, f as u32)?;
                let to = super::candidate::anchored(&d.id, target);
                (to != d.id).then(|| Rewrite {
                    from: d.id.clone(),
                    to,
                })
            })
            .collect()
    }
}

/// How far [`ReadExport::advise`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Documents scored under every candidate of their collection (collections done, then
    /// the share of the current collection's candidates done).
    pub done: u64,
    /// Documents to score.
    pub total: u64,
}

/// A document's ID and the ID a candidate gives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rewrite {
    /// The ID as stored.
    pub from: String,
    /// The ID under the candidate.
    pub to: String,
}

/// Rewrites the IDs of `documents` as `rewrites` say (IDs matched as RavenDB compares
/// them, ignoring case); returns how many were rewritten.
///
/// # Examples
///
/// ```
/// use ravenshard_advise::{rewrite_ids, Rewrite};
/// use ravenshard::document::Document;
///
/// let mut documents = vec![Document::new("Orders/1-A"), Document::new("orders/2-A")];
/// let rewrites = [Rewrite { from: "orders/1-A".into(), to: "orders/1-A$companies/7-A".into() }];
/// assert_eq!(rewrite_ids(&mut documents, &rewrites), 1);
/// assert_eq!(documents[0].id, "orders/1-A$companies/7-A");
/// ```
pub fn rewrite_ids(
    documents: &mut [ravenshard::document::Document],
    rewrites: &[Rewrite],
) -> usize {
    let by_id: HashMap<_, _> = rewrites
        .iter()
        .map(|r| (lower_id(&r.from).into_owned(), &r.to))
        .collect();
    let mut rewritten = 0;
    for document in documents {
        if let Some(to) = by_id.get(lower_id(&document.id).as_ref()) {
            document.id = (*to).clone();
            rewritten += 1;
        }
    }
    rewritten
}
