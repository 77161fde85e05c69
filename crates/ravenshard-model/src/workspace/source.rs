//! The placement as the one store of its documents: the documents given back (a range at a
//! time), and placed again from the placement's own tables by another topology or with
//! other options (the chapter's design on or off), with no other copy of them kept.

use super::retopology::statistics_error;
use super::TopologyChangeError;
use super::{Document, EditError, Placement, PlacementBuilder, PlacementOptions};
use ravenshard::Topology;
use std::ops::Range;

/// How many documents [`Placement::placed_again`] makes at a time from the tables: the
/// most it holds as [`Document`]s at once.
const CHUNK: usize = 4_096;

impl Placement {
    /// The body (JSON) of document `index`, when it has one: kept in a side table, for the
    /// chapter's content rules, which read its fields.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let mut order = Document::new("orders/1-A");
    /// order.body = Some(r#"{"Customer": "customers/1-A"}"#.into());
    /// let docs = [Document::new("customers/1-A"), order];
    /// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// assert_eq!(p.body(0), None);
    /// assert_eq!(p.body(1), Some(r#"{"Customer": "customers/1-A"}"#));
    /// ```
    pub fn body(&self, index: usize) -> Option<&str> {
        self.store.body(index)
    }

    /// Document `index` as it was given (ID, size, collection, body), or `None` past the
    /// end.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let mut order = Document::new("Orders/1-A");
    /// (order.size, order.collection) = (Some(120), Some("Orders".into()));
    /// let p = Placement::new(&[order.clone()], &Topology::with_shards(3).unwrap(), &Default::default());
    /// assert_eq!(p.document(0), Some(order));
    /// assert_eq!(p.document(1), None);
    /// ```
    pub fn document(&self, index: usize) -> Option<Document> {
        Some(Document {
            id: self.id(index)?.to_string(),
            size: self.size(index),
            collection: self.collection(index).map(str::to_string),
            body: self.body(index).map(str::to_string),
        })
    }

    /// The documents `range` (clamped to the placement) as they were given, one at a time:
    /// what an editor's page, a save or an export reads, without a copy of the others.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let docs: Vec<Document> = (0..5).map(|i| Document::new(format!("orders/{i}-A"))).collect();
    /// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// assert_eq!(p.documents(1..3).collect::<Vec<_>>(), docs[1..3]);
    /// assert_eq!(p.documents(4..99).count(), 1);
    /// ```
    pub fn documents(&self, range: Range<usize>) -> impl Iterator<Item = Document> + '_ {
        let end = range.end.min(self.len());
        (range.start.min(end)..end).filter_map(|i| self.document(i))
    }

    /// Bytes of the documents' IDs (what the placement keeps of them in its arena).
    pub fn id_bytes(&self) -> usize {
        self.store.id_bytes()
    }

    /// How many documents have a body ([`body`](Self::body)).
    pub fn bodies(&self) -> usize {
        self.store.bodies()
    }

    /// Bytes of the documents' bodies (what the placement keeps of them in its arena).
    pub fn body_bytes(&self) -> usize {
        self.store.body_bytes()
    }

    /// The options the documents were placed with.
    pub fn options(&self) -> &PlacementOptions {
        &self.options
    }

    /// The same documents placed again by `topology` with `options`, read from this
    /// placement's own tables a few thousand at a time (no copy of the whole set): what
    /// [`Placement::new`] gives for them. A placement of bucket statistics places its
    /// statistics again.
    ///
    /// # Errors
    ///
    /// [`TopologyChangeError::NoShard`] when `topology` cannot place the bucket statistics
    /// a placement was made from (a placement of documents always places again: the
    /// [`Limits`](TopologyChangeError::Limits) it held its documents within are the same).
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, PlacementOptions};
    /// use ravenshard_design::content::ContentDesign;
    /// use ravenshard::Topology;
    ///
    /// let docs = [Document::new("orders/1-A$"), Document::new("customers/1-A")];
    /// let p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// assert_eq!(p.invalid().len(), 0);
    /// let five = Topology::with_shards(5).unwrap();
    /// let design = PlacementOptions { design: Some(ContentDesign::default()), ..Default::default() };
    /// let again = p.placed_again(&five, &design).unwrap();
    /// let fresh = Placement::new(&docs, &five, &design);
    /// assert_eq!(again.shards(), fresh.shards());
    /// assert_eq!(again.invalid(), fresh.invalid());
    /// ```
    pub fn placed_again(
        &self,
        topology: &Topology,
        options: &PlacementOptions,
    ) -> Result<Placement, TopologyChangeError> {
        if let Some(s) = &self.statistics {
            return Placement::from_statistics(&s.statistics, topology, options)
                .map_err(statistics_error);
        }
        let mut again = self
            .rebuilt(topology, options, |_| {})
            .map_err(TopologyChangeError::Limits)?;
        // The same documents: a mark taken before still reads them.
        again.journal = self.journal.clone();
        Ok(again)
    }

    /// The documents, each chunk of them changed by `change` first (an ID rewritten, a
    /// document dropped...), placed again by this placement's topology and options: what
    /// [`Placement::new`] gives for the changed documents, made from the placement's own
    /// tables a few thousand documents at a time.
    ///
    /// # Errors
    ///
    /// [`EditError`] when the changed documents exceed a placement's limits.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement};
    /// use ravenshard::Topology;
    ///
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let t = Topology::with_shards(3).unwrap();
    /// let p = Placement::new(&docs, &t, &Default::default());
    /// let upper = p.rewritten(|chunk| chunk.iter_mut().for_each(|d| d.id.make_ascii_uppercase()))?;
    /// assert_eq!(upper.id(1), Some("CUSTOMERS/1-A"));
    /// assert_eq!(upper.place(1), p.place(1));
    /// # Ok::<(), ravenshard_model::workspace::EditError>(())
    /// ```
    pub fn rewritten(
        &self,
        change: impl FnMut(&mut Vec<Document>),
    ) -> Result<Placement, EditError> {
        let (topology, options) = (self.topology.clone(), self.options.clone());
        self.rebuilt(&topology, &options, change)
    }

    /// The documents, each chunk changed by `change`, placed by `topology` with `options`.
    fn rebuilt(
        &self,
        topology: &Topology,
        options: &PlacementOptions,
        mut change: impl FnMut(&mut Vec<Document>),
    ) -> Result<Placement, EditError> {
        let mut builder = PlacementBuilder::new(topology, options);
        builder.reserve(self.len(), self.id_bytes());
        for start in (0..self.len()).step_by(CHUNK) {
            let mut chunk: Vec<Document> = self.documents(start..start + CHUNK).collect();
            change(&mut chunk);
            builder.push(&chunk)?;
        }
        Ok(builder.finish())
    }

    /// Follows a new configuration: in place ([`set_topology`](Self::set_topology), no ID
    /// hashed again) when the options are the same and the change allows it, else placed
    /// again from the placement's own tables ([`placed_again`](Self::placed_again)).
    /// Returns whether it was done in place.
    ///
    /// # Errors
    ///
    /// As [`placed_again`](Self::placed_again); the placement is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use ravenshard_model::workspace::{Document, Placement, PlacementOptions};
    /// use ravenshard_design::content::ContentDesign;
    /// use ravenshard::Topology;
    ///
    /// let docs = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    /// let mut p = Placement::new(&docs, &Topology::with_shards(3).unwrap(), &Default::default());
    /// let five = Topology::with_shards(5).unwrap();
    /// assert_eq!(p.reconfigure(&five, &Default::default()), Ok(true));
    /// let design = PlacementOptions { design: Some(ContentDesign::default()), ..Default::default() };
    /// assert_eq!(p.reconfigure(&five, &design), Ok(false));
    /// assert_eq!(p.options(), &design);
    /// ```
    pub fn reconfigure(
        &mut self,
        topology: &Topology,
        options: &PlacementOptions,
    ) -> Result<bool, TopologyChangeError> {
        if *options == self.options && self.set_topology(topology).is_ok() {
            return Ok(true);
        }
        *self = self.placed_again(topology, options)?;
        Ok(false)
    }
}
