// The npm package through `require` in Node.js (CommonJS): every assertion of
// js/bench/assertions.js, loaded with import() as it is an ES module.
const { test } = require("node:test");
const assert = require("node:assert/strict");
const api = require("ravenshard");

test("require gives what import gives, the same functions", async () => {
  const imported = await import("ravenshard");
  assert.deepEqual(Object.keys(api).sort(), Object.keys(imported).sort());
  for (const name of Object.keys(api)) assert.equal(api[name], imported[name], name);
});

Promise.all([import("./assertions.js"), import("./report.js")]).then(([{ runAssertions }, { report }]) =>
  runAssertions(api, report));
