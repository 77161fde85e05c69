//! Sample data: the chapter's examples and the generated database.

use ravenshard::{bucket_for, check_id};
use ravenshard_model::sample::{
    chapter_examples, Counts, Generator, SampleError, COMPANY_SHARE, EMPLOYEE_SHARE, MAX_DOCUMENTS,
};
use ravenshard_model::workspace::Document;
use std::collections::{HashMap, HashSet};

fn generate(documents: usize, anchored_share: f64, seed: u64) -> Vec<Document> {
    Generator {
        documents,
        anchored_share,
        seed,
    }
    .generate()
    .unwrap()
}

fn collection_counts(documents: &[Document]) -> HashMap<&str, usize> {
    let mut counts = HashMap::new();
    for d in documents {
        *counts.entry(d.collection.as_deref().unwrap()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn chapter_examples_are_the_seeds() {
    let examples = chapter_examples();
    let ids: Vec<&str> = examples.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "orders/1-A",
            "customers/1-A",
            "orders/2-A$customers/1-A",
            "customers/6-A",
            "customers/2-B",
            "customers/741135-C",
            "Users/4",
            "Users/70$Users/4",
            "Users/71$Users/4",
            "Users/72$Users/4",
            "Users/1$foo",
            "Users/2$foo",
        ]
    );
    for d in &examples {
        check_id(&d.id).unwrap();
        let expected = match d.id.split('/').next().unwrap() {
            "orders" => "Orders",
            "customers" => "Customers",
            _ => "Users",
        };
        assert_eq!(d.collection.as_deref(), Some(expected), "{}", d.id);
        assert!((100..=10_000).contains(&d.size.unwrap()), "{}", d.id);
    }
    assert_eq!(
        bucket_for("orders/2-A$customers/1-A"),
        bucket_for("customers/1-A")
    );
    for anchored in ["Users/70$Users/4", "Users/71$Users/4", "Users/72$Users/4"] {
        assert_eq!(bucket_for(anchored), bucket_for("Users/4"));
    }
    assert_eq!(bucket_for("Users/1$foo"), bucket_for("Users/2$foo"));
}

#[test]
fn counts_per_collection_are_roughly_right() {
    let n = 100_000;
    let documents = generate(n, 0.3, 42);
    assert_eq!(documents.len(), n);
    let counts = collection_counts(&documents);
    assert_eq!(counts.len(), 3);
    let companies = counts["Companies"];
    let employees = counts["Employees"];
    let orders = counts["Orders"];
    assert_eq!(companies, (n as f64 * COMPANY_SHARE) as usize);
    assert_eq!(employees, (n as f64 * EMPLOYEE_SHARE) as usize);
    assert_eq!(orders, n - companies - employees);
    // IDs match their collections and are numbered 1..=count in HiLo style.
    for (prefix, count) in [
        ("companies/", companies),
        ("employees/", employees),
        ("orders/", orders),
    ] {
        let numbers: HashSet<usize> = documents
            .iter()
            .filter(|d| d.id.starts_with(prefix))
            .map(|d| {
                let head = d.id.split('$').next().unwrap();
                let number = head
                    .strip_prefix(prefix)
                    .unwrap()
                    .strip_suffix("-A")
                    .unwrap();
                number.parse().unwrap()
            })
            .collect();
        assert_eq!(numbers, (1..=count).collect(), "{prefix}");
    }
}

#[test]
fn sizes_are_plausible() {
    for d in generate(20_000, 0.5, 3) {
        let size = d.size.unwrap();
        let range = match d.collection.as_deref().unwrap() {
            "Orders" => 1000..=3000,
            "Companies" => 500..=1000,
            "Employees" => 1000..=2000,
            other => panic!("unexpected collection {other}"),
        };
        assert!(range.contains(&size), "{} has {size} bytes", d.id);
    }
}

#[test]
fn anchored_share_is_exact_up_to_rounding() {
    for share in [0.0, 0.1, 0.3, 0.5, 0.77, 1.0] {
        let documents = generate(10_000, share, 9);
        let orders: Vec<&Document> = documents
            .iter()
            .filter(|d| d.collection.as_deref() == Some("Orders"))
            .collect();
        let anchored = orders.iter().filter(|d| d.id.contains('$')).count();
        let expected = (orders.len() as f64 * share).round() as usize;
        assert_eq!(anchored, expected, "share {share}");
        assert!((anchored as f64 / orders.len() as f64 - share).abs() < 0.001);
    }
}

#[test]
fn anchored_orders_are_spread_over_the_orders() {
    // Selection sampling picks at random, not the first or last orders.
    let documents = generate(10_000, 0.5, 11);
    let orders: Vec<&Document> = documents
        .iter()
        .filter(|d| d.collection.as_deref() == Some("Orders"))
        .collect();
    let half = orders.len() / 2;
    let first = orders[..half].iter().filter(|d| d.id.contains('$')).count();
    let second = orders[half..].iter().filter(|d| d.id.contains('$')).count();
    assert!(
        first.abs_diff(second) < orders.len() / 20,
        "{first} vs {second}"
    );
}

#[test]
fn share_zero_and_one() {
    let none = generate(5000, 0.0, 1);
    assert!(none.iter().all(|d| !d.id.contains('$')));
    let all = generate(5000, 1.0, 1);
    assert!(all
        .iter()
        .filter(|d| d.collection.as_deref() == Some("Orders"))
        .all(|d| d.id.contains("$companies/")));
}

#[test]
fn every_id_is_valid_and_anchored_orders_share_their_companys_bucket() {
    let documents = generate(50_000, 0.6, 5);
    let companies: HashSet<&str> = documents
        .iter()
        .filter(|d| d.id.starts_with("companies/"))
        .map(|d| d.id.as_str())
        .collect();
    let mut anchored = 0;
    for d in &documents {
        check_id(&d.id).unwrap();
        if let Some((order, company)) = d.id.split_once('$') {
            anchored += 1;
            assert!(order.starts_with("orders/"), "{}", d.id);
            assert!(
                companies.contains(company),
                "{} names a missing company",
                d.id
            );
            assert_eq!(bucket_for(&d.id), bucket_for(company), "{}", d.id);
        }
    }
    assert!(anchored > 25_000);
}

#[test]
fn some_companies_have_many_orders() {
    let documents = generate(200_000, 1.0, 8);
    let mut per_company: HashMap<&str, usize> = HashMap::new();
    for d in &documents {
        if let Some((_, company)) = d.id.split_once('$') {
            *per_company.entry(company).or_insert(0) += 1;
        }
    }
    let orders = collection_counts(&documents)["Orders"];
    let companies = collection_counts(&documents)["Companies"];
    let mut sizes: Vec<usize> = per_company.values().copied().collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mean = orders / companies;
    // The biggest company has far more than the mean, and the top 1% of companies hold a
    // large share of the orders (Zipf with exponent 1 over 10,000 companies: about 50%).
    assert!(sizes[0] > 100 * mean, "biggest {} vs mean {mean}", sizes[0]);
    let top: usize = sizes[..companies / 100].iter().sum();
    assert!(top * 10 > orders * 4, "top 1% hold {top} of {orders}");
    // The biggest companies are not simply the first ones created.
    let biggest = per_company
        .iter()
        .max_by_key(|(_, &n)| n)
        .map(|(c, _)| *c)
        .unwrap();
    assert_ne!(biggest, "companies/1-A");
}

#[test]
fn deterministic_for_a_seed() {
    assert_eq!(generate(10_000, 0.4, 123), generate(10_000, 0.4, 123));
    assert_ne!(generate(10_000, 0.4, 123), generate(10_000, 0.4, 124));
    // Pinned: the output must not change across platforms or releases by accident.
    let pinned = generate(300, 1.0, 2024);
    let got: Vec<(&str, u64)> = pinned[14..22]
        .iter()
        .chain(&pinned[295..])
        .map(|d| (d.id.as_str(), d.size.unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            ("companies/15-A", 596),
            ("employees/1-A", 1438),
            ("employees/2-A", 1278),
            ("employees/3-A", 1443),
            ("orders/1-A$companies/3-A", 2428),
            ("orders/2-A$companies/14-A", 1675),
            ("orders/3-A$companies/10-A", 1981),
            ("orders/4-A$companies/6-A", 1899),
            ("orders/278-A$companies/7-A", 1974),
            ("orders/279-A$companies/7-A", 1813),
            ("orders/280-A$companies/2-A", 2087),
            ("orders/281-A$companies/3-A", 2348),
            ("orders/282-A$companies/14-A", 1994),
        ]
    );
}

#[test]
fn zero_and_tiny_databases() {
    assert_eq!(generate(0, 0.5, 1), vec![]);
    let one = generate(1, 1.0, 1);
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].id, "companies/1-A");
    let two = generate(2, 1.0, 1);
    assert_eq!(two[1].id, "orders/1-A$companies/1-A");
    for n in 0..50 {
        let documents = generate(n, 0.5, n as u64);
        assert_eq!(documents.len(), n);
        for d in &documents {
            if let Some((_, company)) = d.id.split_once('$') {
                assert!(documents.iter().any(|c| c.id == company), "{}", d.id);
            }
        }
    }
}

#[test]
fn counts_match_generate() {
    let generator = Generator {
        documents: 12_345,
        anchored_share: 0.25,
        seed: 0,
    };
    let counts = generator.counts().unwrap();
    assert_eq!(
        counts,
        Counts {
            companies: 617,
            employees: 123,
            orders: 11_605,
            anchored: 2901,
        }
    );
    let documents = generator.generate().unwrap();
    let by_collection = collection_counts(&documents);
    assert_eq!(by_collection["Companies"], counts.companies);
    assert_eq!(by_collection["Employees"], counts.employees);
    assert_eq!(by_collection["Orders"], counts.orders);
    assert_eq!(
        documents.iter().filter(|d| d.id.contains('$')).count(),
        counts.anchored
    );
}

#[test]
fn out_of_range_inputs_are_clear_errors() {
    for share in [-0.01, 1.01, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let error = Generator {
            documents: 10,
            anchored_share: share,
            seed: 0,
        }
        .generate()
        .unwrap_err();
        assert!(
            matches!(error, SampleError::BadAnchoredShare { .. }),
            "{share}"
        );
        let message = error.to_string();
        assert!(message.contains("from 0 to 1"), "{message}");
    }
    let error = Generator {
        documents: MAX_DOCUMENTS + 1,
        ..Generator::default()
    }
    .generate()
    .unwrap_err();
    assert_eq!(
        error,
        SampleError::TooManyDocuments {
            requested: MAX_DOCUMENTS + 1,
            max: MAX_DOCUMENTS
        }
    );
    assert!(error.to_string().contains("10000000"), "{error}");
}

#[test]
fn a_million_documents_is_quick() {
    let start = std::time::Instant::now();
    let documents = generate(1_000_000, 0.5, 77);
    let elapsed = start.elapsed();
    assert_eq!(documents.len(), 1_000_000);
    // Generous for debug builds; release takes a fraction of this.
    assert!(elapsed.as_secs() < 20, "{elapsed:?}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// The studio's worker makes a generation a batch at a time (`documents_iter`, taken
    /// `by_ref().take(n)` per batch): whatever the chunk sizes, the chunks put together are
    /// the whole generation, and `made` counts what was taken.
    #[test]
    fn chunks_of_any_size_make_the_whole_generation(
        documents in 0usize..4000,
        anchored_share in 0.0f64..=1.0,
        seed in proptest::prelude::any::<u64>(),
        sizes in proptest::collection::vec(1usize..700, 1..12),
    ) {
        let generator = Generator { documents, anchored_share, seed };
        let whole = generator.generate().unwrap();
        let mut made = generator.documents_iter().unwrap();
        proptest::prop_assert_eq!(made.total(), documents);
        let mut chunks: Vec<Document> = Vec::new();
        for size in sizes.iter().cycle() {
            let chunk: Vec<Document> = made.by_ref().take(*size).collect();
            if chunk.is_empty() {
                break;
            }
            proptest::prop_assert!(chunk.len() <= *size);
            chunks.extend(chunk);
            proptest::prop_assert_eq!(made.made(), chunks.len());
        }
        proptest::prop_assert_eq!(chunks, whole);
    }
}
