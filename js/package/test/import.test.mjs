// The npm package through `import` in Node.js: every assertion of js/bench/assertions.js,
// the exports against the typings, and one instance shared with `require`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import * as api from "ravenshard";
import { runAssertions } from "./assertions.js";
import { report } from "./report.js";

runAssertions(api, report);

test("the exports are those the typings declare", () => {
  const manifest = createRequire(import.meta.url).resolve("ravenshard/package.json");
  const typings = readFileSync(new URL("ravenshard.d.ts", pathToFileURL(manifest)), "utf8");
  const declared = [...typings.matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(api).sort(), declared);
});

test("import and require give the same instance (objects pass between them)", () => {
  const required = createRequire(import.meta.url)("ravenshard");
  assert.equal(required.Topology, api.Topology);
  const topology = required.Topology.withShards(3);
  const workload = new api.Workload(topology, "orders/1-A\n");
  assert.equal(workload.summary().documents, 1);
  workload.free();
  topology.free();
});

test("errors are Errors with the core's message", () => {
  assert.throws(() => api.bucketFor("x".repeat(513)), (e) => e instanceof Error &&
    e.message === "Document ID cannot exceed 512 bytes, but the ID was 513 bytes. " +
      "Shorten the ID (an anchor suffix counts towards the limit).");
});
