#!/usr/bin/env bash
# Tests the npm package as users get it: installs the tarball (scripts/js-package.sh, or
# TARBALL) with `npm install` into a fresh temporary project (no network: the package has
# no dependencies), then
#   run.sh node    node --test: import.test.mjs, require.test.cjs (the assertions of
#                  js/bench/assertions.js through `import` and `require`) and
#                  vectors.test.mjs (every row of vectors/*.tsv), readme.test.mjs (the
#                  JavaScript examples of the package's README and of README.md run),
#                  check.test.mjs (check on crates/ravenshard-check/fixtures)
#   run.sh types   tsc --noEmit --strict (typescript from npm, pinned by scripts/setup.sh)
#                  over types.mts and types.cts, which use every export
# The page in headless Chromium, plain and bundled by esbuild, is js/bench/run.sh.
# Works from any directory; the temporary project is removed on exit.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../../.."
root="$PWD"
mode="${1:-}"
case "$mode" in
  node | types) ;;
  *) echo "usage: $0 node|types" >&2; exit 2 ;;
esac
tarball="${TARBALL:-$(scripts/js-package.sh)}"
export PATH="$root/.tools/node_modules/.bin:$PATH"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo '{"name": "ravenshard-test", "private": true, "type": "module"}' >"$work/package.json"
(cd "$work" && npm install --offline --silent --no-audit --no-fund "$tarball")

if [ "$mode" = node ]; then
  cp "$here"/*.test.* "$here/report.js" "$root/js/bench/assertions.js" "$work/"
  cp -r "$root/vectors" "$work/vectors"
  cp -r "$root/crates/ravenshard-check/fixtures" "$work/check-fixtures"
  cp "$root/README.md" "$work/README.repository.md"
  cd "$work"
  node --test import.test.mjs require.test.cjs vectors.test.mjs readme.test.mjs check.test.mjs
else
  cp "$here/types.mts" "$here/types.cts" "$here/tsconfig.json" "$work/"
  echo "tsc $(tsc --version) --noEmit --strict over types.mts and types.cts"
  tsc --project "$work/tsconfig.json"
fi
