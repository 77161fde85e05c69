# Sourced by the scripts that drive the built studio in headless Chromium (smoke.sh, a11y.sh,
# browser_fuzz.sh): `need_built_studio NAME` stops with a clear message, prefixed by NAME,
# unless dist/ holds a release build and Chromium is found, and sets `chromium` to it
# (CHROMIUM overrides). Run from the repository root.

fail() {
  echo "$fail_name: $*" >&2
  echo "0 passed, 1 failed"
  exit 1
}

need_built_studio() {
  fail_name=$1
  chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
  [[ -f dist/index.html ]] || fail "dist/index.html is missing: run 'trunk build --release' from the repository root first."
  ls dist/*.wasm >/dev/null 2>&1 || fail "dist/ has no .wasm file: run 'trunk build --release' from the repository root first."
  [[ -n "$chromium" ]] || fail "chromium not found (apt-get install -y chromium), or set CHROMIUM=/path/to/chrome."
}
