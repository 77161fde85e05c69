//! The anchored groups a report lists, found again in a second pass over the input.
//!
//! The first pass keeps, per distinct anchor, only its hash, its count and a [`Tag`]. From
//! them [`Listing`] knows which hashes can be among the largest groups: those with more
//! documents than the `top_groups`-th largest count, and those with as many (ties, broken by
//! the anchor's text). A pass over the input ([`Wanted`]) then collects, for those hashes
//! only, the anchors' text, their members, their bucket (the first member's) and whether
//! the anchor is a document. Most lines are dismissed by their tag, without lowering or
//! hashing them. When the ties are many (every anchor used once, say), a first extra pass
//! picks the tied anchors that come first by their text.

use super::tag::Tag;
use super::{text, AnchorGroup, HashIsKey};
use crate::bucket::with_lowered_bytes;
use crate::{anchor_start, bucket_of_hash, check_id, hash_of_key, ServerVersion, Topology};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// More tied hashes than this are narrowed down by an extra pass (see the module).
const MOST_TIES: usize = 4096;

type Hashes = HashSet<u64, BuildHasherDefault<HashIsKey>>;

/// The part of an ID (as written, or lowered) whose lowered form is hashed: after its last
/// `$` at an index greater than 0 (see [`anchor_start`]).
pub(super) fn hashed_part(id: &[u8]) -> &[u8] {
    match memchr::memrchr(b'$', id.get(1..).unwrap_or_default()) {
        Some(at) => id.get(at + 2..).unwrap_or_default(),
        None => id,
    }
}

/// What one pass of the listing looks for.
#[derive(Debug)]
pub struct Wanted<'t> {
    topology: Option<&'t Topology>,
    members_per_group: usize,
    look: Look,
}

#[derive(Debug)]
enum Look {
    /// The `k` tied anchors that come first by their text, among the anchors with these
    /// hashes.
    Choose { ties: Hashes, k: usize },
    /// Everything about the anchors with these hashes, whose tags set `tags`' bits (2^24 of
    /// them, one a tag: 2 MiB, calloc'd, so the pages of bits that are all unset are the
    /// shared zero page and stay in the caches).
    Collect { hashes: Hashes, tags: Vec<u64> },
}

/// A group as a pass found it in one part of the input.
#[derive(Debug)]
struct Listed {
    anchor: String,
    count: u64,
    members: Vec<String>,
    bucket: u32,
}

/// What one pass found in one part of the input; parts add up in input order
/// ([`Listing::add`]).
#[derive(Debug, Default)]
pub struct Found {
    groups: HashMap<u64, Vec<Listed>, BuildHasherDefault<HashIsKey>>,
    /// Lowered unanchored IDs with the hash of a wanted anchor.
    documents: HashSet<String>,
    /// The tied anchors that come first (at most `k`).
    names: BTreeSet<String>,
}

impl<'t> Wanted<'t> {
    fn version(&self) -> ServerVersion {
        self.topology
            .map(Topology::server_version)
            .unwrap_or_default()
    }

    /// Whether `tag` may be wanted.
    fn may_have(tags: &[u64], tag: Tag) -> bool {
        tags.get((tag.0 / 64) as usize)
            .is_some_and(|w| w & (1 << (tag.0 % 64)) != 0)
    }

    /// A first filter on a line of the line format as bytes (without its line end, not
    /// checked as UTF-8): `false` when its ID is surely neither a wanted member nor a wanted
    /// anchor document, decided without reading the line as text.
    pub fn may_want(&self, line: &[u8]) -> bool {
        let id = match memchr::memchr(b'\t', line) {
            Some(tab) => line.get(..tab).unwrap_or_default(),
            None => line,
        };
        let part = hashed_part(id);
        self.may_want_part(part, part.len() < id.len())
    }

    /// [`may_want`](Self::may_want) of a line whose ID's hashed part (as written) is `part`,
    /// after a `$` when `anchored`.
    fn may_want_part(&self, part: &[u8], anchored: bool) -> bool {
        match &self.look {
            Look::Choose { .. } => anchored,
            Look::Collect { tags, .. } => {
                Tag::of_written(part).is_none_or(|tag| Self::may_have(tags, tag))
            }
        }
    }

    /// What this pass finds in a block of whole lines of the line format (as
    /// [`for_each_block`](crate::lines::for_each_block) hands them out), each line's ID
    /// read as [`id_field`](crate::lines::id_field) reads it: the line ends, tabs and `$`
    /// are found in one pass over the block, and only the lines that
    /// [`may_want`](Self::may_want) passes are read as text.
    pub fn look_at_lines(&self, block: &[u8]) -> Found {
        let mut found = self.found();
        let (mut start, mut tab, mut dollar) = (0, None, None);
        // The anchor as written of the last member looked at, and its group: a line anchored
        // to it written the same way (the members of a large group, mostly) is counted
        // without lowering and hashing it again.
        let mut last: Option<(&[u8], (u64, usize))> = None;
        let hits = memchr::memchr3_iter(b'\n', b'\t', b'$', block).chain([block.len()]);
        for at in hits {
            match block.get(at) {
                Some(b'\t') => {
                    tab = tab.or(Some(at));
                    continue;
                }
                Some(b'$') => {
                    if tab.is_none() && at > start {
                        dollar = Some(at);
                    }
                    continue;
                }
                _ => {}
            }
            if start < block.len() || at < block.len() {
                let line = block.get(start..at).unwrap_or_default();
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                let end = tab.map_or(start + line.len(), |tab| tab.min(start + line.len()));
                let from = dollar.map_or(start, |d| d + 1).min(end);
                let part = block.get(from..end).unwrap_or_default();
                if self.may_want_part(part, dollar.is_some()) {
                    let again = match last {
                        Some((written, group)) if dollar.is_some() && written == part => {
                            let id = Written {
                                line,
                                anchor: from - start,
                                end: end - start,
                            };
                            self.count_again(&mut found, group, id)
                        }
                        _ => false,
                    };
                    if !again {
                        let id = std::str::from_utf8(line).map(crate::lines::id_field);
                        let id = id.unwrap_or_default();
                        last = self.look_for(&mut found, id).map(|group| (part, group));
                    }
                }
            }
            (start, tab, dollar) = (at + 1, None, None);
        }
        found
    }

    /// Looks at one more ID (in input order within `found`'s part).
    pub fn look(&self, found: &mut Found, id: &str) {
        self.look_for(found, id);
    }

    /// [`look`](Self::look); the group the ID is a member of (its hash and place among the
    /// groups of that hash), when it is one.
    fn look_for(&self, found: &mut Found, id: &str) -> Option<(u64, usize)> {
        if check_id(id).is_err() {
            return None;
        }
        with_lowered_bytes(id, self.version(), |lower| {
            let start = anchor_start(lower);
            let part = lower.get(start..).unwrap_or_default();
            let hash = hash_of_key(part);
            match &self.look {
                Look::Choose { ties, k } => {
                    if start > 0 && ties.contains(&hash) {
                        add_name(&mut found.names, *k, part);
                    }
                    None
                }
                Look::Collect { hashes, .. } if hashes.contains(&hash) => {
                    if start == 0 {
                        found.documents.insert(text(lower).into_owned());
                        return None;
                    }
                    Some((hash, self.add_member(found, hash, lower, part, id)))
                }
                Look::Collect { .. } => None,
            }
        })
    }

    /// Counts the line's ID (valid or not) in the group at `at` again: it is anchored to the
    /// same anchor, written the same way, as the member before it. Whether it was counted.
    /// Once the group has all its members, a plainly valid ID (see [`Written`]) is counted
    /// without reading the line as text.
    fn count_again(&self, found: &mut Found, (hash, at): (u64, usize), id: Written<'_>) -> bool {
        let group = found
            .groups
            .get_mut(&hash)
            .and_then(|same| same.get_mut(at));
        let Some(group) = group else {
            return false;
        };
        let full = group.members.len() >= self.members_per_group;
        if full && id.plainly_valid() {
            group.count += 1;
            return true;
        }
        let text = std::str::from_utf8(id.line).map(crate::lines::id_field);
        let text = text.unwrap_or_default();
        if check_id(text).is_err() {
            return true;
        }
        group.count += 1;
        if !full {
            group.members.push(text.to_string());
        }
        true
    }

    /// Adds a member to its group (made when new); the group's place among those of `hash`.
    fn add_member(
        &self,
        found: &mut Found,
        hash: u64,
        lower: &[u8],
        part: &[u8],
        id: &str,
    ) -> usize {
        let same = found.groups.entry(hash).or_default();
        if let Some(at) = same.iter().position(|g| g.anchor.as_bytes() == part) {
            if let Some(group) = same.get_mut(at) {
                group.count += 1;
                if group.members.len() < self.members_per_group {
                    group.members.push(id.to_string());
                }
            }
            return at;
        }
        let offset = match self.topology {
            Some(t) if !t.prefixes().is_empty() => t.prefix_block_start(&text(lower)),
            _ => 0,
        };
        let members = match self.members_per_group {
            0 => Vec::new(),
            _ => vec![id.to_string()],
        };
        same.push(Listed {
            anchor: text(part).into_owned(),
            count: 1,
            members,
            bucket: bucket_of_hash(hash) + offset,
        });
        same.len() - 1
    }

    /// What this pass finds in a part of the input, before looking at it.
    pub fn found(&self) -> Found {
        Found::default()
    }
}

/// A line (without its line end) whose anchor, from `anchor` to `end` (the end of its ID),
/// is the anchor of the member before it, written the same way: UTF-8, as that member was.
struct Written<'a> {
    line: &'a [u8],
    anchor: usize,
    end: usize,
}

impl Written<'_> {
    /// Whether the line is surely UTF-8 and its ID valid, told from its bytes: what comes
    /// before the anchor and after the ID is ASCII (so the line is UTF-8), and the ID is not
    /// empty and short enough to be valid whatever it lowers to (see [`check_id`]).
    fn plainly_valid(&self) -> bool {
        let before = self.line.get(..self.anchor);
        let after = self.line.get(self.end..);
        (1..=crate::MAX_ID_BYTES * 2 / 3).contains(&self.end)
            && before.is_some_and(<[u8]>::is_ascii)
            && after.is_some_and(<[u8]>::is_ascii)
    }
}

/// Adds `name` to the `k` names that come first.
fn add_name(names: &mut BTreeSet<String>, k: usize, name: &[u8]) {
    let comes_first = names.len() < k || names.last().is_some_and(|last| name < last.as_bytes());
    let name = text(name);
    if comes_first && !names.contains(name.as_ref()) {
        names.insert(name.into_owned());
        while names.len() > k {
            names.pop_last();
        }
    }
}

/// The groups a report lists, pass by pass (the `report::listing` module says how).
#[derive(Debug)]
pub struct Listing<'t> {
    /// How many distinct anchors there are.
    pub(super) groups: u64,
    /// What the next pass looks for; `None` when the listing is complete.
    wanted: Option<Arc<Wanted<'t>>>,
    /// Hashes that are listed for sure when the tied ones are chosen.
    sure: Vec<(u64, Tag)>,
    found: Found,
}

impl<'t> Listing<'t> {
    /// The listing of at most `top` groups among the anchors `each(f)` gives (`f(hash,
    /// count, tag)`), `groups` of them.
    pub(super) fn plan(
        topology: Option<&'t Topology>,
        top: usize,
        members_per_group: usize,
        groups: u64,
        each: impl Fn(&mut dyn FnMut(u64, u64, Tag)),
    ) -> Listing<'t> {
        let mut listing = Listing {
            groups,
            wanted: None,
            sure: Vec::new(),
            found: Found::default(),
        };
        if top == 0 || groups == 0 {
            return listing;
        }
        // The `top`-th largest count: more is listed for sure, as many is a tie.
        let mut largest = std::collections::BinaryHeap::with_capacity(top.min(1 << 16) + 1);
        each(&mut |_, count, _| {
            largest.push(std::cmp::Reverse(count));
            if largest.len() > top {
                largest.pop();
            }
        });
        let least = match largest.len() < top {
            true => 0,
            false => largest.peek().map_or(0, |r| r.0),
        };
        let (mut sure, mut ties) = (Vec::new(), Vec::new());
        each(&mut |hash, count, tag| match count.cmp(&least) {
            std::cmp::Ordering::Greater => sure.push((hash, tag)),
            std::cmp::Ordering::Equal => ties.push((hash, tag)),
            std::cmp::Ordering::Less => {}
        });
        let k = top.saturating_sub(sure.len());
        let look = if ties.len() <= k.max(MOST_TIES) {
            sure.append(&mut ties);
            collect(&sure)
        } else {
            Look::Choose {
                ties: ties.iter().map(|&(hash, _)| hash).collect(),
                k,
            }
        };
        listing.sure = sure;
        listing.wanted = Some(Arc::new(Wanted {
            topology,
            members_per_group,
            look,
        }));
        listing
    }

    /// What the next pass over the input looks for (each of its parts into a
    /// [`Wanted::found`], added in input order with [`add`](Self::add), then
    /// [`end_pass`](Self::end_pass)); `None` when the listing needs no more passes.
    pub fn wanted(&self) -> Option<Arc<Wanted<'t>>> {
        self.wanted.clone()
    }

    /// Adds what a pass found in the part of the input after the parts added so far.
    pub fn add(&mut self, later: Found) {
        let ours = &mut self.found;
        if let Some(Look::Choose { k, .. }) = self.wanted.as_deref().map(|w| &w.look) {
            for name in later.names {
                add_name(&mut ours.names, *k, name.as_bytes());
            }
        }
        let members_per_group = self.wanted.as_ref().map_or(0, |w| w.members_per_group);
        for (hash, groups) in later.groups {
            let same = ours.groups.entry(hash).or_default();
            for group in groups {
                match same.iter_mut().find(|g| g.anchor == group.anchor) {
                    Some(g) => {
                        g.count += group.count;
                        let room = members_per_group.saturating_sub(g.members.len());
                        g.members.extend(group.members.into_iter().take(room));
                    }
                    None => same.push(group),
                }
            }
        }
        ours.documents.extend(later.documents);
    }

    /// Ends a pass: after choosing the tied anchors, the next pass collects the groups.
    pub fn end_pass(&mut self) {
        let Some(wanted) = self.wanted.take() else {
            return;
        };
        if let Look::Choose { .. } = wanted.look {
            let names = std::mem::take(&mut self.found.names);
            let chosen = names
                .iter()
                .map(|n| (hash_of_key(n.as_bytes()), Tag::of_lowered(n.as_bytes())));
            self.sure.extend(chosen);
            self.wanted = Some(Arc::new(Wanted {
                topology: wanted.topology,
                members_per_group: wanted.members_per_group,
                look: collect(&self.sure),
            }));
        }
    }

    /// The groups found, the largest first (then by anchor), at most `top`.
    pub(super) fn groups(self, topology: Option<&Topology>, top: usize) -> Vec<AnchorGroup> {
        let Found {
            groups, documents, ..
        } = self.found;
        let mut listed: Vec<AnchorGroup> = groups
            .into_values()
            .flatten()
            .map(|g| AnchorGroup {
                anchor_is_document: documents.contains(&g.anchor),
                anchor: g.anchor,
                count: g.count,
                members: g.members,
                bucket: g.bucket,
                shard: topology.and_then(|t| t.shard_for_bucket(g.bucket)),
            })
            .collect();
        listed.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.anchor.cmp(&b.anchor)));
        listed.truncate(top);
        listed
    }
}

/// What collects the groups of these hashes.
fn collect(wanted: &[(u64, Tag)]) -> Look {
    let mut tags = vec![0u64; 1 << 18];
    for &(_, tag) in wanted {
        if let Some(w) = tags.get_mut((tag.0 / 64) as usize) {
            *w |= 1 << (tag.0 % 64);
        }
    }
    Look::Collect {
        hashes: wanted.iter().map(|&(hash, _)| hash).collect(),
        tags,
    }
}
