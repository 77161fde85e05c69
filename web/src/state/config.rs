//! The configuration part of the studio's state: the database name, shard count, nodes and
//! replication factor fields, the members of each shard, and the validated [`Topology`] in
//! force (from those fields or from a whole `ShardingConfiguration` JSON).
//!
//! [`ConfigState::revision`] changes whenever a change can move documents (another topology,
//! another database name); member edits keep it, so the studio places the documents again
//! only when it must.

use super::inputs::{parse_database, parse_nodes, parse_replication_factor, parse_shard_count};
use super::inputs::{parse_tags, Field};
use ravenshard::Topology;
use ravenshard_design::content::ContentDesign;
use ravenshard_model::workspace::assign_members;
use std::rc::Rc;
use yew::Reducible;

/// The shard count the studio opens with.
pub const DEFAULT_SHARDS: u32 = 3;
/// The database name the studio opens with (its fragments are `Orders$0`, `Orders$1`...).
pub const DEFAULT_DATABASE: &str = "Orders";
/// The nodes the studio opens with (the chapter's four-node cluster).
pub const DEFAULT_NODES: &str = "A, B, C, D";
/// The replication factor the studio opens with.
pub const DEFAULT_REPLICATION_FACTOR: &str = "2";

/// A configuration JSON that was not applied, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// The core's message.
    pub message: String,
    /// The JSON path of the problem, when known.
    pub path: Option<String>,
}

impl ConfigProblem {
    /// A problem without a JSON path.
    pub fn new(message: impl ToString) -> ConfigProblem {
        ConfigProblem {
            message: message.to_string(),
            path: None,
        }
    }
}

/// A configuration JSON read as the studio applies it: a topology whose content rules (if
/// any) are valid too; else the core's message and JSON path.
pub fn read_configuration(json: &str) -> Result<Topology, ConfigProblem> {
    let topology = Topology::from_json(json).map_err(|e| ConfigProblem {
        message: e.to_string(),
        path: e.path().filter(|p| !p.is_empty()).map(str::to_string),
    })?;
    ContentDesign::from_topology(&topology).map_err(|e| ConfigProblem {
        message: e.to_string(),
        path: e.path().map(str::to_string),
    })?;
    Ok(topology)
}

/// RavenDB's default configuration of `shards` shards, named `database`.
fn default_topology(shards: u32, database: &str) -> Result<Topology, String> {
    let mut topology = Topology::with_shards(shards).map_err(|e| e.to_string())?;
    topology.set_database(database);
    Ok(topology)
}

/// Distinct members of a topology, in order of first appearance, and the largest member
/// count of a shard.
fn nodes_of(topology: &Topology) -> (Vec<String>, usize) {
    let mut nodes: Vec<String> = Vec::new();
    let mut most = 0;
    for shard in topology.shards() {
        most = most.max(shard.members.len());
        for member in &shard.members {
            if !nodes.contains(member) {
                nodes.push(member.clone());
            }
        }
    }
    (nodes, most)
}

/// What the user does to the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigAction {
    /// The database name field (applied only if valid).
    SetDatabase(String),
    /// The shard count field (applied only if valid; replaces a custom configuration).
    SetShardCount(String),
    /// The nodes field (applied only if valid; members are assigned again).
    SetNodes(String),
    /// The replication factor field (applied only if valid; members are assigned again).
    SetReplicationFactor(String),
    /// The members field of one shard (applied only if valid).
    SetMembers {
        /// The shard number.
        shard: u32,
        /// Its member tags, as typed.
        text: String,
    },
    /// Assign members again with RavenDB's algorithm.
    AssignMembers,
    /// Apply a whole RavenDB `ShardingConfiguration` JSON (or database record), if valid.
    SetJson(String),
}

/// The configuration fields and the topology in force.
#[derive(Debug, Clone)]
pub struct ConfigState {
    database: Field<String>,
    shards: Field<u32>,
    nodes: Field<Vec<String>>,
    replication_factor: Field<u32>,
    member_error: Option<String>,
    members_edited: bool,
    custom: bool,
    problem: Option<ConfigProblem>,
    topology: Rc<Topology>,
    revision: u64,
}

impl Default for ConfigState {
    /// 3 shards of database `Orders` on nodes A–D, replication factor 2, members assigned.
    fn default() -> Self {
        let topology = default_topology(DEFAULT_SHARDS, DEFAULT_DATABASE)
            .expect("RavenDB's default configuration of 3 shards is valid");
        let mut config = ConfigState {
            database: Field::new(DEFAULT_DATABASE, DEFAULT_DATABASE.to_string()),
            shards: Field::new(DEFAULT_SHARDS.to_string(), DEFAULT_SHARDS),
            nodes: Field::new(
                DEFAULT_NODES,
                parse_nodes(DEFAULT_NODES).unwrap_or_default(),
            ),
            replication_factor: Field::new(DEFAULT_REPLICATION_FACTOR, 2),
            member_error: None,
            members_edited: false,
            custom: false,
            problem: None,
            topology: Rc::new(topology),
            revision: 0,
        };
        config.assign();
        config
    }
}

/// The configuration's fields of a saved studio (`crate::persist::Saved`), as text.
#[derive(Debug, Clone, Copy)]
pub struct SavedFields<'a> {
    /// The database name.
    pub database: &'a str,
    /// The nodes field.
    pub nodes: &'a str,
    /// The replication factor field.
    pub replication_factor: &'a str,
    /// The `ShardingConfiguration` JSON in force.
    pub config: &'a str,
    /// Whether the configuration was given as JSON.
    pub custom: bool,
}

impl ConfigState {
    /// The configuration a saved studio describes (its fields as saved), or why it cannot
    /// be used.
    pub fn from_saved(saved: SavedFields<'_>) -> Result<ConfigState, String> {
        let mut topology = Topology::from_json(saved.config)
            .map_err(|e| format!("its sharding configuration is invalid ({e})"))?;
        ContentDesign::from_topology(&topology)
            .map_err(|e| format!("its content rules are invalid ({e})"))?;
        let database = parse_database(saved.database)
            .map_err(|e| format!("its database name is invalid ({e})"))?;
        topology.set_database(&database);
        let mut config = ConfigState::default();
        config.database.set(database.clone(), database);
        config.nodes.input(saved.nodes.to_string(), parse_nodes);
        config.set_replication_factor(saved.replication_factor.to_string());
        config.install(topology, saved.custom, false);
        config.members_edited = true;
        Ok(config)
    }

    /// The database name field.
    pub fn database(&self) -> &Field<String> {
        &self.database
    }

    /// The shard count field.
    pub fn shards(&self) -> &Field<u32> {
        &self.shards
    }

    /// The nodes field.
    pub fn nodes(&self) -> &Field<Vec<String>> {
        &self.nodes
    }

    /// The replication factor field.
    pub fn replication_factor(&self) -> &Field<u32> {
        &self.replication_factor
    }

    /// Why members could not be assigned or set.
    pub fn member_error(&self) -> Option<&str> {
        self.member_error.as_deref()
    }

    /// Whether the configuration came from JSON (custom ranges or prefixes possible).
    pub fn custom(&self) -> bool {
        self.custom
    }

    /// Why the last configuration JSON given was not applied.
    pub fn problem(&self) -> Option<&ConfigProblem> {
        self.problem.as_ref()
    }

    /// The topology in force.
    pub fn topology(&self) -> &Rc<Topology> {
        &self.topology
    }

    /// Changes whenever a change can move documents; member edits keep it.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether a share link can carry the configuration as its shard count alone: RavenDB's
    /// default ranges on the default nodes, members as assigned.
    pub fn is_plain(&self) -> bool {
        !self.custom
            && !self.members_edited
            && self.nodes.text() == DEFAULT_NODES
            && self.replication_factor.text() == DEFAULT_REPLICATION_FACTOR
    }

    fn apply(&mut self, action: ConfigAction) {
        match action {
            ConfigAction::SetDatabase(text) => {
                if let Some(name) = self.database.input(text, parse_database) {
                    if name != self.topology.database() {
                        let mut topology = (*self.topology).clone();
                        topology.set_database(name);
                        self.install(topology, self.custom, false);
                    }
                }
            }
            ConfigAction::SetShardCount(text) => self.set_shard_count(text),
            ConfigAction::SetNodes(text) => {
                self.nodes.input(text, parse_nodes);
                self.assign_if_valid();
            }
            ConfigAction::SetReplicationFactor(text) => {
                self.set_replication_factor(text);
                self.assign_if_valid();
            }
            ConfigAction::AssignMembers => self.assign(),
            ConfigAction::SetMembers { shard, text } => self.set_members_text(shard, &text),
            ConfigAction::SetJson(json) => match read_configuration(&json) {
                Ok(mut topology) => {
                    self.problem = None;
                    if topology.database() == ravenshard::DEFAULT_DATABASE {
                        topology.set_database(self.database.value());
                    } else {
                        let name = topology.database().to_string();
                        self.database.set(name.clone(), name);
                    }
                    self.install(topology, true, true);
                }
                Err(problem) => self.problem = Some(problem),
            },
        }
    }

    /// The shard count field: a valid count other than the topology's (or any valid count
    /// over a custom configuration) installs RavenDB's default configuration of that many.
    fn set_shard_count(&mut self, text: String) {
        let (current, custom) = (self.topology.shards().len() as u32, self.custom);
        let database = self.database.value().clone();
        let mut fresh = None;
        self.shards.input(text, |text| {
            let count = parse_shard_count(text)?;
            if count != current || custom {
                fresh = Some(default_topology(count, &database)?);
            }
            Ok(count)
        });
        if let Some(topology) = fresh {
            self.install(topology, false, true);
        }
    }

    /// The replication factor field, read against the nodes in force.
    fn set_replication_factor(&mut self, text: String) {
        let nodes = self.nodes.value().len();
        self.replication_factor
            .input(text, |text| parse_replication_factor(text, nodes));
    }

    /// After a nodes or replication factor edit: the replication factor is read again
    /// against the nodes in force; members are assigned if both fields are valid.
    fn assign_if_valid(&mut self) {
        let nodes = self.nodes.value().len();
        self.replication_factor
            .check(|text| parse_replication_factor(text, nodes));
        if self.nodes.is_valid() && self.replication_factor.is_valid() {
            self.assign();
        }
    }

    /// Assigns members to every shard with RavenDB's algorithm.
    fn assign(&mut self) {
        let numbers: Vec<u32> = self.topology.shards().map(|s| s.number).collect();
        let count = numbers.len() as u32;
        match assign_members(count, self.nodes.value(), *self.replication_factor.value()) {
            Ok(members) => {
                self.member_error = None;
                self.members_edited = false;
                let topology = Rc::make_mut(&mut self.topology);
                for (shard, members) in numbers.into_iter().zip(members) {
                    topology.set_members(shard, members);
                }
            }
            Err(e) => self.member_error = Some(format!("Members not assigned: {e}")),
        }
    }

    /// The members field of one shard: tags, or nothing for a shard without members.
    fn set_members_text(&mut self, shard: u32, text: &str) {
        let members = if text.trim().is_empty() {
            Ok(Vec::new())
        } else {
            parse_tags(text, &format!("Shard {shard}"))
        };
        match members {
            Ok(members) => {
                self.member_error = None;
                self.members_edited = true;
                Rc::make_mut(&mut self.topology).set_members(shard, members);
            }
            Err(e) => self.member_error = Some(e),
        }
    }

    /// Puts a new topology in force. Members: the topology's own when it has any, else
    /// assigned from the nodes field when `assign`.
    fn install(&mut self, topology: Topology, custom: bool, assign: bool) {
        self.custom = custom;
        let count = topology.shards().len() as u32;
        self.shards.set(count.to_string(), count);
        let (nodes, most) = nodes_of(&topology);
        self.topology = Rc::new(topology);
        self.revision += 1;
        if nodes.is_empty() {
            if assign {
                self.assign();
            }
        } else if custom {
            self.nodes.set(nodes.join(", "), nodes);
            self.replication_factor.set(most.to_string(), most as u32);
            self.members_edited = true;
        }
    }
}

impl Reducible for ConfigState {
    type Action = ConfigAction;

    fn reduce(self: Rc<Self>, action: ConfigAction) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}
