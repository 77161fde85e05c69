// The JS API as a JS user calls it: assertions, then (with ?bench) the benchmarks.
// Loaded by index.html next to the `wasm-bindgen --target web` output in ./pkg (see run.sh).
import { initSync, bucketFor, bucketsFor, configDiff, explain, Topology, Workload } from "./pkg/ravenshard_js.js";

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

const PREFIXED = JSON.stringify({
  Shards: { 0: {}, 1: {}, 2: {} },
  Prefixed: [{ Prefix: "eu/", Shards: [0] }, { Prefix: "asia/", Shards: [1, 2] }],
});

function assertions() {
  check("bucketFor", () => bucketFor("orders/1-A"), 151326);
  check("bucketFor anchored", () => bucketFor("orders/2-A$customers/1-A"), 982173);
  check("bucketFor case", () => bucketFor("Users/70$Users/4"), 690258);
  check("bucketsFor is a Uint32Array", () => bucketsFor("a\nb") instanceof Uint32Array, true);
  check("bucketsFor \\r\\n, final newline", () => [...bucketsFor("orders/1-A\r\ncustomers/1-A\n")], [151326, 982173]);
  throws("bucketFor empty ID", () => bucketFor(""), "Document ID cannot be empty");
  throws("bucketFor 513 bytes", () => bucketFor("x".repeat(513)),
    "Document ID cannot exceed 512 bytes, but the ID was 513 bytes");
  throws("bucketsFor names the line", () => bucketsFor("a\n\nb"), "line 2: Document ID cannot be empty");

  const topology = new Topology(PREFIXED);
  check("new Topology(json).locate", () => topology.locate("asia/2"),
    { bucket: 2831086, shard: 2, prefix: "asia/", fragment: "db$2", nodes: [] });
  check("locate eu/0", () => [topology.locate("eu/0").bucket, topology.locate("eu/0").shard], [1906271, 0]);
  check("shardsFor", () => [...topology.shardsFor("eu/0\nasia/1\nasia/2")], [0, 1, 2]);
  check("database", () => topology.database, "db");
  check("toJson round trip", () => new Topology(topology.toJson()).toJson() === topology.toJson(), true);
  check("warnings", () => topology.warnings(), []);
  check("withShards(3)", () => [...Topology.withShards(3).shardsFor("orders/1-A\ncustomers/1-A")], [0, 2]);
  check("report", () => {
    const r = Topology.withShards(3).report(["users/4", "Users/70$Users/4", ""], { topBuckets: 1 });
    return [r.documents, r.invalid_count, r.shards[1].documents, r.top_buckets.length, r.anchored_groups[0].anchor];
  }, [2, 1, 2, 1, "users/4"]);
  topology.free();

  check("explain", () => {
    const e = explain("Orders/2-A$Customers/1-A");
    return [e.lower_id, e.hashed, e.bucket, /^[0-9a-f]{16}$/.test(e.hash), e.shard, e.prefix];
  }, ["orders/2-a$customers/1-a", "customers/1-a", 982173, true, null, null]);
  check("explain with config", () => {
    const e = explain("asia/1", PREFIXED);
    return [e.bucket, e.shard, e.prefix, e.fragment];
  }, [2429030, 1, { prefix: "asia/", bucket_range_start: 2097152 }, "db$1"]);
  throws("bad config is an Error with the JSON path",
    () => new Topology('{"Shards": {"0": {}}, "Prefixed": [{"Prefix": "eu", "Shards": [0]}]}'),
    "Prefixed[0].Prefix");
  throws("invalid JSON", () => new Topology('{"Shards": '), "invalid JSON at line 1");
  throws("withShards(-1)", () => Topology.withShards(-1), "shard count must be a whole number");
}

/** The draft chapter's configuration: 3 shards, Orders placed by Customer in blocks of `range`. */
const chapter = (range, mutable = false) => JSON.stringify({
  Shards: { 0: {}, 1: {}, 2: {} },
  ByContent: { Orders: { Fields: ["Customer"], Range: range, Mutable: mutable } },
});

function designAssertions() {
  const t = new Topology(chapter(1000));
  check("designOn", () => [t.designOn, Topology.withShards(3).designOn], [true, false]);
  check("contentRules", () => t.contentRules(),
    [{ name: "Orders", fields: ["Customer"], range: 1000, mutable: false }]);
  check("store generates the chapter's ID",
    () => t.store({ Customer: "customers/1-A", "@metadata": { "@id": "orders/1-A$", "@collection": "Orders" } }),
    { id: "orders/1-A$@982326", bucket: 982326, shard: 2 });
  throws("store rejects a write outside the block",
    () => t.store({ Customer: "customers/2-B", "@metadata": { "@id": "orders/1-A$@982326" } }), "Rejected:");
  check("storeMany", () => t.storeMany('{"Customer": "customers/1-A", "@metadata": {"@id": "orders/1-A$"}}\n\nnot json\n')
    .map((a) => a.error ? [a.line, a.error.slice(0, 16)] : a.id), ["orders/1-A$@982326", [3, "line 3: not JSON"]]);
  check("route", () => {
    const r = t.route("from Orders where Customer = 'customers/1-A'");
    return [r.shards, r.all_shards, r.buckets, r.fetched];
  }, [[2], false, [[982000, 983000]], null]);
  throws("route names the position", () => t.route("from Orders where"), "at line 1, column 18");
  check("locate $@", () => [t.locate("orders/1-A$@982326").bucket, [...t.bucketsFor("orders/1-A$@5")]], [982326, [5]]);
  check("checkTransaction", () => [
    t.checkTransaction(["customers/1-A", "orders/1-A$@982173"]).verdict,
    t.checkTransaction(["customers/6-A", "orders/1-A"]).verdict,
    t.checkTransaction(["customers/1-A", "orders/1-A"]).verdict,
  ], ["one_bucket", "one_shard", "several_shards"]);
  check("checkLoad", () => t.checkLoad("employees/1-A", "employees/2-A").suggestion.id, "employees/1-A$employees/2-A");
  check("configDiff safe", () => configDiff(chapter(1), chapter(1000), "orders/1-A$@982173\n").verdict, "safe");
  check("configDiff needs attention", () => {
    const d = configDiff(chapter(1000), chapter(1500),
      [{ id: "orders/9$@982999", body: { Customer: "customers/1-A" } }]);
    return [d.verdict, d.rules[0].status, d.invalidated];
  }, ["needs_attention", "needs_mutable_first", 1]);
  t.free();
}

function reshardAssertions() {
  const current = Topology.withShards(3);
  const text = Array.from({ length: 3000 }, (_, i) => `orders/${i}-A\t${100 + (i % 50)}`).join("\n");
  const workload = new Workload(current, text);
  check("Workload.summary", () => {
    const s = workload.summary();
    return [s.documents, s.bytes, s.invalid_count];
  }, [3000, 3000 * 100 + 60 * (49 * 50 / 2), 0]);
  check("Workload lists the lines left out", () => new Workload(current, "a\t12\r\n\nb\tx\n").summary().invalid,
    [{ line: 3, id: "b", error: "the size 'x' is not a whole number of bytes" }]);
  const grown = current.addShard(["D"]);
  check("addShard moves nothing by itself", () => {
    const p = workload.plan(grown);
    return [p.moves.length, p.notes.map((n) => n.kind), JSON.parse(grown.toJson()).Shards["3"].Members];
  }, [0, ["shard_added_empty", "nothing_moves"], ["D"]]);
  const onGrown = workload.withTopology(grown);
  const balanced = onGrown.balance({ threshold: 0, throughput: "0.1MB/s" });
  check("balance gives the new shard a quarter", () => [
    Math.round(balanced.share_moved * 100),
    Math.abs(balanced.per_shard[3].docs_after - 750) <= 1,
    balanced.skew_after < 1.01,
    balanced.estimate_seconds === balanced.bytes_moved / 1e5,
    balanced.options.threshold,
  ], [25, true, true, true, 0]);
  const target = new Topology(JSON.stringify(balanced.target));
  check("plan to the balanced target", () => same(onGrown.plan(target).moves, balanced.moves), true);
  check("migrationSteps", () => onGrown.migrationSteps(target), balanced.buckets_moved * 4);
  check("migrationStep 0 is RavenDB's BucketMigrations", () => {
    const s = onGrown.migrationStep(target, 0);
    const m = s.configuration.BucketMigrations[s.bucket];
    return [s.phase, m.Status, m.SourceShard, m.DestinationShard, s.writes.shard];
  }, ["Moving", "Moving", balanced.moves[0].from_shard, 3, balanced.moves[0].from_shard]);
  throws("removeShard of a shard with buckets", () => current.removeShard(1),
    "first you need to migrate all its buckets to another shard");
  check("drainShard, then removeShard", () => Object.keys(JSON.parse(workload.drainShard(1).removeShard(1).toJson()).Shards),
    ["0", "2"]);
  throws("addPrefix over documents", () => new Workload(current, "eu/1\n").addPrefix("eu/", [1]),
    "There are existing documents in database 'db' that start with 'eu/'");
  check("addPrefix, removePrefix", () => {
    const eu = workload.addPrefix("eu/", [1, 2]);
    return [eu.locate("eu/1").prefix, workload.withTopology(eu).removePrefix("EU/").toJson() === current.toJson()];
  }, ["eu/", true]);
  throws("bad throughput", () => workload.plan(grown, { throughput: "fast" }), "options: 'fast' is not a throughput");
  throws("bad measure", () => workload.balance({ by: "pages" }), "options: unknown variant `pages`");
  throws("unknown option", () => workload.balance({ treshold: 1 }), "options: unknown key `treshold`");
  throws("weights for an unknown shard", () => workload.balance({ weights: { 9: 1 } }), "shard 9");
  throws("weights as bad text", () => workload.balance({ weights: "1:2" }), "'1:2' is not a weight");
  throws("a step that is not a whole number", () => onGrown.migrationStep(target, -1), "the step must be a whole number");
  throws("documents that are not text", () => new Workload(current, ["a"]), "documents: ");
  for (const o of [current, workload, grown, onGrown, target]) o.free();
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

/**
 * Loads the wasm synchronously (`initSync`), where an application would `await init()`: the
 * page then runs entirely before its load event, which is when `chromium --dump-dom` reads
 * the DOM. Waiting for an asynchronous page instead (`--virtual-time-budget`) virtualises
 * the clock: `performance.now()` then measured 0 ms or real time from run to run.
 */
function loadWasm() {
  const url = "pkg/ravenshard_js_bg.wasm";
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url, false);
  xhr.overrideMimeType("text/plain; charset=x-user-defined"); // bytes as U+0000-00FF, U+F780-F7FF
  xhr.send();
  if (xhr.status !== 200) throw new Error(`GET ${url}: ${xhr.status}`);
  initSync({ module: Uint8Array.from(xhr.responseText, (c) => c.charCodeAt(0) & 0xff) });
}

try {
  loadWasm();
  assertions();
  designAssertions();
  reshardAssertions();
  if (new URLSearchParams(location.search).has("bench")) {
    benchmark();
    reshardBenchmark();
  }
} catch (e) {
  write("FAIL", `page: ${e}`);
}
write("DONE", navigator.userAgent);
