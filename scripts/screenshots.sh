#!/usr/bin/env bash
# Screenshots of the release build for the README and docs/ (scripts/screenshots.py): the
# heatmap at 1,000,000 documents and the tab bar at 1024 and 1280 px, light and dark, into
# OUT (default docs/screenshots/).
#
# Run `trunk build --release` first. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[[ -f dist/index.html ]] || { echo "screenshots: dist/index.html is missing: run 'trunk build --release' first." >&2; exit 1; }
[[ -n "$chromium" ]] || { echo "screenshots: chromium not found, or set CHROMIUM=/path/to/chrome." >&2; exit 1; }
exec python3 scripts/screenshots.py dist "$chromium"
