#!/usr/bin/env bash
# The studio's inputs fuzzed in a real browser (scripts/browser_fuzz.py): serves dist/ on
# 127.0.0.1 and feeds the studio in headless Chromium with CASES mutated inputs from SEED
# (default 3000 cases, seed 1): files through the file input and dropped, the ID editor, the
# configuration JSON editor, share links and damaged saved studios in IndexedDB. Every case
# must end with a usable page that still places customers/1-A in bucket 982173 on shard 2;
# a failure prints its seed, number and input, and exits 1.
#
#     scripts/browser_fuzz.sh [CASES] [SEED] [FROM]
#
# Run `trunk build --release` first. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/built_studio.sh
source scripts/built_studio.sh
need_built_studio "browser fuzz"

exec python3 scripts/browser_fuzz.py dist "$chromium" "${1:-3000}" "${2:-1}" "${3:-0}"
