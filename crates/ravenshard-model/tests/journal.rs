//! The splices a placement remembers since a mark say exactly which documents are still
//! as they were, and where (proptest against the same edits of a plain list).

use proptest::prelude::*;
use ravenshard::Topology;
use ravenshard_model::workspace::{
    kept_runs, Document, Placement, PlacementOptions, Splice, MAX_SPLICES,
};

/// An edit drawn at random: where (a fraction of the length), how many go, how many come.
#[derive(Debug, Clone)]
struct Step {
    at: f64,
    removed: usize,
    inserted: usize,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = (0.0..=1.0f64, 0..5usize, 0..5usize).prop_map(|(at, removed, inserted)| Step {
        at,
        removed,
        inserted,
    });
    prop::collection::vec(step, 0..24)
}

/// Applies `step` to both: fresh IDs for what comes in, so every ID is unique.
fn apply(step: &Step, placement: &mut Placement, ids: &mut Vec<String>, next: &mut usize) {
    let at = ((ids.len() as f64) * step.at) as usize;
    let end = (at + step.removed).min(ids.len());
    let inserted: Vec<String> = (0..step.inserted)
        .map(|_| {
            *next += 1;
            format!("new/{next}")
        })
        .collect();
    let documents: Vec<Document> = inserted.iter().map(Document::new).collect();
    placement.splice(at..end, &documents).unwrap();
    ids.splice(at..end, inserted);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_kept_runs_are_exactly_the_documents_left_untouched(
        len in 0..40usize,
        before in steps(),
        after in steps(),
    ) {
        let topology = Topology::with_shards(3).unwrap();
        let mut ids: Vec<String> = (0..len).map(|i| format!("old/{i}")).collect();
        let documents: Vec<Document> = ids.iter().map(Document::new).collect();
        let mut placement = Placement::new(&documents, &topology, &PlacementOptions::default());
        let mut next = 0;
        for step in &before {
            apply(step, &mut placement, &mut ids, &mut next);
        }
        let mark = placement.documents_mark();
        let marked = ids.clone();
        for step in &after {
            apply(step, &mut placement, &mut ids, &mut next);
        }
        let splices = placement.splices_since(&mark).expect("the mark is this placement's");
        // Splices inside what the one before inserted are merged into it.
        prop_assert!(splices.len() <= after.len());
        let runs = kept_runs(marked.len(), splices);
        // Each run is the same documents, in the same order, in both lists; the runs are
        // in order and apart.
        let mut covered = 0;
        let (mut old_end, mut new_end) = (0, 0);
        for run in &runs {
            prop_assert!(!run.old.is_empty());
            prop_assert!(run.old.start >= old_end && run.new_start >= new_end);
            let now = &ids[run.new_start..run.new_start + run.old.len()];
            prop_assert_eq!(now, &marked[run.old.clone()]);
            covered += run.old.len();
            (old_end, new_end) = (run.old.end, run.new_start + run.old.len());
        }
        // And every document of the mark still there is in a run.
        let still = ids.iter().filter(|id| marked.contains(id)).count();
        prop_assert_eq!(covered, still);
    }
}

#[test]
fn a_mark_reads_only_its_own_documents() {
    let topology = Topology::with_shards(3).unwrap();
    let documents = [Document::new("orders/1-A"), Document::new("customers/1-A")];
    let options = PlacementOptions::default();
    let mut placement = Placement::new(&documents, &topology, &options);
    let mark = placement.documents_mark();
    // A change of topology or of design keeps the documents, and the mark.
    let five = Topology::with_shards(5).unwrap();
    placement.set_topology(&five).unwrap();
    assert_eq!(placement.splices_since(&mark), Some(&[][..]));
    let again = placement.placed_again(&topology, &options).unwrap();
    assert_eq!(again.splices_since(&mark), Some(&[][..]));
    // A placement built again from the same documents is not the same moment.
    let rebuilt = Placement::new(&documents, &topology, &options);
    assert_eq!(rebuilt.splices_since(&mark), None);
    // Clones edited apart: a mark of one is not a moment of the other.
    let mut left = placement.clone();
    let mut right = placement.clone();
    left.splice(0..1, &[]).unwrap();
    right.splice(1..2, &[]).unwrap();
    assert_eq!(right.splices_since(&left.documents_mark()), None);
    assert_eq!(left.splices_since(&mark).map(<[_]>::len), Some(1));
}

#[test]
fn past_the_most_splices_only_the_older_marks_read_as_unknown() {
    let topology = Topology::with_shards(3).unwrap();
    let options = PlacementOptions::default();
    let mut placement = Placement::new(&[Document::new("orders/1-A")], &topology, &options);
    let first = placement.documents_mark();
    let typed = [Document::new("orders/2-A")];
    // A mark before each splice (a save's): no splice is merged into the one before.
    let mut marks = Vec::new();
    for _ in 0..MAX_SPLICES {
        marks.push(placement.documents_mark());
        placement.splice(0..1, &typed).unwrap();
    }
    assert_eq!(
        placement.splices_since(&first).map(<[_]>::len),
        Some(MAX_SPLICES)
    );
    let last = placement.documents_mark();
    placement.splice(0..1, &typed).unwrap();
    // The older half is forgotten: a mark taken before the splices remembered is unknown,
    // one taken since reads (the last save's, above all).
    let half = MAX_SPLICES / 2;
    assert_eq!(placement.splices_since(&first), None);
    assert_eq!(placement.splices_since(&marks[half - 1]), None);
    assert_eq!(
        placement.splices_since(&marks[half]).map(<[_]>::len),
        Some(half + 1)
    );
    assert_eq!(placement.splices_since(&last).map(<[_]>::len), Some(1));
    // And so on, forever: the last save's mark always reads.
    let mut saved = placement.documents_mark();
    for _ in 0..3 * MAX_SPLICES {
        placement.splice(0..1, &typed).unwrap();
        assert_eq!(placement.splices_since(&saved).map(<[_]>::len), Some(1));
        saved = placement.documents_mark();
    }
    assert_eq!(placement.splices_since(&saved), Some(&[][..]));
}

#[test]
fn typing_into_one_line_makes_one_splice_until_a_mark() {
    let topology = Topology::with_shards(3).unwrap();
    let options = PlacementOptions::default();
    let documents: Vec<Document> = (0..5).map(|i| Document::new(format!("o/{i}"))).collect();
    let mut placement = Placement::new(&documents, &topology, &options);
    let saved = placement.documents_mark();
    // Line 2 typed a character at a time, then a line inserted after it and typed into.
    for id in ["o/2x", "o/2xy", "o/2xyz"] {
        placement.splice(2..3, &[Document::new(id)]).unwrap();
    }
    placement.splice(3..3, &[Document::new("n")]).unwrap();
    placement.splice(3..4, &[Document::new("ne")]).unwrap();
    let merged = Splice {
        at: 2,
        removed: 1,
        inserted: 2,
    };
    assert_eq!(placement.splices_since(&saved), Some(&[merged][..]));
    // A mark keeps the splice before it as it is: the next one is noted apart.
    let between = placement.documents_mark();
    placement.splice(2..3, &[Document::new("o/2")]).unwrap();
    assert_eq!(placement.splices_since(&saved).map(<[_]>::len), Some(2));
    assert_eq!(placement.splices_since(&between).map(<[_]>::len), Some(1));
    // A clone edited apart after a merge is told from the original.
    let mut other = placement.clone();
    other.splice(2..3, &[Document::new("o/2b")]).unwrap();
    placement.splice(2..3, &[Document::new("o/2c")]).unwrap();
    assert_eq!(other.splices_since(&placement.documents_mark()), None);
}
