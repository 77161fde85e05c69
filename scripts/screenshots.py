"""Screenshots of the built studio (dist/) for the README and docs/: serves it on
127.0.0.1, drives headless Chromium through ChromeDriver (the benchmark's WebDriver client,
web/bench/studio.py), generates the documents, and saves PNGs into OUT (default
target/screenshots/, not committed; docs/studio.png, the README's picture, is a copy of
documents-light.png):

* <tab>-light.png, <tab>-dark.png: every tab of the tab bar (read from the page) at
  1280x800 with DOCS (default 100,000) generated documents;
* tabs-1024-light.png, tabs-1024-dark.png, tabs-1280-light.png, tabs-1280-dark.png: the
  page with its tab bar at 1024 and 1280 px wide, on the Bucket map view (its group,
  Placement, has the widest tabs);
* map-1m-light.png, map-1m-dark.png: the Bucket map view's heatmap at 1,000,000 generated
  documents, 1280x800.

The colour scheme is set with the DevTools protocol's Emulation.setEmulatedMedia
(prefers-color-scheme). Run by scripts/screenshots.sh."""

import base64
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web", "bench"))
import studio  # noqa: E402

DOCS = int(os.environ.get("DOCS", "100000"))
MAP_DOCS = 1_000_000

# The keys of the tab bar's tabs (ids tab-<key>), in order.
TABS = """
const done = arguments[arguments.length - 1];
done([...document.querySelectorAll('[role="tablist"] [role="tab"]')].map(t => t.id.slice(4)));
"""

# Waits until the map's heatmap drew the host's bins (its data-version is set past 0).
HEAT_DRAWN = """
const done = arguments[arguments.length - 1];
const t = performance.now();
(function poll() {
  const heat = document.querySelector('.heatmap[data-version]');
  const drawn = heat && heat.dataset.version !== '0';
  if (drawn || performance.now() - t > 60000) { done(!!drawn); } else { setTimeout(poll, 100); }
})();
"""

# Shows a tab and waits until nothing is on its way (a worker's plan, a progress bar), at
# most 30 s.
CLICK_TAB = """
const [key, busySelector, done] = arguments;
const tab = document.getElementById('tab-' + key);
if (tab) tab.click();
const t = performance.now();
(function poll() {
  const busy = document.querySelector(busySelector);
  if (!busy || performance.now() - t > 30000) { setTimeout(() => done(!!tab), 300); }
  else { setTimeout(poll, 50); }
})();
"""


def shot(driver, path):
    time.sleep(0.5)
    png = driver.call("GET", f"/session/{driver.session}/screenshot")
    with open(path, "wb") as f:
        f.write(base64.b64decode(png))
    print(f"screenshots: {path}")


def scheme(driver, value):
    driver.cdp("Emulation.setEmulatedMedia",
               {"features": [{"name": "prefers-color-scheme", "value": value}]})


def size(driver, width, height):
    """The page's viewport (a window of this size would leave less to the page)."""
    driver.cdp("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def generate(driver, docs):
    generated = driver.run(studio.GENERATE, docs, studio.limit_ms(docs))
    if generated.get("documents") != docs:
        sys.exit(f"screenshots: {docs} documents were not generated: {generated}")


def main():
    dist, chromium = sys.argv[1], sys.argv[2]
    out = os.environ.get("OUT", "target/screenshots")
    os.makedirs(out, exist_ok=True)
    schemes = ("light", "dark")
    with studio.browser(dist, chromium) as (driver, port):
        driver.open(f"http://127.0.0.1:{port}/")
        if not driver.run(studio.OPENED):
            sys.exit("screenshots: the studio was not shown in 30 s")
        generate(driver, DOCS)
        tabs = driver.run(TABS)
        for value in schemes:
            scheme(driver, value)
            for width in (1024, 1280):
                size(driver, width, 800)
                driver.run(CLICK_TAB, "map", studio.BUSY)
                shot(driver, os.path.join(out, f"tabs-{width}-{value}.png"))
            for tab in tabs:
                driver.run(CLICK_TAB, tab, studio.BUSY)
                shot(driver, os.path.join(out, f"{tab}-{value}.png"))
        generate(driver, MAP_DOCS)
        for value in schemes:
            scheme(driver, value)
            driver.run(CLICK_TAB, "map", studio.BUSY)
            if not driver.run(HEAT_DRAWN):
                sys.exit("screenshots: the heatmap was not drawn in 60 s")
            shot(driver, os.path.join(out, f"map-1m-{value}.png"))


if __name__ == "__main__":
    main()
