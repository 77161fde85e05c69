"""The studio's inputs fuzzed in a real browser: the built studio (dist/) served on 127.0.0.1
and driven in headless Chromium through ChromeDriver (the benchmark's client,
web/bench/studio.py), fed mutated inputs from a seed.

    python3 scripts/browser_fuzz.py DIST CHROMIUM [CASES] [SEED] [FROM]

The cases, each a function of SEED and its number alone (scripts/browser_fuzz.js, run in
the page, makes and checks them; many per WebDriver call):

* import-file, import-drop: a mutated file (ID lines, CSV, JSON, NDJSON, a `.ravendbdump`,
  bucket statistics; gzip-compressed, sometimes damaged after) through the file input
  `import-file`, or dropped on the Documents panel (a `drop` event with a `DataTransfer`);
* ids: mutated ID lines typed into the ID editor `ids` (some with markup or formula-like
  IDs), shown in one of the views; one time in seven the CSV export is checked too;
* config: a mutated configuration applied in the Ranges & prefixes view's JSON editor (or
  imported there as a file);
* share: the studio opened on a mutated share link (`#...`);
* saved: one record of the saved studio in IndexedDB damaged (from a page of the same
  origin, the studio not open), then the studio opened.

Every case must end with a usable page: nothing logged to the console (the panic hook
writes there) and no error event, no crash shown, no element made of markup in an input, no
script of one run; the previous workspace (or configuration) intact when the input was
refused, with a message that says why; and afterwards the Explain view still shows
customers/1-A in bucket 982173 on shard 2 under the default three shards (vectors/). The
CSV export has no cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return.

Seeds: the fuzz targets' corpora (fuzz/corpus/: import, ids, config, share, statistics) and
vectors/. A failure prints its seed, number, kind, input and what is wrong, writes the input
to target/browser-fuzz/, and exits 1; running the same seed with FROM at its number starts
there (in a fresh page, so a failure that needs the cases before it shows only from 0).
"""

import base64
import collections
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "web", "bench"))
import studio  # noqa: E402

with open(os.path.join(HERE, "browser_fuzz.js"), encoding="utf-8") as f:
    LIB = f.read()

# Runs in every page before its scripts: what the page logs, its error events and
# Content-Security-Policy violations are noted; downloads are kept (their blob) and not made.
HOOKS = r"""
window.__fuzzErrors = [];
const note = text => window.__fuzzErrors.push(text);
const error = console.error.bind(console);
console.error = (...a) => { note('console.error: ' + a.map(String).join(' ')); error(...a); };
addEventListener('error', e => note('error: ' + e.message));
addEventListener('unhandledrejection', e => note('unhandled rejection: ' + String(e.reason)));
addEventListener('securitypolicyviolation', e => note('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));
window.__fuzzDownloads = [];
const create = URL.createObjectURL;
URL.createObjectURL = function (blob) {
  const made = window.__fuzzDownloads;
  if (blob instanceof Blob && blob.type.startsWith('text/csv')) {
    made.push(blob);
    if (made.length > 2) made[made.length - 3] = null;
  }
  return create.call(URL, blob);
};
const click = HTMLElement.prototype.click;
HTMLAnchorElement.prototype.click = function () { if (!this.download) click.call(this); };
"""

# Runs the body of an async function in the page, after the in-page library: what it
# returns, or {harness: error}.
WRAP = """
const done = arguments[arguments.length - 1];
%s
(async () => { %s })().then(done, e => done({harness: String(e && e.stack || e)}));
"""

# What ChromeDriver's browser log may hold that is a failure (it also holds the 404 of the
# page the saved studio is damaged from, which is not).
ERRORS = re.compile(r"panicked|Uncaught|RuntimeError|unreachable|Content Security Policy")
BATCH_MS = 20_000
SEED_KINDS = {"text": 0, "csv": 1, "json": 2, "ndjson": 3, "dump": 4}


def files(folder):
    path = os.path.join(ROOT, folder)
    out = []
    for name in sorted(os.listdir(path)):
        with open(os.path.join(path, name), "rb") as f:
            out.append(f.read())
    return out


def seeds():
    """The seeds of each kind of input, as base64."""
    kinds = collections.defaultdict(list)
    # The import target's inputs: a byte picking the format, a byte of chunk lengths, the file.
    for data in files("fuzz/corpus/import"):
        if len(data) > 2:
            kind = [k for k, v in SEED_KINDS.items() if v == data[0] % 5][0]
            kinds[kind].append(data[2:])
    kinds["statistics"] = files("fuzz/corpus/statistics")
    kinds["config"] = files("fuzz/corpus/config")
    kinds["share"] = files("fuzz/corpus/share")
    ids = files("fuzz/corpus/ids")
    for name in ("buckets-3-shards.tsv", "buckets-non-ascii-and-control.tsv"):
        with open(os.path.join(ROOT, "vectors", name), "rb") as f:
            lines = [line.split(b"\t")[0] for line in f.read().splitlines() if not line.startswith(b"#")]
        ids += [b"\n".join(lines[i:i + 12]) for i in range(0, len(lines), 12)]
    kinds["ids"] = ids
    return {k: [base64.b64encode(d).decode() for d in v] for k, v in kinds.items()}


def as_in_address_bar(fragment):
    """The fragment as the address bar keeps it: control characters, space, `"`, `<`, `>`,
    `` ` `` and what is not ASCII percent-encoded (UTF-8), as the URL standard's fragment
    percent-encode set says; what ChromeDriver takes as a URL."""
    return "".join(c if 0x21 <= ord(c) < 0x7F and c not in '"<>`' else
                   "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass")) for c in fragment)


class Fuzz:
    """The browser, the page's address, and what has been run."""

    def __init__(self, driver, base, seed):
        self.driver, self.base, self.seed = driver, base, seed
        self.counts = collections.Counter()

    def js(self, body, *args):
        result = self.driver.run(WRAP % (LIB, body), *args)
        if isinstance(result, dict) and "harness" in result:
            raise SystemExit(f"browser fuzz: the harness failed in the page: {result['harness']}")
        return result

    def logged(self):
        entries = self.driver.log("browser")
        return [e["message"] for e in entries if e.get("level") == "SEVERE" and ERRORS.search(e["message"])]

    def open(self, url, seeds_json=None):
        self.driver.open(url)
        if seeds_json is not None:
            self.js("sessionStorage.setItem('browser-fuzz-seeds', arguments[0]); return true;", seeds_json)
        return self.js("return __fuzz.loadSeeds();")

    def fail(self, n, kind, problems, case_input):
        folder = os.path.join(ROOT, "target", "browser-fuzz")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"case-{self.seed}-{n}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"seed": self.seed, "case": n, "kind": kind, "problems": problems,
                       "input": case_input}, f, ensure_ascii=False, indent=1)
        shown = json.dumps(case_input, ensure_ascii=False)
        print(f"browser fuzz: case {n} of seed {self.seed} ({kind}) failed:", file=sys.stderr)
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        print(f"  input: {shown[:3000]}", file=sys.stderr)
        print(f"  saved in {path}; again: scripts/browser_fuzz.sh {n + 1} {self.seed} "
              f"(or from it alone: scripts/browser_fuzz.sh {n + 1} {self.seed} {n})", file=sys.stderr)
        self.report(n, time.time())
        print("0 passed, 1 failed")
        sys.exit(1)

    def loaded_case(self, n, kind):
        """A case that needs a page load: a share link, or a damaged saved studio."""
        self.driver.open(self.base + "__browser_fuzz_blank")
        saved = self.js("return __fuzz.loadSeeds() && __fuzz.savedSummary();")
        if kind == "share":
            fragment = self.js("return __fuzz.shareLink(arguments[0], arguments[1]);", self.seed, n)
            case_input = {"kind": "share", "link": "#" + fragment, "saved": saved}
            self.driver.open(self.base + "#" + as_in_address_bar(fragment))
            refusal = "The link in the address bar cannot be opened"
        else:
            case_input = self.js("return __fuzz.corruptSave(arguments[0], arguments[1]);", self.seed, n)
            if case_input.get("nothing"):
                self.counts["saved: nothing saved yet"] += 1
            self.driver.open(self.base)
            refusal = "could not be restored"
            saved = None
        self.js("return __fuzz.loadSeeds();")
        after = self.js("return __fuzz.afterLoad(arguments[0], arguments[1]);", refusal, saved)
        problems = after["problems"] + [f"the browser logged: {m}" for m in self.logged()]
        if problems:
            self.fail(n, kind, problems, case_input)
        self.counts[kind] += 1
        if not after["refused"]:
            self.counts[kind + " accepted"] += 1

    def run(self, start, cases):
        n = start
        started = time.time()
        last = started
        while n < cases:
            r = self.js("return __fuzz.batch(...arguments);", self.seed, n, cases, BATCH_MS)
            self.counts.update(r["counts"])
            logged = self.logged()
            if r.get("failure"):
                f = r["failure"]
                self.fail(f["n"], f["kind"], f["problems"] + [f"the browser logged: {m}" for m in logged], f["input"])
            if logged:
                self.fail(r["next"] - 1, "cases " + f"{n}..{r['next'] - 1}",
                          [f"the browser logged: {m}" for m in logged], None)
            n = r["next"]
            if r.get("reload"):
                self.loaded_case(n, r["reload"])
                n += 1
            if time.time() - last > 30:
                last = time.time()
                kinds = {k: v for k, v in sorted(self.counts.items()) if ":" not in k and "ms" not in k}
                print(f"browser fuzz: {n - start} cases, {time.time() - started:.0f} s: "
                      + json.dumps(kinds), flush=True)
        return n

    def report(self, n, started):
        kinds = {k: v for k, v in sorted(self.counts.items())}
        print(f"browser fuzz: seed {self.seed}, cases up to {n}: " + json.dumps(kinds))


def main():
    dist, chromium = sys.argv[1], sys.argv[2]
    cases = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    start = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    seeds_json = json.dumps(seeds())
    with studio.browser(dist, chromium) as (driver, port):
        driver.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": HOOKS})
        fuzz = Fuzz(driver, f"http://127.0.0.1:{port}/", seed)
        fuzz.open(fuzz.base, seeds_json)
        first = fuzz.js("return __fuzz.afterLoad('cannot be opened', null);")
        if first["problems"]:
            fuzz.fail(start, "first load", first["problems"], None)
        started = time.time()
        end = fuzz.run(start, cases)
        seconds = time.time() - started
        fuzz.report(end, started)
        print(f"browser fuzz: {end - start} cases in {seconds:.0f} s "
              f"({(end - start) / max(seconds, 1e-9):.1f} a second), no failure")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
