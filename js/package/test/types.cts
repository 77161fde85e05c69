// The npm package through `require` (CommonJS), checked by `tsc --noEmit --strict`: the
// `require` condition's typings (ravenshard.d.cts) give the same types.
import ravenshard = require("ravenshard");

type Exact<T, Expected> = (<U>() => U extends T ? 1 : 2) extends (<U>() => U extends Expected ? 1 : 2) ? true : false;
const is = <Expected,>() => <T,>(_value: T, ..._exact: Exact<T, Expected> extends true ? [] : [never]) => {};

is<number>()(ravenshard.bucketFor("orders/1-A"));
is<Uint32Array>()(ravenshard.bucketsFor(new Uint8Array(0)));
is<ravenshard.Explanation>()(ravenshard.explain("orders/1-A"));
const topology: ravenshard.Topology = ravenshard.Topology.withShards(3);
is<ravenshard.Location>()(topology.locate("orders/1-A"));
const workload = new ravenshard.Workload(topology, "orders/1-A\n");
is<ravenshard.BalancePlan>()(workload.balance());
is<ravenshard.ConfigDiff>()(ravenshard.configDiff("{}", "{}"));
is<ravenshard.Advice>()(ravenshard.advise("", { shards: 3 }));
is<ravenshard.CheckReport>()(ravenshard.check("{}", { config: "{}" }));
is<ravenshard.Growth>()(ravenshard.bucketGrowth([], { top: 1 }));
workload.free();
topology.free();
