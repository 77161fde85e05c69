"""Accessibility test of the built studio (dist/): serves it on 127.0.0.1, drives headless
Chromium through ChromeDriver (the benchmark's WebDriver client, web/bench/studio.py),
generates DOCS documents, then for the light and the dark colour scheme (the DevTools
protocol's Emulation.setEmulatedMedia) shows every tab of the tab bar (read from the page,
so a new view is checked without a change here) and runs axe-core over the page. Any
violation of impact serious or critical fails the test; each is printed with the selectors
of its elements. axe-core is put into the page through the DevTools protocol
(Runtime.evaluate), never into dist/. Run by scripts/a11y.sh."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web", "bench"))
import studio  # noqa: E402

DOCS = 10_000
FAILING = ("serious", "critical")
# The elements printed per violation (a table's rows would be hundreds).
SHOWN_NODES = 8

# The ids of the tab bar's tabs, in order.
TABS = """
const done = arguments[arguments.length - 1];
done([...document.querySelectorAll('[role="tablist"] [role="tab"]')].map(t => t.id));
"""

# Shows a tab and waits until its panel is labelled by it and nothing is on its way (a
# worker's plan, a progress bar), at most 30 s.
SHOW = """
const [id, busySelector, done] = arguments;
const t = performance.now();
document.getElementById(id).click();
(function poll() {
  const panel = document.querySelector('[role="tabpanel"]');
  const busy = document.querySelector(busySelector);
  const shown = panel && panel.getAttribute('aria-labelledby') === id;
  if ((shown && !busy) || performance.now() - t > 30000) {
    setTimeout(() => done(shown), 300);
  } else { setTimeout(poll, 50); }
})();
"""

# axe-core over the whole page; its violations, each with its nodes' selectors.
AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary}))}))),
  e => done({error: String(e)}));
"""


def scheme(driver, value):
    driver.cdp("Emulation.setEmulatedMedia",
               {"features": [{"name": "prefers-color-scheme", "value": value}]})


def inject(driver, source):
    """Defines `axe` in the page (the DevTools protocol: the page's policy does not apply)."""
    driver.cdp("Runtime.evaluate", {"expression": source})
    if not driver.run("arguments[0](typeof axe === 'object' && axe.version)"):
        sys.exit("a11y: axe-core did not load in the page")


def check(driver, where):
    """Runs axe; prints and returns the failing violations."""
    found = driver.run(AXE)
    if isinstance(found, dict):
        sys.exit(f"a11y: axe-core failed on {where}: {found['error']}")
    failing = [v for v in found if v["impact"] in FAILING]
    for v in failing:
        print(f"a11y: {where}: {v['impact']} {v['id']}: {v['help']}")
        for n in v["nodes"][:SHOWN_NODES]:
            print(f"    {n['target']}")
            for line in (n["summary"] or "").splitlines():
                print(f"        {line}")
        if len(v["nodes"]) > SHOWN_NODES:
            print(f"    ... and {len(v['nodes']) - SHOWN_NODES} more elements")
    minor = sorted({v["id"] for v in found if v["impact"] not in FAILING})
    if minor:
        print(f"a11y: {where}: also (moderate or minor): {', '.join(minor)}")
    return failing


def main():
    dist, chromium, axe = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(axe, encoding="utf-8") as f:
        source = f.read()
    failing, checked = 0, 0
    with studio.browser(dist, chromium) as (driver, port):
        driver.open(f"http://127.0.0.1:{port}/")
        if not driver.run(studio.OPENED):
            sys.exit("a11y: the studio was not shown in 30 s")
        generated = driver.run(studio.GENERATE, DOCS, studio.limit_ms(DOCS))
        if generated.get("documents") != DOCS:
            sys.exit(f"a11y: {DOCS} documents were not generated: {generated}")
        print(f"a11y: {DOCS} documents generated in {generated['ms']:.0f} ms")
        inject(driver, source)
        tabs = driver.run(TABS)
        for value in ("light", "dark"):
            scheme(driver, value)
            for tab in tabs:
                if not driver.run(SHOW, tab, studio.BUSY):
                    sys.exit(f"a11y: {tab} did not show its view")
                failing += len(check(driver, f"{tab} ({value})"))
                checked += 1
    if failing:
        print(f"a11y: {failing} serious or critical violations over {checked} views")
        print("0 passed, 1 failed")
        sys.exit(1)
    print(f"a11y: no serious or critical violation in {len(tabs)} tabs, light and dark "
          f"({DOCS} generated documents)")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
