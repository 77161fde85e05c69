//! From a plan to the cluster: the calls of small plans (known answers), prefix blocks,
//! the estimate's two terms, the balance objectives on a skewed load, and the shell script
//! run against a fake RavenDB server (start, state, a Faulted operation).

mod common;

use common::topology;
use ravenshard::{Topology, NUMBER_OF_BUCKETS};
use ravenshard_reshard::{
    add_shard, balance, calls, plan, BalanceOptions, BucketCost, BucketLoad, Calls, CallsOptions,
    Chore, Dominant, Objective, Plan, PlanOptions, Throughput,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::sync::{Arc, Mutex};

const B: u32 = NUMBER_OF_BUCKETS;

/// The plan from `a` to `b` with no documents.
fn empty_plan(a: &Topology, b: &Topology) -> Plan {
    plan(a, b, &BucketLoad::default(), &PlanOptions::default()).unwrap()
}

fn options() -> CallsOptions {
    CallsOptions {
        database: Some("Orders db".into()),
        url: "https://a.example.com:443/".into(),
        ..Default::default()
    }
}

/// Two runs: 500..=1499 from shards 0 and 1 to shard 2 (one call), 2500..=2999 from shard
/// 2 to shard 0. Shard 0 holds less, so its call goes first.
fn small() -> (Topology, Topology, BucketLoad) {
    let current = topology(&[(0, 0), (1000, 1), (2000, 2)], 3, &[]);
    let target = topology(
        &[(0, 0), (500, 2), (1500, 1), (2000, 2), (2500, 0), (3000, 2)],
        3,
        &[],
    );
    let docs = (0..10u32)
        .map(|i| (i * 90, Some(10)))
        .chain((0..20).map(|i| (1000 + i * 50, Some(10))))
        .chain((0..100).map(|i| (2000 + i * 10, Some(10))));
    (current, target, BucketLoad::from_buckets(docs))
}

#[test]
fn calls_of_a_small_plan() {
    let (current, target, load) = small();
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    assert_eq!(p.moves.len(), 3);
    let c = calls(&current, &p, &options()).unwrap();
    let got: Vec<(u32, u32, u32, Vec<u32>)> = c
        .calls
        .iter()
        .map(|c| {
            (
                c.from_bucket,
                c.to_bucket,
                c.to_shard,
                c.from_shards.clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![(2500, 2999, 0, vec![2]), (500, 1499, 2, vec![0, 1])]
    );
    assert_eq!(
        c.calls[0].path,
        "/admin/resharding/start?database=Orders%20db&fromBucket=2500&toBucket=2999&toShard=0"
    );
    assert_eq!((c.calls[0].call, c.calls[1].call), (1, 2));
    assert_eq!((c.calls[1].buckets, c.calls[1].docs), (1000, 4 + 10));
    assert_eq!(c.url, "https://a.example.com:443");
    assert_eq!(c.state_endpoint, "/operations/state?id={OperationId}");
    assert!(c.before.is_empty() && c.after.is_empty());
    // Shard 0: 10 docs; it takes 50 (2500..2999) first, then gives 4 (540..810 in
    // 500..999).
    let s0 = c.shards[0];
    assert_eq!((s0.before, s0.peak, s0.after), (10, 60, 56));
    // Shard 2 gives first, then takes: it never holds more than at the end.
    let s2 = c.shards[2];
    assert_eq!((s2.before, s2.peak, s2.after), (100, 100, 64));
    assert_eq!(c.estimate.buckets, 1500);
    assert!((c.estimate.buckets_seconds - 60.0).abs() < 1e-9);
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["calls"][1]["method"], "POST");
    assert_eq!(json["calls"][1]["estimate"]["buckets"], 1000);
}

#[test]
fn the_emptiest_destination_fills_first() {
    // Shard 1 and shard 2 both receive; shard 2 holds nothing, so its calls go first
    // although shard 1's buckets come first in bucket order.
    let current = topology(&[(0, 0), (100, 1), (200, 2)], 3, &[]);
    let target = topology(&[(0, 1), (50, 0), (100, 2), (150, 1), (200, 2)], 3, &[]);
    let load = BucketLoad::from_buckets(
        (0..100u32)
            .map(|b| (b, None))
            .chain((100..150).map(|b| (b, None)))
            .chain((300..310).map(|b| (b, None))),
    );
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    let c = calls(&current, &p, &CallsOptions::default()).unwrap();
    let order: Vec<u32> = c.calls.iter().map(|c| c.to_shard).collect();
    assert_eq!(order, vec![2, 1]);
    assert_eq!(c.database, "Orders");
}

#[test]
fn prefix_blocks_split_runs_and_add_the_destination_first() {
    let current = topology(
        &[(0, 0), (B / 2, 1), (B, 1), (B + B / 2, 0)],
        3,
        &[("eu/", &[0, 1], B)],
    );
    let target = topology(
        &[(0, 0), (B / 2, 2), (B, 2), (B + B / 2, 0)],
        3,
        &[("eu/", &[0, 1, 2], B)],
    );
    let p = empty_plan(&current, &target);
    let c = calls(&current, &p, &options()).unwrap();
    let runs: Vec<(u32, u32, Option<&str>)> = c
        .calls
        .iter()
        .map(|c| (c.from_bucket, c.to_bucket, c.prefix.as_deref()))
        .collect();
    // Same destination on both sides of the block edge: still two calls.
    assert_eq!(
        runs,
        vec![(B / 2, B - 1, None), (B, B + B / 2 - 1, Some("eu/"))]
    );
    assert_eq!(
        c.before,
        vec![Chore::AddPrefixShard {
            prefix: "eu/".into(),
            shard: 2
        }]
    );
    assert!(c
        .script()
        .contains("# Before the calls: Add shard 2 to the shards of prefix 'eu/'."));
}

#[test]
fn new_and_removed_shards_are_chores() {
    let current = Topology::with_shards(2).unwrap();
    let (grown, shard) = add_shard(&current, vec![]).unwrap();
    let target = topology(&[(0, 0), (B / 2, 2)], 3, &[]);
    assert_eq!(shard, 2);
    let p = empty_plan(&grown, &target);
    let c = calls(&current, &p, &options()).unwrap();
    assert_eq!(c.before, vec![Chore::AddShard { shard: 2 }]);
    let shrunk = Topology::with_shards(1).unwrap();
    let p = empty_plan(&current, &shrunk);
    let c = calls(&current, &p, &options()).unwrap();
    assert_eq!(c.after, vec![Chore::RemoveShard { shard: 1 }]);
}

#[test]
fn bad_database_and_url_are_refused() {
    let (current, target, load) = small();
    let p = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    for url in ["a.example.com", "https://", "http://a/b"] {
        let o = CallsOptions {
            url: url.into(),
            ..options()
        };
        let e = calls(&current, &p, &o).unwrap_err();
        assert!(e.to_string().contains("is not a node's URL"), "{e}");
    }
    let o = CallsOptions {
        database: Some(" ".into()),
        ..options()
    };
    assert!(calls(&current, &p, &o).is_err());
}

#[test]
fn the_estimate_counts_data_and_buckets() {
    let (current, target, load) = small();
    let o = PlanOptions {
        throughput: Some(Throughput::Docs(10.0)),
        bucket_cost: BucketCost::parse("2ms").unwrap(),
        ..Default::default()
    };
    let p = plan(&current, &target, &load, &o).unwrap();
    assert_eq!(p.buckets_moved, 1500);
    assert_eq!(p.estimate.data_seconds, Some(p.docs_moved as f64 / 10.0));
    assert!((p.estimate.buckets_seconds - 3.0).abs() < 1e-9);
    assert_eq!(
        p.estimate_seconds,
        Some(p.docs_moved as f64 / 10.0 + p.estimate.buckets_seconds)
    );
    assert_eq!(p.estimate.dominant, Dominant::Data);
    let without = plan(&current, &target, &load, &PlanOptions::default()).unwrap();
    assert_eq!(without.estimate.data_seconds, None);
    assert_eq!(without.estimate_seconds, None);
    assert!((without.estimate.buckets_seconds - 1500.0 * 0.04).abs() < 1e-9);
}

#[test]
fn a_balance_of_260000_buckets_is_dominated_by_the_buckets() {
    let current = Topology::with_shards(3).unwrap();
    let ids = (0..30_000).map(|i| format!("orders/{i}"));
    let load =
        BucketLoad::from_buckets(ids.map(|id| (current.bucket_for(&id).unwrap(), Some(2_000))));
    let (grown, _) = add_shard(&current, vec![]).unwrap();
    let options = BalanceOptions {
        threshold: 0.0,
        throughput: Some(Throughput::parse("50MB/s").unwrap()),
        ..Default::default()
    };
    let b = balance(&grown, &load, &options).unwrap();
    let e = b.plan.estimate;
    assert!(e.buckets > 250_000, "{}", e.buckets);
    assert_eq!(e.buckets, b.migrations);
    assert_eq!(e.dominant, Dominant::Buckets);
    // 15 MB at 50 MB/s is well under a second; 260,000 buckets at 40 ms are hours.
    assert!(e.data_seconds.unwrap() < 1.0);
    assert!(e.buckets_seconds > 10_000.0);
    let script = calls(&grown, &b.plan, &CallsOptions::default())
        .unwrap()
        .script();
    assert!(script.contains(" x 0.040s)"), "{script}");
}

/// Shard 0 holds 20 heavy buckets scattered among 20,000 light ones; shard 1 holds little.
fn skewed() -> (Topology, BucketLoad) {
    let current = Topology::with_shards(2).unwrap();
    let heavy = (0..20u32).flat_map(|i| std::iter::repeat_n((i * 25_000 + 7, None), 1_000));
    let light = (0..20_000u32).map(|i| (i * 25 + 3, None));
    let other = (0..1_000u32).map(|i| (B / 2 + i * 100, None));
    (
        current,
        BucketLoad::from_buckets(heavy.chain(light).chain(other)),
    )
}

#[test]
fn fewest_migrations_moves_fewer_buckets_in_more_ranges() {
    let (current, load) = skewed();
    let run = |objective| {
        let o = BalanceOptions {
            threshold: 1.0,
            objective,
            ..Default::default()
        };
        balance(&current, &load, &o).unwrap()
    };
    let (contiguous, fewest) = (run(Objective::Contiguous), run(Objective::FewestMigrations));
    assert!(contiguous.plan.skew_after < contiguous.plan.skew_before);
    assert!(
        fewest.plan.skew_after.unwrap() <= 1.02,
        "{:?}",
        fewest.plan.skew_after
    );
    assert!(
        fewest.migrations * 100 < contiguous.migrations,
        "{} vs {}",
        fewest.migrations,
        contiguous.migrations
    );
    assert!(fewest.ranges_added > contiguous.ranges_added);
    assert_eq!(fewest.migrations, fewest.plan.buckets_moved);
    // Both objectives are reported by either balance, with the same figures.
    for b in [&contiguous, &fewest] {
        let names: Vec<Objective> = b.objectives.iter().map(|o| o.objective).collect();
        assert_eq!(names, Objective::ALL.to_vec());
        assert_eq!(b.objectives[1].migrations, fewest.migrations);
        assert_eq!(b.objectives[0].ranges_added, contiguous.ranges_added);
    }
    let json = serde_json::to_value(&fewest).unwrap();
    assert_eq!(json["options"]["objective"], "fewest-migrations");
    assert_eq!(json["objectives"][0]["objective"], "contiguous");
}

/// A fake RavenDB node: `POST /admin/resharding/start` answers the next operation ID; the
/// first `GET /operations/state?id=N` answers `InProgress`, the next `Completed`, or
/// `Faulted` for operation `fault`. Returns its URL and the requests it saw.
fn fake_server(fault: Option<u64>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        let mut next_id = 0u64;
        let mut polled = std::collections::HashSet::new();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut length = 0;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                if let Some(v) = header.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                if header.trim().is_empty() {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let target = request_line
                .split(' ')
                .take(2)
                .collect::<Vec<_>>()
                .join(" ");
            log.lock().unwrap().push(target.clone());
            let (status, answer) = if target.starts_with("POST /admin/resharding/start?") {
                next_id += 1;
                (
                    "200 OK",
                    format!(r#"{{"OperationId":{next_id},"OperationNodeTag":"A"}}"#),
                )
            } else if let Some(id) = target.strip_prefix("GET /operations/state?id=") {
                let id: u64 = id.parse().unwrap();
                if polled.insert(id) {
                    (
                        "200 OK",
                        r#"{"Result":null,"Progress":{"Message":"Moving"},"Status":"InProgress"}"#
                            .into(),
                    )
                } else if Some(id) == fault {
                    ("200 OK", r#"{"Result":{"Message":"Destination shard 9 doesn't exist","Error":"..."},"Status":"Faulted"}"#.into())
                } else {
                    (
                        "200 OK",
                        r#"{"Result":{"Message":"Finished"},"Progress":null,"Status":"Completed"}"#
                            .into(),
                    )
                }
            } else {
                ("404 Not Found", String::new())
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    (url, seen)
}

/// Three calls: to shards 1, 2 and 3 in turn.
fn three_calls() -> Calls {
    let current = topology(&[(0, 0)], 4, &[]);
    let target = topology(&[(0, 0), (100, 1), (200, 2), (300, 3), (400, 0)], 4, &[]);
    let p = empty_plan(&current, &target);
    let c = calls(&current, &p, &options()).unwrap();
    assert_eq!(c.calls.len(), 3);
    c
}

fn run_script(calls: &Calls, url: &str, poll: &str) -> (i32, String, String) {
    let path = std::env::temp_dir().join(format!(
        "ravenshard-calls-{}-{}.sh",
        std::process::id(),
        url.rsplit(':').next().unwrap()
    ));
    std::fs::write(&path, calls.script()).unwrap();
    let out = Command::new("sh")
        .arg(&path)
        .args(["--url", url, "--poll", poll])
        .output()
        .expect("sh runs");
    let _ = std::fs::remove_file(&path);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_script_runs_the_calls_one_after_the_other() {
    let c = three_calls();
    let (url, seen) = fake_server(None);
    // Each operation is InProgress at the first poll: the script waits (0.1 s) and polls again.
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = run_script(&c, &url, "5");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "the first waits are short"
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.ends_with("all calls completed\n"), "{stdout}");
    let seen = seen.lock().unwrap().clone();
    let expected: Vec<String> = c
        .calls
        .iter()
        .enumerate()
        .flat_map(|(i, call)| {
            let id = i + 1;
            [
                format!("POST {}", call.path),
                format!("GET /operations/state?id={id}"),
                format!("GET /operations/state?id={id}"),
            ]
        })
        .collect();
    assert_eq!(seen, expected);
    assert!(stdout.contains("call 1: buckets 100..199 to shard 1: operation 1 on node A"));
}

#[test]
fn the_script_stops_at_a_faulted_operation_and_says_what_is_left() {
    let c = three_calls();
    let (url, seen) = fake_server(Some(2));
    let (code, stdout, stderr) = run_script(&c, &url, "0");
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let starts = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r.starts_with("POST"))
        .count();
    assert_eq!(starts, 2, "no call after the faulted one");
    let second = &c.calls[1];
    let third = &c.calls[2];
    assert!(
        stderr.contains("call 2: operation 2 Faulted: Destination shard 9 doesn't exist"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!(
        "stopped: call 2 (buckets {}..{} to shard {})",
        second.from_bucket, second.to_bucket, second.to_shard
    )));
    assert!(stderr.contains(&format!(
        "remaining: call 3: buckets {}..{} to shard {}",
        third.from_bucket, third.to_bucket, third.to_shard
    )));
    assert!(stderr.contains("--from 2"), "{stderr}");
    // Started again from call 2, it carries out the rest.
    let (url, seen) = fake_server(None);
    let path =
        std::env::temp_dir().join(format!("ravenshard-calls-resume-{}.sh", std::process::id()));
    std::fs::write(&path, c.script()).unwrap();
    let out = Command::new("sh")
        .arg(&path)
        .args(["--url", &url, "--poll", "0", "--from", "2"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success());
    let starts: Vec<String> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r.starts_with("POST"))
        .cloned()
        .collect();
    assert_eq!(
        starts,
        vec![
            format!("POST {}", second.path),
            format!("POST {}", third.path)
        ]
    );
}

#[test]
fn the_script_stops_when_the_server_refuses_a_call() {
    let c = three_calls();
    let (code, _, stderr) = run_script(&c, "http://127.0.0.1:9", "0");
    assert_eq!(code, 1);
    assert!(stderr.contains("call 1: curl could not reach"), "{stderr}");
    assert!(stderr.contains("remaining: call 3"), "{stderr}");
}

#[test]
fn the_script_passes_the_client_certificate_to_curl() {
    let mut c = three_calls();
    c.cert = Some("/etc/ravendb/admin's.pem".into());
    c.cacert = Some("/etc/ravendb/ca.pem".into());
    let script = c.script();
    assert!(
        script.contains(r"CERT='/etc/ravendb/admin'\''s.pem'"),
        "{script}"
    );
    assert!(script.contains("CACERT='/etc/ravendb/ca.pem'"));
    assert!(script.contains(r#"set -- "$@" --cert "$CERT""#));
    let out = Command::new("sh")
        .arg("-n")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    assert!(out.status.success(), "the script parses");
}
