//! The workspace as a service: one holder of the documents' [`Placement`] (in the studio,
//! its worker), changed by [`Change`]s and read by [`Question`]s, whose answers (one type
//! for each question) hold what a screen shows, never every document. Everything that crosses is plain data
//! (serde), so the page that renders and the thread that holds a million documents can be
//! two.
//!
//! A [`Host`] numbers its versions: each change that did something is one more, and
//! [`Changed`] says how the documents moved ([`What`]), so that a view knows whether what
//! it was told before still holds. A change that cannot be made ([`ChangeError`]) leaves
//! the workspace as it was.
//!
//! # Examples
//!
//! ```
//! use ravenshard_model::host::question::{BucketDocuments, ListedDocument};
//! use ravenshard_model::host::{Change, Host, What};
//! use ravenshard_model::workspace::Document;
//!
//! let mut host = Host::default();
//! let documents = ["orders/1-A", "orders/2-A$customers/1-A", "customers/1-A"].map(Document::new);
//! let changed = host.apply(Change::Replace { documents: documents.to_vec() })?;
//! assert_eq!((changed.version, changed.what), (1, What::Placed));
//! assert_eq!(changed.summary.totals.placed, 3);
//!
//! let four = ravenshard::Topology::with_shards(4).unwrap().to_json();
//! let database = "Orders".to_string();
//! let changed = host.apply(Change::Configure { configuration: four, database })?;
//! assert_eq!(changed.summary.shards[3].fragment, "Orders$3");
//!
//! let listed = host.answer(&BucketDocuments { bucket: 982173, most: 10 });
//! assert_eq!(listed.total, 2);
//! assert_eq!(listed.items[0], ListedDocument { index: 1, id: "orders/2-A$customers/1-A".into() });
//! # Ok::<(), ravenshard_model::host::ChangeError>(())
//! ```

mod change;
pub mod question;
mod staging;
pub mod wire;

pub use change::{Change, ChangeError, Changed, What};
pub use question::{AnyAnswer, AnyQuestion, Question, MAX_LISTED};
pub use staging::Staging;

use crate::workspace::{
    GroupsRanking, Placement, PlacementChanged, PlacementOptions, RowQuery, RowView, RowsJob,
};
use ravenshard_advise::rewrite_ids;

/// Anchored groups from which the host's worker ranks them in steps after a change
/// ([`Host::rank_groups`]).
pub const RANKED_IN_STEPS_FROM: usize = 20_000;
use ravenshard::Topology;
use ravenshard_design::content::ContentDesign;
use ravenshard_reshard::BucketStatistics;

/// The documents' placement and its version, changed and read as plain data.
#[derive(Debug)]
pub struct Host {
    placement: Placement,
    /// Bucket statistics placed instead of documents (kept apart: a configuration that
    /// cannot place them leaves the placement empty, the next one tries again).
    statistics: Option<BucketStatistics>,
    version: u64,
    /// The documents view's rows made last, at a version: scrolling reads them again.
    rows: Option<(u64, RowQuery, RowView)>,
    /// The documents as the Resharding view's target places them, at a version, for a
    /// target (its JSON) that moves documents to other buckets.
    after: Option<(u64, String, Placement)>,
    /// The documents of a job, placed as they come, until it ends.
    staged: Option<staging::Staged>,
}

impl Default for Host {
    /// No documents, placed by RavenDB's default configuration (3 shards).
    fn default() -> Host {
        let topology = Topology::with_shards(3).expect("3 shards is a valid count");
        Host::new(Placement::new(&[], &topology, &PlacementOptions::default()))
    }
}

impl Host {
    /// A host of `placement`'s documents, at version 0.
    pub fn new(placement: Placement) -> Host {
        Host {
            placement,
            statistics: None,
            version: 0,
            rows: None,
            after: None,
            staged: None,
        }
    }

    /// The placement now.
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// The version now: one more per change that did something.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// What a change at this version told, without a change: the version and summary now.
    pub fn changed(&self, what: What) -> Changed {
        Changed {
            version: self.version,
            what,
            summary: self.placement.summary(),
            rewritten: 0,
            warning: None,
        }
    }

    /// Makes `change`; the workspace is as it was when it fails.
    ///
    /// # Errors
    ///
    /// See [`ChangeError`].
    pub fn apply(&mut self, change: Change) -> Result<Changed, ChangeError> {
        let mut rewritten = 0;
        let mut warning = None;
        let what = match change {
            Change::Replace { documents } => {
                let (topology, options) = (self.placement.topology(), self.placement.options());
                self.placement = Placement::new(&documents, topology, options);
                self.statistics = None;
                What::Placed
            }
            Change::Splice { at, remove, insert } => self.splice(at, remove, &insert)?,
            Change::Configure {
                configuration,
                database,
            } => {
                let mut topology = Topology::from_json(&configuration)
                    .map_err(|e| ChangeError::Configuration(e.to_string()))?;
                topology.set_database(&database);
                let options = options_of(&topology);
                let (what, note) = self.configure(&topology, &options)?;
                warning = note;
                what
            }
            Change::Rewrite { rewrites } => {
                let placement = self
                    .placement
                    .rewritten(|chunk| rewritten += rewrite_ids(chunk, &rewrites) as u64)
                    .map_err(|e| ChangeError::Edit(e.to_string()))?;
                if rewritten == 0 {
                    What::Nothing
                } else {
                    self.placement = placement;
                    What::Placed
                }
            }
            Change::Statistics { names, texts } => {
                let files = names.iter().zip(&texts);
                let files = files.map(|(n, t)| (n.as_str(), t.as_str()));
                let statistics = BucketStatistics::read(files)
                    .map_err(|e| ChangeError::Statistics(e.to_string()))?;
                self.statistics = Some(statistics);
                let (topology, options) = (
                    self.placement.topology().clone(),
                    self.placement.options().clone(),
                );
                warning = self.place_statistics(&topology, &options);
                What::Placed
            }
            Change::Adopt { job, documents } => self.adopt(job, documents)?,
        };
        let mut changed = self.bump(what);
        changed.rewritten = rewritten;
        changed.warning = warning;
        Ok(changed)
    }

    /// One more version when `what` changed something; the summary now. The rows made
    /// last follow an edit or a change of members (O(rows + edited documents)), and are
    /// dropped by anything else.
    fn bump(&mut self, what: What) -> Changed {
        if what == What::Nothing {
            return self.changed(what);
        }
        let before = self.version;
        self.version += 1;
        let made = self.rows.take().filter(|(v, _, _)| *v == before);
        self.rows = made.and_then(|(_, query, rows)| {
            let rows = match what {
                What::Members => rows,
                What::Edited {
                    at,
                    removed,
                    inserted,
                } => {
                    let at = usize::try_from(at).ok()?;
                    let (removed, inserted) = (removed as usize, inserted as usize);
                    let p = &self.placement;
                    p.rows_after_edit(&query, &rows, at, removed, inserted)?
                }
                What::Nothing | What::Placed => return None,
            };
            Some((self.version, query, rows))
        });
        self.changed(what)
    }

    /// A job that ranks the anchored groups a step at a time
    /// ([`GroupsRanking`]; [`step_ranking`](Self::step_ranking) runs it), when they are
    /// [`RANKED_IN_STEPS_FROM`] or more and not ranked yet: the studio's worker runs it
    /// after a change, so that the first question that reads a rank (the groups, a row's
    /// group) finds the order made instead of sorting every group at once (about 125 ms
    /// for the 400,000 groups of ten million generated documents). Fewer groups are sorted
    /// in a few milliseconds when first read.
    pub fn rank_groups(&self) -> Option<GroupsRanking> {
        let p = &self.placement;
        let many = p.group_count() >= RANKED_IN_STEPS_FROM;
        (many && !p.groups_ranked()).then(|| p.rank_groups())
    }

    /// Runs `job` for about `work` groups; `true` once the order is made (or the documents
    /// changed under the job: its end).
    pub fn step_ranking(&self, job: &mut GroupsRanking, work: usize) -> bool {
        job.step(&self.placement, work)
    }

    /// Whether the rows of `query` are at hand: made at this version, or needing no pass
    /// over the documents ([`Placement::rows_at_hand`]). Else answering
    /// [`Rows`](question::Rows) is a pass over every document, which the studio's worker makes a
    /// step at a time ([`rows_job`](Self::rows_job)).
    pub fn rows_at_hand(&self, query: &RowQuery) -> bool {
        self.rows_made(query) || self.placement.rows_at_hand(query)
    }

    fn rows_made(&self, query: &RowQuery) -> bool {
        matches!(&self.rows, Some((v, q, _)) if *v == self.version && q == query)
    }

    /// A job that makes the rows of `query` a step at a time; [`step_rows`](Self::step_rows)
    /// runs it.
    pub fn rows_job(&self, query: &RowQuery) -> RowsJob {
        self.placement.rows_job(query)
    }

    /// Runs `job` for about `work` documents; `true` once its rows are made, kept for the
    /// questions of rows of its query at this version.
    ///
    /// # Errors
    ///
    /// [`PlacementChanged`] when the documents changed under the job (a change of the
    /// configuration that keeps their number is not seen: compare the versions).
    pub fn step_rows(&mut self, job: &mut RowsJob, work: usize) -> Result<bool, PlacementChanged> {
        match job.step(&self.placement, work)? {
            Some(rows) => {
                self.rows = Some((self.version, job.query().clone(), rows));
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn splice(
        &mut self,
        at: u64,
        remove: u64,
        insert: &[crate::workspace::Document],
    ) -> Result<What, ChangeError> {
        let too_far = || {
            ChangeError::Edit(format!(
                "documents {at} to {} are not in the workspace of {} documents",
                at.saturating_add(remove),
                self.placement.len()
            ))
        };
        let start = usize::try_from(at).map_err(|_| too_far())?;
        let end = usize::try_from(at.saturating_add(remove)).map_err(|_| too_far())?;
        if end > self.placement.len() {
            return Err(too_far());
        }
        if self.statistics.take().is_some() {
            // Typed documents replace bucket statistics: placed anew.
            let (topology, options) = (self.placement.topology(), self.placement.options());
            self.placement = Placement::new(insert, topology, options);
            return Ok(What::Placed);
        }
        if remove == 0 && insert.is_empty() {
            return Ok(What::Nothing);
        }
        self.placement
            .splice(start..end, insert)
            .map_err(|e| ChangeError::Edit(e.to_string()))?;
        Ok(What::Edited {
            at,
            removed: remove,
            inserted: insert.len() as u64,
        })
    }

    /// Places the documents (or the statistics) by `topology` with `options`; a warning
    /// when statistics cannot be placed by it.
    fn configure(
        &mut self,
        topology: &Topology,
        options: &PlacementOptions,
    ) -> Result<(What, Option<String>), ChangeError> {
        if self.statistics.is_some() {
            let same = self.placement.topology() == topology && self.placement.options() == options;
            if same {
                return Ok((What::Nothing, None));
            }
            return Ok((What::Placed, self.place_statistics(topology, options)));
        }
        Ok((self.follow(topology, options)?, None))
    }

    /// The documents follow `topology` and `options`: members alone set in place, else
    /// [`Placement::reconfigure`] (in place when it can be, no ID hashed again; else
    /// placed again).
    fn follow(
        &mut self,
        topology: &Topology,
        options: &PlacementOptions,
    ) -> Result<What, ChangeError> {
        let p = &self.placement;
        let same_options = p.options() == options;
        if same_options && p.topology() == topology {
            return Ok(What::Nothing);
        }
        if same_options && only_members_differ(p.topology(), topology) {
            for shard in topology.shards() {
                self.placement
                    .set_members(shard.number, shard.members.clone());
            }
            return Ok(What::Members);
        }
        self.placement
            .reconfigure(topology, options)
            .map_err(|e| ChangeError::Edit(e.to_string()))?;
        Ok(What::Placed)
    }

    /// The statistics held, placed by `topology`: an empty placement and why when it
    /// cannot place them.
    fn place_statistics(
        &mut self,
        topology: &Topology,
        options: &PlacementOptions,
    ) -> Option<String> {
        let statistics = self.statistics.as_ref()?;
        match Placement::from_statistics(statistics, topology, options) {
            Ok(p) => {
                self.placement = p;
                None
            }
            Err(e) => {
                self.placement = Placement::new(&[], topology, options);
                Some(format!(
                    "The configuration in force cannot place the bucket statistics, so the \
                     views are empty: {e}"
                ))
            }
        }
    }

    /// Answers `question` from the placement now.
    pub fn answer<Q: Question>(&mut self, question: &Q) -> Q::Answer {
        question.answer(self)
    }

    /// The rows of `query`: the ones made last when they are of it at this version (taken
    /// out: [`keep_rows`](Self::keep_rows) puts them back), else made now.
    fn take_rows(&mut self, query: &RowQuery) -> RowView {
        let made = self.rows.take();
        let made = made.filter(|(v, q, _)| *v == self.version && q == query);
        made.map(|(_, _, view)| view)
            .unwrap_or_else(|| self.placement.rows(query))
    }

    /// Keeps `view`, the rows of `query` at this version, for the next window of them.
    fn keep_rows(&mut self, query: RowQuery, view: RowView) {
        self.rows = Some((self.version, query, view));
    }
}

/// The placement options a configuration implies: the draft chapter's design when it has
/// a `ByContent` section.
pub fn options_of(topology: &Topology) -> PlacementOptions {
    PlacementOptions {
        design: ContentDesign::from_topology(topology).ok().flatten(),
        ..PlacementOptions::default()
    }
}

/// Whether `new` is `old` with other member nodes only (no document moves).
fn only_members_differ(old: &Topology, new: &Topology) -> bool {
    let mut same = new.clone();
    for shard in old.shards() {
        if !same.set_members(shard.number, shard.members.clone()) {
            return false;
        }
    }
    same == *old
}
