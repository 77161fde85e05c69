#!/usr/bin/env bash
# The JS API in a real page, in headless Chromium, from the npm package as users get it.
#
#   js/bench/run.sh            a plain page: index.html imports the package's browser entry
#                              (an import map names it), main.js runs the JS assertions of
#                              assertions.js; exit 1 on any FAIL
#   js/bench/run.sh --bundle   the same page with main.js bundled by esbuild (from npm,
#                              pinned by scripts/setup.sh) importing `ravenshard`
#   js/bench/run.sh --bench    the plain page, then time bucketsFor (a string, UTF-8 bytes)
#                              and a bucketFor loop on 1,000,000 IDs and print IDs/s; then
#                              read 1,000,000 documents with sizes into a Workload, balance
#                              them over 10 shards plus an added 11th, plan to the result,
#                              and print the milliseconds
#
# Builds the tarball (scripts/js-package.sh, or takes TARBALL), installs it with
# `npm install` into a temporary project, serves it on 127.0.0.1 and reads the results from
# Chromium's dumped DOM. Works from any directory; the server and the temporary files are
# removed on exit. Needs: what scripts/setup.sh installs, python3, chromium (or set CHROMIUM).
set -euo pipefail

query=""
bundle=false
case "${1:-}" in
  "") ;;
  --bench) query="?bench" ;;
  --bundle) bundle=true ;;
  *) echo "usage: $0 [--bench | --bundle]" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."

chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
[ -n "$chromium" ] || { echo "no chromium found; install it or set CHROMIUM" >&2; exit 1; }

work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tarball="${TARBALL:-$(scripts/js-package.sh)}"
export PATH="$PWD/.tools/node_modules/.bin:$PATH"
site="$work/site"
mkdir "$site"
cp "$here/index.html" "$here/main.js" "$here/assertions.js" "$site/"
echo '{"name": "ravenshard-page", "private": true, "type": "module"}' >"$site/package.json"
(cd "$site" && npm install --offline --silent --no-audit --no-fund "$tarball")
if $bundle; then
  # What an app's build does: one file with the package's browser entry (the .wasm inlined).
  esbuild "$site/main.js" --bundle --format=esm --platform=browser --log-level=warning \
    --outfile="$site/bundle.js"
  mv "$site/bundle.js" "$site/main.js"
  rm -r "$site/node_modules" "$site/assertions.js"
fi

# Port 0: the OS picks a free port, which the server prints.
python3 -u -m http.server --bind 127.0.0.1 --directory "$site" 0 >"$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 100); do
  port="$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$work/server.log" | head -n 1)"
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { echo "the HTTP server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

# --dump-dom reads the DOM at the load event; main.js does all its work before it. No
# --virtual-time-budget: it virtualises the page's clock and so the benchmark's timings.
timeout 300 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
  --disable-background-networking --disable-component-update --no-first-run \
  --user-data-dir="$work/profile" --dump-dom "http://127.0.0.1:$port/index.html$query" >"$work/dom.html" 2>"$work/chromium.log" || {
  echo "chromium failed:" >&2; tail -n 20 "$work/chromium.log" >&2; exit 1
}

# One result per <div>: PASS, FAIL, BENCH, DONE.
grep -oE '>(PASS|FAIL|BENCH|DONE)( [^<]*)?' "$work/dom.html" |
  sed -e 's/^>//' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e 's/&amp;/\&/g' >"$work/results.txt" || true

passed="$(grep -c '^PASS' "$work/results.txt" || true)"
failed="$(grep -c '^FAIL' "$work/results.txt" || true)"
grep -E '^(FAIL|BENCH)' "$work/results.txt" || true
echo "$passed passed, $failed failed"
if ! grep -q '^DONE' "$work/results.txt"; then
  echo "the page did not finish; chromium said:" >&2
  tail -n 20 "$work/chromium.log" >&2
  exit 1
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
