//! Writing documents in the line format (`id<TAB>size<TAB>collection<TAB>body`), as the
//! studio's saved parts hold them: each document checked (`Document::line_problem`) and
//! written (`Document::write_line`).
//!
//! Run: `cargo bench -p ravenshard-model --bench lines`; add `--profile web` for the
//! studio's size-optimised build (opt-level "z"), where the check's searches cost most.
//! The documents are 1,000,000 generated ones (bodies for the orders), about 66 MB of lines.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ravenshard_model::sample::Generator;
use ravenshard_model::workspace::Document;
use std::hint::black_box;

/// The lines of `documents`, as the studio's saved parts write them.
fn write(documents: &[Document], out: &mut String) {
    out.clear();
    for document in documents {
        if document.line_problem().is_none() {
            document.write_line(out);
            out.push('\n');
        }
    }
}

fn bench_lines(c: &mut Criterion) {
    let generator = Generator {
        documents: 1_000_000,
        ..Default::default()
    };
    let documents = generator
        .generate()
        .expect("the default generator's settings");
    let mut out = String::new();
    write(&documents, &mut out);
    let mut group = c.benchmark_group("lines");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(out.len() as u64));
    group.bench_function("write 1,000,000 generated documents", |b| {
        b.iter(|| {
            write(black_box(&documents), &mut out);
            out.len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_lines);
criterion_main!(benches);
