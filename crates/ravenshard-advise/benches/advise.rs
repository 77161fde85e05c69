//! The advisor on a 1,000,000-document export.
//!
//! Run: `cargo bench -p ravenshard-advise --bench advise`. The export is a gzip-compressed
//! `.ravendbdump` of 50,000 companies, 50,000 products and 900,000 orders naming a company
//! (Zipf-like, top level) and two products (nested in `Lines`), with a workload of two
//! queries and one load; the advisor reads it in the importer's chunks and scores every
//! candidate of every collection (target: at most 10 s natively).

use criterion::{criterion_group, criterion_main, Criterion};
use flate2::write::GzEncoder;
use flate2::Compression;
use ravenshard::Topology;
use ravenshard_advise::{advise, Workload};
use std::hint::black_box;
use std::io::Write;
use std::time::Duration;

const COMPANIES: usize = 50_000;
const PRODUCTS: usize = 50_000;
const ORDERS: usize = 900_000;

/// A company by a Zipf-like draw: `i`'s company is `COMPANIES^(u^2)` for a spread `u`.
fn company(i: usize) -> usize {
    let u = (i.wrapping_mul(2_654_435_761) % 1_000_003) as f64 / 1_000_003.0;
    ((COMPANIES as f64).powf(u * u) as usize).clamp(1, COMPANIES)
}

fn export() -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    let mut write = |text: String| gz.write_all(text.as_bytes()).expect("writing to a Vec");
    write(r#"{"BuildVersion":62000,"Docs":["#.to_string());
    for c in 1..=COMPANIES {
        write(format!(
            r#"{{"Name":"Company {c}","Address":{{"City":"City {}"}},"@metadata":{{"@collection":"Companies","@id":"companies/{c}-A"}}}},"#,
            c % 500
        ));
    }
    for p in 1..=PRODUCTS {
        write(format!(
            r#"{{"Name":"Product {p}","PricePerUnit":{}.5,"@metadata":{{"@collection":"Products","@id":"products/{p}-A"}}}},"#,
            p % 90
        ));
    }
    for o in 1..=ORDERS {
        let comma = if o < ORDERS { "," } else { "" };
        write(format!(
            r#"{{"Company":"companies/{}-A","Employee":"employees/{}-A","Freight":{}.5,"Lines":[{{"Product":"products/{}-A","Quantity":{}}},{{"Product":"products/{}-A","Quantity":1}}],"@metadata":{{"@collection":"Orders","@id":"orders/{o}-A"}}}}{comma}"#,
            company(o),
            o % 9 + 1,
            o % 300,
            o % PRODUCTS + 1,
            o % 12,
            (o * 7) % PRODUCTS + 1,
        ));
    }
    write("]}".to_string());
    gz.finish().expect("writing to a Vec")
}

fn bench(c: &mut Criterion) {
    let export = export();
    let topology = Topology::with_shards(3).expect("3 shards");
    let workload = Workload::parse(
        "from Orders where id() = 'orders/1-A'\nfrom Orders where Company = 'companies/1-A'",
        "Orders.Company",
    )
    .expect("a valid workload");
    let mut group = c.benchmark_group("advise");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));
    group.bench_function("1M documents", |b| {
        b.iter(|| advise(black_box(&export), None, &topology, &workload).expect("advice"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
