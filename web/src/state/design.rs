//! The draft chapter's design in the studio: the content rules of the configuration in
//! force, the query router's query and route, the transaction check's IDs and the
//! LoadDocument check.
//!
//! Everything here is computed by the core (`ravenshard_design::content`,
//! `ravenshard_design::route`, `ravenshard_design::locality`) when its inputs change, and kept
//! behind `Rc` for the views.

use ravenshard::Topology;
use ravenshard_design::content::ContentDesign;
use ravenshard_design::locality::{check_load, check_transaction, LoadCheck, TransactionCheck};
use ravenshard_design::route::{route_text, Route};
use std::rc::Rc;
use yew::Reducible;

/// The query the router opens with (the chapter's).
pub const DEFAULT_QUERY: &str = "from Orders where Customer = 'customers/1-A'";

/// The IDs the transaction check opens with (the chapter's anchored order and customer).
pub const DEFAULT_TRANSACTION: &str = "orders/2-A$customers/1-A\ncustomers/1-A";

/// The most IDs a transaction check takes.
pub const MAX_TRANSACTION_IDS: usize = 1_000;

/// The most buckets of a route the bucket map marks.
pub const MAX_MARKED: usize = 10_000;

/// The buckets of a route's intervals for the bucket map to mark: all of them up to
/// [`MAX_MARKED`], else evenly spread samples (every interval's first bucket included).
pub fn marked_buckets(route: &Route) -> Vec<u32> {
    let total: u64 = route.buckets.iter().map(|&(s, e)| u64::from(e - s)).sum();
    let step = total.div_ceil(MAX_MARKED as u64).max(1) as u32;
    route
        .buckets
        .iter()
        .flat_map(|&(start, end)| (start..end).step_by(step as usize))
        .take(MAX_MARKED + route.buckets.len())
        .collect()
}

/// What the user does in the Queries and Content views; `Configure` comes from the
/// studio's state when the configuration in force changes.
#[derive(Debug, Clone, PartialEq)]
pub enum DesignAction {
    /// The query router's RQL.
    SetQuery(String),
    /// The transaction check's IDs, one per line.
    SetTransactionIds(String),
    /// The LoadDocument check: a document, and the document its index loads.
    SetLoadCheck {
        /// The indexed document's ID.
        document: String,
        /// The loaded document's ID.
        related: String,
    },
    /// The configuration in force (its `ByContent` rules are the design).
    Configure(Rc<Topology>),
}

/// The design's part of the studio's state.
#[derive(Debug, Clone)]
pub struct DesignState {
    topology: Rc<Topology>,
    design: Option<Rc<ContentDesign>>,
    query: String,
    route: Rc<Result<Route, String>>,
    marked: Rc<Vec<u32>>,
    transaction_ids: String,
    transaction: Rc<TransactionCheck>,
    load: (String, String),
    load_check: Rc<Result<LoadCheck, String>>,
}

/// The design of a configuration: `None` when it has no `ByContent` (or rules the studio
/// would not have applied: [`read_configuration`](super::read_configuration) checks them).
fn design_of(topology: &Topology) -> Option<Rc<ContentDesign>> {
    ContentDesign::from_topology(topology)
        .ok()
        .flatten()
        .map(Rc::new)
}

impl DesignState {
    /// The state for the configuration in force: its design, the chapter's query,
    /// transaction and LoadDocument check.
    pub fn new(topology: Rc<Topology>) -> DesignState {
        let mut state = DesignState {
            design: design_of(&topology),
            transaction: Rc::new(check_transaction::<&str>(&[], &topology, None)),
            topology,
            query: DEFAULT_QUERY.to_string(),
            route: Rc::new(Err(String::new())),
            marked: Rc::default(),
            transaction_ids: DEFAULT_TRANSACTION.to_string(),
            load: ("Users/70".to_string(), "Users/4".to_string()),
            load_check: Rc::new(Err(String::new())),
        };
        state.refresh();
        state
    }

    /// The configuration the design, routes and checks are of.
    pub fn topology(&self) -> &Rc<Topology> {
        &self.topology
    }

    /// The design in force, `None` when the configuration has no `ByContent`.
    pub fn design(&self) -> Option<&Rc<ContentDesign>> {
        self.design.as_ref()
    }

    /// The router's query.
    pub fn query(&self) -> &str {
        &self.query
    }

    fn apply(&mut self, action: DesignAction) {
        match action {
            DesignAction::SetQuery(query) => {
                if query != self.query {
                    self.query = query;
                    self.refresh_route();
                }
            }
            DesignAction::SetTransactionIds(text) => {
                if text != self.transaction_ids {
                    self.transaction_ids = text;
                    self.refresh_transaction();
                }
            }
            DesignAction::SetLoadCheck { document, related } => {
                self.load = (document, related);
                self.refresh_load();
            }
            DesignAction::Configure(topology) => {
                self.design = design_of(&topology);
                self.topology = topology;
                self.refresh();
            }
        }
    }

    /// Where the query goes, or why it cannot be read.
    pub fn route(&self) -> Rc<Result<Route, String>> {
        Rc::clone(&self.route)
    }

    /// Routes the query and checks the transaction and the load again: the topology or the
    /// design changed.
    fn refresh(&mut self) {
        self.refresh_route();
        self.refresh_transaction();
        self.refresh_load();
    }

    /// Routes the query (and marks its buckets) again.
    fn refresh_route(&mut self) {
        let design = self.design.as_deref();
        self.route =
            Rc::new(route_text(&self.query, &self.topology, design).map_err(|e| e.to_string()));
        self.marked = Rc::new(match &*self.route {
            Ok(route) => marked_buckets(route),
            Err(_) => Vec::new(),
        });
    }

    /// The buckets the route can reach, for the bucket map to mark (see [`marked_buckets`]).
    pub fn marked(&self) -> Rc<Vec<u32>> {
        Rc::clone(&self.marked)
    }

    /// The transaction check's IDs, one per line.
    pub fn transaction_ids(&self) -> &str {
        &self.transaction_ids
    }

    /// What a transaction over those documents would be.
    pub fn transaction(&self) -> Rc<TransactionCheck> {
        Rc::clone(&self.transaction)
    }

    /// Checks the transaction's IDs (one per line; blank lines skipped; at most
    /// [`MAX_TRANSACTION_IDS`]).
    fn refresh_transaction(&mut self) {
        let ids: Vec<&str> = self
            .transaction_ids
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.trim().is_empty())
            .take(MAX_TRANSACTION_IDS)
            .collect();
        let design = self.design.as_deref();
        self.transaction = Rc::new(check_transaction(&ids, &self.topology, design));
    }

    /// The LoadDocument check's document and related document IDs.
    pub fn load(&self) -> (&str, &str) {
        (&self.load.0, &self.load.1)
    }

    /// Whether an index of the document can load the related one, or why it cannot be said.
    pub fn load_check(&self) -> Rc<Result<LoadCheck, String>> {
        Rc::clone(&self.load_check)
    }

    fn refresh_load(&mut self) {
        let (document, related) = (self.load.0.trim(), self.load.1.trim());
        self.load_check = Rc::new(if document.is_empty() || related.is_empty() {
            Err(String::new())
        } else {
            check_load(document, related, &self.topology, self.design.as_deref())
                .map_err(|e| e.to_string())
        });
    }
}

impl Reducible for DesignState {
    type Action = DesignAction;

    fn reduce(self: Rc<Self>, action: DesignAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
