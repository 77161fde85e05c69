"""Smoke test of the built studio (dist/): serves it on 127.0.0.1, opens it in headless
Chromium through ChromeDriver with a hand-written share link, waits (in real time: the
documents are answered by the studio's worker) until the page shows the link's three
documents, and checks customers/1-A in bucket 982173 on shard 2 of 3, fragment Orders$2, and
that the browser console logged no error and no Content-Security-Policy violation. The page
carries its policy (index.html, hashes by scripts/csp.sh), and an inline script added to it
must be refused. Saves a 1280x800 screenshot (SCREENSHOT, default
/tmp/studio.png). Run by scripts/smoke.sh; reuses the benchmark's WebDriver client."""

import base64
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web", "bench"))
import studio  # noqa: E402

LINK = "#shards=3&db=Orders&ids=orders%2F1-A%0Acustomers%2F1-A%0Aorders%2F2-A%24customers%2F1-A"

# Waits (at most 20 s) for the row of document 1; returns the rows' HTML and their count.
ROWS = """
const done = arguments[arguments.length - 1];
const t = performance.now();
(function poll() {
  const row = document.querySelector('.dt-row[data-index="1"]');
  if (row || performance.now() - t > 20000) {
    done({row: row ? row.outerHTML : null, rows: document.querySelectorAll('.dt-row').length});
  } else { setTimeout(poll, 50); }
})();
"""

ERRORS = re.compile(r"panicked|Uncaught|RuntimeError|unreachable|Content Security Policy")

# The page's policy, and whether an inline script (what an injection would add) runs.
POLICY = """
const done = arguments[arguments.length - 1];
const meta = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
const script = document.createElement('script');
script.textContent = 'window.__inlineRan = true;';
document.head.appendChild(script);
setTimeout(() => done({policy: meta ? meta.content : null, inlineRan: !!window.__inlineRan}), 100);
"""


def fail(why):
    print(f"smoke: {why}", file=sys.stderr)
    print("0 passed, 1 failed")
    sys.exit(1)


def check(row, what, pattern):
    if not re.search(pattern, row):
        fail(f"the row of document 1 does not show {what}; row was: {row}")


def main():
    dist, chromium = sys.argv[1], sys.argv[2]
    screenshot = os.environ.get("SCREENSHOT", "/tmp/studio.png")
    with studio.browser(dist, chromium) as (driver, port):
        driver.open(f"http://127.0.0.1:{port}/{LINK}")
        seen = driver.run(ROWS)
        logged = [e["message"] for e in driver.log("browser") if e.get("level") == "SEVERE"]
        errors = [m for m in logged if ERRORS.search(m)]
        if errors:
            fail("the page logged an error to the browser console: " + "; ".join(errors))
        csp = driver.run(POLICY)
        if not csp["policy"] or "INLINE_SCRIPT_HASHES" in csp["policy"] \
                or "'sha256-" not in csp["policy"]:
            fail(f"the page's Content-Security-Policy is missing or not filled in by "
                 f"scripts/csp.sh: {csp['policy']!r}")
        if csp["inlineRan"]:
            fail("an inline script added to the page ran: the Content-Security-Policy is not on")
        row = seen["row"]
        if not row:
            fail("no row for document 1 in the page: the studio did not render "
                 "(see 'trunk build --release' output).")
        if seen["rows"] != 3:
            fail(f"the share link's 3 documents were expected, the page shows {seen['rows']} rows")
        check(row, "customers/1-A highlighted", r"<mark>customers/1-A</mark>")
        check(row, "bucket 982173", r'class="[^"]*bucket">982173<')
        check(row, "shard 2", r'class="[^"]*shard"><span[^>]*>2</span>')
        check(row, "fragment Orders$2", r'class="[^"]*fragment"><code>Orders\$2</code>')
        time.sleep(0.3)
        png = driver.call("GET", f"/session/{driver.session}/screenshot")
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(png))
    print(f"smoke: customers/1-A -> bucket 982173, shard 2, Orders$2, under the page's "
          f"Content-Security-Policy with no violation; screenshot at {screenshot}")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
