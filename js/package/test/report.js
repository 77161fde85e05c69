// The `check` and `throws` of js/bench/assertions.js as Node.js tests (node:test). Each
// runs its function at once, as the assertions expect (they free objects after their
// checks), and registers a test that reports the outcome.
import { test } from "node:test";
import assert from "node:assert/strict";

/** The outcome of `f()`: `{ value }` or `{ error }`. */
function outcome(f) {
  try {
    return { value: f() };
  } catch (error) {
    return { error };
  }
}

/** A value as the page compares it: its JSON, `undefined` as `null`. */
const asJson = (value) => JSON.parse(JSON.stringify(value) ?? "null");

export const report = {
  check(name, actual, expected) {
    const result = outcome(actual);
    test(name, () => {
      if ("error" in result) throw result.error;
      assert.deepEqual(asJson(result.value), asJson(expected));
    });
  },
  throws(name, f, part) {
    const result = outcome(f);
    test(name, () => {
      assert.ok("error" in result, `returned ${JSON.stringify(result.value)}`);
      assert.ok(result.error instanceof Error, `threw ${result.error}, not an Error`);
      assert.ok(result.error.message.includes(part), `"${result.error.message}" does not contain "${part}"`);
    });
  },
};
