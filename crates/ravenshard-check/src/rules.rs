//! Every rule `check` applies: its name, the feature as RavenDB's documentation names it,
//! what to do instead, and where the rule comes from. `docs/check.md` lists the same rules
//! (a test keeps the two in step).

use crate::finding::{Finding, Location, Severity};
use std::borrow::Cow;

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Its stable name (`index.rolling-deployment`).
    pub name: &'static str,
    /// The feature.
    pub feature: &'static str,
    /// What to do instead, in general; a finding may say more.
    pub instead: &'static str,
    /// The RavenDB documentation page or server source.
    pub source: &'static str,
}

impl Rule {
    /// A finding of this rule.
    pub(crate) fn finding(
        &self,
        severity: Severity,
        location: Location,
        detail: impl Into<String>,
    ) -> Finding {
        Finding {
            rule: Cow::Borrowed(self.name),
            severity,
            feature: Cow::Borrowed(self.feature),
            location,
            detail: detail.into(),
            instead: self.instead.to_string(),
            source: Cow::Borrowed(self.source),
            share: None,
        }
    }
}

const UNSUPPORTED: &str = "ravendb/docs docs/sharding/unsupported.mdx";

macro_rules! rules {
    ($($id:ident = $name:literal, $feature:literal, $instead:literal, $source:expr;)*) => {
        $(
            #[doc = concat!("`", $name, "`: ", $feature, ".")]
            pub const $id: Rule = Rule { name: $name, feature: $feature, instead: $instead, source: $source };
        )*
        /// Every rule, in the order `docs/check.md` lists them.
        pub const ALL: &[Rule] = &[$($id),*];
    };
}

rules! {
    ROLLING_DEPLOYMENT = "index.rolling-deployment", "Rolling index deployment",
        "Set the index's DeploymentMode to Parallel (and the settings Indexing.Static.DeploymentMode and Indexing.Auto.DeploymentMode to Parallel) before sharding.",
        "ravendb/ravendb src/Raven.Client/ServerWide/DatabaseRecord.cs (InitializeRollingDeployment: \"Rolling index deployment for a sharded database is currently not supported\"); ravendb/docs docs/sharding/unsupported.mdx";
    INDEX_LOAD = "index.load-document", "Loading a document that resides on another shard (indexing)",
        "Keep each loaded document on its loader's shard: anchor the loader's ID to it (orders/1-A$companies/7-A) or put both under one prefix; else copy the loaded fields into the document.",
        "ravendb/docs docs/sharding/indexing.mdx, docs/sharding/unsupported.mdx";
    OUTPUT_REDUCE = "index.output-reduce-to-collection", "Outputting map-reduce results to a collection",
        "Remove OutputReduceToCollection (and PatternForOutputReduceToCollectionReferences) and query the map-reduce index itself.",
        "ravendb/ravendb sharded index creation: \"Index with output reduce to collection is not supported in sharding.\"; ravendb/docs docs/sharding/unsupported.mdx";
    CUSTOM_SORTER = "index.custom-sorter", "Custom sorters",
        "Remove the sorter and order by an indexed field (a computed field in the index, if need be).",
        "ravendb/ravendb sharded admin sorters handler: \"Custom sorting is not supported in sharding as of yet\"; ravendb/docs docs/sharding/unsupported.mdx";
    MULTI_MAP = "index.multi-map", "Multi-map index under the draft's content-based sharding",
        "Under the draft design, give the index its own ByContent rule (or declare it in Indexes with source collections that share one rule) so its queries can be routed by content.",
        "ravenshard docs/design.md (the draft chapter's ByContent routing); shipped RavenDB 7.x sends every index query to all shards";
    MAP_NOT_CHECKED = "index.not-checked", "Index map ravenshard cannot fully read",
        "Check the map by hand against docs/sharding/indexing.mdx, or write the loaded ID as a field of the document (LoadDocument(o.Company, \"Companies\")).",
        UNSUPPORTED;
    QUERY_LOAD = "query.load", "Loading a document that resides on another shard (querying)",
        "Keep each loaded document on its loader's shard (anchor or prefix), or copy the loaded fields into the document; a load of a document on another shard returns null.",
        "ravendb/docs docs/sharding/querying.mdx, docs/sharding/unsupported.mdx";
    MAP_REDUCE_PROJECTION_LOAD = "query.load-in-map-reduce-projection", "Loading a document within a map-reduce projection",
        "Load the documents in a second query, or store what the projection needs in the reduce result.",
        "ravendb/docs docs/sharding/querying.mdx (Loading a document within a projection)";
    STREAM_INCLUDE_LOAD = "query.stream-include-load", "Includes and loads in streamed queries",
        "Stream without include or load, and load the related documents in batches afterwards.",
        "ravendb/ravendb src/Raven.Server/Documents/Sharding/Queries/ShardedQueryStreamProcessor.cs (\"Includes and Loads are not supported in sharded streaming queries\")";
    STREAM_MAP_REDUCE = "query.stream-map-reduce", "Streaming map-reduce results",
        "Page through the map-reduce index with an ordinary query instead of streaming it.",
        "ravendb/ravendb src/Raven.Server/Documents/Sharding/Queries/ShardedQueryStreamProcessor.cs (\"MapReduce is not supported in sharded streaming queries\": every streamed map-reduce query, where docs/sharding/querying.mdx names only ordering by non-key fields; the server wins)";
    PATCH_LIMIT = "query.limit-in-patch-or-delete", "Querying with limit in patch/delete by query operations",
        "Drop the limit: select the documents by a condition, or patch them in batches by ID.",
        "ravendb/docs docs/sharding/unsupported.mdx (NotSupportedInShardingException)";
    ORDER_BY_SCORE = "query.order-by-score", "OrderByScore",
        "Order by a field; a score is computed per shard and cannot be compared across shards.",
        "ravendb/ravendb sharded query sorting: \"Ordering by score is not supported in sharding\"; ravendb/docs docs/sharding/unsupported.mdx";
    ORDER_BY_DISTANCE = "query.order-by-distance-map-reduce", "OrderByDistance on a map-reduce index",
        "Order by distance on a map index, or sort the reduce results in the client.",
        UNSUPPORTED;
    CUSTOM_SORT = "query.custom-sort", "Ordering by a custom sorter",
        "Order by an indexed field.",
        "ravendb/ravendb sharded query: \"Custom sorting is not supported in sharding as of yet\"";
    MORE_LIKE_THIS = "query.more-like-this", "MoreLikeThis", "Run the similarity search outside RavenDB, or on a non-sharded copy.", UNSUPPORTED;
    HIGHLIGHT = "query.highlight", "Highlighting", "Highlight the matched text in the client.", UNSUPPORTED;
    INTERSECT = "query.intersect", "Intersection", "Split the query, or index the combined condition as one field.", UNSUPPORTED;
    ALL_SHARDS = "query.all-shards", "Query sent to every shard",
        "Query by id(), or (under the draft design) by the fields of a ByContent rule, to reach one shard; else expect each query to cost one request per shard.",
        "ravendb/docs docs/sharding/querying.mdx; ravenshard route (docs/design.md)";
    DEEP_PAGING = "query.deep-paging", "Paging across shards",
        "Page by a condition on the sort key (where Key > last) instead of a large offset.",
        "ravendb/docs docs/sharding/querying.mdx (Paging), docs/sharding/overview.mdx";
    QUERY_NOT_CHECKED = "query.not-checked", "Query ravenshard cannot read",
        "Check the query by hand against docs/sharding/querying.mdx.",
        "ravendb/docs docs/sharding/querying.mdx";
    SNAPSHOT_BACKUP = "task.snapshot-backup", "Snapshot backups (and restore from a snapshot)",
        "Use BackupType Backup (a logical backup); a sharded database is restored from logical backups only.",
        "ravendb/ravendb sharded backup configuration: \"Backups of type 'Snapshot' are not supported in sharding.\"; ravendb/docs docs/sharding/backup-and-restore/backup.mdx";
    QUEUE_ETL = "task.queue-etl", "Queue ETL (Kafka, RabbitMQ, Azure Queue Storage, Amazon SQS)",
        "Keep the queue ETL on a non-sharded database fed by external replication, or send the messages from the application.",
        "ravendb/ravendb sharded queue ETL handlers: \"Queue ETLs are currently not supported in sharding\"; ravendb/docs docs/sharding/unsupported.mdx";
    QUEUE_SINK = "task.queue-sink", "Queue sink", "Consume the queue in the application and write the documents through the client.", UNSUPPORTED;
    PULL_REPLICATION = "task.hub-sink-replication", "Hub/sink (and filtered) replication",
        "Use external replication (which sharding supports), without filtering.",
        "ravendb/ravendb sharded pull replication handlers (\"... Pull Replication is not supported in sharding\"); ravendb/docs docs/sharding/unsupported.mdx";
    POSTGRESQL = "task.postgresql", "PostgreSQL protocol integration", "Read the data through RavenDB's client or an ETL instead of the PostgreSQL protocol.", UNSUPPORTED;
    AI_TASK = "task.ai", "GenAI and AI agents",
        "Keep the AI tasks on a non-sharded database.",
        "ravendb/ravendb sharded AI handlers (\"AI Agent is currently not supported in sharding\", \"AI ETLs are currently not supported in sharding\"); ravendb/docs docs/sharding/unsupported.mdx";
    MENTOR_NODE = "task.mentor-node", "Choosing a mentor node for an ongoing task",
        "Remove MentorNode (and PinToMentorNode): each shard picks the node that runs its part of the task.",
        "ravendb/ravendb sharded ongoing tasks: \"Choosing a mentor node for an ongoing task is not supported in sharding\"";
    ETL_RESEND = "task.etl-resharding", "ETL and resharding",
        "Make the destination tolerate a document sent twice (upsert by ID; OLAP: deduplicate by lastModified).",
        "ravendb/docs docs/sharding/etl.mdx (ETL and Resharding)";
    ETL_LOAD = "task.etl-load", "Loading a document in an ETL script",
        "Keep the loaded documents on the shard of the document the script transforms (anchor or prefix).",
        "ravendb/docs docs/sharding/etl.mdx (ETL Queries)";
    REVISIONS_SUBSCRIPTIONS = "task.revisions-subscriptions", "Data subscriptions on revisions",
        "Subscribe to the documents, not their revisions.",
        UNSUPPORTED;
    CLIENT_FEATURES = "features.client-side", "Operations the record does not show",
        "Search the application for these calls before sharding.",
        UNSUPPORTED;
    CROSS_SHARD_LOADS = "data.cross-shard-loads", "Loads of documents on another shard, in the data",
        "Anchor the loading documents to the document they load, or shard both collections by one prefix.",
        "ravendb/docs docs/sharding/indexing.mdx, docs/sharding/administration/anchoring-documents.mdx";
    CONTROL_CHARACTERS = "data.control-character-id", "IDs with control characters",
        "Rename the documents before importing them: a database created by RavenDB 7.x refuses such IDs.",
        "ravendb/ravendb DatabaseRecord SupportedFeatures ThrowControlCharactersInIdentifier; ravenshard docs/rules.md";
    EMPTY_ANCHOR = "data.empty-anchor-id", "IDs ending in '$'",
        "Put the anchor's ID after the '$' (orders/1-A$companies/7-A); every ID ending in '$' shares one bucket.",
        "ravenshard docs/rules.md (the anchor: the text after the last '$')";
    OBESE_BUCKET = "data.obese-bucket", "Obese buckets",
        "Anchor fewer documents to one document, or split the group over several anchors: a bucket moves between shards as one unit.",
        "ravendb/docs docs/sharding/administration/anchoring-documents.mdx; ravenshard report";
    PREFIX_AT_CREATION = "data.prefix-at-creation", "Prefixes of the intended sharding",
        "Create the database with these prefixes: RavenDB refuses to add a prefix while documents with it exist, or to remove one that documents use.",
        "ravendb/ravendb ShardingStore (prefix rules); ravendb/docs docs/sharding/administration/sharding-by-prefix.mdx";
    REMOVE_SHARD_WITH_BUCKETS = "sharding.remove-shard-with-buckets", "Removing a shard that holds buckets",
        "Move the shard's buckets first (ravenshard plan or balance, then RavenDB's resharding), then remove it.",
        "ravendb/ravendb ShardingStore (a shard is removed only once it holds no bucket); ravenshard docs/resharding.md";
    PREFIX_CHANGE_WITH_DOCUMENTS = "sharding.prefix-change-with-documents", "Adding or removing a prefix that documents use",
        "Keep the prefix set as it is, or move the documents to IDs without (or with) the prefix first.",
        "ravendb/ravendb ShardingStore (\"There are existing documents in database ... that start with ...\"); ravenshard docs/resharding.md";
    REPLICATION_FACTOR = "licence.replication-factor", "Shard replication on a Developer licence",
        "Give each shard one node on a Developer licence.",
        "ravendb/docs docs/sharding/overview.mdx (Licensing)";
    SHARDS_ON_NODES = "licence.shards-on-one-node", "Shards on several nodes on a Community or Professional licence",
        "Put every shard on the same node, or use an Enterprise licence.",
        "ravendb/docs docs/sharding/overview.mdx (Licensing)";
}
