#!/usr/bin/env bash
# Accessibility test of the built studio (scripts/a11y.py): serves dist/ on 127.0.0.1, opens it
# in headless Chromium (the smoke test's server and driver), generates documents, and runs
# axe-core (.tools/, from scripts/setup.sh; never part of dist/) over every tab in the light
# and the dark colour scheme. Fails on any violation of impact serious or critical, printing
# each with the selectors of the elements at fault.
#
# Run `trunk build --release` and `scripts/setup.sh --browser` first. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/built_studio.sh
source scripts/built_studio.sh
need_built_studio a11y

axe=.tools/node_modules/axe-core/axe.min.js

[[ -f "$axe" ]] || fail "$axe is missing: run scripts/setup.sh --browser first."
exec python3 -u scripts/a11y.py dist "$chromium" "$axe"
