//! Importing compressed document lists: what gzip costs on top of parsing.
//!
//! Run: `cargo bench --bench import`. `text/plain` and `text/gzip` read the same 1,000,000
//! `id<TAB>size` lines, uncompressed and gzip-compressed, so their difference is the
//! inflating (and checksumming); `ravendump/gzip` reads a 100,000-document export, fed in
//! the 64 KiB chunks the studio reads files in.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use flate2::write::GzEncoder;
use flate2::Compression;
use ravenshard_import::{import, Format, Importer};
use std::hint::black_box;
use std::io::Write;

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).expect("writing to a Vec");
    encoder.finish().expect("writing to a Vec")
}

fn text_lines() -> Vec<u8> {
    (0..1_000_000)
        .map(|i| format!("orders/{i}-A\t{}\n", i % 5000))
        .collect::<String>()
        .into_bytes()
}

fn export() -> Vec<u8> {
    let mut out = br#"{"BuildVersion":60025,"Docs":["#.to_vec();
    for i in 0..100_000 {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(
            format!(
                r#"{{"Company":"companies/{}-A","Freight":{}.5,"Lines":[{{"Product":"products/{}-A","Quantity":{}}}],"@metadata":{{"@collection":"Orders","@id":"orders/{i}-A","@change-vector":"A:{i}-x"}}}}"#,
                i % 91,
                i % 300,
                i % 77,
                i % 12
            )
            .as_bytes(),
        );
    }
    out.extend_from_slice(br#"],"Identities":[]}"#);
    out
}

fn bench_import(c: &mut Criterion) {
    let mut group = c.benchmark_group("import");
    group.sample_size(10);

    let text = text_lines();
    let text_gz = gzip(&text);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("text/plain", |b| {
        b.iter(|| import(black_box(&text), Format::Text).map(|i| i.documents.len()))
    });
    group.bench_function("text/gzip", |b| {
        b.iter(|| import(black_box(&text_gz), Format::Text).map(|i| i.documents.len()))
    });

    let json = export();
    let json_gz = gzip(&json);
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function("ravendump/gzip", |b| {
        b.iter(|| {
            let mut importer = Importer::new(Format::RavenDump, Some(json_gz.len() as u64));
            for chunk in black_box(&json_gz).chunks(64 << 10) {
                importer.push(chunk)?;
            }
            importer.finish().map(|i| i.documents.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_import);
criterion_main!(benches);
