//! `bucket_for` throughput on short, anchored and non-ASCII IDs, and the bulk text API.
//!
//! Run: `cargo bench --bench bucket`. Each iteration hashes 10,000 IDs, so criterion's
//! throughput line reads directly as IDs per second.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ravenshard::{bucket_for, bulk::buckets_for_lines, Topology};
use std::hint::black_box;

const N: usize = 10_000;

fn ids(kind: &str) -> Vec<String> {
    (0..N)
        .map(|i| match kind {
            "short" => format!("orders/{}-A", 100_000 + i),
            "lower" => format!("orders/{}-a", 100_000 + i),
            "anchored" => format!("orders/{}-A$customers/{}-A", 100_000 + i, i % 977),
            "non-ascii" => format!("Straße/{}-É", 100_000 + i),
            _ => unreachable!("unknown id kind"),
        })
        .collect()
}

fn bench_bucket_for(c: &mut Criterion) {
    let mut group = c.benchmark_group("bucket_for");
    group.throughput(Throughput::Elements(N as u64));
    for kind in ["short", "lower", "anchored", "non-ascii"] {
        let ids = ids(kind);
        group.bench_with_input(BenchmarkId::from_parameter(kind), &ids, |b, ids| {
            b.iter(|| {
                for id in ids {
                    black_box(bucket_for(black_box(id)).ok());
                }
            })
        });
    }
    let topology = Topology::with_shards(3).expect("3 shards are valid");
    let ids = ids("short");
    group.bench_function("locate (3 shards)", |b| {
        b.iter(|| {
            for id in &ids {
                black_box(topology.locate(black_box(id)).ok());
            }
        })
    });
    let text = ids.join("\n");
    group.bench_function("buckets_for_lines", |b| {
        b.iter(|| black_box(buckets_for_lines(black_box(&text), None).ok()))
    });
    group.finish();
}

criterion_group!(benches, bench_bucket_for);
criterion_main!(benches);
