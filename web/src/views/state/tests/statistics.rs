//! A workspace of a cluster's bucket statistics: imported from saved
//! `debug/sharding/buckets` answers, placed by the configuration, shown by the aggregate
//! views with a note, planned and balanced with its ranges moving whole.

use super::*;

/// An answer with ranges `(from, to, shard, docs, bytes)`.
fn answer(ranges: &[(u32, u32, u32, u64, u64)]) -> String {
    let entries: Vec<String> = ranges
        .iter()
        .map(|(from, to, shard, docs, bytes)| {
            format!(
                r#""{from}": {{"RangeSizeHumane": "-", "ShardNumbers": [{shard}],
                "FromBucket": {from}, "ToBucket": {to}, "NumberOfBuckets": 1,
                "RangeSize": {bytes}, "DocumentsCount": {docs},
                "LastModified": "2026-11-20T10:11:12.1234567Z"}}"#
            )
        })
        .collect();
    format!(
        r#"{{"TotalSizeHumane": "-", "TotalSize": 0, "BucketRanges": {{{}}}}}"#,
        entries.join(",")
    )
}

fn imported(state: State, files: &[(&str, String)]) -> State {
    let action = WorkspaceAction::StatisticsImported {
        names: files.iter().map(|(n, _)| n.to_string()).collect(),
        texts: files.iter().map(|(_, t)| t.clone()).collect(),
    };
    workspace(state, action)
}

/// Three shards (0..349525, ..699050, ..2^20): shard 0 full, shard 2 light.
fn three_shards() -> State {
    let s0 = answer(&[(0, 32767, 0, 600, 6000), (32768, 65535, 0, 300, 3000)]);
    let s2 = answer(&[(720896, 720896, 2, 100, 1000)]);
    imported(
        State::default(),
        &[("shard0.json", s0), ("shard2.json", s2)],
    )
}

#[test]
fn importing_statistics_places_them_in_every_aggregate_view() {
    let state = three_shards();
    let p = state.placement();
    assert!(state.workspace().is_empty());
    assert_eq!(p.len(), 0, "no documents, no IDs");
    let docs: Vec<u64> = p.shards().iter().map(|s| s.documents).collect();
    assert_eq!(docs, [900, 0, 100]);
    assert_eq!(p.totals().bytes, 10_000);
    assert_eq!(p.blocks()[0].documents, 1000);
    assert_eq!(p.histogram(0, 1 << 20, 32)[0].documents, 600);
    assert_eq!(p.histogram(0, 1 << 20, 32)[1].documents, 300);
    let notice = state.notices().list().last().unwrap();
    assert!(notice
        .text
        .starts_with("Imported bucket statistics from 2 files: 1000 documents"));
    let map = state.statistics_note(Tab::Map).unwrap();
    assert!(
        map.contains("2 of 3 figures are per range of buckets (up to 32768 buckets)"),
        "{map}"
    );
    let documents = state.statistics_note(Tab::Documents).unwrap();
    assert!(
        documents.contains("bucket statistics, which have no document IDs"),
        "{documents}"
    );
    assert!(state
        .statistics_note(Tab::Groups)
        .unwrap()
        .contains("anchored groups"));
    assert_eq!(state.statistics_note(Tab::Ranges), None);
}

#[test]
fn a_new_configuration_places_the_statistics_again() {
    let state = config(three_shards(), ConfigAction::SetShardCount("2".into()));
    let docs: Vec<u64> = state
        .placement()
        .shards()
        .iter()
        .map(|s| s.documents)
        .collect();
    assert_eq!(docs, [900, 100]);
    assert!(state.placement().statistics().is_some());
}

#[test]
fn the_resharding_view_balances_whole_ranges_and_says_so() {
    let state = view(three_shards(), ViewAction::SelectTab(Tab::Reshard));
    let state = reshard(state, ReshardAction::SetThreshold("0".into()));
    let state = balance(state);
    let view = state.reshard().view().unwrap();
    let plan = view.plan.as_ref().unwrap();
    assert!(plan.docs_moved > 0);
    for m in &plan.moves {
        assert_eq!(m.from_bucket % 32768, 0, "{m:?}");
    }
    assert!(
        plan.notes
            .iter()
            .any(|n| n.contains("figures per range of buckets")),
        "{:?}",
        plan.notes
    );
    let note = state.statistics_note(Tab::Reshard).unwrap();
    assert!(note.contains("a balance moves each range whole"), "{note}");
}

#[test]
fn bad_statistics_leave_the_workspace_unchanged() {
    let before = State::default();
    let count = before.workspace().len();
    let bad = answer(&[(0, 32767, 0, 1, 1)]).replace("\"0\":", "\"5\":");
    let state = imported(before, &[("bad.json", bad)]);
    assert_eq!(state.workspace().len(), count);
    let error = state.workspace().import_error().unwrap();
    assert!(
        error.contains("bad.json at BucketRanges.5: the key is not the range's FromBucket"),
        "{error}"
    );
}

#[test]
fn a_prefix_block_the_configuration_lacks_is_said() {
    let prefixed = answer(&[(1048576, 1048576, 0, 5, 50)]);
    let state = imported(State::default(), &[("eu.json", prefixed)]);
    let last = state.notices().list().last().unwrap();
    assert!(
        last.text
            .contains("no prefix of the database record owns that block"),
        "{}",
        last.text
    );
    assert_eq!(state.placement().totals().placed, 0);
}

#[test]
fn typing_documents_replaces_the_statistics() {
    let state = workspace(
        three_shards(),
        WorkspaceAction::SetText("orders/1-A\n".into()),
    );
    assert!(state.workspace().statistics().is_none());
    assert!(state.placement().statistics().is_none());
    assert_eq!(state.placement().totals().placed, 1);
    assert_eq!(state.statistics_note(Tab::Map), None);
}
