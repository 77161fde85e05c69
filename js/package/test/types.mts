// Every export of the npm package, through `import`, checked by `tsc --noEmit --strict`
// (js/package/test/run.sh types): the calls type-check, and no result is `any`.
import {
  advise, bucketFor, bucketGrowth, bucketsFor, check, configDiff, explain, Topology, Workload,
  type Amount, type Growth,
  type Advice, type AdviseCandidate, type CallsExport, type Estimate, type Objective, type AdviseStrategy, type BalancePlan, type ConfigDiff, type ContentRule, type Explanation, type LoadCheck,
  type Location, type MigrationStep, type Notice, type PlacedId, type Plan, type Report,
  type CheckFinding, type CheckLocation, type CheckReport, type CheckSeverity,
  type Route, type StoreAnswer, type TransactionCheck, type WorkloadSummary, type DrillDown,
} from "ravenshard";

/** `true` only when `T` is exactly `Expected` (and so not `any`). */
type Exact<T, Expected> = (<U>() => U extends T ? 1 : 2) extends (<U>() => U extends Expected ? 1 : 2) ? true : false;
/** `is<Expected>()(value)` compiles only when `value`'s type is exactly `Expected`. */
const is = <Expected,>() => <T,>(_value: T, ..._exact: Exact<T, Expected> extends true ? [] : [never]) => {};

const bytes: Uint8Array = new Uint8Array([111, 114, 100, 101, 114, 115, 47, 49, 10]);
is<number>()(bucketFor("orders/1-A"));
is<Uint32Array>()(bucketsFor("orders/1-A"));
is<Uint32Array>()(bucketsFor(bytes));
const explanation = explain("Orders/1-A", '{"Shards": {"0": {}}}');
is<Explanation>()(explanation);
is<string>()(explanation.hash);
is<number | null>()(explanation.shard);
is<string | undefined>()(explanation.server_made?.final_id);

const topology = new Topology('{"Shards": {"0": {}, "1": {}, "2": {}}}', "Orders");
const three = Topology.withShards(3);
is<Location>()(topology.locate("customers/1-A"));
is<string | null>()(topology.locate("customers/1-A").prefix);
is<Explanation>()(topology.explain("orders/1-A"));
is<Uint32Array>()(topology.bucketsFor(bytes));
is<Uint32Array>()(topology.shardsFor("orders/1-A"));
const report = topology.report(["users/4"], { topBuckets: 3, obeseThreshold: 10 });
is<Report>()(report);
is<number | null>()(report.skew);
is<Report>()(topology.report("users/4\nusers/5"));
is<Notice[]>()(topology.warnings());
is<string>()(topology.toJson());
is<string>()(topology.database);
is<"7" | "6.2">()(topology.serverVersion);
three.serverVersion = "6.2";
three.serverVersion = "7";
is<boolean>()(topology.designOn);
is<ContentRule[]>()(topology.contentRules());
const grown = topology.addShard(["D"]);
is<Topology>()(grown);
is<Topology>()(topology.addShard());

const design = new Topology(JSON.stringify({
  Shards: { 0: {}, 1: {}, 2: {} },
  ByContent: { Orders: { Fields: ["Customer"], Range: 1000 } },
}));
is<PlacedId>()(design.store({ Customer: "customers/1-A", "@metadata": { "@id": "orders/1-A$" } }));
is<PlacedId>()(design.store('{"@metadata": {"@id": "orders/2-A$"}}'));
is<StoreAnswer[]>()(design.storeMany('{"@metadata": {"@id": "orders/1-A$"}}\n'));
const route = design.route("from Orders where Customer = 'customers/1-A'");
is<Route>()(route);
is<number[]>()(route.shards);
is<TransactionCheck>()(design.checkTransaction(["customers/1-A", "orders/1-A"]));
is<TransactionCheck["verdict"]>()(
  design.checkTransaction([]).verdict);
is<LoadCheck>()(design.checkLoad("employees/1-A", "employees/2-A"));
const diff = configDiff("{}", "{}", [{ id: "orders/1-A", body: { Customer: "customers/1-A" } }]);
is<ConfigDiff>()(diff);
is<ConfigDiff>()(configDiff("{}", "{}", "orders/1-A\t12\n"));
is<ConfigDiff>()(configDiff("{}", "{}"));

const workload = new Workload(three, "orders/1-A\t1200\ncompanies/1-A\t800\n");
const fromBytes = new Workload(three, bytes);
is<WorkloadSummary>()(workload.summary());
const answer = '{"BucketRanges": {"0": {"ShardNumbers": [0], "FromBucket": 0, "ToBucket": 32767, "NumberOfBuckets": 1, "RangeSize": 10, "DocumentsCount": 1}}}';
const statistics = Workload.fromBucketStatistics(three, [answer, answer], ["a.json", "b.json"]);
is<Workload>()(Workload.fromBucketStatistics(three, answer));
is<number>()(statistics.summary().per_range);
is<DrillDown[] | undefined>()(statistics.balance().notes[0]?.drill_downs);
const overTime: Growth = bucketGrowth([{ name: "a", answers: answer }, { name: "b", answers: [answer], names: ["b.json"], taken: "2026-12-01T00:00:00Z" }], { top: 3, by: "docs" });
is<number>()(overTime.growing[0]?.docs_change ?? 0);
is<({ shard: number } & Amount)[]>()(overTime.snapshots[0].shards);
is<Topology>()(workload.topology);
const onGrown = workload.withTopology(three.addShard());
const balanced = onGrown.balance({ by: "bytes", weights: { 0: 1, 1: 2 }, threshold: 0, maxBuckets: 10, throughput: "50MB/s" });
is<BalancePlan>()(balanced);
const target = new Topology(JSON.stringify(balanced.target));
is<Plan>()(onGrown.plan(target, { by: "docs", throughput: "20000docs/s", bucketCost: "40ms" }));
is<Estimate>()(balanced.estimate);
is<Objective>()(balanced.objectives[0].objective);
is<CallsExport>()(onGrown.planCalls(target, { database: "Orders", url: "https://a:443", cert: "a.pem", poll: 1 }));
is<CallsExport>()(onGrown.balanceCalls(undefined, { objective: "fewest-migrations" }));
is<string>()(onGrown.balanceCalls().script);
// @ts-expect-error: an objective that does not exist.
onGrown.balance({ objective: "fast" });
is<number>()(onGrown.migrationSteps(target));
const step = onGrown.migrationStep(target, 0);
is<MigrationStep>()(step);
is<MigrationStep["configuration"]["BucketMigrations"][string]["Status"]>()(
  step.configuration.BucketMigrations["1"].Status);
is<Topology>()(workload.drainShard(1, "bytes"));
is<Topology>()(three.removeShard(2));
is<Topology>()(workload.addPrefix("eu/", [1, 2]));
is<Topology>()(workload.removePrefix("eu/"));
is<Topology>()(workload.setPrefixShards("eu/", [0]));

const advice = advise(bytes, { shards: 3, queries: "from Orders", loads: "Orders.Company" });
is<Advice>()(advice);
is<Advice>()(advise("{}", { config: '{"Shards": {"0": {}}}' }));
is<AdviseCandidate[]>()(advice.collections[0].candidates);
is<AdviseStrategy>()(advice.collections[0].recommended.strategy);
is<number | null>()(advice.collections[0].candidates[0].colocated);
// @ts-expect-error: an unknown option of advise.
advise(bytes, { shard: 3 });

const checked = check('{"DatabaseName": "x"}', { shards: 3, queries: "from Orders", export: bytes });
is<CheckReport>()(checked);
is<CheckReport>()(check("{}"));
is<CheckFinding[]>()(checked.findings);
is<CheckSeverity>()(checked.findings[0].severity);
is<CheckLocation>()(checked.findings[0].location);
is<number | null>()(checked.findings[0].share);
// @ts-expect-error: an unknown option of check.
check("{}", { shard: 3 });

// @ts-expect-error: IDs are strings or bytes, not numbers.
bucketsFor(42);
// @ts-expect-error: an unknown option.
workload.balance({ treshold: 1 });

for (const o of [topology, three, grown, design, workload, fromBytes, onGrown, target]) o.free();
{
  using disposed = Topology.withShards(1);
  is<string>()(disposed.database);
}
