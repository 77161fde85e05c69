"""Two tabs of the built studio (dist/) on one saved studio, in headless Chromium through
ChromeDriver: the first tab to open holds the writer's Web Lock and saves; the second says
in the page that another tab is saving and saves nothing, keeping its changes. Both are
edited (the database name), the writer is reloaded: the saved studio is the writer's, the
reloaded tab shows it, and the other still holds its own changes (nothing is lost). The
other tab, now the writer, saves once changed; then it is closed and the first tab takes
over. Run by scripts/smoke.sh after scripts/smoke.py; reuses the benchmark's WebDriver
client."""

import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web", "bench"))
import studio  # noqa: E402

ERRORS = re.compile(r"panicked|Uncaught|RuntimeError|unreachable")

# Runs the body of an async function in the page: what it returns, or {error}.
WRAP = """
const done = arguments[arguments.length - 1];
(async () => { %s })().then(done, e => done({error: String(e)}));
"""

# The database name of the saved studio in IndexedDB (null: none saved).
SAVED = """
if (!(await indexedDB.databases()).some(d => d.name === 'ravenshard-studio')) return null;
const db = await new Promise((ok, no) => {
  const open = indexedDB.open('ravenshard-studio');
  open.onsuccess = () => ok(open.result);
  open.onerror = () => no(open.error);
});
try {
  if (!db.objectStoreNames.contains('studio')) return null;
  const value = await new Promise((ok, no) => {
    const get = db.transaction('studio').objectStore('studio').get('settings');
    get.onsuccess = () => ok(get.result);
    get.onerror = () => no(get.error);
  });
  if (value === undefined) return null;
  const text = typeof value === 'string' ? value : new TextDecoder().decode(value);
  return JSON.parse(text).database;
} finally { db.close(); }
"""

# What a tab shows: the database name, the writer's banner and the notices.
SHOWN = """
const text = s => { const e = document.querySelector(s); return e ? e.textContent : null; };
const field = document.getElementById('database');
return {ready: !!document.querySelector('.studio'), database: field ? field.value : null,
        banner: text('.not-writer'), notices: text('.notices') || ''};
"""

# Types a database name as a user does.
TYPE = """
const field = document.getElementById('database');
field.value = arguments[0];
field.dispatchEvent(new InputEvent('input', {bubbles: true}));
return true;
"""


def fail(why):
    print(f"two tabs: {why}", file=sys.stderr)
    print("0 passed, 1 failed")
    sys.exit(1)


class Tabs:
    """The browser's tabs, by name, driven one at a time."""

    def __init__(self, driver, url):
        self.driver, self.url, self.handles = driver, url, {}

    def call(self, method, path, body=None):
        return self.driver.call(method, f"/session/{self.driver.session}{path}", body)

    def open(self, name, first=False):
        if not first:
            handle = self.call("POST", "/window/new", {"type": "tab"})["handle"]
            self.call("POST", "/window", {"handle": handle})
        self.handles[name] = self.call("GET", "/window")
        self.driver.open(self.url)
        self.until(name, "the studio", lambda shown: shown["ready"])

    def to(self, name):
        self.call("POST", "/window", {"handle": self.handles[name]})

    def js(self, name, body, *args):
        self.to(name)
        result = self.driver.run(WRAP % body, *args)
        if isinstance(result, dict) and "error" in result:
            fail(f"a script failed in tab {name}: {result['error']}")
        return result

    def shown(self, name):
        return self.js(name, SHOWN)

    def saved(self, name):
        return self.js(name, SAVED)

    def type(self, name, database):
        self.js(name, TYPE, database)

    def until(self, name, what, ready, seconds=20):
        deadline = time.time() + seconds
        while True:
            shown = self.shown(name)
            if ready(shown):
                return shown
            if time.time() > deadline:
                fail(f"tab {name} never showed {what}; it shows {shown}")
            time.sleep(0.1)

    def until_saved(self, name, database, seconds=20):
        deadline = time.time() + seconds
        while (saved := self.saved(name)) != database:
            if time.time() > deadline:
                fail(f"the saved studio's database never became {database!r} (it is {saved!r})")
            time.sleep(0.1)

    def reload(self, name):
        self.to(name)
        self.call("POST", "/refresh", {})
        self.until(name, "the studio", lambda shown: shown["ready"])

    def close(self, name):
        self.to(name)
        self.call("DELETE", "/window")
        del self.handles[name]

    def errors(self):
        logged = [e["message"] for e in self.driver.log("browser") if e.get("level") == "SEVERE"]
        return [m for m in logged if ERRORS.search(m)]


def banner_says(text):
    return lambda shown: shown["banner"] is not None and text in shown["banner"]


def run(tabs):
    # The first tab writes: it shows no banner and saves its changes.
    tabs.open("A", first=True)
    if tabs.shown("A")["banner"] is not None:
        fail(f"the only tab says it does not write: {tabs.shown('A')['banner']}")
    tabs.type("A", "Alpha")
    tabs.until_saved("A", "Alpha")
    # The second tab restores that studio, says another tab is saving, and saves nothing.
    tabs.open("B")
    shown = tabs.until("B", "the reader's banner", banner_says("Another tab of this studio is saving it"))
    if shown["database"] != "Alpha":
        fail(f"the second tab did not restore the saved studio: {shown}")
    tabs.type("B", "Beta")
    tabs.until("B", "that its changes are kept", banner_says("kept in this tab only"))
    time.sleep(1.5)
    if tabs.saved("B") != "Alpha":
        fail(f"the reader saved: the saved studio is {tabs.saved('B')!r}")
    # The writer is edited too, and saves.
    tabs.type("A", "Alpha2")
    tabs.until_saved("A", "Alpha2")
    # The writer reloads: the other tab gets the lock, but the saved studio is newer than
    # its own, so it saves nothing over it; the reloaded tab shows the saved studio and
    # is the reader now. Nothing is lost: each tab still shows its own changes.
    tabs.reload("A")
    shown = tabs.until("A", "the saved studio, as a reader",
                       lambda s: s["database"] == "Alpha2" and s["banner"] is not None)
    shown = tabs.until("B", "that it writes but saved nothing over the newer studio",
                       banner_says("newer than this tab's"))
    if shown["database"] != "Beta":
        fail(f"the second tab lost its changes: {shown}")
    if "this tab saves it now" not in shown["notices"]:
        fail(f"the second tab did not say it writes now: {shown}")
    time.sleep(1.5)
    if tabs.saved("B") != "Alpha2":
        fail(f"the saved studio was replaced without a change: {tabs.saved('B')!r}")
    # A change in the new writer saves its studio in place of the other.
    tabs.type("B", "Beta2")
    tabs.until_saved("B", "Beta2")
    tabs.until("B", "no banner once it saves", lambda s: s["banner"] is None)
    tabs.until("A", "that the saved studio changed", banner_says("reload the page to see it"))
    # The writer closes: the first tab takes over, and says so.
    tabs.close("B")
    shown = tabs.until("A", "that it writes now",
                       lambda s: "this tab saves it now" in s["notices"])
    tabs.reload("A")
    shown = tabs.until("A", "the saved studio, as the writer",
                       lambda s: s["database"] == "Beta2" and s["banner"] is None)
    tabs.type("A", "Gamma")
    tabs.until_saved("A", "Gamma")


def main():
    dist, chromium = sys.argv[1], sys.argv[2]
    with studio.browser(dist, chromium) as (driver, port):
        tabs = Tabs(driver, f"http://127.0.0.1:{port}/")
        run(tabs)
        errors = tabs.errors()
        if errors:
            fail("a tab logged an error to the browser console: " + "; ".join(errors))
    print("two tabs: the first tab writes, the second says so and keeps its changes; after a "
          "reload of the writer each tab still shows its own; the second saves once changed, "
          "and when it closes the first takes over")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
