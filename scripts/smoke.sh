#!/usr/bin/env bash
# Smoke test of the built studio (scripts/smoke.py): serves dist/ on 127.0.0.1, loads it in
# headless Chromium with a hand-written share link, and checks that the page shows the link's three
# documents, customers/1-A in bucket 982173 on shard 2 of 3, fragment Orders$2, under the
# page's Content-Security-Policy (index.html; scripts/csp.sh adds trunk's inline script's
# hash) with no violation logged, and that an inline script added to the page does not run.
# Also saves a 1280x800 screenshot (SCREENSHOT, default /tmp/studio.png). Then
# scripts/two_tabs.py opens two tabs on one saved studio: one writes (the Web Lock), the
# other says so and keeps its changes, and takes over when the writer closes.
#
# Run `trunk build --release` first. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/built_studio.sh
source scripts/built_studio.sh
need_built_studio smoke

screenshot=${SCREENSHOT:-/tmp/studio.png}

# ChromeDriver drives it in real time: the documents' rows are answered by the studio's
# worker, which a virtual-time `--dump-dom` never lets answer.
python3 scripts/smoke.py dist "$chromium"
exec python3 scripts/two_tabs.py dist "$chromium"
