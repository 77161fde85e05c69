//! The Resharding view's plan and balance in the studio's worker, in headless Chromium: a
//! plan and a balance go to the worker and back through `gloo-worker`'s codec with the
//! answer the core gives on the page, from the load the workspace's host sent the worker
//! over their own channel; the view balances there, shows Balancing… with Cancel while it
//! runs, and a worker that panics leaves a usable view with a message.
//!
//! The worker here is this test module itself (see `common::use_this_module_as_the_worker`).
#![cfg(target_arch = "wasm32")]

use ravenshard::Topology;
use ravenshard_model::host::Change;
use ravenshard_model::workspace::{Document, Placement};
use ravenshard_reshard::{
    add_shard, balance, migration_step, plan, BalanceOptions, BucketLoad, Measure, Objective,
    PlanOptions, Throughput,
};
use ravenshard_studio::workers::reshard::client as worker;
use ravenshard_studio::workers::{client, host};
use ravenshard_studio::workers::{
    BalanceRequest, Channel, PlanRequest, PlanShown, ReshardReply, ReshardRequest, StepAt,
    StepShown,
};
use ravenshard_studio::App;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use yew::Callback;

mod common;

use common::{fresh_studio, use_this_module_as_the_worker, Mounted};

wasm_bindgen_test_configure!(run_in_browser);

type Studio = Mounted<App>;

/// Waits (at most ~30 s) until `replies` holds `count` replies.
async fn replies_until(replies: &RefCell<Vec<ReshardReply>>, count: usize) {
    for _ in 0..1500 {
        if replies.borrow().len() >= count {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("the worker answered {:?}", replies.borrow());
}

/// `count` documents of sizes 100 to 999 bytes, the host's after its change `seq`; their
/// load per bucket as the host makes it.
fn host_holds(seq: u64, count: usize) -> BucketLoad {
    let documents: Vec<Document> = (0..count)
        .map(|i| Document {
            size: Some(100 + i as u64 % 900),
            ..Document::new(format!("orders/{i}-A"))
        })
        .collect();
    let current = Topology::with_shards(3).unwrap();
    let load = Placement::new(&documents, &current, &Default::default()).bucket_load();
    host::change(seq, Change::Replace { documents });
    load
}

#[wasm_bindgen_test]
async fn the_worker_plans_and_balances_from_the_load_the_host_sends_it_over_their_channel() {
    use_this_module_as_the_worker();
    let current = Topology::with_shards(3).unwrap();
    // The page sends the documents to the host only: the Resharding worker has their load
    // from the host, over their own channel.
    let load = host_holds(1, 20_000);
    let (grown, _) = add_shard(&current, vec![]).unwrap();
    // Every option the codec carries: bytes, weights, a cap, a throughput (an adjacently
    // tagged enum), the objective.
    let options = BalanceOptions {
        by: Measure::Bytes,
        weights: [(0, 1.0), (3, 2.0)].into_iter().collect(),
        threshold: 1.0,
        max_buckets: Some(200_000),
        throughput: Some(Throughput::Docs(5000.0)),
        objective: Objective::FewestMigrations,
        ..BalanceOptions::default()
    };
    let expected = balance(&grown, &load, &options).unwrap();
    let replies: Rc<RefCell<Vec<ReshardReply>>> = Rc::default();
    let sink = {
        let replies = Rc::clone(&replies);
        Callback::from(move |r: ReshardReply| replies.borrow_mut().push(r))
    };
    let plan_options = PlanOptions {
        measure: Measure::Bytes,
        throughput: Some(Throughput::Docs(5000.0)),
        ..PlanOptions::default()
    };
    let target = expected.plan.target.clone();
    let planned_here = plan(&current, &target, &load, &plan_options).unwrap();
    let step_here = migration_step(&current, &planned_here, &load, 5).unwrap();
    let asked = PlanRequest {
        run: 1,
        load: 1,
        current: current.to_json(),
        target: target.to_json(),
        database: current.database().to_string(),
        options: plan_options,
        step: StepAt::To(5),
    };
    worker::send(ReshardRequest::Plan(asked), sink.clone());
    replies_until(&replies, 1).await;
    let ReshardReply::Planned { run: 1, planned } = replies.borrow_mut().remove(0) else {
        panic!("a plan");
    };
    let planned = *planned;
    assert_eq!(planned.plan, Ok(PlanShown::of(&planned_here)));
    assert_eq!(planned.step, 5);
    assert_eq!(planned.migration, Some(Ok(StepShown::of(step_here))));
    let request = BalanceRequest {
        run: 1,
        load: 1,
        target: grown.to_json(),
        options: options.clone(),
    };
    worker::send(ReshardRequest::Balance(request.clone()), sink.clone());
    replies_until(&replies, 2).await;
    let got = replies.borrow().clone();
    let ReshardReply::Balanced { run: 1, balanced } = &got[0] else {
        panic!("{:?}", got[0]);
    };
    let target = Topology::from_json(&balanced.target).unwrap();
    assert_eq!(target.ranges(), expected.plan.target.ranges());
    let notes: Vec<String> = expected
        .plan
        .notes
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(balanced.notes, notes);
    assert_eq!(balanced.obstacles, expected.obstacles);
    assert_eq!(balanced.summary, expected.objectives[1]);
    assert_eq!(
        got[1],
        ReshardReply::Compared {
            run: 1,
            summary: expected.objectives[0].clone()
        }
    );
    // A balance of a change the host has not made yet waits for it, then balances the
    // host's new load.
    let later = BalanceRequest {
        run: 2,
        load: 2,
        ..request.clone()
    };
    worker::send(ReshardRequest::Balance(later), sink.clone());
    gloo::timers::future::TimeoutFuture::new(200).await;
    assert_eq!(replies.borrow().len(), 2, "no balance before the change");
    let fewer = host_holds(2, 5_000);
    replies_until(&replies, 3).await;
    let fewer_balanced = balance(&grown, &fewer, &options).unwrap();
    let got = replies.borrow()[2].clone();
    let ReshardReply::Balanced { run: 2, balanced } = &got else {
        panic!("{got:?}");
    };
    assert_eq!(balanced.summary, fewer_balanced.objectives[1]);
    // A new host's worker: the two get a new channel, over which the load comes again.
    replies_until(&replies, 4).await;
    client::stop(Channel::Workspace);
    let again = host_holds(3, 2_000);
    let newest = BalanceRequest {
        run: 3,
        load: 3,
        ..request
    };
    worker::send(ReshardRequest::Balance(newest), sink);
    replies_until(&replies, 5).await;
    let got = replies.borrow()[4].clone();
    let ReshardReply::Balanced { run: 3, balanced } = &got else {
        panic!("{got:?}");
    };
    let again_balanced = balance(&grown, &again, &options).unwrap();
    assert_eq!(balanced.summary, again_balanced.objectives[1]);
    client::terminate();
}

/// 3,000 generated documents on the Resharding tab, a shard added, threshold 0.
async fn grown() -> Studio {
    let studio = fresh_studio().await;
    studio.set("#gen-count", "3000", "input").await;
    studio.click("button.generate").await;
    studio.click("#tab-reshard").await;
    studio.click("button.add-shard").await;
    studio.set("input.threshold", "0", "input").await;
    studio
}

#[wasm_bindgen_test]
async fn the_view_balances_in_the_worker_and_compares_the_objectives() {
    let studio = grown().await;
    // Showing the view started the worker and sent it the load.
    studio
        .until("the worker", |_| {
            client::instance(Channel::Reshard).is_some()
        })
        .await;
    studio.click("button.balance").await;
    assert!(
        studio.find(".balancing").is_some(),
        "under way in the worker"
    );
    assert!(
        studio.get(".balancing").has_attribute("hidden"),
        "shown only after 200 ms"
    );
    studio
        .until("the balance", |s| s.find(".balancing").is_none())
        .await;
    let said = |class: &str| studio.find(class).and_then(|e| e.text_content());
    assert_eq!(said(".balance-message"), None);
    assert_eq!(said(".target-problem"), None);
    let moved = studio.text(".docs-moved strong");
    assert!(moved.ends_with("of 3,000"), "{moved}");
    let new = studio.text(".reshard-bars .bar-row[data-shard=\"3\"] .bar-value");
    assert!(new.starts_with("0 → 7"), "{new}");
    studio
        .until("the comparison", |s| {
            s.count("table.objectives tbody tr:not(.pending)") == 2
        })
        .await;
    assert!(studio
        .find("table.objectives tr.contiguous.chosen")
        .is_some());
    assert!(studio.find(".balance-message").is_none());
    client::terminate();
}

#[wasm_bindgen_test]
async fn a_balance_can_be_cancelled_and_a_panicking_worker_leaves_a_usable_view() {
    let studio = grown().await;
    studio.click("button.balance").await;
    studio.click(".cancel-balance").await;
    assert!(studio.find(".balancing").is_none());
    assert!(studio.text(".balance-message").contains("cancelled"));
    assert_eq!(
        client::instance(Channel::Reshard),
        None,
        "its worker stopped"
    );
    assert_eq!(
        studio.text(".buckets-moved strong"),
        "0",
        "nothing balanced"
    );
    // A worker that panics: the view says so and stays usable.
    studio.balance().await;
    studio.click("#reshard-debug-panic").await;
    studio
        .until("the crash message", |s| {
            s.find(".balance-message")
                .and_then(|e| e.text_content())
                .is_some_and(|t| t.contains("asked to panic"))
        })
        .await;
    assert_eq!(client::instance(Channel::Reshard), None);
    let balanced = studio.text(".docs-moved strong");
    studio.click("button.reset-target").await;
    studio.click("button.add-shard").await;
    assert_eq!(studio.text(".buckets-moved strong"), "0");
    // The next balance starts a new worker, sends it the load, and balances as before.
    studio.balance().await;
    assert!(studio.find(".balance-message").is_none());
    assert_eq!(studio.text(".docs-moved strong"), balanced);
    assert!(client::instance(Channel::Reshard).is_some());
    client::terminate();
}
