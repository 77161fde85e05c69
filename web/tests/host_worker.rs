//! The workspace's host in its worker, in headless Chromium: changes and questions cross
//! the worker's codec and are answered as a host in the page would answer them; a refused
//! change says why; a host that panics is reported, and the next change starts a new one.
//!
//! The worker here is this test module itself (see `common::use_this_module_as_the_worker`).
#![cfg(target_arch = "wasm32")]

use ravenshard::Topology;
use ravenshard_model::batch::{DocumentBatch, BATCH_DOCUMENTS};
use ravenshard_model::host::question::{BucketDocuments, Documents, Groups, Histogram, Rows};
use ravenshard_model::host::{Change, ChangeError, Host, Question, Staging, What};
use ravenshard_model::sample::Generator;
use ravenshard_studio::workers::host::{self, Answered, HostNews};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use yew::Callback;

mod common;

use common::jobs::until;

wasm_bindgen_test_configure!(run_in_browser);

/// What the host said, in order.
type Heard = Rc<RefCell<Vec<HostNews>>>;

/// A fresh host's worker whose news are kept.
fn listening() -> Heard {
    common::use_this_module_as_the_worker();
    let heard: Heard = Rc::default();
    let keep = Rc::clone(&heard);
    host::listen(Callback::from(move |news| keep.borrow_mut().push(news)));
    heard
}

/// Asks `question` and waits for the answer.
async fn ask<Q: Question>(question: Q) -> Answered<Q::Answer> {
    let answer: Rc<RefCell<Option<Answered<Q::Answer>>>> = Rc::default();
    let keep = Rc::clone(&answer);
    host::ask(
        question,
        Callback::from(move |a| *keep.borrow_mut() = Some(a)),
    );
    until("the answer", || answer.borrow().is_some()).await;
    let answered = answer.borrow_mut().take();
    answered.unwrap()
}

/// The changes made in the worker are the ones a host in the page makes: the same
/// versions, summaries and answers.
#[wasm_bindgen_test]
async fn a_hosts_changes_and_answers_cross_the_worker() {
    let heard = listening();
    let documents = Generator {
        documents: 5_000,
        anchored_share: 0.4,
        seed: 3,
    }
    .generate()
    .unwrap();
    let five = Topology::with_shards(5).unwrap();
    let changes = [
        Change::Replace { documents },
        Change::Configure {
            configuration: five.to_json(),
            database: "Orders".into(),
        },
        Change::Splice {
            at: 10,
            remove: 2,
            insert: vec![ravenshard::Document::new("orders/1$users/1")],
        },
    ];
    let mut local = Host::default();
    for (seq, change) in (1u64..).zip(changes) {
        let expected = local.apply(change.clone()).unwrap();
        host::change(seq, change);
        until("the change", || heard.borrow().len() == seq as usize).await;
        let last = heard.borrow().last().cloned();
        let Some(HostNews::Changed { seq: said, changed }) = last else {
            panic!("{last:?}");
        };
        assert_eq!((said, &*changed), (seq, &expected));
    }
    assert!(host::is_idle());
    answered_as(&mut local, Groups { from: 0, count: 50 }).await;
    let histogram = Histogram {
        configuration: None,
        start: 0,
        end: 1 << 20,
        bins: 300,
    };
    answered_as(&mut local, histogram).await;
    let bucket = local.placement().place(0).unwrap().bucket;
    answered_as(&mut local, BucketDocuments { bucket, most: 10 }).await;
    answered_as(&mut local, Documents { start: 9, end: 12 }).await;
    assert!(host::is_idle());
}

/// The worker answers `question` as the host `local` does, at its version.
async fn answered_as<Q: Question>(local: &mut Host, question: Q) {
    let answered = ask(question.clone()).await;
    assert_eq!(answered.version, local.version());
    assert_eq!(*answered.answer, local.answer(&question), "{question:?}");
}

/// A job's batches staged in the worker, then adopted, are the workspace a host in the
/// page makes of them (`caught_up` resolves once it is made); an adoption of what was not
/// staged is refused, and changes nothing.
#[wasm_bindgen_test]
async fn a_jobs_staged_batches_are_adopted_in_the_worker() {
    let heard = listening();
    let documents = Generator {
        documents: 20_000,
        anchored_share: 0.4,
        seed: 4,
    }
    .generate()
    .unwrap();
    let three = Topology::with_shards(3).unwrap();
    let start = Staging {
        configuration: three.to_json(),
        database: "Orders".into(),
        documents: 20_000,
        id_bytes: 400_000,
        bodies: 0,
        body_bytes: 0,
    };
    let mut local = Host::default();
    let mut start = Some(start);
    for (number, chunk) in documents.chunks(BATCH_DOCUMENTS / 4).enumerate() {
        let batch = DocumentBatch::of(number as u64, chunk, Default::default());
        local.stage(9, start.clone(), batch.clone());
        host::stage(9, start.take(), batch);
    }
    let missing = Change::Adopt {
        job: 8,
        documents: 20_000,
    };
    host::change(1, missing);
    until("the refusal", || heard.borrow().len() == 1).await;
    let news = heard.borrow()[0].clone();
    assert!(
        matches!(
            news,
            HostNews::Refused {
                seq: 1,
                error: ChangeError::Staged(_)
            }
        ),
        "{news:?}"
    );
    let adopt = Change::Adopt {
        job: 9,
        documents: 20_000,
    };
    let expected = local.apply(adopt.clone()).unwrap();
    host::change(2, adopt);
    // What a save waits for: the host made every change sent, the adoption's news heard.
    host::caught_up().await;
    assert!(host::is_idle());
    assert_eq!(heard.borrow().len(), 2);
    let news = heard.borrow()[1].clone();
    let HostNews::Changed { seq: 2, changed } = news else {
        panic!("{news:?}");
    };
    assert_eq!(*changed, expected);
    let question = Documents {
        start: 19_990,
        end: 20_000,
    };
    let answered = ask(question.clone()).await;
    assert_eq!(*answered.answer, local.answer(&question));
}

/// A change the host cannot make is refused with why; the workspace stays as it was.
#[wasm_bindgen_test]
async fn a_refused_change_says_why() {
    let heard = listening();
    let bad = Change::Configure {
        configuration: r#"{"Shards": 3}"#.into(),
        database: "db".into(),
    };
    host::change(1, bad);
    until("the refusal", || !heard.borrow().is_empty()).await;
    let news = heard.borrow()[0].clone();
    let HostNews::Refused { seq: 1, error } = news else {
        panic!("{news:?}");
    };
    assert!(matches!(error, ChangeError::Configuration(_)), "{error:?}");
    let answered = ask(Documents { start: 0, end: 10 }).await;
    assert_eq!((answered.version, answered.answer.len()), (0, 0));
}

/// A host that panics is reported with its message; questions asked are dropped, and the
/// next change starts a new host, which holds no documents.
#[wasm_bindgen_test]
async fn a_host_that_panics_is_reported_and_started_again() {
    let heard = listening();
    let one = vec![ravenshard::Document::new("a/1")];
    host::change(1, Change::Replace { documents: one });
    until("the change", || heard.borrow().len() == 1).await;
    host::panic();
    until("the crash", || heard.borrow().len() == 2).await;
    let news = heard.borrow()[1].clone();
    let HostNews::Crashed { message } = news else {
        panic!("{news:?}");
    };
    assert!(message.contains("asked to panic"), "{message}");
    assert!(host::is_idle());
    host::change(
        2,
        Change::Replace {
            documents: Vec::new(),
        },
    );
    until("the new host", || heard.borrow().len() == 3).await;
    let news = heard.borrow()[2].clone();
    let HostNews::Changed { changed, .. } = news else {
        panic!("{news:?}");
    };
    assert_eq!((changed.version, changed.what), (1, What::Placed));
}

/// The rows of a large workspace's sort are made by a job in the worker, which the questions
/// of other windows of them (asked while scrolling) wait for: a question forgotten while the
/// job runs is not answered and does not stop it for the others, and each of them is
/// answered with its window, as a host in the page answers.
#[wasm_bindgen_test]
async fn windows_of_a_sort_share_its_job() {
    use ravenshard_model::workspace::{RowQuery, SortKey};
    let heard = listening();
    let documents = Generator {
        documents: 60_000,
        anchored_share: 0.3,
        seed: 5,
    }
    .generate()
    .unwrap();
    let mut local = Host::default();
    local
        .apply(Change::Replace {
            documents: documents.clone(),
        })
        .unwrap();
    host::change(1, Change::Replace { documents });
    until("the change", || heard.borrow().len() == 1).await;
    let query = RowQuery {
        sort: SortKey::Id,
        ..Default::default()
    };
    let window = |from| Rows {
        query: query.clone(),
        from,
        count: 10,
    };
    let first: Rc<RefCell<Option<Answered<_>>>> = Rc::default();
    let keep = Rc::clone(&first);
    let forgotten = host::ask(
        window(0),
        Callback::from(move |a| *keep.borrow_mut() = Some(a)),
    );
    // Asked while the first's job runs; the first is then forgotten, as a scroll does.
    let second = host::answer(window(30_000));
    let third = host::answer(window(59_995));
    host::forget(forgotten);
    let (second, third) = futures::join!(second, third);
    assert!(
        first.borrow().is_none(),
        "a forgotten question is not answered"
    );
    for (answered, from) in [(second, 30_000), (third, 59_995)] {
        let answered = answered.expect("answered");
        assert_eq!(*answered.answer, local.answer(&window(from)));
    }
}
