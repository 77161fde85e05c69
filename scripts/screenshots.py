"""Screenshots of the built studio (dist/) for the README and docs/: serves it on
127.0.0.1, drives headless Chromium through ChromeDriver (the benchmark's WebDriver client,
web/bench/studio.py), generates the documents, and saves PNGs into OUT (default
docs/screenshots/):

* map-1m-light.png, map-1m-dark.png: the Bucket map view's heatmap at 1,000,000 generated
  documents, 1280x800;
* tabs-1024-light.png, tabs-1024-dark.png, tabs-1280-light.png, tabs-1280-dark.png: the page
  with its tab bar at 1024 and 1280 px wide.

The colour scheme is set with the DevTools protocol's Emulation.setEmulatedMedia
(prefers-color-scheme). Run by scripts/screenshots.sh."""

import base64
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web", "bench"))
import studio  # noqa: E402

DOCS = 1_000_000

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

CLICK_TAB = """
const [key, done] = arguments;
const tab = document.getElementById('tab-' + key);
if (tab) tab.click();
setTimeout(() => done(!!tab), 300);
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
    driver.call("POST", f"/session/{driver.session}/window/rect",
                {"width": width, "height": height})


def main():
    dist, chromium = sys.argv[1], sys.argv[2]
    out = os.environ.get("OUT", "docs/screenshots")
    os.makedirs(out, exist_ok=True)
    with studio.browser(dist, chromium) as (driver, port):
        driver.open(f"http://127.0.0.1:{port}/")
        generated = driver.run(studio.GENERATE, DOCS, studio.limit_ms(DOCS))
        if generated.get("documents") != DOCS:
            sys.exit(f"screenshots: {DOCS} documents were not generated: {generated}")
        for value in ("light", "dark"):
            scheme(driver, value)
            for width in (1024, 1280):
                size(driver, width, 800)
                driver.run(CLICK_TAB, "documents")
                shot(driver, os.path.join(out, f"tabs-{width}-{value}.png"))
            size(driver, 1280, 800)
            driver.run(CLICK_TAB, "map")
            if not driver.run(HEAT_DRAWN):
                sys.exit("screenshots: the heatmap was not drawn in 60 s")
            shot(driver, os.path.join(out, f"map-1m-{value}.png"))


if __name__ == "__main__":
    main()
