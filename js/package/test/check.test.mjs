// `check(record, options)` through the npm package: the check crate's fixtures
// (crates/ravenshard-check/fixtures, copied next to this file by run.sh), typed results,
// and errors that name the input and the position.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { check } from "ravenshard";

const fixture = (name) => readFileSync(new URL(`check-fixtures/${name}`, import.meta.url), "utf8");

test("a clean record blocks nothing", () => {
  const report = check(fixture("clean-record.json"));
  assert.equal(report.database, "Shop");
  assert.equal(report.sharded, false);
  assert.equal(report.shards, null);
  assert.deepEqual(report.findings.map((f) => [f.rule, f.severity]), [["features.client-side", "note"]]);
});

test("every kind of finding, with the data checked under the intended layout", () => {
  const report = check(fixture("every-finding-record.json"), {
    config: fixture("sharding.json"),
    indexes: fixture("indexes.json"),
    queries: fixture("queries.rql"),
    loads: fixture("loads.txt"),
    export: readFileSync(new URL("check-fixtures/export.ndjson", import.meta.url)),
  });
  assert.equal(report.shards, 3);
  const severities = report.findings.map((f) => f.severity);
  assert.deepEqual([...new Set(severities)], ["blocks", "changes", "note", "not_checked"]);
  const load = report.findings.find((f) => f.rule === "index.load-document");
  assert.deepEqual(
    [load.location.index, load.location.map, load.location.line, load.location.column, load.location.field],
    ["Orders/WithCompany", 1, 2, 9, "Company"],
  );
  const data = report.findings.find((f) => f.rule === "data.cross-shard-loads" && f.location.field === "Company");
  assert.equal(data.severity, "blocks");
  assert.equal(load.share, data.share);
  assert.ok(data.share > 0 && data.share < 1, `${data.share}`);
  assert.equal(report.findings.find((f) => f.rule === "task.snapshot-backup").location.task, "snapshots");
  // The export as text gives the same answer as its bytes.
  const asText = check(fixture("every-finding-record.json"), { shards: 3, loads: "Orders.Company", export: fixture("export.ndjson") });
  const asBytes = check(fixture("every-finding-record.json"), {
    shards: 3,
    loads: "Orders.Company",
    export: readFileSync(new URL("check-fixtures/export.ndjson", import.meta.url)),
  });
  assert.deepEqual(asText, asBytes);
});

test("bad input throws an Error naming the input and the position", () => {
  assert.throws(() => check('{"DatabaseName": '), { message: /^record: line 1, column 17: / });
  assert.throws(
    () => check('{"DatabaseName": "x", "Indexes": {"A": {"Maps": ["from o in docs.Orders select new { ("]}}}'),
    { message: /^record: Indexes\.A\.Maps\[0\]: line 1, column 36: '\(' is never closed/ },
  );
  assert.throws(() => check("{}", { shard: 3 }), { message: /unknown key `shard`/ });
  assert.throws(() => check(fixture("clean-record.json"), { shards: 3, export: 5 }), { message: /^export: give a Uint8Array/ });
});
