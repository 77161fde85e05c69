//! The anchored groups of a report against a slow reference count (every anchor's text kept
//! in a map), on a large anchor-heavy input read in parts as the CLI's threads read it, and
//! on any input (proptest).

use proptest::prelude::*;
use ravenshard::{
    anchor_start, check_id, lower_id_with, report, Report, ReportBuilder, ReportOptions, Topology,
};
use std::collections::{BTreeMap, HashSet};

/// How many distinct anchors, and the groups listed: anchor, count, members, whether the
/// anchor is a document, bucket.
#[derive(Debug, PartialEq)]
struct AnchorGroupCheck {
    count: u64,
    listed: Vec<(String, u64, Vec<String>, bool, u32)>,
}

/// The anchored groups as the reference counts them: for each lowered anchor its count, its
/// first members, the first member's bucket; the anchor documents are the lowered
/// unanchored IDs. The largest first, then by anchor.
fn reference(
    ids: &[&str],
    topology: Option<&Topology>,
    options: &ReportOptions,
) -> AnchorGroupCheck {
    let version = topology.map(Topology::server_version).unwrap_or_default();
    let mut groups: BTreeMap<String, (u64, Vec<String>, u32)> = BTreeMap::new();
    let mut documents = HashSet::new();
    for &id in ids {
        if check_id(id).is_err() {
            continue;
        }
        let lower = lower_id_with(id, version).into_owned();
        let start = anchor_start(lower.as_bytes());
        if start == 0 {
            documents.insert(lower);
            continue;
        }
        let bucket = match topology {
            Some(t) => t.bucket_for(id),
            None => ravenshard::bucket_for_with(id, version),
        };
        let group = groups.entry(lower[start..].to_string()).or_insert((
            0,
            Vec::new(),
            bucket.unwrap_or_default(),
        ));
        group.0 += 1;
        if group.1.len() < options.members_per_group {
            group.1.push(id.to_string());
        }
    }
    let count = groups.len() as u64;
    let mut listed: Vec<(String, u64, Vec<String>, bool, u32)> = groups
        .into_iter()
        .map(|(anchor, (n, members, bucket))| {
            let is_document = documents.contains(&anchor);
            (anchor, n, members, is_document, bucket)
        })
        .collect();
    listed.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    listed.truncate(options.top_groups);
    AnchorGroupCheck { count, listed }
}

/// The report's groups in the reference's form.
fn groups_of(r: &Report) -> AnchorGroupCheck {
    AnchorGroupCheck {
        count: r.anchored_group_count,
        listed: r
            .anchored_groups
            .iter()
            .map(|g| {
                (
                    g.anchor.clone(),
                    g.count,
                    g.members.clone(),
                    g.anchor_is_document,
                    g.bucket,
                )
            })
            .collect(),
    }
}

/// The report of `ids` read as the CLI reads a file: cut at `cuts` into parts, each part's
/// builder counting its buckets into one of `threads` counts, merged in order; then each
/// pass of the listing over the same parts, merged in order.
fn by_parts(
    ids: &[&str],
    cuts: &[usize],
    threads: usize,
    t: Option<&Topology>,
    options: &ReportOptions,
) -> Report {
    let mut ends: Vec<usize> = cuts.iter().map(|&c| c.min(ids.len())).collect();
    ends.push(ids.len());
    ends.sort_unstable();
    let parts: Vec<&[&str]> = ends
        .iter()
        .scan(0, |from, &to| {
            let part = &ids[*from..to];
            *from = to;
            Some(part)
        })
        .collect();
    let mut whole = ReportBuilder::new(t, options.clone());
    let mut counts: Vec<ReportBuilder> = (0..threads).map(|_| whole.part()).collect();
    for (n, part) in parts.iter().enumerate() {
        let mut builder = whole.part();
        part.iter().for_each(|id| builder.add(id));
        if let Some(counts) = counts.get_mut(n % threads) {
            builder.move_counts_to(counts);
        }
        whole.merge(builder);
    }
    counts.into_iter().for_each(|c| whole.merge(c));
    let mut listing = whole.listing();
    while let Some(wanted) = listing.wanted() {
        for part in &parts {
            // As lines of text (some with a size, some ending in `\r\n`) on odd counts of
            // "threads", an ID at a time on even ones.
            if threads % 2 == 1 {
                let mut text = String::new();
                for (i, id) in part.iter().enumerate() {
                    text += id;
                    text += ["\n", "\t12\r\n", "\r\n"][i % 3];
                }
                listing.add(wanted.look_at_lines(text.as_bytes()));
                continue;
            }
            let mut found = wanted.found();
            for id in part.iter() {
                // The filter on bytes never drops a line the full look wants.
                if wanted.may_want(id.as_bytes()) {
                    wanted.look(&mut found, id);
                }
            }
            listing.add(found);
        }
        listing.end_pass();
    }
    whole.finish(listing)
}

/// A large anchor-heavy input: skewed and uniform anchors, anchors written in other cases
/// and with non-ASCII letters (one that lowers to ASCII), anchor documents before and after
/// their groups, invalid IDs, and many groups tied at the smallest counts.
fn large_input() -> Vec<String> {
    let mut ids = Vec::new();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for k in 0..2_000 {
        ids.push(format!("Customers/{k}-A"));
    }
    for i in 0..200_000u64 {
        let id = match next(10) {
            0..=2 => {
                // Skewed: small numbers far more often.
                let most = next(30_000) + 1;
                format!("orders/{i}-A$customers/{}-a", next(most))
            }
            3 | 4 => format!("Invoices/{i}$CUSTOMERS/{}-A", next(50_000)),
            5 => format!("lines/{i}$kunden/{}-É", next(700)),
            6 => format!("x/{i}$\u{212A}unden/{}", next(300)),
            7 if i % 1000 == 7 => String::new(),
            7 => format!("kunden/{}-é", next(700)),
            _ => format!("orders/{i}-A"),
        };
        ids.push(id);
    }
    // A run of members of one group, written the same way line after line (the second
    // pass counts them without hashing each), some of them too long to be IDs.
    for j in 0..3_000 {
        match j % 500 {
            499 => ids.push(format!("run/{}$Customers/7-A", "x".repeat(600))),
            _ => ids.push(format!("run/{j}$Customers/7-A")),
        }
    }
    for k in 0..300 {
        ids.push(format!("kunden/{k}"));
    }
    ids
}

#[test]
fn a_large_anchor_heavy_input_reports_the_reference_groups_whatever_the_parts() {
    let input = large_input();
    let ids: Vec<&str> = input.iter().map(String::as_str).collect();
    let prefixed = r#"{"Shards": {"0": {}, "1": {}, "2": {}},
        "Prefixed": [{"Prefix": "invoices/", "Shards": [2], "BucketRangeStart": 1048576}]}"#;
    let prefixed = Topology::from_json(prefixed).expect("a prefixed configuration");
    let three = Topology::with_shards(3).expect("three shards");
    for (topology, top, members) in [(&three, 10, 20), (&prefixed, 100, 3), (&three, 5_000, 1)] {
        let options = ReportOptions {
            top_groups: top,
            members_per_group: members,
            ..ReportOptions::default()
        };
        let topology = Some(topology);
        let expected = reference(&ids, topology, &options);
        let whole = report(ids.iter().copied(), topology, &options);
        assert_eq!(groups_of(&whole), expected, "top {top}");
        // Blocks of about 1 MB as the CLI cuts them, on 1, 2 and 3 threads.
        let cuts: Vec<usize> = (1..8).map(|i| i * 25_000 + 17).collect();
        for threads in [1, 3] {
            let parts = by_parts(&ids, &cuts, threads, topology, &options);
            assert_eq!(parts, whole, "top {top}, {threads} threads");
        }
    }
}

/// Every anchor used once: all groups tie, and the listed ones are those first by text.
#[test]
fn groups_tied_at_one_document_are_listed_by_their_anchor() {
    let input: Vec<String> = (0..20_000)
        .map(|i| format!("o/{i}$c/{}", (i * 7919) % 20_000))
        .collect();
    let ids: Vec<&str> = input.iter().map(String::as_str).collect();
    let options = ReportOptions::default();
    let r = report(ids.iter().copied(), None, &options);
    assert_eq!(groups_of(&r), reference(&ids, None, &options));
    assert_eq!(r.anchored_groups[0].anchor, "c/0");
    assert_eq!(r.anchored_groups[1].anchor, "c/1");
    assert_eq!(r.anchored_groups[2].anchor, "c/10");
}

/// Short IDs over a tiny alphabet, so that anchors, anchor documents and invalid (empty)
/// IDs are frequent, some longer than the eight bytes the second pass's tags compare.
fn report_id() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        // The Kelvin sign lowers to ASCII `k`, `İ` stays: the second pass's filter must not
        // miss them.
        "(|(customer)?[AaÉéK\\x{212A}İ\\x01$]{1,3}(\\$(CUSTOMER)?[AaÉéK\\x{212A}İ\\x01]{1,3})?)",
    )
    .expect("valid regex")
}

proptest! {
    // Each report scans its 2^20 bucket counters: fewer cases keep the debug build quick.
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn merged_parts_report_the_reference_groups(
        ids in proptest::collection::vec(report_id(), 0..120),
        cuts in proptest::collection::vec(0usize..120, 0..4),
        threads in 1usize..3,
        top in 0usize..6,
        members in 0usize..3,
        shards in proptest::option::of(1u32..5),
    ) {
        let topology = shards.map(|n| Topology::with_shards(n).expect("valid shard count"));
        let options = ReportOptions { top_groups: top, members_per_group: members, max_invalid: 3, ..ReportOptions::default() };
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let whole = report(ids.iter().copied(), topology.as_ref(), &options);
        prop_assert_eq!(groups_of(&whole), reference(&ids, topology.as_ref(), &options));
        prop_assert_eq!(by_parts(&ids, &cuts, threads, topology.as_ref(), &options), whole);
    }
}

proptest! {
    // Each report scans its 2^20 bucket counters: fewer cases keep the debug build quick.
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// The fullest buckets (ties by the lowest bucket), the obese ones and the documents per
    /// shard are those of the IDs' buckets counted one by one.
    #[test]
    fn the_report_lists_the_fullest_buckets_and_the_documents_per_shard(
        ids in proptest::collection::vec(report_id(), 0..150),
        top in 0usize..6,
        threshold in 0u64..4,
        shards in 1u32..5,
    ) {
        let topology = Topology::with_shards(shards).expect("valid shard count");
        let options = ReportOptions {
            top_buckets: top,
            obese_threshold: Some(threshold),
            ..ReportOptions::default()
        };
        let r = report(ids.iter().map(String::as_str), Some(&topology), &options);
        let mut per_bucket: std::collections::BTreeMap<u32, u64> = Default::default();
        for id in &ids {
            if let Ok(located) = topology.locate(id) {
                *per_bucket.entry(located.bucket).or_default() += 1;
            }
        }
        let mut fullest: Vec<(u32, u64)> = per_bucket.iter().map(|(&b, &n)| (b, n)).collect();
        fullest.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let obese = fullest.iter().filter(|(_, n)| *n > threshold).count();
        let listed: Vec<(u32, u64)> = r.top_buckets.iter().map(|b| (b.bucket, b.documents)).collect();
        prop_assert_eq!(&listed[..], &fullest[..top.min(fullest.len())]);
        prop_assert!(r.top_buckets.iter().all(|b| b.shard == topology.shard_for_bucket(b.bucket)));
        prop_assert_eq!(r.buckets_used, per_bucket.len() as u64);
        prop_assert_eq!(r.obese_bucket_count, obese as u64);
        prop_assert_eq!(r.obese_buckets.len(), obese.min(listed.len()));
        for shard in &r.shards {
            let on: u64 = per_bucket
                .iter()
                .filter(|(&b, _)| topology.shard_for_bucket(b) == Some(shard.shard))
                .map(|(_, &n)| n)
                .sum();
            prop_assert_eq!(shard.documents, on);
        }
    }
}
