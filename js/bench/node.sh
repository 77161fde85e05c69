#!/usr/bin/env bash
# Runs js/bench/node.mjs, the npm package's benchmark in Node.js, against the package as
# users get it: builds the tarball (scripts/js-package.sh), installs it and xxhash-wasm
# (pinned by scripts/setup.sh --js in .tools/) into a temporary project and runs the script
# there.
# Works from any directory; the temporary project is removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$PWD"
tarball="$(scripts/js-package.sh)" # and scripts/setup.sh --js, which installs xxhash-wasm
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
echo '{"name": "ravenshard-bench", "private": true, "type": "module"}' >package.json
npm install --offline --silent --no-audit --no-fund "$tarball" "$root/.tools/node_modules/xxhash-wasm"
cp "$root/js/bench/node.mjs" .
node node.mjs
