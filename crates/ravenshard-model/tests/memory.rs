//! What a chunked build of a placement holds at its peak, per document beyond the IDs'
//! bytes, counted by a global allocator: the page's import places IDs this way
//! (web/src/components/bulk.rs), and wasm memory only grows, so the peak is what the page
//! keeps (issue 11: at most 64 bytes per document beyond its ID).
//!
//! `cargo test --release -p ravenshard-model --test memory -- --ignored --nocapture` prints
//! the figures at 1,000,000 and 10,000,000 IDs.

use ravenshard::Topology;
use ravenshard_model::workspace::{Document, Placement, PlacementBuilder, PlacementOptions};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Counts the bytes allocated now and at the peak.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// One measure at a time (the tests of this file run on several threads).
static ONE: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The file's IDs, as the bench's (`orders/{i}-A`).
fn id(i: usize) -> String {
    format!("orders/{i}-A")
}

/// What the placement of `n` IDs held: `(peak, after)` bytes per document beyond the IDs'
/// bytes, over a build as the page's import does it (reserved from the estimate, a batch
/// of documents at a time, packed in steps) and its first read of the views.
fn import(n: usize) -> (f64, f64) {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let id_bytes: usize = (0..n).map(|i| id(i).len()).sum();
    let topology = Topology::with_shards(3).unwrap();
    let start = NOW.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let mut builder = PlacementBuilder::new(&topology, &PlacementOptions::default());
    builder.reserve(n + n / 20, id_bytes + id_bytes / 20);
    let mut batch: Vec<Document> = Vec::with_capacity(32_768);
    for first in (0..n).step_by(32_768) {
        batch.clear();
        batch.extend((first..n.min(first + 32_768)).map(|i| Document::new(id(i))));
        for step in batch.chunks(2_000) {
            builder.push(step).unwrap();
        }
    }
    drop(batch);
    while !builder.pack_step(16_384) {}
    let placement: Placement = builder.finish();
    assert_eq!(placement.totals().placed, n as u64);
    let _ = (placement.shards(), placement.histogram(0, 1 << 20, 1_000));
    let per = |bytes: usize| (bytes - start) as f64 / n as f64 - id_bytes as f64 / n as f64;
    let after = per(NOW.load(Ordering::Relaxed));
    (per(PEAK.load(Ordering::Relaxed)), after)
}

/// The bound: at most this many bytes per document beyond its ID.
const BOUND: f64 = 64.0;

/// What the page holds beyond a native build of 1,000,000 IDs, per document: the worker's
/// batches in flight and decoded, and the room its estimate of the file reserves beyond
/// the IDs read (measured: 70.5 bytes in the page against 61.3 here before the staging
/// shrank, 58.5 against 51.8 after). The native peak must leave it room.
const PAGE: f64 = 8.0;

#[test]
fn the_peak_grows_by_at_most_64_bytes_a_document_beyond_the_id() {
    // The fixed costs (the per-bucket tables: 2^20 buckets) cancel out in the difference.
    let (small, large) = (100_000, 400_000);
    let (peak_small, _) = import(small);
    let (peak_large, _) = import(large);
    let marginal = (peak_large * large as f64 - peak_small * small as f64) / (large - small) as f64;
    assert!(marginal <= BOUND, "{marginal:.1} bytes a document");
}

#[test]
fn the_peak_at_a_million_ids_leaves_the_page_room_under_64_bytes_a_document() {
    // The fixed costs count here: 4 bytes a bucket staged while the IDs are placed, about
    // 4 a document at this size.
    let (peak, _) = import(1_000_000);
    assert!(peak + PAGE <= BOUND, "{peak:.1} bytes a document");
}

/// `cargo test --release -p ravenshard-model --test memory -- --ignored --nocapture`
#[test]
#[ignore]
fn figures_at_scale() {
    for n in [1_000_000, 10_000_000] {
        let (peak, after) = import(n);
        println!("{n} IDs: peak {peak:.1} B per document beyond its ID, {after:.1} after");
        assert!(peak + PAGE <= BOUND, "{n} IDs: {peak:.1} bytes a document");
    }
}
