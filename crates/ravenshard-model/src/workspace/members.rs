//! Member nodes for new shards, handed out as the RavenDB server does at database creation.

use std::fmt;

/// Why members cannot be assigned.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MemberError {
    /// No shards were asked for.
    NoShards,
    /// No nodes were given.
    NoNodes,
    /// The replication factor is 0.
    ZeroReplicationFactor,
    /// A node tag is given twice.
    DuplicateNode {
        /// The tag.
        tag: String,
    },
    /// Each shard needs `replication_factor` distinct nodes, but there are fewer nodes.
    ReplicationFactorAboveNodes {
        /// The replication factor asked for.
        replication_factor: u32,
        /// How many nodes there are.
        nodes: usize,
    },
    /// The server's algorithm would loop forever here: every node with copies left to give
    /// already holds the shard. Not reached with a replication factor at most the number of
    /// nodes, as far as tested; kept as a guard.
    Stuck {
        /// The shard that could not be filled.
        shard: u32,
    },
}

impl fmt::Display for MemberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemberError::NoShards => write!(
                f,
                "no shards to assign nodes to. Ask for at least one shard."
            ),
            MemberError::NoNodes => write!(
                f,
                "no nodes to assign to the shards. Give at least one node tag, such as \"A\"."
            ),
            MemberError::ZeroReplicationFactor => write!(
                f,
                "replication factor 0 leaves every shard without nodes. Use at least 1."
            ),
            MemberError::DuplicateNode { tag } => write!(
                f,
                "node '{tag}' is given twice; each node of a cluster has its own tag. Remove \
                 the repeat."
            ),
            MemberError::ReplicationFactorAboveNodes {
                replication_factor,
                nodes,
            } => write!(
                f,
                "replication factor {replication_factor} needs {replication_factor} distinct \
                 nodes per shard, but the cluster has {nodes}. Add nodes or lower the \
                 replication factor to at most {nodes}."
            ),
            MemberError::Stuck { shard } => write!(
                f,
                "shard {shard} cannot get enough distinct nodes: every node with copies left \
                 already holds it (the server would loop forever here). Change the number of \
                 nodes or the replication factor."
            ),
        }
    }
}

impl std::error::Error for MemberError {}

/// The member nodes of `shards` new shards (shard `i` at position `i`), each with
/// `replication_factor` distinct nodes out of `nodes`, exactly as RavenDB 7.x assigns them
/// at database creation (`ShardingStore.FillShardingConfiguration` with
/// `GetNodesDistribution`):
///
/// 1. every node takes `shards × replication_factor / nodes` copies, and the first
///    `shards × replication_factor mod nodes` nodes one more;
/// 2. the nodes are visited round-robin with one counter `i` shared by all shards
///    (`keys[i++ % keys.Count]`); a node with copies left that the shard does not hold yet
///    joins it; a node with no copies left is removed from the list (without moving the
///    counter back, so the next node after it is skipped once).
///
/// Where the server would loop forever (a replication factor above the number of nodes),
/// this returns an error instead.
///
/// The chapter's illustrative table for 4 nodes, 3 shards and replication factor 2 reads
/// "$0: A,B; $1: B,C; $2: A,D"; the server's algorithm gives "$0: A,B; $1: C,A; $2: B,D"
/// (the same load per node, 2-2-1-1, in another arrangement).
///
/// # Examples
///
/// ```
/// use ravenshard_model::workspace::assign_members;
///
/// let nodes = ["A", "B", "C", "D"].map(String::from);
/// let members = assign_members(3, &nodes, 2).unwrap();
/// assert_eq!(members, [["A", "B"], ["C", "A"], ["B", "D"]]);
/// let err = assign_members(3, &nodes[..2], 3).unwrap_err();
/// assert!(err.to_string().starts_with("replication factor 3 needs 3 distinct nodes"));
/// ```
pub fn assign_members(
    shards: u32,
    nodes: &[String],
    replication_factor: u32,
) -> Result<Vec<Vec<String>>, MemberError> {
    if shards == 0 {
        return Err(MemberError::NoShards);
    }
    if nodes.is_empty() {
        return Err(MemberError::NoNodes);
    }
    if replication_factor == 0 {
        return Err(MemberError::ZeroReplicationFactor);
    }
    let repeated = (0..nodes.len()).find(|&k| nodes[..k].contains(&nodes[k]));
    if let Some(k) = repeated {
        return Err(MemberError::DuplicateNode {
            tag: nodes[k].clone(),
        });
    }
    if replication_factor as usize > nodes.len() {
        return Err(MemberError::ReplicationFactorAboveNodes {
            replication_factor,
            nodes: nodes.len(),
        });
    }
    // GetNodesDistribution: copies per node, in cluster order.
    let total = u64::from(shards) * u64::from(replication_factor);
    let count = nodes.len() as u64;
    let per_node = total / count;
    let extra = total - per_node * count;
    let mut pool: Vec<u64> = (0..count)
        .map(|k| per_node + u64::from(k < extra))
        .collect();
    // `keys` holds positions in `nodes`; `i` is the server's shared counter.
    let mut keys: Vec<usize> = (0..nodes.len()).collect();
    let mut i: u64 = 0;
    let mut out = Vec::with_capacity(shards as usize);
    for shard in 0..shards {
        let mut members: Vec<usize> = Vec::with_capacity(replication_factor as usize);
        // Visits since the last change of state; a full lap without one repeats forever.
        let mut idle = 0usize;
        while (members.len() as u64) < u64::from(replication_factor) {
            if keys.is_empty() || idle >= keys.len() {
                return Err(MemberError::Stuck { shard });
            }
            let at = (i % keys.len() as u64) as usize;
            i += 1;
            let tag = keys[at];
            idle += 1;
            if pool[tag] > 0 && !members.contains(&tag) {
                pool[tag] -= 1;
                members.push(tag);
                idle = 0;
            }
            if pool[tag] == 0 {
                keys.remove(at);
                idle = 0;
            }
        }
        out.push(members.into_iter().map(|k| nodes[k].clone()).collect());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(s: &str) -> Vec<String> {
        s.chars().map(String::from).collect()
    }

    #[test]
    fn four_nodes_three_shards_rf2_by_hand() {
        // Pool: 6 copies over 4 nodes = 1 each, A and B one more: A2 B2 C1 D1.
        // $0: i=0 A, i=1 B. $1: i=2 C (C empty, removed: A B D), i=3 -> 3%3=0 A (A empty:
        // B D). $2: i=4 -> 4%2=0 B (B empty: D), i=5 -> 0 D.
        let m = assign_members(3, &tags("ABCD"), 2).unwrap();
        assert_eq!(m, vec![tags("AB"), tags("CA"), tags("BD")]);
    }

    #[test]
    fn replication_factor_equal_to_nodes_gives_every_node_to_every_shard() {
        let m = assign_members(5, &tags("ABC"), 3).unwrap();
        for members in m {
            let mut sorted = members.clone();
            sorted.sort();
            assert_eq!(sorted, tags("ABC"));
        }
    }

    #[test]
    fn errors_say_what_to_do() {
        let err = assign_members(2, &tags("AB"), 3).unwrap_err();
        assert_eq!(
            err,
            MemberError::ReplicationFactorAboveNodes {
                replication_factor: 3,
                nodes: 2
            }
        );
        assert!(err.to_string().contains("Add nodes or lower"));
        assert_eq!(assign_members(0, &tags("A"), 1), Err(MemberError::NoShards));
        assert_eq!(assign_members(1, &[], 1), Err(MemberError::NoNodes));
        assert_eq!(
            assign_members(1, &tags("A"), 0),
            Err(MemberError::ZeroReplicationFactor)
        );
        assert_eq!(
            assign_members(1, &tags("ABA"), 1),
            Err(MemberError::DuplicateNode { tag: "A".into() })
        );
    }

    #[test]
    fn every_shard_gets_distinct_nodes_and_loads_are_even() {
        for nodes in 1..=7usize {
            let all: Vec<String> = (0..nodes).map(|k| format!("N{k}")).collect();
            for rf in 1..=nodes as u32 {
                for shards in 1..=9u32 {
                    let m = assign_members(shards, &all, rf)
                        .unwrap_or_else(|e| panic!("{shards} shards, {nodes} nodes, rf {rf}: {e}"));
                    assert_eq!(m.len(), shards as usize);
                    let mut load = vec![0u32; nodes];
                    for members in &m {
                        assert_eq!(members.len(), rf as usize);
                        for (k, tag) in members.iter().enumerate() {
                            assert!(!members[..k].contains(tag));
                            let at = all.iter().position(|t| t == tag).unwrap();
                            load[at] += 1;
                        }
                    }
                    let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
                    assert!(hi - lo <= 1, "{load:?}");
                }
            }
        }
    }
}
