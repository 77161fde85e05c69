#!/usr/bin/env bash
# Smoke test of the built studio: serves dist/ on 127.0.0.1, loads it in headless
# Chromium with a hand-written share link, and checks that the page shows the link's three
# documents, customers/1-A in bucket 982173 on shard 2 of 3, fragment Orders$2. Also saves a
# 1280x800 screenshot (SCREENSHOT, default /tmp/studio.png).
#
# Run `trunk build --release` first. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

screenshot=${SCREENSHOT:-/tmp/studio.png}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}

fail() {
  echo "smoke: $*" >&2
  echo "0 passed, 1 failed"
  exit 1
}

[[ -f dist/index.html ]] || fail "dist/index.html is missing: run 'trunk build --release' from the repository root first."
ls dist/*.wasm >/dev/null 2>&1 || fail "dist/ has no .wasm file: run 'trunk build --release' from the repository root first."
[[ -n "$chromium" ]] || fail "chromium not found (apt-get install -y chromium), or set CHROMIUM=/path/to/chrome."

# A free port on the loopback interface.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

profile=$(mktemp -d)
server_log=$(mktemp)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$profile" "$server_log"
}
trap cleanup EXIT

python3 -m http.server --bind 127.0.0.1 --directory dist "$port" >"$server_log" 2>&1 &
server_pid=$!

# Wait (at most 10 s) until the server answers.
for _ in $(seq 1 100); do
  if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/', timeout=1)" 2>/dev/null; then
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || fail "the HTTP server exited: $(cat "$server_log")"
  sleep 0.1
done

# A hand-written share link: 3 shards, database Orders, three IDs (the second is customers/1-A).
link='#shards=3&db=Orders&ids=orders%2F1-A%0Acustomers%2F1-A%0Aorders%2F2-A%24customers%2F1-A'
url="http://127.0.0.1:$port/$link"
chrome_args=(
  --headless --no-sandbox --disable-gpu --disable-dev-shm-usage
  --disable-background-networking --disable-component-update --no-first-run
  --user-data-dir="$profile" --virtual-time-budget=10000
)

console_log=$(mktemp)
dom=$(timeout 60 "$chromium" "${chrome_args[@]}" --enable-logging=stderr --v=0 --dump-dom "$url" 2>"$console_log") \
  || fail "chromium could not load $url"
# A panic in wasm or an uncaught error shows in the browser console.
if grep -E 'CONSOLE.*(panicked|Uncaught|RuntimeError|unreachable)' "$console_log" >&2; then
  rm -f "$console_log"
  fail "the page logged an error to the browser console (above)"
fi
rm -f "$console_log"

# The row of customers/1-A (document 1, counting from 0, of the chapter's examples) must show
# bucket 982173, shard 2, Orders$2. Rows are <div class="dt-row" data-index="..."> of <span>s.
row=$(printf '%s' "$dom" | tr -d '\n' | grep -o '<div[^>]*data-index="1"[^>]*>.*' | sed 's|</div>.*||' || true)
[[ -n "$row" ]] || fail "no row for document 1 in the page: the studio did not render (see 'trunk build --release' output)."
check() { # what, regex
  printf '%s' "$row" | grep -Eq "$2" || fail "the row of document 1 does not show $1; row was: $row"
}
rows=$(printf '%s' "$dom" | grep -o 'data-index="[0-9]*"' | sort -u | wc -l)
[[ "$rows" -eq 3 ]] || fail "the share link's 3 documents were expected, the page shows $rows rows"
check "customers/1-A highlighted" '<mark>customers/1-A</mark>'
check "bucket 982173" 'class="[^"]*bucket">982173<'
check "shard 2" 'class="[^"]*shard"><span[^>]*>2</span>'
check "fragment Orders\$2" 'class="[^"]*fragment"><code>Orders\$2</code>'

timeout 60 "$chromium" "${chrome_args[@]}" --hide-scrollbars --window-size=1280,800 \
  --screenshot="$screenshot" "$url" >/dev/null 2>&1 \
  || fail "chromium could not take a screenshot of $url"
[[ -s "$screenshot" ]] || fail "no screenshot written to $screenshot"

echo "smoke: customers/1-A -> bucket 982173, shard 2, Orders\$2; screenshot at $screenshot"
echo "1 passed, 0 failed"
