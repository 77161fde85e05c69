// The JS API as a JS user calls it, from the npm package: the shared assertions
// (assertions.js), then (with ?bench) the benchmarks. index.html maps `ravenshard` to the
// package's browser entry with an import map; `js/bench/run.sh --bundle` bundles this file
// with esbuild instead (see run.sh). The package compiles its wasm when imported, so the page
// runs entirely before its load event, when `chromium --dump-dom` reads the DOM.
import * as api from "ravenshard";
import { runAssertions } from "./assertions.js";

const { bucketFor, bucketsFor, Topology, Workload } = api;

const log = document.getElementById("log");
const write = (kind, text) => {
  const div = document.createElement("div");
  div.className = kind;
  div.textContent = `${kind} ${text}`;
  log.append(div);
};

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** PASS if `actual()` is deep-equal (as JSON) to `expected`. */
function check(name, actual, expected) {
  try {
    const value = actual();
    if (same(value, expected)) write("PASS", name);
    else write("FAIL", `${name}: got ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`);
  } catch (e) {
    write("FAIL", `${name}: threw ${e}`);
  }
}

/** PASS if `f()` throws an `Error` whose message contains `part`. */
function throws(name, f, part) {
  try {
    write("FAIL", `${name}: returned ${JSON.stringify(f())}`);
  } catch (e) {
    if (e instanceof Error && e.message.includes(part)) write("PASS", name);
    else write("FAIL", `${name}: threw ${e} (expected an Error containing ${JSON.stringify(part)})`);
  }
}

/** Milliseconds of the fastest of `runs` calls of `f`, after one warm-up call. */
function best(runs, f) {
  f();
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

function benchmark() {
  const count = 1_000_000;
  const ids = Array.from({ length: count }, (_, i) => `orders/${100000 + ((i * 7919) % 900000)}-A`);
  const text = ids.join("\n");
  const rate = (ms) => `${Math.round(count / (ms / 1000)).toLocaleString("en-US")} IDs/s`;

  let bulk;
  const bulkMs = best(5, () => { bulk = bucketsFor(text); });
  write("BENCH", `bucketsFor (one call, ${count.toLocaleString("en-US")} IDs): ${bulkMs.toFixed(1)} ms, ${rate(bulkMs)}`);
  const bytes = new TextEncoder().encode(text);
  const bytesMs = best(5, () => bucketsFor(bytes));
  write("BENCH", `bucketsFor (one call, the same IDs as UTF-8 bytes): ${bytesMs.toFixed(1)} ms, ${rate(bytesMs)}`);

  const single = new Uint32Array(count);
  const loopMs = best(3, () => { for (let i = 0; i < count; i++) single[i] = bucketFor(ids[i]); });
  write("BENCH", `bucketFor (JS loop, ${count.toLocaleString("en-US")} calls): ${loopMs.toFixed(1)} ms, ${rate(loopMs)}`);
  write("BENCH", `bucketsFor is ${(loopMs / bulkMs).toFixed(1)}x the loop`);
  check("bucketsFor equals the bucketFor loop on the benchmark IDs",
    () => bulk.length === count && bulk.every((b, i) => b === single[i]), true);
}

/**
 * The resharding scale: 1,000,000 documents with sizes (as benches/reshard.rs makes
 * them) over 10 shards. Reads them into a Workload (hashing every ID), balances over the 10
 * shards plus an added 11th, and plans to the balanced target: each a synchronous call
 * that holds the page's main thread, so the longest of them is how long the page stops
 * responding.
 */
function reshardBenchmark() {
  const count = 1_000_000;
  const lines = new Array(count);
  for (let i = 0; i < count; i++) {
    const kind = i % 4;
    const id = kind === 0 ? `orders/${i}-A$companies/${i % 9973}-A`
      : kind === 1 ? `lines/${i}-A` : kind === 2 ? `companies/${i}-A` : `employees/${i}-A`;
    lines[i] = `${id}\t${200 + ((i * 37) % 4000)}`;
  }
  const text = lines.join("\n");
  const ten = Topology.withShards(10);
  const eleven = ten.addShard();
  const run = () => {
    const t0 = performance.now();
    const workload = new Workload(ten, text);
    const t1 = performance.now();
    const onEleven = workload.withTopology(eleven);
    const balanced = onEleven.balance({ threshold: 0 });
    const t2 = performance.now();
    const target = new Topology(JSON.stringify(balanced.target));
    const planned = onEleven.plan(target, { by: "bytes", throughput: "50MB/s" });
    const t3 = performance.now();
    const result = { load: t1 - t0, balance: t2 - t1, plan: t3 - t2, total: t3 - t0, balanced, planned };
    for (const o of [workload, onEleven, target]) o.free();
    return result;
  };
  const runs = [run(), run(), run(), run()];
  const ms = (x) => `${x.toFixed(0)} ms`;
  const phases = (r) => `load ${ms(r.load)} + balance ${ms(r.balance)} + plan ${ms(r.plan)} = ${ms(r.total)}`;
  const n = `${count.toLocaleString("en-US")} documents, 10 shards + 1 added`;
  const fastest = runs.slice(1).reduce((a, b) => (b.total < a.total ? b : a));
  write("BENCH", `reshard (${n}), first run: ${phases(runs[0])}`);
  write("BENCH", `reshard (${n}), fastest of 3 more: ${phases(fastest)}`);
  const longest = Math.max(...runs.map((r) => Math.max(r.load, r.balance, r.plan)));
  write("BENCH", `reshard: the longest single call held the main thread ${ms(longest)}`);
  const { balanced, planned } = runs[0];
  write("BENCH", `reshard: balance moves ${(balanced.share_moved * 100).toFixed(1)}% of the documents in ` +
    `${balanced.moves.length} runs (${balanced.buckets_moved.toLocaleString("en-US")} buckets), skew ` +
    `${balanced.skew_before.toFixed(3)} -> ${balanced.skew_after.toFixed(3)}; at 50MB/s ${planned.estimate_seconds.toFixed(0)} s`);
  check("reshard benchmark: every document read, the new shard gets a fair share",
    () => [balanced.docs, Math.abs(balanced.per_shard[10].docs_after - count / 11) < count / 1100], [count, true]);
  check("reshard benchmark: under 2 s", () => fastest.total < 2000, true);
  ten.free();
  eleven.free();
}

try {
  runAssertions(api, { check, throws });
  if (new URLSearchParams(location.search).has("bench")) {
    benchmark();
    reshardBenchmark();
  }
} catch (e) {
  write("FAIL", `page: ${e}`);
}
write("DONE", navigator.userAgent);
