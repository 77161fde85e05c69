//! The advisor on the workspace ([`Advise`]): the host's answer is the advice an export of
//! the same documents gets from `ravenshard_advise::advise`, made at once or by a job in
//! steps, and it crosses the studio worker's codec.

use ravenshard_advise::ExportReader;
use ravenshard_advise::{advise, Workload};
use ravenshard_import::{import, Format};
use ravenshard_model::host::question::{AdviceError, Advise, AnchorRewrites, Carried};
use ravenshard_model::host::{AnyQuestion, Change, Host};
use ravenshard_model::workspace::Document;
use std::ops::ControlFlow;

/// 60 companies (with a body naming none), 40 products and 900 orders naming a company
/// at the top level and two products nested in `Lines`; some orders prefixed `eu/`.
fn ndjson() -> String {
    let mut text = String::new();
    for c in 1..=60 {
        text += &format!("{{\"Name\": \"C{c}\", \"@metadata\": {{\"@id\": \"companies/{c}-A\", \"@collection\": \"Companies\"}}}}\n");
    }
    for p in 1..=40 {
        text += &format!(
            "{{\"@metadata\": {{\"@id\": \"products/{p}-A\", \"@collection\": \"Products\"}}}}\n"
        );
    }
    for o in 1..=900 {
        let prefix = if o % 3 == 0 { "eu/" } else { "" };
        text += &format!(
            "{{\"Company\": \"companies/{}-A\", \"Lines\": [{{\"Product\": \"products/{}-A\"}}, {{\"Product\": \"products/{}-A\"}}], \"@metadata\": {{\"@id\": \"{prefix}orders/{o}-A\", \"@collection\": \"Orders\"}}}}\n",
            o % 60 + 1,
            o % 40 + 1,
            o * 7 % 40 + 1
        );
    }
    text
}

const QUERIES: &str =
    "from Orders where Company = 'companies/1-A'\nfrom Orders where id() = 'orders/2-A'";
const LOADS: &str = "Orders.Company";

/// A host holding the export's documents (bodies kept), placed by 4 shards.
fn host_of(text: &str) -> Host {
    let imported = import(text.as_bytes(), Format::Ndjson).expect("imports");
    let mut host = Host::default();
    let documents = imported.documents;
    host.apply(Change::Replace { documents }).expect("placed");
    let four = ravenshard::Topology::with_shards(4).unwrap().to_json();
    let configure = Change::Configure {
        configuration: four,
        database: "Shop".into(),
    };
    host.apply(configure).expect("configured");
    host
}

fn question() -> Advise {
    Advise {
        queries: QUERIES.into(),
        loads: LOADS.into(),
    }
}

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
    bincode::deserialize(&bincode::serialize(value).expect("encodes")).expect("decodes")
}

#[test]
fn the_workspaces_advice_is_the_advice_on_an_export_of_its_documents() {
    let text = ndjson();
    let mut host = host_of(&text);
    let topology = host.placement().topology().clone();
    let workload = Workload::parse(QUERIES, LOADS).unwrap();
    let from_file = advise(text.as_bytes(), Some(Format::Ndjson), &topology, &workload).unwrap();
    assert_eq!(from_file.shards, 4);
    let answer = host.answer(&question()).expect("advised");
    assert_eq!(answer, from_file);
    // The same question and answer as the studio's worker reads and writes them.
    let asked = round_trip(&AnyQuestion::from(question()));
    let crossed = round_trip(&asked.answer(&mut host));
    assert_eq!(Advise::answer_of(crossed), Some(Ok(from_file)));
}

#[test]
fn a_job_in_steps_gives_the_same_advice_and_tells_its_progress() {
    let mut host = host_of(&ndjson());
    let whole = host.answer(&question()).unwrap();
    let mut job = host.advice_job(&question()).unwrap();
    let mut seen = Vec::new();
    let answer = loop {
        seen.push(job.progress());
        let step = host.step_advice(&mut job, 128, &mut |p| {
            seen.push(p);
            ControlFlow::Continue(())
        });
        if let Some(answer) = step {
            break answer;
        }
    };
    assert_eq!(answer, Ok(whole));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
    assert!(seen
        .iter()
        .all(|&(done, total)| total == 2000 && done <= total));
    assert_eq!(seen.last(), Some(&(2000, 2000)));
    assert!(seen.len() > 1000 / 128);
}

#[test]
fn a_job_stops_when_the_documents_change_or_its_asker_cancels() {
    let mut host = host_of(&ndjson());
    let mut job = host.advice_job(&question()).unwrap();
    let go_on = &mut |_| ControlFlow::Continue(());
    assert_eq!(host.step_advice(&mut job, 10, go_on), None);
    let documents = vec![Document::new("orders/1-A")];
    host.apply(Change::Splice {
        at: 0,
        remove: 0,
        insert: documents,
    })
    .unwrap();
    assert_eq!(
        host.step_advice(&mut job, 10, go_on),
        Some(Err(AdviceError::Changed))
    );
    let mut job = host.advice_job(&question()).unwrap();
    let stop = host.step_advice(&mut job, usize::MAX, &mut |_| ControlFlow::Break(()));
    assert_eq!(stop, Some(Err(AdviceError::Cancelled)));
}

#[test]
fn a_workload_that_does_not_read_is_refused_with_the_advisors_message() {
    let mut host = host_of(&ndjson());
    let bad = Advise {
        queries: String::new(),
        loads: "Orders".into(),
    };
    let Err(AdviceError::Workload(message)) = host.answer(&bad) else {
        panic!("a load that is not Collection.Field was read");
    };
    assert!(
        message.contains("loads, line 1") && message.contains("Collection.Field"),
        "{message}"
    );
    assert_eq!(host.placement().summary().bodies, 1000);
}

#[test]
fn an_anchors_rewrites_are_the_ones_the_export_gives() {
    let text = ndjson();
    let mut host = host_of(&text);
    let mut reader = ExportReader::new(Some(Format::Ndjson), None);
    reader.push(text.as_bytes()).unwrap();
    let export = reader.read().unwrap();
    let question = AnchorRewrites {
        collection: "Orders".into(),
        field: "Company".into(),
    };
    let rewrites = host.answer(&question);
    assert_eq!(rewrites.len(), 900);
    assert_eq!(rewrites, export.anchor_rewrites("Orders", "Company"));
    let asked = round_trip(&AnyQuestion::from(question));
    let crossed = round_trip(&asked.answer(&mut host));
    assert_eq!(AnchorRewrites::answer_of(crossed), Some(rewrites));
}
