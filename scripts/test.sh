#!/usr/bin/env bash
# Runs every check and test of ravenshard, installing what is missing first, in 18 steps:
# formatting, clippy (host and wasm32), the API docs with warnings denied, native
# unit/doc/integration/property tests (the library and the CLI), the JS API and the studio in
# headless Chromium, the release build of the studio, its smoke test, its inputs fuzzed
# (scripts/browser_fuzz.sh) and its accessibility test (axe-core over every tab) in headless
# Chromium, then the npm package: its tarball
# (scripts/js-package.sh), installed into a fresh project and tested in Node.js (import,
# require, the vectors, the README examples), by tsc --strict, in a plain page and bundled by
# esbuild in headless Chromium; the differential suite against RavenDB's own server code
# (tests/ravendb); and a short run of every fuzz target (fuzz/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$PWD/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# Headless Chromium leaves a profile of up to 170 MB in $TMPDIR whenever a test runner ends it
# without closing its session; hundreds of runs filled a disk. Every temporary file of this
# run goes in one folder, removed when the run ends.
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/ravenshard-test.XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"
# CI builds once from a fresh clone: incremental caches (about 2.3 GB) would only cost disk.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi

passed=0
failed_steps=()
step() {
  local name="$1"; shift
  printf '\n\033[1m== %s\033[0m\n' "$name"
  local started=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    printf '\033[1m== %s: ok (%ss)\033[0m\n' "$name" $((SECONDS - started))
  else
    failed_steps+=("$name")
    printf '\033[1;31m== %s: FAILED\033[0m\n' "$name"
  fi
}
in_dir() { (cd "$1" && shift && "$@"); }

step "rustfmt" cargo fmt --all --check
step "clippy (host)" cargo clippy --workspace --all-targets --locked -- -D warnings
clippy_wasm32() {
  cargo clippy --locked --target wasm32-unknown-unknown -p ravenshard -p ravenshard-design -p ravenshard-reshard \
      -p ravenshard-import -p ravenshard-advise -p ravenshard-model -p ravenshard-check --lib -- -D warnings &&
    cargo clippy --locked --target wasm32-unknown-unknown -p ravenshard-js -p ravenshard-studio --all-targets -- -D warnings
}
step "clippy (wasm32)" clippy_wasm32
api_docs() {
  # Every crate's documentation, with warnings denied, so that a link to an item that is gone
  # fails; the JS API and the studio also as wasm32 builds them. Libraries only: the CLI's
  # binary `ravenshard` would write over the core's pages (cargo#6313).
  RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --lib &&
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --locked --target wasm32-unknown-unknown \
      -p ravenshard-js -p ravenshard-studio
}
step "cargo doc (warnings denied; host and wasm32)" api_docs
native_tests() {
  # The workspace (the CLI turns on the core's icu-collation feature), then the core alone,
  # as the JS API and the studio build it (without the feature).
  cargo test --workspace --locked && cargo test --locked -p ravenshard
}
step "native tests (unit, doc, integration, CLI, properties)" native_tests
step "JS API in headless Chromium" in_dir js cargo test --locked --target wasm32-unknown-unknown
step "studio components in headless Chromium" in_dir web cargo test --locked --target wasm32-unknown-unknown
step "studio release build (trunk)" trunk build --release
step "studio smoke test (dist/ in headless Chromium)" scripts/smoke.sh
step "studio inputs fuzzed (3000 mutated imports, edits, links and saves in headless Chromium)" \
  scripts/browser_fuzz.sh 3000 "${BROWSER_FUZZ_SEED:-1}"
step "studio accessibility (axe-core over every tab, light and dark, in headless Chromium)" scripts/a11y.sh
step "npm package: the tarball (scripts/js-package.sh)" scripts/js-package.sh
step "npm package in Node.js (node --test: import, require, vectors, README examples, check)" js/package/test/run.sh node
step "npm package typings (tsc --noEmit --strict over every export)" js/package/test/run.sh types
step "npm package in a plain page (headless Chromium)" js/bench/run.sh
step "npm package bundled by esbuild (headless Chromium)" js/bench/run.sh --bundle
step "differential suite against RavenDB 7.1.5 and 6.2.4 (tests/ravendb: core, CLI, JS)" tests/ravendb/run.sh
step "fuzz (every target of fuzz/ for 20 s)" scripts/fuzz.sh all 20

echo
if [ ${#failed_steps[@]} -gt 0 ]; then
  printf 'failed: %s\n' "${failed_steps[@]}"
fi
echo "steps: $passed passed, ${#failed_steps[@]} failed, of $((passed + ${#failed_steps[@]}))"
[ ${#failed_steps[@]} -eq 0 ]
