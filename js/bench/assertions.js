// The JS API's assertions, shared by the page (js/bench/main.js, in headless Chromium, plain
// or bundled) and the npm package's Node.js tests (js/package/test/): each gets the API (the
// package's exports) and its own `check(name, actual, expected)`, PASS when `actual()` is
// deep-equal (as JSON) to `expected`, and `throws(name, f, part)`, PASS when `f()` throws an
// `Error` whose message contains `part`. Both run `actual` and `f` at once (objects are freed
// after their checks).

/** Runs every assertion: bucket, topology, explain, the draft design, resharding, bytes. */
export function runAssertions(api, report) {
  basics(api, report);
  bytes(api, report);
  design(api, report);
  reshard(api, report);
  bucketStatistics(api, report);
  growth(api, report);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const PREFIXED = JSON.stringify({
  Shards: { 0: {}, 1: {}, 2: {} },
  Prefixed: [{ Prefix: "eu/", Shards: [0] }, { Prefix: "asia/", Shards: [1, 2] }],
});

function basics({ bucketFor, bucketsFor, explain, Topology }, { check, throws }) {
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

function design({ configDiff, Topology }, { check, throws }) {
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

function reshard({ Topology, Workload }, { check, throws }) {
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
    balanced.estimate.data_seconds === balanced.bytes_moved / 1e5,
    balanced.estimate_seconds === balanced.estimate.data_seconds + balanced.estimate.buckets_seconds,
    balanced.estimate.buckets === balanced.buckets_moved && balanced.estimate.dominant,
    balanced.options.threshold,
  ], [25, true, true, true, true, "buckets", 0]);
  check("balance reports both objectives", () => {
    const fewest = onGrown.balance({ threshold: 0, objective: "fewest-migrations" });
    return [fewest.options.objective, fewest.objectives.map((o) => o.objective),
      fewest.migrations <= balanced.migrations, fewest.migrations === fewest.buckets_moved];
  }, ["fewest-migrations", ["contiguous", "fewest-migrations"], true, true]);
  check("balanceCalls: one resharding/start per run, and the script", () => {
    const { calls, script } = onGrown.balanceCalls({ database: "Orders", url: "https://a.example.com" },
      { threshold: 0, bucketCost: "10ms" });
    return [calls.calls.reduce((n, c) => n + c.buckets, 0) === balanced.buckets_moved, calls.calls[0].path.startsWith(
      "/admin/resharding/start?database=Orders&fromBucket="), calls.state_endpoint,
      calls.estimate.bucket_cost_seconds, script.startsWith("#!/bin/sh\n")];
  }, [true, true, "/operations/state?id={OperationId}", 0.01, true]);
  throws("a URL that is not a node's", () => onGrown.balanceCalls({ url: "a.example.com" }),
    "is not a node's URL");
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

/** `Workload.fromBucketStatistics`: RavenDB's `debug/sharding/buckets` answers in place of documents. */
function bucketStatistics({ Topology, Workload }, { check, throws }) {
  const range = (from, to, shards, docs, bytes) => ({ [from]: {
    RangeSizeHumane: "-", ShardNumbers: shards, FromBucket: from, ToBucket: to, NumberOfBuckets: 2,
    RangeSize: bytes, DocumentsCount: docs, LastModified: "2026-11-20T10:11:12.1234567Z" } });
  const answer = (...ranges) => JSON.stringify({ TotalSizeHumane: "-", TotalSize: 0,
    BucketRanges: Object.assign({}, ...ranges) });
  const current = Topology.withShards(2);
  const whole = answer(range(0, 32767, [0], 600, 6000), range(32768, 65535, [0], 300, 3000));
  const shard1 = answer(range(600000, 600001, [1], 100, 1000));
  const workload = Workload.fromBucketStatistics(current, [whole, shard1], ["whole.json", "shard1.json"]);
  check("fromBucketStatistics summary", () => {
    const s = workload.summary();
    return [s.documents, s.bytes, s.per_range, s.statistics_notes];
  }, [1000, 10000, 3, []]);
  check("a balance over statistics moves whole ranges and says so", () => {
    const b = workload.balance({ threshold: 0 });
    const note = b.notes.find((n) => n.kind === "per_range");
    return [b.docs_moved, b.moves.map((m) => [m.from_bucket, m.to_bucket]), note.drill_downs[0].range];
  }, [300, [[32768, 524287]], 1024]);
  check("a drill-down replaces the range it resolves", () => {
    const drill = answer(range(0, 1023, [0], 500, 5000), range(31744, 32767, [0], 100, 1000));
    const w = Workload.fromBucketStatistics(current, [whole, drill]);
    const s = w.summary();
    w.free();
    return [s.documents, s.per_range];
  }, [900, 3]);
  check("one text is one answer", () => {
    const w = Workload.fromBucketStatistics(current, shard1);
    const d = w.summary().documents;
    w.free();
    return d;
  }, 100);
  throws("not a statistics answer", () => Workload.fromBucketStatistics(current, '{"Results": []}'),
    "answer 1: not a bucket statistics answer");
  throws("a bad value is named with its key", () => Workload.fromBucketStatistics(current,
    [whole.replace('"DocumentsCount":600', '"DocumentsCount":"x"')], ["b.json"]),
    "b.json: BucketRanges.0.DocumentsCount: invalid type");
  throws("a prefix block needs a prefix", () => Workload.fromBucketStatistics(current,
    answer(range(1048576, 1048577, [0], 1, 1))), "no prefix of the database record owns that block");
  throws("answers that are not text", () => Workload.fromBucketStatistics(current, 42), "answers");
  for (const o of [current, workload]) o.free();
}

/** `bucketGrowth`: snapshots of bucket statistics saved at different times, side by side. */
function growth({ bucketGrowth }, { check, throws }) {
  const answer = (when, ...ranges) => JSON.stringify({ TotalSizeHumane: "-", TotalSize: 0,
    BucketRanges: Object.fromEntries(ranges.map(([from, to, shards, docs]) => [from, {
      RangeSizeHumane: "-", ShardNumbers: shards, FromBucket: from, ToBucket: to, NumberOfBuckets: 1,
      RangeSize: docs * 10, DocumentsCount: docs, LastModified: when }])) });
  const monday = { name: "monday", answers: answer("2026-11-23T08:00:00.1234567Z",
    [0, 32767, [0], 10], [524288, 557055, [1], 5]) };
  const tuesday = { name: "tuesday", answers: [
    answer("2026-11-24T08:00:00.1234567Z", [0, 1023, [0], 12]),
    answer("2026-11-24T07:00:00Z", [524288, 557055, [0, 1], 50])], names: ["s0.json", "s1.json"] };
  check("bucketGrowth orders the snapshots and sums a drill-down into its bin", () => {
    const g = bucketGrowth([tuesday, monday]);
    return [g.width, g.snapshots.map((s) => [s.name, s.time]), g.bins.map((b) => b.amounts.map((a) => a.docs))];
  }, [32768, [["monday", "2026-11-23T08:00:00.1234567Z"], ["tuesday", "2026-11-24T08:00:00.1234567Z"]],
    [[10, 12], [5, 50]]]);
  check("bucketGrowth's shards, shared figures and the bins that gained most", () => {
    const g = bucketGrowth([monday, tuesday], { top: 1, by: "bytes" });
    return [g.snapshots[1].shards, g.snapshots[1].shared, g.growing];
  }, [[{ shard: 0, docs: 12, bytes: 120 }], { docs: 50, bytes: 500 },
    [{ from_bucket: 524288, to_bucket: 557055, docs_change: 45, bytes_change: 450, shards: [0, 1] }]]);
  check("a snapshot's time given orders it", () =>
    bucketGrowth([{ ...monday, taken: "2026-12-01T00:00:00Z" }, tuesday]).snapshots[0].name, "tuesday");
  throws("one snapshot is not growth", () => bucketGrowth([monday]), "give at least two");
  throws("a time that is not RFC 3339", () => bucketGrowth([{ ...monday, taken: "monday" }, tuesday]),
    "snapshots[0].taken");
  throws("a bad answer is named", () => bucketGrowth([monday, { name: "t", answers: ["{"], names: ["t.json"] }]),
    "t.json");
  throws("an unknown option", () => bucketGrowth([monday, tuesday], { tops: 1 }), "unknown key `tops`");
}

/** The bulk calls with UTF-8 bytes (a file read with `fs.readFileSync`, a `fetch`ed body). */
function bytes({ bucketsFor, Topology, Workload }, { check, throws }) {
  const text = "orders/1-A\r\nStraße/1\tx\nUsers/70$Users/4\n";
  const utf8 = new TextEncoder().encode(text);
  check("bucketsFor(bytes) is bucketsFor(string)", () => [...bucketsFor(utf8)], [...bucketsFor(text)]);
  check("bucketsFor(empty bytes)", () => bucketsFor(new Uint8Array(0)).length, 0);
  check("bucketsFor(a view into a larger buffer)",
    () => [...bucketsFor(new Uint8Array(utf8.buffer, 12, 9))], [...bucketsFor("Straße/1")]);
  throws("bucketsFor(bytes that are not UTF-8) names the line",
    () => bucketsFor(new Uint8Array([97, 10, 98, 0xc3, 10])), "line 2: byte 0xC3 at offset 3 is not UTF-8");
  throws("bucketsFor(bytes) names an invalid line", () => bucketsFor(new TextEncoder().encode("a\n\n")),
    "line 2: Document ID cannot be empty");
  throws("bucketsFor(neither text nor bytes)", () => bucketsFor(42), "give a string or a Uint8Array");
  const topology = Topology.withShards(3);
  check("Topology.bucketsFor and shardsFor take bytes", () => [
    same([...topology.bucketsFor(utf8)], [...topology.bucketsFor(text)]),
    same([...topology.shardsFor(utf8)], [...topology.shardsFor(text)]),
  ], [true, true]);
  check("new Workload(topology, bytes)", () => {
    const workload = new Workload(topology, new TextEncoder().encode("a\t12\nb\t30\n"));
    const s = workload.summary();
    workload.free();
    return [s.documents, s.bytes];
  }, [2, 42]);
  topology.free();
}
