#!/usr/bin/env python3
"""Benchmark of the built studio (dist/): its cold load, and its speed with 100,000 documents.

    trunk build --release && python3 web/bench/studio.py [--docs N] [--edits N] [--dist DIR]
    python3 web/bench/studio.py --load-only      # only the cold load and the size
    python3 web/bench/studio.py --reload-only --docs 200000   # generate, save, reload
    python3 web/bench/studio.py --advise --docs 1000000      # the advisor, in the worker
    python3 web/bench/studio.py --table --docs 1000000       # issue 11's table (edits, topology)
    python3 web/bench/studio.py --table --docs 10000000      # the same at 10 M (about 5 min)
    python3 web/bench/studio.py --table --rows sort,filter --docs 1000000   # sort, filter only
    python3 web/bench/studio.py --table --rows views --docs 1000000   # tabs, map, groups, exports
    python3 web/bench/studio.py --bulk --docs 1000000 --ids 10000000   # chunked jobs at scale
    python3 web/bench/studio.py --memory --docs 1000000      # wasm memory per document
    python3 web/bench/studio.py --bulk --trace --docs 1000000 --ids 10000000   # and why tasks ran long
    python3 web/bench/studio.py --memory --docs 0 --ids 10000000   # ... of an import only

Drives the real page through ChromeDriver (CHROMEDRIVER, default /usr/bin/chromedriver;
CHROMIUM, default /usr/bin/chromium) and reports, as a table and as JSON on the last line:

* load: a cold load (new browser profile, cache disabled) over a link throttled to 10 Mbit/s
  down and up with 40 ms latency (Chromium's Network.emulateNetworkConditions through
  ChromeDriver's CDP bridge), until the first computed bucket is on the page: the time from
  navigation start to the moment a document row shows bucket 982173 (a MutationObserver put in
  the page before any of its scripts runs). Measured twice: with the files sent gzipped
  (Content-Encoding: gzip, as static hosts such as nginx, GitHub Pages or Netlify send them)
  and sent as they are;
* generate: time from clicking the generator's button (N documents) to the next frame;
* save and reload: after the generation, the studio's own performance measures of its
  debounced save to IndexedDB (writing the parts out and storing them, then until IndexedDB
  holds them all) and the longest main-thread task meanwhile; then the page is loaded again
  and timed from navigation start until the N documents are shown again (with the studio's
  measures of reading IndexedDB and of the state restored, and the longest main-thread task
  from the page's start, a `longtask` observer put in the page before its scripts);
* edit, per view: the time from an edit of the ID editor (one character, which changes one
  document and so places every document again) to the next painted frame, with that view
  shown; the median and the worst of --edits edits;
* shards: the same for a change of the shard count;
* import: a gzip RavenDB export of N documents, built in the page, dropped on the file
  input: the time until the documents are in, and the longest task the main thread ran
  meanwhile (a `longtask` PerformanceObserver: tasks over 50 ms); with --bulk, each import
  (and the --ids one) is followed by the studio's save of what it made: its time, the part
  of it the page spent copying documents to the save's worker, and the longest task;
* size: the bytes of dist/ gzipped (level 9);
* table (only with --table, which measures nothing else): issue 11's rows at --docs
  documents, each with the longest main-thread task meanwhile and the load average:
  generate, the save to IndexedDB, a reload until the documents are shown, the edit per
  view, the shard-count change and the save after them (only the parts the edits touched
  are written), add a shard and balance, an edit of the Resharding target's JSON that keeps
  the prefixes (until painted), and a reload whose restore is
  cancelled halfway (the time from *Cancel* until the studio is usable); then the edit at
  10,000 documents against --docs. Its sort and filter rows, in the Documents view: a click
  on a column's header (by ID, by size, by ID again, descending, back to input order) until
  the rows are shown in its order; a filter typed a character at a time until the rows it
  keeps are shown, then an edit of the ID editor with the filter set until they are shown
  again, then the filter emptied. A sort or filter the studio runs as a sliced job (the view
  marked data-rows="working" meanwhile) is waited for until the view is ready. The limits
  the page is given grow with --docs (300 s for a generation, save or restore of 10,000,000
  documents). Its views rows (only with --rows views): the first and the second switch to
  each tab (the Advisor's too, not run), a click on the bucket map (its bucket's documents
  listed) and on another bucket, an anchored group selected and then the map showing it
  highlighted, a group's "Documents" (the Documents view filtered to it), a row of the
  Documents view clicked (its Explain), the report and CSV exports (until their file is made;
  the download is intercepted) and the share link (until its notice shows): each until its
  result is painted (at most 60 s), with the longest main-thread task until then and in the
  400 ms after; a step that changes the tab is followed by the save of the workspace it sets
  off, whose time is printed with it. Then the steps with a task over 50 ms, the longest
  first. Its busy-save row (only with --rows busy-save): the documents generated again,
  then, while their save runs, an edit every 2 s (for at most 20 s) until the save ends:
  the time from the save's start until IndexedDB holds the studio;
* trace (with --trace, for --bulk --ids and --table): a Chrome trace (ChromeDriver's
  performance log) of the 10 M-ID import, or of the generation, save and reloads, and for
  each main-thread task over 50 ms what ran in it and its thread time; with --bulk, also
  the time each thread (the page's, the workers') ran tasks during the generation and
  during its save. A task much longer
  than its thread time waited for a core (the machine's other work), not for the page's
  code: on a shared 2-core machine most long tasks of the chunked jobs are of that kind;
* advise (only with --advise, which measures nothing else): a gzip RavenDB export of N
  documents (a twentieth companies, the rest orders naming one, as in the advisor's native
  bench), built in the page, chosen in the Advisor view and advised on in the studio's
  worker: the time from *Advise* until the advice is shown, the progress updates the page
  showed meanwhile, and the main thread's long tasks (over 50 ms) meanwhile: the target is
  none (issue 13);
* memory (only with --memory): the page's WebAssembly memory (`wasm_memory_bytes`, exported
  by web/src/main.rs) before and after importing a text file of --ids IDs (default N; as
  --bulk's) in a fresh page, and what it grew by per document beyond the bytes of its ID
  (issue 11: at most 64), and after the studio's save of them; then, in another fresh page,
  before and after generating N documents (none with --docs 0), with the IDs' bytes read
  from the parts the studio saved to IndexedDB. The memory only grows, so each figure is
  the job's high-water mark (its batches and passing tables included).

The targets: interactive (the first computed bucket shown) within 2 s of a cold load at
10 Mbit/s and 40 ms latency, dist/ under 1 MB gzipped (issue 10); an edit updates every view
in under 100 ms and no task runs over 200 ms during an import (issue 3). The script reports; it does not judge
(timings vary with the machine), but marks figures over a target with "over".
Only the standard library is used. Nothing leaves 127.0.0.1.
"""

import argparse
import contextlib
import functools
import gzip
import http.server
import io
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

TABS = ["documents", "map", "shards", "nodes", "groups", "explain", "ranges", "content", "queries", "reshard"]
EDIT_TARGET_MS = 100
TASK_TARGET_MS = 200
SIZE_TARGET = 1_000_000
# The longest one script of the bench may run (a generation, save or reload of 10,000,000
# documents takes tens of seconds on a busy machine), in seconds.
SCRIPT_TIMEOUT_S = 900


def serialized(saved):
    """What a save's figures say of its writing the parts out, when the page measured it (a
    save in the workspace's host's worker marks only its start and end in the page)."""
    if saved.get("serialize") is None:
        return ""
    return f"writing the parts {saved['serialize']:.0f} ms; "


def limit_ms(docs):
    """How long the page may take to generate, save or restore `docs` documents before the
    bench gives up: 120 s, or 30 ms per thousand documents (300 s at 10,000,000)."""
    return max(120_000, docs * 0.03)

LOAD_TARGET_MS = 2000
# 10 Mbit/s in bytes per second, and the round-trip latency, of the throttled link.
THROTTLE = {"offline": False, "latency": 40, "downloadThroughput": 1_250_000, "uploadThroughput": 1_250_000}
# A share link with three documents: the page computes and shows their buckets on load.
LOAD_LINK = "#shards=3&db=Orders&ids=orders%2F1-A%0Acustomers%2F1-A%0Aorders%2F2-A%24customers%2F1-A"
# Runs in the page before its own scripts: notes when a row first shows a computed bucket.
FIRST_BUCKET_OBSERVER = """
window.__firstBucket = null;
new MutationObserver((_, observer) => {
  for (const cell of document.querySelectorAll('.bucket')) {
    if (cell.textContent.trim() === '982173') {
      window.__firstBucket = performance.now();
      observer.disconnect();
      return;
    }
  }
}).observe(document, {childList: true, subtree: true, characterData: true});
"""
LOAD = """
const done = arguments[arguments.length - 1];
(async () => {
  const t = performance.now();
  while (window.__firstBucket === null && performance.now() - t < 60000) {
    await new Promise(r => setTimeout(r, 10));
  }
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  done({interactive: window.__firstBucket, responseEnd: nav ? nav.responseEnd : null,
        transferred: resources.reduce((sum, r) => sum + (r.transferSize || 0), nav ? nav.transferSize : 0),
        files: resources.map(r => [r.name.split('/').pop(), Math.round(r.duration), r.transferSize])});
})();
"""

# Helpers defined in the page before every measurement.
PRELUDE = """
const fire = (el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); };
const change = (el, v) => { el.value = v; el.dispatchEvent(new Event('change', {bubbles: true})); };
const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
const count = () => Number((document.querySelector('.count-documents strong')?.textContent || '0').replace(/,/g, ''));
const sleep = ms => new Promise(r => setTimeout(r, ms));
if (!window.__observer) {
  window.__tasks = [];
  window.__observer = new PerformanceObserver(l => window.__tasks.push(...l.getEntries().map(e => e.duration)));
  window.__observer.observe({type: 'longtask'});
}
"""

# The studio's job measures (web/src/jobs/bulk.rs) since `since`, per stage.
JOB_MEASURES = """
const jobMeasures = since => {
  const m = {};
  for (const e of performance.getEntriesByType('measure')) {
    if (!e.name.startsWith('ravenshard-job-') || e.startTime < since) continue;
    const k = e.name.slice(15), s = m[k] || (m[k] = {n: 0, total: 0, max: 0});
    s.n++; s.total += e.duration; s.max = Math.max(s.max, e.duration);
  }
  return m;
};
"""

# Waits (at most 30 s) until the studio is shown (it restores the saved studio first) and
# its generator can be used; gives whether it was.
OPENED = """
const done = arguments[arguments.length - 1];
const t = performance.now();
(function poll() {
  const shown = !!document.getElementById('gen-count');
  if (shown || performance.now() - t > 30000) { done(shown); } else { setTimeout(poll, 50); }
})();
"""

# What a view shows while something is on its way (a worker's plan or balance, a progress
# bar): a script waits until no element matches before it reads or draws the view.
BUSY = ".planning, .balancing:not([hidden]), progress, tr.pending"

GENERATE = PRELUDE + JOB_MEASURES + """
const [n, limit, done] = arguments;
(async () => {
  localStorage.clear();
  fire(document.getElementById('gen-count'), String(n));
  await frame();
  window.__tasks = [];
  const t = performance.now();
  document.querySelector('button.generate').click();
  await frame();
  // Over 50,000 documents the generation is a chunked job: wait until all are shown.
  while (count() !== n && performance.now() - t < limit) await sleep(10);
  await frame();
  const ms = performance.now() - t;
  done({ms, start: t, documents: count(), longest: Math.max(0, ...window.__tasks),
        stages: jobMeasures(t)});
})();
"""

# After a generation: waits for the studio's save of the generated documents and reports its
# performance measures (names from web/src/marks.rs) and the longest task the
# main thread ran meanwhile (the save starts 500 ms after the generation, so after this).
SAVED = PRELUDE + """
const [since, limit, done] = arguments;
(async () => {
  const last = name => performance.getEntriesByName(name).filter(e => e.startTime >= since).pop();
  window.__tasks = [];
  const t = performance.now();
  while (!last('ravenshard-save')) {
    if (performance.now() - t > limit) { done({error: 'no save in ' + limit / 1000 + ' s'}); return; }
    if (document.querySelector('.not-saved')) { done({error: document.querySelector('.not-saved').textContent}); return; }
    await sleep(20);
  }
  // A save of the settings alone (the documents are the ones saved) writes out no documents.
  const serialize = last('ravenshard-serialize');
  done({serialize: serialize ? serialize.duration : null, save: last('ravenshard-save').duration,
        longest: Math.max(0, ...window.__tasks)});
})();
"""

# After a generation (`since`, page time): once its save starts, an edit (a character typed
# at the end of the ID editor's page, then taken back) every `every` ms for at most `span`
# ms or until the save ends; then waits for it. Reports the time from the save's start until
# IndexedDB holds the studio (an edit stops a save; the studio goes on from there, an older
# one started again from nothing), the edits made and the longest main-thread task.
SAVE_WHILE_EDITING = PRELUDE + """
const [since, every, span, limit, done] = arguments;
(async () => {
  const latest = name => performance.getEntriesByName(name).filter(e => e.startTime >= since);
  const t = performance.now();
  while (!latest('ravenshard-save-start').length) {
    if (performance.now() - t > limit) { done({error: 'no save started in ' + limit / 1000 + ' s'}); return; }
    await sleep(20);
  }
  const start = latest('ravenshard-save-start')[0].startTime;
  const area = document.getElementById('ids');
  const base = area.value.replace(/\\n+$/, '');
  window.__tasks = [];
  let edits = 0;
  while (!latest('ravenshard-save').length) {
    const now = performance.now();
    if (now - start > limit) { done({error: 'no save in ' + limit / 1000 + ' s', edits}); return; }
    if (document.querySelector('.not-saved')) { done({error: document.querySelector('.not-saved').textContent}); return; }
    if (now - start < span && now - start >= (edits + 1) * every) {
      fire(area, edits % 2 === 0 ? base + 'x' : base);
      edits++;
    }
    await sleep(20);
  }
  const saved = latest('ravenshard-save').pop();
  done({saved: saved.startTime + saved.duration - start, edits, longest: Math.max(0, ...window.__tasks)});
})();
"""

# Put in the page before its own scripts when it is loaded again: records the main thread's
# long tasks from the start (the restore runs before any script the benchmark runs).
LONGTASKS_FROM_START = """
window.__tasks = [];
window.__observer = new PerformanceObserver(l => window.__tasks.push(...l.getEntries().map(e => e.duration)));
window.__observer.observe({type: 'longtask'});
"""

# After a reload: the time from navigation start until the documents are shown again, and
# the longest main-thread task until then (with LONGTASKS_FROM_START in the page).
RESTORED = PRELUDE + JOB_MEASURES + """
const [n, limit, done] = arguments;
(async () => {
  while (count() !== n) {
    if (performance.now() > limit) { done({error: 'the documents were not shown in ' + limit / 1000 + ' s'}); return; }
    await sleep(5);
  }
  await frame();
  const shown = performance.now();
  const at = name => (performance.getEntriesByName(name)[0] || {duration: null}).duration;
  done({shown, read: at('ravenshard-restore-read'), restored: at('ravenshard-restore'),
        longest: Math.max(0, ...window.__tasks), tasks: window.__tasks, stages: jobMeasures(0)});
})();
"""

# After a reload: once the restore of the documents (after reading IndexedDB) is `fraction`
# done, clicks its Cancel and waits until the studio is shown (usable, without the saved
# documents): the time from the click, and the longest main-thread task from the page's
# start until 3 s after the click (LONGTASKS_FROM_START).
RESTORE_CANCEL = PRELUDE + """
const [fraction, limit, done] = arguments;
(async () => {
  for (;;) {
    const bar = document.querySelector('.studio-restoring progress');
    const text = document.querySelector('.studio-restoring .work-text')?.textContent || '';
    if (bar && text.startsWith('Restoring') && Number(bar.value) >= fraction) break;
    if (document.querySelector('.studio')) { done({error: 'the studio was restored before Cancel'}); return; }
    if (performance.now() > limit) { done({error: 'no restore progress in ' + limit / 1000 + ' s'}); return; }
    await sleep(5);
  }
  const at = performance.now();
  document.querySelector('.cancel-restore').click();
  while (!document.querySelector('.studio')) {
    if (performance.now() - at > limit) { done({error: 'the studio did not open after Cancel'}); return; }
    await sleep(5);
  }
  await frame();
  const ms = performance.now() - at;
  // What the restore had made is freed after the studio opens: its tasks count too.
  await sleep(3000);
  done({at, ms, documents: count(), longest: Math.max(0, ...window.__tasks)});
})();
"""

EDITS = PRELUDE + """
const [tab, edits, done] = arguments;
// A studio whose views ask the workspace's host (it says the host's version on
// `.studio`): an edit is shown once the host made it and the view shown painted its
// answers of that version (the documents view's rows, the bucket map's bins).
const hostVersion = () => Number(document.querySelector('.studio')?.dataset.hostVersion ?? -1);
const viewVersion = () => {
  const view = document.querySelector('.documents-view[data-version], .bucket-map[data-version]');
  return view ? Number(view.dataset.version) : null;
};
const shownByHost = async (before) => {
  if (hostVersion() < 0) return;
  const t = performance.now();
  while (performance.now() - t < 2000) {
    const now = hostVersion(), view = viewVersion();
    if (now > before && (view === null || view >= now)) return;
    await frame();
  }
};
(async () => {
  document.getElementById('tab-' + tab).click();
  await frame(); await sleep(50);
  // The Resharding view opens with a plan from its worker: edits start once it is shown.
  for (const t = performance.now(); document.querySelector('.planning') && performance.now() - t < 10000;) await frame();
  const area = document.getElementById('ids');
  const base = area.value.replace(/\\n+$/, '');
  const times = [];
  window.__tasks = [];
  for (let i = 0; i < edits; i++) {
    // One typed character at the end of the page's last line, then taken back.
    const text = i % 2 === 0 ? base + 'x' : base;
    const before = hostVersion();
    const t = performance.now();
    fire(area, text);
    await frame();
    await shownByHost(before);
    times.push(performance.now() - t);
    await sleep(30);
  }
  const longestEdit = Math.max(0, ...window.__tasks);
  window.__tasks = [];
  const shards = document.getElementById('shard-count');
  const shardTimes = [];
  for (const n of ['4', '3']) {
    const before = hostVersion();
    const t = performance.now();
    fire(shards, n);
    await frame();
    await shownByHost(before);
    shardTimes.push(performance.now() - t);
  }
  await sleep(60);
  done({times, shardTimes, documents: count(), longestEdit,
        longestShards: Math.max(0, ...window.__tasks), end: performance.now()});
})();
"""

RESHARD = PRELUDE + """
const [done] = arguments;
(async () => {
  document.getElementById('tab-reshard').click();
  await frame(); await sleep(50);
  const time = async (act) => { const t = performance.now(); act(); await frame(); return performance.now() - t; };
  // The balance runs in the studio's worker: until its target is shown (painted), then
  // until the other objective's figures are.
  const until = async (done, t) => { while (!done() && performance.now() - t < 60000) await frame(); return performance.now() - t; };
  // The plan, the walk-through's step and the target's plan come from the worker: until
  // they are shown (painted).
  const planned = () => !document.querySelector('.planning');
  const timePlan = async (act) => { const t = performance.now(); act(); await frame(); return until(planned, t); };
  // The view shown with its first plan (the load went to the worker with it).
  const opened = await until(planned, performance.now());
  window.__tasks = [];
  const add = await timePlan(() => document.querySelector('button.add-shard').click());
  fire(document.querySelector('input.threshold'), '0');
  await frame();
  const started = performance.now();
  document.querySelector('button.balance').click();
  await frame();
  const balance = await until(() => !document.querySelector('.balancing') && planned(), started);
  const compared = await until(() => !document.querySelector('table.objectives tr.pending'), started);
  const step = await timePlan(() => document.querySelector('.step-control .next-loaded').click());
  await sleep(60);
  const moved = document.querySelector('.docs-moved strong').textContent;
  const skew = document.querySelector('.skew strong').textContent;
  const longest = Math.max(0, ...window.__tasks);
  // An edit of the target's JSON that keeps the prefixes (five shards, default ranges).
  window.__tasks = [];
  document.querySelector('.target-editors').open = true;
  await frame();
  const area = document.querySelector('.target-editors .config-json-text');
  const five = '{"Shards": {"0": {}, "1": {}, "2": {}, "3": {}, "4": {}}}';
  const target = await timePlan(() => { fire(area, five); document.querySelector('.target-editors .apply').click(); });
  await sleep(60);
  const targetLongest = Math.max(0, ...window.__tasks);
  document.querySelector('button.reset-target').click();
  await frame();
  done({opened, add, balance, compared, step, moved, skew, longest, target, targetLongest});
})();
"""

IMPORT = PRELUDE + JOB_MEASURES + """
const [n, done] = arguments;
(async () => {
  document.querySelector('button.clear').click();
  await frame();
  const docs = [];
  for (let i = 0; i < n; i++) {
    const company = 'companies/' + (i % 997) + '-A';
    const id = i % 2 ? 'orders/' + i + '-A$' + company : 'orders/' + i + '-A';
    docs.push(JSON.stringify({Company: company, Lines: [{Product: 'products/' + (i % 77), Quantity: i % 9}],
      '@metadata': {'@id': id, '@collection': 'Orders'}}));
  }
  const json = '{"BuildVersion":60000,"Docs":[' + docs.join(',') + ']}';
  const gz = await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'))).blob();
  const file = new File([gz], 'bench.ravendbdump');
  const input = document.getElementById('import-file');
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  await frame();
  window.__tasks = [];
  const t = performance.now();
  input.dispatchEvent(new Event('change', {bubbles: true}));
  while (count() !== n) {
    if (performance.now() - t > 120000) { done({error: 'the import did not finish in 120 s'}); return; }
    if (document.querySelector('.import-error')) { done({error: document.querySelector('.import-error').textContent}); return; }
    await sleep(20);
  }
  await frame();
  const ms = performance.now() - t;
  await sleep(100);
  done({ms, start: t, bytes: gz.size, documents: count(), longest: Math.max(0, ...window.__tasks),
        over: window.__tasks.filter(d => d > 200).length, tasks: window.__tasks,
        stages: jobMeasures(t)});
})();
"""


@contextlib.contextmanager
def browser(dist, chromium):
    """dist/ served on 127.0.0.1 and a Chromium driven through ChromeDriver (CHROMEDRIVER):
    yields the started [`Driver`] and the page's port; stops them all after."""
    server, port = serve(dist, compressed=False)
    driver_port = free_port()
    chromedriver = subprocess.Popen(
        [os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"), f"--port={driver_port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = Driver(driver_port)
    try:
        wait_for(f"http://127.0.0.1:{driver_port}/status")
        driver.start(chromium)
        yield driver, port
    finally:
        driver.stop()
        chromedriver.kill()
        server.shutdown()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """The few WebDriver commands the benchmark needs."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, method=method, data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=SCRIPT_TIMEOUT_S + 60) as response:
            return json.load(response)["value"]

    def start(self, chromium, trace=False):
        """A new browser; `trace`: ChromeDriver records a Chrome trace (TRACE_CATEGORIES) in
        its performance log ([`trace_events`])."""
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--no-first-run", "--window-size=1280,800"]
        options = {"binary": chromium, "args": args}
        always = {"browserName": "chrome", "goog:chromeOptions": options}
        if trace:
            options["perfLoggingPrefs"] = {"enableNetwork": False, "enablePage": False,
                                           "traceCategories": TRACE_CATEGORIES}
            always["goog:loggingPrefs"] = {"performance": "ALL"}
        caps = {"capabilities": {"alwaysMatch": always}}
        self.session = self.call("POST", "/session", caps)["sessionId"]
        self.call("POST", f"/session/{self.session}/timeouts", {"script": SCRIPT_TIMEOUT_S * 1000})

    def log(self, kind):
        """The entries of ChromeDriver's log `kind` since the last call."""
        return self.call("POST", f"/session/{self.session}/se/log", {"type": kind})

    def cdp(self, command, params=None):
        return self.call("POST", f"/session/{self.session}/goog/cdp/execute",
                         {"cmd": command, "params": params or {}})

    def open(self, url):
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def run(self, script, *args):
        return self.call("POST", f"/session/{self.session}/execute/async",
                         {"script": script, "args": list(args)})

    def stop(self):
        if self.session:
            try:
                self.call("DELETE", f"/session/{self.session}")
            except OSError:
                pass


class StaticFiles(http.server.SimpleHTTPRequestHandler):
    """dist/'s files, gzipped (level 9) for a client that accepts it when `gzip` is set."""

    gzip = True

    def log_message(self, *_):
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        wants_gzip = self.gzip and "gzip" in self.headers.get("Accept-Encoding", "")
        if not wants_gzip or not os.path.isfile(path):
            return super().send_head()
        with open(path, "rb") as f:
            body = gzip.compress(f.read(), 9)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve(dist, compressed):
    """An HTTP server of dist/ on a free port of 127.0.0.1, in a thread; returns (server, port)."""
    handler = functools.partial(type("Files", (StaticFiles,), {"gzip": compressed}), directory=dist)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def cold_load(driver_port, chromium, dist, compressed):
    """One cold load of the studio over the throttled link; returns the page's figures."""
    server, port = serve(dist, compressed)
    driver = Driver(driver_port)
    try:
        driver.start(chromium)
        driver.cdp("Network.enable")
        driver.cdp("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.cdp("Network.emulateNetworkConditions", THROTTLE)
        driver.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_BUCKET_OBSERVER})
        driver.open(f"http://127.0.0.1:{port}/{LOAD_LINK}")
        return driver.run(LOAD)
    finally:
        driver.stop()
        server.shutdown()


def measure_loads(driver_port, chromium, dist, result):
    result["load"] = {}
    for compressed in (True, False):
        name = "gzip" if compressed else "identity"
        r = result["load"][name] = cold_load(driver_port, chromium, dist, compressed)
        if r["interactive"] is None:
            raise SystemExit(f"studio bench: no computed bucket on the page within 60 s ({name})")
        print(f"cold load, 10 Mbit/s, 40 ms ({name:>8}): first bucket at "
              f"{mark(r['interactive'], LOAD_TARGET_MS)}, {r['transferred']:,} bytes transferred")


def dist_size(dist):
    """Every file under dist/ (snippets/ too), each gzipped at level 9."""
    total = 0
    for root, _, files in os.walk(dist):
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as f:
                total += len(gzip.compress(f.read(), 9))
    return total


def wait_for(url, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"studio bench: {url} did not answer in {seconds} s")

ADVISE = PRELUDE + """
const [n, done] = arguments;
(async () => {
  document.getElementById('tab-advisor').click();
  await frame();
  const companies = Math.max(1, Math.floor(n / 20));
  const parts = ['{"BuildVersion":60000,"Docs":['];
  let batch = [];
  const flush = () => { parts.push((parts.length > 1 ? ',' : '') + batch.join(',')); batch = []; };
  for (let i = 0; i < n; i++) {
    const o = i - companies;
    batch.push(JSON.stringify(i < companies
      ? {Name: 'Company ' + i, '@metadata': {'@id': 'companies/' + i + '-A', '@collection': 'Companies'}}
      : {Company: 'companies/' + (o % companies) + '-A', Freight: o % 100,
         '@metadata': {'@id': 'orders/' + o + '-A', '@collection': 'Orders'}}));
    if (batch.length === 10000) flush();
  }
  if (batch.length) flush();
  parts.push(']}');
  const gz = await new Response(new Blob(parts).stream().pipeThrough(new CompressionStream('gzip'))).blob();
  const input = document.getElementById('advisor-file');
  const transfer = new DataTransfer();
  transfer.items.add(new File([gz], 'bench.ravendbdump'));
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', {bubbles: true}));
  await frame(); await sleep(500);
  window.__tasks = [];
  const t = performance.now();
  document.getElementById('advisor-run').click();
  const seen = new Set();
  while (!document.querySelector('.advisor-collection')) {
    const failed = document.querySelector('.advisor-failed, .advisor-crash');
    if (failed) { done({error: failed.textContent}); return; }
    if (performance.now() - t > 280000) { done({error: 'no advice in 280 s'}); return; }
    const text = document.querySelector('.advisor-progress-text');
    if (text) seen.add(text.textContent);
    await sleep(20);
  }
  await frame();
  const ms = performance.now() - t;
  await sleep(100);
  const orders = document.querySelector('section.advisor-collection[data-collection="Orders"] .reason');
  done({ms, bytes: gz.size, progress: seen.size, lastProgress: [...seen].pop() || null,
        longest: Math.max(0, ...window.__tasks), longTasks: window.__tasks.length,
        reason: orders ? orders.textContent : null});
})();
"""


# The Readiness view's check over the studio's `n` generated documents, with a record, its
# index definitions and queries pasted: from the click on Check until the summary is shown,
# with the main-thread tasks over 50 ms meanwhile (the documents pass through the page on
# their way to the check's worker, a page of them at a time).
CHECK = PRELUDE + """
const [record, indexes, queries, done] = arguments;
(async () => {
  document.getElementById('tab-readiness').click();
  await frame();
  fire(document.getElementById('readiness-record'), record);
  fire(document.getElementById('readiness-indexes'), indexes);
  fire(document.getElementById('readiness-queries'), queries);
  await frame(); await sleep(300);
  window.__tasks = [];
  const t = performance.now();
  document.getElementById('readiness-run').click();
  while (!document.getElementById('readiness-summary')) {
    const problem = document.querySelector('section.readiness .error');
    if (problem) { done({error: problem.textContent}); return; }
    if (performance.now() - t > 280000) { done({error: 'no report in 280 s'}); return; }
    await sleep(20);
  }
  await frame();
  done({ms: performance.now() - t, summary: document.getElementById('readiness-summary').textContent,
        longest: Math.max(0, ...window.__tasks), longTasks: window.__tasks.length});
})();
"""


def load_average():
    """The machine's load average (1, 5, 15 min): the machine is shared."""
    try:
        return os.getloadavg()
    except OSError:
        return None


def report_load(result):
    """Records and prints the load average after a measurement."""
    load = result["loadavg"] = load_average()
    if load:
        print(f"load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
              "(a shared machine)")


def measure_advise(driver, docs, result):
    """The advisor on an export of `docs` documents, in the worker."""
    adv = result["advise"] = driver.run(ADVISE, docs)
    if "error" in adv:
        raise SystemExit(f"studio bench: advise failed: {adv['error']}")
    print(f"advise on {docs} documents ({adv['bytes'] / 1024:.0f} KB gzip export), in the worker: "
          f"{adv['ms'] / 1000:.1f} s, {adv['progress']} progress updates shown "
          f"(last: {adv['lastProgress']}); main-thread tasks over 50 ms: {adv['longTasks']} "
          f"(longest {adv['longest']:.0f} ms)")
    report_load(result)


def measure_check(driver, docs, result):
    """The readiness check of `docs` generated documents with the check crate's every-finding
    fixtures pasted (record, index definitions, queries)."""
    fixtures = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "ravenshard-check", "fixtures")
    texts = [open(os.path.join(fixtures, name), encoding="utf-8").read()
             for name in ("every-finding-record.json", "indexes.json", "queries.rql")]
    result["generate"] = driver.run(GENERATE, docs, limit_ms(docs))
    print(f"generate {docs} documents: {result['generate']['ms']:.1f} ms")
    chk = result["check"] = driver.run(CHECK, *texts)
    if "error" in chk:
        raise SystemExit(f"studio bench: check failed: {chk['error']}")
    print(f"check of {docs} documents (every-finding record, indexes, queries): "
          f"{chk['ms'] / 1000:.2f} s, {chk['summary']!r}; main-thread tasks over 50 ms: "
          f"{chk['longTasks']} (longest {chk['longest']:.0f} ms)")
    report_load(result)


def mark(ms, target):
    return f"{ms:7.1f} ms" + ("  over" if ms > target else "")


def measure_reload(driver, url, docs, result, trace=False):
    """The save of the generated documents, then a reload until they are shown again;
    with `trace`, the threads' busy time during the generation and during the save (one
    trace of both: the save starts 500 ms after the generation)."""
    saved = result["save"] = driver.run(SAVED, result["generate"]["start"], limit_ms(docs))
    if trace:
        events = trace_events(driver)
        print_thread_busy(events, "the generation")
        print_thread_busy(events, "the save", "ravenshard-save", "ravenshard-save")
    if "error" in saved:
        raise SystemExit(f"studio bench: the save failed: {saved['error']}")
    print(f"save {docs} documents to IndexedDB: {saved['save']:.0f} ms "
          f"({serialized(saved)}longest task {mark(saved['longest'], TASK_TARGET_MS)})")
    reload = result["reload"] = reloaded(driver, url, docs)
    print(f"reload until the {docs} documents are shown: {reload['shown']:.0f} ms "
          f"(IndexedDB read by {reload['read']:.0f} ms, state restored by {reload['restored']:.0f} ms; "
          f"longest task {mark(reload['longest'], TASK_TARGET_MS)})")


def reloaded(driver, url, docs):
    """Loads the page again (with a `longtask` observer from its start) and waits until the
    `docs` saved documents are shown: RESTORED's figures."""
    driver.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": LONGTASKS_FROM_START})
    driver.open(url)
    reload = driver.run(RESTORED, docs, limit_ms(docs))
    if "error" in reload:
        raise SystemExit(f"studio bench: the reload failed: {reload['error']}")
    return reload


def cancelled_reload(driver, url, docs):
    """Loads the page again and clicks the restore's Cancel once half of it is done:
    RESTORE_CANCEL's figures."""
    driver.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": LONGTASKS_FROM_START})
    driver.open(url)
    r = driver.run(RESTORE_CANCEL, 0.5, limit_ms(docs))
    if "error" in r:
        raise SystemExit(f"studio bench: the cancelled reload failed: {r['error']}")
    return r


SCALE_TABS = ["map", "shards", "documents", "reshard"]
EDIT_MEDIAN_TARGET_MS = 30
EDIT_WORST_TARGET_MS = 60
SHARDS_TARGET_MS = 100
RESHARD_TARGET_MS = 150
SCALE_TASK_TARGET_MS = 50
GENERATE_TARGET_MS = 1500
RELOAD_TARGET_MS = 3000
SMALL_DOCS = 10_000


def loadavg():
    """The 1-minute load average, NaN where the system has none."""
    load = load_average()
    return load[0] if load else float("nan")


def generated(driver, docs):
    """Generates `docs` documents and waits for the studio's save of them (so that the save
    does not run during what is measured next); returns GENERATE's and SAVED's figures."""
    gen = driver.run(GENERATE, docs, limit_ms(docs))
    if gen["documents"] != docs:
        raise SystemExit(f"studio bench: generated {gen['documents']} documents, not {docs}")
    return gen, settle(driver, gen["start"], docs)


def settle(driver, since, docs):
    """Waits for the debounced save after `since` (page time); a failed save is reported by
    the save rows, not here."""
    return driver.run(SAVED, since, limit_ms(docs))


def table_row(name, median, worst, longest, load, target, note=""):
    """One row of the --table output; `worst` None leaves its column empty."""
    worst = "" if worst is None else mark(worst, target)
    print(f"{name:<34} {mark(median, target):>10} {worst:>10} "
          f"{mark(longest, SCALE_TASK_TARGET_MS):>13} {load:6.2f}{note}")


# The parts of --table that --rows can choose (the generation is always made first), and
# those it measures by default (the views and busy-save rows only when asked for: at 10,000,000 documents
# each of their tab switches is followed by a save of the documents).
TABLE_ROWS = ("reload", "edits", "sort", "filter", "reshard", "views", "cancel", "small",
              "busy-save")
DEFAULT_ROWS = tuple(r for r in TABLE_ROWS if r not in ("views", "busy-save"))
# busy-save: an edit every EDIT_EVERY_MS during a new generation's save, for at most
# EDIT_SPAN_MS.
EDIT_EVERY_MS, EDIT_SPAN_MS = 2000, 20_000


def measure_table(driver, url, docs, edits, result, trace=False, only=DEFAULT_ROWS):
    """Issue 11's rows at `docs` documents: generate, its save to IndexedDB and a reload
    until the documents are shown again; the edit per view, the shard-count change and the
    save after them, add a shard and balance; the Documents view's sort and filter (measure_table_sort and
    measure_table_filter); a reload cancelled halfway (until the studio is usable); the
    longest main-thread task during each, and the edit at 10,000 documents against `docs`.
    The load average (1 min) is printed with each row: the machine is shared, so a figure
    is only as quiet as the machine was. The targets of generate and reload are issue 11's
    at 1,000,000 documents: they are marked only up to that many. `only`: the rows measured
    after the generation and its save (TABLE_ROWS' names; the other views' interactions,
    measure_table_views, with "views")."""
    gen, saved = generated(driver, docs)
    rows = result["table"] = {"views": {}, "generate": gen, "save": saved}
    scaled = docs <= 1_000_000
    print(f"{docs:,} documents; targets: edit {EDIT_MEDIAN_TARGET_MS} ms median, "
          f"{EDIT_WORST_TARGET_MS} ms worst; shard count {SHARDS_TARGET_MS} ms; add shard + "
          f"balance {RESHARD_TARGET_MS} ms; no task over {SCALE_TASK_TARGET_MS} ms"
          + (f"; generate {GENERATE_TARGET_MS} ms, reload {RELOAD_TARGET_MS} ms" if scaled else ""))
    print(f"{'row':<34} {'median':>10} {'worst':>10} {'longest task':>13} {'load':>6}")
    table_row("generate", gen["ms"], None, gen["longest"], loadavg(),
              GENERATE_TARGET_MS if scaled else float("inf"))
    print_stages(gen)
    if "error" in saved:
        raise SystemExit(f"studio bench: the save failed: {saved['error']}")
    table_row("save to IndexedDB (in parts)", saved["save"], None, saved["longest"], loadavg(),
              float("inf"), f"   ({serialized(saved).rstrip('; ')})" if saved["serialize"] else "")
    if trace:
        print_long_tasks(trace_events(driver))
    if "reload" in only:
        measure_table_reload(driver, url, docs, rows, scaled, trace)
    if "edits" in only:
        measure_table_edits(driver, docs, edits, rows, trace)
    if "sort" in only:
        measure_table_sort(driver, docs, rows, trace)
    if "filter" in only:
        measure_table_filter(driver, docs, rows, trace)
    if "reshard" in only:
        measure_table_reshard(driver, rows, trace)
    if "views" in only:
        measure_table_views(driver, docs, rows, trace)
    if "cancel" in only:
        measure_table_cancel(driver, url, docs, rows, trace)
    if "small" in only and docs != SMALL_DOCS:
        measure_table_small(driver, docs, edits, rows)
    if "busy-save" in only:
        measure_table_busy_save(driver, docs, rows)


def measure_table_busy_save(driver, docs, rows):
    """--table's save while the user edits: the documents generated again, then an edit
    every EDIT_EVERY_MS (for at most EDIT_SPAN_MS) while their save runs, until it ends."""
    gen = driver.run(GENERATE, docs, limit_ms(docs))
    busy = rows["busy-save"] = driver.run(SAVE_WHILE_EDITING, gen["start"], EDIT_EVERY_MS,
                                          EDIT_SPAN_MS, limit_ms(docs))
    if "error" in busy:
        raise SystemExit(f"studio bench: the save while editing failed: {busy['error']}")
    table_row("save while editing (from its start)", busy["saved"], None, busy["longest"],
              loadavg(), float("inf"),
              f"   ({busy['edits']} edits, one every {EDIT_EVERY_MS / 1000:.0f} s for at most "
              f"{EDIT_SPAN_MS / 1000:.0f} s)")


def measure_table_reload(driver, url, docs, rows, scaled, trace):
    """--table's reload until the documents are shown."""
    reload = rows["reload"] = reloaded(driver, url, docs)
    table_row("reload until shown", reload["shown"], None, reload["longest"], loadavg(),
              RELOAD_TARGET_MS if scaled else float("inf"),
              f"   (IndexedDB read by {reload['read']:.0f} ms, restored by "
              f"{reload['restored']:.0f} ms)")
    print_stages(reload)
    if trace:
        print_long_tasks(trace_events(driver))


def measure_table_edits(driver, docs, edits, rows, trace):
    """--table's edits and shard-count changes, per view."""
    if trace:
        trace_events(driver)
    for tab in SCALE_TABS:
        r = driver.run(EDITS, tab, edits)
        r["median"], r["worst"], r["load"] = statistics.median(r["times"]), max(r["times"]), loadavg()
        rows["views"][tab] = r
        print(f"{'edit, ' + tab + ' view':<34} {mark(r['median'], EDIT_MEDIAN_TARGET_MS):>10} "
              f"{mark(r['worst'], EDIT_WORST_TARGET_MS):>10} "
              f"{mark(r['longestEdit'], SCALE_TASK_TARGET_MS):>13} {r['load']:6.2f}")
        table_row(f"shard count 3->4->3, {tab} view", statistics.median(r["shardTimes"]),
                  max(r["shardTimes"]), r["longestShards"], r["load"], SHARDS_TARGET_MS)
        # The save that follows: only the parts the edits touched are written again.
        saved = r["save"] = settle(driver, r["end"], docs)
        if "error" not in saved:
            written = saved["serialize"]
            # A save in the workspace's host's worker leaves no page measure of its parts.
            note = ("   (in the host's worker)" if written is None
                    else f"   (the parts copied to the worker by {written:.0f} ms)")
            table_row(f"save after them, {tab} view", saved["save"], None, saved["longest"],
                      loadavg(), float("inf"), note)
    if trace:
        print_long_tasks(trace_events(driver))


def measure_table_reshard(driver, rows, trace):
    """--table's add a shard and balance."""
    rs = rows["reshard"] = driver.run(RESHARD)
    rs["load"] = loadavg()
    table_row("add a shard + balance (Resharding)", rs["add"] + rs["balance"], None,
              rs["longest"], rs["load"], RESHARD_TARGET_MS,
              f"   (add {rs['add']:.1f} ms, balance {rs['balance']:.1f} ms, moves {rs['moved']} "
              f"documents; the other objective's figures at {rs['compared']:.0f} ms; the tab's "
              f"first plan {rs['opened']:.0f} ms after its click and 50 ms)")
    table_row("edit the target's JSON (Resharding)", rs["target"], None, rs["targetLongest"],
              rs["load"], SHARDS_TARGET_MS, "   (five shards, the same prefixes)")
    if trace:
        print_long_tasks(trace_events(driver))


def measure_table_cancel(driver, url, docs, rows, trace):
    """--table's reload cancelled halfway."""
    cancel = rows["cancel"] = cancelled_reload(driver, url, docs)
    table_row("reload, Cancel at half: usable", cancel["ms"], None, cancel["longest"], loadavg(),
              float("inf"), f"   (Cancel clicked at {cancel['at']:.0f} ms; then "
              f"{cancel['documents']:,} documents shown; longest task from the page's start to "
              f"3 s after Cancel)")
    if trace:
        print_long_tasks(trace_events(driver))


def measure_table_small(driver, docs, edits, rows):
    """--table's edit at 10,000 documents against the one at `docs` (its edits rows)."""
    if rows["views"]:
        generated(driver, SMALL_DOCS)
        rows["small"] = {}
        for tab in SCALE_TABS:
            small = rows["small"][tab] = driver.run(EDITS, tab, edits)
            small["median"], small["load"] = statistics.median(small["times"]), loadavg()
            large = rows["views"].get(tab, {}).get("median", float("nan"))
            ratio = small["ratio"] = large / small["median"] if small["median"] else float("inf")
            print(f"edit, {tab} view, median: {SMALL_DOCS:,} documents {small['median']:.1f} ms "
                  f"(load {small['load']:.2f}), {docs:,} documents {large:.1f} ms: ratio "
                  f"{ratio:.2f}" + ("  over" if ratio >= 2 else ""))
            settle(driver, small["end"], SMALL_DOCS)


# --- Database scale (issue 11): chunked jobs at --docs documents --------------------------
# Each waits until the documents are shown, records the longest main-thread task (a
# `longtask` observer: tasks over 50 ms), the longest gap between animation frames (how
# long the page could not paint) and whether the progress line was seen (`watch(selector)`:
# in how many frames an element of `selector` was on the page).
BULK_WATCH = """
const watch = (selector = '.work-progress') => {
  const w = {gap: 0, progress: 0, last: performance.now(), on: true};
  const tick = () => { const t = performance.now(); w.gap = Math.max(w.gap, t - w.last); w.last = t;
    if (document.querySelector(selector)) w.progress++; if (w.on) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return w;
};
const until = async (n, t, limit) => {
  while (count() !== n) {
    if (performance.now() - t > limit) return 'not shown in ' + limit / 1000 + ' s';
    const failed = document.querySelector('.import-error');
    if (failed) return failed.textContent;
    await sleep(10);
  }
  await frame();
  return null;
};
"""

BULK_GENERATE = PRELUDE + BULK_WATCH + JOB_MEASURES + """
const [n, done] = arguments;
(async () => {
  fire(document.getElementById('gen-count'), String(n));
  await frame();
  window.__tasks = [];
  const w = watch();
  const t = performance.now();
  document.querySelector('button.generate').click();
  const error = await until(n, t, 280000);
  const ms = performance.now() - t;
  w.on = false;
  done({error, ms, start: t, documents: count(), longest: Math.max(0, ...window.__tasks),
        gap: w.gap, progress: w.progress, tasks: window.__tasks, stages: jobMeasures(t)});
})();
"""

# A file of `n` IDs, one a line (`orders/123456789-A`, about 20 bytes each), built in the
# page in parts (the bulk and the memory measures import it), and `chooseFile` puts a file in
# the import's file input.
IDS_FILE = """
const idsFile = n => {
  const parts = [];
  for (let i = 0; i < n; i += 100000) {
    let part = '';
    for (let j = i; j < Math.min(n, i + 100000); j++) part += 'orders/' + j + '-A\\n';
    parts.push(part);
  }
  return new File(parts, 'ids.txt');
};
const chooseFile = file => {
  const input = document.getElementById('import-file');
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  return input;
};
"""

# Imports a file of `n` IDs (IDS_FILE) and waits until they are shown.
BULK_IDS = PRELUDE + BULK_WATCH + JOB_MEASURES + IDS_FILE + """
const [n, done] = arguments;
(async () => {
  const file = idsFile(n);
  const input = chooseFile(file);
  await frame(); await sleep(200);
  window.__tasks = [];
  const w = watch();
  const t = performance.now();
  input.dispatchEvent(new Event('change', {bubbles: true}));
  const error = await until(n, t, 280000);
  const ms = performance.now() - t;
  w.on = false;
  await sleep(100);
  done({error, ms, start: t, bytes: file.size, documents: count(),
        longest: Math.max(0, ...window.__tasks), gap: w.gap, progress: w.progress,
        tasks: window.__tasks, stages: jobMeasures(t)});
})();
"""



# --- The Documents view's sort and filter at --docs documents (--table's sort and filter) -
# A sort or filter of a large workspace may run as a sliced job: the studio then marks
# `.documents-view` with data-rows="working" (and shows `.rows-working` with its progress)
# until the rows are made, then data-rows="ready". A studio without the attribute makes them
# at once: absent counts as ready. The rows are shown when the view is ready and `.row-count`
# ("N of M") shows the expected counts; each wait is a frame at a time, from the frame after
# the action (so a view still marked ready from before it is not taken for the answer), and
# checks that the rows in sight are the ones asked for (in the order clicked, or each
# containing the filter's text) so that rows left from before are not taken for them.
DOCS_VIEW = """
const rowsReady = () => {
  const view = document.querySelector('.documents-view');
  return !!view && (!view.dataset.rows || view.dataset.rows === 'ready');
};
const rowCount = () => {
  const text = document.querySelector('.documents-view .row-count')?.textContent;
  if (!text) return [null, null];
  const [kept, all] = text.split(' of ');
  return [Number(kept.replace(/\\D/g, '')), Number((all || '').replace(/\\D/g, ''))];
};
const shownRows = () => [...document.querySelectorAll('.documents-view .dt-row')];
const rowId = row => row.querySelector('.c-id .id-text')?.textContent ?? '';
const showDocuments = async () => {
  document.getElementById('tab-documents').click();
  await frame(); await sleep(50);
};
// Waits a frame at a time (at least one) until `shown()`; `first`: the time from `t` to the
// first frame (how long the action kept the page from painting).
const untilShown = async (shown, t, limit) => {
  let first = null;
  for (;;) {
    await frame();
    if (first === null) first = performance.now() - t;
    if (shown()) return {error: null, first, ms: performance.now() - t};
    if (performance.now() - t > limit) return {error: 'not shown in ' + limit / 1000 + ' s', first};
  }
};
// The longest main-thread task since window.__tasks was emptied, once the observer has had
// time to report the last one.
const longestTask = async () => { await sleep(100); return Math.max(0, ...window.__tasks); };
"""

# Clicks the header button of `column` (`c-id`, `c-size`, `c-index`, ...) and waits until the
# rows are shown in its order: the header marks the column sorted in the direction a click
# gives (the other way when it already was), every document is kept, and the rows in sight
# are in that order (checked for the index, the ID ignoring case, and the size).
SORT = PRELUDE + BULK_WATCH + DOCS_VIEW + """
const [column, limit, done] = arguments;
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
const size = text => {
  const m = /^([\\d.]+) (B|KB|MB|GB|TB)$/.exec((text || '').trim());
  return m ? Number(m[1]) * 1024 ** UNITS.indexOf(m[2]) : null;
};
const value = {'c-index': r => Number(r.dataset.index), 'c-id': r => rowId(r).toLowerCase(),
               'c-size': r => size(r.querySelector('.c-size')?.textContent)}[column];
// Documents without the value come last in either direction.
const ordered = descending => {
  if (!value) return true;
  const values = shownRows().map(value);
  let missing = false;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null) { missing = true; continue; }
    if (missing) return false;
    if (i > 0 && (descending ? values[i] > values[i - 1] : values[i] < values[i - 1])) return false;
  }
  return true;
};
(async () => {
  await showDocuments();
  const button = () => document.querySelector('.dt-head button.th.' + column);
  if (!button()) { done({error: 'no header button .' + column}); return; }
  const descending = button().classList.contains('sorted') && !button().textContent.includes('▼');
  const all = count();
  const shown = () => rowsReady() && button().classList.contains('sorted')
    && button().textContent.includes(descending ? '▼' : '▲')
    && rowCount()[0] === all && rowCount()[1] === all && ordered(descending);
  window.__tasks = [];
  const w = watch('.rows-working');
  const t = performance.now();
  button().click();
  const r = await untilShown(shown, t, limit);
  w.on = false;
  done({...r, descending, rows: rowCount(), longest: await longestTask(), tasks: window.__tasks,
        gap: w.gap, progress: w.progress});
})();
"""

# Every saved document's ID (the first field of each line of the parts the studio keeps in
# IndexedDB), to `onId`, then `onEnd()`; `onError(message)` when the database or a part
# cannot be read. MATCHES and SAVED_ID_BYTES read the saved documents with it.
SAVED_IDS = """
function savedIds(onId, onEnd, onError) {
  const open = indexedDB.open('ravenshard-studio');
  open.onerror = () => onError(String(open.error));
  open.onsuccess = () => {
    const store = open.result.transaction('studio').objectStore('studio');
    const cursor = store.openCursor(IDBKeyRange.bound('documents.', 'documents/', false, true));
    const decoder = new TextDecoder();
    cursor.onerror = () => onError(String(cursor.error));
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) { open.result.close(); onEnd(); return; }
      const lines = decoder.decode(c.value).split('\\n');
      if (!lines[0].startsWith('ravenshard documents lines')) {
        open.result.close();
        onError('a saved part is not in lines: ' + lines[0].slice(0, 40));
        return;
      }
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i];
        if (!line) continue;
        const tab = line.indexOf('\\t');
        onId(tab < 0 ? line : line.slice(0, tab));
      }
      c.continue();
    };
  };
}
"""

# How many of the saved documents' IDs contain `text`, ignoring case (the filter's rule for
# ASCII IDs), read from the parts the studio saved to IndexedDB: what the filter must show,
# known without the page's own answer.
MATCHES = SAVED_IDS + """
const [text, done] = arguments;
const needle = text.toLowerCase();
let matches = 0, documents = 0;
savedIds(id => { documents++; if (id.toLowerCase().includes(needle)) matches++; },
         () => done({matches, documents}), error => done({error}));
"""

# Types `text` in the filter, a character at a time `keyMs` apart (the next one once the
# page has painted after the last, if that took longer, as a typist waits for the page), and
# waits until the rows are shown: `expected` of all kept (null: not checked), each in sight
# containing the text. `keys`: per keystroke, the time until the next frame; `ms`: from the
# last keystroke until the rows are shown.
FILTER = PRELUDE + BULK_WATCH + DOCS_VIEW + """
const [text, expected, keyMs, limit, done] = arguments;
(async () => {
  await showDocuments();
  const input = () => document.getElementById('filter');
  if (input().value !== '') { done({error: 'the filter is already set: ' + input().value}); return; }
  const needle = text.toLowerCase(), all = count();
  const shown = () => rowsReady() && input().value === text && rowCount()[1] === all
    && (expected === null || rowCount()[0] === expected)
    && shownRows().every(r => rowId(r).toLowerCase().includes(needle));
  window.__tasks = [];
  const w = watch('.rows-working');
  const keys = [];
  const start = performance.now();
  for (let i = 1; i < text.length; i++) {
    const t = performance.now();
    fire(input(), text.slice(0, i));
    await frame();
    keys.push(performance.now() - t);
    await sleep(keyMs - (performance.now() - t));
  }
  const t = performance.now();
  fire(input(), text);
  const r = await untilShown(shown, t, limit);
  keys.push(r.first);
  w.on = false;
  done({...r, keys, typing: performance.now() - start, rows: rowCount(), longest: await longestTask(),
        tasks: window.__tasks, gap: w.gap, progress: w.progress});
})();
"""

# With the filter `text` set and its `expected` rows shown (null: not checked), one edit of
# the ID editor: an `x` typed into the text in the last line of the editor's page whose ID
# contains it (so that the document leaves the filter: one row fewer, a change the wait can
# see), or, when no ID of the page contains it, at the end of the page's last line (as the
# edit rows type; the count then stays). Waits until the filtered rows are shown again.
FILTER_EDIT = PRELUDE + BULK_WATCH + DOCS_VIEW + """
const [text, expected, limit, done] = arguments;
(async () => {
  await showDocuments();
  const needle = text.toLowerCase(), all = count();
  const input = document.getElementById('filter');
  if (input.value !== text || (expected !== null && rowCount()[0] !== expected)) {
    done({error: 'the filter ' + text + ' is not shown before the edit: ' + rowCount()}); return;
  }
  const area = document.getElementById('ids');
  const value = area.value, end = value.replace(/\\n+$/, '').length;
  let edited = null, left = 0;
  for (let stop = end; stop > 0 && edited === null;) {
    const start = value.lastIndexOf('\\n', stop - 1) + 1;
    const line = value.slice(start, stop), tab = line.indexOf('\\t');
    const at = (tab < 0 ? line : line.slice(0, tab)).toLowerCase().indexOf(needle);
    if (at >= 0) {
      const cut = start + at + needle.length - 1;
      edited = value.slice(0, cut) + 'x' + value.slice(cut);
      left = edited.slice(start, stop + 1).split('\\t')[0].toLowerCase().includes(needle) ? 0 : 1;
    }
    stop = start - 1;
  }
  if (edited === null) edited = value.slice(0, end) + 'x' + value.slice(end);
  const after = expected === null ? null : expected - left;
  const shown = () => rowsReady() && input.value === text && rowCount()[1] === all
    && (after === null || rowCount()[0] === after)
    && shownRows().every(r => rowId(r).toLowerCase().includes(needle));
  window.__tasks = [];
  const w = watch('.rows-working');
  const t = performance.now();
  fire(area, edited);
  const r = await untilShown(shown, t, limit);
  w.on = false;
  done({...r, left, rows: rowCount(), end: performance.now(), longest: await longestTask(),
        tasks: window.__tasks, gap: w.gap, progress: w.progress});
})();
"""

# Empties the filter at once (as a select-all and delete) and waits until every document is
# shown again.
FILTER_CLEAR = PRELUDE + BULK_WATCH + DOCS_VIEW + """
const [limit, done] = arguments;
(async () => {
  await showDocuments();
  const input = document.getElementById('filter'), all = count();
  const shown = () => rowsReady() && input.value === '' && rowCount()[0] === all && rowCount()[1] === all;
  window.__tasks = [];
  const w = watch('.rows-working');
  const t = performance.now();
  fire(input, '');
  const r = await untilShown(shown, t, limit);
  w.on = false;
  done({...r, rows: rowCount(), longest: await longestTask(), tasks: window.__tasks,
        gap: w.gap, progress: w.progress});
})();
"""

# The header buttons --table's sort clicks in turn, from input order: the ID (its order made),
# the size, the ID again (its order kept), the ID again (descending), and the index (input
# order again).
SORT_CLICKS = ("c-id", "c-size", "c-id", "c-id", "c-index")
SORT_NAMES = {"c-id": "ID", "c-size": "size", "c-index": "input order (#)"}
# What --table's filter types, and how far apart its keystrokes are (a brisk typist's
# 8 characters a second).
FILTER_TEXT = "companies/1"
KEY_MS = 125


def rows_note(r):
    """What a sort or filter row prints after its figures: the first frame after the action,
    the longest gap between frames and whether the rows' progress was shown."""
    return (f"   (first frame {r['first']:.0f} ms; longest gap between frames {r['gap']:.0f} ms; "
            f"progress shown in {r['progress']} frames)")


def rows_shown(what, r):
    """Stops the bench when the rows were not shown (a sort or filter row's script)."""
    if r.get("error"):
        raise SystemExit(f"studio bench: {what}: {r['error']}")


def measure_table_sort(driver, docs, rows, trace):
    """--table's sort: each of SORT_CLICKS, from the click until the rows are shown in its
    order, with the Documents view shown."""
    if trace:
        trace_events(driver)
    rows["sort"], clicked = [], set()
    for column in SORT_CLICKS:
        r = driver.run(SORT, column, limit_ms(docs))
        name = ("sort by " + SORT_NAMES.get(column, column) if column != "c-index"
                else SORT_NAMES[column]) + (", descending" if r.get("descending") else "") \
            + (" again" if column in clicked and not r.get("descending") else "")
        rows_shown(name, r)
        clicked.add(column)
        r["name"], r["load"] = name, loadavg()
        rows["sort"].append(r)
        table_row(name + ": shown", r["ms"], None, r["longest"], r["load"], float("inf"),
                  rows_note(r))
    if trace:
        print_long_tasks(trace_events(driver))


def measure_table_filter(driver, docs, rows, trace):
    """--table's filter: FILTER_TEXT typed a character at a time (from the last keystroke
    until the rows it keeps are shown; the worst column: the longest from a keystroke to the
    next frame), then one edit of the ID editor with the filter set (until the filtered rows
    are shown again), then the filter emptied at once (until every document is shown). The
    counts to wait for are read from the studio's save of the documents."""
    known = driver.run(MATCHES, FILTER_TEXT)
    expected = known.get("matches") if known.get("documents") == docs else None
    if expected is None:
        print(f"  (the filter's count is not checked: the saved documents read {known})")
    if trace:
        trace_events(driver)
    f = rows["filter"] = driver.run(FILTER, FILTER_TEXT, expected, KEY_MS, limit_ms(docs))
    rows_shown("filter", f)
    f["load"] = loadavg()
    table_row(f"filter '{FILTER_TEXT}' typed: shown", f["ms"], max(f["keys"]), f["longest"],
              f["load"], float("inf"),
              f"   ({f['rows'][0]:,} of {f['rows'][1]:,}; {len(FILTER_TEXT)} keystrokes "
              f"{KEY_MS} ms apart, worst: one until the next frame; typed and shown in "
              f"{f['typing']:.0f} ms; longest gap between frames {f['gap']:.0f} ms; progress "
              f"shown in {f['progress']} frames)")
    e = rows["filter_edit"] = driver.run(FILTER_EDIT, FILTER_TEXT, expected, limit_ms(docs))
    rows_shown("edit with the filter set", e)
    e["load"] = loadavg()
    table_row("edit, filter set: shown", e["ms"], None, e["longest"], e["load"], float("inf"),
              rows_note(e) + f" ({e['rows'][0]:,} of {e['rows'][1]:,})")
    settle(driver, e["end"], docs)
    c = rows["filter_clear"] = driver.run(FILTER_CLEAR, limit_ms(docs))
    rows_shown("filter cleared", c)
    c["load"] = loadavg()
    table_row("filter cleared: shown", c["ms"], None, c["longest"], c["load"], float("inf"),
              rows_note(c))
    if trace:
        print_long_tasks(trace_events(driver))


# --- The other views at --docs documents (--table's views) ---------------------------------
# Each step is one thing a user does: the time from it until its result is painted (a frame
# at a time, as untilShown waits), the longest main-thread task from the action until then,
# and the longest in the VIEW_AFTER_MS after the paint (work the studio puts off past it: an
# effect, a timer). An observer of its own keeps each long task's start (PRELUDE's keeps only
# durations). The downloads are intercepted: URL.createObjectURL notes each blob made, and an
# anchor's click with a `download` name is not followed; the clipboard's writeText only
# notes the text's length (a headless page has no clipboard to write); the page's uncaught
# errors are noted.
VIEWS = PRELUDE + DOCS_VIEW + """
if (!window.__viewObserver) {
  window.__viewTasks = [];
  window.__viewObserver = new PerformanceObserver(l => window.__viewTasks.push(
    ...l.getEntries().map(e => ({start: e.startTime, duration: e.duration}))));
  window.__viewObserver.observe({type: 'longtask'});
  window.__errors = [];
  addEventListener('error', e => window.__errors.push(String(e.message)));
  addEventListener('unhandledrejection', e => window.__errors.push(String(e.reason)));
  window.__downloads = [];
  const create = URL.createObjectURL;
  URL.createObjectURL = blob => {
    window.__downloads.push({at: performance.now(), bytes: blob.size, type: blob.type});
    return create.call(URL, blob);
  };
  const click = HTMLElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () { if (!this.download) click.call(this); };
  if (navigator.clipboard) navigator.clipboard.writeText = async text => { window.__copied = text.length; };
}
const longest = tasks => Math.max(0, ...tasks.map(x => x.duration));
// Runs `act` and waits until `shown()`: the time until painted (or until given up), the
// longest task until then (the task of the action included) and in the `after` ms after.
const measured = async (act, shown, limit) => {
  const errors = window.__errors.length;
  window.__viewTasks = [];
  const t = performance.now();
  act();
  const r = await untilShown(shown, t, limit);
  const painted = performance.now();
  await sleep(after);
  const tasks = window.__viewTasks.filter(x => x.start + x.duration > t);
  return {...r, ms: painted - t, start: t, longest: longest(tasks.filter(x => x.start < painted)),
          after: longest(tasks.filter(x => x.start >= painted)),
          tasks: tasks.map(x => [Math.round(x.start - t), Math.round(x.duration)]),
          errors: window.__errors.slice(errors), end: performance.now()};
};
const active = key => !!document.getElementById('tab-' + key)?.classList.contains('active');
const viewOf = key => document.querySelector('.view.view-' + key);
// A tab is shown when its button is active and its view has content (the Documents view its
// rows, the Resharding view its plan).
const READY = {
  documents: rowsReady,
  reshard: () => !viewOf('reshard').querySelector('.planning'),
  map: () => !!document.querySelector('.map-canvas'),
};
const tabShown = key => active(key) && !!viewOf(key)?.firstElementChild && (READY[key] || (() => true))();
const click = selector => () => document.querySelector(selector).click();
const needs = (key, what) => active(key) ? null : what + ' needs the ' + key + ' view shown';
const bucketText = () => document.querySelector('.bucket-documents h3')?.textContent ?? '';
const groupRow = i => document.querySelector('tr.group[data-group="' + i + '"]');
const cells = row => [...row.querySelectorAll('td')].map(c => c.textContent.trim());
const notices = () => [...document.querySelectorAll('.notices .notice-text')].map(n => n.textContent);
const STEPS = {
  // Clicks the tab `key`'s button.
  tab: async (key, limit) => active(key) ? {error: key + ' is shown already'}
    : measured(click('#tab-' + key), () => tabShown(key), limit),
  // The map shown (a group selected): until the group's bucket is marked.
  highlight: async (_, limit) => measured(click('#tab-map'), () => tabShown('map')
    && (document.querySelector('.map-axis .axis-highlight')?.textContent || '').includes('highlighted'), limit),
  // Clicks the map's canvas at `at` of its width: the first bucket with documents under the
  // pointer is listed.
  bucket: async (at, limit) => {
    const error = needs('map', 'a click on the map');
    if (error) return {error};
    const canvas = document.querySelector('.map-canvas'), box = canvas.getBoundingClientRect();
    const before = bucketText();
    const r = await measured(() => canvas.dispatchEvent(new MouseEvent('click', {bubbles: true,
      clientX: box.left + box.width * at, clientY: box.top + box.height / 2})),
      () => bucketText().startsWith('Bucket ') && bucketText() !== before
        && !!document.querySelector('.bucket-documents .bucket-list, .bucket-documents .hint'), limit);
    return {...r, what: bucketText()};
  },
  // Clicks group `i`'s row in the anchored groups view: until it is marked selected.
  group: async (i, limit) => {
    const error = needs('groups', 'a group\\'s selection') || (groupRow(i) ? null : 'no group ' + i);
    if (error) return {error};
    const r = await measured(() => groupRow(i).click(), () => groupRow(i)?.classList.contains('selected'), limit);
    return {...r, what: groupRow(i).querySelector('td code').textContent};
  },
  // Clicks "Documents" of group `i`: until the Documents view shows only its documents.
  groupDocuments: async (i, limit) => {
    const error = needs('groups', 'a group\\'s Documents') || (groupRow(i) ? null : 'no group ' + i);
    if (error) return {error};
    const [, , members, documents] = cells(groupRow(i));
    const counts = [members, documents].map(c => Number(c.replace(/\\D/g, '')));
    const anchorText = groupRow(i).querySelector('td code').textContent.toLowerCase();
    const r = await measured(click('tr.group[data-group="' + i + '"] button.show-docs'),
      () => tabShown('documents') && !!document.querySelector('.documents-view .chip')
        && counts.includes(rowCount()[0]) && shownRows().length > 0
        && shownRows().every(row => (row.querySelector('.c-group code')?.textContent || '').toLowerCase() === anchorText
          || rowId(row).toLowerCase() === anchorText), limit);
    return {...r, what: anchorText + ': ' + rowCount()[0].toLocaleString('en') + ' of ' + count().toLocaleString('en')};
  },
  // Clicks the Documents view's row `n` (of those in sight): until Explain shows its ID.
  row: async (n, limit) => {
    const error = needs('documents', 'a row\\'s click') || (shownRows()[n] ? null : 'no row ' + n);
    if (error) return {error};
    const row = shownRows()[n], id = rowId(row);
    const r = await measured(() => row.click(), () => tabShown('explain')
      && document.getElementById('explain-id')?.value === id && !!document.querySelector('.pipeline'), limit);
    return {...r, what: id};
  },
  // Clicks the toolbar's button `.name`: until the file is made (its blob).
  download: async (name, limit) => {
    const before = window.__downloads.length;
    const r = await measured(click('button.' + name), () => window.__downloads.length > before, limit);
    const made = window.__downloads[before];
    return {...r, made: made ? made.at - r.start : null, bytes: made ? made.bytes : null};
  },
  // Clicks Share link: until a new notice says what became of the link, or the banner of
  // a workspace too big for one (.share-refused) shows.
  share: async (_, limit) => {
    const before = notices().length;
    const refused = () => document.querySelector('.share-refused')?.textContent;
    if (refused()) return {error: 'the share link was refused already: ' + refused()};
    window.__copied = null;
    const r = await measured(click('button.share-link'), () => notices().length > before || !!refused(), limit);
    return {...r, what: refused() || notices().slice(before).join(' / '), copied: window.__copied,
            hash: location.hash.length};
  },
};
const [kind, arg, limit, after, done] = arguments;
STEPS[kind](arg, limit).then(done, e => done({error: String(e)}));
"""

# Every tab but the one shown after the generation (Documents, shown last), in the tab
# bar's order (web/src/state/tab.rs); the Advisor's tab is switched to, not run (it needs a
# file).
VIEW_TABS = ("map", "shards", "nodes", "groups", "explain", "ranges", "content", "queries",
             "reshard", "advisor", "documents")
# The longest a step of the views rows is waited for, in milliseconds: a page that is held
# longer is recorded as not shown.
VIEW_LIMIT_MS = 60_000
# How long after a step's result is painted its long tasks are still counted (the studio's
# effects and timers run then; its save of the workspace starts 500 ms after a change).
VIEW_AFTER_MS = 400
# The group the views rows select, and the one whose documents they show (0: the largest).
VIEW_GROUPS = (0, 1)


def view_steps():
    """--table's views steps, in order: (row name or None for a step that only gets to a
    view, VIEWS' step, its argument, whether it changes the tab shown: then the studio saves
    the workspace again, and the step's save is waited for)."""
    steps = []
    for turn in ("first", "second"):
        steps += [(f"{tab} tab, {turn}", "tab", tab, True) for tab in VIEW_TABS]
    selected, shown = VIEW_GROUPS
    return steps + [
        (None, "tab", "map", True),
        ("map: click a bucket, first", "bucket", 0.3, False),
        ("map: click another bucket", "bucket", 0.7, False),
        (None, "tab", "groups", True),
        (f"groups: select group {selected}", "group", selected, False),
        ("map tab, group highlighted", "highlight", None, True),
        (None, "tab", "groups", True),
        (f"group {shown}'s Documents", "groupDocuments", shown, True),
        ("row of Documents -> Explain", "row", 0, True),
        ("export report", "download", "export-report", False),
        ("export CSV", "download", "export-csv", False),
        ("share link", "share", None, False),
    ]


def view_step(driver, kind, arg):
    """One of VIEWS' steps; {'error': ...} when the page is gone (its tab crashed)."""
    try:
        return driver.run(VIEWS, kind, arg, VIEW_LIMIT_MS, VIEW_AFTER_MS)
    except OSError as e:
        body = e.read().decode(errors="replace") if hasattr(e, "read") else str(e)
        return {"error": "the page did not answer: " + body[:300], "gone": True}


def view_note(r, saved):
    """What a views row prints after its figures."""
    after = (f"longest task in the {VIEW_AFTER_MS} ms after: {r['after']:.0f} ms" if r["after"]
             else f"none over 50 ms in the {VIEW_AFTER_MS} ms after")
    parts = [f"first frame {r['first']:.0f} ms", after]
    if r.get("error"):
        parts.insert(0, r["error"])
    if r.get("what"):
        parts.append(str(r["what"])[:120])
    if r.get("bytes") is not None:
        parts.append(f"file of {r['bytes']:,} bytes made at {r['made']:.0f} ms")
    if r.get("copied") is not None or "hash" in r:
        parts.append(f"link of {r.get('hash', 0):,} characters" + (
            f", {r['copied']:,} copied" if r.get("copied") is not None else ""))
    if saved:
        parts.append(f"then it saves the workspace: {saved['save'] / 1000:.1f} s, longest task "
                     f"{saved['longest']:.0f} ms" if "error" not in saved
                     else f"then its save: {saved['error']}")
    if r.get("errors"):
        parts.append("page errors: " + "; ".join(r["errors"])[:300])
    return "   (" + "; ".join(parts) + ")"


def measure_table_views(driver, docs, rows, trace):
    """--table's views: each of view_steps() (every tab's first and second switch, a bucket
    clicked on the map, a group selected and its documents shown, a row of Documents
    explained, the exports and the share link), until its result is painted, with the
    longest main-thread task meanwhile; a step that changes the tab is followed by the save
    it sets off (waited for, so that it does not run in the next step). Then the steps with
    a task over SCALE_TASK_TARGET_MS, the longest first."""
    done = rows["interactions"] = []
    for name, kind, arg, saves in view_steps():
        if trace and name:
            trace_events(driver)
        r = view_step(driver, kind, arg)
        r["name"], r["load"] = name or f"(to the {arg} view)", loadavg()
        done.append(r)
        if "ms" not in r:
            print(f"{r['name']:<34} {r['error']}")
            if r.get("gone"):
                break
            continue
        # The trace of the step, read before the save it sets off runs.
        events = trace_events(driver) if trace and name else None
        saved = r["save"] = settle(driver, r["start"], docs) if saves and not r.get("error") else None
        if name or r.get("error"):
            table_row(r["name"] + ": shown", r["ms"], None, r["longest"], r["load"], float("inf"),
                      view_note(r, saved))
        if events:
            print_long_tasks(events)
    held = sorted((r for r in done if "ms" in r
                   and max(r["longest"], r["after"]) > SCALE_TASK_TARGET_MS),
                  key=lambda r: -max(r["longest"], r["after"]))
    print(f"interactions with a main-thread task over {SCALE_TASK_TARGET_MS} ms at {docs:,} "
          f"documents, the longest first: " + ("; ".join(
              f"{r['name']} {max(r['longest'], r['after']):.0f} ms" for r in held) or "none"))


def print_stages(r):
    """The studio's job measures (web/src/jobs/bulk.rs): per stage, count, total, longest."""
    stages = r.get("stages") or {}
    if stages:
        print("  stages: " + ", ".join(f"{k} {v['n']}x {v['total']:.0f} ms (max {v['max']:.1f})"
                                       for k, v in sorted(stages.items())))
    if r.get("tasks"):
        print("  long tasks (ms): " + " ".join(f"{t:.0f}" for t in r["tasks"]))


def bulk_line(what, r):
    if r.get("error"):
        raise SystemExit(f"studio bench: {what} failed: {r['error']}")
    print(f"{what}: {r['ms']:.0f} ms, longest task {mark(r['longest'], TASK_TARGET_MS)}, "
          f"longest gap between frames {r['gap']:.0f} ms, progress shown in {r['progress']} frames")


# The page's exports when they include `wasm_memory_bytes` (web/src/main.rs; trunk puts the
# module's exports on window.wasmBindings), else null.
BINDINGS = """
const bindings = window.wasmBindings && window.wasmBindings.wasm_memory_bytes ? window.wasmBindings : null;
const NO_BINDINGS = 'the page exports no wasm_memory_bytes: build the dist of a studio that has it';
"""

# The page's WebAssembly memory before and after generating `n` documents.
MEMORY = PRELUDE + BINDINGS + """
const [n, done] = arguments;
(async () => {
  if (!bindings) { done({error: NO_BINDINGS}); return; }
  const before = bindings.wasm_memory_bytes();
  fire(document.getElementById('gen-count'), String(n));
  await frame();
  const t = performance.now();
  document.querySelector('button.generate').click();
  while (count() !== n && performance.now() - t < 280000) await sleep(10);
  await frame();
  done({before, after: bindings.wasm_memory_bytes(), start: t, documents: count()});
})();
"""

# The bytes of the IDs the studio saved (the first field of each line of the parts it keeps
# in IndexedDB; ASCII IDs, so a character is a byte), and the wasm memory then.
SAVED_ID_BYTES = SAVED_IDS + """
const [done] = arguments;
let ids = 0, documents = 0;
savedIds(id => { ids += id.length; documents++; },
         () => done({ids, documents, memory: window.wasmBindings.wasm_memory_bytes()}),
         error => done({error}));
"""


MIB = 1 << 20

# The page's WebAssembly memory before and after importing a text file of `n` IDs (IDS_FILE),
# and the IDs' bytes (ASCII: the file's bytes but its newlines).
MEMORY_IDS = PRELUDE + BINDINGS + BULK_WATCH + IDS_FILE + """
const [n, done] = arguments;
(async () => {
  if (!bindings) { done({error: NO_BINDINGS}); return; }
  const file = idsFile(n);
  const input = chooseFile(file);
  await frame(); await sleep(200);
  const before = bindings.wasm_memory_bytes();
  const t = performance.now();
  input.dispatchEvent(new Event('change', {bubbles: true}));
  const error = await until(n, t, 280000);
  const ms = performance.now() - t;
  done({error, before, after: bindings.wasm_memory_bytes(), start: t, ms,
        idBytes: file.size - n, documents: count()});
})();
"""

def measure_memory(driver, docs, result):
    """The page's wasm memory before and after generating `docs` documents, and what it grew
    by per document beyond the IDs' bytes (the memory only grows: this is the high-water
    mark of the generation, its passing copies included)."""
    r = driver.run(MEMORY, docs)
    if "error" in r:
        raise SystemExit(f"studio bench: {r['error']}")
    if r["documents"] != docs:
        raise SystemExit(f"studio bench: generated {r['documents']} documents, not {docs}")
    settle(driver, r["start"], docs)
    saved = driver.run(SAVED_ID_BYTES)
    if "error" in saved or saved["documents"] != docs:
        raise SystemExit(f"studio bench: the saved documents cannot be read: {saved}")
    grown = r["after"] - r["before"]
    beyond = (grown - saved["ids"]) / docs
    result["memory"] = {"before": r["before"], "after": r["after"], "after_save": saved["memory"],
                        "id_bytes": saved["ids"], "beyond_id": beyond}
    print(f"wasm memory: {r['before'] / MIB:.0f} MiB before, {r['after'] / MIB:.0f} MiB after "
          f"generating {docs:,} documents ({saved['memory'] / MIB:.0f} MiB after their save); "
          f"IDs {saved['ids'] / docs:.1f} bytes each; {beyond:.1f} bytes per document beyond "
          f"its ID")


# What --trace records: the main thread's tasks and script calls, the garbage collections
# and the studio's performance measures (user timing).
TRACE_CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing"


def trace_events(driver):
    """The Chrome trace events ChromeDriver collected since the last call (with --trace).
    Each read of the log ends ChromeDriver's trace and starts another, and the ended trace's
    events come in over the next seconds: the log is read until two reads in a row bring
    few (an idle page's trace)."""
    events, quiet = [], 0
    for _ in range(60):
        got = 0
        for entry in driver.log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Tracing.dataCollected":
                got += 1
                events.append(message["params"])
        quiet = quiet + 1 if got < 2000 else 0
        if quiet == 2 and events:
            break
        time.sleep(1)
    return events


def print_thread_busy(events, what, first="ravenshard-job-place",
                      last="ravenshard-job-handover", top=4):
    """The time each thread ran tasks from the start of the first `first` measure to the
    end of the last `last` measure (by default a job's: its first batch placed to its
    hand-over): the page's main thread, the workers, the browser's; how much of that time
    each kept busy."""
    marks = [e for e in events if e.get("cat") == "blink.user_timing"]
    starts = [e["ts"] for e in marks if e.get("name") == first and e.get("ph") == "b"]
    ends = [e["ts"] for e in marks if e.get("name") == last and e.get("ph") == "e"]
    if not starts or not ends:
        print(f"  trace: no measures of {what}")
        return
    start, end = min(starts), max(ends)
    names = {(e["pid"], e["tid"]): e.get("args", {}).get("name") for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    busy = {}
    for e in events:
        if (e.get("ph") == "X" and e["name"] in ("RunTask", "ThreadControllerImpl::RunTask")
                and start <= e["ts"] <= end):
            key = (e["pid"], e["tid"])
            busy[key] = busy.get(key, 0) + e.get("dur", 0)
    ranked = sorted(busy.items(), key=lambda kv: -kv[1])[:top]
    threads = ", ".join(f"{names.get(k, '?')} {v / 1000:.0f} ms" for k, v in ranked)
    print(f"  trace of {what}: {(end - start) / 1000:.0f} ms; threads busy: {threads}")


def print_long_tasks(events, over_ms=50, inner_ms=3):
    """For each task of a renderer's main thread longer than `over_ms`: its thread time
    (the CPU time the main thread got: much less than the task's length means the thread
    waited, e.g. for a core the machine's other work held) and what ran in it for
    `inner_ms` or more (script calls, garbage collections, the studio's measures)."""
    mains = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M"
             and e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    on_main = [e for e in events if (e.get("pid"), e.get("tid")) in mains]
    spans = [(e["ts"], e["ts"] + e.get("dur", 0), e["name"], e.get("tdur"))
             for e in on_main if e.get("ph") == "X"]
    # The studio's measures are async begin/end pairs of blink.user_timing.
    begun = {}
    for e in sorted((e for e in events if e.get("cat") == "blink.user_timing"), key=lambda e: e["ts"]):
        key = (e.get("name"), e.get("id") or e.get("id2", {}).get("local"))
        if e.get("ph") == "b":
            begun[key] = e["ts"]
        elif e.get("ph") == "e" and key in begun:
            spans.append((begun.pop(key), e["ts"], "measure " + e["name"], None))
    tasks = sorted(s for s in spans if s[2] in ("RunTask", "ThreadControllerImpl::RunTask")
                   and s[1] - s[0] >= over_ms * 1000)
    # A task whose thread time is under `over_ms` and under half its length mostly waited
    # for a core (a loaded machine): counted, not detailed.
    waited = [t for t in tasks if t[3] is not None and t[3] < over_ms * 1000
              and t[3] < (t[1] - t[0]) / 2]
    print(f"  trace: {len(events)} events, {len(tasks)} main-thread tasks over {over_ms} ms"
          + (f" ({len(waited)} of them with under {over_ms} ms of thread time, most of their "
             f"length waiting for a core: not listed)" if waited else ""))
    for start, end, _, cpu in (t for t in tasks if t not in waited):
        inner = sorted(s for s in spans if s[0] >= start and s[1] <= end + 1
                       and s[1] - s[0] >= inner_ms * 1000 and s[2] not in ("RunTask", "ThreadControllerImpl::RunTask"))
        parts = ", ".join(f"{name} {(e - b) / 1000:.1f} ms at +{(b - start) / 1000:.1f}"
                          for b, e, name, _ in inner)
        cpu = f" (thread time {cpu / 1000:.1f} ms)" if cpu is not None else ""
        print(f"  task of {(end - start) / 1000:.1f} ms{cpu}: {parts}")


def measure_import_memory(driver, ids, result):
    """The page's wasm memory before and after importing a text file of `ids` IDs, and what
    it grew by per ID beyond the IDs' bytes (the import's high-water mark, its batches and
    the builder's passing tables included), then after the studio's save of them."""
    r = driver.run(MEMORY_IDS, ids)
    if r.get("error"):
        raise SystemExit(f"studio bench: the import of {ids} IDs failed: {r['error']}")
    saved = settle(driver, r["start"], ids)
    after_save = driver.run("arguments[0](window.wasmBindings.wasm_memory_bytes())")
    beyond = (r["after"] - r["before"] - r["idBytes"]) / ids
    result["import_memory"] = {"ids": ids, "before": r["before"], "after": r["after"],
                               "after_save": after_save, "save": saved, "id_bytes": r["idBytes"],
                               "ms": r["ms"], "beyond_id": beyond}
    saving = (f"{after_save / MIB:.0f} MiB after their save" if "error" not in saved
              else f"not saved: {saved['error']}")
    print(f"wasm memory: {r['before'] / MIB:.0f} MiB before, {r['after'] / MIB:.0f} MiB after "
          f"importing {ids:,} IDs in {r['ms'] / 1000:.1f} s ({saving}); IDs "
          f"{r['idBytes'] / ids:.1f} bytes each; {beyond:.1f} bytes per document beyond its ID")


def measure_memories(driver, chromium, url, args, result):
    """The memory after an import of --ids IDs (default --docs) in the fresh page, then after
    a generation of --docs documents in another fresh page (none when --docs is 0)."""
    ids = args.ids or args.docs
    if ids:
        measure_import_memory(driver, ids, result)
    if args.docs:
        if ids:
            driver.stop()
            driver.start(chromium)
            driver.open(url)
            time.sleep(2)
        measure_memory(driver, args.docs, result)


def measure_bulk(driver, url, docs, ids, result, trace=False):
    """Generate, import a gzip export and reload at `docs` documents; import `ids` IDs."""
    result["loadavg_before"] = load_average()
    if trace:
        trace_events(driver)
    r = result["generate"] = driver.run(BULK_GENERATE, docs)
    bulk_line(f"generate {docs} documents", r)
    print_stages(r)
    measure_reload(driver, url, docs, result, trace)
    imp = result["import"] = driver.run(IMPORT, docs)
    if "error" in imp:
        raise SystemExit(f"studio bench: import failed: {imp['error']}")
    print(f"import {imp['documents']} documents ({imp['bytes'] / 1024:.0f} KB gzip export): "
          f"{imp['ms']:.0f} ms, longest task {mark(imp['longest'], TASK_TARGET_MS)}")
    print_stages(imp)
    save_after(driver, "the import", imp, docs)
    if ids:
        if trace:
            trace_events(driver)
        r = result["ids"] = driver.run(BULK_IDS, ids)
        bulk_line(f"import {ids} IDs ({r.get('bytes', 0) / 1e6:.0f} MB text)", r)
        print_stages(r)
        if trace:
            print_long_tasks(trace_events(driver))
        save_after(driver, "the IDs' import", r, ids)
    report_load(result)


def save_after(driver, what, job, docs):
    """The studio's save of the workspace a job made (it starts 500 ms after the job's end,
    `job`'s start plus its time): its time until IndexedDB holds it, the page's part (the
    documents it copied to the save's worker) and the longest task meanwhile."""
    # From the job's start: the page starts the save 500 ms after it queued the job's
    # workspace for the host, which may be before the host's news show its count.
    saved = job["save"] = driver.run(SAVED, job["start"], limit_ms(docs))
    if "error" in saved:
        raise SystemExit(f"studio bench: the save after {what} failed: {saved['error']}")
    print(f"  save after {what}: {saved['save']:.0f} ms (the page copying documents to the "
          f"save's worker {saved['serialize'] or 0:.0f} ms of it; longest task "
          f"{mark(saved['longest'], TASK_TARGET_MS)})")


def rows_of(text):
    """--rows' names, checked against TABLE_ROWS."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in TABLE_ROWS]
    if unknown:
        raise SystemExit(f"studio bench: --rows: unknown {', '.join(unknown)}; the rows are "
                         f"{', '.join(TABLE_ROWS)}")
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--edits", type=int, default=9)
    parser.add_argument("--load-only", action="store_true",
                        help="measure only the cold load and dist/'s size")
    parser.add_argument("--reload-only", action="store_true",
                        help="measure only the generation, its save and a reload")
    parser.add_argument("--advise", action="store_true",
                        help="measure only the advisor on an export of --docs documents")
    parser.add_argument("--check", action="store_true",
                        help="measure only the Readiness view's check of --docs generated "
                             "documents with the check crate's every-finding fixtures pasted")
    parser.add_argument("--table", action="store_true",
                        help="measure only issue 11's table at --docs documents (edits, shard "
                             "count, add shard + balance, the Documents view's sort and filter, "
                             "longest tasks, the edit at 10,000)")
    parser.add_argument("--bulk", action="store_true",
                        help="measure only the chunked jobs at --docs documents: generate, "
                             "reload, import a gzip export (and --ids IDs from a text file), "
                             "each import followed by the studio's save of it")
    parser.add_argument("--ids", type=int, default=0,
                        help="with --bulk: also import a text file of this many IDs; with "
                             "--memory: import this many (default --docs)")
    parser.add_argument("--memory", action="store_true",
                        help="measure only the wasm memory per document after importing --ids "
                             "IDs, then (in a fresh page) after generating --docs (0: none)")
    parser.add_argument("--rows", default=",".join(DEFAULT_ROWS),
                        help="with --table: the rows measured after the generation and its save, "
                             "of " + ",".join(TABLE_ROWS) + " (default all but views; the "
                             "small edit needs edits)")
    parser.add_argument("--trace", action="store_true",
                        help="with --bulk --ids or --table: record a Chrome trace of the IDs "
                             "import (--bulk) or of the generation, save and reloads (--table) "
                             "and print what ran in each main-thread task over 50 ms")
    parser.add_argument("--dist", default=os.path.join(os.path.dirname(__file__), "..", "..", "dist"))
    args = parser.parse_args()
    dist = os.path.abspath(args.dist)
    if not os.path.isfile(os.path.join(dist, "index.html")):
        raise SystemExit(f"studio bench: {dist}/index.html is missing: run 'trunk build --release' first")

    driver_port = free_port()
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    server, http_port = serve(dist, compressed=False)
    chromedriver = subprocess.Popen(
        [os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"), f"--port={driver_port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = Driver(driver_port)
    try:
        wait_for(f"http://127.0.0.1:{driver_port}/status")
        result = {"documents": args.docs}
        url = f"http://127.0.0.1:{http_port}/"
        single = [(args.advise, lambda: measure_advise(driver, args.docs, result)),
                  (args.check, lambda: measure_check(driver, args.docs, result)),
                  (args.table, lambda: measure_table(driver, url, args.docs, args.edits, result, args.trace,
                                                             rows_of(args.rows))),
                  (args.bulk, lambda: measure_bulk(driver, url, args.docs, args.ids, result, args.trace)),
                  (args.memory, lambda: measure_memories(driver, chromium, url, args, result))]
        for wanted, measure in single:
            if wanted:
                driver.start(chromium, trace=args.trace)
                driver.open(url)
                time.sleep(2)
                measure()
                print(json.dumps(result))
                return
        measure_loads(driver_port, chromium, dist, result)
        result["size"] = dist_size(dist)
        print(f"dist/ gzipped: {result['size']:,} bytes ({result['size'] / 1024:.1f} KB)"
              + ("  over" if result["size"] > SIZE_TARGET else ""))
        if args.load_only:
            print(json.dumps(result))
            return
        driver.start(chromium)
        driver.open(f"http://127.0.0.1:{http_port}/")
        time.sleep(2)
        result["generate"] = driver.run(GENERATE, args.docs, limit_ms(args.docs))
        print(f"generate {args.docs} documents: {result['generate']['ms']:.1f} ms "
              f"(longest task {result['generate']['longest']:.0f} ms)")
        measure_reload(driver, f"http://127.0.0.1:{http_port}/", args.docs, result)
        if args.reload_only:
            print(json.dumps(result))
            return
        print(f"{'view':<10} {'edit median':>14} {'edit worst':>16} {'shard count':>16}")
        result["views"] = {}
        for tab in TABS:
            r = driver.run(EDITS, tab, args.edits)
            r["median"] = statistics.median(r["times"])
            r["worst"] = max(r["times"])
            result["views"][tab] = r
            print(f"{tab:<10} {mark(r['median'], EDIT_TARGET_MS):>14} {mark(r['worst'], EDIT_TARGET_MS):>16}"
                  f" {mark(max(r['shardTimes']), EDIT_TARGET_MS):>16}")
        rs = result["reshard"] = driver.run(RESHARD)
        print(f"resharding: add a shard {mark(rs['add'], EDIT_TARGET_MS)}, balance "
              f"{mark(rs['balance'], EDIT_TARGET_MS)} (moves {rs['moved']} documents, skew {rs['skew']}), "
              f"next bucket with documents {mark(rs['step'], EDIT_TARGET_MS)}; longest task {rs['longest']:.0f} ms")
        result["import"] = driver.run(IMPORT, args.docs)
        if "error" in result["import"]:
            raise SystemExit(f"studio bench: import failed: {result['import']['error']}")
        imp = result["import"]
        print(f"import {imp['documents']} documents ({imp['bytes'] / 1024:.0f} KB gzip export): "
              f"{imp['ms']:.0f} ms, longest task {mark(imp['longest'], TASK_TARGET_MS)}, "
              f"{imp['over']} tasks over {TASK_TARGET_MS} ms")
        print(json.dumps(result))
    finally:
        driver.stop()
        chromedriver.kill()
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
