//! The advisor's known answers: orders referencing companies with a Zipf-like skew.

use ravenshard::Topology;
use ravenshard_advise::{advise, Advice, Candidate, CollectionAdvice, Strategy, Workload};
use ravenshard_import::Format;

/// Orders per company, Zipf-like: company `k` (1-based) gets `orders * k^-s / H` orders
/// (rounded down), the remainder going to the last companies, one each.
fn zipf_counts(companies: usize, orders: usize, s: f64) -> Vec<usize> {
    let weights: Vec<f64> = (1..=companies).map(|k| (k as f64).powf(-s)).collect();
    let h: f64 = weights.iter().sum();
    let mut counts: Vec<usize> = weights
        .iter()
        .map(|w| (orders as f64 * w / h) as usize)
        .collect();
    let mut rest = orders - counts.iter().sum::<usize>();
    for c in counts.iter_mut().rev() {
        if rest == 0 {
            break;
        }
        *c += 1;
        rest -= 1;
    }
    counts
}

/// An NDJSON export: companies, then orders naming them in `Company`.
fn export(counts: &[usize]) -> String {
    let mut text = String::new();
    for c in 1..=counts.len() {
        text += &format!(
            "{{\"Name\": \"Company {c}\", \"@metadata\": {{\"@id\": \"companies/{c}-A\", \"@collection\": \"Companies\"}}}}\n"
        );
    }
    let mut order = 0;
    for (c, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            order += 1;
            text += &format!(
                "{{\"Company\": \"companies/{}-A\", \"Freight\": 12.5, \"@metadata\": {{\"@id\": \"orders/{order}-A\", \"@collection\": \"Orders\"}}}}\n",
                c + 1
            );
        }
    }
    text
}

fn run(text: &str, shards: u32, workload: &Workload) -> Advice {
    let topology = Topology::with_shards(shards).unwrap();
    advise(text.as_bytes(), Some(Format::Ndjson), &topology, workload).unwrap()
}

fn collection<'a>(advice: &'a Advice, name: &str) -> &'a CollectionAdvice {
    advice
        .collections
        .iter()
        .find(|c| c.collection == name)
        .unwrap()
}

fn candidate<'a>(
    c: &'a CollectionAdvice,
    strategy: Strategy,
    field: Option<&str>,
) -> &'a Candidate {
    c.candidates
        .iter()
        .find(|x| x.strategy == strategy && x.field.as_deref() == field)
        .unwrap()
}

#[test]
fn anchors_orders_to_their_company_when_no_group_is_obese() {
    let counts = zipf_counts(2000, 20_000, 0.4);
    assert!(
        counts[0] < 200,
        "the largest company stays under 1%: {}",
        counts[0]
    );
    let advice = run(&export(&counts), 3, &Workload::default());
    assert_eq!(advice.documents, 22_000);
    let orders = collection(&advice, "Orders");
    assert_eq!(orders.documents, 20_000);
    assert_eq!(orders.references.len(), 1);
    assert_eq!(orders.references[0].field, "Company");
    assert_eq!(orders.references[0].collection, "Companies");
    assert_eq!(orders.references[0].coverage, 1.0);

    let anchor = candidate(orders, Strategy::Anchor, Some("Company"));
    assert_eq!(anchor.colocated, Some(1.0));
    assert_eq!(anchor.obese_threshold, 200);
    assert_eq!(anchor.obese_groups, 0);
    let largest = anchor.largest_group.as_ref().unwrap();
    assert_eq!(
        (largest.anchor.as_str(), largest.documents),
        ("companies/1-a", counts[0] as u64)
    );
    assert_eq!(anchor.cardinality, 2000);
    assert_eq!(anchor.frequency, counts[0] as f64 / 20_000.0);
    assert_eq!(
        anchor.id_example.as_deref(),
        Some("orders/1-A$companies/1-A")
    );
    assert!(anchor.skew < 1.2, "skew {}", anchor.skew);
    assert_eq!(anchor.shard_documents.iter().sum::<u64>(), 20_000);

    let none = candidate(orders, Strategy::None, None);
    assert_eq!(none.cardinality, 20_000);
    assert!(none.colocated.unwrap() < 0.01);
    assert_eq!(orders.recommended.strategy, Strategy::Anchor);
    assert_eq!(orders.recommended.field.as_deref(), Some("Company"));
    assert!(
        orders
            .recommended
            .reason
            .starts_with("anchor on Company keeps 100.0% "),
        "{}",
        orders.recommended.reason
    );

    // The draft's content rule with Range 1 co-locates as well, but the shipped anchor wins.
    let content = candidate(orders, Strategy::Content, Some("Company"));
    assert_eq!(content.colocated, Some(1.0));
    assert_eq!(
        content.configuration.as_ref().unwrap()["ByContent"]["Orders"]["Range"],
        1
    );

    let companies = collection(&advice, "Companies");
    assert!(companies.references.is_empty());
    assert_eq!(companies.recommended.strategy, Strategy::None);
}

#[test]
fn refuses_the_anchor_when_one_company_holds_most_orders() {
    let mut counts = vec![1; 4000];
    counts[0] = 6000;
    let advice = run(&export(&counts), 3, &Workload::default());
    let orders = collection(&advice, "Orders");
    let anchor = candidate(orders, Strategy::Anchor, Some("Company"));
    let largest = anchor.largest_group.as_ref().unwrap();
    assert_eq!(
        (largest.anchor.as_str(), largest.documents),
        ("companies/1-a", 6000)
    );
    assert!((largest.share - 6000.0 / 9999.0).abs() < 1e-12);
    assert_eq!(anchor.obese_groups, 1);
    assert!(anchor.skew > 1.2);
    assert_eq!(orders.recommended.strategy, Strategy::None);
    assert!(
        orders
            .recommended
            .reason
            .contains("anchor on Company would put 6000 documents"),
        "{}",
        orders.recommended.reason
    );
    // The content rule spreads the company's orders over a block of buckets.
    let content = candidate(orders, Strategy::Content, Some("Company"));
    let range = content.configuration.as_ref().unwrap()["ByContent"]["Orders"]["Range"]
        .as_u64()
        .unwrap();
    assert_eq!(range, 1000);
    assert_eq!(content.obese_groups, 0);
}

#[test]
fn routes_the_workload_per_candidate() {
    let counts = zipf_counts(300, 3000, 0.3);
    let workload = Workload::parse(
        "from Orders where id() = 'orders/1-A'\nfrom Orders where Company = 'companies/1-A'\nfrom Companies",
        "Orders.Company",
    )
    .unwrap();
    let advice = run(&export(&counts), 3, &workload);
    let orders = collection(&advice, "Orders");
    assert!(orders.references[0].loaded);
    let topology = Topology::with_shards(3).unwrap();
    let own_shard = topology.locate("orders/1-A").unwrap().shard;
    let none = candidate(orders, Strategy::None, None);
    assert_eq!(none.queries.len(), 2);
    assert_eq!(none.queries[0].shards, vec![own_shard]);
    assert_eq!(none.queries[1].shards, vec![0, 1, 2]);
    assert_eq!(none.single_shard_queries, Some(0.5));
    let content = candidate(orders, Strategy::Content, Some("Company"));
    let company_shard = topology.locate("companies/1-A").unwrap().shard;
    assert_eq!(content.queries[1].shards, vec![company_shard]);
    assert_eq!(content.single_shard_queries, Some(1.0));
    assert_eq!(orders.recommended.strategy, Strategy::Content);
    let companies = collection(&advice, "Companies");
    assert_eq!(
        candidate(companies, Strategy::None, None).queries[0].shards,
        vec![0, 1, 2]
    );
}

#[test]
fn finds_nested_references_in_arrays_and_prefixes() {
    let mut text = String::new();
    for p in 1..=10 {
        text += &format!(
            "{{\"@metadata\": {{\"@id\": \"products/{p}-A\", \"@collection\": \"Products\"}}}}\n"
        );
    }
    for o in 1..=100 {
        let region = ["eu", "us", "asia"][o % 3];
        text += &format!(
            "{{\"Lines\": [{{\"Product\": \"products/{}-A\"}}, {{\"Product\": \"products/{}-A\"}}], \"Note\": \"a/b c\", \"@metadata\": {{\"@id\": \"{region}/orders/{o}-A\", \"@collection\": \"Orders\"}}}}\n",
            o % 10 + 1,
            (o + 1) % 10 + 1
        );
    }
    let advice = run(&text, 3, &Workload::default());
    let orders = collection(&advice, "Orders");
    assert_eq!(orders.references.len(), 1);
    assert_eq!(orders.references[0].field, "Lines.Product");
    assert_eq!(orders.references[0].coverage, 1.0);
    // No content candidate on a nested field; a prefix candidate for the regions.
    assert!(orders
        .candidates
        .iter()
        .all(|c| c.strategy != Strategy::Content));
    let prefix = candidate(orders, Strategy::Prefix, None);
    assert_eq!(prefix.cardinality, 3);
    assert_eq!(prefix.largest_group.as_ref().unwrap().documents, 34);
    let prefixed = prefix.configuration.as_ref().unwrap()["Prefixed"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(prefixed, 3);
    // Each region on its own shard: 34, 33 and 33 documents.
    let mut per_shard = prefix.shard_documents.clone();
    per_shard.sort_unstable();
    assert_eq!(per_shard, vec![33, 33, 34]);
}

#[test]
fn bad_workloads_are_named_by_line() {
    let err = Workload::parse("from Orders\nfrom where", "").unwrap_err();
    assert!(err.to_string().starts_with("queries, line 2: "), "{err}");
    let err = Workload::parse("", "# loads\nOrders").unwrap_err();
    assert_eq!(
        err.to_string(),
        "loads, line 2: 'Orders' is not Collection.Field. Write one LoadDocument relation a line (e.g. Orders.Company)."
    );
}

#[test]
fn reads_references_past_the_importers_body_limit() {
    // 400 orders of ~100 KB: 40 MB of bodies, more than the importer holds at once.
    let padding = "x".repeat(100_000);
    let mut text = String::from(
        "{\"@metadata\": {\"@id\": \"companies/1-A\", \"@collection\": \"Companies\"}}\n",
    );
    for o in 1..=400 {
        text += &format!(
            "{{\"Company\": \"companies/1-A\", \"Pad\": \"{padding}\", \"@metadata\": {{\"@id\": \"orders/{o}-A\", \"@collection\": \"Orders\"}}}}\n"
        );
    }
    let advice = run(&text, 3, &Workload::default());
    assert_eq!(advice.bodies_dropped, 0);
    assert_eq!(collection(&advice, "Orders").references[0].coverage, 1.0);
}

fn read_export(text: &str) -> ravenshard_advise::ReadExport {
    let mut reader = ravenshard_advise::ExportReader::new(Some(Format::Ndjson), None);
    reader.push(text.as_bytes()).unwrap();
    reader.read().unwrap()
}

#[test]
fn reports_progress_to_the_total_and_answers_as_advise_does() {
    let text = export(&zipf_counts(50, 2000, 1.0));
    let export = read_export(&text);
    let topology = Topology::with_shards(3).unwrap();
    let mut seen = Vec::new();
    let advice = export
        .advise(&topology, &Workload::default(), &mut |p| {
            seen.push(p);
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(advice, run(&text, 3, &Workload::default()));
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done));
    assert!(seen.len() > 3, "{seen:?}");
    assert_eq!(seen.first().map(|p| p.done), Some(0));
    assert_eq!(seen.last().map(|p| (p.done, p.total)), Some((2050, 2050)));
}

#[test]
fn a_progress_callback_cancels() {
    let export = read_export(&export(&zipf_counts(50, 2000, 1.0)));
    let topology = Topology::with_shards(3).unwrap();
    let mut calls = 0;
    let answer = export.advise(&topology, &Workload::default(), &mut |_| {
        calls += 1;
        if calls == 3 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    assert_eq!(answer, Err(ravenshard_advise::AdviseError::Cancelled));
    assert_eq!(calls, 3);
}

#[test]
fn anchor_rewrites_give_the_candidates_ids_and_co_locate_every_order() {
    use ravenshard::document::Document;
    use ravenshard_advise::rewrite_ids;
    let text = export(&[3, 2]);
    let export = read_export(&text);
    let rewrites = export.anchor_rewrites("Orders", "Company");
    let pairs: Vec<(&str, &str)> = rewrites
        .iter()
        .map(|r| (r.from.as_str(), r.to.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("orders/1-A", "orders/1-A$companies/1-A"),
            ("orders/2-A", "orders/2-A$companies/1-A"),
            ("orders/3-A", "orders/3-A$companies/1-A"),
            ("orders/4-A", "orders/4-A$companies/2-A"),
            ("orders/5-A", "orders/5-A$companies/2-A"),
        ]
    );
    assert!(export.anchor_rewrites("Orders", "Freight").is_empty());
    assert!(export.anchor_rewrites("Nope", "Company").is_empty());
    let mut documents: Vec<Document> = ["companies/1-A", "ORDERS/4-A", "orders/9-A"]
        .into_iter()
        .map(Document::new)
        .collect();
    assert_eq!(rewrite_ids(&mut documents, &rewrites), 1);
    let ids: Vec<&str> = documents.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(
        ids,
        ["companies/1-A", "orders/4-A$companies/2-A", "orders/9-A"]
    );
    let topology = Topology::with_shards(3).unwrap();
    let company = topology.locate("companies/2-A").unwrap().bucket;
    assert_eq!(topology.locate(&documents[1].id).unwrap().bucket, company);
}

#[test]
fn reports_progress_within_a_candidate_of_a_large_collection_and_cancels_there() {
    // 70,000 orders without references: the candidates `none` and (not offered) `prefix`,
    // so the collection's progress is in halves, and `none` reports after 65,536 documents.
    let text: String = (1..=70_000)
        .map(|o| {
            format!(
                "{{\"@metadata\": {{\"@id\": \"orders/{o}-A\", \"@collection\": \"Orders\"}}}}\n"
            )
        })
        .collect();
    let export = read_export(&text);
    let topology = Topology::with_shards(3).unwrap();
    let mut seen = Vec::new();
    export
        .advise(&topology, &Workload::default(), &mut |p| {
            seen.push(p.done);
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(seen, [0, 65_535 / 2, 35_000, 70_000, 70_000]);
    let mut calls = 0;
    let answer = export.advise(&topology, &Workload::default(), &mut |p| {
        calls += 1;
        match p.done {
            0 => std::ops::ControlFlow::Continue(()),
            _ => std::ops::ControlFlow::Break(()),
        }
    });
    assert_eq!(answer, Err(ravenshard_advise::AdviseError::Cancelled));
    assert_eq!(calls, 2);
}
