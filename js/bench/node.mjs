// The npm package's speed in Node.js: `bucketsFor` on 1,000,000 IDs passed as a string and
// as the UTF-8 bytes of a file (`fs.readFileSync`, never decoded to a JS string), against
// what a JS user would write today: a loop over the IDs with `toLowerCase`, the `$` anchor
// and XXH64 from the `xxhash-wasm` package. Prints IDs/s of each and the ratios.
//
// Run it with js/bench/node.sh, which installs the package's tarball and xxhash-wasm into a
// temporary project. A benchmark, not a timed test: it fails only if the answers differ.
import { bucketFor, bucketsFor } from "ravenshard";
import xxhash from "xxhash-wasm";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const count = 1_000_000;
const rounds = 15;

/** The IDs of js/bench/main.js's benchmark: `orders/<6 digits>-A`, in a scrambled order. */
const ids = Array.from({ length: count }, (_, i) => `orders/${100000 + ((i * 7919) % 900000)}-A`);

/**
 * Milliseconds of the fastest call of each function: after one warm-up call each, `rounds`
 * rounds that call every function once, so that a busy machine slows them alike.
 */
function fastest(functions) {
  const ms = functions.map((f) => (f(), Infinity));
  for (let round = 0; round < rounds; round++) {
    functions.forEach((f, i) => {
      const start = performance.now();
      f();
      ms[i] = Math.min(ms[i], performance.now() - start);
    });
  }
  return ms;
}

const { h64 } = await xxhash();
const BUCKETS = 1n << 20n;
/** The bucket as a JS user would compute it: lower-case, hash after the last `$`, mod 2^20. */
function jsBucket(id) {
  const lower = id.toLowerCase();
  const anchor = lower.lastIndexOf("$");
  return Number(h64(anchor < 0 ? lower : lower.slice(anchor + 1)) % BUCKETS);
}

const dir = mkdtempSync(join(tmpdir(), "ravenshard-bench-"));
const file = join(dir, "ids.txt");
writeFileSync(file, ids.join("\n"));
const text = readFileSync(file, "utf8");
const bytes = readFileSync(file);

const results = {};
const timings = [
  ["bucketsFor(string)", () => (results.string = bucketsFor(text))],
  ["bucketsFor(Uint8Array from readFileSync)", () => (results.bytes = bucketsFor(bytes))],
  ["bucketsFor(readFileSync(file)), the read included", () => bucketsFor(readFileSync(file))],
  ["bucketFor in a JS loop", () => {
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) out[i] = bucketFor(ids[i]);
    results.single = out;
  }],
  ["JS loop: toLowerCase + xxhash-wasm h64", () => {
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) out[i] = jsBucket(ids[i]);
    results.js = out;
  }],
];

const best = fastest(timings.map(([, f]) => f));
const ms = Object.fromEntries(timings.map(([name], i) => [name, best[i]]));
rmSync(dir, { recursive: true });

const rate = (t) => count / (t / 1000);
const millions = (t) => `${(rate(t) / 1e6).toFixed(1)} M IDs/s`;
console.log(`${count.toLocaleString("en-US")} IDs (${bytes.length.toLocaleString("en-US")} bytes), ` +
  `fastest of ${rounds} rounds, Node.js ${process.version}`);
for (const [name] of timings) {
  console.log(`  ${name.padEnd(50)} ${ms[name].toFixed(1).padStart(7)} ms  ${millions(ms[name])}`);
}
const fromBytes = ms["bucketsFor(Uint8Array from readFileSync)"];
const jsLoop = ms["JS loop: toLowerCase + xxhash-wasm h64"];
console.log(`  bucketsFor from bytes is ${(jsLoop / fromBytes).toFixed(1)}x the JS loop ` +
  `(target 5x); ${millions(fromBytes)} (target 20 M IDs/s)`);

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const agree = same(results.string, results.bytes) && same(results.string, results.single) &&
  same(results.string, results.js);
console.log(agree ? "  every way gives the same buckets" : "  the ways DISAGREE on some bucket");
process.exitCode = agree ? 0 : 1;
