// The npm package's speed in Node.js: `bucketsFor` on 1,000,000 IDs passed as a string and
// as the UTF-8 bytes of a file (`fs.readFileSync`, never decoded to a JS string), against
// what a JS user would write today: a loop over the IDs with `toLowerCase`, the `$` anchor
// and XXH64 from the `xxhash-wasm` package. Prints IDs/s of each and the ratios.
//
// With file arguments (ID files of bench/shapes.py's shapes, which js/bench/node.sh SHAPE...
// generates), the same comparison on each file's IDs instead.
//
// Run it with js/bench/node.sh, which installs the package's tarball and xxhash-wasm into a
// temporary project. A benchmark, not a timed test: it fails only if the answers differ.
import { bucketFor, bucketsFor } from "ravenshard";
import xxhash from "xxhash-wasm";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const rounds = 15;

/**
 * The fastest call of each function, in milliseconds of wall-clock time and of the
 * process's CPU time (which a machine busy with other work inflates less): after one
 * warm-up call each, `rounds` rounds that call every function once, so that a busy machine
 * slows them alike.
 */
function fastest(functions) {
  const wall = functions.map((f) => (f(), Infinity));
  const cpu = functions.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    functions.forEach((f, i) => {
      const usage = process.cpuUsage();
      const start = performance.now();
      f();
      wall[i] = Math.min(wall[i], performance.now() - start);
      const used = process.cpuUsage(usage);
      cpu[i] = Math.min(cpu[i], (used.user + used.system) / 1000);
    });
  }
  return { wall, cpu };
}

const { h64 } = await xxhash();
const BUCKETS = 1n << 20n;
/** The bucket as a JS user would compute it: lower-case, hash after the last `$`, mod 2^20. */
function jsBucket(id) {
  const lower = id.toLowerCase();
  const anchor = lower.lastIndexOf("$");
  return Number(h64(anchor < 0 ? lower : lower.slice(anchor + 1)) % BUCKETS);
}

/** Times every way on the IDs of `file` (named `label`); whether they agree. */
function bench(label, file) {
  const text = readFileSync(file, "utf8");
  const bytes = readFileSync(file);
  const ids = text.split("\n");
  if (ids.at(-1) === "") ids.pop();
  const count = ids.length;
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

  const { wall, cpu } = fastest(timings.map(([, f]) => f));
  const rate = (ms) => `${(count / ms / 1000).toFixed(1)} M IDs/s`;
  console.log(`${label}: ${count.toLocaleString("en-US")} IDs (${bytes.length.toLocaleString("en-US")} bytes), ` +
    `fastest of ${rounds} rounds, Node.js ${process.version}; wall-clock time, then CPU time`);
  timings.forEach(([name], i) => {
    console.log(`  ${name.padEnd(50)} ${wall[i].toFixed(1).padStart(6)} ms ${rate(wall[i]).padStart(13)}` +
      `   ${cpu[i].toFixed(1).padStart(6)} ms ${rate(cpu[i]).padStart(13)}`);
  });
  const at = (name) => timings.findIndex(([n]) => n === name);
  const [bytesAt, jsAt] = [at("bucketsFor(Uint8Array from readFileSync)"), at("JS loop: toLowerCase + xxhash-wasm h64")];
  for (const [what, ms] of [["wall-clock", wall], ["CPU", cpu]]) {
    console.log(`  ${what}: bucketsFor from bytes ${rate(ms[bytesAt])} (target 20 M IDs/s), ` +
      `${(ms[jsAt] / ms[bytesAt]).toFixed(1)}x the JS loop (target 5x)`);
  }

  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const agree = same(results.string, results.bytes) && same(results.string, results.single) &&
    same(results.string, results.js);
  console.log(agree ? "  every way gives the same buckets" : "  the ways DISAGREE on some bucket");
  return agree;
}

const files = process.argv.slice(2);
let agree = true;
if (files.length === 0) {
  // The IDs of js/bench/main.js's benchmark: `orders/<6 digits>-A`, in a scrambled order.
  const dir = mkdtempSync(join(tmpdir(), "ravenshard-bench-"));
  const file = join(dir, "ids.txt");
  const count = 1_000_000;
  const ids = Array.from({ length: count }, (_, i) => `orders/${100000 + ((i * 7919) % 900000)}-A`);
  writeFileSync(file, ids.join("\n"));
  agree = bench("orders/<6 digits>-A", file);
  rmSync(dir, { recursive: true });
} else {
  for (const file of files) agree = bench(file.split("/").at(-1), file) && agree;
}
process.exitCode = agree ? 0 : 1;
