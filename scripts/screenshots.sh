#!/usr/bin/env bash
# Screenshots of the release build for the README and docs/ (scripts/screenshots.py): every
# tab at 1280x800 with DOCS (default 100,000) generated documents, the tab bar at 1024 and
# 1280 px and the heatmap at 1,000,000 documents, light and dark, into OUT (default target/screenshots/,
# not committed; docs/studio.png is a copy of documents-light.png).
#
# Run `trunk build --release` first. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[[ -f dist/index.html ]] || { echo "screenshots: dist/index.html is missing: run 'trunk build --release' first." >&2; exit 1; }
[[ -n "$chromium" ]] || { echo "screenshots: chromium not found, or set CHROMIUM=/path/to/chrome." >&2; exit 1; }
exec python3 -u scripts/screenshots.py dist "$chromium"
